"""A move that draws is previewed by its public picture, and only when that picture tells
the player nothing they could not work out (it comes out the same in worlds they cannot
tell from the real one)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord import flows
from bot.games import GAMES
from bot.games.engine import SeatInfo
from bot.tables import Choosing

SUGARTOPIA = GAMES["sugartopia"]


def choosing_at_start() -> tuple[Choosing, Any]:
    state = SUGARTOPIA.new([SeatInfo("Ana", False), SeatInfo("Bo", False)], 5, {})
    seat = sorted(SUGARTOPIA.to_act(state))[0]
    legal = tuple(SUGARTOPIA.legal_actions(state, seat))
    drawing = next(a for a in legal if not SUGARTOPIA.apply(state, seat, a).undoable)
    record: Any = None
    return Choosing(record=record, game=SUGARTOPIA, state=state, seat=seat, legal=legal,
                    token=""), drawing


def test_a_sugartopia_placement_that_draws_is_previewed_by_its_public_view() -> None:
    choosing, placement = choosing_at_start()
    view = flows._preview_view(choosing, placement)
    assert view is not None and view.get("viewer") is None
    after = SUGARTOPIA.apply(choosing.state, choosing.seat, placement).state
    assert view == SUGARTOPIA.view(after, None)


def test_a_drawing_move_whose_public_result_depends_on_hidden_things_is_not_previewed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    choosing, placement = choosing_at_start()
    real_view = SUGARTOPIA.view

    def telling(state: Any, seat: int | None) -> Any:
        # A public view that shows the generator: it differs in every resampled world.
        return {**real_view(state, seat), "rng": state["rng"]}

    monkeypatch.setattr(SUGARTOPIA, "view", telling)
    assert flows._preview_view(choosing, placement) is None
