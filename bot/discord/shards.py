"""Gateway logins spaced across every process that shares one database.

Discord lets a bot IDENTIFY ``max_concurrency`` sessions per 5 seconds (1 for bots under
150,000 servers) and resets the token when a bot identifies too often. discord.py spaces
the shards of one process; processes started together by a supervisor would not be. Each
process takes an exclusive file lock beside the database, waits until the window since the
last login recorded in that file has passed, records its own and lets go, so logins of all
processes on one machine go out one per window (docs/scale.md).
"""

from __future__ import annotations

import asyncio
import fcntl
import time
from collections.abc import Callable
from pathlib import Path

#: Seconds between two logins: Discord's identify window at ``max_concurrency`` 1.
IDENTIFY_WINDOW = 5.0


def identify_lock_path(db_path: Path) -> Path:
    """The file the processes using ``db_path`` share to space their logins."""
    return db_path.with_name(db_path.name + "-identify.lock")


class IdentifyPacer:
    """At most one login per ``window`` seconds among every process using ``path``."""

    def __init__(self, path: Path, window: float = IDENTIFY_WINDOW, *,
                 clock: Callable[[], float] = time.time,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.path = path
        self.window = window
        self._clock = clock
        self._sleep = sleep

    async def wait(self) -> float:
        """Return once this process may log in; the seconds it waited."""
        return await asyncio.to_thread(self._take)

    def _take(self) -> float:
        with open(self.path, "a+", encoding="ascii") as file:
            fcntl.flock(file, fcntl.LOCK_EX)
            try:
                file.seek(0)
                text = file.read().strip()
                try:
                    last = float(text)
                except ValueError:
                    last = 0.0
                # A stamp in the future (a clock set back) costs one window at most.
                waited = min(self.window, max(0.0, last + self.window - self._clock()))
                if waited:
                    self._sleep(waited)
                file.seek(0)
                file.truncate()
                file.write(repr(self._clock()))
                file.flush()
            finally:
                fcntl.flock(file, fcntl.LOCK_UN)
        return waited
