"""An operator's shell where Docker, Docker Compose and systemd are stand-ins.

The documented commands run as written, line by line, in ``bash``: ``cp``, ``echo``,
``find``, redirections, ``$(date +%F)`` and ``"$PWD"`` are the real ones. What this
machine cannot run is replaced by programs of the same name at the front of ``PATH``:

- ``docker`` (with ``docker compose``) and ``systemctl`` ask :class:`Engine`, which runs in
  the test's process and keeps their state (images, volumes, containers, units);
- ``sudo`` runs its command; ``git pull`` finds nothing new; ``date`` is 2026-11-23
  03:15 UTC, the day the documents' examples name.

The engine's image is what tests/support/image_build.py builds without a container engine. A
container is a process of that install with the image's environment, its ``-e`` and
``env_file`` settings and its volumes, paths inside it mapped onto folders of the
sandbox; ``docker stop`` sends the Dockerfile's STOPSIGNAL and, as Docker does, kills
after 10 s. Compose reads the compose files as ``docker compose`` merges them; its
``postgres`` service is the tests' throwaway PostgreSQL server, reached through the
machine's own ``pg_dump``, ``pg_restore`` and ``pg_isready``. A unit is started from its
file as systemd would (``EnvironmentFile``, ``Environment``, ``WorkingDirectory``,
``ExecStart`` with ``%i``), after ``systemd-analyze verify`` accepted it. Every bot and
command talks to the offline Discord (tools/offline_http.py), each Python process pointed
at it as it starts (tools/offline_process.py, ``pointed``).

Paths on the operator's machine that the documents name (``/srv/candybot``, ``/etc/...``)
are folders of the sandbox: :meth:`Sandbox.host` rewrites them in each line.

Not modelled: restart policies (a container that ends stays down), the health check's
schedule (``docker ps`` runs it until it passes, within the image's start period), users,
file ownership and separate process namespaces (every process here can see the others;
a scene checks instead what a container elsewhere would rely on: the stopped bot's
status on the volume).
"""

from __future__ import annotations

import base64
import json
import os
import re
import shlex
import shutil
import signal
import socketserver
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import psycopg

from tests.support.image_build import ROOT, Image, compose_config, stages
from tools.offline_process import ADDRESS, pointed

#: The documents' day: `date` in the sandbox, so that `candybot-$(date +%F).db` is the
#: file the restore examples name.
TODAY = "2026-11-23 03:15:00 UTC"
#: Folders of the operator's machine the documents name, kept inside the sandbox.
HOST_ROOTS = ("/srv/", "/etc/candybot", "/etc/systemd/system", "/var/lib/candybot")
#: What Docker waits after the stop signal before it kills (``docker stop``'s default).
DOCKER_STOP_SECONDS = 10.0
#: A running bot's first healthy status: the image's start period.
HEALTHY_WITHIN = 60.0


class Refused(Exception):
    """What the real tool would refuse; its message is printed and the command fails."""


@dataclass
class Result:
    code: int
    out: bytes = b""
    err: str = ""


def _clean_env() -> dict[str, str]:
    """This machine's environment without the tests' Python and candybot settings."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith(("PYTHON", "VIRTUAL_ENV", "CANDYBOT_", "DISCORD_",
                                 ADDRESS, "OPERATOR_SHELL", "COMPOSE_", "POSTGRES_"))}


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=VALUE`` lines as Compose and systemd read them (comments and blanks skipped,
    one pair of quotes taken off)."""
    out: dict[str, str] = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        out[key.strip()] = value
    return out


# --------------------------------------------------------------------------- processes


