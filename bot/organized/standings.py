"""A tournament's standings from its tables' places: points, then Buchholz, then
Sonneborn-Berger.

**Points.** A table of ``k`` players gives its places ``1, (k-2)/(k-1), ..., 0``: at two
seats a win is 1, a loss 0; at three 1, ½, 0. Tied players share the points of the
places they fill (a draw at two seats is ½ each). A bye scores as a win, 1.

**Buchholz**: the sum of the final points of every opponent met (at a pod, everyone else
at the table), once per meeting. **Sonneborn-Berger**: for each meeting, the opponent's
final points times what the player scored against them (1 for finishing above them, ½
level, 0 below); at two seats, the points of the opponents beaten plus half those drawn.
A bye adds to neither. Players level on all three share a rank, listed in sign-up order.

>>> rounds = [Round(tables=(Table({1: 1, 2: 2}),), byes=(3,)),
...           Round(tables=(Table({1: 1, 3: 1}),), byes=(2,))]
>>> [(s.entry, said(s.points), said(s.buchholz), said(s.sonneborn), s.rank)
...  for s in standings([1, 2, 3], rounds)]
[(1, '1½', '2½', '1¾', 1), (3, '1½', '1½', '¾', 2), (2, '1', '1½', '0', 3)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

BYE = Fraction(1)


@dataclass(frozen=True)
class Table:
    """A table as it ended: each entry's place (1 is first; tied entries share a place,
    the next place skipping as many as tied, as a game's result reads)."""

    places: Mapping[int, int]


@dataclass(frozen=True)
class Round:
    """A round's ended tables and its byes."""

    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Standing:
    """One entry's line: points, tie-breaks, shared rank, games played and byes."""

    entry: int
    points: Fraction
    buchholz: Fraction
    sonneborn: Fraction
    rank: int
    games: int
    byes: int
    opponents: tuple[int, ...] = field(default=(), repr=False)


def place_points(size: int, place: int, tied: int) -> Fraction:
    """The points of ``tied`` players sharing ``place`` at a table of ``size``.

    >>> place_points(2, 1, 1), place_points(2, 1, 2), place_points(3, 2, 1)
    (Fraction(1, 1), Fraction(1, 2), Fraction(1, 2))
    >>> place_points(3, 1, 2)
    Fraction(3, 4)
    """
    if size < 2:
        return BYE
    filled = range(place, place + tied)
    return sum((Fraction(size - q, size - 1) for q in filled), Fraction(0)) / tied


def table_points(table: Table) -> dict[int, Fraction]:
    """What each entry at ``table`` scored."""
    size = len(table.places)
    counts: dict[int, int] = {}
    for place in table.places.values():
        counts[place] = counts.get(place, 0) + 1
    return {e: place_points(size, p, counts[p]) for e, p in table.places.items()}


def versus(table: Table, entry: int, other: int) -> Fraction:
    """What ``entry`` scored against ``other`` at ``table``: 1 above, ½ level, 0 below."""
    mine, theirs = table.places[entry], table.places[other]
    return Fraction(1) if mine < theirs else Fraction(1, 2) if mine == theirs else Fraction(0)


def points(entries: Iterable[int], rounds: Iterable[Round]) -> dict[int, Fraction]:
    """Every entry's points over ``rounds``."""
    total = {e: Fraction(0) for e in entries}
    for played in rounds:
        for table in played.tables:
            for entry, scored in table_points(table).items():
                total[entry] = total.get(entry, Fraction(0)) + scored
        for entry in played.byes:
            total[entry] = total.get(entry, Fraction(0)) + BYE
    return total


def standings(entries: Sequence[int], rounds: Sequence[Round]) -> list[Standing]:
    """Every entry of ``entries`` (sign-up order) ranked: points, Buchholz,
    Sonneborn-Berger, then sign-up order (with a shared rank)."""
    total = points(entries, rounds)
    buchholz = {e: Fraction(0) for e in total}
    sonneborn = {e: Fraction(0) for e in total}
    games = dict.fromkeys(total, 0)
    byes = dict.fromkeys(total, 0)
    met: dict[int, list[int]] = {e: [] for e in total}
    for played in rounds:
        for table in played.tables:
            for entry in table.places:
                games[entry] += 1
                for other in table.places:
                    if other == entry:
                        continue
                    met[entry].append(other)
                    buchholz[entry] += total[other]
                    sonneborn[entry] += total[other] * versus(table, entry, other)
        for entry in played.byes:
            byes[entry] += 1
    order = {e: i for i, e in enumerate(entries)}
    ranked = sorted(total, key=lambda e: (-total[e], -buchholz[e], -sonneborn[e],
                                          order.get(e, len(order)), e))
    lines: list[Standing] = []
    for i, entry in enumerate(ranked):
        key = (total[entry], buchholz[entry], sonneborn[entry])
        rank = i + 1
        if lines:
            before = lines[-1]
            if (before.points, before.buchholz, before.sonneborn) == key:
                rank = before.rank
        lines.append(Standing(entry, total[entry], buchholz[entry], sonneborn[entry], rank,
                              games[entry], byes[entry], tuple(met[entry])))
    return lines


def said(value: Fraction) -> str:
    """Points as people write them: whole numbers, then halves and quarters as ½ and ¼.

    >>> [said(Fraction(n, 4)) for n in (0, 1, 2, 3, 4, 6)]
    ['0', '¼', '½', '¾', '1', '1½']
    >>> said(Fraction(1, 3))
    '0.33'
    """
    whole, part = divmod(value, 1)
    marks = {Fraction(0): "", Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}
    if part in marks:
        head = str(int(whole)) if whole or not marks[part] else ""
        return (head + marks[part]) or "0"
    return f"{float(value):.2f}"
