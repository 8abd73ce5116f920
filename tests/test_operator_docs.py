"""Every command the operator is given, run as written, in the order an operator runs them.

The README, docs/discord.md, and the commands at the head of the Dockerfile, the compose
files and the systemd unit are played in scenes: each scene is one operator's session on a
machine of its own (a sandbox: tests/support/operator_shell.py), in a clone holding the
operator's files, against the offline Discord (tools/offline_http.py). Between the
blocks of commands a scene does what the prose asks by hand (paste the token, stop the
bot, pick a backup) and checks what the prose promises. A fast test checks that the
scenes together run every command the documents hold: a command cannot be documented
without being run.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
import yaml

from bot.config import DEFAULT_STOP_SECONDS, LIMIT_VARIABLES, Settings, read_dotenv
from bot.health import Status, status_path
from bot.ops import Exit
from bot.store import Store
from tests.support.image_build import ROOT, Image, compose_config
from tests.support.operator_shell import Shell, operator_shell, read_env_file, unit_file, wait_for
from tools.offline import Recorder
from tools.offline_http import OfflineServer

#: The operator's documents: their blocks of commands are run by the scenes below.
DOCUMENTS = ("README.md", "docs/discord.md")
#: Files whose head lists commands (indented lines of their first comment).
FILES = ("Dockerfile", "compose.yaml", "compose.postgres.yaml",
         "deploy/systemd/candybot@.service")
UNIT = "deploy/systemd/candybot@.service"
#: The operator's token, as pasted into .env; the documents' Docker lines write ``...``
#: for it.
TOKEN, WRITTEN = "operator-token", "..."
#: The server the documents sync the commands to: the operator's test server.
TEST_SERVER = 123456789012345678


# --------------------------------------------------------------------------- blocks


@dataclass(frozen=True)
class Block:
    """The ``number``-th block of shell commands under ``heading`` in ``doc``; a step may
    run only its commands ``start`` to ``stop`` (prose comes between them)."""

    doc: str
    heading: str
    number: int = 0
    start: int = 0
    stop: int | None = None

    @property
    def whole(self) -> Block:
        return Block(self.doc, self.heading, self.number)

    def text(self) -> str:
        found = [text for heading, text in sh_blocks(self.doc) if heading == self.heading]
        assert self.number < len(found), f"{self.whole} is not in {self.doc} any more"
        return found[self.number]

    def part(self, start: int, stop: int | None = None) -> Block:
        return Block(self.doc, self.heading, self.number, start, stop)


@dataclass(frozen=True)
class Head:
    """The commands listed at the head of a file (its first comment's indented lines)."""

    file: str
    start: int = 0
    stop: int | None = None

    @property
    def whole(self) -> Head:
        return Head(self.file)

    def text(self) -> str:
        lines = []
        for line in (ROOT / self.file).read_text().splitlines():
            if not line.startswith("#"):
                break
            if line.startswith("#   "):
                lines.append(line[1:].strip())
        assert lines, f"{self.file} lists no commands"
        return "\n".join(lines)


def sh_blocks(doc: str) -> list[tuple[str, str]]:
    """(heading, text) of every ```sh block of ``doc``, in order."""
    out, heading = [], ""
    text = (ROOT / doc).read_text()
    for match in re.finditer(r"^(#{1,6}) ([^\n]*)$|^```(\w*)\n(.*?)^```", text,
                             re.S | re.M):
        if match.group(1):
            heading = match.group(2)
        elif match.group(3) == "sh":
            out.append((heading, match.group(4)))
    return out


def commands(step: Block | Head) -> list[tuple[str, str]]:
    """The commands (with their comments) a step runs."""
    return list(Shell.lines(step.text()))[step.start:step.stop]


def every_block() -> set[Block | Head]:
    found: set[Block | Head] = {Head(name) for name in FILES}
    for doc in DOCUMENTS:
        seen: dict[str, int] = {}
        for heading, _ in sh_blocks(doc):
            found.add(Block(doc, heading, seen.get(heading, 0)))
            seen[heading] = seen.get(heading, 0) + 1
    return found


# --------------------------------------------------------------------------- scenes


@dataclass
class Operator:
    """A scene's state: the shell, the offline Discord, and what the scene noted."""

    shell: Shell
    discord: OfflineServer
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def clone(self) -> Path:
        return self.shell.sandbox.clone

    def ran(self, words: str) -> str:
        """The output of the last line run that contains ``words``."""
        found = [r for r in self.shell.ran if words in r.line]
        assert found, f"no line with {words!r} ran"
        return found[-1].out + found[-1].err

    def volume(self, name: str = "candybot-data") -> Path:
        return self.shell.engine.volume(name)


Step = Block | Head | Callable[[Operator], None]


def run_setup(op: Operator, block: Block) -> None:
    """README's two set-up commands. The first installs (the image's `pip install` of
    this checkout stands for it: .venv is that install) and plays the demo, which runs as
    written; the second is CI's, which .ci/run runs as written."""
    install, tests = [command for command, _ in commands(block)]
    first, second, demo = install.split(" && ")
    assert (first, second) == ("python3 -m venv .venv", ".venv/bin/pip install .")
    op.shell.run(demo)
    ci = (ROOT / ".ci" / "run").read_text()
    ci_lines = ci.replace(" && ", "\n").splitlines()
    assert all(part in ci_lines for part in tests.split(" && ")), \
        "CI runs the README's test command as written"
    # The comment's promise: the file, the log and a GIF in demo-out/, a PNG a move in
    # demo-out/moves/.
    out = op.clone / "demo-out"
    assert {p.name for p in out.iterdir()} == {"candybot.db", "log.tsv", "game.gif", "moves"}
    moves = len((out / "log.tsv").read_text().splitlines()) - 1
    assert len(list((out / "moves").glob("move-*.png"))) == moves + 1


def run_cron(op: Operator, block: Block) -> None:
    """A crontab line: its schedule, then the command cron gives to /bin/sh."""
    [(line, _)] = commands(block)
    schedule, command = line.split()[:5], line.split(None, 5)[5]
    assert schedule == ["15", "3", "*", "*", "*"], "every night at 03:15"
    op.shell.run(command, shell="sh", cwd=op.shell.sandbox.root)


SPECIAL: dict[Block, Callable[[Operator, Block], None]] = {
    Block("README.md", "Set-up: two commands"): run_setup,
    Block("docs/discord.md", "7. Backups", 0): run_cron,
}


def play(op: Operator, steps: list[Step]) -> None:
    for step in steps:
        if isinstance(step, Block) and step.whole in SPECIAL:
            SPECIAL[step.whole](op, step)
        elif isinstance(step, Block | Head):
            op.shell.run_commands(commands(step))
        else:
            step(op)


def healthy(op: Operator) -> None:
    """``candybot health`` beside the bot says it is healthy (within the start period)."""
    wait_for(lambda: op.shell.candybot("health").returncode == 0, 60,
             "the bot became healthy")
    assert op.shell.candybot("health").stdout.startswith("healthy: gateway connected")


def commands_registered(server: int | None) -> Callable[[Operator], None]:
    def check(op: Operator) -> None:
        from bot.app import create_bot

        wanted = {c.name for c in create_bot(Settings()).tree.get_commands()}
        kept = op.discord.call(lambda: op.discord.recorder.commands[server])
        assert {c["name"] for c in kept} == wanted
        where = f"server {server}" if server else "every server"
        assert f"Registered {len(wanted)} commands to {where}" in op.ran(
            f"sync --guild {server}" if server else "candybot sync")
    return check


def checked_well(op: Operator) -> None:
    said = op.ran("candybot check")
    assert "Discord: the token works" in said and said.rstrip().endswith("All is well.")


def stopped_cleanly(op: Operator) -> None:
    """Ctrl-C in the bot's terminal: a clean stop, and `health` says it is stopped."""
    log = op.shell.ctrl_c()
    assert "stopped on SIGINT" in log
    done = op.shell.candybot("health")
    assert done.returncode == 1 and done.stdout.startswith("unhealthy: the bot is stopped")


def version_said(op: Operator) -> None:
    from importlib.metadata import version

    assert op.ran("candybot --version").strip() == f"candybot {version('candybot')}"


def backups_folder_with_an_old_copy(op: Operator) -> None:
    """`mkdir /srv/candybot-backups`, as the prose says; a copy of 20 days ago in it."""
    folder = op.shell.sandbox.path("/srv/candybot-backups")
    folder.mkdir()
    old = folder / "candybot-20261103T031500Z.db"
    shutil.copy(op.clone / "candybot.db", old)
    then = time.time() - 20 * 86400
    os.utime(old, (then, then))
    op.notes["old"] = old


def a_new_copy_and_no_old_one(op: Operator) -> None:
    folder = op.shell.sandbox.path("/srv/candybot-backups")
    [copy] = folder.glob("candybot-*.db")
    assert copy != op.notes["old"] and re.fullmatch(r"candybot-\d{8}T\d{6}Z\.db", copy.name)
    # The operator restores "the backup of 2026-11-23 at 03:15": this one, by that name.
    copy.rename(folder / "candybot-20261123T031500Z.db")


def restored(op: Operator) -> None:
    said = op.ran("candybot restore")
    assert said.startswith("Restored ") and "Start the bot" in said, said


def open_a_lobby(database: Callable[[Operator], str]) -> Callable[[Operator], None]:
    """A game opened after the backup (while the bot runs), which a restore takes away."""
    def act(op: Operator) -> None:
        async def open_one() -> None:
            store = await Store.open(database(op))
            try:
                await store.games.create_lobby(channel_id=7, guild_id=1, game="sugar-blast",
                                               creator_id=7, options={}, settings={},
                                               now=time.time())
            finally:
                await store.close()
        asyncio.run(open_one())
    return act


def sqlite_games(path: Path) -> int:
    with sqlite3.connect(path) as db:
        (count,) = db.execute("SELECT COUNT(*) FROM games").fetchone()
    db.close()
    return int(count)


def start_again(op: Operator) -> None:
    op.shell.run("docker compose up -d")


def the_lobby_is_gone_and_kept_aside(op: Operator) -> None:
    data = op.volume()
    assert sqlite_games(data / "candybot.db") == 0
    [kept] = data.glob("candybot-before-restore-*.db")
    assert sqlite_games(kept) == 1


def said_stopped(name: str) -> Callable[[Operator], None]:
    """What a restore in another container reads (it cannot see the bot's process): the
    status the stopped bot left on the volume says so."""
    def check(op: Operator) -> None:
        status = Status.from_json(status_path(op.volume() / "candybot.db").read_text())
        assert status.stopped, f"{name} left a status that does not say it stopped"
    return check


def container_healthy(name: str) -> Callable[[Operator], None]:
    def check(op: Operator) -> None:
        engine = op.shell.engine
        (engine.containers.get(name) or engine.services[name]).until_healthy()
    return check


def web_served(op: Operator) -> None:
    """``candybot web`` serves the pages at the address .env names, reports its settings in
    ``candybot check``, and stops cleanly on Ctrl-C."""
    import urllib.request

    assert "Web companion: pages at http://127.0.0.1:8090" in op.ran("candybot check")

    def answered() -> bool:
        try:
            with urllib.request.urlopen("http://127.0.0.1:8090/robots.txt", timeout=2) as got:
                return bool(got.status == 200 and got.headers["X-Robots-Tag"])
        except OSError:
            return False

    wait_for(answered, 60, "the web companion answered")
    assert "web companion stopped" in op.shell.ctrl_c()


HOST: list[Step] = [
    Block("README.md", "Set-up: two commands"),
    Block("README.md", "Running the bot on Discord", 0),
    checked_well, commands_registered(TEST_SERVER), healthy, stopped_cleanly,
    Block("docs/discord.md", "3. Configure"),
    Block("docs/discord.md", "4. Register the slash commands, then run"),
    version_said, checked_well, healthy,
    backups_folder_with_an_old_copy,
    Block("docs/discord.md", "7. Backups", 0),
    a_new_copy_and_no_old_one, stopped_cleanly,
    Block("docs/discord.md", "7. Backups", 2),
    restored,
    Block("docs/discord.md", "10. The web companion"),
    web_served,
]

SECTION_8 = "8. Docker: build, first start, stop, upgrade, restore"
DOCKER: list[Step] = [
    Block("docs/discord.md", SECTION_8, 0),
    Block("docs/discord.md", SECTION_8, 1),
    checked_well, commands_registered(TEST_SERVER),
    lambda op: op.ran("docker ps").count("(healthy)") == 1 or pytest.fail("not healthy"),
    Block("docs/discord.md", "9. Health and metrics"),
    lambda op: op.ran("candybot health").startswith("healthy: gateway connected") or
    pytest.fail(op.ran("candybot health")),
    Block("docs/discord.md", "7. Backups", 1),
    lambda op: (op.clone / "candybot-2026-11-23.db").is_file() or pytest.fail("no copy"),
    open_a_lobby(lambda op: str(op.volume() / "candybot.db")),
    Block("docs/discord.md", SECTION_8, 2),
    commands_registered(None),
    Block("docs/discord.md", SECTION_8, 3).part(0, 1),
    said_stopped("docker stop"),
    Block("docs/discord.md", SECTION_8, 3).part(1),
    restored, the_lobby_is_gone_and_kept_aside,
    container_healthy("candybot"),
]

README_DOCKER: list[Step] = [
    Block("README.md", "Running the bot on Discord", 1),
    commands_registered(TEST_SERVER), container_healthy("candybot"),
    Head("Dockerfile"),
    said_stopped("docker stop"),
]

COMPOSE = "With Docker Compose"
COMPOSE_SQLITE: list[Step] = [
    Block("docs/discord.md", COMPOSE, 0),
    checked_well, commands_registered(TEST_SERVER),
    lambda op: "candybot\tUp (healthy)" in op.ran("docker compose ps") or pytest.fail("ps"),
    Block("README.md", "Running the bot on Discord", 2),
    Head("compose.yaml"),
    said_stopped("docker compose stop"), start_again, container_healthy("candybot"),
    Block("docs/discord.md", COMPOSE, 1).part(0, 3),
    open_a_lobby(lambda op: str(op.volume() / "candybot.db")),
    Block("docs/discord.md", COMPOSE, 1).part(3),
    restored, the_lobby_is_gone_and_kept_aside,
    container_healthy("candybot"),
]


def postgres_games(op: Operator) -> int:
    with psycopg.connect(op.notes["url"]) as conn:
        (count,) = conn.execute("SELECT COUNT(*) FROM games").fetchone()
    return int(count)


def on_postgres(op: Operator) -> None:
    """The bot now keeps its games in the postgres service, its status on the volume."""
    op.shell.engine.services["candybot"].until_healthy()
    status = Status.from_json((op.volume() / "candybot-postgres-health.json").read_text())
    assert not status.stopped and status.database_ok
    assert postgres_games(op) == 0


def pg_dump_wrote_a_dump(op: Operator) -> None:
    assert (op.clone / "candybot.dump").read_bytes().startswith(b"PGDMP")


COMPOSE_POSTGRES: list[Step] = [
    Block("docs/discord.md", COMPOSE, 0),
    Block("docs/discord.md", COMPOSE, 2).part(0, 5),
    on_postgres, pg_dump_wrote_a_dump,
    open_a_lobby(lambda op: op.notes["url"]),
    lambda op: postgres_games(op) == 1 or pytest.fail("no lobby"),
    Block("docs/discord.md", COMPOSE, 2).part(5),
    lambda op: postgres_games(op) == 0 or pytest.fail("the restore kept the lobby"),
    container_healthy("candybot"),
    Head("compose.postgres.yaml"),
    lambda op: postgres_games(op) == 0 or pytest.fail("pg_restore brought a game back"),
    container_healthy("candybot"),
]


def settings_in_etc(op: Operator) -> None:
    """The unit's settings, as scale.md says: .env.example as /etc/candybot/env."""
    folder = op.shell.sandbox.path("/etc/candybot")
    folder.mkdir()
    text = (op.clone / ".env.example").read_text()
    (folder / "env").write_text(text.replace("\nDISCORD_TOKEN=\n", f"\nDISCORD_TOKEN={TOKEN}\n"))


def every_shard_connected(op: Operator) -> None:
    shards = int(re.search(r"--shard-count (\d+)", (ROOT / UNIT).read_text()).group(1))
    wait_for(lambda: set(filter(None, op.discord.call(lambda: list(op.discord.shards)))) ==
             {(n, shards) for n in range(shards)}, 90, "every shard logged in")


def stopped_as_systemd_stops(op: Operator) -> None:
    for instance in sorted(op.shell.engine.units):
        op.shell.engine.systemctl(["stop", instance])
        assert op.shell.engine.units[instance].exit_code == 0
    done = op.shell.candybot("health")
    assert done.returncode == 1 and "the bot is stopped" in done.stdout


SYSTEMD: list[Step] = [
    settings_in_etc,
    Head(UNIT),
    every_shard_connected, stopped_as_systemd_stops,
]

SCENES: dict[str, list[Step]] = {
    "host": HOST, "docker": DOCKER, "readme-docker": README_DOCKER,
    "compose": COMPOSE_SQLITE, "compose-postgres": COMPOSE_POSTGRES, "systemd": SYSTEMD,
}


def test_the_scenes_run_every_command_the_documents_hold() -> None:
    played: dict[Block | Head, set[int]] = {}
    for steps in SCENES.values():
        for step in steps:
            if isinstance(step, Block | Head):
                count = len(commands(step.whole))
                played.setdefault(step.whole, set()).update(
                    range(count)[step.start:step.stop])
    assert set(played) == every_block()
    for block, run in played.items():
        assert run == set(range(len(commands(block)))), f"{block}: commands left out"
        assert run, f"{block} holds no command"


@pytest.fixture
def operator(image: Image, tmp_path: Path) -> Iterator[Callable[..., Operator]]:
    shells: list[Any] = []
    rec = Recorder()
    rec.servers = {TEST_SERVER: "The operator's test server"}
    with OfflineServer(rec, token=TOKEN, also=[WRITTEN]) as server:
        def make(postgres: Any | None = None) -> Operator:
            context = operator_shell(tmp_path / f"machine-{len(shells)}", image, server.url,
                                     TOKEN, postgres)
            shells.append(context)
            return Operator(context.__enter__(), server)
        yield make
        for context in shells:
            context.__exit__(None, None, None)


@pytest.mark.slow  # bots started and stopped, from the image's install
@pytest.mark.parametrize("scene", ["host", "docker", "readme-docker", "compose", "systemd"])
def test_the_documented_commands_run_as_written(
        scene: str, operator: Callable[..., Operator]) -> None:
    play(operator(), SCENES[scene])


@pytest.mark.slow  # bots on PostgreSQL, from the image's install
def test_the_documented_commands_run_as_written_on_postgresql(
        operator: Callable[..., Operator], postgres_server: Any) -> None:
    op = operator(postgres_server)
    op.notes["url"] = postgres_server.url("candybot")
    try:
        play(op, SCENES["compose-postgres"])
    finally:
        op.shell.close()
        with psycopg.connect(postgres_server.url(), autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS candybot WITH (FORCE)")


# --------------------------------------------------------------------------- the files


def test_env_example_holds_every_setting_with_its_default(tmp_path: Path) -> None:
    """Every variable the bot reads, in docs/discord.md's table and in .env.example, whose
    commented-out lines, taken in, change nothing."""
    config = (ROOT / "bot" / "config.py").read_text()
    read = set(re.findall(r'"((?:CANDYBOT|DISCORD)_[A-Z_]+)"', config)) | set(LIMIT_VARIABLES)
    table = (ROOT / "docs" / "discord.md").read_text()
    example = (ROOT / ".env.example").read_text()
    for name in read:
        assert f"`{name}`" in table, f"{name} is not in docs/discord.md's table"
        assert re.search(rf"^(# )?{name}=", example, re.M), f"{name} is not in .env.example"
    (tmp_path / "as-is").write_text(example)
    (tmp_path / "taken-in").write_text(
        re.sub(r"^# (CANDYBOT_[A-Z_]+=)", r"\1", example, flags=re.M))
    taken_in = read_dotenv(tmp_path / "taken-in")
    assert taken_in.keys() >= read - {"DISCORD_TOKEN"}
    assert Settings.from_env(taken_in, None) == Settings.from_env({}, None)
    # As the file is: only the token to fill in.
    assert read_dotenv(tmp_path / "as-is") == {"DISCORD_TOKEN": ""}


def test_every_container_keeps_its_log_bounded_as_the_docs_docker_run_lines_do() -> None:
    env = {"DISCORD_TOKEN": "x", "POSTGRES_PASSWORD": "y"}
    merged = compose_config("compose.yaml", "compose.postgres.yaml", env=env)
    docs = (ROOT / "docs" / "discord.md").read_text()
    for name, service in merged["services"].items():
        logging = service["logging"]
        assert logging["driver"] == "json-file", name
        for option, value in logging["options"].items():
            assert f"--log-opt {option}={value}" in docs, option
        assert set(logging["options"]) == {"max-size", "max-file"}
    runs = [line for line in docs.replace("\\\n", " ").splitlines()
            if line.startswith("docker run -d")]
    assert runs and all("--log-opt max-size=" in line and "--log-opt max-file=" in line
                        for line in runs)


def test_compose_hands_the_bot_every_setting_in_dotenv(tmp_path: Path) -> None:
    for name in ("compose.yaml", "compose.postgres.yaml", ".env.example"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=t\nCANDYBOT_MAX_GAMES=7\n")
    service = compose_config("compose.yaml", env=read_env_file(tmp_path / ".env"),
                             folder=tmp_path)["services"]["candybot"]
    assert service["env_file"] == [{"path": ".env", "required": False}]
    assert yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]["candybot"][
        "environment"]["CANDYBOT_DB"] == "/data/candybot.db"


def test_the_systemd_unit_stops_in_time_and_retries_only_what_a_retry_can_mend() -> None:
    from tests.bot.test_exit_codes import codes_of

    service = unit_file(ROOT / UNIT)["Service"]
    assert service["KillSignal"] == ["SIGTERM"]
    assert float(service["TimeoutStopSec"][-1]) > DEFAULT_STOP_SECONDS
    assert service["Restart"] == ["on-failure"]
    kept = {int(code) for code in service["RestartPreventExitStatus"][-1].split()}
    # Codes `run` returns for what the operator must fix; not the network (4), not the
    # unexpected (1), nor a database another program held locked (8).
    assert kept <= codes_of("run") - {Exit.OK, Exit.FAILED, Exit.DISCORD_UNREACHABLE,
                                      Exit.DATABASE_UNUSABLE}
    assert kept == {Exit.CONFIG, Exit.TOKEN_REFUSED, Exit.DATABASE_PATH, Exit.NOT_CANDYBOT,
                    Exit.DATABASE_TOO_NEW}
