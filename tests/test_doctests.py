"""The examples in the docstrings of the engine, the pure modules under it and the
organized play's pure arithmetic run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import bot.games
import bot.organized

MODULES = sorted(name for package in (bot.games, bot.organized)
                 for _, name, _ in pkgutil.walk_packages(package.__path__,
                                                          f"{package.__name__}.")
                 if not name.endswith("__main__"))
#: Organized play (seasons, tournaments, clocks) is pure too, and shows its rules by example.
ORGANIZED = sorted(name for _, name, _ in pkgutil.walk_packages(bot.organized.__path__,
                                                               "bot.organized."))


@pytest.mark.parametrize("name", MODULES + ORGANIZED)
def test_the_examples_of_each_module_hold(name: str) -> None:
    failed, _tried = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failed == 0


def test_the_engine_shows_its_examples() -> None:
    tried = doctest.testmod(importlib.import_module("bot.games.engine.playing")).attempted
    assert tried >= 1
