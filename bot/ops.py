"""Operating the bot: exit codes, logging, the database pre-flight, ``check`` and ``backup``.

Every problem an operator can fix is an :class:`OpsError`: an exit code from :class:`Exit`
and one line saying what is wrong and what to do. The database is inspected with plain
``sqlite3`` and never changed here; ``backup`` only writes the copy.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.config import Settings
from bot.games.words import plural

if TYPE_CHECKING:
    import discord

    from bot.discord.client import CandyBot

log = logging.getLogger(__name__)

#: How long ``candybot check`` waits for Discord before calling it unreachable, in seconds.
CHECK_TIMEOUT = 120.0
SQLITE_MAGIC = b"SQLite format 3\x00"
#: The tables of the first migration: a database holding them is a candybot database.
CANDYBOT_TABLES = frozenset({"games", "actions", "results"})
STATUSES = ("lobby", "active", "finished", "aborted")
PORTAL = "https://discord.com/developers/applications"


class Exit(IntEnum):
    """The exit codes of ``candybot``; docs/discord.md lists them for operators."""

    OK = 0
    #: Something unexpected (run again with --debug), or Discord refused a request.
    FAILED = 1
    #: No DISCORD_TOKEN, a bad CANDYBOT_LOG, or a backup that would replace a file.
    CONFIG = 2
    #: Discord rejected the token (or the intents).
    TOKEN_REFUSED = 3
    #: Discord could not be reached: no network, DNS, firewall, or a Discord outage.
    DISCORD_UNREACHABLE = 4
    #: The database's folder (or file) is missing or cannot be written.
    DATABASE_PATH = 5
    #: The file is not a candybot database.
    NOT_CANDYBOT = 6
    #: The database was written by a newer candybot.
    DATABASE_TOO_NEW = 7
    #: The database is damaged (fails the integrity check) or cannot be used.
    DATABASE_UNUSABLE = 8
    #: ``check``: the bot cannot view, send or attach files where a game is open.
    PERMISSIONS = 9


class OpsError(Exception):
    """A problem the operator can fix; ``str()`` is the one line to show."""

    def __init__(self, code: Exit, message: str) -> None:
        super().__init__(message)
        self.code = code


# --------------------------------------------------------------------------- logging

_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
           "error": logging.ERROR}


def _one_line(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")


def summarise(exc: BaseException) -> str:
    """``Type: message`` of an exception, on one line."""
    text = _one_line(str(exc).strip())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class OneLineFormatter(logging.Formatter):
    """``2026-11-23T10:00:00Z INFO bot.app: message``: one line per record, UTC.

    An exception is summarised on the same line, unless ``tracebacks`` is set: then its
    full traceback follows on the lines after.
    """

    def __init__(self, *, tracebacks: bool = False) -> None:
        super().__init__()
        self.tracebacks = tracebacks

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return datetime.fromtimestamp(record.created, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    def format(self, record: logging.LogRecord) -> str:
        line = (f"{self.formatTime(record)} {record.levelname} {record.name}: "
                f"{_one_line(record.getMessage())}")
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None and record.exc_info is not None:
            if self.tracebacks:
                return f"{line}\n{self.formatException(record.exc_info).rstrip()}"
            line += f" [{summarise(exc)}]"
        if record.stack_info and self.tracebacks:
            line += f"\n{self.formatStack(record.stack_info)}"
        return line


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is when a record arrives."""

    @property  # type: ignore[override]
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def setup_logging(level: str = "info", *, debug: bool = False) -> None:
    """Log to standard error, one line per record, at ``level`` (``debug`` forces DEBUG).

    Full tracebacks only at DEBUG; discord.py's own INFO lines too. Calling it again
    replaces the previous set-up.
    """
    name = "debug" if debug else level
    root = logging.getLogger()
    for handler in [h for h in root.handlers if isinstance(h, _StderrHandler)]:
        root.removeHandler(handler)
    handler = _StderrHandler()
    handler.setFormatter(OneLineFormatter(tracebacks=name == "debug"))
    root.addHandler(handler)
    root.setLevel(_LEVELS[name])
    # aiosqlite's DEBUG lines name every query: noise even when debugging the bot.
    logging.getLogger("aiosqlite").setLevel(logging.INFO)
    # discord.py's routine INFO lines (logging in, gateway sessions) only when debugging,
    # so a normal start logs one line: the bot's own "ready".
    logging.getLogger("discord").setLevel(logging.NOTSET if name == "debug" else
                                          max(logging.WARNING, _LEVELS[name]))


