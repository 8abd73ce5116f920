"""Sugarworks: conveyors, colliding candy and orders to fill."""

from bot.games.sugarworks.rules import Sugarworks

GAME = Sugarworks()

__all__ = ["GAME", "Sugarworks"]
