"""Balance figures from whole games between AI seats.

``python -m tools.balance.sugarworks 40`` plays 40 games at each player count
and prints the tables that the rules document quotes: the game's shape, then the
"livelier Sugarworks" figures (factory actions chosen, the blanket orders' share
of the stars, players who fill no order) under the current rules and rules 1.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from statistics import mean

from bot.games.engine import Engine, SeatInfo, playing
from bot.games.sugarworks import GAME


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
    #: Share of factory actions that were adjust / conveyor / make.
    adjust: float = 0.0
    conveyor: float = 0.0
    make: float = 0.0
    #: Blanket orders' share of all stars scored.
    blanket_share: float = 0.0
    #: Share of players who filled no order at all.
    no_order: float = 0.0
    rules: int = 0

    def row(self) -> str:
        return (f"| {self.players} | {self.games} | {self.rounds:.1f} | {self.moves:.0f} | "
                f"{self.winner:.1f} | {self.last:.1f} | {self.spread:.1f} | "
                f"{self.shipped:.2f} | {self.lost:.2f} | {self.bonks:.2f} | "
                f"{self.on_board:.1f} | {self.made:.2f} | {self.filled:.1f} | "
                f"{self.first_seat_wins:.0%} |")


    def lively_row(self) -> str:
        return (f"| {self.rules} | {self.players} | {self.games} | {self.bonks:.2f} | "
                f"{self.adjust:.0%} | {self.conveyor:.0%} | {self.make:.0%} | "
                f"{self.blanket_share:.1%} | {self.no_order:.0%} | {self.on_board:.1f} |")


LIVELY_HEADER = ("| Rules | Players | Games | Bonks! / round | Adjust | Conveyor | Make "
                 "| Blanket ★ share | Players filling no order | Candies on the floor |\n"
                 "|---|---|---|---|---|---|---|---|---|---|")

HEADER = ("| Players | Games | Rounds | Moves | Winner ★ | Last ★ | Spread ★ | Shipped / round "
          "| Lost / round | Bonks! / round | Candies on the floor | Candies made / round "
          "| Orders filled / game | Seat 1 wins |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def simulate(games: int, players: int, game: Engine = GAME,
             rules: int | None = None) -> Figures:
    """Play ``games`` whole games with AI seats only (seeds 0..games-1) under ``rules``."""
    rules = rules or game.rules_version
    rows = []
    factory = {"adjust": 0, "conveyor": 0, "make": 0}
    stars = {"blanket": 0, "all": 0}
    no_order = 0
    for seed in range(games):
        state = game.new([SeatInfo(f"AI {i}", ai=True) for i in range(players)], seed,
                         None, rules)
        moves = made = 0
        for _seat, outcome in playing(game, state):
            verb = outcome.action.notation.split(" ")[0]
            if verb in factory:
                factory[verb] += 1
            made += verb == "make"
            state = outcome.state
            moves += 1
        for points in state["points"]:
            stars["blanket"] += points["blanket"]
            stars["all"] += points["orders"] + points["shipping"] + points["blanket"]
        no_order += sum(1 for done in state["completed"] if not done)
        history = state["history"]
        scores = sorted(game.rules.scores(state).values())
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

    actions = sum(factory.values()) or 1
    return Figures(players, games, avg("rounds"), avg("moves"), avg("winner"), avg("last"),
                   avg("winner") - avg("last"), avg("shipped"), avg("lost"), avg("bonks"),
                   avg("on_board"), avg("filled"), avg("made"), avg("first"),
                   factory["adjust"] / actions, factory["conveyor"] / actions,
                   factory["make"] / actions, stars["blanket"] / (stars["all"] or 1),
                   no_order / (games * players), rules)


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 20
    game = GAME
    print(HEADER)
    lively = []
    for players in (2, 3, 4):
        figures = simulate(games, players, game)
        print(figures.row())
        lively.append(figures)
    lively += [simulate(games, players, game, rules) for rules in game.older_rules
               for players in (2, 3, 4)]
    print()
    print(LIVELY_HEADER)
    for figures in sorted(lively, key=lambda f: (f.players, f.rules)):
        print(figures.lively_row())


if __name__ == "__main__":
    main(sys.argv[1:])