def silence_voice_warnings() -> None:
    """The bot uses no voice: stop discord.py warning that voice libraries are missing."""
    from discord.voice_client import VoiceClient

    for flag in ("warn_nacl", "warn_dave"):
        if hasattr(VoiceClient, flag):
            setattr(VoiceClient, flag, False)


def fail(problem: BaseException, *, debug: bool = False) -> int:
    """Log ``problem`` as one ERROR line, after its traceback with ``debug``; its exit code."""
    if isinstance(problem, OpsError):
        code, message = problem.code, str(problem)
        cause = problem.__cause__ or problem
    else:
        code, cause = Exit.FAILED, problem
        message = (f"Unexpected error: {summarise(problem)}. Run again with --debug for the "
                   f"full traceback.")
    if debug:
        log.debug("the traceback of what follows:", exc_info=cause)
    log.error("%s", message)
    return int(code)


def discord_problem(exc: BaseException) -> OpsError | None:
    """What a failure to talk to Discord means for the operator, or None if it is not one."""
    import aiohttp
    import discord

    if isinstance(exc, discord.LoginFailure) or (
            isinstance(exc, discord.ConnectionClosed) and exc.code == 4004):
        return OpsError(Exit.TOKEN_REFUSED,
                        f"Discord rejected the token in DISCORD_TOKEN: press Reset Token on the "
                        f"Bot page of {PORTAL}, put the new token in DISCORD_TOKEN, and try "
                        f"again.")
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return OpsError(Exit.TOKEN_REFUSED,
                        "Discord refused the gateway intents: candybot needs none of the "
                        f"privileged ones; check the Bot page of {PORTAL}.")
    if isinstance(exc, discord.DiscordServerError):
        return OpsError(Exit.DISCORD_UNREACHABLE,
                        f"Discord is having trouble (HTTP {exc.status}): try again in a few "
                        f"minutes; https://discordstatus.com shows outages.")
    if isinstance(exc, discord.ConnectionClosed):
        return OpsError(Exit.DISCORD_UNREACHABLE,
                        f"Discord closed the connection (code {exc.code}): try again in a few "
                        f"minutes.")
    if isinstance(exc, TimeoutError):
        return OpsError(Exit.DISCORD_UNREACHABLE,
                        "Discord did not answer in time: check this machine's internet "
                        "connection, DNS, proxy and firewall, then try again.")
    # aiohttp wraps refused connections, DNS and TLS failures in ClientError; a bare
    # OSError (a missing file, say) is not about the network, so it is not caught here.
    if isinstance(exc, discord.GatewayNotFound | aiohttp.ClientError | ConnectionError
                  | socket.gaierror):
        return OpsError(Exit.DISCORD_UNREACHABLE,
                        f"Could not reach Discord ({summarise(exc)}): check this machine's "
                        f"internet connection, DNS, proxy and firewall, then try again.")
    return None


# --------------------------------------------------------------------------- the database


@dataclass(frozen=True)
class OpenGame:
    """A lobby or active game: where it is, for the permission check."""

    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: str


@dataclass(frozen=True)
class DatabaseInfo:
    """What the pre-flight found: schema, games by status, the integrity check."""

    path: Path
    exists: bool
    schema: int
    known_schema: int
    counts: dict[str, int] = field(default_factory=dict)
    open_games: tuple[OpenGame, ...] = ()
    #: ``"ok"``, or SQLite's first complaints; None when not checked.
    integrity: str | None = None

    @property
    def active(self) -> int:
        """How many games are being played."""
        return self.counts.get("active", 0)

    def describe_schema(self) -> str:
        if self.schema == self.known_schema:
            return f"schema {self.schema} (current)"
        if self.schema == 0:
            return "empty (candybot run sets it up)"
        return f"schema {self.schema} (candybot run upgrades it to {self.known_schema})"

    def describe_counts(self) -> str:
        return ", ".join(f"{self.counts.get(s, 0)} {s}" for s in STATUSES)


def known_schema() -> int:
    """How many migrations this candybot knows."""
    from bot.store import MIGRATIONS

    return len(MIGRATIONS)


