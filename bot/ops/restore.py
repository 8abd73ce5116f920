"""``candybot restore BACKUP``: put a backup in place of the database, with the bot stopped.

The backup is checked first (a candybot database, not from a newer candybot, whole by
SQLite's integrity check). The database it replaces is not lost: it is backed up
beside itself first (``candybot-before-restore-<time>.db``), through SQLite, so that
moves still in its write-ahead log are kept. The copy is written beside the database
and renamed into place after the old log files are removed, so the bot never finds a
half-restored file or an old log to replay over the new one.
"""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime
from pathlib import Path

from bot.config import Settings
from bot.games.words import plural
from bot.health import STALE_SECONDS, UNREADABLE, process_ended, read_status, running
from bot.ops import Exit, OpsError
from bot.ops.backup import backup_database
from bot.ops.database import inspect_database
from bot.ops.logs import fail, setup_logging


def refuse_while_running(db_path: Path, now: float) -> None:
    """Raise unless the bot on ``db_path`` has stopped: it said so, its process has ended,
    or its status is too old for it to be running (or there is none)."""
    try:
        status = read_status(db_path)
    except UNREADABLE:
        return
    if not running(status, now, ended=process_ended(status)):
        return
    doing, then = ("stopping", "wait until it has stopped") if status.stopping else \
        ("running", "stop it first")
    raise OpsError(Exit.RUNNING,
                   f"The bot using {db_path} is {doing} (pid {status.pid}; its status is "
                   f"{now - status.written_at:.0f} s old): {then}, then restore. A bot killed "
                   f"before it could say it stopped counts as stopped once its status is "
                   f"{STALE_SECONDS:.0f} s old.")


def restore_database(backup: Path, db_path: Path, *, now: float | None = None) -> str:
    """Replace ``db_path`` by ``backup``; returns what was done, in one sentence."""
    now = time.time() if now is None else now
    refuse_while_running(db_path, now)
    if backup.absolute() == db_path.absolute():
        raise OpsError(Exit.CONFIG, f"{backup} is the database itself: name a backup.")
    copy = inspect_database(backup, integrity=True, probe=False)
    if not copy.exists or copy.schema == 0:
        raise OpsError(Exit.DATABASE_PATH, f"There is no candybot backup at {backup}.")
    if copy.integrity != "ok":
        raise OpsError(Exit.DATABASE_UNUSABLE,
                       f"The backup {backup} fails SQLite's integrity check "
                       f"({copy.integrity}): restore an older one.")
    kept = ""
    if db_path.exists():
        stamp = datetime.fromtimestamp(now, UTC).strftime("%Y%m%dT%H%M%SZ")
        keep = db_path.with_name(f"candybot-before-restore-{stamp}.db")
        try:
            backup_database(db_path, keep)
        except OpsError:
            # Damaged or not a database at all (often why one restores): kept as it is,
            # with its log.
            for suffix in ("", "-wal"):
                old = db_path.with_name(db_path.name + suffix)
                if old.exists():
                    os.replace(old, keep.with_name(keep.name + suffix))
        kept = f"; the database it replaced is kept as {keep}"
    # Staged beside the database through SQLite, then renamed into place once the old
    # log files are gone (SQLite would replay an old log over the restored file).
    staged = backup_database(backup, db_path.with_name(f"{db_path.name}.restoring"), force=True)
    for suffix in ("-wal", "-shm"):
        db_path.with_name(db_path.name + suffix).unlink(missing_ok=True)
    os.replace(staged.target, db_path)
    total = sum(copy.counts.values())
    return (f"Restored {backup} into {db_path}: schema {copy.schema}, {plural(total, 'game')} "
            f"({copy.describe_counts()}){kept}. Start the bot; it upgrades an older schema.")


def restore(settings: Settings, backup: Path, *, debug: bool = False) -> int:
    """``candybot restore BACKUP``."""
    setup_logging(settings.log_level, debug=debug)
    debug = debug or settings.log_level == "debug"
    try:
        if settings.db_url is not None:
            raise OpsError(Exit.CONFIG,
                           "candybot restore puts back SQLite files; a PostgreSQL database is "
                           "restored with PostgreSQL's pg_restore, while no bot runs: "
                           "`pg_restore --clean --if-exists --no-owner "
                           "--dbname=\"$CANDYBOT_DB\" BACKUP.dump`.")
        print(restore_database(backup, settings.db_path))
    except Exception as exc:
        return fail(exc, debug=debug)
    return Exit.OK