@dataclass
class Box:
    """Where a program runs: a container (or a unit): its environment, its folders."""

    image: Image
    env: dict[str, str]
    #: Container path -> host folder; the longest match wins.
    mounts: dict[PurePosixPath, Path]
    workdir: Path
    #: The offline Discord's address, for every Python process started here.
    discord: str
    #: A PostgreSQL URL's host as the box knows it -> the throwaway server's socket.
    hosts: dict[str, Path] = field(default_factory=dict)

    def host(self, path: str) -> str:
        """A path inside the box, on the machine; other words unchanged."""
        if not path.startswith("/"):
            return path
        inside = PurePosixPath(path)
        for target in sorted(self.mounts, key=lambda p: len(p.parts), reverse=True):
            if inside == target or target in inside.parents:
                return str(self.mounts[target] / inside.relative_to(target))
        return path

    def value(self, text: str) -> str:
        """An environment value as the processes here must read it."""
        match = re.match(r"postgresql://([^@/]*)@([^/:]+)(?::\d+)?/(\w+)$", text)
        if match and match.group(2) in self.hosts:
            user, server, name = match.groups()
            return f"postgresql://{user}@/{name}?host={self.hosts[server]}"
        return self.host(text)

    def environment(self) -> dict[str, str]:
        env = {**_clean_env(), **{k: self.value(v) for k, v in self.env.items()},
               "HOME": str(self.workdir), **pointed(self.discord)}
        env["PATH"] = f"{self.image.bin}{os.pathsep}{env.get('PATH', '')}"
        return env

    def argv(self, words: list[str]) -> list[str]:
        program, *args = words
        found = self.image.bin / program
        if not found.exists():
            raise Refused(f"exec: {program!r}: executable file not found in $PATH")
        return [str(found), *[self.host(a) for a in args]]

    def run(self, words: list[str], stdin: bytes = b"") -> Result:
        done = subprocess.run(self.argv(words), input=stdin, capture_output=True,
                              cwd=self.workdir, env=self.environment(), timeout=600)
        return Result(done.returncode, done.stdout, done.stderr.decode(errors="replace"))

    def start(self, words: list[str], log: Path) -> subprocess.Popen[bytes]:
        with log.open("ab") as out:
            return subprocess.Popen(self.argv(words), stdout=out, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, cwd=self.workdir,
                                    env=self.environment())


@dataclass
class Container:
    """A container made from the image: its box, its command, and its process if running."""

    name: str
    box: Box
    command: list[str]
    log: Path
    #: What made it, to tell whether Compose must make it again.
    made_from: str = ""
    process: subprocess.Popen[bytes] | None = None
    exit_code: int | None = None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        self.process = self.box.start(self.command, self.log)
        self.exit_code = None

    def stop(self, signal_name: str, seconds: float) -> None:
        """Send ``signal_name``, and kill after ``seconds`` as Docker and systemd do."""
        if not self.running:
            return
        assert self.process is not None
        self.process.send_signal(getattr(signal, signal_name))
        try:
            self.exit_code = self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            self.exit_code = 137
        if self.exit_code != 0:
            raise Refused(f"{self.name} did not stop cleanly within {seconds:g} s (exit "
                          f"{self.exit_code}); its log:\n{self.log.read_text()[-3000:]}")

    def healthy(self) -> bool:
        """The image's HEALTHCHECK, run inside the container."""
        check = list(stages()[-1].last("HEALTHCHECK").value)
        assert check[0] == "CMD"
        return self.running and self.box.run(check[1:]).code == 0

    def until_healthy(self) -> None:
        deadline = time.monotonic() + HEALTHY_WITHIN
        while not self.healthy():
            if not self.running or time.monotonic() > deadline:
                raise Refused(f"{self.name} never became healthy; its log:\n"
                              f"{self.log.read_text()[-3000:]}")
            time.sleep(0.2)


# --------------------------------------------------------------------------- the engine


