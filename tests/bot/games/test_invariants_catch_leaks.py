"""The invariant suite cannot be fooled: leaks planted in a game's view are caught.

Each game's view is wrapped to leak (the whole raw state in every view; for a
game with hidden information also another seat's view), with the game's own
``secrets()`` emptied so that nothing the game lists can help. The checks of
tests/bot/games/test_invariants.py must then fail, while a harmless addition (a copy of
the view's own content) passes them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from bot.games.engine import Engine, State, View
from tests.bot.games.test_invariants import GAME_LIST, check_views, check_who_knows_what
from tests.support import tiny_game
from tests.support.playthrough import seats_for

Plant = Callable[[Callable[[State, int | None], View], State, int | None], dict[str, Any]]


def _raw_state(view: Callable[[State, int | None], View], state: State,
               seat: int | None) -> dict[str, Any]:
    return {"leak": copy.deepcopy(state)}


def _next_seats_view(view: Callable[[State, int | None], View], state: State,
                     seat: int | None) -> dict[str, Any]:
    other = 0 if seat is None else (seat + 1) % len(state["seats"])
    return {"leak": view(state, other)}


def _copy_of_itself(view: Callable[[State, int | None], View], state: State,
                    seat: int | None) -> dict[str, Any]:
    return {"copy": copy.deepcopy(view(state, seat))}


def _plant(monkeypatch: pytest.MonkeyPatch, game: Engine, plant: Plant) -> None:
    original = game.view

    def planted(state: State, seat: int | None) -> View:
        return {**original(state, seat), **plant(original, state, seat)}

    monkeypatch.setattr(game, "view", planted)
    monkeypatch.setattr(game.rules, "secrets", lambda state, seat: [])


def _suite(game: Engine, limit: int | None = None) -> None:
    """The suite's view checks over one seeded game (``limit`` states at most)."""
    check_views(game, game.new(seats_for(game, game.max_seats), 1))
    check_who_knows_what(game, range(1), limit=limit)


LEAKS = [pytest.param(g, _raw_state, id=f"{g.slug}-raw-state") for g in GAME_LIST] + [
    pytest.param(g, _next_seats_view, id=f"{g.slug}-another-seats-view")
    for g in GAME_LIST if g.has_hidden_information]


@pytest.mark.parametrize(("game", "plant"), LEAKS)
def test_a_leak_planted_in_the_view_fails_the_suite(game: Engine, plant: Plant,
                                                    monkeypatch: pytest.MonkeyPatch):
    _plant(monkeypatch, game, plant)
    with pytest.raises(AssertionError, match="cannot know"):
        _suite(game)


@pytest.mark.parametrize("game", GAME_LIST, ids=lambda g: g.slug)
def test_a_copy_of_the_views_own_content_passes_the_suite(game: Engine,
                                                          monkeypatch: pytest.MonkeyPatch):
    _plant(monkeypatch, game, _copy_of_itself)
    _suite(game, limit=20)


def test_the_tiny_game_passes_and_its_leaking_twin_fails_the_suite(
        monkeypatch: pytest.MonkeyPatch):
    _suite(tiny_game.GAME)
    # Its twin's view has every hand added past the engine (as a game could once by
    # writing its own view), and it names no secret: the resampled worlds still catch it.
    leaky = Engine(tiny_game.CandyHunch())
    _plant(monkeypatch, leaky, lambda view, state, seat: {"hands": list(state["hands"])})
    with pytest.raises(AssertionError, match="cannot know"):
        _suite(leaky)
