"""Sugar Blast: match-3 on a 6x6 tilting board."""

from bot.games.sugar_blast.rules import SugarBlast

GAME = SugarBlast()

__all__ = ["GAME", "SugarBlast"]
