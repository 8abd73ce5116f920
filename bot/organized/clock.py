"""Clocks in days: how much time each seat has left to act, as pure arithmetic.

A table's clock is a :class:`ClockRule`: days per move (the seat gets the same time at
each turn), or a time bank with an increment (the time left carries from turn to turn,
and each move made in time adds the increment, never past the bank). A seat's clock
(:class:`SeatClock`) runs only while the seat is to act; time in ``pauses`` (the
player's vacations, stretches the bot was down) is never charged. Everything is in UNIX
seconds, passed in by the caller: nothing here reads a clock.

>>> rule = ClockRule.parse("7d+1d")
>>> clocks = start(rule, {0: fresh(rule)}, {0}, now=0.0)
>>> clocks = settle(rule, clocks, set(), now=2 * DAY)   # moved after two days
>>> clocks[0].left / DAY                                 # 7 - 2 + 1
6.0
>>> ClockRule.parse("3d").said
'3 days a move'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

DAY = 24 * 3600.0
HOUR = 3600.0
#: The days-per-move clocks a lobby may choose.
PER_MOVE_DAYS = (1, 2, 3, 5, 7, 14)
#: The time banks a lobby may choose: (days in the bank, days added per move).
BANKS = ((3, 1), (7, 1), (14, 2))
#: How long before a seat's time runs out it is reminded: a day, then two hours.
WARNINGS = (DAY, 2 * HOUR)
#: What happens to a seat whose time ran out: an AI stands in (the player may take the
#: seat back), the seat is skipped (a pass where the rules allow one), or it forfeits.
TIMEOUTS = ("stand_in", "skip", "forfeit")
#: The longest a running clock goes without being charged (so that what the table shows
#: is at most this old, and a vacation or an outage is taken off as it happens).
CHECKPOINT = HOUR

Span = tuple[float, float]


class ClockError(ValueError):
    """A clock or timeout rule that is not one a table may choose."""


@dataclass(frozen=True)
class ClockRule:
    """Days per move (``per_move``), or a bank of ``bank`` days with ``increment`` days
    added per move; all zero: no clock."""

    per_move: int = 0
    bank: int = 0
    increment: int = 0

    @classmethod
    def parse(cls, code: str | None) -> ClockRule:
        """The rule a lobby's choice names: ``none``, ``3d`` or ``7d+1d``.

        >>> ClockRule.parse("14d")
        ClockRule(per_move=14, bank=0, increment=0)
        >>> ClockRule.parse("4d")
        Traceback (most recent call last):
        ...
        bot.organized.clock.ClockError: 4d
        """
        text = (code or "none").strip().lower().replace(" ", "")
        for rule in CHOICES:
            if rule.code == text:
                return rule
        raise ClockError(code)

    @property
    def code(self) -> str:
        if self.per_move:
            return f"{self.per_move}d"
        if self.bank:
            return f"{self.bank}d+{self.increment}d"
        return "none"

    @property
    def timed(self) -> bool:
        return bool(self.per_move or self.bank)

    @property
    def said(self) -> str:
        """The rule in a few words (a label: at most 80 characters)."""
        if self.per_move:
            return f"{self.per_move} day{'s' if self.per_move != 1 else ''} a move"
        if self.bank:
            return (f"{self.bank} days + {self.increment} day{'s' if self.increment != 1 else ''}"
                    " a move")
        return "no clock"

    @property
    def turn(self) -> float:
        """Seconds a seat has when its clock is new (per move: at every turn)."""
        return (self.per_move or self.bank) * DAY


#: The clock of a table without one.
NO_CLOCK = ClockRule()
#: Every clock a lobby may choose, "none" first.
CHOICES = (NO_CLOCK, *(ClockRule(per_move=d) for d in PER_MOVE_DAYS),
           *(ClockRule(bank=b, increment=i) for b, i in BANKS))


def timeout_rule(code: str | None) -> str:
    """The timeout rule a lobby's choice names (the AI stand-in when none is given).

    >>> timeout_rule(None), timeout_rule("forfeit")
    ('stand_in', 'forfeit')
    """
    text = (code or "stand_in").strip().lower().replace(" ", "_").replace("-", "_")
    if text not in TIMEOUTS:
        raise ClockError(code)
    return text


@dataclass(frozen=True)
class SeatClock:
    """One seat's clock: ``left`` seconds as of ``at``, running since ``at`` (``None``:
    stopped, the seat is not to act); ``warned`` low-time reminders sent this turn;
    ``held``: the end of a pause (a vacation) under way at ``at``, which what the clock
    shows does not count."""

    left: float
    at: float | None = None
    warned: int = 0
    held: float | None = None

    @property
    def running(self) -> bool:
        return self.at is not None

    @property
    def out(self) -> bool:
        """Its time has run out (as of its last charge)."""
        return self.running and self.left <= 0

    def to_json(self) -> dict[str, Any]:
        held = {"held": self.held} if self.held is not None else {}
        return {"left": self.left, "at": self.at, "warned": self.warned, **held}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> SeatClock:
        at, held = raw.get("at"), raw.get("held")
        return cls(float(raw["left"]), None if at is None else float(at),
                   int(raw.get("warned", 0)), None if held is None else float(held))


def fresh(rule: ClockRule) -> SeatClock:
    """A seat's clock before its first turn."""
    return SeatClock(rule.turn)


