"""A season's final standings as a picture: the season's name and days, then each game
rated in it with its best players (rank, name, rating, rated games).

Pure like the other renderers: ``render(board)`` takes a JSON-compatible mapping
``{"title": str, "when": str, "games": [{"game": str, "rows": [{"name", "rating",
"games", "provisional"}]}], "note": str}`` and returns PNG bytes as wide as the frame
(800 px) that read at 400 px on a phone, at most 1.6 times as tall as wide: with many
games, each shows fewer players (the words posted beside it list ten of each).
"""

from __future__ import annotations

from typing import Any

from renderers.common import (
    FRAME_MAX_H,
    FRAME_W,
    INK,
    MUTED,
    NAME_PX,
    TEXT_PX,
    new_canvas,
    stamp_text,
    to_png,
)
from renderers.leaderboard import ROW_H, TITLE, rank_row

TOP = 112
#: A game's heading above its rows, and the note at the foot.
HEADING = 52
FOOT = 60
LEAST = 1


def shown_rows(games: int, most: int) -> int:
    """How many players of each of ``games`` games the picture shows (at most ``most``,
    at least :data:`LEAST`), so that it stays within :data:`FRAME_MAX_H`."""
    room = (FRAME_MAX_H - TOP - FOOT) // max(1, games) - HEADING
    return max(LEAST, min(most, room // ROW_H))


def render(board: dict[str, Any]) -> bytes:
    games = board["games"]
    most = max((len(g["rows"]) for g in games), default=0)
    fit = shown_rows(len(games), most)
    height = TOP + FOOT + sum(HEADING + ROW_H * max(1, min(fit, len(g["rows"])))
                              for g in games) + (0 if games else ROW_H)
    image, draw = new_canvas(FRAME_W, height)
    stamp_text(image, (24, 20), board["title"], TITLE, INK, True, width=FRAME_W - 48)
    stamp_text(image, (24, 70), board.get("when", ""), TEXT_PX, MUTED, width=FRAME_W - 48)
    y = TOP
    if not games:
        stamp_text(image, (24, y + 14), "No rated games this season.", NAME_PX, MUTED)
    for game in games:
        stamp_text(image, (24, y + HEADING // 2), game["game"], NAME_PX, INK, True, "lm",
                   width=FRAME_W - 48)
        y += HEADING
        for n, row in enumerate(game["rows"][:fit]):
            rank_row(image, draw, y, n + 1, row)
            y += ROW_H
        if not game["rows"]:
            y += ROW_H
    stamp_text(image, (24, height - FOOT + 14), board.get("note", ""), TEXT_PX - 2, MUTED,
               width=FRAME_W - 48)
    return to_png(image)
