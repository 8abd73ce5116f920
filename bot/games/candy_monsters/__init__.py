"""Kingdom's Candy Monsters: buy monsters and abilities, feed them at Black Candy."""

from bot.games.candy_monsters.rules import CandyMonsters

GAME = CandyMonsters()

__all__ = ["GAME", "CandyMonsters"]
