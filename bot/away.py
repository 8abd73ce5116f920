"""Quiet hours: a daily span in a player's own time zone when no reminder reaches them.

Pure and clock-free: the caller passes UNIX seconds. Hours are whole local hours
(0-23); a span may cross midnight (22 to 8). The time zone is an IANA name read
by the standard library's zoneinfo, so summer time is followed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


class AwayError(ValueError):
    """Quiet hours that cannot be kept; ``str()`` is safe to show to players."""


@dataclass(frozen=True)
class QuietHours:
    """From ``start`` to ``end`` o'clock every day in ``timezone``."""

    timezone: str
    start: int
    end: int

    def __post_init__(self) -> None:
        if not (0 <= self.start <= 23 and 0 <= self.end <= 23):
            raise AwayError("Quiet hours are whole hours from 0 to 23.")
        if self.start == self.end:
            raise AwayError("Quiet hours must start and end at different hours.")
        try:
            ZoneInfo(self.timezone)
        except (ZoneInfoNotFoundError, ValueError):
            raise AwayError(f"`{self.timezone}` is not a time zone I know: use a name such "
                            f"as Europe/Berlin or America/New_York.") from None

    def until(self, now: float) -> float | None:
        """When the quiet span around ``now`` ends (UNIX seconds), or None if ``now``
        is not in quiet hours."""
        local = datetime.fromtimestamp(now, ZoneInfo(self.timezone))
        hour = local.hour
        inside = (self.start <= hour < self.end if self.start < self.end
                  else hour >= self.start or hour < self.end)
        if not inside:
            return None
        end = local.replace(hour=self.end, minute=0, second=0, microsecond=0)
        if end <= local:
            # Wall-clock arithmetic: the zone's offset on the day the span ends applies.
            end += timedelta(days=1)
        return end.timestamp()
