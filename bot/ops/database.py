"""The database pre-flight: can candybot use the database ``CANDYBOT_DB`` names?

A SQLite file is only ever opened through SQLite, never read as a plain file: in the
bot's process, closing any other descriptor of the file would drop the POSIX locks
SQLite holds on it (see docs/reliability.md). A PostgreSQL database is read through
psycopg. Nothing here changes the database.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from bot.config import Settings
from bot.ops import Exit, OpsError
from bot.store.base import is_postgres
from bot.store.postgres import redacted

#: The tables of the first migration: a database holding them is a candybot database.
CANDYBOT_TABLES = frozenset({"games", "actions", "results"})
STATUSES = ("lobby", "active", "finished", "aborted")


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

    #: The SQLite file, or the PostgreSQL URL without its password.
    path: Path | str
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


def connect(path: Path) -> sqlite3.Connection:
    """An existing database, opened through SQLite for reading (and writing, which WAL
    needs for its index) but never created or changed."""
    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=rw", uri=True, timeout=10)
    db.execute("PRAGMA query_only = ON")
    return db


def database_error(path: Path, exc: sqlite3.Error) -> OpsError:
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
    if probe and not os.access(path, os.R_OK | os.W_OK):
        raise OpsError(Exit.DATABASE_PATH,
                       f"The database {path} cannot be written: give the user running the bot "
                       f"write access to it.")
    try:
        with closing(connect(path)) as db:
            return _read(db, path, known, integrity)
    except sqlite3.Error as exc:
        raise database_error(path, exc) from exc


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


def inspect_postgres(url: str, *, integrity: bool = False) -> DatabaseInfo:
    """Can candybot use the PostgreSQL database at ``url``? Raises :class:`OpsError` if not.

    ``integrity`` reads every row of candybot's tables (PostgreSQL checks its own pages as
    it reads them; ``amcheck`` goes further): ``"ok"`` when they all read.
    """
    shown = redacted(url)
    known = known_schema()
    try:
        conn = psycopg.connect(url, connect_timeout=10, autocommit=True)
    except psycopg.Error as exc:
        raise OpsError(Exit.DATABASE_PATH,
                       f"The PostgreSQL database {shown} cannot be reached ({_first(exc)}): "
                       f"check CANDYBOT_DB, that the server runs, and the user's rights.") \
            from exc
    try:
        with conn:
            tables = {name for (name,) in conn.execute(
                "SELECT table_name FROM information_schema.tables "
                "WHERE table_schema = current_schema()")}
            schema = 0
            if "candybot_schema" in tables:
                row = conn.execute("SELECT MAX(version) FROM candybot_schema").fetchone()
                schema = int(row[0]) if row and row[0] is not None else 0
            if schema > known:
                raise OpsError(Exit.DATABASE_TOO_NEW,
                               f"The database {shown} was written by a newer candybot (schema "
                               f"{schema}; this one knows up to {known}): upgrade candybot.")
            if schema > 0 and not CANDYBOT_TABLES.issubset(tables):
                raise OpsError(Exit.NOT_CANDYBOT,
                               f"The database {shown} counts candybot migrations but lacks its "
                               f"tables: set CANDYBOT_DB to candybot's database.")
            counts: dict[str, int] = {}
            games: tuple[OpenGame, ...] = ()
            verdict = None
            if schema > 0:
                counts = {str(k): int(v) for k, v in conn.execute(
                    "SELECT status, COUNT(*) FROM games GROUP BY status")}
                games = tuple(OpenGame(*row) for row in conn.execute(
                    "SELECT id, guild_id, channel_id, game, status FROM games "
                    "WHERE status IN ('lobby', 'active') ORDER BY guild_id, channel_id, id"))
            if integrity:
                for table in sorted(tables & CANDYBOT_TABLES):
                    conn.execute(f"SELECT * FROM {table}").fetchall()
                verdict = "ok"
    except psycopg.Error as exc:
        raise OpsError(Exit.DATABASE_UNUSABLE,
                       f"The PostgreSQL database {shown} cannot be used ({_first(exc)}).") \
            from exc
    return DatabaseInfo(shown, exists=schema > 0, schema=schema, known_schema=known,
                        counts=counts, open_games=games, integrity=verdict)


def _first(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def inspect_target(target: str | Path, *, integrity: bool = False,
                   probe: bool = True) -> DatabaseInfo:
    """:func:`inspect_postgres` or :func:`inspect_database`, by what ``target`` names."""
    if isinstance(target, str) and is_postgres(target):
        return inspect_postgres(target, integrity=integrity)
    return inspect_database(target, integrity=integrity, probe=probe)


def preflight(settings: Settings) -> DatabaseInfo:
    """The check ``run`` and ``sync`` make before connecting to Discord."""
    return inspect_target(settings.database)
