"""The rules' work in worker processes: AI seats' moves and moves worked out.

Choosing an AI seat's move and working a move out are pure Python that holds the
interpreter lock for milliseconds a move. With a pool of worker processes (the render
pool, :class:`renderers.pool.PooledRenderer`), that work goes to the workers that draw
what a player waits for, before the pictures waiting there, so that the bot's own process
stays free meanwhile. The tables are given :meth:`RulesWork.think` for AI seats
(:data:`bot.tables.Think`) and the pool's own ``offload`` for moves
(:data:`bot.tables.Offload`), whose worker then draws the move's board.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from bot.games.engine import Action, Engine, State

#: The modules of the rules' work sent to the workers (:func:`ai_choice`, and the move
#: worked out, :func:`bot.tables.moves.work_out`): a pool imports them before its workers'
#: first jobs (``PooledRenderer(preload=WORK_MODULES)``).
WORK_MODULES = (__name__, "bot.tables.moves")


class Workers(Protocol):
    """What the rules' work needs of a pool: work a player waits for, run in a worker."""

    def run_now(self, work: Callable[[Any], Any], job: Any) -> Any: ...

    async def offload(self, work: Callable[[Any], Any], job: Any, key: int,
                      draws: Callable[[Any], Any] | None = None) -> Any: ...


def ai_choice(job: tuple[str, State, int, str]) -> Action:
    """In a worker: the AI's move for a seat of a registered game (``Engine.ai_action``)."""
    from bot.games import GAMES

    slug, state, seat, level = job
    return GAMES[slug].ai_action(state, seat, level)


class RulesWork:
    """The rules' work sent to ``workers``' processes."""

    def __init__(self, workers: Workers) -> None:
        self.workers = workers

    @classmethod
    def of(cls, renderer: object) -> RulesWork | None:
        """The rules' work in the pool ``renderer`` draws with; ``None`` for a renderer
        without worker processes (the work is then done in the bot's own process)."""
        if callable(getattr(renderer, "run_now", None)) and \
                callable(getattr(renderer, "offload", None)):
            return cls(renderer)  # type: ignore[arg-type]
        return None

    def think(self, game: Engine, state: State, seat: int, level: str) -> Action:
        """An AI seat's move (``game.ai_action(state, seat, level)``), chosen in a worker;
        in-process for a game the workers do not have (one a test registers). The choice
        is the same either way: the AI's randomness comes from the state."""
        from bot.games import GAMES

        if GAMES.get(game.slug) is not game:
            return game.ai_action(state, seat, level)
        chosen: Action = self.workers.run_now(ai_choice, (game.slug, state, seat, level))
        return chosen
