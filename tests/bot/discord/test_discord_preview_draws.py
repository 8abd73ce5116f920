"""A move that draws is previewed by its public picture, and only when that picture tells
the player nothing they could not work out (it comes out the same in worlds they cannot
tell from the real one)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord import flows
from bot.games import GAMES
from bot.games.engine import SeatInfo
from bot.games.rng import Rng
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


def positions(slug: str, seed: int, seats: int, every: int) -> list[tuple[Any, int]]:
    """Every ``every``-th position of a whole AI game, with a seat to act."""
    game = GAMES[slug]
    state = game.new([SeatInfo(f"P{i}", True) for i in range(seats)], seed, {})
    out = []
    for n in range(400):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        if n % every == 0:
            out.append((state, acting[0]))
        state = game.apply(state, acting[0], game.ai_action(state, acting[0])).state
    return out


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_preview_is_the_same_in_every_state_the_player_cannot_tell_from_the_real_one(
        slug: str) -> None:
    """Whether a move is previewed, and what the preview shows, is worked out from what the
    player knows alone: the real state and a state resampled for the player give the same
    answer for every move, so a preview can never give a draw away (a die rolled, an event
    turned over) before the player confirms, nor can its absence."""
    game = GAMES[slug]
    compared = 0
    for state, seat in positions(slug, 3, game.min_seats + 1, 5):
        legal = tuple(game.legal_actions(state, seat))
        other = game.resample(state, seat, Rng.from_seed(9))
        mine = Choosing(record=None, game=game, state=state, seat=seat,  # type: ignore[arg-type]
                        legal=legal, token="")
        theirs = Choosing(record=None, game=game, state=other, seat=seat,  # type: ignore[arg-type]
                          legal=legal, token="")
        for action in legal[:12]:
            assert flows._preview_view(mine, action) == flows._preview_view(theirs, action)
            compared += 1
    assert compared >= 10


class Untouchable(dict):  # type: ignore[type-arg]
    """A state whose items may not be read: only :meth:`Game.known_to` gets at them."""

    def __getitem__(self, key: Any) -> Any:
        raise AssertionError(f"the preview read the real state ({key!r})")

    def get(self, key: Any, default: Any = None) -> Any:
        raise AssertionError(f"the preview read the real state ({key!r})")


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_preview_reads_the_real_state_only_as_the_player_may_know_it(
        slug: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """By structure: the preview is worked out from ``known_to`` alone."""
    game = GAMES[slug]
    seen: list[int] = []
    real_known_to = type(game).known_to

    def known_to(self: Any, state: Any, viewer: int | None) -> Any:
        seen.append(viewer)
        return real_known_to(self, dict(state), viewer)

    monkeypatch.setattr(type(game), "known_to", known_to)
    for state, seat in positions(slug, 4, game.min_seats, 9)[:4]:
        legal = tuple(game.legal_actions(state, seat))
        choosing = Choosing(record=None, game=game, state=Untouchable(state),  # type: ignore[arg-type]
                            seat=seat, legal=legal, token="")
        for action in legal[:5]:
            flows._preview_view(choosing, action)
    assert seen  # the state was read, and only through known_to
