"""Is the running bot healthy? The bot writes a small status file; ``candybot health`` judges it.

The running bot rewrites the file every :data:`BEAT_SECONDS` (see
``CandyBot._heartbeat``): whether the gateway is connected, whether the
database took a write lock, and how many announcements wait. It writes it once
more when it begins to stop, and a last time once it has stopped (its database
closed). ``candybot health`` reads only that file (no Discord, no database), so a
container's HEALTHCHECK costs a few milliseconds, and prints one line. It exits 0
when the status is fresh, the gateway was connected recently, the database is
writable and no announcement has waited too long; otherwise 1.

A bot killed before it could say it stopped (SIGKILL, a crash, the machine's power)
is found out by its process: the status names it by what tells it from every other
process on the machine (:func:`process_mark`), so a reader in the same container or
on the same host sees at once that it has ended. A reader elsewhere (another
container on the same volume) cannot see that process, and relies on the status's
age instead.

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
    #: Written last, by a bot that has stopped: its database is closed.
    stopped: bool = False
    #: Which process wrote the status (:func:`process_mark`); ``None`` where unknown.
    process: str | None = None
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


def read_status(db_path: Path) -> Status:
    """The status of the bot using ``db_path``; raises ``FileNotFoundError`` when there is
    none, and :data:`UNREADABLE` when it cannot be read."""
    return Status.from_json(status_path(db_path).read_text(encoding="utf-8"))


#: What :func:`read_status` raises for a status that cannot be read.
UNREADABLE = (OSError, ValueError, TypeError, KeyError)


def write_status(path: Path, status: Status) -> None:
    """Replace the status file at once, so a reader never sees half of it."""
    partial = path.with_name(path.name + ".tmp")
    partial.write_text(status.to_json(), encoding="utf-8")
    os.replace(partial, path)


def process_mark(pid: int | str = "self") -> str | None:
    """What tells the process ``pid`` from every other, ever, on this machine: the boot, the
    process namespace it lives in (a container's own) and its start time, from Linux's
    ``/proc``; ``None`` where these cannot be read (another system, another user's process)."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text(encoding="ascii").strip()
        space = os.readlink(f"/proc/{pid}/ns/pid")
        started = _stat(pid)[19]
    except (OSError, IndexError):
        return None
    return f"{boot} {space} {started}"


def _stat(pid: int | str) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command's name (the state first)."""
    text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
    return text.rpartition(")")[2].split()


def process_ended(status: Status) -> bool:
    """Whether the process that wrote ``status`` has surely ended (see :func:`ended`)."""
    return ended(status.pid, status.process)


def ended(pid: int, mark: str | None) -> bool:
    """Whether process ``pid``, marked ``mark`` (:func:`process_mark`), has surely ended:
    it was one of this machine's since its last boot and of this process namespace, and
    no such process lives (a zombie is ended). ``False`` when this cannot be told (a
    process of another container, of another machine, or from before a reboot: how long
    it has been silent tells instead)."""
    here = process_mark()
    if mark is None or here is None:
        return False
    written = str(mark).split(" ")
    if len(written) != 3 or here.split(" ")[:2] != written[:2]:
        return False
    started = written[2]
    try:
        fields = _stat(pid)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return fields[19:20] != [started] or fields[0] in ("Z", "X")


def running(status: Status, now: float, *, ended: bool = False) -> bool:
    """Whether the bot that wrote ``status`` may still be running, and using its database:
    it has not said it stopped, its process is not known to have ended (``ended``, from
    :func:`process_ended`), and it wrote the status recently."""
    return not status.stopped and not ended and now - status.written_at <= STALE_SECONDS


def judge(status: Status, now: float, *, ended: bool = False) -> tuple[bool, str]:
    """Healthy or not, and the one line that says why; ``ended``: the status's process is
    known to have ended (:func:`process_ended`)."""
    age = now - status.written_at
    if status.stopped:
        return False, (f"unhealthy: the bot is stopped (pid {status.pid} stopped cleanly "
                       f"{age:.0f} s ago)")
    if ended:
        return False, (f"unhealthy: the bot is stopped (pid {status.pid} has ended without "
                       f"stopping cleanly; its last status is {age:.0f} s old)")
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
        status = read_status(db_path)
    except FileNotFoundError:
        return False, f"unhealthy: no status at {path} (is `candybot run` running?)"
    except UNREADABLE as exc:
        return False, f"unhealthy: the status at {path} cannot be read ({exc})"
    return judge(status, time.time() if now is None else now, ended=process_ended(status))
