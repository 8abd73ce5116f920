"""Balance figures for Sugar Heist from all-AI games (docs/rules/sugar-heist.md).

:func:`balance` gives whole-game figures; :func:`card_figures` gives, per card,
how often it was bought and met, how often the heists that met it ended there
(its stop rate) and the candy it cost the attackers who met it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from bot.games.engine import Engine, SeatInfo, State, Turn, play_out, playing
from bot.games.sugar_heist import GAME, cards
from bot.games.sugar_heist.rules import SugarHeist


def balance(games: int, players: int, seed: int = 0) -> dict[str, float]:
    """Figures over all-AI games: heists that pass all rooms, candy spread, decisions."""
    game = GAME
    heists = passed = moves = cleared = rooms = 0
    spreads: list[int] = []
    winners: list[int] = []
    for g in range(games):
        state = play_out(game, game.new([SeatInfo(f"P{i}", ai=True) for i in range(players)],
                                        seed + g))
        moves += state["move"]
        for h in state["heists"]:
            heists += 1
            passed += h["passed"]
            cleared += h["cleared"]
            rooms += h["rooms"]
        candy = [p["candy"] for p in state["players"]]
        spreads.append(max(candy) - min(candy))
        winners.append(max(candy))
    return {"games": games, "players": players,
            "passed_all_rooms": passed / heists,
            "rooms_reached_per_heist": rooms / heists,
            "rooms_cleared_per_heist": cleared / heists,
            "candy_spread": sum(spreads) / games,
            "winning_candy": sum(winners) / games,
            "decisions_per_game": moves / games}


# --------------------------------------------------------------------------- per card


@dataclass
class CardTally:
    """What one card (or a board's default encounter) did over many games."""

    bought: int = 0
    used: int = 0
    met: int = 0
    cleared: int = 0
    stopped: int = 0
    candy_cost: float = 0.0
    #: For a mod: the rooms it was in whose encounter was also met without a mod, and
    #: what the mod added there over that encounter without one (its own share).
    compared: int = 0
    added_stopped: float = 0.0
    added_cost: float = 0.0

    def figures(self, games: int) -> dict[str, float]:
        """Per game bought/used, per room met: stop rate, clear rate, candy cost, and
        (mods) the stop rate and candy cost added to the encounters they were on."""
        met = self.met or 1
        return {"bought": self.bought / games, "used": self.used / games, "met": self.met,
                "stop_rate": self.stopped / met, "clear_rate": self.cleared / met,
                "candy_cost": self.candy_cost / met,
                "added_stop": self.added_stopped / (self.compared or 1),
                "added_cost": self.added_cost / (self.compared or 1)}


@dataclass
class _Room:
    keys: tuple[str, ...]
    gained: int
    lost: int


class _Recorder(SugarHeist):
    """The rules, taking notes of every room entered and every heist's end."""

    def __init__(self) -> None:
        super().__init__()
        self.tally: dict[str, CardTally] = defaultdict(CardTally)
        #: Encounters met in rooms without a mod, apart.
        self.bare: dict[str, CardTally] = defaultdict(CardTally)
        #: (mod, encounter) -> what the pair did.
        self.pairs: dict[tuple[str, str], CardTally] = defaultdict(CardTally)
        self.rooms: list[_Room] = []

    def _enter(self, state: State, turn: Turn) -> None:
        h = state["heist"]
        defender = state["players"][h["defender"]]
        room = defender["rooms"][h["room"]]
        held = room["encounter"]
        keys = [cards.instances()[held["id"]] if held else f"default:{defender['board']}"]
        if room["mod"] is not None:
            keys.append(cards.instances()[room["mod"]["id"]])
        self.rooms.append(_Room(tuple(keys), h["gained"], h["lost"]))
        super()._enter(state, turn)

    def _finish_heist(self, state: State, turn: Turn, passed: bool) -> None:
        h = state["heist"]
        defender = state["players"][h["defender"]]
        steal = min(1 + defender["tax"], defender["candy"])
        ends = [*self.rooms[1:], _Room((), h["gained"], h["lost"])]
        for r, (room, after) in enumerate(zip(self.rooms, ends, strict=True)):
            gained, lost = after.gained - room.gained, after.lost - room.lost
            stopped = not passed and r == len(self.rooms) - 1
            cost = (1 - gained) + lost + (steal if stopped else 0)
            tallies = [self.tally[key] for key in room.keys]
            if len(room.keys) == 1:
                tallies.append(self.bare[room.keys[0]])
            else:
                tallies.append(self.pairs[(room.keys[1], room.keys[0])])
            for t in tallies:
                t.met += 1
                t.cleared += h["outcomes"][r] == "cleared"
                t.stopped += stopped
                t.candy_cost += cost
        self.rooms = []
        super()._finish_heist(state, turn, passed)


def card_figures(games: int, players: int, seed: int = 0,
                 rules: int | None = None) -> dict[str, dict[str, float]]:
    """Per card, over ``games`` games between AI seats (seeds ``seed``..): bought and
    used per game, and per room it was met in: stop rate (the heist ended there),
    clear rate and candy cost to the attacker (candy not gained for the room, candy
    lost to its bad stuff, and the steal forgone when the heist ended there).

    Mods count the rooms they were attached to. ``rules`` plays a kept older version.
    """
    recorder = _Recorder()
    game = Engine(recorder)
    names = cards.names()
    for g in range(games):
        state = game.new([SeatInfo(f"P{i}", ai=True) for i in range(players)], seed + g,
                         rules=rules)
        for _seat, outcome in playing(game, state):
            words = outcome.action.notation.split(" ")
            if words[0] in ("buy", "build"):
                end = words.index("room") if "room" in words else len(words)
                recorder.tally[names[" ".join(words[1:end])]].bought += 1
            elif words[0] == "use":
                end = words.index("on") if "on" in words else len(words)
                recorder.tally[names[" ".join(words[1:end])]].used += 1
    for (mod, encounter), pair in recorder.pairs.items():
        bare = recorder.bare[encounter]
        if bare.met:
            t = recorder.tally[mod]
            t.compared += pair.met
            t.added_stopped += pair.stopped - pair.met * bare.stopped / bare.met
            t.added_cost += pair.candy_cost - pair.met * bare.candy_cost / bare.met
    return {key: t.figures(games) for key, t in sorted(recorder.tally.items())}


def card_table(figures: dict[str, dict[str, float]]) -> str:
    """The hideout cards' figures as a markdown table, by cost then stop rate."""
    designs = cards.hideout_cards()
    rows: list[tuple[Any, ...]] = []
    for key, f in figures.items():
        if key not in designs:
            continue
        d = designs[key]
        rows.append((d["cost"], d["kind"], -f["stop_rate"], d["name"], f))
    lines = ["| Card | Cost | Kind | Bought / game | Rooms met | Stop rate | Clear rate "
             "| Candy cost | Mod's own: stops, candy |", "|---|---|---|---|---|---|---|---|---|"]
    for cost, kind, _, name, f in sorted(rows):
        own = f"{f['added_stop']:+.0%}, {f['added_cost']:+.2f}" if kind == "mod" else "-"
        lines.append(f"| {name} | ${cost} | {kind} | {f['bought']:.2f} | {int(f['met'])} | "
                     f"{f['stop_rate']:.0%} | {f['clear_rate']:.0%} | {f['candy_cost']:.2f} "
                     f"| {own} |")
    return "\n".join(lines)
