"""Running the bot as an operator does: clear errors, a quiet start, ``check`` and ``backup``.

Discord is never contacted: the offline Discord on 127.0.0.1 plays it (tools/offline_http.py,
which answers 401 to a token it does not take), and a refused loopback port stands for "no
network".
"""

from __future__ import annotations

import asyncio
import gc
import logging
import re
import socket
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import discord.http
import pytest

from bot import ops
from bot.app import create_bot
from bot.cli import main
from bot.config import Settings
from bot.games.engine import Engine, SeatInfo, dumps, loads
from bot.limits import Limits
from bot.ops.backup import backup_database
from bot.ops.logs import OneLineFormatter, setup_logging
from bot.store import MIGRATIONS, Store
from bot.tables import Tables
from tests.support.paths import ROOT
from tests.support.race_game import CandyDash, CandyRace
from tools.offline import (
    APP_ID,
    ATTACH_FILES,
    BOT_ID,
    BOT_USER,
    CREATE_PUBLIC_THREADS,
    GUILD_ID,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Channel,
    Recorder,
)
from tools.offline_http import TOKEN, OfflineServer
from tools.offline_process import COMMAND, pointed

GAMES = {g.slug: g for g in (Engine(CandyRace()), Engine(CandyDash()))}
TIMESTAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"
#: A token Discord does not take.
WRONG = "MTIzNDU2Nzg5.wrong-token-value"
#: The servers the bot is in, and one it left.
CLUB, OTHER, GONE = GUILD_ID, 800000000000000002, 800000000000000009
GENERAL, LOCKED, HIDDEN, THREAD, DELETED = (700000000000000001, 700000000000000002,
                                            700000000000000003, 700000000000000004,
                                            700000000000000005)
#: What the bot may do in the club's channels unless a test says otherwise.
PLAYS = VIEW_CHANNEL | SEND_MESSAGES | ATTACH_FILES | SEND_MESSAGES_IN_THREADS


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """``setup_logging`` changes the root logger; put it back after each test."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in ("discord", "aiosqlite")}
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, value in levels.items():
        logging.getLogger(name).setLevel(value)


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, str]:
    """A clean environment in an empty folder: no .env, the database at ./candybot.db."""
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "CANDYBOT_DB", "CANDYBOT_LOG"):
        monkeypatch.delenv(name, raising=False)
    values = {"CANDYBOT_DB": str(tmp_path / "candybot.db")}
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


def club(allowed: int = PLAYS) -> Recorder:
    """Discord as the checks meet it: the bot in two servers; in the club, #general and
    #locked (no Attach Files there) where it may do ``allowed``, a channel it cannot see, a
    thread of #general, and a channel deleted."""
    rec = Recorder()
    rec.servers = {CLUB: "Candy Club", OTHER: "Other"}
    rec.rooms[GENERAL] = Channel(GENERAL, name="general", permissions=allowed)
    rec.rooms[LOCKED] = Channel(LOCKED, name="locked", permissions=allowed & ~ATTACH_FILES)
    rec.rooms[HIDDEN] = Channel(HIDDEN, name="hidden", permissions=0)
    rec.rooms[THREAD] = Channel(THREAD, PUBLIC_THREAD, CLUB, GENERAL, name="a-thread")
    rec.gone.add(DELETED)
    return rec


@pytest.fixture
def fake_discord() -> Iterator[OfflineServer]:
    """The offline Discord on a loopback port (:func:`club`), discord.py pointed at it."""
    with OfflineServer(club()) as server:
        yield server


def asked(server: OfflineServer) -> list[str]:
    """Every request that reached Discord, as method and path."""
    return server.call(lambda: [f"{s.method} {s.path}" for s in server.requests])


