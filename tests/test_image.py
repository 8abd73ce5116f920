"""The Docker image, checked without a container engine (CI machines have none).

One test builds what the Dockerfile builds: it reads the Dockerfile with the
official parser (the ``dockerfile`` package), takes from the build context
exactly what each COPY line takes (respecting ``.dockerignore``, with the rules
docker-py applies), runs each ``pip`` RUN line as written (container paths
mapped into a temporary folder, pip's cache allowed so that it stays fast)
into a fresh venv, and then runs the operator's commands from that install.
The others read the Dockerfile and compose.yaml for what operators rely on.
"""

from __future__ import annotations

import re
import shlex
import shutil
import sqlite3
import subprocess
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
import yaml

from bot.config import DEFAULT_STOP_SECONDS
from tests.support.image_build import ROOT, Image, compose_config, context_files, flags, stages

pytestmark = pytest.mark.slow  # builds the image's install in a fresh venv


def test_the_image_copies_only_the_wheel_sources_and_the_pinned_versions(image: Image):
    tops = {name.split("/")[0] for name in image.copied}
    assert tops == {"pyproject.toml", "setup.py", "README.md", "bot", "renderers", "data",
                    "constraints.txt"}
    assert not any("__pycache__" in name or name.endswith(".pyc") for name in image.copied)


def test_the_image_runs_the_installed_bot_not_a_source_tree(image: Image):
    where = image.run("python", "-c", "import bot, candybot_data, renderers; "
                                      "print(bot.__file__, candybot_data.__file__)")
    assert where.returncode == 0, where.stderr
    site = str(image.python.parents[1] / "lib")
    assert all(path.startswith(site) for path in where.stdout.split())


def test_check_in_the_image_finds_a_new_database_and_says_it_has_no_token(image: Image):
    done = image.run("candybot", "check")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "not created yet" in done.stdout and "Discord: NOT CHECKED" in done.stdout


