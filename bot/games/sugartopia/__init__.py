"""Sugartopia: hex land cards, cotton-candy sheep, gummy bears and Gingermen."""

from bot.games.engine import Engine
from bot.games.sugartopia.rules import Sugartopia

GAME = Engine(Sugartopia())

__all__ = ["GAME", "Sugartopia"]
