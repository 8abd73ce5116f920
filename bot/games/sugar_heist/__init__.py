"""Sugar Heist: costumes, hideout defences and dice heists on the next player's candy."""

from bot.games.engine import Engine
from bot.games.sugar_heist.rules import SugarHeist

GAME = Engine(SugarHeist())

__all__ = ["GAME", "SugarHeist"]
