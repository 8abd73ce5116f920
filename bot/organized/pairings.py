"""Who sits with whom in a tournament's next round: Swiss, round-robin and pods.

Players are *entries*: whole numbers standing for the people signed up (their sign-up
order), so that the pairings never depend on a name. Every function here is pure and
deterministic: the same standings and history give the same round.

* **Swiss** (two seats a table, Monrad style): the players in order of standing, each
  paired with the nearest one below who has not played them yet; with an odd number,
  the lowest-placed player who has not had a bye sits out with a bye (scored as a win,
  :mod:`bot.organized.standings`). When no pairing avoids a repeat, the fewest repeats.
* **Round-robin** (two seats a table): the circle method over the sign-up order; every
  player meets every other once, in ``n - 1`` rounds (``n`` rounds with a bye each
  when the number is odd).
* **Pods** (three seats or more): tables of the chosen size formed down the standings,
  no two players seated together again while that can be avoided (else no table seated
  exactly as before, else the fewest repeated meetings). When the number does not divide,
  tables are as many as it takes never to exceed the chosen size, their sizes differing
  by one at most; byes only when the smaller tables would fall below the game's least.

>>> swiss([1, 2, 3, 4, 5], met=set(), byes=set())
Seating(tables=((1, 2), (3, 4)), byes=(5,))
>>> swiss([1, 2, 3, 4, 5], met={frozenset((1, 2))}, byes={5})
Seating(tables=((1, 3), (2, 5)), byes=(4,))
>>> round_robin([1, 2, 3, 4], 0)
Seating(tables=((1, 4), (2, 3)), byes=())
>>> pods(list(range(1, 11)), size=3, least=2, met=set())
Seating(tables=((1, 2, 3), (4, 5, 6), (7, 8), (9, 10)), byes=())
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

#: How many seatings the search tries before it settles for the fewest repeats: enough
#: for every tournament the limits allow in the usual case, bounded so that a round is
#: formed in milliseconds whatever the history.
SEARCH_BUDGET = 20_000

Pair = frozenset[int]


@dataclass(frozen=True)
class Seating:
    """A round: its tables (entries in seat order, the best placed first) and its byes."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...]


def met_pairs(tables: Iterable[Sequence[int]]) -> set[Pair]:
    """Every two entries who sat at one of ``tables``.

    >>> sorted(sorted(p) for p in met_pairs([(1, 2, 3)]))
    [[1, 2], [1, 3], [2, 3]]
    """
    return {frozenset(p) for table in tables for p in combinations(table, 2)}