def paused(start: float, end: float, pauses: Iterable[Span]) -> float:
    """How much of ``start``..``end`` the ``pauses`` cover (overlapping pauses once).

    >>> paused(0, 10, [(2, 4), (3, 6), (9, 20)])
    5.0
    """
    total, reach = 0.0, start
    for a, b in sorted((max(a, start), min(b, end)) for a, b in pauses):
        if b <= a:
            continue
        a = max(a, reach)
        if b > a:
            total += b - a
            reach = b
    return total


def charged(start: float, end: float, pauses: Iterable[Span]) -> float:
    """The time from ``start`` to ``end`` a clock is charged: all of it but the pauses.

    >>> charged(0, 10, [(2, 4)])
    8.0
    """
    if end <= start:
        return 0.0
    # Never below nothing, whatever the rounding of the sums.
    return max(0.0, (end - start) - paused(start, end, pauses))


def _warned(rule: ClockRule, left: float) -> int:
    """How many of :data:`WARNINGS` a clock with ``left`` seconds is already past: a
    turn that starts with a day or less is not told it has a day left."""
    return sum(1 for mark in WARNINGS if left <= mark)


def _charge(rule: ClockRule, clock: SeatClock, now: float, pauses: Sequence[Span]) -> SeatClock:
    assert clock.at is not None
    left = clock.left - charged(clock.at, now, pauses)
    held = max((b for a, b in pauses if a <= now < b), default=None)
    return replace(clock, left=left, at=max(now, clock.at), held=held)


def settle(rule: ClockRule, clocks: Mapping[int, SeatClock], acting: Iterable[int], now: float,
           pauses: Mapping[int, Sequence[Span]] | None = None) -> dict[int, SeatClock]:
    """The clocks once ``acting`` are the seats to act at ``now``: a running clock is
    charged up to ``now`` (less its seat's ``pauses``); one whose seat is no longer to act
    stops (a bank gains its increment, up to the bank; a bank run out has the increment
    alone); one
    whose seat is newly to act starts (per move: with a full turn's time).

    >>> rule = ClockRule.parse("2d")
    >>> c = settle(rule, {0: fresh(rule), 1: fresh(rule)}, {0}, now=0.0)
    >>> c = settle(rule, c, {0}, now=DAY, pauses={0: [(0.0, HOUR)]})
    >>> c[0].left / HOUR, c[1].running
    (25.0, False)
    """
    wanted = set(acting)
    pauses = pauses or {}
    out: dict[int, SeatClock] = {}
    for seat, clock in clocks.items():
        if clock.running:
            clock = _charge(rule, clock, now, pauses.get(seat, ()))
            if seat not in wanted:
                left = clock.left
                if rule.bank:
                    # A move out of time (an AI or a pass made it) leaves the seat only
                    # the increment for its next move.
                    left = min(rule.bank * DAY, max(left, 0.0) + rule.increment * DAY)
                clock = SeatClock(left)
        elif seat in wanted:
            left = rule.turn if rule.per_move else clock.left
            held = max((b for a, b in pauses.get(seat, ()) if a <= now < b), default=None)
            clock = SeatClock(left, now, _warned(rule, left), held)
        out[seat] = clock
    return out


