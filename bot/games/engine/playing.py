"""A game played on to its end: the one loop every all-AI game goes through (the demo,
the arena, the bench, balance studies, tests)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from bot.games.engine.services import Engine
from bot.games.engine.values import Action, Outcome, State

#: Chooses ``seat``'s move in ``state`` (a player who is not the game's AI, in a tool).
Chooser = Callable[[State, int], Action]


def playing(game: Engine, state: State, choose: Chooser | None = None, *,
            max_moves: int = 20_000) -> Iterator[tuple[int, Outcome]]:
    """Play ``state`` on to the end, the lowest seat that may act moving first, each
    move chosen by ``choose`` (by default the seat's AI); yields every move as ``(seat,
    outcome)``.

    >>> from bot.games import GAMES
    >>> from bot.games.engine import SeatInfo
    >>> game = next(iter(GAMES.values()))
    >>> seats = [SeatInfo(f"AI {n}", ai=True) for n in range(game.min_seats)]
    >>> moves = list(playing(game, game.new(seats, seed=3)))
    >>> game.result(moves[-1][1].state) is not None
    True
    """
    for _ in range(max_moves):
        acting = game.to_act(state)
        if not acting:
            return
        seat = min(acting)
        action = game.ai_action(state, seat) if choose is None else choose(state, seat)
        outcome = game.apply(state, seat, action)
        yield seat, outcome
        state = outcome.state
    raise RuntimeError(f"{game.title} did not end within {max_moves} moves")


def play_out(game: Engine, state: State, choose: Chooser | None = None, *,
             max_moves: int = 20_000) -> State:
    """The state at the end of :func:`playing`."""
    for _seat, outcome in playing(game, state, choose, max_moves=max_moves):
        state = outcome.state
    return state
