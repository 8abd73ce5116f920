"""Views from real AI games of every registered game, for the tests that look at pictures."""

from __future__ import annotations

from functools import cache
from typing import Any

import bot.games
from bot.games.engine import Engine, State
from tests.support.playthrough import play


@cache
def states(slug: str, players: int = 3, seed: int = 4) -> tuple[State, ...]:
    """States of one whole AI game: an early one, four along the way and the end."""
    game = bot.games.GAMES[slug]
    players = max(game.min_seats, min(game.max_seats, players))
    seen: list[State] = []
    end, _ = play(game, seed, players, on_step=lambda step: seen.append(step.outcome.state))
    picks = [seen[len(seen) // 8], seen[len(seen) // 3], seen[len(seen) // 2],
             seen[2 * len(seen) // 3], seen[5 * len(seen) // 6], end]
    return tuple(picks)


def views(slug: str) -> list[tuple[str, dict[str, Any], int]]:
    """(label, view, seats) for the public view at each state and seat 0's own mid-game view."""
    game: Engine = bot.games.GAMES[slug]
    picked = states(slug)
    seats = len(picked[0]["seats"])
    out = [(f"{slug} state {n} public", game.view(state, None), seats)
           for n, state in enumerate(picked)]
    out.append((f"{slug} state 1 seat 0", game.view(picked[1], 0), seats))
    return out


class StripTops:
    """While ``module`` draws a picture, where the strip it is drawing begins in it
    (:class:`renderers.common.Strip`): a spy on what a strip draws adds :attr:`top` to the
    strip's own y to find it in the picture. Each picture is drawn from nothing while this
    watches (no strip is copied from an earlier picture; a strip the same as one above it
    in the same picture is copied from that one, which was drawn), and ``on_picture`` is
    called as each begins."""

    def __init__(self, monkeypatch: Any, module: Any,
                 on_picture: Any = lambda: None) -> None:
        import renderers.common
        from renderers.common import Strip, forget_strips

        self.top = 0
        self._tops: dict[int, int] = {}
        real_png, real_draw, real_mapped = renderers.common.strips_png, Strip.draw, Strip.mapped

        def png(width: int, strips: Any, palette: Any) -> bytes:
            forget_strips()
            self._tops = {}
            y = 0
            for strip in strips:
                self._tops.setdefault(id(strip), y)
                y += strip.height
            on_picture()
            return real_png(width, strips, palette)

        def draw(strip: Any, width: int) -> Any:
            self.top = self._tops.get(id(strip), 0)
            return real_draw(strip, width)

        def mapped(strip: Any, width: int, palette: Any) -> Any:
            self.top = self._tops.get(id(strip), 0)  # an indexed strip is not drawn first
            return real_mapped(strip, width, palette)

        monkeypatch.setattr(renderers.common, "strips_png", png)  # every game's Pictures
        monkeypatch.setattr(Strip, "draw", draw)
        monkeypatch.setattr(Strip, "mapped", mapped)
