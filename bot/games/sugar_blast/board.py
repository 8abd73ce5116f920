"""The Sugar Blast board: finding Blasts, tilting and refilling.

The board is a list of rows, ``board[row][col]``, row 0 on the south edge. A
cell holds a candy kind or ``None`` (only once the bag has run dry).
"""

from __future__ import annotations

from dataclasses import dataclass

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
        return 2 if self.kind == "big" else 1

    @property
    def keeps_other(self) -> bool:
        """Whether the player also keeps one non-matching removed candy."""
        return self.kind in ("four", "mega")


def at(board: Board, cell: Cell) -> str | None:
    return board[cell[1]][cell[0]]


def put(board: Board, cell: Cell, candy: str | None) -> None:
    board[cell[1]][cell[0]] = candy


def all_cells() -> list[Cell]:
    return [(c, r) for r in range(SIZE) for c in range(SIZE)]


def _runs(board: Board) -> list[tuple[str, tuple[Cell, ...]]]:
    """Every maximal straight run of 3+ equal candies, rows first then columns."""
    runs: list[tuple[str, tuple[Cell, ...]]] = []
    for horizontal in (True, False):
        for line in range(SIZE):
            cells = [(i, line) if horizontal else (line, i) for i in range(SIZE)]
            start = 0
            while start < SIZE:
                candy = at(board, cells[start])
                end = start + 1
                while end < SIZE and candy is not None and at(board, cells[end]) == candy:
                    end += 1
                if candy is not None and end - start >= 3:
                    runs.append((candy, tuple(cells[start:end])))
                start = end
    return runs


def _span(cells: tuple[Cell, ...]) -> str:
    return f"{cell_name(cells[0])}-{cell_name(cells[-1])}"


def find_blasts(board: Board) -> list[Blast]:
    """All Blasts available on ``board``, in a stable order (lines, then Mega-Blasts)."""
    blasts: list[Blast] = []
    for candy, run in _runs(board):
        horizontal = run[0][1] == run[-1][1]
        if len(run) == 3:
            blasts.append(Blast("three", candy, run, (), f"blast {_span(run)}"))
        elif len(run) == 4:
            line = run[0][1] if horizontal else run[0][0]
            whole = [(i, line) if horizontal else (line, i) for i in range(SIZE)]
            rest = tuple(c for c in whole if c not in run and at(board, c) is not None)
            blasts.append(Blast("four", candy, run, rest, f"blast {_span(run)}"))
        else:
            rest = tuple(c for c in all_cells() if c not in run and at(board, c) == candy)
            blasts.append(Blast("big", candy, run, rest, f"blast {_span(run)}"))
    blasts.extend(_megas(board))
    return blasts


def _megas(board: Board) -> list[Blast]:
    """Mega-Blasts: a row of 3 and a column of 3 of one candy crossing inside a 3x3 square.

    Every such crossing is a T, an L or a +, depending on where the two
    arms meet; each is exactly 5 candies.
    """
    found: list[Blast] = []
    for left in range(SIZE - 2):
        for bottom in range(SIZE - 2):
            square = [(left + dc, bottom + dr) for dr in range(3) for dc in range(3)]
            for i in range(3):
                row = tuple((left + dc, bottom + i) for dc in range(3))
                candy = at(board, row[0])
                if candy is None or any(at(board, c) != candy for c in row):
                    continue
                for j in range(3):
                    col = tuple((left + j, bottom + dr) for dr in range(3))
                    if any(at(board, c) != candy for c in col):
                        continue
                    matched = tuple(sorted(set(row) | set(col), key=lambda c: (c[1], c[0])))
                    extra = tuple(c for c in square if c not in matched
                                  and at(board, c) is not None)
                    found.append(Blast("mega", candy, matched, extra,
                                       f"mega {_span(row)} {_span(col)}"))
    return found


def has_line(board: Board) -> bool:
    return bool(_runs(board))


def _line_through(board: Board, cell: Cell) -> bool:
    """Whether ``cell`` is part of a straight line of 3+ equal candies."""
    candy = at(board, cell)
    if candy is None:
        return False
    col, row = cell
    for dc, dr in ((1, 0), (0, 1)):
        count = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while 0 <= c < SIZE and 0 <= r < SIZE and board[r][c] == candy:
                count += 1
                c, r = c + sign * dc, r + sign * dr
        if count >= 3:
            return True
    return False


def blasting_swaps(board: Board) -> list[tuple[Cell, Cell]]:
    """Every swap of two different, orthogonally adjacent candies that makes a Blast."""
    swaps = []
    for row in range(SIZE):
        for col in range(SIZE):
            for other in ((col + 1, row), (col, row + 1)):
                if other[0] >= SIZE or other[1] >= SIZE:
                    continue
                a, b = board[row][col], at(board, other)
                if a is None or b is None or a == b:
                    continue
                swap(board, (col, row), other)
                makes = _line_through(board, (col, row)) or _line_through(board, other)
                swap(board, (col, row), other)
                if makes:
                    swaps.append(((col, row), other))
    return swaps


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
    filled = []
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
            if not _line_through(board, cell):
                break
            aside.append(candy)
        for chip in aside:
            bag_add(bag, chip)
    return board
