"""What the Dockerfile builds, built without a container engine (CI machines have none).

:func:`build_image` reads the Dockerfile with the official parser (the ``dockerfile``
package), takes from the build context exactly what each COPY line takes (respecting
``.dockerignore``, with the rules docker-py applies), and runs each ``pip`` RUN line as
written (container paths mapped into a temporary folder, pip's cache allowed so that it
stays fast) into a fresh venv: the image's install. :func:`compose_config` reads compose
files as ``docker compose`` merges them. tests/test_image.py and
tests/test_operator_docs.py use both.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import venv
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import dockerfile
import pytest
import yaml
from docker.utils.build import exclude_paths

from tests.support.paths import ROOT

COMMANDS = dockerfile.parse_file(str(ROOT / "Dockerfile"))
#: RUN lines that prepare the system (the user, the volume's folder) rather than Python;
#: tests/test_image.py checks what they must do.
SYSTEM_STEP = re.compile(r"^(useradd|mkdir|chown)\b")


@dataclass
class Stage:
    """One FROM ... section of the Dockerfile."""

    image: str
    name: str | None
    commands: list[dockerfile.Command] = field(default_factory=list)

    def all(self, cmd: str) -> list[dockerfile.Command]:
        return [c for c in self.commands if c.cmd == cmd]

    def last(self, cmd: str) -> dockerfile.Command:
        found = self.all(cmd)
        assert found, f"the stage from {self.image} has no {cmd}"
        return found[-1]


def stages() -> list[Stage]:
    out: list[Stage] = []
    for command in COMMANDS:
        if command.cmd == "FROM":
            image, *rest = command.value
            name = rest[1] if len(rest) == 2 and rest[0].upper() == "AS" else None
            out.append(Stage(image, name))
        else:
            out[-1].commands.append(command)
    return out


def flags(command: dockerfile.Command) -> dict[str, str]:
    return dict(flag.removeprefix("--").split("=", 1) for flag in command.flags)


def context_files() -> set[str]:
    """Files of the build context that survive .dockerignore (docker-py's own matching)."""
    patterns = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.lstrip().startswith("#")]
    return {p for p in exclude_paths(str(ROOT), patterns) if (ROOT / p).is_file()}


class Filesystem:
    """A stage's filesystem: container paths mapped into a temporary folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.workdir = PurePosixPath("/")
        self.mounts: dict[PurePosixPath, Path] = {}

    def host(self, path: str | PurePosixPath) -> Path:
        container = self.workdir / path  # an absolute path stays as it is
        for target, source in self.mounts.items():
            if container == target or target in container.parents:
                return source / container.relative_to(target)
        return self.root / container.relative_to("/")

    def copy(self, context: set[str], sources: list[str], dest: str) -> list[str]:
        """COPY from the build context; returns the context files taken."""
        taken = []
        for source in sources:
            inside = sorted(f for f in context if f == source or f.startswith(source + "/"))
            assert inside, f"COPY {source}: nothing in the build context (.dockerignore?)"
            for name in inside:
                if name == source:
                    target = self.host(dest) / Path(name).name if dest.endswith("/") \
                        else self.host(dest)
                else:
                    target = self.host(dest) / Path(name).relative_to(source)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / name, target)
                taken.append(name)
        return taken

    def run_pip(self, line: str, python: Path) -> None:
        """A RUN line that calls pip, as written, with this stage's paths on the host."""
        words = []
        for word in shlex.split(line):
            if word == "--no-cache-dir":
                continue  # the local cache keeps the test fast; it changes nothing installed
            if word.startswith("/"):
                word = str(self.host(word))
            words.append(word)
        assert words[0] == "pip", f"not a pip line: {line}"
        cwd = self.host(".")
        cwd.mkdir(parents=True, exist_ok=True)
        # Through a shell, as Docker runs a RUN line, so that globs expand.
        command = " ".join([shlex.quote(str(python)), "-m", "pip", *[
            w if "*" in w else shlex.quote(w) for w in words[1:]]])
        done = subprocess.run(["sh", "-c", command], cwd=cwd, capture_output=True, text=True,
                              env=_clean_env())
        assert done.returncode == 0, f"RUN {line}\n{done.stdout}\n{done.stderr}"


def _clean_env(**extra: str) -> dict[str, str]:
    """An environment without this checkout on the path, as in a fresh container."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "VIRTUAL_ENV", "CANDYBOT_", "DISCORD_"))}
    return {**env, **extra}


@dataclass
class Image:
    """What the emulated build produced: the runtime's Python, its env and what was copied."""

    python: Path
    bin: Path
    home: Path
    env: dict[str, str]
    copied: list[str]
    #: The ENV lines as the Dockerfile declares them (container paths).
    declared: dict[str, str] = field(default_factory=dict)

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return self.run_with({}, *args)

    def run_with(self, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.bin / args[0]), *args[1:]], cwd=self.home,
                              env={**self.env, **env}, capture_output=True, text=True,
                              timeout=600)


