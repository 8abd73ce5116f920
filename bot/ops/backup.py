"""``candybot backup``: a consistent copy of the live database, safe while the bot runs."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import time
from contextlib import closing
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from bot.config import Settings
from bot.games.words import plural
from bot.ops import Exit, OpsError
from bot.ops.database import (
    DatabaseInfo,
    connect,
    database_error,
    inspect_database,
    inspect_postgres,
)
from bot.ops.logs import fail, setup_logging
from bot.store.records import owner_only


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
        with owner_only(), closing(connect(source)) as live, \
                closing(sqlite3.connect(partial)) as copy:
            # One step: the whole copy is read in one transaction, so it is consistent;
            # in WAL mode the bot keeps writing meanwhile.
            live.backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise database_error(source, exc) from exc
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


#: How ``candybot backup`` on PostgreSQL says to do it when ``pg_dump`` is not installed.
PG_DUMP_HELP = ("PostgreSQL databases are backed up with PostgreSQL's own pg_dump, which is "
                "not installed here: install PostgreSQL's client tools (Debian: apt-get install "
                "postgresql-client) and run `candybot backup` again, or run `pg_dump "
                "--format=custom --file=candybot.dump \"$CANDYBOT_DB\"` where it is installed. "
                "Restore with `pg_restore --clean --if-exists --no-owner --dbname=\"$CANDYBOT_DB\" "
                "candybot.dump` while no bot runs.")


def dump_postgres(url: str, target: Path | str, *, force: bool = False) -> str:
    """Back the PostgreSQL database ``url`` up into ``target`` (a file, or a folder for a
    dated one) with ``pg_dump`` in its custom format, a consistent snapshot taken while
    the bots run; returns what was done, in one sentence."""
    started = time.monotonic()
    info = inspect_postgres(url)
    if not info.exists:
        raise OpsError(Exit.DATABASE_PATH,
                       f"There is no candybot database at {info.path} to back up: check "
                       f"CANDYBOT_DB.")
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise OpsError(Exit.CONFIG, PG_DUMP_HELP)
    target = Path(target)
    if target.is_dir():
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        target = target / f"candybot-{stamp}.dump"
    if target.exists() and not force:
        raise OpsError(Exit.CONFIG,
                       f"{target} already exists: choose another name or a folder (for a "
                       f"dated copy), or pass --force to replace it.")
    partial = target.with_name(f"{target.name}.partial")
    with owner_only():
        done = subprocess.run([pg_dump, "--format=custom", f"--file={partial}", "--no-owner",
                               f"--dbname={url}"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        said = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise OpsError(Exit.DATABASE_UNUSABLE, f"pg_dump could not back up {info.path}: {said}")
    os.replace(partial, target)
    total = sum(info.counts.values())
    return (f"Backed up {info.path} to {target} with pg_dump: "
            f"{target.stat().st_size / 1024:.0f} KiB, schema {info.schema}, "
            f"{plural(total, 'game')} ({info.describe_counts()}), "
            f"in {time.monotonic() - started:.1f} s.")


def backup(settings: Settings, target: Path, *, force: bool = False,
           debug: bool = False) -> int:
    """``candybot backup PATH``: copy the live database and say what the copy holds."""
    setup_logging(settings.log_level, debug=debug)
    debug = debug or settings.log_level == "debug"
    try:
        if settings.db_url is not None:
            print(dump_postgres(settings.db_url, target, force=force))
            return Exit.OK
        report = backup_database(settings.db_path, target, force=force)
    except Exception as exc:
        return fail(exc, debug=debug)
    print(report.describe())
    return Exit.OK
