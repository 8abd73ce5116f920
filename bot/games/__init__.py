"""Pure game rules. Nothing in this package imports discord or PIL or does I/O
beyond reading its own content files from ``data/`` once."""

from __future__ import annotations

from bot.games.engine import Game, OptionsError


def _registry() -> dict[str, Game]:
    from bot.games.sugar_blast import SugarBlast
    from bot.games.sugartopia import Sugartopia

    games: list[Game] = [SugarBlast(), Sugartopia()]
    return {g.slug: g for g in games}


GAMES: dict[str, Game] = _registry()


def get_game(slug: str) -> Game:
    """The registered game called ``slug``; a clear error otherwise."""
    try:
        return GAMES[slug]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise OptionsError(f"There is no game called {slug!r}. Games: {known}.") from None
