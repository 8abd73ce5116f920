"""A seat an AI stands in for is marked beside its player's name in every game's picture.

The bot draws a game's pictures from a state whose stood-in seats are named
"Ana (AI standing in)" (:func:`bot.tables.core.marked_stand_ins`), so every renderer
shows the mark wherever it writes the name; a name shortened for room keeps the mark,
in the short form "(AI sub)" if need be, never the plain "(AI)" of an AI's own seat.
Checked from the text each renderer really draws, at a phone's 400 px.
"""

from __future__ import annotations

import pytest

import bot.games
from bot.games.engine import State
from bot.games.words import STANDING_IN, STANDING_IN_SHORT, standing_in
from bot.store import SeatRecord
from bot.tables.core import marked_stand_ins
from renderers.common import shorten, text_size
from tests.renderers.test_phone_readability import MIN_CAP, PHONE, _cap_height, drawn_text
from tests.support.picture_games import states

NAMES = ("Ana", "Bartholomew Longfellow", "Cy")


def _table(slug: str, stood_in: int) -> tuple[State, list[SeatRecord]]:
    """A mid-game state of ``slug`` with human seats named from :data:`NAMES` (the last
    an AI's own seat), and the seats with an AI standing in for seat ``stood_in``."""
    state = states(slug)[1]
    seats = len(state["seats"])
    infos = [{**info, "name": NAMES[i % len(NAMES)] + ("" if i < 3 else str(i)),
              "ai": i == seats - 1} for i, info in enumerate(state["seats"])]
    records = [SeatRecord(i, None if info["ai"] else 900 + i, str(info["name"]),
                          bool(info["ai"]), i == stood_in) for i, info in enumerate(infos)]
    return {**state, "seats": infos}, records


def _marked(texts: list[tuple[str, int, bool]], name: str) -> list[tuple[str, int, bool]]:
    """The drawn texts that name ``name`` (perhaps shortened) with the stand-in's mark."""
    out = []
    for text, size, bold in texts:
        for mark in (STANDING_IN, STANDING_IN_SHORT):
            head, found, _ = text.partition(mark)
            shown = head.rstrip("…")
            if found and shown and name.startswith(shown) and (shown == name or head != shown):
                out.append((text, size, bold))
    return out


@pytest.mark.parametrize("slug", sorted(bot.games.GAMES))
@pytest.mark.parametrize("stood_in", [0, 1], ids=["short name", "long name"])
def test_a_stand_in_is_marked_beside_its_name_readable_on_a_phone(
        slug: str, stood_in: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game = bot.games.GAMES[slug]
    state, seats = _table(slug, stood_in)
    name = str(state["seats"][stood_in]["name"])
    for viewer in (None, 1 - stood_in, stood_in):
        texts, width = drawn_text(slug, game.view(marked_stand_ins(state, seats), viewer),
                                  monkeypatch)
        marked = _marked(texts, name)
        assert marked, f"{slug} seen by {viewer}: no {name} marked as stood in"
        small = [text for text, size, bold in marked
                 if _cap_height(size, bold) * PHONE / width < MIN_CAP]
        assert not small, f"{slug}: the mark is too small on a phone: {small}"
        others = [str(info["name"]) for i, info in enumerate(state["seats"]) if i != stood_in]
        assert not any(_marked(texts, other) for other in others), "only the stood-in seat"


@pytest.mark.parametrize("slug", sorted(bot.games.GAMES))
def test_no_seat_is_marked_when_no_ai_stands_in(slug: str,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    game = bot.games.GAMES[slug]
    state, seats = _table(slug, stood_in=-1)
    assert marked_stand_ins(state, seats) is state
    texts, _ = drawn_text(slug, game.view(state, None), monkeypatch)
    assert not any(STANDING_IN in t or STANDING_IN_SHORT in t for t, _, _ in texts)


def test_the_saved_state_keeps_the_plain_names() -> None:
    state, seats = _table("sugar-blast", stood_in=0)
    before = [dict(info) for info in state["seats"]]
    shown = marked_stand_ins(state, seats)
    assert shown["seats"][0]["name"] == standing_in("Ana") == "Ana (AI standing in)"
    assert state["seats"] == before, "a copy: the narration keeps the plain name"


@pytest.mark.parametrize("width", [120, 160, 200, 260, 320, 400])
def test_a_shortened_name_keeps_its_stand_in_mark(width: int) -> None:
    text = standing_in("Bartholomew Longfellow") + " · 3 points"
    short = shorten(text, 24, width, bold=True)
    assert STANDING_IN in short or STANDING_IN_SHORT in short, short
    assert short.startswith("B")
    fits = text_size(short, 24, True)[0] <= width
    assert fits or short.startswith("B…"), f"{short!r} is wider than {width}"


def test_a_name_is_kept_whole_before_the_mark_is_shortened() -> None:
    full = standing_in("Ana")
    room = text_size("Ana" + STANDING_IN_SHORT, 24, True)[0]
    assert shorten(full, 24, room + 2, True) == "Ana" + STANDING_IN_SHORT
    assert shorten(full, 24, 1000, True) == full
    plain = shorten("Bartholomew Longfellow", 24, 120, True)
    assert plain.endswith("…") and "(AI" not in plain
