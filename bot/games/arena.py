"""Whole games between the AI and players who choose at random: balance figures and the bench.

Pure and deterministic like the rules: game ``n`` uses seed ``seed_base + n``, the
AI sits in seat ``n % players`` (so sitting first favours nobody), and the random
players draw from a generator seeded per game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.engine import Action, Game, SeatInfo, State
from bot.games.rng import Rng

Chooser = Callable[[State, int], Action]


def play_out(game: Game, state: State, choose: Chooser, max_moves: int = 20_000) -> State:
    """Play ``state`` to the end; the lowest seat that may act moves first."""
    for _ in range(max_moves):
        acting = game.to_act(state)
        if not acting:
            return state
        seat = min(acting)
        state = game.apply(state, seat, choose(state, seat)).state
    raise RuntimeError(f"{game.title} did not end within {max_moves} moves")


def win_rate_vs_random(game: Game, games: int, players: int,
                       options: dict[str, Any] | None = None, seed_base: int = 0) -> float:
    """Share of ``games`` the AI wins (alone or shared, as the rulebooks share victories)
    against ``players - 1`` players choosing uniformly among their legal moves."""
    wins = 0
    for n in range(games):
        ai_seat = n % players
        seed = seed_base + n
        pick = Rng.from_seed(10_000 + seed)

        def choose(state: State, seat: int, ai_seat: int = ai_seat, pick: Rng = pick) -> Action:
            if seat == ai_seat:
                return game.ai_action(state, seat)
            return pick.choice(game.legal_actions(state, seat))

        seats = [SeatInfo(f"Seat {i + 1}", ai=i == ai_seat) for i in range(players)]
        final = play_out(game, game.new(seats, seed, options), choose)
        result = game.result(final)
        assert result is not None
        wins += ai_seat in result.winners
    return wins / games


def game_length(game: Game, games: int, players: int,
                options: dict[str, Any] | None = None, seed_base: int = 0) -> float:
    """Average number of moves of ``games`` games between AI players only."""
    moves = 0
    for n in range(games):
        seats = [SeatInfo(f"Seat {i + 1}", ai=True) for i in range(players)]
        final = play_out(game, game.new(seats, seed_base + n, options), game.ai_action)
        moves += final["move"]
    return moves / games
