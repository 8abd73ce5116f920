"""The bot uses discord.py through its public API only; /game new describes every option."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from bot.discord import commands
from bot.games import GAMES
from bot.games.engine import Engine, OptionSpec
from tests.support.paths import ROOT
from tests.support.race_game import CandyDash, CandyRace

#: Python's own underscore names (the data model), which are not a library's internals.
PYTHON_NAMES = {*dir(object), *dir(type), *dir(lambda: 0), *dir(sys), "__signature__",
                "__wrapped__", "__abstractmethods__", "__path__", "__file__", "__version__"}


def _sources() -> list[Path]:
    return [p for package in ("bot", "renderers") for p in (ROOT / package).rglob("*.py")]


def _project_names(trees: list[ast.AST]) -> set[str]:
    """Every name the project defines: functions, classes, and attributes it assigns
    (other than double-underscore ones)."""
    names: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                if not node.attr.startswith("__"):  # setting a library's magic name is using it
                    names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return names


def foreign_private_names(trees: list[ast.AST]) -> set[str]:
    """Underscore attributes used but defined neither by the project nor by Python."""
    own = _project_names(trees)
    used = {node.attr for tree in trees for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_")}
    return {name for name in used if name not in own and name not in PYTHON_NAMES}


def test_the_slash_commands_use_no_library_internal():
    own = [ast.parse(p.read_text(encoding="utf-8")) for p in _sources()]
    commands_tree = ast.parse((ROOT / "bot/discord/commands.py").read_text(encoding="utf-8"))
    used = {node.attr for node in ast.walk(commands_tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_")}
    assert used & foreign_private_names(own) == set()
    assert not used - PYTHON_NAMES - _project_names(own)


def test_the_check_finds_a_private_attribute_of_discord_py():
    trees = [ast.parse('command._params["game"].choices = []\n'
                       'new.__discord_app_commands_param_description__ = {}\n')]
    assert foreign_private_names(trees) == {"_params",
                                            "__discord_app_commands_param_description__"}


def test_an_option_several_games_share_is_described_by_each_of_them():
    class Rounded(CandyRace):
        slug = "rounded"
        title = "Rounded"
        options = (OptionSpec("target", "Laps to run.", "int", 3),)

    described = commands.option_params({"candy-dash": Engine(CandyDash()),
                                        "rounded": Engine(Rounded())})
    assert described["target"] == "Candy Dash: Points needed to win. Rounded: Laps to run."


def test_game_new_offers_the_games_as_choices_and_describes_every_parameter():
    command = commands.build_new_command(GAMES)
    params = {p.name: p for p in command.parameters}
    assert [c.value for c in params["game"].choices] == list(GAMES)
    assert params["game"].description == "Which game to play."
    rounds = params["rounds"].description
    assert rounds.startswith("Sugar Heist: ") and "Sugarworks: " in rounds
    assert all(p.description and p.description != "…" for p in command.parameters)
