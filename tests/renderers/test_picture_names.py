"""Each picture names the places and pieces a move names, in the notation's own words.

The move builder offers a move step by step with the notation's names (cells,
spots, outputs, cards, rooms); a player matches each choice to the picture. For
real games of every game, every name in the legal moves of the seat to act must
be drawn in that seat's picture, as recorded from the renderer's own text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

import bot.games
from tests.renderers.test_phone_readability import drawn_text
from tests.support.picture_games import states


def _cell(cell: str) -> list[str]:
    """A cell such as c13 is found by its column letter and its row number on the edges."""
    match = re.fullmatch(r"([a-z])(\d+)", cell)
    assert match, cell
    return [match.group(1), match.group(2)]


def _sugar_blast(notation: str) -> list[str]:
    verb, *rest = notation.split()
    if verb == "swap":
        return [name for cell in rest for name in _cell(cell)]
    if verb == "keep":
        return rest
    return []


def _sugartopia(notation: str) -> list[str]:
    if m := re.fullmatch(r"place (\w+) at (\w+) rot (\d+)", notation):
        return [m.group(1), m.group(2), f"rot {m.group(3)}"]
    if m := re.fullmatch(r"gingerman at (\w+)", notation):
        return [m.group(1)]
    if m := re.fullmatch(r"feed (\w+)", notation):
        return [m.group(1)]
    return []


def _sugar_heist(notation: str) -> list[str]:
    if m := re.fullmatch(r"(?:buy|board) (.+)", notation):
        return [m.group(1)]
    if m := re.fullmatch(r"build (.+) room (\d)( discard)?", notation):
        return [m.group(1), f"room {m.group(2)}"]
    if notation.startswith("pay "):
        return notation.split()[1:]
    return []


def _sugarworks(notation: str) -> list[str]:
    if m := re.fullmatch(r"take order (\d)", notation):
        return [m.group(1)]
    if m := re.fullmatch(r"adjust (\w+) to (\w+)", notation):
        return [m.group(1), *_cell(m.group(2))]
    if m := re.fullmatch(r"conveyor (\S+) at (\w+)", notation):
        return [f"conveyor {m.group(1)} at …", *_cell(m.group(2))]
    if m := re.fullmatch(r"make (\w+) at (\w+) with (\w+)", notation):
        return [m.group(1), *_cell(m.group(2)), m.group(3)]
    if m := re.fullmatch(r"(?:discard order|drop) (\w+)", notation):
        return [m.group(1)]
    return []


def _candy_monsters(notation: str) -> list[str]:
    if m := re.fullmatch(r"buy (.+?)(?: (red|green|blue|yellow|purple))?", notation):
        return [_printed(m.group(1)), *([m.group(2)] if m.group(2) else [])]
    if m := re.fullmatch(r"(?:use|let) (.+?)(?: go)?", notation):
        return [_printed(m.group(1))]
    if m := re.fullmatch(r"feed (.+) (?:sugar|candy|black)", notation):
        return [_printed(m.group(1))]
    return []


def _printed(key: str) -> str:
    """A card is drawn with its printed name: `buy im inevitable` and `use im inevitable`
    name I'M INEVITABLE (moves may be typed with or without the apostrophe)."""
    from bot.games.candy_monsters import cards

    return next((c.name for c in cards.catalogue().values() if c.key == key), key)


#: The games whose pictures draw a move's names in their own way (a cell by its column
#: and row on the edges, a card by its printed name).
NAMES: dict[str, Callable[[str], list[str]]] = {
    "sugar-blast": _sugar_blast, "sugartopia": _sugartopia, "sugar-heist": _sugar_heist,
    "sugarworks": _sugarworks, "kingdoms-candy-monsters": _candy_monsters,
}


def names_in(slug: str) -> Callable[[str], list[str]]:
    """The names a move of ``slug`` uses: its own way, or by default every step the move
    builder offers after the verb (``stake 2``: ``2``), each drawn as it reads."""
    game = bot.games.GAMES[slug]
    return NAMES.get(slug) or (lambda notation: list(game.rules.move_steps(notation)[1:]))


def test_every_game_drawn_its_own_way_is_registered():
    assert set(NAMES) <= set(bot.games.GAMES)


@pytest.mark.parametrize("slug", sorted(bot.games.GAMES))
def test_the_seat_to_act_sees_every_name_its_moves_use(slug, monkeypatch):
    game = bot.games.GAMES[slug]
    checked = 0
    for state in states(slug)[:-1]:
        for seat in sorted(game.to_act(state)):
            texts, _ = drawn_text(slug, game.view(state, seat), monkeypatch)
            drawn = {text.lower() for text, _, _ in texts}
            # In drawing order, so that a name wrapped over two lines reads as one.
            flow = " | ".join(text.lower() for text, _, _ in texts)
            for action in game.legal_actions(state, seat):
                for name in names_in(slug)(action.notation):
                    name = name.lower()
                    words = r"(?:\s|\s\|\s)".join(re.escape(w) for w in name.split())
                    assert name in drawn or re.search(rf"(^|[\s(]){words}($|[\s,.:)])", flow), \
                        f"{action.notation}: {name}"
                    checked += 1
    assert checked >= 10


def test_while_hideouts_are_chosen_every_free_board_is_drawn(monkeypatch):
    game = bot.games.GAMES["sugar-heist"]
    from bot.games.engine import SeatInfo

    state = game.new([SeatInfo(n) for n in ("Ann", "Ben", "Cat")], 3)
    state = game.apply(state, 0, game.legal_actions(state, 0)[0]).state
    texts, _ = drawn_text("sugar-heist", game.view(state, None), monkeypatch)
    flow = " ".join(text.lower() for text, _, _ in texts)
    offered = [a.notation.removeprefix("board ") for a in game.legal_actions(state, 1)]
    assert len(offered) == 5
    for name in offered:
        assert re.search(r"\b" + r"\s".join(map(re.escape, name.split())) + r"\b", flow), name
