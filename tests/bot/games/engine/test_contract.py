"""The engine contract is declared once and every registered game is held to it: a game
writes rules (declarations and hooks), the engine's services around them are final."""

from __future__ import annotations

import inspect
import sys
import types

import pytest

import bot.games as catalogue
import bot.games.engine as engine
from bot.games import GAMES
from bot.games.engine import (
    ANSWERS,
    CONTRACT,
    HOOKS,
    REQUIRED_HOOKS,
    SERVICES,
    BaseRules,
    ContractError,
    Engine,
    Rules,
    check_contract,
)
from bot.games.engine.services import _Declared
from tests.support import tiny_game
from tests.support.paths import ROOT


def _without(*names: str) -> type[BaseRules]:
    # A subclass of BaseRules itself (not of Candy Hunch) that copies all but ``names``.
    body = {k: v for k, v in vars(tiny_game.CandyHunch).items()
            if k not in names and not k.startswith("__")}
    return type("Hasty", (BaseRules,), body)


def _public_methods(kind: type) -> set[str]:
    return {n for n in dir(kind) if not n.startswith("_") and callable(getattr(kind, n))}


def test_every_registered_game_keeps_the_contract():
    for game in GAMES.values():
        check_contract(game.rules)
    check_contract(tiny_game.GAME.rules)


def test_a_game_that_does_not_declare_a_required_attribute_is_refused_naming_it():
    hasty = _without("has_chance", "title")()
    with pytest.raises(ContractError, match="has_chance is missing") as err:
        check_contract(hasty)
    assert "title is missing" in str(err.value)


def test_an_attribute_of_the_wrong_type_is_refused():
    hasty = _without("max_seats")
    hasty.max_seats = "three"  # type: ignore[assignment]
    with pytest.raises(ContractError, match="max_seats must be of type int"):
        check_contract(hasty())


def test_private_choices_need_something_hidden():
    hasty = _without("has_hidden_information")
    hasty.has_hidden_information = False
    with pytest.raises(ContractError, match="private_choices needs has_hidden_information"):
        check_contract(hasty())


def test_registering_a_game_that_lacks_a_declaration_fails_at_import(monkeypatch):
    module = types.ModuleType("bot.games.hasty")
    module.GAME = Engine(_without("has_content_files")())  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.games.hasty", module)
    monkeypatch.setattr(catalogue, "PACKAGES", (*catalogue.PACKAGES, "hasty"))
    with pytest.raises(ContractError, match="has_content_files is missing"):
        catalogue._catalogue()


def test_the_required_hooks_are_the_abstract_ones_and_declarations_are_unique():
    assert set(REQUIRED_HOOKS) == {"_setup", "_turn_actors", "_turn_actions", "_play", "_show",
                                   "_result", "_ai", "_canonical"}
    assert len({need.name for need in CONTRACT}) == len(CONTRACT)


def test_rules_that_write_a_service_are_refused_naming_the_hook_to_write_instead() -> None:
    refused = 0
    for name, hook in SERVICES.items():
        twin = type(f"Writes{name}", (tiny_game.CandyHunch,),
                    {name: lambda self, *args, **kwargs: None})
        with pytest.raises(ContractError, match=rf"{name} is the engine's own service") as err:
            check_contract(twin())
        if hook:
            assert f"write {hook} instead" in str(err.value)
        refused += 1
    assert refused == len(SERVICES) >= 25


def test_a_hook_written_without_its_underscore_is_refused_as_never_called() -> None:
    # ``explain`` is a name the engine never calls: its hook is ``_explain``.
    twin = type("Explains", (tiny_game.CandyHunch,),
                {"explain": lambda self, state, seat, notation: "no"})
    with pytest.raises(ContractError, match="explain would never be called: the engine's "
                                            "hook is named _explain"):
        check_contract(twin())


def test_the_engine_cannot_be_subclassed_and_holds_only_services():
    with pytest.raises(TypeError, match="final"):
        type("Leaky", (Engine,), {})
    offered = _public_methods(Engine)
    assert offered <= set(SERVICES)
    # Every other service is a function a game's own code calls with its state (or rules).
    for name in set(SERVICES) - offered:
        assert inspect.isfunction(getattr(engine, name)), name


