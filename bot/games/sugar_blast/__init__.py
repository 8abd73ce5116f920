"""Sugar Blast: match-3 on a 6x6 tilting board."""

from bot.games.engine import Engine
from bot.games.sugar_blast.rules import SugarBlast

GAME = Engine(SugarBlast())

__all__ = ["GAME", "SugarBlast"]
