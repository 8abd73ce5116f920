"""Sugar Heist: costumes, hideout defences and dice heists on the next player's candy."""

from bot.games.sugar_heist.rules import SugarHeist

GAME = SugarHeist()

__all__ = ["GAME", "SugarHeist"]
