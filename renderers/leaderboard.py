"""A server's leaderboard for one game as a picture: rank, player, rating, rated games.

Pure like the game renderers: ``render(board)`` takes a JSON-compatible mapping
``{"title": str, "rows": [{"name", "rating", "games", "provisional"}], "note": str}``,
best first, and returns PNG bytes 800 px wide that read at 400 px on a phone.
"""

from __future__ import annotations

from typing import Any

from renderers.common import INK, MUTED, fitted_text, font, new_canvas, panel, to_png

WIDTH = 800
ROW_H = 64
TOP = 96
#: Gold, silver and bronze for the first three ranks.
MEDALS = ((230, 180, 40), (170, 175, 185), (200, 125, 60))
#: Sizes that still read at 400 px wide (7 px capitals at half size).
TITLE, TEXT = 36, 30


def render(board: dict[str, Any]) -> bytes:
    rows = board["rows"]
    height = TOP + ROW_H * max(1, len(rows)) + 70
    image, draw = new_canvas(WIDTH, height)
    fitted_text(draw, (24, 24), board["title"], TITLE, WIDTH - 48, INK, bold=True)
    if not rows:
        draw.text((24, TOP + 14), "No rated games yet.", font=font(TEXT), fill=MUTED)
    for n, row in enumerate(rows):
        y = TOP + n * ROW_H
        panel(draw, (16, y + 4, WIDTH - 16, y + ROW_H - 4), radius=12)
        rank = n + 1
        if rank <= len(MEDALS):
            draw.ellipse((32, y + 14, 68, y + 50), fill=MEDALS[rank - 1], outline=INK, width=2)
        draw.text((50, y + ROW_H // 2), str(rank), font=font(TEXT, True), fill=INK,
                  anchor="mm")
        fitted_text(draw, (88, y + ROW_H // 2), row["name"], TEXT, 420, INK, bold=True,
                    anchor="lm")
        mark = "?" if row["provisional"] else ""
        draw.text((620, y + ROW_H // 2), f"{row['rating']}{mark}", font=font(TEXT, True),
                  fill=INK, anchor="rm")
        draw.text((WIDTH - 32, y + ROW_H // 2), f"{row['games']} games", font=font(TEXT - 4),
                  fill=MUTED, anchor="rm")
    fitted_text(draw, (24, height - 50), board.get("note", ""), 22, WIDTH - 48, MUTED)
    return to_png(image)

