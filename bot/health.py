"""Is the running bot healthy? The bot writes a small status file; ``candybot health`` judges it.

The running bot rewrites the file every :data:`BEAT_SECONDS` (see
``CandyBot._heartbeat``): whether the gateway is connected, whether the
database took a write lock, and how many announcements wait. ``candybot health``
reads only that file (no Discord, no database), so a container's HEALTHCHECK
costs a few milliseconds, and prints one line. It exits 0 when the status is
fresh, the gateway was connected recently, the database is writable and no
announcement has waited too long; otherwise 1.

This module imports nothing of discord.py, so ``candybot health`` starts fast.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

#: How often the running bot rewrites its status.
BEAT_SECONDS = 15.0
#: A status older than this means the bot (or its event loop) is stuck or gone.
STALE_SECONDS = 90.0
#: Disconnected from the gateway for longer than this is unhealthy (discord.py
#: reconnects by itself; a short gap is normal).
GATEWAY_GRACE_SECONDS = 120.0
#: An announcement that could have been sent this long ago and still waits means the
#: outbox's sender is stuck (its back-off between tries is at most 10 minutes).
ANNOUNCEMENT_GRACE_SECONDS = 900.0


def status_path(db_path: Path) -> Path:
    """Where the bot using ``db_path`` writes its status: beside the database."""
    return db_path.with_name(db_path.name + "-health.json")


@dataclass(frozen=True)
class Status:
    """What the bot says about itself; times are Unix seconds."""

    written_at: float
    pid: int
    #: Whether the gateway is connected now, and when it last was.
    connected: bool
    connected_at: float | None
    latency_ms: float | None
    #: Whether the last write check of the database succeeded, and why not.
    database_ok: bool
    database_problem: str | None
    stopping: bool = False
    #: Announcements waiting in the outbox, and since when the first of them could have
    #: been sent (its back-off or lease over); ``None`` when unknown.
    announcements_waiting: int | None = None
    announcement_due_at: float | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Status:
        raw = json.loads(text)
        return cls(**{name: raw[name] for name in cls.__dataclass_fields__ if name in raw})


def write_status(path: Path, status: Status) -> None:
    """Replace the status file at once, so a reader never sees half of it."""
    partial = path.with_name(path.name + ".tmp")
    partial.write_text(status.to_json(), encoding="utf-8")
    os.replace(partial, path)


def judge(status: Status, now: float) -> tuple[bool, str]:
    """Healthy or not, and the one line that says why."""
    age = now - status.written_at
    if age > STALE_SECONDS:
        return False, (f"unhealthy: the bot's status is {age:.0f} s old "
                       f"(pid {status.pid} is stuck or has stopped)")
    if status.stopping:
        return False, "unhealthy: the bot is stopping"
    problems = []
    if status.connected_at is None:
        problems.append("never connected to Discord")
    elif not status.connected and now - status.connected_at > GATEWAY_GRACE_SECONDS:
        problems.append(f"disconnected from Discord for {now - status.connected_at:.0f} s")
    if not status.database_ok:
        problems.append(f"database not writable ({status.database_problem})")
    if (status.announcement_due_at is not None
            and now - status.announcement_due_at > ANNOUNCEMENT_GRACE_SECONDS):
        problems.append(f"{status.announcements_waiting} announcements waiting, one of them "
                        f"overdue for {now - status.announcement_due_at:.0f} s")
    if problems:
        return False, "unhealthy: " + "; ".join(problems)
    gateway = ("connected" if status.connected else "reconnecting") + (
        f", latency {status.latency_ms:.0f} ms" if status.latency_ms is not None else "")
    queue = "" if status.announcements_waiting is None else \
        f"; {status.announcements_waiting} announcements waiting"
    return True, f"healthy: gateway {gateway}; database writable{queue}"


def check_health(db_path: Path, now: float | None = None) -> tuple[bool, str]:
    """Judge the status file of the bot using ``db_path``."""
    path = status_path(db_path)
    try:
        status = Status.from_json(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False, f"unhealthy: no status at {path} (is `candybot run` running?)"
    except (OSError, ValueError, TypeError, KeyError) as exc:
        return False, f"unhealthy: the status at {path} cannot be read ({exc})"
    return judge(status, time.time() if now is None else now)