def test_the_hooks_are_the_rules_protocol_and_the_base_class_writes_every_one():
    assert set(HOOKS) == {n for n, v in vars(Rules).items()
                          if callable(v) and not n.startswith("__")}
    assert set(HOOKS) == {n for n in dir(BaseRules)
                          if callable(getattr(BaseRules, n)) and not n.startswith("__")}
    assert not set(HOOKS) & set(SERVICES)
    assert set(ANSWERS) == {h for h in HOOKS if not h.startswith("_")}


def test_the_engine_reads_through_exactly_the_rules_declarations_with_their_types():
    import typing

    declared = {name: typing.get_args(kind)[0]
                for name, kind in typing.get_type_hints(Rules).items()
                if typing.get_origin(kind) is typing.ClassVar}
    declared |= {name: typing.get_type_hints(value.fget)["return"]
                 for name, value in vars(Rules).items() if isinstance(value, property)}
    read_through = {name: typing.get_args(value.__orig_class__)[0]
                    for name, value in vars(Engine).items()
                    if isinstance(value, _Declared)}
    assert declared and read_through == declared
    game = GAMES["sugar-blast"]
    assert [getattr(game, name) for name in declared] == [
        getattr(game.rules, name) for name in declared]
    assert isinstance(Engine.slug, _Declared)


def test_no_class_of_the_contract_offers_more_than_thirty_public_methods():
    for kind in (Engine, BaseRules, *(type(g.rules) for g in GAMES.values())):
        assert len(_public_methods(kind)) <= 30, kind.__name__


def test_show_is_given_other_hands_dealt_from_what_the_seat_cannot_see_never_the_real_ones():
    from bot.games.engine import SeatInfo
    from bot.games.rng import Rng

    seen: list[dict] = []

    class Peeking(tiny_game.CandyHunch):
        def _show(self, state, seat):
            seen.append(state)
            return {**super()._show(state, seat), "peek": list(state["hands"])}

    game = Engine(Peeking())
    state = game.new([SeatInfo(n) for n in ("A", "B", "C")], 3)
    views = {tuple(game.view(game.resample(state, 0, Rng.from_seed(n)), 0)["peek"])
             for n in range(12)}
    assert len(views) == 1, "what seat 0 is shown depends only on what it knows"
    (peek,) = views
    assert peek[0] == state["hands"][0], "its own hand is the real one"
    assert all(s["rng"] != state["rng"] for s in seen), "the generator never reaches a view"


@pytest.mark.parametrize("game", sorted(GAMES.values(), key=lambda g: g.slug),
                         ids=lambda g: g.slug)
def test_what_a_seat_may_know_is_the_same_in_every_world_it_cannot_tell_apart(game):
    from bot.games.engine import dumps
    from bot.games.rng import Rng
    from tests.support.playthrough import play

    checked = 0

    def compare(step) -> None:
        nonlocal checked
        state = step.outcome.state
        if checked >= 6 or not game.rules._hidden(state):
            return
        for viewer in (None, 0):
            known = dumps(game.known_to(state, viewer))
            for n in range(2):
                twin = game.resample(state, viewer, Rng.from_seed(n))
                assert dumps(game.known_to(twin, viewer)) == known
        checked += 1

    play(game, 1, game.min_seats, on_step=compare)
    assert checked == 6 or not game.has_hidden_information


def documented(section: str) -> set[str]:
    """The names listed as bullets (``- `name(...)```) in a section of docs/engine.md."""
    import re

    text = (ROOT / "docs" / "engine.md").read_text()
    body = text.split(f"### {section}\n", 1)[1].split("\n#", 1)[0]
    bullets = [item.split(":", 1)[0] for item in body.split("\n- ")[1:]]
    return {name for bullet in bullets for name in re.findall(r"`(\w+)\(", bullet)}


def test_the_engine_page_lists_exactly_the_hooks_and_the_services() -> None:
    assert documented("The hooks a game writes") == set(HOOKS)
    assert documented("The engine's services") == set(SERVICES)


def test_only_the_engine_and_the_games_call_the_engines_hooks() -> None:
    # The bot, the renderers and the tools ask a game's rules only its own answers; every
    # other hook is reached through the engine's service that wraps it.
    import ast

    private = {h for h in HOOKS if h.startswith("_")}
    calls = []
    for folder in ("bot", "renderers", "tools"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.is_relative_to(ROOT / "bot" / "games"):
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                # A class's own method of the same name (``self._result``) is no hook.
                if isinstance(node, ast.Attribute) and node.attr in private \
                        and not (isinstance(node.value, ast.Name) and node.value.id == "self"):
                    calls.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.attr}")
    assert calls == []
