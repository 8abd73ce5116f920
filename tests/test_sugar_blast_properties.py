"""Properties of Sugar Blast over many random and AI games (hypothesis)."""

from __future__ import annotations

import contextlib
import copy

from hypothesis import given, settings
from hypothesis import strategies as st
from playthrough import Step, play, seats_for
from sugar_blast_boards import GAME, chip_total

from bot.games.engine import GameError, dumps, loads
from bot.games.sugar_blast import board as bd

games = st.tuples(st.integers(0, 2**32 - 1), st.integers(2, 4),
                  st.sets(st.integers(0, 3), max_size=4))


def turn_ended(step: Step) -> bool:
    """The move handed the turn to the next player (or ended the game)."""
    after = step.outcome.state
    return after["ended"] or after["turn"] != step.before["turn"]


@settings(max_examples=40, deadline=None)
@given(games)
def test_all_72_chips_are_always_somewhere(game):
    seed, players, randoms = game
    play(GAME, seed, players, frozenset(randoms),
         lambda step: _assert(chip_total(step.outcome.state) == 72))


@settings(max_examples=40, deadline=None)
@given(games)
def test_no_line_of_three_is_left_when_a_turn_ends(game):
    seed, players, randoms = game

    def check(step: Step) -> None:
        after = step.outcome.state
        if turn_ended(step) and after["winner"] is None:
            assert not bd.has_line(after["board"])

    play(GAME, seed, players, frozenset(randoms), check)


@settings(max_examples=40, deadline=None)
@given(games)
def test_board_is_full_when_a_turn_ends_unless_the_bag_is_empty(game):
    seed, players, randoms = game

    def check(step: Step) -> None:
        after = step.outcome.state
        if turn_ended(step) and after["winner"] is None:
            gaps = sum(row.count(None) for row in after["board"])
            assert gaps == 0 or sum(after["bag"].values()) == 0

    play(GAME, seed, players, frozenset(randoms), check)


@settings(max_examples=25, deadline=None)
@given(games)
def test_json_round_trip_and_replay_are_exact(game):
    seed, players, randoms = game
    final, log = play(GAME, seed, players, frozenset(randoms),
                      lambda step: _assert(loads(dumps(step.outcome.state)) == step.outcome.state))
    assert GAME.replay(seats_for(GAME, players), seed, None, log) == final


@settings(max_examples=40, deadline=None)
@given(games, st.text(max_size=12), st.integers(0, 3))
def test_an_illegal_action_never_changes_the_state(game, text, seat):
    seed, players, _randoms = game
    state = GAME.new(seats_for(GAME, players), seed)
    for candidate in (text, "swap a1 a2", "swap a1 c3", "keep corn", "replace f6", "blast a1-c1"):
        before = copy.deepcopy(state)
        with contextlib.suppress(GameError):
            GAME.apply(state, seat % players, candidate)
        assert state == before


def _assert(condition: bool) -> None:
    assert condition


@settings(max_examples=30, deadline=None)
@given(games)
def test_a_game_ends_only_by_an_objective_or_with_the_bag_empty(game):
    seed, players, randoms = game
    final, _ = play(GAME, seed, players, frozenset(randoms))
    assert final["winner"] is not None or sum(final["bag"].values()) == 0
