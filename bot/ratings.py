"""Skill ratings per server and game: openskill's Plackett-Luce model, free-for-all.

Pure functions, no I/O: the store calls :func:`rate` in the transaction that finishes
a game. A rating is a belief ``(mu, sigma)``; players see the conservative ordinal
``mu - Z * sigma`` times :data:`DISPLAY_SCALE`, so a newcomer shows 0 and climbs as the
bot grows sure of them.

Tuning (see docs/discord.md): openskill's default tau (25/300) lets sigma shrink
until a rating barely moves, the complaint players make of TrueSkill. :data:`TAU` is
0.3, which keeps sigma near 3 after many games, so every game still moves a rating,
and the display multiplies the ordinal by 40, so a usual game moves it by several
points. Fewer than :data:`PROVISIONAL_GAMES` rated games mark a rating provisional.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

MU = 25.0
SIGMA = MU / 3
#: Added to sigma before each game, so ratings keep moving after many games.
TAU = 0.3
#: Standard deviations taken off mu for the shown, conservative rating.
Z = 3.0
DISPLAY_SCALE = 40.0
PROVISIONAL_GAMES = 5


@cache
def _model() -> Any:
    """The openskill model, imported on first use so that reading games never needs it."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA, tau=TAU)


def warm() -> None:
    """Import the model now: a finished game rates its players inside its commit, and the
    process's first would otherwise import openskill there, on the event loop (17 ms)."""
    _model()


@dataclass(frozen=True)
class Rating:
    """One player's belief of skill and how many rated games it rests on."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> int:
        """The conservative rating players see."""
        return round(DISPLAY_SCALE * (self.mu - Z * self.sigma))

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def rate(players: Sequence[tuple[Rating, int]]) -> list[Rating]:
    """New ratings for ``(rating, place)`` pairs of one finished game, in the same order
    (place 1 is best; equal places are a tie). Fewer than two players: unchanged."""
    if len(players) < 2:
        return [rating for rating, _ in players]
    model = _model()
    teams = [[model.create_rating([r.mu, r.sigma])] for r, _ in players]
    rated = model.rate(teams, ranks=[float(place) for _, place in players])
    return [Rating(team[0].mu, team[0].sigma, old.games + 1)
            for team, (old, _) in zip(rated, players, strict=True)]