start = settle


def warnings_due(clock: SeatClock) -> int:
    """The low-time reminder a charged running clock is due now (1: a day left, 2: two
    hours left), or 0 when none is due that was not sent already.

    >>> warnings_due(SeatClock(20 * HOUR, 0.0, 0)), warnings_due(SeatClock(HOUR, 0.0, 1))
    (1, 2)
    >>> warnings_due(SeatClock(HOUR, 0.0, 2))
    0
    """
    if not clock.running or clock.left <= 0:
        return 0
    reached = sum(1 for mark in WARNINGS if clock.left <= mark)
    return reached if reached > clock.warned else 0


def next_look(clocks: Mapping[int, SeatClock], now: float) -> float | None:
    """When the clocks must next be looked at: the earliest moment a running one may be
    due a reminder or run out (pauses only make that later), and at most
    :data:`CHECKPOINT` after ``now``; ``None`` when none runs.

    >>> next_look({0: SeatClock(3 * DAY, 0.0, 0)}, now=0.0)
    3600.0
    >>> next_look({0: SeatClock(HOUR / 2, 0.0, 2)}, now=0.0)
    1800.0
    """
    moments = []
    for clock in clocks.values():
        if clock.at is None:
            continue
        marks = [mark for i, mark in enumerate(WARNINGS) if i >= clock.warned]
        for mark in (*marks, 0.0):
            if clock.left > mark:
                moments.append(clock.at + clock.left - mark)
                break
        else:
            moments.append(clock.at)
    if not moments:
        return None
    return min(max(min(moments), now), now + CHECKPOINT)


def left_at(clock: SeatClock, now: float) -> float | None:
    """What a running clock shows at ``now``: its last charge less the time since (not
    the pause that was under way then); ``None`` for a stopped clock.

    >>> left_at(SeatClock(DAY, 0.0, held=2 * HOUR), now=3 * HOUR) / HOUR
    23.0
    """
    if clock.at is None:
        return None
    pause = [(clock.at, clock.held)] if clock.held is not None else []
    return max(0.0, clock.left - charged(clock.at, now, pause))


def dump(clocks: Mapping[int, SeatClock]) -> dict[str, Any]:
    """The stored form of a table's clocks."""
    return {str(seat): clock.to_json() for seat, clock in sorted(clocks.items())}


def load(raw: Mapping[str, Any] | None) -> dict[int, SeatClock]:
    """The clocks :func:`dump` stored (none for nothing stored)."""
    return {int(seat): SeatClock.from_json(value) for seat, value in (raw or {}).items()}


def short(seconds: float) -> str:
    """Time left as a clock shows it: days and hours, hours and minutes under a day,
    minutes under an hour (rounded down: a clock never shows more than it has).

    >>> short(2 * DAY + 4 * HOUR + 59), short(5 * HOUR + 20 * 60), short(59)
    ('2 d 4 h', '5 h 20 min', '0 min')
    """
    days, hours, minutes = days_hours(seconds)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min"


def days_hours(seconds: float) -> tuple[int, int, int]:
    """``seconds`` as whole days, hours and minutes (rounded down: a clock never shows
    more than it has).

    >>> days_hours(2 * DAY + 4 * HOUR + 59)
    (2, 4, 0)
    """
    whole = max(0, int(seconds))
    return whole // 86400, whole % 86400 // 3600, whole % 3600 // 60
