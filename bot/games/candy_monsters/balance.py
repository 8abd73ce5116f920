"""Balance figures from all-AI games: scores, purchases, starving monsters, game length.

Run: ``python -m bot.games.candy_monsters.balance 60`` (games per player count).
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

from bot.games.candy_monsters import cards
from bot.games.candy_monsters.rules import CandyMonsters
from bot.games.engine import SeatInfo, State


def play_ai_game(game: CandyMonsters, players: int, seed: int) -> tuple[State, list[Any]]:
    """One all-AI game; returns the final state and every outcome."""
    state = game.new([SeatInfo(f"P{i}", ai=True) for i in range(players)], seed)
    outcomes = []
    while game.to_act(state):
        seat = min(game.to_act(state))
        outcome = game.apply(state, seat, game.ai_action(state, seat))
        outcomes.append(outcome)
        state = outcome.state
    return state, outcomes


def balance(games: int, players: int, seed: int = 0) -> dict[str, Any]:
    """Figures over ``games`` all-AI games of ``players`` seats."""
    game = CandyMonsters()
    bought: Counter[str] = Counter()
    winners_had: Counter[str] = Counter()
    kept = tucked = let_go = black_at_feeding = fed_monsters = 0
    spreads, winning, losing, rounds, moves = [], [], [], [], []
    seat_wins: Counter[int] = Counter()
    for g in range(games):
        state, outcomes = play_ai_game(game, players, seed + g)
        result = game.result(state)
        assert result is not None
        totals = sorted(result.scores.values())
        spreads.append(totals[-1] - totals[0])
        winning.append(totals[-1])
        losing.append(totals[0])
        rounds.append(game.round_of(state))
        moves.append(state["move"])
        for s in result.winners:
            seat_wins[(s - _first_of(state)) % players] += 1
        for outcome in outcomes:
            for event in outcome.events:
                if event.kind == "buy":
                    name = event.text.split(" bought ")[1].split(" for ")[0].split(" (")[0]
                    bought[name] += 1
                elif event.kind == "keep":
                    kept += 1
                elif event.kind == "tuck":
                    tucked += 1
        for outcome in outcomes:
            report = outcome.state.get("last_feeding")
            if report and outcome.events and any(e.kind == "feed" for e in outcome.events):
                for seat_report in report.values():
                    for _monster, how, _s, _c, black in seat_report["meals"]:
                        fed_monsters += 1
                        let_go += how == "go"
                        black_at_feeding += black > 0
        for s in result.winners:
            p = state["players"][s]
            for m in p["monsters"]:
                winners_had[cards.card(m["card"]).name] += 1
                for a in m["tucked"]:
                    winners_had[cards.card(a).name] += 1
            for a in p["kept"]:
                winners_had[cards.card(a).name] += 1
    n = games
    return {
        "players": players, "games": n,
        "winning_score": sum(winning) / n, "lowest_score": sum(losing) / n,
        "spread": sum(spreads) / n, "rounds": sum(rounds) / n, "moves": sum(moves) / n,
        "starved_share": (let_go + black_at_feeding) / max(1, fed_monsters),
        "let_go_per_game": let_go / n, "short_fed_per_game": black_at_feeding / n,
        "kept_share": kept / max(1, kept + tucked),
        "bought_per_game": {k: v / n for k, v in bought.most_common()},
        "winners_had": dict(winners_had.most_common()),
        "wins_by_position": {k: seat_wins[k] / n for k in range(players)},
    }


def _first_of(state: State) -> int:
    """The seat that held the first player card in round 1."""
    return int(state["opening"])


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 40
    counts = [int(a) for a in argv[2:]] or [2, 3, 4, 5]
    for players in counts:
        figures = balance(games, players, seed=1000 * players)
        print(f"{players} players, {games} games:")
        for key, value in figures.items():
            if isinstance(value, dict):
                shown = ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}"
                                  for k, v in list(value.items())[:40])
                print(f"  {key}: {shown}")
            elif isinstance(value, float):
                print(f"  {key}: {value:.2f}")
            else:
                print(f"  {key}: {value}")


if __name__ == "__main__":
    main(sys.argv)
