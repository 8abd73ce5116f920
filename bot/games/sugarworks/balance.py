"""Balance figures from whole games between AI seats.

``python -m bot.games.sugarworks.balance 40`` plays 40 games at each player count
and prints the table that the rules document quotes.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from statistics import mean

from bot.games.engine import SeatInfo
from bot.games.sugarworks.rules import Sugarworks


@dataclass
class Figures:
    """Averages over a batch of AI games at one player count."""

    players: int
    games: int
    rounds: float
    moves: float
    winner: float
    last: float
    spread: float
    shipped: float
    lost: float
    bonks: float
    on_board: float
    filled: float
    made: float
    first_seat_wins: float

    def row(self) -> str:
        return (f"| {self.players} | {self.games} | {self.rounds:.1f} | {self.moves:.0f} | "
                f"{self.winner:.1f} | {self.last:.1f} | {self.spread:.1f} | "
                f"{self.shipped:.2f} | {self.lost:.2f} | {self.bonks:.2f} | "
                f"{self.on_board:.1f} | {self.made:.2f} | {self.filled:.1f} | "
                f"{self.first_seat_wins:.0%} |")


HEADER = ("| Players | Games | Rounds | Moves | Winner ★ | Last ★ | Spread ★ | Shipped / round "
          "| Lost / round | Bonks! / round | Candies on the floor | Candies made / round "
          "| Orders filled / game | Seat 1 wins |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def simulate(games: int, players: int, game: Sugarworks | None = None) -> Figures:
    """Play ``games`` whole games with AI seats only (seeds 0..games-1)."""
    game = game or Sugarworks()
    rows = []
    for seed in range(games):
        state = game.new([SeatInfo(f"AI {i}", ai=True) for i in range(players)], seed)
        moves = made = 0
        while game.to_act(state):
            (seat,) = game.to_act(state)
            action = game.ai_action(state, seat)
            made += action.notation.startswith("make ")
            state = game.apply(state, seat, action).state
            moves += 1
        history = state["history"]
        scores = sorted(game.scores(state).values())
        result = game.result(state)
        assert result is not None
        rows.append({
            "rounds": len(history), "moves": moves, "winner": scores[-1], "last": scores[0],
            "shipped": mean(h["shipped"] for h in history),
            "lost": mean(h["lost"] for h in history),
            "bonks": mean(h["bonks"] for h in history),
            "on_board": mean(h["on_board"] for h in history),
            "filled": sum(len(c) for c in state["completed"]),
            "made": made / len(history),
            "first": 0 in result.ranking[0],
        })

    def avg(key: str) -> float:
        return mean(float(r[key]) for r in rows)

    return Figures(players, games, avg("rounds"), avg("moves"), avg("winner"), avg("last"),
                   avg("winner") - avg("last"), avg("shipped"), avg("lost"), avg("bonks"),
                   avg("on_board"), avg("filled"), avg("made"), avg("first"))


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 20
    print(HEADER)
    for players in (2, 3, 4):
        print(simulate(games, players).row())


if __name__ == "__main__":
    main(sys.argv[1:])