def _connect(path: Path) -> sqlite3.Connection:
    """An existing database, opened for reading and writing but never created."""
    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=rw", uri=True, timeout=10)
    db.execute("PRAGMA query_only = ON")
    return db


def _database_error(path: Path, exc: sqlite3.Error) -> OpsError:
    name = getattr(exc, "sqlite_errorname", "")
    if name == "SQLITE_NOTADB":
        return OpsError(Exit.NOT_CANDYBOT,
                        f"{path} is not a candybot database (SQLite: {exc}): set CANDYBOT_DB to "
                        f"candybot's database, or move this file away to start afresh.")
    if name.startswith("SQLITE_CORRUPT"):
        return OpsError(Exit.DATABASE_UNUSABLE,
                        f"The database {path} is damaged (SQLite: {exc}): stop the bot and "
                        f"restore the latest backup (see docs/discord.md).")
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return OpsError(Exit.DATABASE_UNUSABLE,
                        f"The database {path} is locked by another program (SQLite: {exc}): "
                        f"stop it, or wait for it to finish, and try again.")
    if name.startswith(("SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_READONLY", "SQLITE_AUTH")):
        return OpsError(Exit.DATABASE_PATH,
                        f"The database {path} cannot be opened for writing (SQLite: {exc}): "
                        f"check the owner and permissions of the file and its folder.")
    return OpsError(Exit.DATABASE_UNUSABLE,
                    f"The database {path} cannot be used (SQLite: {exc}): run `candybot check`, "
                    f"and restore the latest backup if it reports damage.")


def _probe_folder(folder: Path) -> None:
    """Create and remove a file in ``folder``: SQLite keeps its journal beside the database."""
    try:
        handle, name = tempfile.mkstemp(prefix=".candybot-probe-", dir=folder)
    except OSError as exc:
        raise OpsError(Exit.DATABASE_PATH,
                       f"candybot cannot write in the database folder {folder} ({exc.strerror}): "
                       f"give the user running the bot write access to it, or set CANDYBOT_DB "
                       f"to a file in another folder.") from exc
    os.close(handle)
    os.unlink(name)


def inspect_database(path: Path | str, *, integrity: bool = False,
                     probe: bool = True) -> DatabaseInfo:
    """Can candybot use the database at ``path``? Raises :class:`OpsError` if not.

    Never creates or changes the database. ``probe`` also checks that the folder is
    writable; ``integrity`` runs SQLite's integrity check.
    """
    path = Path(path)
    known = known_schema()
    folder = path.absolute().parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise OpsError(Exit.DATABASE_PATH,
                       f"The database folder {folder} {what}: create it, or set CANDYBOT_DB "
                       f"(now {path}) to a file in an existing folder.")
    if probe:
        _probe_folder(folder)
    if path.is_dir():
        raise OpsError(Exit.NOT_CANDYBOT,
                       f"CANDYBOT_DB={path} is a folder, not a database file: set it to a file "
                       f"such as {path / 'candybot.db'}.")
    if not path.exists():
        return DatabaseInfo(path, exists=False, schema=0, known_schema=known)
    try:
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise OpsError(Exit.DATABASE_PATH,
                       f"The database {path} cannot be read ({exc.strerror}): check the owner "
                       f"and permissions of the file.") from exc
    if probe and not os.access(path, os.R_OK | os.W_OK):
        raise OpsError(Exit.DATABASE_PATH,
                       f"The database {path} cannot be written: give the user running the bot "
                       f"write access to it.")
    if not head:
        return DatabaseInfo(path, exists=True, schema=0, known_schema=known)
    if head != SQLITE_MAGIC:
        raise OpsError(Exit.NOT_CANDYBOT,
                       f"{path} is not a candybot database (it is not an SQLite file): set "
                       f"CANDYBOT_DB to candybot's database, or move this file away to start "
                       f"afresh.")
    try:
        with closing(_connect(path)) as db:
            return _read(db, path, known, integrity)
    except sqlite3.Error as exc:
        raise _database_error(path, exc) from exc