@pytest.fixture(scope="module")
def demo(image: Image) -> Path:
    """A short demo game played by the installed ``candybot``."""
    out = image.home / "demo-out"
    done = image.run("candybot", "demo", "sugar-blast", "--players", "2", "--seed", "3",
                     "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_a_demo_plays_from_the_image_with_its_pictures_and_fonts(image: Image, demo: Path):
    assert list(demo.rglob("*.png")) and list(demo.glob("*.db")) and list(demo.glob("*.gif"))
    replayed = image.run("candybot", "replay", str(demo))
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr


def test_backup_restore_and_health_run_from_the_image(image: Image, demo: Path):
    database = Path(image.env["CANDYBOT_DB"])
    shutil.copy(next(demo.glob("*.db")), database)
    copy = database.with_name("backup.db")
    backed_up = image.run("candybot", "backup", str(copy), "--force")
    assert backed_up.returncode == 0, backed_up.stdout + backed_up.stderr
    assert copy.is_file()
    restored = image.run("candybot", "restore", str(copy))
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert restored.stdout.startswith(f"Restored {copy} into {database}")
    # No bot runs here, so the HEALTHCHECK's command must say so in one line and fail.
    health = image.run("candybot", "health")
    assert health.returncode == 1
    assert health.stdout.count("\n") == 1 and "unhealthy" in health.stdout


def test_a_new_image_reads_an_older_database_and_says_it_will_upgrade_it(
        image: Image, tmp_path: Path):
    from bot.store import MIGRATIONS

    old = tmp_path / "old.db"
    with sqlite3.connect(old) as db:
        db.executescript(MIGRATIONS[0])
        db.execute("PRAGMA user_version = 1")
    db.close()
    done = image.run_with({"CANDYBOT_DB": str(old)}, "candybot", "check")
    assert f"schema 1 (candybot run upgrades it to {len(MIGRATIONS)})" in done.stdout
    assert only_the_token_is_missing(done)


def only_the_token_is_missing(done: subprocess.CompletedProcess[str]) -> bool:
    """``candybot check`` found the database well, and its one problem is the token this
    test did not give it (the Discord part is tested with the offline Discord elsewhere)."""
    problems = [line for line in done.stdout.splitlines() if line.startswith("Problem")]
    assert done.returncode == 2 and len(problems) == 1, done.stdout + done.stderr
    return problems[0].startswith("Problem (exit code 2): There is no DISCORD_TOKEN")


# --------------------------------------------------------------------------- the docs


def docker_lines() -> list[str]:
    """Every ``docker ...`` command in the README and docs/discord.md, continuations joined."""
    out = []
    for doc in (ROOT / "README.md", ROOT / "docs" / "discord.md"):
        for block in re.findall(r"```sh\n(.*?)```", doc.read_text(), re.S):
            for line in block.replace("\\\n", " ").splitlines():
                line = line.split("#")[0].strip()
                out += [part.strip() for part in line.split("&&")
                        if part.strip().startswith("docker ")]
    return out


def test_the_docs_docker_commands_use_the_images_name_volume_and_real_commands():
    from bot.cli import build_parser

    commands = set(build_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    (volume,) = stages()[-1].last("VOLUME").value
    lines = docker_lines()
    assert "docker build -t candybot ." in lines
    inner = []
    for line in lines:
        words = shlex.split(line)
        if words[1] not in ("run", "exec"):
            continue
        positional, rest = [], iter(words[2:])
        for word in rest:
            if word in ("-e", "-v", "-p", "--name", "--restart", "--log-opt"):
                value = next(rest)
                if word == "-v" and value.startswith("candybot-data"):
                    assert value == f"candybot-data:{volume}", line
            elif not word.startswith("-"):
                positional.append(word)
        # run: the image, then the command; exec: the container, then the command.
        assert positional[0] == "candybot", line
        if positional[1:]:
            assert positional[1] == "candybot" and positional[2] in commands, line
            inner.append(positional[2])
    # The commands run inside the image are the ones this file runs from its install
    # (sync is run against the offline Discord by tests/bot/ops/test_ops.py).
    assert set(inner) == {"check", "sync", "backup", "restore", "health"}


# --------------------------------------------------------------------------- static


def test_the_image_is_built_in_two_stages_from_a_slim_python():
    build, runtime = stages()
    assert build.name == "build" and runtime.name is None
    assert runtime.image == "python:3.11-slim"
    assert any("pip wheel" in " ".join(c.value) for c in build.all("RUN"))
    # The runtime takes no files from the context: only the wheel, through a mount.
    assert runtime.all("COPY") == [] and runtime.all("ADD") == []


def test_the_image_runs_as_a_user_it_creates_not_as_root():
    runtime = stages()[-1]
    user = runtime.last("USER").value[0]
    assert user not in ("root", "0") and not user.startswith("0:")
    created = " ".join(" ".join(c.value) for c in runtime.all("RUN"))
    assert re.search(rf"useradd\b.*\b{re.escape(user)}\b", created)
    # The user comes before the command, and owns the volume.
    order = [c.cmd for c in runtime.commands]
    assert order.index("USER") < order.index("CMD")
    assert re.search(rf"chown {re.escape(user)}:{re.escape(user)} /data", created)


def test_the_database_lives_on_the_volume():
    runtime = stages()[-1]
    (volume,) = runtime.last("VOLUME").value
    env = dict(zip(runtime.last("ENV").value[::2], runtime.last("ENV").value[1::2], strict=True))
    assert PurePosixPath(env["CANDYBOT_DB"]).parent == PurePosixPath(volume)


def test_the_health_check_asks_the_running_bot():
    health = stages()[-1].last("HEALTHCHECK")
    assert health.json and health.value == ("CMD", "candybot", "health")
    options = flags(health)
    assert set(options) >= {"interval", "timeout", "start-period"}


def test_the_image_starts_the_bot_and_stops_it_with_sigterm_in_time():
    runtime = stages()[-1]
    assert runtime.last("CMD").json and runtime.last("CMD").value == ("candybot", "run")
    assert runtime.last("STOPSIGNAL").value == ("SIGTERM",)
    # Docker waits 10 s after SIGTERM before it kills.
    assert DEFAULT_STOP_SECONDS < 10


def test_the_token_and_databases_never_enter_the_build_context(tmp_path: Path):
    for secret in (".env", "candybot.db", "candybot.db-wal", "backup.db", ".venv/x"):
        assert secret not in context_files()
    patterns = (ROOT / ".dockerignore").read_text()
    assert re.search(r"^\*$", patterns, re.M), "the context is an allow-list"


def test_compose_runs_the_image_with_its_volume_restart_policy_and_token():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    (name,) = compose["services"]  # the bot alone, on SQLite; PostgreSQL is a second file
    service = compose["services"][name]
    runtime = stages()[-1]
    (volume,) = runtime.last("VOLUME").value
    assert service["build"] == "."
    assert service["restart"] == "unless-stopped"
    mounts = {m.split(":")[1]: m.split(":")[0] for m in service["volumes"]}
    assert mounts[volume] in compose["volumes"]
    assert compose["volumes"][mounts[volume]]["name"] == "candybot-data"
    assert service["environment"]["CANDYBOT_DB"].startswith(volume + "/")
    assert "${DISCORD_TOKEN" in service["environment"]["DISCORD_TOKEN"]
    grace = float(service["stop_grace_period"].removesuffix("s"))
    assert grace > DEFAULT_STOP_SECONDS


def test_compose_on_postgresql_runs_the_bot_against_its_database_service(
        image: Image, postgres_server: Any) -> None:
    """``docker compose -f compose.yaml -f compose.postgres.yaml up``, emulated: the merged
    configuration points the bot at the postgres service (same user, password and
    database), waits for its health check, and the installed bot's ``candybot check``
    migrates and reads that database (served here by a throwaway PostgreSQL)."""
    env = {"DISCORD_TOKEN": "token", "POSTGRES_PASSWORD": "s3cret"}
    with pytest.raises(AssertionError, match="POSTGRES_PASSWORD"):
        compose_config("compose.yaml", "compose.postgres.yaml", env={"DISCORD_TOKEN": "x"})
    merged = compose_config("compose.yaml", "compose.postgres.yaml", env=env)
    bot, database = merged["services"]["candybot"], merged["services"]["postgres"]
    assert bot["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    assert "pg_isready" in database["healthcheck"]["test"]
    assert bot["volumes"] and database["volumes"][0].startswith("candybot-postgres:")
    assert merged["volumes"]["candybot-postgres"]["name"] == "candybot-postgres"
    url = urlsplit(bot["environment"]["CANDYBOT_DB"])
    wanted = database["environment"]
    assert (url.scheme, url.hostname, url.port) == ("postgresql", "postgres", 5432)
    assert (url.username, url.password, url.path) == (
        wanted["POSTGRES_USER"], wanted["POSTGRES_PASSWORD"], f"/{wanted['POSTGRES_DB']}")
    # The service's database, on this machine's throwaway server (its socket for the host).
    served = urlsplit(postgres_server.database())
    local = urlunsplit(url._replace(netloc=f"{url.username}:{url.password}@",
                                    path=served.path, query=served.query))
    state = image.home / "state"
    done = image.run_with({"CANDYBOT_DB": local, "CANDYBOT_STATE": str(state)},
                          "candybot", "check")
    assert only_the_token_is_missing(done)
    assert "Database postgresql://candybot@" in done.stdout and "reachable" in done.stdout
    assert "s3cret" not in done.stdout + done.stderr, "the password stays out of the output"
