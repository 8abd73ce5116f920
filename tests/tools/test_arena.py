"""AI-against-random games: the win rate counts what it says it counts."""

from __future__ import annotations

from bot.games.engine import Engine, Result
from tests.support.decision_game import BakeOff
from tools.arena import game_length, win_rate_vs_random


class SeatZeroWins(BakeOff):
    """Bake-off whose result always puts seat 0 first."""

    def _result(self, state):
        base = super()._result(state)
        if base is None:
            return None
        others = tuple(range(1, len(state["seats"])))
        return Result(((0,), others), base.scores, "Seat 0 wins.")


class EverybodyWins(BakeOff):
    def _result(self, state):
        base = super()._result(state)
        if base is None:
            return None
        return Result((tuple(range(len(state["seats"]))),), base.scores, "A shared victory.")


def test_the_ai_seat_turns_round_the_table_from_game_to_game():
    # The AI sits in seat n % players: with seat 0 always winning, it wins 1 game in `players`.
    assert win_rate_vs_random(Engine(SeatZeroWins()), 4, 2) == 0.5
    assert win_rate_vs_random(Engine(SeatZeroWins()), 6, 3) == 2 / 6


def test_a_shared_victory_counts_as_a_win():
    assert win_rate_vs_random(Engine(EverybodyWins()), 3, 3) == 1.0


def test_games_are_played_to_their_end_and_their_moves_counted():
    # Bake-off: three rounds; each round 2 secret steps per seat plus at most 3 bake answers.
    length = game_length(Engine(BakeOff()), 3, 2)
    assert 3 * 4 <= length <= 3 * (4 + 3)
