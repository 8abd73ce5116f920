"""Kingdom's Candy Monsters: buy monsters and abilities, feed them at Black Candy."""

from bot.games.candy_monsters.rules import CandyMonsters
from bot.games.engine import Engine

GAME = Engine(CandyMonsters())

__all__ = ["GAME", "CandyMonsters"]
