"""Helpers for Sugar Blast rule tests: draw boards as text, seat players."""

from __future__ import annotations

from bot.games import engine
from bot.games.engine import Engine, SeatInfo, State
from bot.games.sugar_blast import SugarBlast
from bot.games.sugar_blast import board as bd
from bot.games.sugar_blast import objectives as obj
from bot.games.sugar_blast import powers as pw

LETTERS = {"M": "marshmallow", "C": "corn", "K": "cane", "L": "lollipop", "G": "gumdrop",
           "T": "truffle", ".": None}

GAME = Engine(SugarBlast())

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
              objective: str = "three-pairs", phase: str = "swap", power: str = "none",
              chips: dict[str, str] | None = None, spaces: dict[str, str] | None = None,
              hands: dict[int, dict[str, int]] | None = None) -> State:
    """A fresh game whose board is ``rows``; the bag holds the rest of the 72 chips
    unless ``bag`` is given (then chips missing from both count as already kept by nobody,
    which rule tests that check conservation must avoid).

    With ``power`` cards, their tokens are exactly ``chips`` (on candies) and
    ``spaces`` (on spaces) by cell name, the rest in their piles; ``hands`` gives
    tokens to seats, the rest stay on the cards."""
    seats = [SeatInfo(n) for n in ("Ana", "Bo", "Cy", "Di")[:players]]
    options = {"objective": objective, "power": power}
    state = GAME.new(seats, seed=1, options=options)
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
        engine.ask(state, "blast", [state["turn"]])
    else:
        state["phase"] = phase
    state["drawn"] = None
    state["last"] = {"seat": 0, "swap": None, "replaced": None, "blasted": []}
    if "power" in state:
        set_tokens(state, chips or {}, spaces or {}, hands or {})
    return state


def set_tokens(state: State, chips: dict[str, str], spaces: dict[str, str],
               hands: dict[int, dict[str, int]]) -> None:
    """Put exactly these tokens on the board and in hands; the others wait off the board."""
    power = state["power"]
    power["chips"], power["spaces"] = dict(chips), dict(spaces)
    power["hands"] = [dict(hands.get(seat, {})) for seat in range(len(state["seats"]))]
    for card_id in power["cards"]:
        card = pw.card(card_id)
        held = sum(h.get(card_id, 0) for h in power["hands"])
        on_board = sum(1 for c in [*chips.values(), *spaces.values()] if c == card_id)
        if card["type"] == "pile":
            power["pile"][card_id] = card["tokens"] - on_board
        if card["type"] == "discard":
            power["supply"][card_id] = card["tokens"] - held
    power["progress"] = 0


def token_total(state: State) -> dict[str, int]:
    """Every card in play's tokens, counted wherever they are."""
    return {c: pw.token_count(state["power"], c) for c in state["power"]["cards"]}


def chip_total(state: State) -> int:
    on_board = sum(1 for row in state["board"] for c in row if c)
    kept = sum(sum(k.values()) for k in state["kept"])
    limbo = sum(state["returning"].values()) + (1 if state["drawn"] else 0)
    return on_board + sum(state["bag"].values()) + kept + limbo


def with_rows(**rows: str) -> list[str]:
    """BASE with some rows replaced, e.g. ``with_rows(r1="M M C M G T")``."""
    out = list(BASE)
    for key, text in rows.items():
        out[bd.SIZE - int(key[1:])] = text
    return out


def show(state: State) -> str:
    """The board as rows of letters, top row first (for assertion messages)."""
    names = {v: k for k, v in LETTERS.items()}
    return "\n".join(" ".join(names[c] for c in state["board"][r])
                     for r in range(bd.SIZE - 1, -1, -1))
