"""Away time: quiet hours (a daily span in a player's own time zone) and vacations.

Pure and clock-free: the caller passes UNIX seconds. Hours are whole local hours
(0-23); a span may cross midnight (22 to 8). The time zone is an IANA name read
by the standard library's zoneinfo, so summer time is followed. While a player is
away nobody pings or reminds them and no AI takes their turn (see docs/discord.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.refusals import Away

#: Quiet hours or a vacation that cannot be kept: a refusal (:class:`bot.refusals.Away`).
AwayError = Away


@dataclass(frozen=True)
class QuietHours:
    """From ``start`` to ``end`` o'clock every day in ``timezone``."""

    timezone: str
    start: int
    end: int

    def __post_init__(self) -> None:
        if not (0 <= self.start <= 23 and 0 <= self.end <= 23):
            raise Away(problem="hours")
        if self.start == self.end:
            raise Away(problem="same_hours")
        try:
            ZoneInfo(self.timezone)
        except (ZoneInfoNotFoundError, ValueError):
            raise Away(problem="zone", detail={"zone": self.timezone}) from None

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


#: Vacation days a player may take in one calendar year (UTC), as ranges.
VACATION_DAYS = 21
DAY = 24 * 3600.0


@dataclass(frozen=True)
class Vacation:
    """A span (UNIX seconds) when a player is away: no ping, no reminder, no AI take-over."""

    starts: float
    ends: float

    def covers(self, moment: float) -> bool:
        return self.starts <= moment < self.ends


def _year_bounds(year: int) -> tuple[float, float]:
    start = datetime(year, 1, 1, tzinfo=ZoneInfo("UTC")).timestamp()
    return start, datetime(year + 1, 1, 1, tzinfo=ZoneInfo("UTC")).timestamp()


def days_taken(vacations: list[Vacation], year: int) -> float:
    """How many days of ``year`` (UTC) the vacations cover."""
    start, end = _year_bounds(year)
    return sum(max(0.0, min(v.ends, end) - max(v.starts, start)) for v in vacations) / DAY


def plan_vacation(taken: list[Vacation], starts: float, days: int,
                  allowance: int = VACATION_DAYS) -> Vacation:
    """A new vacation of ``days`` from ``starts``, if the yearly allowance lets it be taken
    beside ``taken``; an :class:`~bot.refusals.Away` refusal if not."""
    if days < 1:
        raise Away(problem="short")
    wanted = Vacation(starts, starts + days * DAY)
    if any(v.starts < wanted.ends and wanted.starts < v.ends for v in taken):
        raise Away(problem="overlap")
    first = datetime.fromtimestamp(wanted.starts, ZoneInfo("UTC")).year
    last = datetime.fromtimestamp(wanted.ends - 1, ZoneInfo("UTC")).year
    for year in range(first, last + 1):
        total = days_taken([*taken, wanted], year)
        if total > allowance + 1e-6:
            left = max(0.0, allowance - days_taken(taken, year))
            raise Away(problem="allowance", detail={"total": total, "year": year,
                                                    "left": left, "allowance": allowance})
    return wanted


def away_until(now: float, hours: QuietHours | None, vacations: list[Vacation]) -> float | None:
    """When a player away at ``now`` (quiet hours or vacation) can be reached again, or
    ``None`` if they can be now. A vacation that ends in quiet hours lasts until they end."""
    moment = now
    for _ in range(2 + len(vacations)):
        before = moment
        for vacation in vacations:
            if vacation.covers(moment):
                moment = vacation.ends
        if hours is not None:
            moment = hours.until(moment) or moment
        if moment == before:
            break
    return moment if moment > now else None
