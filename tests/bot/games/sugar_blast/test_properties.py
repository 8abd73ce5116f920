"""Properties of Sugar Blast over many random and AI games (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.engine import (
    AmbiguousActionError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    dumps,
    loads,
)
from bot.games.sugar_blast import board as bd
from tests.support.playthrough import Step, play, seats_for
from tests.support.sugar_blast_boards import GAME, chip_total

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
def test_an_illegal_action_is_refused_with_the_reason_a_player_needs(game, text, seat):
    seed, players, _randoms = game
    state = GAME.new(seats_for(GAME, players), seed)
    seat %= players
    reasons = {
        "swap a1 c3": "not next to each other",
        "keep corn": "swap two neighbouring candies",
        "blast a1-c1": "swap two neighbouring candies",
    }
    for candidate in (text, *reasons):
        try:
            outcome = GAME.apply(state, seat, candidate)
        except NotYourTurnError as err:
            assert seat not in GAME.to_act(state) and "waiting for" in str(err)
        except (NotationError, IllegalActionError, AmbiguousActionError) as err:
            assert seat in GAME.to_act(state) or isinstance(err, NotationError)
            if candidate in reasons and seat in GAME.to_act(state) and state["phase"] == "swap":
                assert reasons[candidate] in str(err).lower(), str(err)
        else:
            assert outcome.action in GAME.legal_actions(state, seat)


def _assert(condition: bool) -> None:
    assert condition


@settings(max_examples=30, deadline=None)
@given(games)
def test_a_game_ends_only_by_an_objective_or_with_the_bag_empty(game):
    seed, players, randoms = game
    final, _ = play(GAME, seed, players, frozenset(randoms))
    assert final["winner"] is not None or sum(final["bag"].values()) == 0
