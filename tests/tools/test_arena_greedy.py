"""The greedy baseline: one move ahead on its own visible score, from what it may know."""

from __future__ import annotations

import pytest

from bot.games import GAMES, get_game
from bot.games.rng import Rng
from tests.support.playthrough import play
from tools.arena import greedy_action, win_rate

pytestmark = pytest.mark.slow  # many whole AI games


@pytest.mark.parametrize("game", [g for g in sorted(GAMES.values(), key=lambda g: g.slug)
                                  if g.has_hidden_information], ids=lambda g: g.slug)
def test_the_greedy_baseline_moves_the_same_in_every_world_it_cannot_tell_apart(game):
    compared = 0

    def compare(step) -> None:
        nonlocal compared
        state = step.outcome.state
        acting = sorted(game.to_act(state))
        if compared >= 5 or not acting or not game.rules._hidden(state):
            return
        seat = acting[0]
        chosen = greedy_action(game, state, seat, Rng.from_seed(1)).notation
        assert chosen in {a.notation for a in game.legal_actions(state, seat)}
        for n in range(2):
            twin = game.resample(state, seat, Rng.from_seed(n))
            assert greedy_action(game, twin, seat, Rng.from_seed(1)).notation == chosen
        compared += 1

    play(game, 2, game.min_seats, on_step=compare)
    assert compared == 5


def test_the_sugar_heist_ai_beats_the_greedy_baseline_well_above_its_fair_share():
    # 98% of 100 three-player games (docs/rules/sugar-heist.md); the fair share is a third.
    assert win_rate(get_game("sugar-heist"), 6, 3, "greedy", seed_base=500) >= 4 / 6


def test_an_unknown_opponent_is_refused():
    with pytest.raises(ValueError, match="unknown opponent"):
        win_rate(get_game("sugar-blast"), 1, 2, "clever")
