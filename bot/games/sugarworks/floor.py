"""The factory floor of a game state: which icon is on every space, which candies are where."""

from __future__ import annotations

from typing import Any

from bot.games.sugarworks.content import (
    Cell,
    Side,
    cell_name,
    output_icons,
    parse_cell,
    sides,
    tile_kinds,
)
from bot.games.sugarworks.movement import Tile

State = dict[str, Any]


def side_of(state: State) -> Side:
    return sides()[state["side"]]


def cell(text: str) -> Cell:
    """A cell from its name; the state only ever holds valid names."""
    out = parse_cell(text)
    assert out is not None, text
    return out


def tiles_of(state: State) -> dict[Cell, Tile]:
    """The icons on every space: output tile, else a played conveyor tile, else the print."""
    side = side_of(state)
    tiles: dict[Cell, Tile] = {c: (icon, None) for c, icon in side.printed.items()}
    for name, placed in state["placed"].items():
        kind = tile_kinds()[placed["kind"]]
        tiles[cell(name)] = (kind.centre, kind.corner)
    for name in state["outputs"].values():
        tiles[cell(name)] = output_icons()
    return tiles


def candies_on_board(state: State) -> list[tuple[str, str, Cell]]:
    """(id, type, cell) of every candy on the floor."""
    return [(c["id"], c["type"], cell(c["at"])) for c in state["candies"]]


def output_at(state: State) -> dict[str, str]:
    """Cell name -> candy type of the output tile there."""
    return {where: kind for kind, where in state["outputs"].items()}


def occupied(state: State) -> dict[str, dict[str, Any]]:
    """Cell name -> the candy on it."""
    return {c["at"]: c for c in state["candies"]}


def open_output_spaces(state: State, kind: str) -> list[str]:
    """Output spaces an output tile of ``kind`` may be adjusted to: no tile, no candy there.

    Decision (see the rules document): a space is open when no output tile and no candy
    is on it; an output tile may move to any open output space (rules 1: only in its
    own row). A row has two output spaces, so a row holding two outputs is full.
    """
    side = side_of(state)
    here = cell(state["outputs"][kind])
    taken = set(state["outputs"].values())
    candies = occupied(state)
    out = []
    for space in side.output_spaces:
        name = cell_name(space)
        if state["rules"] < 2 and space[1] != here[1]:
            continue
        if name not in taken and name not in candies:
            out.append(name)
    return out
