"""Kingdom's Candy Monsters over many seeded games at 2 to 5 players: tokens and cards are
conserved, the game always ends with the 4th Black Candy, replays are exact, and the AI
beats random players. (The engine contract at every step is
tests/bot/games/test_invariants.py's.)"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.candy_monsters import CandyMonsters, cards
from bot.games.engine import Engine, dumps, loads
from tests.bot.games.candy_monsters.test_rules import check_whole
from tests.support.playthrough import Step, play, seats_for
from tools.arena import win_rate_vs_random

GAME = Engine(CandyMonsters())


def check_game(seed: int, players: int, random_seats: frozenset[int]) -> None:
    """Play one game checking what is conserved at every step."""
    black_candies = [0]

    def on_step(step: Step) -> None:
        after = step.outcome.state
        check_whole(after)
        drawn = [c for c in after["drawn"] if cards.is_black_candy(c)]
        assert after["black_candies"] in (len(drawn), len(drawn) - 1)
        assert after["black_candies"] >= black_candies[0]
        black_candies[0] = after["black_candies"]
        if after["final"] is not None:
            assert after["black_candies"] == 4
        else:
            assert after["black_candies"] < 4
        for event in step.outcome.events:
            if event.to is None:
                for seat in range(players):
                    for secret in GAME.rules.secrets(after, seat):
                        assert secret not in event.text

    final, log = play(GAME, seed, players, random_seats, on_step)
    assert final["final"] is not None and GAME.result(final) is not None
    assert cards.is_black_candy(final["drawn"][-1])
    assert loads(dumps(final), GAME) == final
    assert GAME.replay(seats_for(GAME, players), seed, None, log) == final


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_games_at_every_player_count_conserve_everything(players: int):
    check_game(100 + players, players, frozenset({1}))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5),
       randoms=st.sets(st.integers(0, 4), max_size=3))
def test_any_seeded_game_conserves_sugar_black_cubes_candy_and_cards(seed: int, players: int,
                                                                    randoms: set[int]):
    check_game(seed, players, frozenset(s for s in randoms if s < players))


@pytest.mark.slow  # a match of whole AI games
def test_the_ai_beats_random_players_in_most_three_player_games():
    assert win_rate_vs_random(GAME, 12, 3) >= 0.75
