"""What a table's clock is, and how a change leaves it: the table's choice
(:class:`TableClock`), the clocks a change stores (:func:`settled`) and what they show
(:func:`shown`). Pure over a game's record: the move pipeline works them out wherever it
works a move out (a worker process included); the clock service
(:mod:`bot.tables.clocks`) reads what they need from the store.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.engine import Engine, State
from bot.organized.clock import (
    CHOICES,
    NO_CLOCK,
    TIMEOUTS,
    ClockError,
    ClockRule,
    Span,
    dump,
    fresh,
    left_at,
    load,
    next_look,
    settle,
    timeout_rule,
)
from bot.refusals import BadChoice
from bot.store import ClockWrite, GameRecord


@dataclass(frozen=True)
class TableClock:
    """How a table is timed: its clock and what happens when a seat's time runs out
    (``stand_in``, ``skip`` or ``forfeit``). The typed way to open a table with a clock
    (``Tables.open_lobby(clock=...)``)."""

    rule: ClockRule = NO_CLOCK
    timeout: str = "stand_in"

    @classmethod
    def chosen(cls, clock: str | None, timeout: str | None) -> TableClock:
        """The clock a lobby asked for by name; refuses a name that is not offered."""
        try:
            rule = ClockRule.parse(clock)
        except ClockError:
            raise BadChoice(option="clock", choices=tuple(r.code for r in CHOICES)) from None
        try:
            return cls(rule, timeout_rule(timeout))
        except ClockError:
            raise BadChoice(option="on_timeout", choices=TIMEOUTS) from None

    @classmethod
    def of(cls, settings: Mapping[str, Any]) -> TableClock:
        """The clock a table's settings keep (none for a table without, or one damaged)."""
        try:
            return cls(ClockRule.parse(settings.get("clock")),
                       timeout_rule(settings.get("on_timeout")))
        except (ClockError, AttributeError):
            return cls(NO_CLOCK)

    def settings(self) -> dict[str, Any]:
        """What the table's settings keep of it."""
        return {"clock": self.rule.code, "on_timeout": self.timeout}

    def applied(self, game: Engine) -> str:
        """The timeout rule as it applies to ``game``: a game whose rules have no pass
        skips nobody, and an AI stands in instead."""
        return "stand_in" if self.timeout == "skip" and not game.skips else self.timeout



def settled(record: GameRecord, game: Engine, state: State, now: float,
                    pauses: Mapping[int, Sequence[Span]]) -> ClockWrite | None:
    """The clocks of ``record`` once its game is in ``state`` at ``now`` (the seats to
    act that a player plays run; the others stop), to store with the change; ``None``
    for a table without a clock."""
    rule = TableClock.of(record.settings).rule
    if not rule.timed:
        return None
    clocks = load(record.clock) or {s.seat: fresh(rule) for s in record.seats}
    acting = game.to_act(state) if record.status in ("lobby", "active") else frozenset()
    humans = {s.seat for s in record.seats if s.seat in acting and not s.machine}
    after = settle(rule, clocks, humans, now, pauses)
    return ClockWrite(dump(after), next_look(after, now))

def shown(record: GameRecord, now: float) -> tuple[tuple[int, float], ...]:
    """Each running clock of ``record`` as ``(seat, seconds left)`` at ``now``, in seat
    order (a clock charged during its player's vacation shows no time going by until
    the vacation ends)."""
    if record.status != "active" or not TableClock.of(record.settings).rule.timed:
        return ()
    out = []
    for seat, clock in sorted(load(record.clock).items()):
        left = left_at(clock, now)
        if left is not None:
            out.append((seat, left))
    return tuple(out)


__all__ = ["TableClock", "settled", "shown"]
