"""Rules 3 of Sugar Heist: stopping power grows with cost, Haunted Vacuum can be paid
from small pools, and the AI values cards by what they do (docs/rules/sugar-heist.md)."""

from __future__ import annotations

from bot.games.engine import State
from bot.games.sugar_heist import GAME, cards, worth
from bot.games.sugar_heist.ai import ranked
from tests.support.sugar_heist_helpers import (
    act,
    arrange_track,
    dice,
    everybody_passes,
    new_game,
    put,
    take,
)
from tools.balance.sugar_heist import card_figures

__all__ = ["dice"]


def _tiers(figures: dict[str, dict[str, float]]) -> dict[int, tuple[float, float]]:
    """Encounters by cost: stop rate and candy cost over all the rooms they were met in."""
    designs = cards.hideout_cards()
    out = {}
    for cost in (1, 2, 3):
        keys = [k for k in figures if k in designs and designs[k]["cost"] == cost
                and designs[k]["kind"] == "encounter"]
        met = sum(figures[k]["met"] for k in keys)
        assert met > 0, f"no ${cost} encounter met"
        out[cost] = (sum(figures[k]["stop_rate"] * figures[k]["met"] for k in keys) / met,
                     sum(figures[k]["candy_cost"] * figures[k]["met"] for k in keys) / met)
    return out


def test_dearer_encounters_stop_more_heists_and_cost_attackers_more_candy():
    # Twelve fixed 3-player games between AI seats. Under the rules 2 cards the $1
    # encounters ended more of the heists that met them than the $2 ones (Sleeping Cat).
    tiers = _tiers(card_figures(12, 3, seed=1000))
    assert tiers[1][0] < tiers[2][0] < tiers[3][0]
    assert tiers[1][1] < tiers[2][1] < tiers[3][1]
    assert tiers[3][0] > 0.4 and tiers[1][0] < 0.15


def test_haunted_vacuum_can_be_paid_from_a_pool_of_four_dice():
    vacuum = cards.hideout_cards()["haunted-vacuum"]
    old = cards.hideout_cards(2)["haunted-vacuum"]
    # After losing its highest die, a pool of four keeps three: two pairs never fit.
    assert worth.pay_chance(old["challenge"], old["effect"], 4) == 0
    assert worth.pay_chance(vacuum["challenge"], vacuum["effect"], 4) > 0.5
    assert worth.pay_chance(vacuum["challenge"], vacuum["effect"], 3) > 0.2


def _vacuum_in_room_two(dice: list[int], rules: int) -> State:
    """Bob's room 1 is his board's Pillow Avalanche (a die of 4 or more), room 2 a
    face-up Haunted Vacuum; Alice rolls 1 1 2 2 3 6 and spends 3 and 6 in room 1."""
    state = new_game()
    state["rules"] = rules
    arrange_track(state, [0, 1, 2])
    put(state, 1, 2, "haunted-vacuum", up=True)
    dice.extend([1, 1, 2, 2, 3, 6])
    state = everybody_passes(state)
    return act(state, 0, "pay 3 6")


def test_a_pool_of_four_pays_haunted_vacuum_under_rules_three(dice):
    state = _vacuum_in_room_two(dice, GAME.rules_version)
    assert state["heist"]["room"] == 1 and state["heist"]["attacker"] == 0
    assert state["heist"]["pool"] == [1, 1, 2], "the vacuum took the highest die"
    state = act(state, 0, "pay 1 1")
    # Room 3 (Pillow Avalanche again) takes the last die as bad stuff; Alice gets through.
    record = state["heists"][-1]
    assert record["attacker"] == 0 and record["cleared"] == 2 and record["passed"]


def test_a_stored_rules_two_game_keeps_its_unpayable_vacuum(dice):
    state = _vacuum_in_room_two(dice, 2)
    # Two pairs from 1 1 2 cannot be paid: the bad stuff ends Alice's heist at once.
    record = state["heists"][-1]
    assert record["attacker"] == 0 and not record["passed"] and record["rooms"] == 2


def _hand(keys: list[str]) -> State:
    """Round 1's prep, Alice to buy, her hand replaced by ``keys``."""
    state = new_game()
    arrange_track(state, [0, 1, 2])
    player = state["players"][0]
    for card_id in player["hand"]:
        state["decks"][str(cards.design(card_id)["cost"])].append(card_id)
    player["hand"] = sorted(take(state, k) for k in keys)
    return state


def _builds(state: State) -> list[str]:
    """The builds in the AI's order (autocomplete lists the cheapest first instead)."""
    best = ranked(GAME.view(state, 0), GAME.legal_actions(state, 0))
    return [a.notation for a in best if a.notation.startswith("build ")]


def test_the_ai_values_a_cheap_card_that_does_more_above_a_dear_one_that_does_less():
    # "Sum 6 or more" is paid by nearly any pool; two even dice often are not.
    builds = _builds(_hand(["toothpick-pit", "sleeping-cat"]))
    assert builds[0].startswith("build sleeping cat")
    assert builds.index("build sleeping cat room 1") < builds.index("build toothpick pit room 1")


def test_the_ai_puts_a_stopping_card_where_attackers_bring_fewest_dice():
    state = _hand(["haunted-vacuum"])
    assert _builds(state)[0] == "build haunted vacuum room 3"


def test_the_ai_keeps_its_money_rather_than_build_a_mod_that_does_nothing_here():
    # Rerolling sixes barely troubles a Pillow Avalanche: passing (and its $2) is worth more.
    state = _hand(["flashlight-beam"])
    ranked = [a.notation for a in GAME.rules.rank_actions(state, 0, GAME.legal_actions(state, 0))]
    assert ranked.index("pass") < min(ranked.index(b) for b in _builds(state))
