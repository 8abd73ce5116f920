"""Seasons: a server's named stretches of time, and which one a game belongs to.

Pure, typed, no I/O. A season runs from the start of its first day to the end of its
last day, in UTC (its end date is played in full), as the half-open span
``[starts_at, ends_at)`` in UNIX seconds. A game belongs to the season its end falls in
(``finished_at``): a game begun before a season and finished in it counts in it, and
one finished after the season's end counts in the next, or in none. A server's seasons
never overlap, so a moment is in one season at most: the **current** season is the one
``now`` falls in, and between seasons there is none (``/stats`` then shows all time).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

DAY = 86_400.0
#: The longest season (a year and a day, for a leap year), and the furthest ahead one
#: may start, in days.
MAX_DAYS = 366
MAX_AHEAD_DAYS = 366
#: The longest season name, and what a name may hold (letters, digits, spaces and a
#: few marks: it is shown in pictures and in autocomplete).
MAX_NAME = 40
_NAME = re.compile(r"^[\w .,'&!#()+-]+$")
_DAY = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")


class SeasonError(ValueError):
    """What is wrong with a season asked for: ``reason`` names it (``name``, ``date``,
    ``order``, ``past``, ``too_long``, ``too_far``), ``text`` the value at fault."""

    def __init__(self, reason: str, text: str = "") -> None:
        super().__init__(f"{reason}: {text}")
        self.reason = reason
        self.text = text


@dataclass(frozen=True)
class Season:
    """One season of a server: ``[starts_at, ends_at)``; ``closed`` once its final
    standings are kept."""

    id: int
    name: str
    starts_at: float
    ends_at: float
    fresh: bool = False
    closed: bool = False
    #: Where its final standings are posted, and whose season it is.
    channel_id: int | None = None
    guild_id: int = 0

    def holds(self, at: float) -> bool:
        """Whether the moment ``at`` falls in this season.

        >>> s = Season(1, "Spring", 100.0, 200.0)
        >>> s.holds(100.0), s.holds(199.9), s.holds(200.0)
        (True, True, False)
        """
        return self.starts_at <= at < self.ends_at

    def overlaps(self, starts_at: float, ends_at: float) -> bool:
        """Whether ``[starts_at, ends_at)`` shares a moment with this season.

        >>> s = Season(1, "Spring", 100.0, 200.0)
        >>> s.overlaps(200.0, 300.0), s.overlaps(199.0, 300.0), s.overlaps(0.0, 100.0)
        (False, True, False)
        """
        return starts_at < self.ends_at and self.starts_at < ends_at


def clean_name(text: str) -> str:
    """A season's name as kept: spaces collapsed, at most :data:`MAX_NAME` characters of
    letters, digits, spaces and a few marks.

    >>> clean_name("  Spring   2027 ")
    'Spring 2027'
    >>> clean_name("<@everyone>")
    Traceback (most recent call last):
    ...
    bot.organized.seasons.SeasonError: name: <@everyone>
    """
    name = " ".join(text.split())
    if not name or len(name) > MAX_NAME or not _NAME.match(name):
        raise SeasonError("name", text)
    return name


def same_name(a: str, b: str) -> bool:
    """Whether two season names are one (case and spacing aside).

    >>> same_name("spring  2027", "Spring 2027")
    True
    """
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def parse_day(text: str) -> date:
    """A day typed as ``YYYY-MM-DD``.

    >>> parse_day(" 2027-03-01 ")
    datetime.date(2027, 3, 1)
    >>> parse_day("2027-02-30")
    Traceback (most recent call last):
    ...
    bot.organized.seasons.SeasonError: date: 2027-02-30
    >>> parse_day("1/3/2027")
    Traceback (most recent call last):
    ...
    bot.organized.seasons.SeasonError: date: 1/3/2027
    """
    match = _DAY.match(text.strip())
    if match is None:
        raise SeasonError("date", text)
    try:
        return date(*(int(part) for part in match.groups()))
    except ValueError:
        raise SeasonError("date", text) from None


def day_start(day: date) -> float:
    """The UNIX time ``day`` begins at, in UTC.

    >>> day_start(date(1970, 1, 2))
    86400.0
    """
    return datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()


def day_of(at: float) -> date:
    """The UTC day the moment ``at`` falls on.

    >>> day_of(86_399.0), day_of(86_400.0)
    (datetime.date(1970, 1, 1), datetime.date(1970, 1, 2))
    """
    return datetime.fromtimestamp(at, UTC).date()


def span(start: str, end: str, now: float) -> tuple[float, float]:
    """The span ``[starts_at, ends_at)`` of a season typed as its first and last days
    (both played in full, UTC), asked for at ``now``. A season starting today starts
    now: games that ended earlier today were rated before it existed. It may not start
    in the past, end before it starts, last more than :data:`MAX_DAYS` or start more
    than :data:`MAX_AHEAD_DAYS` ahead.

    >>> now = day_start(date(2027, 3, 1)) + 3600
    >>> a, b = span("2027-03-01", "2027-03-31", now)
    >>> a == now, day_of(b), b == day_start(date(2027, 4, 1))
    (True, datetime.date(2027, 4, 1), True)
    >>> span("2027-02-28", "2027-03-31", now)
    Traceback (most recent call last):
    ...
    bot.organized.seasons.SeasonError: past: 2027-02-28
    >>> span("2027-04-01", "2027-03-31", now)
    Traceback (most recent call last):
    ...
    bot.organized.seasons.SeasonError: order: 2027-03-31
    """
    first, last = parse_day(start), parse_day(end)
    today = day_of(now)
    if first < today:
        raise SeasonError("past", start)
    if last < first:
        raise SeasonError("order", end)
    if (last - first).days + 1 > MAX_DAYS:
        raise SeasonError("too_long", end)
    if (first - today).days > MAX_AHEAD_DAYS:
        raise SeasonError("too_far", start)
    starts_at = now if first == today else day_start(first)
    return starts_at, day_start(last + timedelta(days=1))


def season_at(seasons: Iterable[Season], at: float) -> Season | None:
    """The season the moment ``at`` falls in (a game's ``finished_at``: the season it
    counts in), or ``None`` between seasons.

    >>> spring = Season(1, "Spring", 100.0, 200.0)
    >>> summer = Season(2, "Summer", 200.0, 300.0)
    >>> season_at([spring, summer], 200.0).name
    'Summer'
    >>> season_at([spring, summer], 300.0) is None
    True
    """
    return next((s for s in seasons if s.holds(at)), None)


def clashing(seasons: Iterable[Season], starts_at: float, ends_at: float) -> Season | None:
    """The first of ``seasons`` (in start order) that a new season ``[starts_at,
    ends_at)`` would overlap, or ``None`` when it fits between them.

    >>> spring = Season(1, "Spring", 100.0, 200.0)
    >>> clashing([spring], 150.0, 250.0).name
    'Spring'
    >>> clashing([spring], 200.0, 250.0) is None
    True
    """
    return next((s for s in sorted(seasons, key=lambda s: s.starts_at)
                 if s.overlaps(starts_at, ends_at)), None)


def named(seasons: Iterable[Season], name: str) -> Season | None:
    """The season called ``name`` (case and spacing aside), or ``None``.

    >>> named([Season(1, "Spring 2027", 0.0, 1.0)], "spring 2027").id
    1
    """
    return next((s for s in seasons if same_name(s.name, name)), None)
