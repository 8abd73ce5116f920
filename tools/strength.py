"""How strong each AI level plays: whole seeded games against chosen opponents.

One measure for every game: game ``n`` of a match uses seed ``seed_base + n``, the
measured seat sits in seat ``n % players`` (so sitting first favours nobody), the
other seats all play the opponents' policy, and the share of games the measured
seat wins (alone or shared, as the rulebooks share victories) is reported beside
the fair share ``1 / players``. The think time of every move an AI level chooses
is timed on the CPU clock of this one process (``time.process_time``), so other
work on the machine does not inflate it.

Policies (for the measured seat and for the opponents):

- ``easy``, ``normal``, ``strong``: the game's AI at that level (``Engine.ai_action``);
- ``random``: uniform among the legal moves;
- ``greedy``: ``tools.arena.greedy_action``, one move ahead in the world as the
  seat may know it (it never sees the refill or the dice to come);
- ``greedy-peek``: one move ahead in the real state, so it sees the chance its
  move draws (a refill, a die) and keeps the best immediate own score;
- ``previous``: the game's AI as it was last frozen, ``tools/frozen/<package>_v<n>.py``
  (a game whose AI was never frozen has none: measuring against it is refused).

Run ``python -m tools.strength --game sugar-blast --players 2 --games 400 --level strong
--against greedy greedy-peek previous --seed-base 2000``; it prints a markdown table.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import pkgutil
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from bot.games import GAMES, get_game, package_of
from bot.games.engine import AI_LEVELS, Action, Engine, SeatInfo, State, play_out
from bot.games.rng import Rng
from tools.arena import greedy_action

#: Every policy a seat can play, levels first.
POLICIES: tuple[str, ...] = (*AI_LEVELS, "random", "greedy", "greedy-peek", "previous")
#: Games measured at more than two seats by default (Sugar Heist's raids need a third).
_MEASURED_AT = {"sugar-heist": 3}


def default_players(game: Engine) -> int:
    """The seat count ``game`` is measured at by default: two (or the game's fewest), except
    where :data:`_MEASURED_AT` says more."""
    return max(_MEASURED_AT.get(game.slug, 2), game.min_seats)


@dataclass
class Match:
    """The outcome of one match: wins of the measured seat, and think times by level."""

    game: str
    players: int
    measured: str
    against: str
    games: int
    seed_base: int
    options: dict[str, Any]
    wins: int = 0
    think: dict[str, list[float]] = field(default_factory=dict)

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def fair(self) -> float:
        return 1.0 / self.players

    def think_ms(self, level: str) -> tuple[float, float] | None:
        """Median and 95th percentile of ``level``'s think times, in ms."""
        times = sorted(self.think.get(level, []))
        if not times:
            return None
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        return statistics.median(times) * 1000, p95 * 1000


def ai_rng(state: State, seat: int) -> Rng:
    """The generator ``Engine.ai_action`` gives its AI for ``seat`` now, so the frozen
    previous AI draws exactly what the current policy would."""
    digest = hashlib.sha256(f"{state['seed']}:{state['move']}:{seat}".encode()).digest()
    return Rng.from_seed(int.from_bytes(digest[:8], "big"))


def frozen_versions(game: Engine) -> tuple[int, ...]:
    """The versions of ``game``'s AI frozen so far (``tools/frozen/<package>_v<n>.py``),
    oldest first: none for a game whose AI was never frozen."""
    import tools.frozen

    prefix = f"{package_of(game.slug)}_v"
    return tuple(sorted(int(name.removeprefix(prefix))
                        for _, name, _ in pkgutil.iter_modules(tools.frozen.__path__)
                        if name.startswith(prefix) and name.removeprefix(prefix).isdigit()))


def frozen_module(game: Engine, version: int | None = None) -> ModuleType:
    """The frozen AI module of ``game`` (``tools/frozen/<package>_v<version>.py``), by
    default its latest; a clear error for a game whose AI was never frozen."""
    versions = frozen_versions(game)
    if not versions:
        raise ValueError(f"no AI of {game.title} has been frozen yet: copy its ai policy to "
                         f"tools/frozen/{package_of(game.slug)}_v1.py to measure against it")
    return importlib.import_module(
        f"tools.frozen.{package_of(game.slug)}_v{versions[-1] if version is None else version}")


def previous_action(game: Engine, state: State, seat: int, module: ModuleType) -> Action:
    """The frozen previous AI's move, seen and drawn exactly as ``ai_action`` would."""
    legal = game.legal_actions(state, seat)
    chosen: Action = module.choose(game.view(state, seat), legal, ai_rng(state, seat))
    return chosen


Chooser = Callable[[State, int], Action]


def chooser(game: Engine, policy: str, pick: Rng, think: dict[str, list[float]]) -> Chooser:
    """A function choosing ``policy``'s move for a seat; AI levels' times go to ``think``."""
    if policy in AI_LEVELS:
        times = think.setdefault(policy, [])

        def level(state: State, seat: int) -> Action:
            start = time.process_time()
            action = game.ai_action(state, seat, policy)
            times.append(time.process_time() - start)
            return action

        return level
    if policy == "random":
        return lambda state, seat: pick.choice(game.legal_actions(state, seat))
    if policy == "greedy":
        return lambda state, seat: greedy_action(game, state, seat, pick)
    if policy == "greedy-peek":
        return lambda state, seat: greedy_action(game, state, seat, pick, peek=True)
    if policy == "previous":
        module = frozen_module(game)
        return lambda state, seat: previous_action(game, state, seat, module)
    raise ValueError(f"unknown policy {policy!r}; choose from {', '.join(POLICIES)}")


def match(game: Engine, players: int, measured: str, against: str, games: int,
          seed_base: int = 0, options: dict[str, Any] | None = None) -> Match:
    """Play ``games`` whole games: ``measured`` in seat ``n % players`` of game ``n``
    (seed ``seed_base + n``), ``against`` in every other seat."""
    out = Match(game.slug, players, measured, against, games, seed_base, dict(options or {}))
    for n in range(games):
        seed = seed_base + n
        mine = n % players
        # Each side draws from its own generator, seeded per game, so one side's
        # draws never shift the other's.
        me = chooser(game, measured, Rng.from_seed(20_000 + seed), out.think)
        them = chooser(game, against, Rng.from_seed(10_000 + seed), out.think)

        def choose(state: State, seat: int, mine: int = mine, me: Chooser = me,
                   them: Chooser = them) -> Action:
            return me(state, seat) if seat == mine else them(state, seat)

        seats = [SeatInfo(f"Seat {i + 1}", ai=True) for i in range(players)]
        final = play_out(game, game.new(seats, seed, options), choose)
        result = game.result(final)
        assert result is not None
        out.wins += mine in result.winners
    return out


def table(matches: Sequence[Match]) -> str:
    """The matches as a markdown table, one row each."""
    lines = ["| game | players | seat plays | against | games | wins | share | fair share "
             "| think median | think p95 |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for m in matches:
        think = m.think_ms(m.measured) if m.measured in AI_LEVELS else None
        median, p95 = (f"{think[0]:.1f} ms", f"{think[1]:.1f} ms") if think else ("-", "-")
        lines.append(f"| {m.game} | {m.players} | {m.measured} | {m.against} | {m.games} | "
                     f"{m.wins} | {100 * m.share:.1f}% | {100 * m.fair:.0f}% | {median} | "
                     f"{p95} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.strength", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", nargs="+", default=["sugar-blast"],
                        help="game slugs, or 'all' (default: sugar-blast)")
    parser.add_argument("--players", type=int, default=None,
                        help="seats per game (default: 2, or 3 for sugar-heist)")
    parser.add_argument("--level", nargs="+", default=["strong"], choices=POLICIES,
                        help="the measured seat's policy or policies (default: strong)")
    parser.add_argument("--against", nargs="+", default=["greedy"], choices=POLICIES,
                        help="the opponents' policy or policies (default: greedy)")
    parser.add_argument("--games", type=int, default=400, help="games per match")
    parser.add_argument("--seed-base", type=int, default=2000, help="seed of game 0")
    parser.add_argument("--options", default="{}", help="game options as JSON")
    args = parser.parse_args(argv)
    slugs = sorted(GAMES) if args.game == ["all"] else args.game
    options = json.loads(args.options)
    matches = []
    for slug in slugs:
        game = get_game(slug)
        players = args.players or default_players(game)
        for level in args.level:
            for against in args.against:
                matches.append(match(game, players, level, against, args.games,
                                     args.seed_base, options))
                print(table(matches[-1:]).splitlines()[-1], flush=True)
    print()
    print(table(matches))


if __name__ == "__main__":
    main()
