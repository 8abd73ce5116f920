"""Fit the static value of the Sugar Blast search (``search.VALUE_WEIGHTS``).

Plays seeded two-player games between one-step AIs (the game's ``normal`` level), and
at the start of every turn records what the search's value reads (what the player to
move and its rival still need, the progress its best swap brings now, how many kinds
would bring each of them progress) and whether the player to move went on to win.
A logistic regression of the outcome on those features gives the weights; positions
where the player's swap completes the objective are left out, since the search counts
those as won.

``python -m tools.sugar_blast_value --games 2500 --seed-base 100000`` prints the
weights in the order of ``VALUE_WEIGHTS``.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games import get_game
from bot.games.engine import Action, SeatInfo, State, play_out
from bot.games.sugar_blast import search as sr

FEATURES = ("bias", "mine", "theirs", "wait", "useful", "rival_useful")


@dataclass(frozen=True)
class Sample:
    """One turn start: the features of :data:`FEATURES` and the mover's result (a shared
    win counts a half)."""

    features: tuple[float, ...]
    won: float


def features(state: State, seat: int) -> tuple[float, ...] | None:
    """What the search's value reads at this turn start; ``None`` when the mover's swap
    completes the objective (a certain win)."""
    card = sr.Objective.of(state["objective"])
    board = sr.flatten(state["board"])
    kept = [sr.counts(k) for k in state["kept"]]
    gains = sr.Gains.of(card, kept[seat])
    _, waiting, _ = sr.best_swap(board, gains)
    if gains.base + waiting >= card.needed:
        return None
    rivals = [s for s in range(len(kept)) if s != seat]
    rival = max(card.progress(kept[s]) for s in rivals)
    rival_useful = max(sum(1 for g in sr.Gains.of(card, kept[s]).one if g > 0) for s in rivals)
    return (1.0, float(card.needed - gains.base), float(card.needed - rival),
            float(min(waiting, 2)), float(sum(1 for g in gains.one if g > 0)),
            float(rival_useful))


def collect(games: int, seed_base: int) -> list[Sample]:
    """Turn starts of ``games`` seeded games between ``normal`` AIs, with their outcome."""
    game = get_game("sugar-blast")
    samples: list[Sample] = []
    for n in range(games):
        seen: list[tuple[int, tuple[float, ...]]] = []

        def choose(state: State, seat: int,
                   seen: list[tuple[int, tuple[float, ...]]] = seen) -> Action:
            if game.top(state) is None and state["phase"] == "swap":
                found = features(state, seat)
                if found is not None:
                    seen.append((seat, found))
            return game.ai_action(state, seat)

        seats = [SeatInfo("A", ai=True), SeatInfo("B", ai=True)]
        result = game.result(play_out(game, game.new(seats, seed_base + n), choose))
        assert result is not None
        for seat, found in seen:
            share = 1.0 / len(result.winners) if seat in result.winners else 0.0
            samples.append(Sample(found, share))
    return samples


def fit(samples: Sequence[Sample], rounds: int = 25) -> list[float]:
    """Logistic regression by Newton's method: the weights that make the outcomes most
    likely."""
    size = len(FEATURES)
    weights = [0.0] * size
    for _ in range(rounds):
        grad = [0.0] * size
        hess = [[0.0] * size for _ in range(size)]
        for sample in samples:
            x = sample.features
            p = 1.0 / (1.0 + math.exp(-sum(w * v for w, v in zip(weights, x, strict=True))))
            for i in range(size):
                grad[i] += (sample.won - p) * x[i]
                for j in range(size):
                    hess[i][j] += p * (1 - p) * x[i] * x[j]
        step = _solve(hess, grad)
        weights = [w + d for w, d in zip(weights, step, strict=True)]
    return weights


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix^-1 vector`` by Gauss-Jordan elimination with partial pivoting."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                for k in range(col, n + 1):
                    rows[r][k] -= factor * rows[col][k]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.sugar_blast_value",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2500)
    parser.add_argument("--seed-base", type=int, default=100_000)
    args = parser.parse_args(argv)
    samples = collect(args.games, args.seed_base)
    weights = fit(samples)
    print(f"{len(samples)} turn starts of {args.games} games, seeds {args.seed_base}-"
          f"{args.seed_base + args.games - 1}")
    print("VALUE_WEIGHTS = (" + ", ".join(f"{w:.3f}" for w in weights) + ")")
    for name, w in zip(FEATURES, weights, strict=True):
        print(f"  {name:>13}: {w:+.3f}")


if __name__ == "__main__":
    main()
