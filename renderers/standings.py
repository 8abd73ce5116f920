"""A tournament's standings as a picture: rank, player, points and the two tie-breaks.

Pure like the game renderers: ``render(board)`` takes a JSON-compatible mapping
``{"title": str, "subtitle": str, "rows": [{"rank", "name", "points", "buchholz",
"sonneborn", "note"}], "note": str}``, best first (the figures as the words write them,
"2½"), and returns PNG bytes 800 px wide that read at 400 px on a phone: the rows are
drawn as the leaderboard's are (:func:`renderers.leaderboard.ranked_row`). At most
:data:`MOST_ROWS` rows are drawn; the words beside it list every player.
"""

from __future__ import annotations

from typing import Any

from renderers.common import INK, MUTED, new_canvas, stamp_text, to_png
from renderers.leaderboard import WIDTH, ranked_row

ROW_H = 60
TOP = 150
MOST_ROWS = 32
#: Sizes that still read at 400 px wide (7 px capitals at half size).
TITLE, TEXT, SMALL = 36, 28, 22
#: Where each figure's column ends (right-aligned).
POINTS_X, BUCHHOLZ_X, SONNEBORN_X = 560, 670, 776


def render(board: dict[str, Any]) -> bytes:
    rows = list(board["rows"])[:MOST_ROWS]
    height = TOP + ROW_H * max(1, len(rows)) + 70
    image, draw = new_canvas(WIDTH, height)
    stamp_text(image, (24, 20), board["title"], TITLE, INK, True, width=WIDTH - 48)
    stamp_text(image, (24, 68), board.get("subtitle", ""), SMALL, MUTED, width=WIDTH - 48)
    heading = TOP - 24
    for x, label in ((POINTS_X, "Pts"), (BUCHHOLZ_X, "Buch"), (SONNEBORN_X, "S-B")):
        stamp_text(image, (x, heading), label, SMALL, MUTED, True, "rm")
    if not rows:
        stamp_text(image, (24, TOP + 14), "Nobody has played yet.", TEXT, MUTED)
    for n, row in enumerate(rows):
        mid = ranked_row(image, draw, TOP + n * ROW_H, ROW_H, int(row["rank"]), TEXT)
        name = row["name"] + (f" ({row['note']})" if row.get("note") else "")
        stamp_text(image, (88, mid), name, TEXT, INK if not row.get("note") else MUTED, True,
                   "lm", width=POINTS_X - 88 - 70)
        stamp_text(image, (POINTS_X, mid), row["points"], TEXT, INK, True, "rm")
        stamp_text(image, (BUCHHOLZ_X, mid), row["buchholz"], SMALL, MUTED, anchor="rm")
        stamp_text(image, (SONNEBORN_X, mid), row["sonneborn"], SMALL, MUTED, anchor="rm")
    stamp_text(image, (24, height - 50), board.get("note", ""), SMALL, MUTED, width=WIDTH - 48)
    return to_png(image)