def shared_image(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Image:
    """The image built once a run: the first of the test workers (pytest-xdist) to ask
    builds it while the others wait, then each reads it; every worker has a home and a
    database folder of its own (``worker_id`` ``"master"``: no workers, built here)."""
    if worker_id == "master":
        return build_image(tmp_path_factory)
    shared = tmp_path_factory.getbasetemp().parent  # the run's folder, above each worker's
    with (shared / "image.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        kept = shared / "image.json"
        if not kept.exists():
            image = build_image(tmp_path_factory)
            kept.write_text(json.dumps({"python": str(image.python), "bin": str(image.bin),
                                        "copied": image.copied, "declared": image.declared}))
            return image
        built = json.loads(kept.read_text())
    return _installed(tmp_path_factory, Path(built["python"]), Path(built["bin"]),
                      built["copied"], built["declared"])


def _installed(tmp_path_factory: pytest.TempPathFactory, python: Path, bin_dir: Path,
               copied: list[str], declared: dict[str, str]) -> Image:
    """The image's install with a home and an empty database folder of its own."""
    home = tmp_path_factory.mktemp("home")
    data = tmp_path_factory.mktemp("data")
    env = {**declared,
           "CANDYBOT_DB": str(data / PurePosixPath(declared["CANDYBOT_DB"]).name)}
    return Image(python, bin_dir, home, _clean_env(**env), copied, dict(declared))


def build_image(tmp_path_factory: pytest.TempPathFactory) -> Image:
    """Build what the Dockerfile builds, as the module's docstring says."""
    context = context_files()
    built: dict[str, Filesystem] = {}
    copied: list[str] = []
    runtime = tmp_path_factory.mktemp("runtime-venv")
    venv.EnvBuilder(with_pip=True).create(runtime)
    python = runtime / "bin" / "python"
    env: dict[str, str] = {}
    *builds, final = stages()
    for number, stage in enumerate([*builds, final]):
        fs = Filesystem(tmp_path_factory.mktemp(f"stage{number}"))
        for command in stage.commands:
            if command.cmd == "WORKDIR":
                fs.workdir = fs.workdir / command.value[0]
            elif command.cmd == "ENV":
                env.update(zip(command.value[::2], command.value[1::2], strict=True))
            elif command.cmd == "COPY":
                assert not command.flags, "COPY --from would bring build files into a stage"
                *sources, dest = command.value
                copied += fs.copy(context, sources, dest)
            elif command.cmd == "RUN":
                mount = flags(command).get("mount")
                if mount:
                    spec = dict(part.split("=", 1) for part in mount.split(","))
                    assert spec["type"] == "bind"
                    fs.mounts[PurePosixPath(spec["target"])] = \
                        built[spec["from"]].host(spec["source"])
                line = " ".join(command.value)
                for step in re.split(r"\s*&&\s*", line):
                    if not SYSTEM_STEP.match(step):
                        # A build stage's pip is any pip; the runtime's is the fresh venv.
                        fs.run_pip(step, python if stage is final else Path(sys.executable))
                fs.mounts.clear()
        if stage.name:
            built[stage.name] = fs
    return _installed(tmp_path_factory, python, runtime / "bin", copied, env)



_VARIABLE = re.compile(r"\$\{(\w+)(?::([?-])([^}]*))?\}")


def compose_config(*files: str, env: dict[str, str], folder: Path = ROOT) -> dict:
    """What ``docker compose -f a -f b config`` makes of ``files`` (in ``folder``): each
    merged onto the one before (mappings merged key by key, anything else replaced),
    ``${VAR}``, ``${VAR:-default}`` and ``${VAR:?error}`` filled from ``env``; a missing
    ``${VAR:?error}`` raises ``AssertionError`` with the error, as compose refuses."""
    def fill(value: object) -> object:
        if isinstance(value, dict):
            return {k: fill(v) for k, v in value.items()}
        if isinstance(value, list):
            return [fill(v) for v in value]
        if not isinstance(value, str):
            return value

        def one(match: re.Match[str]) -> str:
            name, kind, said = match.groups()
            if env.get(name):
                return env[name]
            assert kind != "?", f"compose would refuse to start: {said}"
            return said if kind == "-" else ""
        return _VARIABLE.sub(one, value)

    def merge(base: dict, extra: dict) -> dict:
        out = dict(base)
        for key, value in extra.items():
            out[key] = (merge(out[key], value) if isinstance(value, dict)
                        and isinstance(out.get(key), dict) else value)
        return out

    merged: dict = {}
    for name in files:
        merged = merge(merged, yaml.safe_load((folder / name).read_text()))
    return fill(merged)  # type: ignore[return-value]
