"""Sugarworks: conveyors, colliding candy and orders to fill."""

from bot.games.engine import Engine
from bot.games.sugarworks.rules import Sugarworks

GAME = Engine(Sugarworks())

__all__ = ["GAME", "Sugarworks"]
