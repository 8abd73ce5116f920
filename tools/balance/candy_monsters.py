"""Balance figures from all-AI games: scores, purchases, starving monsters, game length.

Run: ``python -m tools.balance.candy_monsters 60`` (games per player count);
``python -m tools.balance.candy_monsters cards 100 3`` for the per-card figures
(bought, used, effect on score) and ``... duel 100 3`` for the full AI against the
same AI that never buys an ability.
"""

from __future__ import annotations

import hashlib
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from bot.games.candy_monsters import GAME, cards
from bot.games.candy_monsters.ai import choose
from bot.games.candy_monsters.rules import CandyMonsters
from bot.games.engine import Action, Engine, SeatInfo, State, play_out, playing, round_of
from bot.games.rng import Rng


def play_ai_game(game: Engine, players: int, seed: int) -> tuple[State, list[Any]]:
    """One all-AI game; returns the final state and every outcome."""
    state = game.new([SeatInfo(f"P{i}", ai=True) for i in range(players)], seed)
    outcomes = [outcome for _seat, outcome in playing(game, state)]
    return (outcomes[-1].state if outcomes else state), outcomes


def no_ability_action(game: Engine, state: State, seat: int) -> Action:
    """The AI's move when it may never buy an ability (otherwise the same AI and view)."""
    legal = game.legal_actions(state, seat)
    shown = {CandyMonsters.buy_notation(c) for c in state["market"]["abilities"]
             if c is not None}
    kept = [a for a in legal if a.notation not in shown] or legal
    digest = hashlib.sha256(f"{state['seed']}:{state['move']}:{seat}".encode()).digest()
    rng = Rng.from_seed(int.from_bytes(digest[:8], "big"))
    return choose(game.view(state, seat), kept, rng)


def play_mixed(game: Engine, abilities: Sequence[bool], seed: int) -> State:
    """One game where seat ``s`` plays the full AI if ``abilities[s]``, else the no-ability AI."""
    state = game.new([SeatInfo(f"P{i}", ai=True) for i in range(len(abilities))], seed)

    def choose(state: State, seat: int) -> Action:
        return (game.ai_action(state, seat) if abilities[seat]
                else no_ability_action(game, state, seat))

    return play_out(game, state, choose)


def duel(games: int, players: int, seed: int = 0) -> dict[str, float]:
    """The full AI against the no-ability AI: alternate seats play each (the pattern
    shifts by one seat every game, so both sit everywhere); mean scores, the full seats'
    mean lead, and each side's share of the wins per seat it holds."""
    game = GAME
    full: list[int] = []
    plain: list[int] = []
    leads: list[float] = []
    wins = {True: 0.0, False: 0.0}
    seats = {True: 0, False: 0}
    for g in range(games):
        pattern = [(s + g) % 2 == 0 for s in range(players)]
        result = game.result(play_mixed(game, pattern, seed + g))
        assert result is not None
        mine = [result.scores[s] for s in range(players) if pattern[s]]
        theirs = [result.scores[s] for s in range(players) if not pattern[s]]
        full += mine
        plain += theirs
        leads.append(sum(mine) / len(mine) - sum(theirs) / len(theirs))
        for side in (True, False):
            seats[side] += pattern.count(side)
        for s in result.winners:
            wins[pattern[s]] += 1 / len(result.winners)
    return {"full": sum(full) / len(full), "no_abilities": sum(plain) / len(plain),
            "lead": sum(leads) / games,
            # Wins per seat held, relative to a fair 1/players: 1.0 is an even share.
            "full_win_ratio": wins[True] / seats[True] * players,
            "no_abilities_win_ratio": wins[False] / seats[False] * players}


def card_figures(games: int, players: int, seed: int = 0) -> dict[str, dict[str, float]]:
    """Per card name, from all-AI games: ``bought`` (copies per game), ``games`` (share of
    games where a copy was bought), ``used`` (uses per game) and ``effect`` (the mean final
    score of a seat that bought it, less its game's mean score)."""
    game = GAME
    bought: Counter[str] = Counter()
    in_games: Counter[str] = Counter()
    used: Counter[str] = Counter()
    effect: dict[str, list[float]] = {}
    for g in range(games):
        state = game.new([SeatInfo(f"P{i}", ai=True) for i in range(players)], seed + g)
        owned: list[set[str]] = [set() for _ in range(players)]
        for _seat, outcome in playing(game, state):
            before = [list(p["used"]) for p in state["players"]]
            after = outcome.state
            for s, p in enumerate(after["players"]):
                for c in p["used"]:
                    if c not in before[s]:
                        used[cards.card(c).name] += 1
            if any(e.kind == "feed" for e in outcome.events) and after["last_feeding"]:
                for report in after["last_feeding"].values():
                    for c in report["used"]:
                        used[cards.card(c).name] += 1
            for event in outcome.events:
                if event.kind == "buy" and event.seat is not None:
                    name = event.text.split(" bought ")[1].split(" for ")[0].split(" (")[0]
                    bought[name] += 1
                    owned[event.seat].add(name)
            state = after
        result = game.result(state)
        assert result is not None
        mean = sum(result.scores.values()) / players
        for name in set().union(*owned):
            in_games[name] += 1
        for s in range(players):
            for name in owned[s]:
                effect.setdefault(name, []).append(result.scores[s] - mean)
    names = [c.name for c in cards.catalogue().values() if c.kind in ("monster", "ability")]
    return {name: {"bought": bought[name] / games, "games": in_games[name] / games,
                   "used": used[name] / games,
                   "effect": sum(effect.get(name, [0.0])) / max(1, len(effect.get(name, [])))}
            for name in dict.fromkeys(names)}


def balance(games: int, players: int, seed: int = 0) -> dict[str, Any]:
    """Figures over ``games`` all-AI games of ``players`` seats."""
    game = GAME
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
        rounds.append(round_of(state))
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
    if len(argv) > 1 and argv[1] in ("cards", "duel"):
        games = int(argv[2]) if len(argv) > 2 else 100
        counts = [int(a) for a in argv[3:]] or [2, 3, 4]
        for players in counts:
            print(f"{players} players, {games} games:")
            if argv[1] == "duel":
                figures = duel(games, players, seed=5000 * players)
                print("  " + ", ".join(f"{k} {v:.2f}" for k, v in figures.items()))
                continue
            table = card_figures(games, players, seed=1000 * players)
            print("  | card | bought / game | games bought | uses / game | effect |")
            for name, row in sorted(table.items(), key=lambda kv: -kv[1]["games"]):
                print(f"  | {name} | {row['bought']:.2f} | {row['games']:.0%} | "
                      f"{row['used']:.2f} | {row['effect']:+.2f} |")
        return
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
