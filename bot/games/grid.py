"""Square-grid coordinates and their notation: columns a.., rows 1.. (a1 bottom left)."""

from __future__ import annotations

import re

Cell = tuple[int, int]
"""(column, row), both 0-based; column 0 is ``a``, row 0 is ``1``."""

_CELL = re.compile(r"^([a-z])([1-9][0-9]?)$")

ORTHOGONAL: tuple[Cell, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))


def cell_name(cell: Cell) -> str:
    col, row = cell
    return f"{chr(ord('a') + col)}{row + 1}"


def parse_cell(text: str, width: int, height: int) -> Cell | None:
    """``"c3"`` -> ``(2, 2)``; ``None`` if it is not a cell of a width x height grid."""
    m = _CELL.match(text)
    if not m:
        return None
    col, row = ord(m.group(1)) - ord("a"), int(m.group(2)) - 1
    if 0 <= col < width and 0 <= row < height:
        return (col, row)
    return None


def in_bounds(cell: Cell, width: int, height: int) -> bool:
    return 0 <= cell[0] < width and 0 <= cell[1] < height


def neighbours(cell: Cell, width: int, height: int) -> list[Cell]:
    """Orthogonal neighbours inside the grid."""
    col, row = cell
    out = []
    for dc, dr in ORTHOGONAL:
        nxt = (col + dc, row + dr)
        if in_bounds(nxt, width, height):
            out.append(nxt)
    return out


def adjacent(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
