"""Whole games between the AI and other players: balance figures and the bench.

The others are either players who choose at random, or the **greedy baseline**: a
player that tries each of its legal moves (up to :data:`GREEDY_WIDTH` of them) in the
world as it may know it (:meth:`~bot.games.engine.Engine.known_to`) and keeps the one
after which its own visible score is highest, breaking ties at random.

Pure and deterministic like the rules: game ``n`` uses seed ``seed_base + n``, the
AI sits in seat ``n % players`` (so sitting first favours nobody), and the other
players draw from a generator seeded per game.
"""

from __future__ import annotations

from typing import Any

from bot.games.engine import Action, Engine, GameError, SeatInfo, State, play_out
from bot.games.rng import Rng

#: The most moves the greedy baseline tries in one turn (a sample when there are more).
GREEDY_WIDTH = 40


def greedy_action(game: Engine, state: State, seat: int, rng: Rng, *,
                  peek: bool = False) -> Action:
    """The greedy baseline's move: the best own score one move ahead, ties at random, at
    most :data:`GREEDY_WIDTH` moves tried. It plays them in the world as ``seat`` may
    know it (so it never reads a hidden card or the dice to come); with ``peek``, in the
    real state, so it sees the refill or die its move is about to draw."""
    legal = game.legal_actions(state, seat)
    tried = list(legal)
    if len(tried) > GREEDY_WIDTH:
        rng.shuffle(tried)
        tried = tried[:GREEDY_WIDTH]
    world = state if peek else game.known_to(state, seat)
    best: list[Action] = []
    top = float("-inf")
    for action in tried:
        try:
            after = game.apply(world, seat, action.notation).state
        except GameError:
            continue
        score = float(game.rules.scores(after).get(seat, 0))
        if score > top:
            top, best = score, [action]
        elif score == top:
            best.append(action)
    return rng.choice(best or legal)


def win_rate_vs_random(game: Engine, games: int, players: int,
                       options: dict[str, Any] | None = None, seed_base: int = 0) -> float:
    """Share of ``games`` the AI wins (alone or shared, as the rulebooks share victories)
    against ``players - 1`` players choosing uniformly among their legal moves."""
    return win_rate(game, games, players, "random", options, seed_base)


def win_rate(game: Engine, games: int, players: int, against: str = "random",
             options: dict[str, Any] | None = None, seed_base: int = 0) -> float:
    """Share of ``games`` the AI wins (alone or shared) against ``players - 1`` others
    playing ``against``: ``"random"`` (uniform among legal moves) or ``"greedy"``."""
    if against not in ("random", "greedy"):
        raise ValueError(f"unknown opponent {against!r}")
    wins = 0
    for n in range(games):
        ai_seat = n % players
        seed = seed_base + n
        pick = Rng.from_seed(10_000 + seed)

        def choose(state: State, seat: int, ai_seat: int = ai_seat, pick: Rng = pick) -> Action:
            if seat == ai_seat:
                return game.ai_action(state, seat)
            if against == "greedy":
                return greedy_action(game, state, seat, pick)
            return pick.choice(game.legal_actions(state, seat))

        seats = [SeatInfo(f"Seat {i + 1}", ai=i == ai_seat) for i in range(players)]
        final = play_out(game, game.new(seats, seed, options), choose)
        result = game.result(final)
        assert result is not None
        wins += ai_seat in result.winners
    return wins / games


def game_length(game: Engine, games: int, players: int,
                options: dict[str, Any] | None = None, seed_base: int = 0) -> float:
    """Average number of moves of ``games`` games between AI players only."""
    moves = 0
    for n in range(games):
        seats = [SeatInfo(f"Seat {i + 1}", ai=True) for i in range(players)]
        final = play_out(game, game.new(seats, seed_base + n, options))
        moves += final["move"]
    return moves / games
