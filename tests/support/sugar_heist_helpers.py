"""Shared set-ups for the Sugar Heist tests: tables arranged by hand, dice chosen by the test."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

import bot.games.engine as engine
from bot.games.engine import SeatInfo, State, Turn
from bot.games.rng import Rng
from bot.games.sugar_heist import GAME, cards, effects
from bot.games.sugar_heist.effects import Context


class ScriptedRng(Rng):
    """Rolls come from ``script`` while it lasts; shuffles stay seeded."""

    script: ClassVar[list[int]] = []

    def roll(self, sides: int) -> int:
        if ScriptedRng.script:
            return ScriptedRng.script.pop(0)
        return super().roll(sides)


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list the test fills with the die rolls to come, in order."""
    ScriptedRng.script = []
    # Every generator the engine makes for set-up and for a move rolls from the script.
    monkeypatch.setattr(engine.versions, "Rng", ScriptedRng)
    monkeypatch.setattr(engine.moves, "Rng", ScriptedRng)
    return ScriptedRng.script


def act(state: State, seat: int, text: str) -> State:
    return GAME.apply(state, seat, text).state


def new_game(names: tuple[str, ...] = ("Alice", "Bob", "Charlie"), seed: int = 1,
             options: dict[str, Any] | None = None) -> State:
    """A game whose players have chosen boards in seat order: round 1, prep phase."""
    state = GAME.new([SeatInfo(n) for n in names], seed, options)
    for seat in range(len(names)):
        state = act(state, seat, f"board {cards.lower_name(cards.boards()[seat])}")
    return state


def take(state: State, key: str) -> str:
    """Take a copy of card ``key`` out of wherever it waits unseen (deck or market)."""
    for deck in state["decks"].values():
        for card_id in deck:
            if cards.instances()[card_id] == key:
                deck.remove(card_id)
                return card_id
    for card_id in state["market"]:
        if cards.instances()[card_id] == key:
            state["market"].remove(card_id)
            state["market"].append(state["decks"]["costume"].pop())
            return card_id
    raise AssertionError(f"no {key} left")


def put(state: State, seat: int, room: int, key: str, up: bool = False) -> str:
    """Place a hideout card in ``seat``'s room (1-3), as if bought earlier."""
    card_id = take(state, key)
    slot = cards.hideout_cards()[key]["kind"]
    state["players"][seat]["rooms"][room - 1][slot] = {"id": card_id, "up": up}
    return card_id


def dress(state: State, seat: int, key: str) -> str:
    card_id = take(state, key)
    state["players"][seat]["costumes"].append({"id": card_id, "used": False})
    return card_id


def arrange_track(state: State, order: list[int]) -> None:
    """Fix the target track (and the prep turn) of the round under way."""
    state["track"] = list(order)
    state["prep"]["turn"] = order[0]


def everybody_passes(state: State) -> State:
    for seat in list(state["track"]):
        state = act(state, seat, "pass")
    return state


def heist_table(pool: list[int], players: int = 3) -> tuple[State, Context]:
    """A heist of seat 0 on seat 1 under way with ``pool``, and a context to run steps in."""
    state = new_game(tuple(f"P{i}" for i in range(players)))
    # The generator a move gets (scripted while the ``dice`` fixture is on).
    turn = Turn(engine.moves.Rng(state["rng"]))
    arrange_track(state, list(range(players)))
    GAME.rules._start_heist(state, turn, 0)
    state["heist"]["pool"] = sorted(pool)
    state["heist"]["stage"] = "effects"
    return state, Context(GAME.rules, state, turn)


def run(ctx: Context, steps: list[dict[str, Any]], src: str = "Test card") -> bool:
    """Run ``steps``; True if one of them stopped to ask a decision."""
    effects.push(ctx, steps, src)
    while ctx.heist["queue"]:
        if effects.run_next(ctx):
            return True
    return False
