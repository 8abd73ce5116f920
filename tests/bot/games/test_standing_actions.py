"""Standing actions (see docs/engine.md) are never turns, in every game that has them."""

from __future__ import annotations

import pytest

from bot.games import GAMES
from bot.games.engine import Engine
from tests.support.playthrough import Step, play

WITH_STANDING = [GAMES["kingdoms-candy-monsters"]]


@pytest.mark.parametrize("game", WITH_STANDING, ids=lambda g: g.slug)
@pytest.mark.parametrize("seed", range(2))
def test_a_standing_action_changes_no_turn_no_decision_and_no_chance(game: Engine, seed: int):
    taken = 0

    def check(step: Step) -> None:
        nonlocal taken
        state = step.before
        players = len(state["seats"])
        for seat in range(players):
            for action in game.standing(state, seat):
                assert game.parse(state, seat, action.notation) == action
                outcome = game.apply(state, seat, action)
                after = outcome.state
                assert game.to_act(after) == game.to_act(state)
                assert after["decisions"] == state["decisions"]
                assert after["rng"] == state["rng"] and outcome.undoable
                for other in range(players):
                    if other != seat:
                        assert game.token(after, other) == game.token(state, other)
                assert game.token(after, seat) != game.token(state, seat)
                taken += 1

    play(game, 40 + seed, 3, frozenset({2}), check)
    assert taken
