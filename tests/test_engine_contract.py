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
    assert set(REQUIRED_METHODS) == {"setup", "turn_actors", "turn_actions", "play", "show",
                                     "result", "ai", "canonical"}
    assert len({need.name for need in CONTRACT}) == len(CONTRACT)


def test_a_game_that_writes_its_own_view_is_refused():
    with pytest.raises(ContractError, match="view is the engine's own"):
        check_contract(tiny_game.LEAKY)


def test_show_is_given_other_hands_dealt_from_what_the_seat_cannot_see_never_the_real_ones():
    from bot.games.engine import SeatInfo
    from bot.games.rng import Rng

    seen: list[dict] = []

    class Peeking(tiny_game.CandyHunch):
        def show(self, state, seat):
            seen.append(state)
            return {**super().show(state, seat), "peek": list(state["hands"])}

    game = Peeking()
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
    from playthrough import play

    from bot.games.engine import dumps
    from bot.games.rng import Rng

    checked = 0

    def compare(step) -> None:
        nonlocal checked
        state = step.outcome.state
        if checked >= 6 or not game.hidden(state):
            return
        for viewer in (None, 0):
            known = dumps(game.known_to(state, viewer))
            for n in range(2):
                twin = game.resample(state, viewer, Rng.from_seed(n))
                assert dumps(game.known_to(twin, viewer)) == known
        checked += 1

    play(game, 1, game.min_seats, on_step=compare)
    assert checked == 6 or not game.has_hidden_information


def test_a_game_that_overrides_any_service_is_refused_naming_it() -> None:
    from bot.games.engine import SERVICES

    refused = 0
    for name, hook in SERVICES.items():
        twin = type(f"Overrides{name}", (tiny_game.CandyHunch,),
                    {name: lambda self, *args, **kwargs: None})
        with pytest.raises(ContractError, match=rf"{name} is the engine's own service") as err:
            check_contract(twin())
        if hook:
            assert f"write {hook} instead" in str(err.value)
        refused += 1
    assert refused == len(SERVICES) >= 25


def test_every_public_method_of_a_game_is_a_hook_or_a_service() -> None:
    from bot.games.engine import HOOKS, SERVICES

    public = {n for n in dir(Game) if not n.startswith("_") and callable(getattr(Game, n))}
    assert public == set(HOOKS) | set(SERVICES)
    assert not set(HOOKS) & set(SERVICES)


def documented(section: str) -> set[str]:
    """The names listed as bullets (``- `name(...)```) in a section of docs/engine.md."""
    import re
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / "engine.md").read_text()
    body = text.split(f"### {section}\n", 1)[1].split("\n#", 1)[0]
    bullets = [item.split(":", 1)[0] for item in body.split("\n- ")[1:]]
    return {name for bullet in bullets for name in re.findall(r"`(\w+)\(", bullet)}


def test_the_engine_page_lists_exactly_the_hooks_and_the_services() -> None:
    from bot.games.engine import HOOKS, SERVICES

    assert documented("The hooks a game writes") == set(HOOKS)
    assert documented("The engine's services") == set(SERVICES)
