"""A real ``candybot run`` process on the offline Discord, to drive, kill and start again.

The process is started as an operator starts the bot: ``candybot run`` with
``DISCORD_TOKEN`` and ``CANDYBOT_DB`` in its environment, in the database's folder. Only
where Discord is changes: discord.py's REST base (``Route.BASE``) and its gateway
(``DiscordWebSocket.DEFAULT_GATEWAY``, which a plain client connects to without asking
``/gateway/bot``) point at an :class:`~tools.offline_http.OfflineServer`, set as Python
starts by the ``sitecustomize`` of :data:`SITE` from the address in :data:`ADDRESS`
(:func:`pointed`: the one way any process, an operator's command included, is pointed at
the offline Discord). Everything else is the bot as it ships: its render workers, its
pacing, its outbox and reminders, its signal handlers::

    with OfflineServer(recorder) as server:
        bot = BotProcess(server, folder / "candybot.db")
        bot.start()
        bot.wait_ready()
        server.call(server.gateway.dispatch, server.call(server.gateway.command, ...))
        kill = server.kill_at(bot.pid, nth=3)
        ...
        bot.wait()          # after the kill
        bot.start()         # the same database, a new process
        bot.stop()
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path

from tools.offline_http import OfflineServer

#: The folder whose ``sitecustomize`` points a process at the offline Discord, and the
#: variable that says where it is.
SITE = Path(__file__).resolve().parent / "offline_site"
ADDRESS = "OFFLINE_DISCORD"
#: What the process runs: the ``candybot`` command's own entry point.
COMMAND = ("-m", "bot.cli")


def pointed(url: str, path: str = "") -> dict[str, str]:
    """The environment that points every Python process started with it at the offline
    Discord answering at ``url`` (:attr:`OfflineServer.url`); ``path``: more folders for
    ``PYTHONPATH``, after :data:`SITE`."""
    return {"PYTHONPATH": os.pathsep.join(filter(None, [str(SITE), path])), ADDRESS: url}


#: The line the bot logs once it is connected and ready (``CandyBot.ready_message``).
READY = "ready as "


class BotProcess:
    """``candybot run`` on ``db`` against ``server``; its standard error is kept in
    ``db``'s folder (``candybot-<n>.log`` for the n-th start). The process leads a process
    group of its own, so that a kill (:meth:`OfflineServer.kill_at`) takes its render
    workers with it, as when a container dies."""

    def __init__(self, server: OfflineServer, db: Path, *, args: tuple[str, ...] = (),
                 env: Mapping[str, str] | None = None) -> None:
        self.server = server
        self.db = db
        self.args = args
        self.env = {**{k: v for k, v in os.environ.items()
                       if not k.startswith(("CANDYBOT_", "DISCORD_"))},
                    **pointed(server.url, os.environ.get("PYTHONPATH", "")),
                    "DISCORD_TOKEN": server.token,
                    "CANDYBOT_DB": str(db), **(env or {})}
        self.process: subprocess.Popen[str] | None = None
        self.starts = 0
        self.lines: list[str] = []
        self._ready = threading.Event()
        self._reader: threading.Thread | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None, "not started"
        return self.process.pid

    @property
    def log(self) -> Path:
        return self.db.with_name(f"candybot-{self.starts}.log")

    def start(self) -> None:
        """Start the process (again: on the same database)."""
        assert self.process is None or self.process.poll() is not None, "still running"
        self.starts += 1
        # Each start has its own lines and ready flag: a killed process's workers may
        # hold its standard error a while after it is gone.
        self.lines = []
        self._ready = threading.Event()
        self.process = subprocess.Popen(
            [sys.executable, *COMMAND, "run", *self.args],
            cwd=self.db.parent, env=self.env, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            start_new_session=True)
        self._reader = threading.Thread(
            target=_read, args=(self.process, self.log, self.lines, self._ready),
            name="candybot-log", daemon=True)
        self._reader.start()

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Wait until the bot logs that it is ready (connected, its servers known)."""
        deadline = time.monotonic() + timeout
        while not self._ready.wait(0.05):
            if self.process is not None and self.process.poll() is not None:
                raise AssertionError(f"the bot ended ({self.process.returncode}) before it "
                                     f"was ready:\n{self.tail()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"the bot was not ready in {timeout:g} s:\n{self.tail()}")

    def wait(self, timeout: float = 30.0) -> int:
        """Wait for the process to end (after a kill); its exit status."""
        assert self.process is not None
        code = self.process.wait(timeout)
        if self._reader is not None:
            self._reader.join(1.0)  # its last lines, unless a worker still holds the pipe
        return code

    def stop(self, timeout: float = 30.0) -> int:
        """Stop the bot cleanly (SIGTERM, as ``docker stop``); its exit status."""
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process is not None else 0
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            return self.wait(timeout)

    def tail(self, lines: int = 30) -> str:
        """The end of what the process logged."""
        return "\n".join(self.lines[-lines:])


def _read(process: subprocess.Popen[str], path: Path, lines: list[str],
          ready: threading.Event) -> None:
    """Keep what ``process`` logs in ``path`` and ``lines``; set ``ready`` at its ready line."""
    assert process.stderr is not None
    with path.open("w", encoding="utf-8") as log:
        for line in process.stderr:
            log.write(line)
            log.flush()
            lines.append(line.rstrip("\n"))
            if READY in line:
                ready.set()
