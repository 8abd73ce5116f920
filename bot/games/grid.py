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


# --------------------------------------------------------------------------- hex grids

Hex = tuple[int, int]
"""Axial coordinates (q, r) of a flat-topped hex; (0, 0) is the centre."""

HEX_SIDES = 6
#: Axial step across each side, clockwise from north: N, NE, SE, S, SW, NW.
HEX_DIRECTIONS: tuple[Hex, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
SQRT3 = 3 ** 0.5


def hex_neighbour(pos: Hex, side: int) -> Hex:
    """The hex across ``side`` (0 north, clockwise) of ``pos``."""
    dq, dr = HEX_DIRECTIONS[side % HEX_SIDES]
    return (pos[0] + dq, pos[1] + dr)


def hex_opposite(side: int) -> int:
    return (side + 3) % HEX_SIDES


def hex_rotated(side: int, degrees: int) -> int:
    """Where printed side ``side`` lies after turning the hex clockwise by ``degrees``."""
    return (side + degrees // 60) % HEX_SIDES


def hex_ring(pos: Hex) -> int:
    """Distance from (0, 0) in hexes."""
    q, r = pos
    return max(abs(q), abs(r), abs(q + r))


def hex_centre(pos: Hex, size: float) -> tuple[float, float]:
    """Centre of a flat-topped hex of ``size`` (centre to corner); y grows downwards."""
    q, r = pos
    return 1.5 * q * size, SQRT3 * (r + q / 2) * size


def hex_corners(centre: tuple[float, float], size: float) -> list[tuple[float, float]]:
    """The six corners of a flat-topped hex, starting east and going clockwise."""
    cx, cy = centre
    return [(cx + size * c, cy + size * s) for c, s in _UNIT_CORNERS]


_UNIT_CORNERS = tuple(((1.0, 0.0), (0.5, SQRT3 / 2), (-0.5, SQRT3 / 2), (-1.0, 0.0),
                       (-0.5, -SQRT3 / 2), (0.5, -SQRT3 / 2)))
