"""Whole seeded games with power cards: every single card, random pairs and all 66 pairs."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.engine import SeatInfo, State, dumps, loads
from bot.games.rng import Rng
from bot.games.sugar_blast import board as bd
from bot.games.sugar_blast import powers as pw
from tests.support.sugar_blast_boards import GAME, chip_total, token_total

CARDS = pw.ids()
PAIRS = [f"{a} + {b}" for a, b in itertools.combinations(CARDS, 2)]
MOVE_BOUND = 3000


def seats(players: int) -> list[SeatInfo]:
    return [SeatInfo(f"P{i}", ai=True) for i in range(players)]


def turn_passed(before: State, after: State) -> bool:
    """The move ended a turn: the next seat (or the same one by a Sugar Rush) starts afresh."""
    if after["ended"]:
        return True
    if GAME.top(after) is not None:
        return False
    started_again = after["power"]["extra"] and not before["power"]["extra"]
    return after["turn"] != before["turn"] or started_again


def play_checked(option: str, seed: int, players: int, random_seats: frozenset[int],
                 full: bool = True) -> tuple[State, list[tuple[int, str]]]:
    """Play to the end, checking after every move what must always hold with power cards."""
    state = GAME.new(seats(players), seed, {"power": option})
    pick = Rng.from_seed(seed * 31 + 7)
    log: list[tuple[int, str]] = []
    for _ in range(MOVE_BOUND):
        actors = sorted(GAME.to_act(state))
        if not actors:
            return state, log
        seat = actors[0]
        legal = GAME.legal_actions(state, seat)
        assert legal, f"seat {seat} must act but has no legal move and no way out"
        action = pick.choice(legal) if seat in random_seats else GAME.ai_action(state, seat)
        after = GAME.apply(state, seat, action).state
        log.append((seat, action.notation))
        assert chip_total(after) == 72, "the 72 chips are always all somewhere"
        expected = {c: pw.card(c)["tokens"] for c in after["power"]["cards"]}
        assert token_total(after) == expected, "every token is always somewhere"
        if full and turn_passed(state, after) and after["winner"] is None:
            assert not bd.has_blast(after["board"], GAME.rules._rules(after)), \
                f"a Blast was left at the end of a turn ({option}, seed {seed})"
        state = after
    raise AssertionError(f"{option} (seed {seed}) did not end within {MOVE_BOUND} moves")


@pytest.mark.parametrize("card", CARDS)
def test_every_single_card_keeps_chips_tokens_and_turns_in_order_and_replays(card):
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        final, log = play_checked(card, seed, players, frozenset({1}) if seed % 2 else frozenset())
        assert final["winner"] is not None or sum(final["bag"].values()) == 0
        assert loads(dumps(final)) == final
        assert GAME.replay(seats(players), seed, {"power": card}, log) == final


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(PAIRS), st.integers(0, 2**31), st.integers(2, 4))
def test_random_pairs_keep_chips_tokens_and_turns_in_order_and_replay(pair, seed, players):
    final, log = play_checked(pair, seed, players, frozenset({0}))
    assert GAME.replay(seats(players), seed, {"power": pair}, log) == final


def test_no_two_cards_together_stop_the_game_from_ending_or_strand_a_player():
    # One short game per pair, an AI against a random player: every position
    # offers the player to act a legal move, and every game reaches its end.
    for i, pair in enumerate(PAIRS):
        final, _ = play_checked(pair, 1000 + i, 2, frozenset({i % 2}), full=False)
        assert GAME.result(final) is not None


@pytest.mark.parametrize("option", ["random 1", "random 2"])
def test_random_power_options_play_through(option):
    final, log = play_checked(option, 77, 3, frozenset())
    assert GAME.replay(seats(3), 77, {"power": option}, log) == final
