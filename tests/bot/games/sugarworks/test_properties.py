"""Sugarworks over whole seeded games: candy conservation, determinism, replays, the end.
(The engine contract at every step is tests/bot/games/test_invariants.py's.)"""

from __future__ import annotations

import pytest

from bot.games.engine import dumps, loads
from bot.games.sugarworks import GAME
from bot.games.sugarworks import content as ct
from tests.support.playthrough import Step, play, seats_for
from tools.arena import win_rate_vs_random


def candies_everywhere(state: dict) -> dict[str, int]:
    """Candies counted in the supply, on the floor, in the crates and in the gutter."""
    count = dict(state["supply"])
    places = [*state["candies"], *state["gutter"]]
    for crate in state["crates"].values():
        places += crate
    for candy in places:
        count[candy["type"]] += 1
    return count


def check_candies(state: dict) -> None:
    """Every candy is in exactly one place, and no two candies share a space."""
    assert candies_everywhere(state) == {t: ct.supply_per_type() for t in ct.candy_order()}
    ids = [c["id"] for c in state["candies"]] + [c["id"] for c in state["gutter"]]
    ids += [c["id"] for crate in state["crates"].values() for c in crate]
    assert len(ids) == len(set(ids))
    spaces = [c["at"] for c in state["candies"]]
    assert len(spaces) == len(set(spaces))
    assert all(v >= 0 for v in state["supply"].values())


def check_cards(state: dict) -> None:
    """Every order card and conveyor tile is in exactly one place."""
    orders = [*state["deck"], *state["boxed"], *state["order_discards"],
              *(c for c in state["market"] if c)]
    for seat, hand in enumerate(state["hands"]):
        orders += hand["orders"] + state["completed"][seat]
        assert len(hand["orders"]) <= 5 or GAME.top(state) is not None
    assert sorted(orders) == sorted(ct.orders())
    tiles = [*state["stack"], *state["tile_discards"],
             *(p["tile"] for p in state["placed"].values())]
    tiles += [t for hand in state["hands"] for t in hand["tiles"]]
    assert sorted(tiles) == sorted(ct.tile_stack())


def check_public_lines(step: Step) -> None:
    """Public narration never names an order card drawn from the deck that stays in hand."""
    after = step.outcome.state
    drawn = set(step.before["deck"]) - set(after["deck"])
    hidden = drawn & {c for hand in after["hands"] for c in hand["orders"]}
    hidden -= {c for c in after["market"] if c}
    for line in step.outcome.narration(None):
        for card in hidden:
            assert card not in line


def check_determinism(step: Step) -> None:
    again = GAME.apply(step.before, step.seat, step.outcome.action)
    assert again.state == step.outcome.state
    assert [e.text for e in again.events] == [e.text for e in step.outcome.events]


@pytest.mark.parametrize("seed", range(4))
def test_whole_games_keep_every_candy_and_card_in_one_place(seed: int):
    players = 2 + seed % 3

    def each(step: Step) -> None:
        check_candies(step.outcome.state)
        check_cards(step.outcome.state)
        check_public_lines(step)
        if step.outcome.state["round"] != step.before["round"]:
            check_determinism(step)

    final, log = play(GAME, seed + 40, players, frozenset({1}) if seed % 2 else frozenset(), each)
    assert GAME.result(final) is not None
    assert final["round"] == final["rounds"] and final["deck"] == []
    assert len(final["history"]) == final["rounds"]
    assert loads(dumps(final), GAME) == final
    assert GAME.replay(seats_for(GAME, players), seed + 40, None, log) == final


@pytest.mark.slow  # a match of whole AI games
def test_the_ai_beats_random_players_in_most_games():
    assert win_rate_vs_random(GAME, 6, 3) >= 0.67
