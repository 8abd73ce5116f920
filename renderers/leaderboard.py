"""A server's leaderboard for one game as a picture: rank, player, rating, rated games.

Pure like the game renderers: ``render(board)`` takes a JSON-compatible mapping
``{"title": str, "rows": [{"name", "rating", "games", "provisional"}], "note": str}``,
best first, and returns PNG bytes 800 px wide that read at 400 px on a phone. A
season's final standings (:mod:`renderers.season`) draw their rows with :func:`rank_row`.
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from renderers.common import INK, MUTED, new_canvas, panel, stamp_text, to_png

WIDTH = 800
ROW_H = 64
TOP = 96
#: Gold, silver and bronze for the first three ranks.
MEDALS = ((230, 180, 40), (170, 175, 185), (200, 125, 60))
#: Sizes that still read at 400 px wide (7 px capitals at half size).
TITLE, TEXT = 36, 30


def ranked_row(image: Image.Image, draw: ImageDraw.ImageDraw, y: int, height: int,
               rank: int, size: int = TEXT) -> int:
    """A row's card across the picture with its rank at the left (a medal for the first
    three); the row's middle, where its words go."""
    mid = y + height // 2
    panel(draw, (16, y + 4, WIDTH - 16, y + height - 4), radius=12)
    if rank <= len(MEDALS):
        draw.ellipse((32, mid - 18, 68, mid + 18), fill=MEDALS[rank - 1], outline=INK, width=2)
    stamp_text(image, (50, mid), str(rank), size, INK, True, "mm")
    return mid


def rank_row(image: Image.Image, draw: ImageDraw.ImageDraw, y: int, rank: int,
             row: dict[str, Any]) -> None:
    """One ranked player, :data:`ROW_H` tall from ``y``: a medal for the first three,
    the name, the rating (``?`` while provisional) and the rated games."""
    mid = ranked_row(image, draw, y, ROW_H, rank)
    stamp_text(image, (88, mid), row["name"], TEXT, INK, True, "lm", width=420)
    mark = "?" if row["provisional"] else ""
    stamp_text(image, (620, mid), f"{row['rating']}{mark}", TEXT, INK, True, "rm")
    stamp_text(image, (WIDTH - 32, mid), f"{row['games']} games", TEXT - 4, MUTED,
               anchor="rm")


def render(board: dict[str, Any]) -> bytes:
    rows = board["rows"]
    height = TOP + ROW_H * max(1, len(rows)) + 70
    image, draw = new_canvas(WIDTH, height)
    stamp_text(image, (24, 24), board["title"], TITLE, INK, True, width=WIDTH - 48)
    if not rows:
        stamp_text(image, (24, TOP + 14), "No rated games yet.", TEXT, MUTED)
    for n, row in enumerate(rows):
        rank_row(image, draw, TOP + n * ROW_H, n + 1, row)
    stamp_text(image, (24, height - 50), board.get("note", ""), 22, MUTED, width=WIDTH - 48)
    return to_png(image)
