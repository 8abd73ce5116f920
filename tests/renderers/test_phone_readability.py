"""Every picture reads on a phone, where pictures are shown about 400 px wide.

Measured from the renderers' own text: every string rasterised while a picture is
drawn (sprite caches emptied first, so nothing hides in a cache) is recorded with
its font size (``tools/pictures.py``, which ``candybot pictures`` runs).

Every game is drawn in the phone frame (:data:`PHONE_FIRST`) and meets issue 43's
targets on every public board of whole AI games at its fewest and most seats, and on a
seat's own picture: at most 1.6 times as tall as wide, text a 12 px font (median) and
nothing under 10 px once fitted to 400 px wide.
"""

from __future__ import annotations

from typing import Any

import pytest

import bot.games
import renderers.common
from tests.support.picture_games import views
from tools.pictures import MAX_RATIO, MIN_MEDIAN, MIN_SMALLEST, draw, measure

PHONE = 400
#: The capitals of a text a player needs, in px once fitted to 400 px wide, at the least
#: (tests/renderers/test_stand_in.py holds a stand-in's mark to it).
MIN_CAP = 7.0
#: Games drawn in the phone frame (renderers/common.py), held to issue 43's targets: every
#: registered game.
PHONE_FIRST = frozenset(bot.games.GAMES)


#: Games whose whole-game measure draws hundreds of boards (Candy Monsters: 563, some 30 s
#: of one core): measured in the slow run (`pytest -m slow`) and by `candybot pictures`,
#: while the default run measures their views below and their renderer's tests hold every
#: board of whole games to the frame's height.
MANY_BOARDS = frozenset({"kingdoms-candy-monsters"})


def _whole_games(slugs: frozenset[str]) -> list[Any]:
    return [pytest.param(slug, marks=pytest.mark.slow) if slug in MANY_BOARDS else slug
            for slug in sorted(slugs)]


@pytest.mark.parametrize("slug", _whole_games(PHONE_FIRST))
def test_every_public_board_of_whole_games_meets_the_phone_targets(slug):
    figures = measure(slug)
    assert figures.pictures > 20
    assert figures.worst_ratio <= MAX_RATIO, figures.worst_ratio_at
    assert figures.median_px >= MIN_MEDIAN
    assert figures.smallest_px >= MIN_SMALLEST, figures.smallest_text


@pytest.mark.parametrize("slug", sorted(PHONE_FIRST))
def test_a_seats_own_picture_and_every_text_meet_the_phone_targets(slug):
    for label, view, _ in views(slug):
        picture = draw(slug, view)
        assert picture.ratio <= MAX_RATIO, f"{label}: {picture.width}x{picture.height}"
        small = sorted({f"{t.text!r} at {t.size} px" for t in picture.texts
                        if picture.phone(t) < MIN_SMALLEST})
        assert not small, f"{label} ({picture.width} px wide): " + "; ".join(small)


def _cap_height(size: int, bold: bool) -> int:
    _, top, _, bottom = renderers.common.font(size, bold).getbbox("H")
    return bottom - top


def drawn_text(slug: str, view: dict[str, Any], monkeypatch: pytest.MonkeyPatch
               ) -> tuple[list[tuple[str, int, bool]], int]:
    """Every (text, size, bold) rasterised for ``view``'s picture, and the picture's width."""
    picture = draw(slug, view)
    return [(t.text, round(t.size), t.bold) for t in picture.texts], picture.width


def test_the_measure_sees_sprite_text_and_catches_small_text(monkeypatch):
    """Text drawn into cached sprites is recorded on every picture, at the size it is drawn:
    Sugarworks' crate names are drawn once into a kept sprite, and written smaller than the
    frame allows they are caught."""
    view = views("sugarworks")[1][1]
    texts, width = drawn_text("sugarworks", view, monkeypatch)
    again, _ = drawn_text("sugarworks", view, monkeypatch)
    assert sorted(texts) == sorted(again)  # the caches were emptied: all of it drawn again
    assert ("Heart", 24, True) in texts
    monkeypatch.setattr(renderers.common, "TEXT_PX", 16)
    smaller, _ = drawn_text("sugarworks", view, monkeypatch)
    assert ("Heart", 16, True) in smaller and 16 * PHONE / width < MIN_SMALLEST
