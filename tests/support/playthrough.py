"""Play whole games for the invariant and property suites."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from bot.games.engine import Engine, Outcome, SeatInfo, State
from bot.games.rng import Rng

MOVE_BOUND = 5000


@dataclass
class Step:
    before: State
    seat: int
    outcome: Outcome


def seats_for(game: Engine, players: int, ai: bool = True) -> list[SeatInfo]:
    return [SeatInfo(f"P{i}", ai=ai) for i in range(players)]


def play(game: Engine, seed: int, players: int, random_seats: frozenset[int] = frozenset(),
         on_step: Callable[[Step], None] | None = None,
         options: dict[str, Any] | None = None) -> tuple[State, list[tuple[int, str]]]:
    """Play a game to the end: AI for most seats, uniform random for ``random_seats``."""
    state = game.new(seats_for(game, players), seed, options)
    log: list[tuple[int, str]] = []
    pick = Rng.from_seed(seed * 7919 + 1)
    for step in steps(game, state, random_seats, pick):
        log.append((step.seat, step.outcome.action.notation))
        if on_step:
            on_step(step)
        state = step.outcome.state
    return state, log


def steps(game: Engine, state: State, random_seats: frozenset[int], pick: Rng) -> Iterator[Step]:
    for _ in range(MOVE_BOUND):
        actors = sorted(game.to_act(state))
        if not actors:
            return
        seat = actors[pick.below(len(actors))]
        if seat in random_seats:
            action = pick.choice(game.legal_actions(state, seat))
        else:
            action = game.ai_action(state, seat)
        outcome = game.apply(state, seat, action)
        yield Step(state, seat, outcome)
        state = outcome.state
    raise AssertionError(f"{game.slug} did not end within {MOVE_BOUND} moves")
