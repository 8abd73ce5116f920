"""Sugartopia: hex land cards, cotton-candy sheep, gummy bears and Gingermen."""

from bot.games.sugartopia.rules import Sugartopia

GAME = Sugartopia()

__all__ = ["GAME", "Sugartopia"]
