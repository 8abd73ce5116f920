"""Candy movement: the pure engine that the rules, the AI, the narration and the animation share.

Given the factory floor (what icon is on every space, where the crates are) and
the candies on it, :func:`run` plays one Candy Movement phase exactly as the
rulebook writes it and returns the whole story, one :class:`Step` per
activation, each with its events and the candy positions after it.

The rules, as this module plays them:

- Types resolve in the order red circle, yellow hexagon, green triangle, blue
  square, purple rectangle; a type is finished before the next begins.
- Within a type, the candy on the top-right-most space goes first: columns from
  the right, each column from the top. The choice is made afresh before each
  candy among those of the type that have not activated yet, so a candy a Bonk!
  pushed still activates, from where it now is, and no candy activates twice.
- A candy activates twice, each time moving as the centre icon of the tile it
  is on says. A centre icon with no direction (a candy muncher for another
  shape) leaves it where it is.
- Entering a tile (by a conveyor, a jump or a Bonk!) first resolves the tile's
  upper left corner icon; a candy eaten there never Bonks!.
- Entering an occupied space is a Bonk!, resolved by the struck candy's type
  (see ``bonk`` in ``data/sugarworks/candies.json``); a candy a Bonk! moves
  into another occupied space Bonks! again, before the moving candy uses its
  remaining activation. Bonk! moves ignore the conveyor icons.
- A candy that leaves the board is shipped if it lands exactly on a crate's
  space just off the edge, and is lost to the gutter anywhere else.

Why a chain of Bonks! always ends: every Bonk! displaces one candy by right
(+1, 0), up-right (+1, +1) or down (0, -1), and corner icons only remove
candies. With ``H`` rows, ``H * column - row`` grows by at least 1 for the
displaced candy and never shrinks for any other, and it is bounded on the
board, so a chain has at most ``candies * (H * width + H)`` links.
:data:`CHAIN_BOUND` is that bound, checked as an assertion, never a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.games.sugarworks.content import (
    LOST,
    Cell,
    Side,
    bonk_table,
    candy_order,
    icons,
)

Tile = tuple[str, str | None]
"""(centre icon, corner icon or None) of the tile on a space."""


@dataclass
class Step:
    """One activation of one candy: what happened, and where every candy is after it."""

    candy: str
    type: str
    activation: int
    start: Cell
    events: list[dict[str, Any]] = field(default_factory=list)
    after: dict[str, Cell] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"candy": self.candy, "type": self.type, "activation": self.activation,
                "start": list(self.start), "events": self.events,
                "after": {k: list(v) for k, v in self.after.items()}}


@dataclass
class Story:
    """A whole Candy Movement phase."""

    start: dict[str, Cell]
    types: dict[str, str]
    steps: list[Step]
    final: dict[str, Cell]
    #: (candy id, crate name or "lost") in the order candies left the board.
    arrivals: list[tuple[str, str]]

    def events(self) -> Iterable[dict[str, Any]]:
        for step in self.steps:
            yield from step.events


def chain_bound(side: Side, candies: int) -> int:
    """The most links a chain of Bonks! can have (see the module docstring)."""
    return max(1, candies) * (side.height * (side.width + 2) + side.height + 2)


class Floor:
    """A working copy of the floor during one movement (or one tile placement).

    Without ``narrate`` it keeps no events: where candies end up and leave is the same,
    at about two thirds of the cost (the AI's forecasts play thousands of movements)."""

    def __init__(self, side: Side, tiles: Mapping[Cell, Tile],
                 candies: Iterable[tuple[str, str, Cell]], narrate: bool = True) -> None:
        self.side = side
        self.narrate = narrate
        self.tiles = tiles
        self.type: dict[str, str] = {}
        self.at: dict[str, Cell] = {}
        self.occupant: dict[Cell, str] = {}
        for candy, kind, cell in candies:
            assert cell not in self.occupant, f"two candies on {cell}"
            self.type[candy] = kind
            self.at[candy] = cell
            self.occupant[cell] = candy
        self.arrivals: list[tuple[str, str]] = []
        self.events: list[dict[str, Any]] = []
        self.bound = chain_bound(side, len(self.at))

    # ----------------------------------------------------------------- one candy

    def activate(self, candy: str) -> None:
        """Move ``candy`` once by the centre icon of its tile."""
        cell = self.at[candy]
        centre = icons()[self.tiles[cell][0]]
        if centre.move is None:
            if centre.eats_candy(self.type[candy]):
                self._lose(candy, cell, None, "centre", centre.key)
            elif self.narrate:
                self.events.append({"what": "stay", "candy": candy, "at": list(cell),
                                    "icon": centre.key})
            return
        target = (cell[0] + centre.move[0], cell[1] + centre.move[1])
        self.travel(candy, target, centre.key)

    def travel(self, candy: str, target: Cell, by: str) -> None:
        """``candy`` moves to ``target``; Bonks! chain from there until nothing moves."""
        links = 0
        direction = None
        while True:
            links += 1
            assert links <= self.bound, "a chain of Bonks! outran its proven bound"
            origin = self.at[candy]
            if self.occupant.get(origin) == candy:
                del self.occupant[origin]
            if not self.side.on_board(target):
                crate = self.side.crates.get(target)
                del self.at[candy]
                if crate is None:
                    self._record_lost(candy, origin, target, "edge", by, direction)
                else:
                    if self.narrate:
                        self.events.append({"what": "ship", "candy": candy,
                                            "from": list(origin), "to": list(target),
                                            "crate": crate, "by": by, "direction": direction})
                    self.arrivals.append((candy, crate))
                return
            if self.narrate:
                self.events.append({"what": "move", "candy": candy, "from": list(origin),
                                    "to": list(target), "by": by, "direction": direction})
            self.at[candy] = target
            corner = self.tiles[target][1]
            if corner is not None and icons()[corner].eats_candy(self.type[candy]):
                self._lose(candy, target, target, "corner", corner)
                return
            struck = self.occupant.get(target)
            if struck is None:
                self.occupant[target] = candy
                return
            rule = bonk_table()[self.type[struck]]
            if self.narrate:
                self.events.append({"what": "bonk", "striker": candy, "struck": struck,
                                    "at": list(target), "moves": rule.moves,
                                    "direction": rule.direction})
            step = rule.delta
            if rule.moves == "struck":
                self.occupant[target] = candy
                candy = struck
            target = (target[0] + step[0], target[1] + step[1])
            by = "bonk"
            direction = rule.direction

    def eat_on_placement(self, cell: Cell) -> bool:
        """A tile was just played under the candy on ``cell``: its corner icon resolves."""
        candy = self.occupant.get(cell)
        corner = self.tiles[cell][1]
        if candy is None or corner is None or not icons()[corner].eats_candy(self.type[candy]):
            return False
        self._lose(candy, cell, cell, "corner", corner)
        return True

    def _lose(self, candy: str, origin: Cell, where: Cell | None, how: str, icon: str) -> None:
        if self.occupant.get(origin) == candy:
            del self.occupant[origin]
        del self.at[candy]
        self._record_lost(candy, origin, where, how, icon)

    def _record_lost(self, candy: str, origin: Cell, where: Cell | None, how: str,
                     by: str, direction: str | None = None) -> None:
        if self.narrate:
            self.events.append({"what": "lost", "candy": candy, "from": list(origin),
                                "to": list(where) if where else None, "how": how, "by": by,
                                "direction": direction})
        self.arrivals.append((candy, LOST))

    # ----------------------------------------------------------------- the phase

    def next_candy(self, kind: str, done: set[str]) -> str | None:
        """The top-right-most candy of ``kind`` that has not activated yet."""
        waiting = [c for c, t in self.type.items() if t == kind and c in self.at and c not in done]
        if not waiting:
            return None
        return max(waiting, key=lambda c: (self.at[c][0], self.at[c][1]))


def run(side: Side, tiles: Mapping[Cell, Tile],
        candies: Iterable[tuple[str, str, Cell]], narrate: bool = True) -> Story:
    """Play one Candy Movement phase; ``candies`` are (id, type, cell) on the board.
    Without ``narrate`` the story has only where candies ended and left, no steps."""
    floor = Floor(side, tiles, candies, narrate)
    start = dict(floor.at)
    types = dict(floor.type)
    steps: list[Step] = []
    for kind in candy_order():
        done: set[str] = set()
        while (candy := floor.next_candy(kind, done)) is not None:
            done.add(candy)
            for activation in (1, 2):
                if candy not in floor.at:
                    break
                if not narrate:
                    floor.activate(candy)
                    continue
                step = Step(candy, kind, activation, floor.at[candy])
                floor.events = step.events
                floor.activate(candy)
                step.after = dict(floor.at)
                steps.append(step)
    return Story(start, types, steps, dict(floor.at), list(floor.arrivals))
