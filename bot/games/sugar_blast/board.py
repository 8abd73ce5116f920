"""The Sugar Blast board: finding Blasts, tilting and refilling.

The board is a list of rows, ``board[row][col]``, row 0 on the south edge. A
cell holds a candy kind or ``None`` (only once the bag has run dry).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.games.grid import Cell, cell_name
from bot.games.pieces import Bag, bag_add, bag_draw
from bot.games.rng import Rng

SIZE = 6
SIDES = ("south", "west", "north", "east")
"""Sides in clockwise order; seat ``i`` of ``n`` sits at ``SEATING[n][i]``."""
SEATING: dict[int, tuple[str, ...]] = {
    2: ("south", "north"),
    3: ("south", "west", "north"),
    4: ("south", "west", "north", "east"),
}

Board = list[list[str | None]]


@dataclass(frozen=True)
class Blast:
    """One Blast the player could resolve now.

    ``kind`` is ``three``, ``four``, ``big`` (5 or 6 in a line) or ``mega``.
    ``matched`` are the cells of the matching candies, ``extra`` the other
    cells it removes (rest of the line, rest of the 3x3 square, or every other
    candy of that kind for a big Blast).
    """

    kind: str
    candy: str
    matched: tuple[Cell, ...]
    extra: tuple[Cell, ...]
    notation: str

    @property
    def removed(self) -> tuple[Cell, ...]:
        return self.matched + self.extra

    @property
    def keep_matched(self) -> int:
        """How many matching candies the player keeps."""
        return keep_matched(self.kind)

    @property
    def keeps_other(self) -> bool:
        """Whether the player also keeps one non-matching removed candy."""
        return keeps_other(self.kind)


def keep_matched(kind: str) -> int:
    """How many matching candies a Blast of ``kind`` leaves the player."""
    return 2 if kind == "big" else 1


def keeps_other(kind: str) -> bool:
    """Whether a Blast of ``kind`` also leaves the player one non-matching removed candy."""
    return kind in ("four", "mega")


@dataclass(frozen=True)
class BoardRules:
    """What power tokens change on the board (see ``powers.board_rules``).

    ``wild`` candies match every kind, ``blocked`` ones match none, ``locked``
    ones cannot be swapped, replaced or taken, and the tilt cannot move a candy
    through an ``anchor`` cell. The basic game's rules are empty: one
    implementation finds the Blasts and swaps of both.
    """

    wild: frozenset[Cell] = field(default_factory=frozenset)
    blocked: frozenset[Cell] = field(default_factory=frozenset)
    locked: frozenset[Cell] = field(default_factory=frozenset)
    anchors: frozenset[Cell] = field(default_factory=frozenset)

    def swapped(self, a: Cell, b: Cell) -> BoardRules:
        """The rules once the candies on ``a`` and ``b`` (and their tokens) change places."""

        def move(cells: frozenset[Cell]) -> frozenset[Cell]:
            return frozenset(b if c == a else a if c == b else c for c in cells)

        return BoardRules(move(self.wild), move(self.blocked), move(self.locked), self.anchors)

    def matches(self, board: Board, cell: Cell, kind: str) -> bool:
        """Whether the candy on ``cell`` counts as ``kind`` in a Blast."""
        candy = at(board, cell)
        if candy is None or cell in self.blocked:
            return False
        return candy == kind or cell in self.wild

    def own_kind(self, board: Board, cell: Cell) -> str | None:
        """The kind a candy gives a Blast it is in: ``None`` for wild, blocked and empty cells."""
        if cell in self.wild or cell in self.blocked:
            return None
        return at(board, cell)


def at(board: Board, cell: Cell) -> str | None:
    return board[cell[1]][cell[0]]


def put(board: Board, cell: Cell, candy: str | None) -> None:
    board[cell[1]][cell[0]] = candy


def all_cells() -> list[Cell]:
    return [(c, r) for r in range(SIZE) for c in range(SIZE)]


def _span(cells: tuple[Cell, ...]) -> str:
    return f"{cell_name(cells[0])}-{cell_name(cells[-1])}"


def find_blasts(board: Board, rules: BoardRules | None = None) -> list[Blast]:
    """All Blasts available on ``board``, in a stable order (lines, then Mega-Blasts).

    With power ``rules`` wild candies match any kind and blocked ones none; a
    big Blast still removes only the candies that really are of its kind. The
    basic game has no rules: every candy is only itself.
    """
    return _blasts(board, rules or BoardRules())


def has_line(board: Board) -> bool:
    """Whether a straight line of 3 or more equal candies is on the board."""
    return has_blast(board)


def has_blast(board: Board, rules: BoardRules | None = None) -> bool:
    """Whether any Blast is on the board (with power tokens taken into account)."""
    return bool(find_blasts(board, rules))


def blasting_swaps(board: Board, rules: BoardRules | None = None,
                   diagonal: bool = False) -> list[tuple[Cell, Cell]]:
    """Every swap of two different, orthogonally adjacent candies that makes a Blast.

    With power ``rules`` locked candies cannot move; ``diagonal`` looks at
    diagonal neighbours instead (the Twist card).
    """
    return _swaps(board, rules or BoardRules(), diagonal)


def swap(board: Board, a: Cell, b: Cell) -> None:
    va, vb = at(board, a), at(board, b)
    put(board, a, vb)
    put(board, b, va)


def to_board(side: str, x: int, y: int) -> Cell:
    """A cell as seen from ``side``: ``y`` rows away from that player, ``x`` from their left."""
    last = SIZE - 1
    if side == "south":
        return (x, y)
    if side == "north":
        return (last - x, last - y)
    if side == "west":
        return (y, last - x)
    if side == "east":
        return (last - y, x)
    raise ValueError(side)


def tilt(board: Board, side: str) -> None:
    """Slide every candy toward ``side`` as far as it goes."""
    for x in range(SIZE):
        line = [to_board(side, x, y) for y in range(SIZE)]
        candies = [at(board, c) for c in line if at(board, c) is not None]
        for y, cell in enumerate(line):
            put(board, cell, candies[y] if y < len(candies) else None)


def refill(board: Board, side: str, bag: Bag, rng: Rng) -> list[Cell]:
    """Fill gaps from the bag, nearest row first and left to right as ``side`` sees it.

    Returns the filled cells; stops early when the bag is empty.
    """
    filled: list[Cell] = []
    for y in range(SIZE):
        for x in range(SIZE):
            cell = to_board(side, x, y)
            if at(board, cell) is None:
                candy = bag_draw(bag, rng)
                if candy is None:
                    return filled
                put(board, cell, candy)
                filled.append(cell)
    return filled


def deal(bag: Bag, rng: Rng) -> Board:
    """Fill an empty board from the bag with no straight line of 3 or more.

    A chip that would complete a line is set aside and another drawn; set-aside
    chips go back in the bag once the space is filled.
    """
    board: Board = [[None] * SIZE for _ in range(SIZE)]
    for cell in all_cells():
        aside: list[str] = []
        while True:
            candy = bag_draw(bag, rng)
            if candy is None:  # only chips that would make a line are left
                candy = aside.pop()
                put(board, cell, candy)
                break
            put(board, cell, candy)
            if not _blast_through(board, cell, BoardRules()):
                break
            aside.append(candy)
        for chip in aside:
            bag_add(bag, chip)
    return board


# --------------------------------------------------------------------------- finding Blasts


def _line(horizontal: bool, line: int) -> list[Cell]:
    return [(i, line) if horizontal else (line, i) for i in range(SIZE)]


def _runs_in(board: Board, cells: list[Cell],
             rules: BoardRules) -> list[tuple[str, tuple[Cell, ...]]]:
    """Maximal runs of 3+ cells that all match one kind, with at least one real candy of it."""
    values = [board[r][c] for c, r in cells]
    wild = [cell in rules.wild for cell in cells]
    blocked = [cell in rules.blocked for cell in cells]
    n = len(cells)
    found: list[tuple[int, str, tuple[Cell, ...]]] = []
    if not any(wild) and not any(blocked):  # the common case: runs of equal candies
        start = 0
        while start < n:
            candy, end = values[start], start + 1
            while end < n and candy is not None and values[end] == candy:
                end += 1
            if candy is not None and end - start >= 3:
                found.append((start, candy, tuple(cells[start:end])))
            start = end
        return [(kind, run) for _, kind, run in found]
    own = [None if w or b else v for v, w, b in zip(values, wild, blocked, strict=True)]
    kinds = list(dict.fromkeys(k for k in own if k is not None))
    for kind in kinds:
        start = 0
        while start < n:
            end = start
            while end < n and values[end] is not None and not blocked[end] \
                    and (values[end] == kind or wild[end]):
                end += 1
            if end - start >= 3 and kind in own[start:end]:
                found.append((start, kind, tuple(cells[start:end])))
            start = max(end, start + 1)
    found.sort(key=lambda item: item[0])
    return [(kind, run) for _, kind, run in found]


def _blasts(board: Board, rules: BoardRules) -> list[Blast]:
    blasts: list[Blast] = []
    across: list[tuple[str | None, tuple[Cell, ...]]] = []
    down: list[tuple[str | None, tuple[Cell, ...]]] = []
    for horizontal in (True, False):
        for line in range(SIZE):
            whole = _line(horizontal, line)
            # Three wild candies in a row are no Blast alone, but may be one arm of a Mega-Blast.
            (across if horizontal else down).extend(_wild_stretches(board, whole, rules))
            for candy, run in _runs_in(board, whole, rules):
                (across if horizontal else down).append((candy, run))
                if len(run) == 3:
                    blasts.append(Blast("three", candy, run, (), f"blast {_span(run)}"))
                elif len(run) == 4:
                    rest = tuple(c for c in whole if c not in run and at(board, c) is not None)
                    blasts.append(Blast("four", candy, run, rest, f"blast {_span(run)}"))
                else:
                    rest = tuple(c for c in all_cells() if c not in run and at(board, c) == candy)
                    blasts.append(Blast("big", candy, run, rest, f"blast {_span(run)}"))
    return blasts + _megas(board, rules, across, down)


def _wild_stretches(board: Board, cells: list[Cell],
                    rules: BoardRules) -> list[tuple[str | None, tuple[Cell, ...]]]:
    stretches: list[tuple[str | None, tuple[Cell, ...]]] = []
    start = 0
    while start < len(cells):
        end = start
        while end < len(cells) and cells[end] in rules.wild and cells[end] not in rules.blocked \
                and at(board, cells[end]) is not None:
            end += 1
        if end - start >= 3:
            stretches.append((None, tuple(cells[start:end])))
        start = max(end, start + 1)
    return stretches


def _megas(board: Board, rules: BoardRules,
          across: list[tuple[str | None, tuple[Cell, ...]]],
          down: list[tuple[str | None, tuple[Cell, ...]]]) -> list[Blast]:
    """Mega-Blasts: three cells of a row run crossing three of a column run of the same kind.

    Both stretches of 3 then lie in one 3x3 square; at least one of the five
    candies must really be of the kind (not wild). Ordered as the basic game
    ordered by square, then row, then column.
    """
    found: list[tuple[tuple[int, int, int, int], Blast]] = []
    seen: set[str] = set()
    for h_kind, h_run in across:
        for v_kind, v_run in down:
            if h_kind is not None and v_kind is not None and h_kind != v_kind:
                continue
            candy = h_kind or v_kind
            if candy is None:
                continue
            for a in range(len(h_run) - 2):
                row = h_run[a:a + 3]
                left, y = row[0]
                for b in range(len(v_run) - 2):
                    col = v_run[b:b + 3]
                    x, bottom = col[0]
                    if not (left <= x <= left + 2 and bottom <= y <= bottom + 2):
                        continue
                    cells = set(row) | set(col)
                    if not any(rules.own_kind(board, c) == candy for c in cells):
                        continue
                    square = [(left + dc, bottom + dr) for dr in range(3) for dc in range(3)]
                    notation = f"mega {_span(row)} {_span(col)}"
                    if notation in seen:  # a stretch of wilds inside a run finds it twice
                        continue
                    seen.add(notation)
                    matched = tuple(sorted(cells, key=lambda c: (c[1], c[0])))
                    extra = tuple(c for c in square if c not in cells
                                  and at(board, c) is not None)
                    found.append(((left, bottom, y - bottom, x - left),
                                  Blast("mega", candy, matched, extra, notation)))
    found.sort(key=lambda item: item[0])
    return [blast for _, blast in found]


def _blast_through(board: Board, cell: Cell, rules: BoardRules) -> bool:
    """Whether ``cell`` is in a run of 3+ matching one kind that has a real candy of it."""
    if at(board, cell) is None or cell in rules.blocked:
        return False
    col, row = cell
    if cell in rules.wild:
        # The run's real candy is the first candy past the wild ones, in one direction.
        kinds = set()
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            c, r = col + dc, row + dr
            while 0 <= c < SIZE and 0 <= r < SIZE and (c, r) in rules.wild \
                    and (c, r) not in rules.blocked and board[r][c] is not None:
                c, r = c + dc, r + dr
            if 0 <= c < SIZE and 0 <= r < SIZE and rules.own_kind(board, (c, r)):
                kinds.add(rules.own_kind(board, (c, r)))
    else:
        kinds = {at(board, cell)}
    for kind in kinds:
        assert kind is not None
        for dc, dr in ((1, 0), (0, 1)):
            span = [cell]
            for sign in (1, -1):
                c, r = col + sign * dc, row + sign * dr
                while 0 <= c < SIZE and 0 <= r < SIZE and rules.matches(board, (c, r), kind):
                    span.append((c, r))
                    c, r = c + sign * dc, r + sign * dr
            if len(span) >= 3 and any(rules.own_kind(board, x) == kind for x in span):
                return True
    return False


def _swaps(board: Board, rules: BoardRules, diagonal: bool) -> list[tuple[Cell, Cell]]:
    steps = ((1, 1), (1, -1)) if diagonal else ((1, 0), (0, 1))
    swaps = []
    for row in range(SIZE):
        for col in range(SIZE):
            for dc, dr in steps:
                a, b = (col, row), (col + dc, row + dr)
                if not (0 <= b[0] < SIZE and 0 <= b[1] < SIZE):
                    continue
                va, vb = at(board, a), at(board, b)
                if va is None or vb is None or va == vb or a in rules.locked \
                        or b in rules.locked:
                    continue
                moved = rules.swapped(a, b)
                swap(board, a, b)
                makes = _blast_through(board, a, moved) or _blast_through(board, b, moved)
                swap(board, a, b)
                if makes:
                    swaps.append((a, b))
    return swaps


def tilt_moves(board: Board, side: str, anchors: frozenset[Cell]) -> dict[Cell, Cell]:
    """Tilt toward ``side`` where no candy may slide through an anchor cell.

    Each line splits at its anchors: the candies between two anchors slide as
    far as the nearer anchor, and a candy on an anchor stays (an empty anchor
    takes the first candy behind it). Returns where every candy went.
    """
    moves: dict[Cell, Cell] = {}
    for x in range(SIZE):
        line = [to_board(side, x, y) for y in range(SIZE)]
        starts = [0] + [y for y in range(1, SIZE) if line[y] in anchors]
        values = {cell: at(board, cell) for cell in line}
        for cell in line:
            put(board, cell, None)
        for start, end in zip(starts, [*starts[1:], SIZE], strict=True):
            candies = [c for c in line[start:end] if values[c] is not None]
            for k, old in enumerate(candies):
                moves[old] = line[start + k]
                put(board, line[start + k], values[old])
    return moves