def table_sizes(players: int, size: int, least: int) -> tuple[tuple[int, ...], int]:
    """How ``players`` sit at tables of at most ``size`` seats and at least ``least``:
    the sizes (largest first, differing by one at most) and how many sit out with a bye.

    >>> table_sizes(10, 3, 2)
    ((3, 3, 2, 2), 0)
    >>> table_sizes(9, 2, 2)
    ((2, 2, 2, 2), 1)
    >>> table_sizes(5, 4, 3)
    ((4,), 1)
    >>> table_sizes(1, 2, 2)
    ((), 1)
    """
    count = -(-players // size)
    while count > 0:
        seated = min(players, count * size)
        if seated >= count * least:
            base, extra = divmod(seated, count)
            return tuple(base + 1 if i < extra else base for i in range(count)), players - seated
        count -= 1
    return (), players


def swiss(standing: Sequence[int], *, met: Collection[Pair], byes: Collection[int],
          ) -> Seating:
    """Pair ``standing`` (best first) Swiss style: see the module's docstring."""
    return pods(standing, size=2, least=2, met=met, byes=byes)


def pods(standing: Sequence[int], *, size: int, least: int, met: Collection[Pair],
         byes: Collection[int] = (), tables: Collection[frozenset[int]] = ()) -> Seating:
    """Seat ``standing`` (best first) at tables of ``size`` (at least ``least``), avoiding
    the pairs in ``met`` and then the whole ``tables`` already played; byes go to the
    lowest-placed players without one (a player who had one only when everyone has)."""
    sizes, out = table_sizes(len(standing), size, least)
    choices = _bye_choices(standing, out, byes)
    for sitting_out in choices:
        rest = [p for p in standing if p not in sitting_out]
        found = _search(rest, sizes, met, tables, strict=True)
        if found is not None:
            return Seating(found, sitting_out)
    rest = [p for p in standing if p not in choices[0]]
    found = _search(rest, sizes, met, tables, strict=False)
    return Seating(found if found is not None else _fewest_repeats(rest, sizes, met),
                   choices[0])


def _bye_choices(standing: Sequence[int], out: int, byes: Collection[int],
                 ) -> list[tuple[int, ...]]:
    """Who may sit out, the preferred first: the lowest-placed players without a bye (the
    last of them taken higher up when that lets the others avoid a repeat); players who
    had one only when too few have not.

    >>> _bye_choices([1, 2, 3, 4, 5], 1, {5})
    [(4,), (3,), (2,), (1,)]
    >>> _bye_choices([1, 2, 3], 1, {1, 2, 3})
    [(3,), (2,), (1,)]
    """
    if out == 0:
        return [()]
    fresh = [p for p in reversed(standing) if p not in byes]
    stale = [p for p in reversed(standing) if p in byes]
    order = fresh + stale
    fixed = order[:out - 1]
    last = [p for p in order[out - 1:] if p in fresh] or order[out - 1:]
    return [tuple(sorted((*fixed, p), key=standing.index)) for p in last]


class _Spent(Exception):
    """The search ran out of its budget."""


def _search(players: Sequence[int], sizes: Sequence[int], met: Collection[Pair],
            played: Collection[frozenset[int]], *, strict: bool,
            ) -> tuple[tuple[int, ...], ...] | None:
    """Tables down the standings with no pair in ``met`` (``strict``) or no table in
    ``played``; ``None`` when there is none (or the budget ran out)."""
    steps = [0]

    def fits(table: tuple[int, ...], candidate: int) -> bool:
        return not strict or all(frozenset((candidate, p)) not in met for p in table)

    def fill(left: list[int], sizes_left: list[int]) -> list[tuple[int, ...]] | None:
        if not left:
            return []
        for size in dict.fromkeys(sizes_left):  # largest first, each size once
            top, rest = left[0], left[1:]
            for table in grow((top,), rest, size):
                remaining = [p for p in rest if p not in table]
                others = list(sizes_left)
                others.remove(size)
                found = fill(remaining, others)
                if found is not None:
                    return [table, *found]
        return None

    def grow(table: tuple[int, ...], pool: list[int], size: int) -> Iterable[tuple[int, ...]]:
        steps[0] += 1
        if steps[0] > SEARCH_BUDGET:
            raise _Spent
        if len(table) == size:
            if strict or frozenset(table) not in played:
                yield table
            return
        for i, candidate in enumerate(pool):
            if fits(table, candidate):
                yield from grow((*table, candidate), pool[i + 1:], size)

    try:
        found = fill(list(players), sorted(sizes, reverse=True))
    except _Spent:
        return None
    return None if found is None else tuple(found)


def _fewest_repeats(players: Sequence[int], sizes: Sequence[int],
                    met: Collection[Pair]) -> tuple[tuple[int, ...], ...]:
    """Tables down the standings, each filled with whoever has met its players least."""
    left = list(players)
    tables = []
    for size in sorted(sizes, reverse=True):
        table = [left.pop(0)]
        while len(table) < size:
            best = min(left, key=lambda p: (sum(frozenset((p, q)) in met for q in table),
                                            left.index(p)))
            left.remove(best)
            table.append(best)
        tables.append(tuple(table))
    return tuple(tables)


def round_robin(entries: Sequence[int], round_index: int) -> Seating:
    """Round ``round_index`` (from 0) of the circle method over ``entries`` (sign-up
    order): the first stays, the others turn one place a round; with an odd number one
    player a round has a bye.

    >>> [round_robin([1, 2, 3], r) for r in range(3)]  # doctest: +NORMALIZE_WHITESPACE
    [Seating(tables=((2, 3),), byes=(1,)), Seating(tables=((1, 3),), byes=(2,)),
     Seating(tables=((1, 2),), byes=(3,))]
    """
    circle: list[int | None] = list(entries)
    if len(circle) % 2:
        circle.append(None)
    count = len(circle)
    if count < 2:
        return Seating((), tuple(entries))
    turn = round_index % (count - 1)
    rest = circle[1:]
    turned = [circle[0], *rest[-turn:], *rest[:-turn]] if turn else circle
    tables, byes = [], []
    for i in range(count // 2):
        a, b = turned[i], turned[count - 1 - i]
        if a is None or b is None:
            byes.append(a if b is None else b)
        else:
            tables.append((a, b) if entries.index(a) < entries.index(b) else (b, a))
    return Seating(tuple(tables), tuple(p for p in byes if p is not None))


def round_robin_rounds(players: int) -> int:
    """How many rounds a round-robin of ``players`` takes.

    >>> round_robin_rounds(4), round_robin_rounds(5)
    (3, 5)
    """
    return players - 1 if players % 2 == 0 else players