def refused_port() -> int:
    """A loopback port nothing listens on: connecting to it is refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE",
                        f"http://127.0.0.1:{refused_port()}/api/v10")


def error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.strip()]


async def make_games(path: Path, layout: list[tuple[int, int, str]]) -> None:
    """Games in the database at ``path``: (guild, channel, 'lobby'|'active'|'finished')."""
    store = await Store.open(path)
    # One made-up host opens them all: no limit applies to building a test database.
    unbounded = Limits(lobbies_per_person=10**6, games_per_person=10**6,
                       games_per_server=10**6)
    tables = Tables(store, GAMES, lambda: 1_700_000_000.0, limits=unbounded)
    for guild, channel, status in layout:
        lobby = await tables.lobbies.open_lobby(
            channel_id=channel, guild_id=guild, game="candy-race",
            creator_id=101, creator_name="Alice")
        if status == "lobby":
            continue
        await tables.lobbies.add_ai(lobby.record.id, 101)
        await tables.lobbies.start(lobby.record.id, 101)
        while status == "finished" and (
                await store.games.get_game(lobby.record.id)).status == "active":
            await tables.moves.play(channel_id=channel, user_id=101, text="step")
    await store.close()


# --------------------------------------------------------------------------- run and sync


@pytest.mark.parametrize("command", [["run"], ["sync", "--guild", "1"]])
def test_run_with_a_refused_token_says_so_in_one_line_and_exits_3(
        command: list[str], env: dict[str, str], fake_discord: OfflineServer,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", WRONG)
    assert main(command) == ops.Exit.TOKEN_REFUSED == 3
    out = capsys.readouterr()
    [line] = error_lines(out.err)
    assert re.match(rf"{TIMESTAMP} ERROR bot\.ops: Discord rejected the token in DISCORD_TOKEN",
                    line)
    assert "Reset Token" in line and WRONG not in out.err + out.out
    assert asked(fake_discord) == ["GET /users/@me"]


@pytest.mark.parametrize("command", [["run"], ["sync"]])
def test_run_when_discord_refuses_connections_says_so_in_one_line_and_exits_4(
        command: list[str], env: dict[str, str], no_network: None,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert main(command) == ops.Exit.DISCORD_UNREACHABLE == 4
    [line] = error_lines(capsys.readouterr().err)
    assert "Could not reach Discord" in line and "internet connection" in line
    assert "Traceback" not in line


def test_run_with_debug_shows_the_traceback_then_ends_with_the_clear_line(
        env: dict[str, str], no_network: None, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert main(["run", "--debug"]) == 4
    lines = error_lines(capsys.readouterr().err)
    assert "Traceback (most recent call last):" in lines
    assert "Could not reach Discord" in lines[-1]


def test_candybot_log_debug_also_shows_the_traceback(
        env: dict[str, str], no_network: None, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("CANDYBOT_LOG", "DEBUG")
    assert main(["sync"]) == 4
    assert "Traceback (most recent call last):" in capsys.readouterr().err


def test_a_started_process_prints_one_line_and_no_voice_warnings(
        env: dict[str, str], fake_discord: OfflineServer) -> None:
    # A process started as the offline Discord's tests start one (tools/offline_process.py);
    # the token is refused before the gateway.
    done = subprocess.run([sys.executable, *COMMAND, "run"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60,
                          env={**_base_env(), **env, **pointed(fake_discord.url),
                               "DISCORD_TOKEN": WRONG})
    assert done.returncode == 3, done.stderr
    [line] = error_lines(done.stderr)
    assert "Discord rejected the token" in line
    assert "voice" not in done.stderr and done.stdout == ""


def _base_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items()
            if k not in ("DISCORD_TOKEN", "CANDYBOT_DB", "CANDYBOT_LOG")}


def not_a_database(folder: Path) -> Path:
    path = folder / "notes.db"
    path.write_text("shopping list: candy\n" * 50)
    return path


def another_apps_database(folder: Path) -> Path:
    path = folder / "other.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    return path


def a_newer_database(folder: Path) -> Path:
    path = folder / "newer.db"
    asyncio.run(make_games(path, []))
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    return path


@pytest.mark.parametrize(("make", "code", "words"), [
    (lambda d: d / "missing-folder" / "candybot.db", 5, "does not exist"),
    (lambda d: not_a_database(d) / "candybot.db", 5, "is not a folder"),
    (lambda d: Path("/proc/candybot.db"), 5, "cannot write in the database folder"),
    (lambda d: d, 6, "is a folder, not a database file"),
    (not_a_database, 6, "is not a candybot database"),
    (another_apps_database, 6, "not a candybot one (tables: photos)"),
    (a_newer_database, 7, "written by a newer candybot"),
], ids=["missing-folder", "folder-is-a-file", "unwritable-folder", "db-is-a-folder",
        "not-sqlite", "other-app", "newer-schema"])
@pytest.mark.parametrize("command", ["run", "sync"])
def test_run_checks_the_database_before_connecting_to_discord(
        command: str, make: Any, code: int, words: str, tmp_path: Path, env: dict[str, str],
        fake_discord: OfflineServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("CANDYBOT_DB", str(make(tmp_path)))
    assert main([command]) == code
    [line] = error_lines(capsys.readouterr().err)
    assert words in line and "CANDYBOT_DB" in line
    assert asked(fake_discord) == []


def test_a_bad_candybot_log_is_one_clear_line_and_exit_2(
        env: dict[str, str], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CANDYBOT_LOG", "loud")
    assert main(["check"]) == ops.Exit.CONFIG
    [line] = error_lines(capsys.readouterr().err)
    assert "CANDYBOT_LOG='loud'" in line and "debug, info, warning, error" in line


def test_run_without_a_token_still_explains_how_to_get_one(
        env: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run"]) == 2
    assert "discord.com/developers" in capsys.readouterr().err


def test_sync_registers_every_command_in_the_server_or_everywhere_as_discord_keeps_them(
        env: dict[str, str], fake_discord: OfflineServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    wanted = {c.name for c in create_bot(Settings()).tree.get_commands()}
    for where, args in ((CLUB, ["--guild", str(CLUB)]), (None, [])):
        assert main(["sync", *args]) == 0
        kept = fake_discord.call(lambda where=where: fake_discord.recorder.commands[where])
        assert {c["name"] for c in kept} == wanted
        assert all(c.get("guild_id") == (str(where) if where else None) for c in kept)
    out = capsys.readouterr().out
    assert f"Registered {len(wanted)} commands to server {CLUB} (available now)." in out
    assert f"Registered {len(wanted)} commands to every server" in out


def test_sync_to_a_server_the_bot_is_not_in_says_what_to_check_and_exits_1(
        env: dict[str, str], fake_discord: OfflineServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert main(["sync", "--guild", str(GONE)]) == ops.Exit.FAILED
    [line] = error_lines(capsys.readouterr().err)
    assert f"Discord refused the commands: 403 Missing Access: is the bot in server {GONE}" \
        in line
    assert fake_discord.call(lambda: fake_discord.recorder.commands) == {}


def a_command(**changes: Any) -> dict[str, Any]:
    """A slash command Discord takes, with ``changes``."""
    return {"name": "play", "description": "Make a move", "type": 1, "options": [
        {"type": 3, "name": "action", "description": "The move", "required": True},
        {"type": 4, "name": "times", "description": "How often", "choices": [
            {"name": "once", "value": 1}, {"name": "twice", "value": 2}]}], **changes}


def option(n: int, required: bool = False) -> dict[str, Any]:
    return {"type": 3, "name": f"o{n}", "description": "An option", "required": required}


@pytest.mark.parametrize("commands", [
    [a_command(name="Play")], [a_command(name="make move")], [a_command(name="p" * 33)],
    [a_command(description="")], [a_command(description="d" * 101)],
    [a_command(options=[option(n) for n in range(26)])],
    [a_command(options=[option(1), option(2, required=True)])],
    [a_command(options=[option(1), option(1)])],
    [a_command(options=[{**option(1), "choices": [
        {"name": f"c{n}", "value": n} for n in range(26)]}])],
    [a_command(), a_command()],
    [a_command(name=f"c{n}") for n in range(101)],
    [a_command(options=[{"type": 1, "name": f"s{n}", "description": "d" * 100, "options": [
        {**option(m), "description": "d" * 100} for m in range(3)]} for n in range(10)])],
], ids=["uppercase", "space", "long-name", "no-description", "long-description",
        "26-options", "required-after-optional", "option-twice", "26-choices", "name-twice",
        "101-commands", "over-4000-characters"])
async def test_discord_refuses_commands_that_break_its_rules(commands: list[Any]) -> None:
    with OfflineServer(Recorder()) as server:
        http = discord.http.HTTPClient(asyncio.get_running_loop())
        await http.static_login(TOKEN)
        try:
            await http.bulk_upsert_global_commands(APP_ID, [a_command()])
            with pytest.raises(discord.HTTPException) as refused:
                await http.bulk_upsert_global_commands(APP_ID, commands)
        finally:
            await http.close()
        assert (refused.value.status, refused.value.code) == (400, 50035)
        kept = server.call(lambda: server.recorder.commands[None])
        assert [c["name"] for c in kept] == ["play"], "a refused list changes nothing"


# --------------------------------------------------------------------------- a quiet start


def test_creating_the_bot_logs_no_voice_warnings(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from discord.voice_client import VoiceClient

    # As in a fresh process without the voice libraries.
    monkeypatch.setattr(VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(VoiceClient, "warn_dave", True, raising=False)
    caplog.set_level(logging.DEBUG)
    create_bot(Settings(db_path=tmp_path / "b.db"), games=GAMES, renderer=lambda v: b"")
    assert not [r for r in caplog.records if "voice" in r.getMessage()]


async def test_the_ready_line_names_the_bot_servers_active_games_database_and_schema(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "candybot.db"
    await make_games(db, [(CLUB, GENERAL, "active"), (CLUB, LOCKED, "active"),
                          (OTHER, THREAD, "lobby")])
    bot = create_bot(Settings(db_path=db), games=GAMES, renderer=lambda v: b"")
    await bot._async_setup_hook()
    await bot.setup_hook()
    state = bot._connection
    state.user = discord.ClientUser(state=state, data=BOT_USER)  # type: ignore[arg-type]
    for guild_id in (CLUB, OTHER, GONE):
        state._add_guild(discord.Guild(data={"id": str(guild_id), "name": "g"},  # type: ignore[typeddict-item]
                                       state=state))
    caplog.set_level(logging.INFO)
    try:
        await bot.on_ready()
    finally:
        await bot.close()
    [record] = [r for r in caplog.records if "ready" in r.getMessage()]
    line = OneLineFormatter().format(record)
    assert re.fullmatch(
        rf"{TIMESTAMP} INFO bot\.discord\.client: ready as candybot; 3 servers; "
        rf"2 active games; database {re.escape(str(db))} \(schema {len(MIGRATIONS)}\)", line)


async def test_a_ready_bot_keeps_what_it_holds_out_of_later_garbage_collections(
        tmp_path: Path) -> None:
    # A full collection walks every object not frozen, pausing the event loop meanwhile.
    bot = create_bot(Settings(db_path=tmp_path / "candybot.db"), games=GAMES,
                     renderer=lambda v: b"")
    await bot._async_setup_hook()
    await bot.setup_hook()
    bot._connection.user = discord.ClientUser(state=bot._connection, data=BOT_USER)  # type: ignore[arg-type]
    gc.unfreeze()
    try:
        held = len(gc.get_objects())
        await bot.on_ready()
        assert gc.get_freeze_count() > held // 2
        assert bot.games[next(iter(bot.games))] not in gc.get_objects()  # frozen, so unseen
    finally:
        gc.unfreeze()
        await bot.close()


def test_log_lines_are_one_line_each_with_level_and_logger_unless_debugging() -> None:
    try:
        raise ValueError("the board\nis wet")
    except ValueError:
        record = logging.getLogger("bot.x").makeRecord(
            "bot.x", logging.ERROR, __file__, 1, "move %s\nfailed", ("7",), sys.exc_info())
    line = OneLineFormatter().format(record)
    assert "\n" not in line
    assert re.fullmatch(rf"{TIMESTAMP} ERROR bot\.x: move 7\\nfailed "
                        r"\[ValueError: the board\\nis wet\]", line)
    debugging = OneLineFormatter(tracebacks=True).format(record)
    assert debugging.startswith(line.split(" [")[0]) and "Traceback" in debugging


def test_candybot_log_sets_the_level(capsys: pytest.CaptureFixture[str]) -> None:
    setup_logging("warning")
    logging.getLogger("bot.x").info("hidden")
    logging.getLogger("bot.x").warning("shown")
    setup_logging("info")
    logging.getLogger("discord.client").info("discord's chatter")
    logging.getLogger("bot.x").info("also shown")
    err = capsys.readouterr().err
    assert "hidden" not in err and "chatter" not in err
    assert " WARNING bot.x: shown" in err and " INFO bot.x: also shown" in err


# --------------------------------------------------------------------------- check


def test_check_without_a_token_checks_the_database_and_says_discord_was_not_checked(
        env: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(make_games(Path(env["CANDYBOT_DB"]), [
        (CLUB, GENERAL, "active"), (CLUB, LOCKED, "lobby"), (CLUB, HIDDEN, "finished")]))
    # As `candybot run` would refuse to start: not well, and exit 2.
    assert main(["check"]) == ops.Exit.CONFIG == 2
    out = capsys.readouterr().out
    assert f"schema {len(MIGRATIONS)} (current), integrity ok" in out
    assert "Games: 1 lobby, 1 active, 1 finished, 0 aborted." in out
    assert ("Discord: NOT CHECKED (no DISCORD_TOKEN): neither the token nor the servers nor "
            "the bot's permissions.") in out
    [problem] = [line for line in out.splitlines() if line.startswith("Problem")]
    assert problem.startswith("Problem (exit code 2): There is no DISCORD_TOKEN")
    assert "All is well" not in out


def test_check_on_a_new_install_says_the_database_will_be_created(
        env: dict[str, str], fake_discord: OfflineServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert main(["check"]) == 0
    assert "not created yet" in capsys.readouterr().out
    assert not Path(env["CANDYBOT_DB"]).exists()


def test_check_reports_a_damaged_database_and_exits_8(
        env: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(env["CANDYBOT_DB"])
    asyncio.run(make_games(path, [(CLUB, 700 + n, "lobby") for n in range(300)]))
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode = DELETE")
        page = db.execute("PRAGMA page_size").fetchone()[0]
        root = db.execute("SELECT rootpage FROM sqlite_master "
                          "WHERE name = 'games_one_open_per_channel'").fetchone()[0]
    with path.open("r+b") as handle:  # scribble over the index's first page
        handle.seek((root - 1) * page + 8)
        handle.write(b"\xff" * 64)
    assert main(["check"]) == ops.Exit.DATABASE_UNUSABLE == 8
    out = capsys.readouterr().out
    assert "Problem (exit code 8)" in out and "restore the latest backup" in out


@pytest.mark.parametrize(("make", "code"), [(not_a_database, 6), (a_newer_database, 7)])
def test_check_reports_an_unusable_database_with_its_exit_code(
        make: Any, code: int, env: dict[str, str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CANDYBOT_DB", str(make(tmp_path)))
    assert main(["check"]) == code
    assert f"Problem (exit code {code})" in capsys.readouterr().out


def test_check_with_a_token_lists_servers_and_the_bots_permissions_where_games_are_open(
        env: dict[str, str], fake_discord: OfflineServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(make_games(Path(env["CANDYBOT_DB"]), [
        (CLUB, GENERAL, "active"), (CLUB, LOCKED, "lobby"), (CLUB, HIDDEN, "active"),
        (CLUB, THREAD, "active"), (CLUB, DELETED, "lobby"), (GONE, 1234, "active")]))
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert main(["check"]) == ops.Exit.PERMISSIONS == 9
    out = capsys.readouterr().out
    assert f"logged in as candybot (id {BOT_ID}), in 2 servers" in out
    assert f"Server 'Candy Club' ({CLUB}): 5 open games." in out
    assert f"Server 'Other' ({OTHER}): no open games." in out
    assert re.search(rf"#general \({GENERAL}\), game 1 .*: can view, send and attach files",
                     out)
    assert re.search(rf"#a-thread \({THREAD}\), .*: can view, send and attach files", out)
    assert re.search(rf"#locked \({LOCKED}\), .*: CANNOT Attach Files\.", out)
    assert re.search(rf"channel \({HIDDEN}\), .*: CANNOT View Channel\.", out)
    assert "the channel was deleted" in out
    assert "servers the bot is no longer in: game 6" in out
    assert "Problem (exit code 9): The bot lacks permissions in 2 channels" in out
    assert TOKEN not in out
    assert not [r for r in asked(fake_discord) if not r.startswith("GET ")]


def test_check_with_a_token_exits_0_when_the_bot_can_play_everywhere(
        env: dict[str, str], fake_discord: OfflineServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(make_games(Path(env["CANDYBOT_DB"]), [(CLUB, GENERAL, "active")]))
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert main(["check"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("All is well.")


def test_check_in_a_thread_needs_send_messages_in_threads(
        env: dict[str, str], fake_discord: OfflineServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    fake_discord.call(lambda: setattr(fake_discord.recorder.rooms[GENERAL], "permissions",
                                      VIEW_CHANNEL | SEND_MESSAGES | ATTACH_FILES))
    asyncio.run(make_games(Path(env["CANDYBOT_DB"]), [(CLUB, THREAD, "active")]))
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert main(["check"]) == 9
    assert "CANNOT Send Messages in Threads, Attach Files." in capsys.readouterr().out


def test_check_with_a_refused_token_exits_3(
        env: dict[str, str], fake_discord: OfflineServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", WRONG)
    assert main(["check"]) == 3
    assert "Problem (exit code 3): Discord rejected the token" in capsys.readouterr().out


def test_check_without_network_exits_4(
        env: dict[str, str], no_network: None, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert main(["check"]) == 4
    assert "Problem (exit code 4): Could not reach Discord" in capsys.readouterr().out


# --------------------------------------------------------------------------- backup


async def replay_every_game(path: Path) -> int:
    """Replay each started game in the database at ``path``; the number replayed."""
    store = await Store.open(path)
    try:
        with sqlite3.connect(path) as db:
            channels = [c for (c,) in db.execute("SELECT DISTINCT channel_id FROM games")]
        replayed = 0
        for channel in channels:
            for record in await store.games.games_in_channel(channel):
                if record.seed is None:
                    continue
                game = GAMES[record.game]
                log = [(a.seat, a.notation) for a in await store.moves.actions(record.id)]
                seats = [SeatInfo(s.name, s.ai) for s in record.seats]
                rebuilt = game.replay(seats, record.seed, record.options, log)
                assert dumps(rebuilt) == dumps(loads(record.state_json or "", game)), record.id
                replayed += 1
    finally:
        await store.close()
    return replayed


@pytest.fixture
async def live(tmp_path: Path) -> AsyncIterator[Tables]:
    store = await Store.open(tmp_path / "live.db")
    # One player keeps six tables busy at once: a load, not a stranger.
    yield Tables(store, GAMES, lambda: 1_700_000_000.0,
                 limits=Limits(lobbies_per_person=50, games_per_person=50))
    await store.close()


async def test_backup_while_games_are_played_copies_a_database_that_replays_every_game(
        live: Tables, tmp_path: Path) -> None:
    channels = range(500, 506)
    for channel in channels:
        lobby = await live.lobbies.open_lobby(channel_id=channel, guild_id=CLUB,
                                              game="candy-race", creator_id=101,
                                              creator_name="Alice", options={"target": 30})
        await live.lobbies.add_ai(lobby.record.id, 101)
        await live.lobbies.add_ai(lobby.record.id, 101)
        await live.lobbies.start(lobby.record.id, 101)

    playing = True

    async def play(channel: int) -> None:
        while playing:
            record = await live.store.games.open_game(channel)
            if record is None:  # finished: start the next one
                lobby = await live.lobbies.open_lobby(channel_id=channel, guild_id=CLUB,
                                                      game="candy-dash", creator_id=101,
                                                      creator_name="Alice")
                await live.lobbies.add_ai(lobby.record.id, 101)
                await live.lobbies.start(lobby.record.id, 101)
                continue
            await live.moves.play(channel_id=channel, user_id=101, text="step")

    players = [asyncio.create_task(play(c)) for c in channels]
    copies = []
    try:
        for n in range(4):
            await asyncio.sleep(0.05)
            report = await asyncio.to_thread(backup_database, live.store.path,
                                             tmp_path / f"copy-{n}.db")
            copies.append(report)
    finally:
        playing = False
        await asyncio.gather(*players)
    moves = []
    for report in copies:
        assert report.copy.integrity == "ok"
        assert report.target.exists() and not Path(f"{report.target}-wal").exists()
        with sqlite3.connect(report.target) as db:
            assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            moves.append(db.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
        assert await replay_every_game(report.target) >= len(channels)
    assert moves == sorted(moves) and moves[-1] > moves[0]  # the games went on meanwhile


async def test_backup_refuses_to_replace_a_file_unless_forced(
        live: Tables, tmp_path: Path) -> None:
    target = tmp_path / "copy.db"
    target.write_text("yesterday's backup")
    with pytest.raises(ops.OpsError, match=r"already exists.*--force") as refused:
        backup_database(live.store.path, target)
    assert refused.value.code == ops.Exit.CONFIG
    assert target.read_text() == "yesterday's backup"
    report = backup_database(live.store.path, target, force=True)
    assert report.copy.integrity == "ok" and report.copy.schema == len(MIGRATIONS)
    assert not list(tmp_path.glob("*.partial"))


def test_backup_into_a_folder_writes_a_dated_copy_and_says_so_in_one_line(
        env: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(make_games(Path(env["CANDYBOT_DB"]), [(CLUB, GENERAL, "active")]))
    folder = tmp_path / "backups"
    folder.mkdir()
    assert main(["backup", str(folder)]) == 0
    [copy] = folder.iterdir()
    assert re.fullmatch(r"candybot-\d{8}T\d{6}Z\.db", copy.name)
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith(f"Backed up {env['CANDYBOT_DB']} to {copy}: ")
    assert "1 game (0 lobby, 1 active, 0 finished, 0 aborted), integrity ok" in line
    assert asyncio.run(replay_every_game(copy)) == 1


@pytest.mark.parametrize(("make", "code", "words"), [
    (lambda d: d / "nothing.db", 5, "no candybot database"),
    (not_a_database, 6, "not a candybot database"),
])
def test_backup_of_a_missing_or_foreign_database_fails_clearly(
        make: Any, code: int, words: str, env: dict[str, str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CANDYBOT_DB", str(make(tmp_path)))
    assert main(["backup", str(tmp_path / "copy.db")]) == code
    [line] = error_lines(capsys.readouterr().err)
    assert words in line
    assert not (tmp_path / "copy.db").exists()


def test_settings_read_candybot_log_from_the_dotenv_file(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("CANDYBOT_LOG=Warning\n")
    assert Settings.from_env({}, tmp_path / ".env").log_level == "warning"
    assert Settings.from_env({}, tmp_path / "none").log_level == "info"
    assert "log_level='warning'" in repr(Settings(log_level="warning"))



def test_run_on_postgresql_checks_the_database_then_meets_discord(
        env: dict[str, str], fake_discord: OfflineServer, postgres_url: str,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CANDYBOT_DB", postgres_url)
    monkeypatch.setenv("DISCORD_TOKEN", WRONG)
    assert main(["run"]) == ops.Exit.TOKEN_REFUSED
    assert asked(fake_discord) == ["GET /users/@me"], "the database passed its check"


def test_run_on_an_unreachable_postgresql_stops_before_discord(
        env: dict[str, str], fake_discord: OfflineServer, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CANDYBOT_DB", f"postgresql://candybot:hunter2@/gone?host={tmp_path}")
    monkeypatch.setenv("DISCORD_TOKEN", WRONG)
    assert main(["run"]) == ops.Exit.DATABASE_PATH
    out = capsys.readouterr()
    [line] = error_lines(out.err)
    assert "cannot be reached" in line and "hunter2" not in out.err + out.out
    assert asked(fake_discord) == []


def test_check_says_where_new_games_get_a_thread_of_their_own(
        env: dict[str, str], fake_discord: OfflineServer, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def everywhere_but_threads_in_locked() -> None:
        rooms = fake_discord.recorder.rooms
        rooms[GENERAL].permissions = PLAYS | CREATE_PUBLIC_THREADS
        rooms[LOCKED].permissions = PLAYS

    fake_discord.call(everywhere_but_threads_in_locked)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    assert main(["check"]) == 0, "a channel without threads still plays one game: no problem"
    out = capsys.readouterr().out
    assert "A thread per game in: #general." in out
    assert "One game per channel in: #locked (lacks Create Public Threads)." in out
