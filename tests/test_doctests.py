"""The examples in the docstrings of the engine and the pure modules under it run."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import bot.games
import bot.organized

MODULES = sorted(name for package in (bot.games, bot.organized)
                 for _, name, _ in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
                 if not name.endswith("__main__"))


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_each_module_hold(name: str) -> None:
    failed, _tried = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failed == 0


def test_the_engine_shows_its_examples() -> None:
    tried = doctest.testmod(importlib.import_module("bot.games.engine")).attempted
    assert tried >= 1
