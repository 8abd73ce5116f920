"""A throwaway PostgreSQL server for the tests, from the machine's server binaries.

The server lives in a temporary folder, listens only on a Unix socket there, runs
without fsync (nothing outlives the test run) and, when the tests run as root, as the
unprivileged user ``nobody`` (initdb refuses root). Each test gets a database of its own.
Without PostgreSQL's server binaries the tests that need it are skipped, unless
``CANDYBOT_REQUIRE_POSTGRES=1`` (as ``.ci/run`` sets) makes that a failure.

Run on its own, ``python -m tests.support.pgserver`` starts one and prints its URL until Ctrl-C.
"""

from __future__ import annotations

import ctypes
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import psycopg

REQUIRED = os.environ.get("CANDYBOT_REQUIRE_POSTGRES", "") == "1"


def bindir() -> Path | None:
    """The folder of the newest PostgreSQL server binaries here (``$PG_BIN`` first)."""
    given = os.environ.get("PG_BIN")
    candidates = [given] if given else []
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                         key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit()
                         else 0, reverse=True)
    found = shutil.which("initdb")
    if found:
        candidates.append(str(Path(found).parent))
    for folder in candidates:
        if folder and (Path(folder) / "initdb").exists() and (Path(folder) / "postgres").exists():
            return Path(folder)
    return None


class Server:
    """One running server; :meth:`database` makes a fresh database and returns its URL."""

    def __init__(self, folder: Path, process: subprocess.Popen[bytes]) -> None:
        self.folder = folder
        self.socket = folder / "socket"
        self.process = process
        self._count = 0

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://candybot@/{dbname}?host={self.socket}"

    def database(self) -> str:
        """A new empty database's URL."""
        self._count += 1
        name = f"t{os.getpid()}_{self._count}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        return self.url(name)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # fast shutdown
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def _die_with_parent() -> None:
    """Have the server shut down fast when the test process dies (killed by a timeout,
    say), instead of outliving it: Linux's parent-death signal, set in the child."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGINT)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _as_unprivileged() -> dict[str, Any]:
    """``subprocess`` arguments that drop root to ``nobody`` (nothing when not root)."""
    if os.geteuid() != 0:
        return {}
    nobody = pwd.getpwnam("nobody")
    return {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}


def start() -> Server:
    """Start a server; raises ``RuntimeError`` when this machine has no PostgreSQL."""
    folder_bin = bindir()
    if folder_bin is None:
        raise RuntimeError("PostgreSQL's server binaries (initdb, postgres) are not installed: "
                           "apt-get install postgresql, or set PG_BIN.")
    folder = Path(tempfile.mkdtemp(prefix="candybot-pg-"))
    data, sock = folder / "data", folder / "socket"
    sock.mkdir()
    drop = _as_unprivileged()
    if drop:
        for path in (folder, sock):
            os.chown(path, drop["user"], drop["group"])
    env = {"PATH": os.environ.get("PATH", ""), "LC_ALL": "C", "HOME": str(folder)}
    subprocess.run([str(folder_bin / "initdb"), "-D", str(data), "-U", "candybot",
                    "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"],
                   check=True, capture_output=True, env=env, cwd=folder, **drop)
    log = open(folder / "server.log", "wb")  # noqa: SIM115 (the server keeps writing it)
    process = subprocess.Popen(
        [str(folder_bin / "postgres"), "-D", str(data), "-k", str(sock), "-c",
         "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c",
         "full_page_writes=off", "-c", "max_connections=200", "-c",
         "unix_socket_permissions=0777"],
        stdout=log, stderr=subprocess.STDOUT, env=env, cwd=folder,
        preexec_fn=_die_with_parent, **drop)
    server = Server(folder, process)
    deadline = time.monotonic() + 30
    while True:
        try:
            psycopg.connect(server.url(), connect_timeout=2).close()
            return server
        except psycopg.OperationalError:
            if process.poll() is not None or time.monotonic() > deadline:
                text = (folder / "server.log").read_text(errors="replace")
                server.stop()
                raise RuntimeError(f"PostgreSQL did not start:\n{text[-2000:]}") from None
            time.sleep(0.1)


@contextmanager
def running() -> Iterator[Server]:
    server = start()
    try:
        yield server
    finally:
        server.stop()


if __name__ == "__main__":
    with running() as pg:
        print(pg.url(), flush=True)
        with suppress(KeyboardInterrupt):
            signal.pause()
