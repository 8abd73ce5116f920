"""Helpers for Sugar Blast rule tests: draw boards as text, seat players."""

from __future__ import annotations

from bot.games.engine import SeatInfo, State
from bot.games.sugar_blast import SugarBlast
from bot.games.sugar_blast import board as bd
from bot.games.sugar_blast import objectives as obj

LETTERS = {"M": "marshmallow", "C": "corn", "K": "cane", "L": "lollipop", "G": "gumdrop",
           "T": "truffle", ".": None}

GAME = SugarBlast()

# A board with no two equal neighbours at all: kind index (col + 2*row) % 6.
BASE = [
    "G T M C K L",  # row 6
    "K L G T M C",
    "M C K L G T",
    "G T M C K L",
    "K L G T M C",
    "M C K L G T",  # row 1
]


def board_from(rows: list[str]) -> bd.Board:
    """Rows written top (row 6) to bottom (row 1), one letter per cell."""
    cells = [row.split() for row in rows]
    assert len(cells) == bd.SIZE and all(len(r) == bd.SIZE for r in cells)
    return [[LETTERS[ch] for ch in cells[bd.SIZE - 1 - r]] for r in range(bd.SIZE)]


def game_with(rows: list[str], players: int = 2, bag: dict[str, int] | None = None,
              objective: str = "three-pairs", phase: str = "swap") -> State:
    """A fresh game whose board is ``rows``; the bag holds the rest of the 72 chips
    unless ``bag`` is given (then chips missing from both count as already kept by nobody,
    which rule tests that check conservation must avoid)."""
    seats = [SeatInfo(n) for n in ("Ana", "Bo", "Cy", "Di")[:players]]
    state = GAME.new(seats, seed=1, options={"objective": objective})
    board = board_from(rows)
    state["board"] = board
    if bag is None:
        bag = {k: obj.chips_per_kind() for k in obj.candy_kinds()}
        for row in board:
            for candy in row:
                if candy:
                    bag[candy] -= 1
    state["bag"] = bag
    state["decisions"] = []
    if phase == "blast":  # several Blasts on the board: the turn player chooses one
        state["phase"] = "swap"
        GAME.ask(state, "blast", [state["turn"]])
    else:
        state["phase"] = phase
    state["drawn"] = None
    state["last"] = {"seat": 0, "swap": None, "replaced": None, "blasted": []}
    return state


def chip_total(state: State) -> int:
    on_board = sum(1 for row in state["board"] for c in row if c)
    kept = sum(sum(k.values()) for k in state["kept"])
    limbo = sum(state["returning"].values()) + (1 if state["drawn"] else 0)
    return on_board + sum(state["bag"].values()) + kept + limbo