def _read(db: sqlite3.Connection, path: Path, known: int, integrity: bool) -> DatabaseInfo:
    (schema,) = db.execute("PRAGMA user_version").fetchone()
    tables = {name for (name,) in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
    if schema > known:
        raise OpsError(Exit.DATABASE_TOO_NEW,
                       f"The database {path} was written by a newer candybot (schema {schema}; "
                       f"this one knows up to {known}): upgrade candybot, or set CANDYBOT_DB to "
                       f"another file.")
    if (schema == 0 and tables) or (schema > 0 and not CANDYBOT_TABLES.issubset(tables)):
        shown = ", ".join(sorted(tables)[:5]) or "none"
        raise OpsError(Exit.NOT_CANDYBOT,
                       f"{path} is an SQLite database but not a candybot one (tables: {shown}): "
                       f"set CANDYBOT_DB to candybot's database, or to a new file.")
    counts: dict[str, int] = {}
    games: tuple[OpenGame, ...] = ()
    if schema > 0:
        counts = dict(db.execute("SELECT status, COUNT(*) FROM games GROUP BY status"))
        games = tuple(OpenGame(*row) for row in db.execute(
            "SELECT id, guild_id, channel_id, game, status FROM games "
            "WHERE status IN ('lobby', 'active') ORDER BY guild_id, channel_id, id"))
    verdict = None
    if integrity:
        rows = [str(row[0]) for row in db.execute("PRAGMA integrity_check")]
        verdict = "ok" if rows == ["ok"] else "; ".join(rows[:3])
    return DatabaseInfo(path, exists=True, schema=schema, known_schema=known, counts=counts,
                        open_games=games, integrity=verdict)


def preflight(settings: Settings) -> DatabaseInfo:
    """The check ``run`` and ``sync`` make before connecting to Discord."""
    return inspect_database(settings.db_path)


# --------------------------------------------------------------------------- the ready line


async def ready_message(bot: CandyBot) -> str:
    """The one line logged when the bot is connected: who, where, how busy, which database."""
    path = bot.settings.db_path
    try:
        info = await asyncio.to_thread(inspect_database, path, probe=False)
        games, schema = plural(info.active, "active game"), f"schema {info.schema}"
    except OpsError as exc:
        games, schema = "active games unknown", str(exc)
    return (f"ready as {bot.user}; {plural(len(bot.guilds), 'server')}; {games}; "
            f"database {path} ({schema})")


# --------------------------------------------------------------------------- backup


@dataclass(frozen=True)
class BackupReport:
    """A finished backup: where from, where to, how big, and what the copy holds."""

    source: Path
    target: Path
    size: int
    copy: DatabaseInfo
    seconds: float

    def describe(self) -> str:
        total = sum(self.copy.counts.values())
        return (f"Backed up {self.source} to {self.target}: {self.size / 1024:.0f} KiB, "
                f"schema {self.copy.schema}, {plural(total, 'game')} "
                f"({self.copy.describe_counts()}), integrity {self.copy.integrity}, "
                f"in {self.seconds:.1f} s.")


def backup_database(source: Path | str, target: Path | str, *,
                    force: bool = False) -> BackupReport:
    """Copy the live database with SQLite's online backup, safe while the bot runs.

    ``target`` may be a folder: the copy is then named after the current UTC time. The
    copy is written beside the target, integrity-checked, then renamed into place, so
    ``target`` never holds a half-written or damaged copy.
    """
    started = time.monotonic()
    source, target = Path(source), Path(target)
    info = inspect_database(source, probe=False)
    if not info.exists or info.schema == 0:
        raise OpsError(Exit.DATABASE_PATH,
                       f"There is no candybot database at {source} to back up: check "
                       f"CANDYBOT_DB.")
    if target.is_dir():
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        target = target / f"candybot-{stamp}.db"
    if target.absolute() == source.absolute():
        raise OpsError(Exit.CONFIG, f"{target} is the live database: back it up elsewhere.")
    if target.exists() and not force:
        raise OpsError(Exit.CONFIG,
                       f"{target} already exists: choose another name or a folder (for a "
                       f"dated copy), or pass --force to replace it.")
    folder = target.absolute().parent
    if not folder.is_dir():
        raise OpsError(Exit.DATABASE_PATH,
                       f"The backup folder {folder} does not exist: create it first.")
    partial = target.with_name(f"{target.name}.partial")
    try:
        partial.unlink(missing_ok=True)
        with closing(_connect(source)) as live, closing(sqlite3.connect(partial)) as copy:
            # One step: the whole copy is read in one transaction, so it is consistent;
            # in WAL mode the bot keeps writing meanwhile.
            live.backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise _database_error(source, exc) from exc
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise OpsError(Exit.DATABASE_PATH,
                       f"The backup {partial} cannot be written ({exc.strerror}).") from exc
    checked = inspect_database(partial, integrity=True, probe=False)
    if checked.integrity != "ok":
        raise OpsError(Exit.DATABASE_UNUSABLE,
                       f"The copy fails SQLite's integrity check ({checked.integrity}), so the "
                       f"live database is probably damaged; the copy is kept as {partial}. "
                       f"Run `candybot check`.")
    os.replace(partial, target)
    return BackupReport(source, target, target.stat().st_size,
                        replace(checked, path=target),
                        time.monotonic() - started)


def backup(settings: Settings, target: Path, *, force: bool = False,
           debug: bool = False) -> int:
    """``candybot backup PATH``: copy the live database and say what the copy holds."""
    setup_logging(settings.log_level, debug=debug)
    debug = debug or settings.log_level == "debug"
    try:
        report = backup_database(settings.db_path, target, force=force)
    except Exception as exc:
        return fail(exc, debug=debug)
    print(report.describe())
    return Exit.OK


# --------------------------------------------------------------------------- check


#: What the bot needs where a game is open, with the names Discord's settings show.
NEEDED = {"view_channel": "View Channel", "send_messages": "Send Messages",
          "attach_files": "Attach Files"}
NEEDED_IN_THREADS = {"view_channel": "View Channel",
                     "send_messages_in_threads": "Send Messages in Threads",
                     "attach_files": "Attach Files"}


@dataclass(frozen=True)
class ChannelAccess:
    """The bot's permissions in one channel with open games."""

    channel_id: int
    name: str
    games: tuple[OpenGame, ...]
    missing: tuple[str, ...] = ()
    #: Why the channel could not be checked (it was deleted), if so.
    note: str = ""


@dataclass(frozen=True)
class ServerAccess:
    """One server the bot is in, and the channels of its open games."""

    id: int
    name: str
    channels: tuple[ChannelAccess, ...] = ()


@dataclass(frozen=True)
class DiscordAccess:
    """What Discord says about the bot: who it is, its servers, games it cannot reach."""

    user: str
    user_id: int
    servers: tuple[ServerAccess, ...]
    #: Open games in servers the bot is no longer in (or outside any server).
    stranded: tuple[OpenGame, ...] = ()


async def discord_access(token: str, games: Sequence[OpenGame]) -> DiscordAccess:
    """Log in over HTTP only (no gateway) and check the bot's access where games are open.

    Raises whatever discord.py raises: :func:`discord_problem` explains it.
    """
    import discord

    silence_voice_warnings()
    client = discord.Client(intents=discord.Intents(guilds=True))
    try:
        data = await client.http.static_login(token)
        state = client._connection
        state.user = me = discord.ClientUser(state=state, data=data)
        guilds = [g async for g in client.fetch_guilds(limit=None)]
        by_guild: dict[int | None, list[OpenGame]] = {}
        for game in games:
            by_guild.setdefault(game.guild_id, []).append(game)
        servers = []
        for guild in guilds:
            here = by_guild.pop(guild.id, [])
            channels = await _channels(client, guild.id, me.id, here) if here else ()
            servers.append(ServerAccess(guild.id, guild.name, channels))
        stranded = tuple(g for gs in by_guild.values() for g in gs)
        return DiscordAccess(str(me), me.id, tuple(servers), stranded)
    finally:
        await client.http.close()


async def _channels(client: discord.Client, guild_id: int, user_id: int,
                    games: Sequence[OpenGame]) -> tuple[ChannelAccess, ...]:
    import discord

    # The full guild (its roles) and the bot's member; cached so that fetched channels
    # and threads resolve roles and parents without a gateway connection.
    guild = await client.fetch_guild(guild_id)
    client._connection._add_guild(guild)
    member = await guild.fetch_member(user_id)
    by_channel: dict[int, list[OpenGame]] = {}
    for game in games:
        by_channel.setdefault(game.channel_id, []).append(game)
    out = []
    for channel_id, here in by_channel.items():
        try:
            channel = await client.fetch_channel(channel_id)
        except discord.NotFound:
            out.append(ChannelAccess(channel_id, "channel", tuple(here),
                                     note="the channel was deleted"))
            continue
        except discord.Forbidden:
            out.append(ChannelAccess(channel_id, "channel", tuple(here),
                                     missing=("View Channel",)))
            continue
        needed = NEEDED
        if isinstance(channel, discord.Thread):
            needed = NEEDED_IN_THREADS
            if channel.parent is None:
                guild._add_channel(await client.fetch_channel(channel.parent_id))  # type: ignore[arg-type]
        permissions = channel.permissions_for(member)  # type: ignore[union-attr]
        missing = tuple(label for flag, label in needed.items() if not getattr(permissions, flag))
        out.append(ChannelAccess(channel_id, f"#{getattr(channel, 'name', channel_id)}",
                                 tuple(here), missing))
    return tuple(out)


def _games_text(games: Sequence[OpenGame]) -> str:
    return ", ".join(f"game {g.id} ({g.game}, {g.status})" for g in games)


def check(settings: Settings, *, debug: bool = False) -> int:
    """``candybot check``: the database, then (with a token) the bot's access on Discord.

    Prints a report; returns :data:`Exit.OK` only when all is well, otherwise the code of
    the first problem found.
    """
    setup_logging(settings.log_level, debug=debug)
    debug = debug or settings.log_level == "debug"
    problems: list[OpsError] = []
    games: tuple[OpenGame, ...] = ()
    path = settings.db_path
    try:
        info = inspect_database(path, integrity=True)
    except OpsError as exc:
        print(f"Database {path}: PROBLEM")
        problems.append(exc)
    except Exception as exc:
        return fail(exc, debug=debug)
    else:
        games = info.open_games
        if not info.exists:
            print(f"Database {path}: not created yet; candybot run creates it (the folder is "
                  f"writable).")
        else:
            print(f"Database {path}: {info.describe_schema()}, integrity {info.integrity}.")
            print(f"  Games: {info.describe_counts()}.")
            if info.integrity != "ok":
                problems.append(OpsError(
                    Exit.DATABASE_UNUSABLE,
                    f"The database {path} fails SQLite's integrity check: stop the bot and "
                    f"restore the latest backup (see docs/discord.md)."))
    if not settings.token:
        print("Discord: skipped (no DISCORD_TOKEN); set it to also check the token and the "
              "bot's permissions.")
    else:
        try:
            access = asyncio.run(asyncio.wait_for(discord_access(settings.token, games),
                                                  CHECK_TIMEOUT))
        except Exception as exc:
            problem = discord_problem(exc)
            if problem is None:
                return fail(exc, debug=debug)
            print("Discord: PROBLEM")
            problems.append(problem)
        else:
            problems.extend(_report_access(access))
    for problem in problems:
        print(f"Problem (exit code {int(problem.code)}): {problem}")
    if not problems:
        print("All is well.")
        return Exit.OK
    if debug:
        for problem in problems:
            log.debug("%s", problem, exc_info=problem.__cause__)
    return int(problems[0].code)


def _report_access(access: DiscordAccess) -> list[OpsError]:
    print(f"Discord: the token works; logged in as {access.user} (id {access.user_id}), in "
          f"{plural(len(access.servers), 'server')}.")
    lacking = 0
    for server in access.servers:
        count = sum(len(c.games) for c in server.channels)
        print(f"  Server {server.name!r} ({server.id}): "
              f"{plural(count, 'open game') if count else 'no open games'}.")
        for channel in server.channels:
            where = f"    {channel.name} ({channel.channel_id}), {_games_text(channel.games)}"
            if channel.note:
                print(f"{where}: {channel.note}, so these games cannot go on (harmless).")
            elif channel.missing:
                lacking += 1
                print(f"{where}: CANNOT {', '.join(channel.missing)}.")
            else:
                print(f"{where}: can view, send and attach files.")
    if access.stranded:
        print(f"  Open games in servers the bot is no longer in: "
              f"{_games_text(access.stranded)}; they cannot go on until it is invited back.")
    if not lacking:
        return []
    return [OpsError(Exit.PERMISSIONS,
                     f"The bot lacks permissions in {plural(lacking, 'channel')} with open "
                     f"games: grant its role View Channel, Send Messages and Attach Files "
                     f"there (see docs/discord.md).")]

