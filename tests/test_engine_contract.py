"""The engine contract is declared once and every registered game is held to it."""

from __future__ import annotations

import sys
import types

import pytest
import tiny_game

import bot.games as catalogue
from bot.games import GAMES
from bot.games.engine import CONTRACT, REQUIRED_METHODS, ContractError, Game, check_contract


def _without(*names: str) -> type[Game]:
    # A subclass of Game itself (not of Candy Hunch) that copies everything but ``names``.
    body = {k: v for k, v in vars(tiny_game.CandyHunch).items()
            if k not in names and not k.startswith("__")}
    return type("Hasty", (Game,), body)


def test_every_registered_game_keeps_the_contract():
    for game in GAMES.values():
        check_contract(game)
    check_contract(tiny_game.GAME)


def test_a_game_that_does_not_declare_a_required_attribute_is_refused_naming_it():
    hasty = _without("has_chance", "title")()
    with pytest.raises(ContractError, match="has_chance is missing") as err:
        check_contract(hasty)
    assert "title is missing" in str(err.value)


def test_an_attribute_of_the_wrong_type_is_refused():
    hasty = _without("max_seats")
    hasty.max_seats = "three"
    with pytest.raises(ContractError, match="max_seats must be of type int"):
        check_contract(hasty())


def test_private_choices_need_something_hidden():
    hasty = _without("has_hidden_information")
    hasty.has_hidden_information = False
    with pytest.raises(ContractError, match="private_choices needs has_hidden_information"):
        check_contract(hasty())


def test_registering_a_game_that_lacks_a_declaration_fails_at_import(monkeypatch):
    module = types.ModuleType("bot.games.hasty")
    module.GAME = _without("has_content_files")()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.games.hasty", module)
    monkeypatch.setattr(catalogue, "PACKAGES", (*catalogue.PACKAGES, "hasty"))
    with pytest.raises(ContractError, match="has_content_files is missing"):
        catalogue._catalogue()


def test_the_contract_names_every_abstract_method_and_no_other():
    assert set(REQUIRED_METHODS) == {"setup", "turn_actors", "turn_actions", "play", "view",
                                     "result", "ai", "canonical"}
    assert len({need.name for need in CONTRACT}) == len(CONTRACT)