class Engine:
    """The state behind ``docker``, ``docker compose`` and ``systemctl``."""

    def __init__(self, sandbox: Sandbox, image: Image, discord: str,
                 postgres: Any | None = None) -> None:
        self.sandbox = sandbox
        self.image = image
        self.discord = discord
        self.postgres = postgres
        self.built = False
        self.containers: dict[str, Container] = {}
        self.units: dict[str, Container] = {}
        self.services: dict[str, Container] = {}
        self.postgres_running = False
        self._numbers = iter(range(1, 10_000))
        self.lock = threading.Lock()

    # -------------------------------------------------------------- shared parts

    def volume(self, name: str) -> Path:
        folder = self.sandbox.root / "volumes" / name
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def _box(self, env: dict[str, str], mounts: dict[PurePosixPath, Path]) -> Box:
        """A new container's box: the image's ENV and WORKDIR, an anonymous volume for
        each VOLUME the run did not mount."""
        runtime = stages()[-1]
        for (target,) in (c.value for c in runtime.all("VOLUME")):
            if PurePosixPath(target) not in mounts:
                mounts[PurePosixPath(target)] = self.volume(f"anonymous-{next(self._numbers)}")
        workdir = self.sandbox.root / "containers" / f"home-{next(self._numbers)}"
        workdir.mkdir(parents=True)
        hosts = {"postgres": self.postgres.socket} if self.postgres is not None else {}
        return Box(self.image, {**self.image.declared, **env}, mounts, workdir,
                   self.discord, hosts)

    def _log(self, name: str) -> Path:
        folder = self.sandbox.root / "logs"
        folder.mkdir(exist_ok=True)
        return folder / f"{name}-{next(self._numbers)}.log"

    @staticmethod
    def _image_command(words: list[str]) -> list[str]:
        return words or list(stages()[-1].last("CMD").value)

    def handle(self, program: str, argv: list[str], cwd: Path, env: dict[str, str],
               stdin: bytes) -> Result:
        try:
            with self.lock:
                if program == "systemctl":
                    return self.systemctl(argv)
                if argv[:1] == ["compose"]:
                    return self.compose(argv[1:], cwd, env, stdin)
                return self.docker(argv, cwd, stdin)
        except Refused as exc:
            return Result(1, err=f"{program}: {exc}\n")

    # -------------------------------------------------------------- docker

    def docker(self, argv: list[str], cwd: Path, stdin: bytes) -> Result:
        verb, *rest = argv
        if verb == "build":
            if rest != ["-t", "candybot", "."] or not (cwd / "Dockerfile").exists():
                raise Refused(f"only `docker build -t candybot .` in the clone: {argv}")
            self.built = True
            return Result(0, b"naming to docker.io/library/candybot\n")
        if verb == "run":
            return self.docker_run(rest, cwd, stdin)
        if verb in ("exec", "stop", "start", "rm"):
            name = rest[0]
            if name not in self.containers:
                raise Refused(f"No such container: {name}")
            container = self.containers[name]
            if verb == "exec":
                if not container.running:
                    raise Refused(f"container {name} is not running")
                return container.box.run(rest[1:], stdin)
            if verb == "stop":
                container.stop(str(stages()[-1].last("STOPSIGNAL").value[0]),
                               DOCKER_STOP_SECONDS)
            elif verb == "start":
                if not container.running:
                    container.start()
            else:
                if container.running:
                    raise Refused(f"cannot remove container {name}: it is running")
                del self.containers[name]
            return Result(0, f"{name}\n".encode())
        if verb == "cp":
            source, target = rest
            name, _, inside = source.partition(":")
            if name not in self.containers:
                raise Refused(f"No such container: {name}")
            shutil.copy(self.containers[name].box.host(inside), cwd / target)
            return Result(0)
        if verb == "ps":
            if rest[:1] != ["--filter"] or not rest[1].startswith("name="):
                raise Refused(f"only `docker ps --filter name=...`: {argv}")
            lines = ["NAMES\tSTATUS"]
            for name, container in self.containers.items():
                if rest[1].removeprefix("name=") in name and container.running:
                    container.until_healthy()
                    lines.append(f"{name}\tUp (healthy)")
            return Result(0, ("\n".join(lines) + "\n").encode())
        raise Refused(f"this stand-in has no `docker {verb}`")

    def docker_run(self, words: list[str], cwd: Path, stdin: bytes) -> Result:
        if not self.built:
            raise Refused("Unable to find image 'candybot:latest' locally (build it first)")
        env: dict[str, str] = {}
        mounts: dict[PurePosixPath, Path] = {}
        name, detach = None, False
        rest = iter(words)
        for word in rest:
            if word in ("--rm", "-it", "-i", "-t"):
                continue
            if word == "-d":
                detach = True
            elif word == "--name":
                name = next(rest)
            elif word == "--restart":
                if next(rest) not in ("no", "always", "on-failure", "unless-stopped"):
                    raise Refused("invalid restart policy")
            elif word == "--log-opt":
                key = next(rest).partition("=")[0]
                if key not in ("max-size", "max-file"):
                    raise Refused(f"unknown log opt {key!r} for json-file log driver")
            elif word == "-e":
                key, _, value = next(rest).partition("=")
                env[key] = value
            elif word == "-v":
                self._mount(mounts, next(rest), cwd)
            elif word == "-p":
                next(rest)
            elif word.startswith("-"):
                raise Refused(f"this stand-in does not know the flag {word}")
            else:
                if word != "candybot":
                    raise Refused(f"no image {word!r}: the documents build `candybot`")
                command = self._image_command(list(rest))
                break
        else:
            raise Refused("docker run needs an image")
        box = self._box(env, mounts)
        if not detach:
            return box.run(command, stdin)
        if name is None or name in self.containers:
            raise Refused(f"the container name {name!r} is already in use" if name else
                          "the documents name their containers")
        container = Container(name, box, command, self._log(name))
        container.start()
        self.containers[name] = container
        return Result(0, f"{name}\n".encode())

    def _mount(self, mounts: dict[PurePosixPath, Path], spec: str, cwd: Path) -> None:
        source, target, *mode = spec.split(":")
        if mode not in ([], ["ro"], ["rw"]):
            raise Refused(f"invalid mode in {spec!r}")
        if source.startswith("/"):
            folder = Path(source)
            if not folder.is_dir():
                raise Refused(f"bind source path does not exist: {source}")
        elif source.startswith("."):
            folder = (cwd / source).resolve()
        else:
            folder = self.volume(source)
        mounts[PurePosixPath(target)] = folder

    # -------------------------------------------------------------- compose

    def compose(self, argv: list[str], cwd: Path, shell: dict[str, str],
                stdin: bytes) -> Result:
        files: list[str] = []
        while argv[:1] == ["-f"]:
            files.append(argv[1])
            argv = argv[2:]
        dotenv = read_env_file(cwd / ".env") if (cwd / ".env").exists() else {}
        settings = {**dotenv, **{k: v for k, v in shell.items() if k in dotenv
                                 or k.startswith(("COMPOSE_", "DISCORD_", "POSTGRES_"))}}
        if not files:
            files = settings.get("COMPOSE_FILE", "compose.yaml").split(":")
        for name in files:
            if not (cwd / name).exists():
                raise Refused(f"no configuration file {name} in {cwd}")
        try:
            config = compose_config(*files, env=settings, folder=cwd)
        except AssertionError as exc:
            raise Refused(str(exc)) from None
        verb, *rest = argv
        if verb == "build":
            self.built = True
            return Result(0)
        if verb == "up":
            if "-d" not in rest:
                raise Refused("the documents start Compose in the background: up -d")
            self.built = True
            for service in self._order(config, list(config["services"])):
                self._up(config, service, cwd)
            return Result(0)
        if verb == "run":
            return self._compose_run(config, rest, cwd, stdin)
        if verb == "exec":
            tty = "-T" not in rest
            rest = [w for w in rest if w != "-T"]
            service, *command = rest
            if tty and stdin:
                raise Refused("the input device is not a TTY (use exec -T with < FILE)")
            if service == "postgres":
                if not self.postgres_running:
                    raise Refused("service postgres is not running")
                return self._postgres_tool(command, stdin)
            return self._service(service).box.run(command, stdin)
        if verb in ("stop", "start"):
            for service in rest or list(config["services"]):
                if service == "postgres":
                    self.postgres_running = verb == "start"
                elif verb == "stop":
                    self._service(service).stop(self._stop_signal(config, service),
                                                self._grace(config, service))
                else:
                    for needed in self._order(config, [service])[:-1]:
                        self._up(config, needed, cwd)
                    if service not in self.services:
                        raise Refused(f"service {service!r} has no container to start")
                    container = self.services[service]
                    if not container.running:
                        container.start()
            return Result(0)
        if verb == "ps":
            lines = ["SERVICE\tSTATUS"]
            for service in config["services"]:
                if service == "postgres":
                    lines.append(f"postgres\t{'Up (healthy)' if self._pg_ready() else 'Exited'}")
                elif service in self.services and self.services[service].running:
                    self.services[service].until_healthy()
                    lines.append(f"{service}\tUp (healthy)")
            return Result(0, ("\n".join(lines) + "\n").encode())
        if verb == "cp":
            source, target = rest
            service, _, inside = source.partition(":")
            shutil.copy(self._service(service).box.host(inside), cwd / target)
            return Result(0)
        raise Refused(f"this stand-in has no `docker compose {verb}`")

    @staticmethod
    def _order(config: dict[str, Any], services: list[str]) -> list[str]:
        """``services`` with what each depends on first."""
        out: list[str] = []
        for service in services:
            for needed in config["services"][service].get("depends_on", {}):
                if needed not in out:
                    out.append(needed)
            if service not in out:
                out.append(service)
        return out

    @staticmethod
    def _stop_signal(config: dict[str, Any], service: str) -> str:
        return str(config["services"][service].get(
            "stop_signal", stages()[-1].last("STOPSIGNAL").value[0]))

    @staticmethod
    def _grace(config: dict[str, Any], service: str) -> float:
        return float(str(config["services"][service].get("stop_grace_period", "10s"))
                     .removesuffix("s"))

    def _service(self, service: str) -> Container:
        container = self.services.get(service)
        if container is None or not container.running:
            raise Refused(f"service {service!r} is not running")
        return container

    def _service_box(self, config: dict[str, Any], service: str, cwd: Path,
                     extra: list[str] = ()) -> tuple[Box, str]:
        spec = config["services"][service]
        if spec.get("image") != "candybot" or spec.get("build") != ".":
            raise Refused(f"service {service} is not the candybot image built here")
        env: dict[str, str] = {}
        for entry in spec.get("env_file", []):
            path = cwd / (entry["path"] if isinstance(entry, dict) else entry)
            if path.exists():
                env.update(read_env_file(path))
            elif not isinstance(entry, dict) or entry.get("required", True):
                raise Refused(f"env file {path} not found")
        env.update({k: str(v) for k, v in (spec.get("environment") or {}).items()})
        mounts: dict[PurePosixPath, Path] = {}
        for volume in spec.get("volumes", []):
            source, target = volume.split(":")[:2]
            named = config.get("volumes", {}).get(source, {}) or {}
            self._mount(mounts, f"{named.get('name', source)}:{target}", cwd)
        for spec_text in extra:
            self._mount(mounts, spec_text, cwd)
        made_from = json.dumps([env, sorted(map(str, mounts))], sort_keys=True)
        return self._box(env, mounts), made_from

    def _up(self, config: dict[str, Any], service: str, cwd: Path) -> None:
        if service == "postgres":
            self._postgres_up(config)
            return
        for needed, condition in config["services"][service].get("depends_on", {}).items():
            if condition.get("condition") == "service_healthy" and needed == "postgres" \
                    and not self._pg_ready():
                raise Refused("dependency postgres is not healthy")
        box, made_from = self._service_box(config, service, cwd)
        old = self.services.get(service)
        if old is not None and old.running and old.made_from == made_from:
            return
        if old is not None:
            old.stop(self._stop_signal(config, service), self._grace(config, service))
        container = Container(f"candybot-{service}-1", box, self._image_command([]),
                              self._log(service), made_from)
        container.start()
        self.services[service] = container

    def _compose_run(self, config: dict[str, Any], words: list[str], cwd: Path,
                     stdin: bytes) -> Result:
        extra: list[str] = []
        rest = iter(words)
        for word in rest:
            if word in ("--rm", "-T"):
                continue
            if word == "-v":
                extra.append(next(rest))
            elif word.startswith("-"):
                raise Refused(f"this stand-in does not know the flag {word}")
            else:
                service, command = word, list(rest)
                break
        else:
            raise Refused("compose run needs a service")
        for needed in self._order(config, [service])[:-1]:
            self._up(config, needed, cwd)
        box, _ = self._service_box(config, service, cwd, extra)
        return box.run(self._image_command(command), stdin)

    # -------------------------------------------------------------- the postgres service

    def _postgres_up(self, config: dict[str, Any]) -> None:
        if self.postgres is None:
            raise Refused("this sandbox has no PostgreSQL server")
        spec = config["services"]["postgres"]
        name = spec["environment"]["POSTGRES_DB"]
        if spec["environment"]["POSTGRES_USER"] != "candybot":
            raise Refused("the throwaway server's user is candybot")
        with psycopg.connect(self.postgres.url(), autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                (name,)).fetchone():
                conn.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        self.postgres_running = True
        test = spec["healthcheck"]["test"]
        assert test[0] == "CMD"
        if self._postgres_tool(test[1:]).code != 0:
            raise Refused("postgres is unhealthy")

    def _pg_ready(self) -> bool:
        return self.postgres_running and self._postgres_tool(
            ["pg_isready", "-U", "candybot"]).code == 0

    def _postgres_tool(self, words: list[str], stdin: bytes = b"") -> Result:
        from tests.support.pgserver import bindir

        folder = bindir()
        assert folder is not None
        program, *args = words
        if not (folder / program).exists():
            raise Refused(f"the postgres image has no {program}")
        env = {**_clean_env(), "PGHOST": str(self.postgres.socket)}
        done = subprocess.run([str(folder / program), *args], input=stdin, env=env,
                              capture_output=True, timeout=600)
        return Result(done.returncode, done.stdout, done.stderr.decode(errors="replace"))

    # -------------------------------------------------------------- systemd

    def systemctl(self, argv: list[str]) -> Result:
        folder = self.sandbox.path("/etc/systemd/system")
        if argv == ["daemon-reload"]:
            for unit in sorted(folder.glob("*.service")):
                self._verify(unit)
            return Result(0)
        if argv[:2] == ["enable", "--now"]:
            for instance in argv[2:]:
                self._start_unit(folder, instance)
            return Result(0)
        if argv[:1] == ["stop"]:
            for instance in argv[1:]:
                unit = self.units[instance]
                spec = unit_file(self.sandbox.path("/etc/systemd/system")
                                 / template_of(instance))["Service"]
                unit.stop(spec["KillSignal"][-1], float(spec["TimeoutStopSec"][-1]))
            return Result(0)
        raise Refused(f"this stand-in has no `systemctl {' '.join(argv)}`")

    def _verify(self, unit: Path) -> None:
        """``systemd-analyze verify`` on the unit as installed here (an instance of a
        template), where this machine has it."""
        analyze = shutil.which("systemd-analyze")
        if analyze is None:
            return
        copy = self.sandbox.root / "verify" / unit.name
        copy.parent.mkdir(exist_ok=True)
        copy.write_text(self.sandbox.host(unit.read_text()))
        name = copy.name.replace("@.", "@0.") if "@." in copy.name else copy.name
        done = subprocess.run([analyze, "verify", str(copy.parent / name)],
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0 or done.stderr.strip():
            raise Refused(f"systemd-analyze verify {unit.name}: {done.stderr}")

    def _start_unit(self, folder: Path, instance: str) -> None:
        path = folder / template_of(instance)
        if not path.exists():
            raise Refused(f"Unit {instance}.service not found.")
        number = instance.partition("@")[2]
        spec = unit_file(Path(path))["Service"]

        def fill(text: str) -> str:
            return self.sandbox.host(text.replace("%i", number))

        env: dict[str, str] = {}
        for listed in spec.get("EnvironmentFile", []):
            env.update({key: self.sandbox.host(value)
                        for key, value in read_env_file(Path(fill(listed))).items()})
        for listed in spec.get("Environment", []):
            key, _, value = fill(listed).partition("=")
            env[key] = value
        for state in spec.get("StateDirectory", []):
            self.sandbox.path(f"/var/lib/{state}").mkdir(parents=True, exist_ok=True)
        workdir = Path(fill(spec["WorkingDirectory"][-1]))
        command = shlex.split(fill(spec["ExecStart"][-1]))
        program = Path(command[0])
        if not program.exists():
            raise Refused(f"{instance}: {command[0]} is not executable")
        image = Image(self.image.python, program.parent, workdir, {}, [], {})
        box = Box(image, env, {}, workdir, self.discord)
        unit = Container(instance, box, [program.name, *command[1:]], self._log(instance))
        unit.start()
        self.units[instance] = unit


def template_of(instance: str) -> str:
    """``candybot@0`` -> ``candybot@.service``."""
    name, at, _ = instance.removesuffix(".service").partition("@")
    return f"{name}{at}.service"


def unit_file(path: Path) -> dict[str, dict[str, list[str]]]:
    """A systemd unit file: section -> key -> every value given, in order (systemd allows
    a key more than once)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


# --------------------------------------------------------------------------- the shell


class Sandbox:
    """The operator's machine: its folders under ``root``, the clone at /srv/candybot."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.clone = self.path("/srv/candybot")

    def path(self, host_path: str) -> Path:
        return self.root / host_path.lstrip("/")

    def host(self, text: str) -> str:
        """``text`` with the documents' machine paths moved into the sandbox."""
        for prefix in HOST_ROOTS:
            text = re.sub(rf"(?<![\w/.]){re.escape(prefix)}", str(self.root) + prefix, text)
        return text


_SHIM = """#!{python} -S
import base64, json, os, socket, sys
request = {{"program": os.path.basename(sys.argv[0]), "argv": sys.argv[1:],
            "cwd": os.getcwd(), "env": dict(os.environ),
            "stdin": base64.b64encode(sys.stdin.buffer.read()).decode()}}
with socket.socket(socket.AF_UNIX) as conn:
    conn.connect(os.environ["OPERATOR_SHELL"])
    conn.sendall(json.dumps(request).encode() + b"\\n")
    answer = json.loads(conn.makefile("rb").readline())
sys.stdout.buffer.write(base64.b64decode(answer["out"]))
sys.stderr.write(answer["err"])
sys.exit(answer["code"])
"""


class _Handler(socketserver.StreamRequestHandler):
    engine: Engine

    def handle(self) -> None:
        request = json.loads(self.rfile.readline())
        result = self.server.engine.handle(  # type: ignore[attr-defined]
            request["program"], request["argv"], Path(request["cwd"]), request["env"],
            base64.b64decode(request["stdin"]))
        self.wfile.write(json.dumps({"code": result.code, "err": result.err,
                                     "out": base64.b64encode(result.out).decode()}).encode()
                         + b"\n")


@dataclass
class Ran:
    """A line the shell ran, as the document wrote it, and how it went."""

    line: str
    code: int
    out: str
    err: str


@dataclass
class Terminal:
    """A command left running in a terminal of its own (``candybot run``, ``web``)."""

    line: str
    process: subprocess.Popen[bytes]
    log: Path


class Shell:
    """Runs documented lines in ``bash`` in the clone, with the stand-ins on ``PATH``."""

    def __init__(self, sandbox: Sandbox, engine: Engine, token: str) -> None:
        self.sandbox = sandbox
        self.engine = engine
        self.token = token
        self.ran: list[Ran] = []
        self.terminals: list[Terminal] = []
        bin_dir = sandbox.root / "bin"
        bin_dir.mkdir()
        for name in ("docker", "systemctl"):
            shim = bin_dir / name
            shim.write_text(_SHIM.format(python=sys.executable))
            shim.chmod(0o755)
        for name, body in (("sudo", 'exec "$@"'),
                           ("git", '[ "$*" = pull ] && echo "Already up to date." && exit 0\n'
                                   'echo "git $*: not in this sandbox" >&2; exit 1'),
                           ("date", f'exec /bin/date -d "{TODAY}" "$@"')):
            shim = bin_dir / name
            shim.write_text(f"#!/bin/sh\n{body}\n")
            shim.chmod(0o755)
        self._closed = False
        self.socket = sandbox.root / "engine.sock"
        server = socketserver.ThreadingUnixStreamServer(str(self.socket), _Handler)
        server.engine = engine  # type: ignore[attr-defined]
        self._server = server
        threading.Thread(target=server.serve_forever, daemon=True).start()
        # The bot's install on the operator's PATH, as in an activated venv.
        self.env = {**_clean_env(), "OPERATOR_SHELL": str(self.socket),
                    **pointed(engine.discord),
                    "PATH": os.pathsep.join([str(bin_dir), str(engine.image.bin),
                                             os.environ.get("PATH", "")])}

    def close(self) -> None:
        """Kill whatever still runs (a failed scene), and stop serving the stand-ins."""
        if self._closed:
            return
        self._closed = True
        for terminal in self.terminals:
            if terminal.process.poll() is None:
                terminal.process.kill()
                terminal.process.wait()
        for container in [*self.engine.containers.values(), *self.engine.services.values(),
                          *self.engine.units.values()]:
            if container.running:
                assert container.process is not None
                container.process.kill()
                container.process.wait()
        self._server.shutdown()
        self._server.server_close()

    @staticmethod
    def lines(block: str) -> Iterator[tuple[str, str]]:
        """Each command of a block (continuations joined) with its comment."""
        for line in block.replace("\\\n", " ").splitlines():
            command, comment = line.strip(), ""
            # The documents' comments follow a command after spaces, as "  # ...".
            found = re.search(r"\s+#\s(.*)$", line)
            if found and found.start() > 0:
                command, comment = line[:found.start()].strip(), found.group(1).strip()
            if command and not command.startswith("#"):
                yield command, comment

    def run_commands(self, commands: list[tuple[str, str]]) -> None:
        """Run each command; then do by hand what its comment asks, if anything."""
        for command, comment in commands:
            self.run(command)
            if comment in FOLLOW_UPS:
                FOLLOW_UPS[comment](self)

    def run(self, command: str, *, cwd: Path | None = None, shell: str = "bash") -> Ran:
        """Run one documented line; it must succeed. ``candybot run`` and ``candybot web``
        are left running."""
        words = shlex.split(command)
        if len(words) == 2 and words[0].endswith("candybot") and words[1] in ("run", "web"):
            return self.open_terminal(command)
        done = subprocess.run([shell, "-c", self.sandbox.host(command)],
                              cwd=cwd or self.sandbox.clone, env=self.env,
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=900)
        ran = Ran(command, done.returncode, done.stdout.decode(errors="replace"),
                  done.stderr.decode(errors="replace"))
        self.ran.append(ran)
        assert ran.code == 0, f"`{command}` exited {ran.code}:\n{ran.out}\n{ran.err}"
        return ran

    def open_terminal(self, command: str) -> Ran:
        log = self.sandbox.root / f"terminal-{len(self.terminals)}.log"
        with log.open("wb") as out:
            process = subprocess.Popen(["bash", "-c", f"exec {self.sandbox.host(command)}"],
                                       cwd=self.sandbox.clone, env=self.env,
                                       stdin=subprocess.DEVNULL, stdout=out,
                                       stderr=subprocess.STDOUT)
        self.terminals.append(Terminal(command, process, log))
        ran = Ran(command, 0, "", "")
        self.ran.append(ran)
        return ran

    def candybot(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``candybot ARGS`` beside the operator's bot (their PATH, the clone)."""
        return subprocess.run(["candybot", *args], cwd=self.sandbox.clone, env=self.env,
                              capture_output=True, text=True, timeout=120)

    def ctrl_c(self) -> str:
        """Ctrl-C in the terminal left running: SIGINT; it must end cleanly, at once."""
        terminal = self.terminals[-1]
        terminal.process.send_signal(signal.SIGINT)
        assert terminal.process.wait(timeout=DOCKER_STOP_SECONDS) == 0, \
            terminal.log.read_text()
        return terminal.log.read_text()

    def paste_token(self, path: str = ".env") -> None:
        """What the operator does by hand: the token after ``DISCORD_TOKEN=``."""
        file = self.sandbox.clone / path
        text = file.read_text()
        assert "\nDISCORD_TOKEN=\n" in text, f"{path} has no empty DISCORD_TOKEN= line"
        file.write_text(text.replace("\nDISCORD_TOKEN=\n", f"\nDISCORD_TOKEN={self.token}\n"))


#: A line's comment that asks the operator to do something by hand, and how it is done.
FOLLOW_UPS: dict[str, Callable[[Shell], None]] = {
    "then paste the token after DISCORD_TOKEN= in .env": Shell.paste_token,
    "then paste the bot's token after DISCORD_TOKEN= in .env": Shell.paste_token,
}


@contextmanager
def operator_shell(root: Path, image: Image, discord: str, token: str,
                   postgres: Any | None = None) -> Iterator[Shell]:
    """A sandbox under ``root`` whose clone holds the repository's operator files, the
    install at ``.venv``, and a shell over it."""
    sandbox = Sandbox(root)
    sandbox.clone.mkdir(parents=True)
    sandbox.path("/etc/systemd/system").mkdir(parents=True)
    for name in ("Dockerfile", ".dockerignore", "compose.yaml", "compose.postgres.yaml",
                 ".env.example", "deploy"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, sandbox.clone / name)
        else:
            shutil.copy(source, sandbox.clone / name)
    (sandbox.clone / ".venv").symlink_to(image.python.parents[1])
    shell = Shell(sandbox, Engine(sandbox, image, discord, postgres), token)
    try:
        yield shell
    finally:
        shell.close()


def wait_for(test: Callable[[], Any], seconds: float = 60, what: str = "") -> Any:
    deadline = time.monotonic() + seconds
    while True:
        found = test()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.2)
