"""A season's final standings as a picture (renderers/season.py): the frame's width, no
taller than a phone shows whole, names shortened to fit; and the picture docs/discord.md
shows is the one the renderer draws."""

from __future__ import annotations

import io
import os
from typing import Any

from PIL import Image, ImageChops

from renderers import common, season
from tests.support.paths import ROOT

DOCS = ROOT / "docs" / "season-standings.png"


def rows(n: int, name: str = "Player", *names: str) -> list[dict[str, Any]]:
    """``n`` ranked players, named ``names`` then ``name 1``, ``name 2``...; the last
    provisional."""
    return [{"name": names[k - 1] if k <= len(names) else f"{name} {k}",
             "rating": 300 - 45 * k, "games": 3 if k == n else 14 - 2 * k,
             "provisional": k == n} for k in range(1, n + 1)]


#: The example docs/discord.md shows.
EXAMPLE = {"title": "Autumn 2027: final standings", "when": "1 Sep 2027 to 30 Nov 2027 (UTC)",
           "games": [{"game": "Sugar Blast", "rows": rows(4, "", "Ana", "Bo", "Cy", "Dee")},
                     {"game": "Sugarworks", "rows": rows(3, "", "Eli", "Ana", "Fay")}],
           "note": "? = provisional: fewer than 5 rated games."}


def picture(board: dict[str, Any]) -> Image.Image:
    return Image.open(io.BytesIO(season.render(board)))


def test_the_picture_is_the_frames_width_and_a_phone_shows_it_whole() -> None:
    many = {**EXAMPLE, "games": [{"game": f"Game {g}", "rows": rows(10)} for g in range(5)]}
    for board in (EXAMPLE, many, {**EXAMPLE, "games": []}):
        image = picture(board)
        assert image.width == common.FRAME_W
        assert image.height <= common.FRAME_MAX_H
    # Five games of ten players: each shows its first two (the words list ten).
    assert season.shown_rows(5, 10) == 2 and season.shown_rows(1, 10) == 10


def test_a_long_name_does_not_push_the_picture_wider() -> None:
    board = {**EXAMPLE, "games": [{"game": "G" * 90, "rows": rows(1, "N" * 120)}]}
    assert picture(board).width == common.FRAME_W


def test_the_documented_picture_is_what_the_renderer_draws() -> None:
    drawn = picture(EXAMPLE).convert("RGB")
    if os.environ.get("CANDYBOT_WRITE_DOCS"):
        drawn.save(DOCS)
    kept = Image.open(DOCS).convert("RGB")
    assert kept.size == drawn.size and ImageChops.difference(kept, drawn).getbbox() is None
