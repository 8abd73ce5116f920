"""An animated GIF of a whole game from its per-move PNGs."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from bot.games.colours import PAINTS
from renderers.common import BACKGROUND, INK, PANEL, WHITE, make_palette_keeping

PALETTE_SAMPLES = 4  # frames, spread over the game, that the shared palette is taken from
#: Drawn exactly in every frame: a seat's colour must not drift to a neighbour's (or white).
KEPT = [*(paint.rgb for paint in PAINTS.values()), BACKGROUND, INK, PANEL, WHITE]


def animate(pngs: Sequence[bytes], *, frame_ms: int = 900, last_frame_ms: int = 3000,
            max_width: int = 640, durations: Sequence[int] | None = None) -> bytes:
    """Frames in order, scaled down to ``max_width``; the final position lingers.

    ``durations`` (milliseconds, one per frame) replaces the even pace when given.

    Every frame is mapped onto one palette, so the GIF encoder can store only the
    part of each frame that changed: three times smaller and faster than a
    palette per frame. Seat colours are kept exact in that palette. Identical
    consecutive pictures merge into one longer frame.
    """
    if not pngs:
        raise ValueError("A replay needs at least one picture.")
    frames = [_scaled(data, max_width) for data in pngs]
    step = max(1, len(frames) // PALETTE_SAMPLES)
    samples = [*frames[::step][:PALETTE_SAMPLES - 1], frames[-1]]
    sheet = Image.new("RGB", (max(f.width for f in samples), sum(f.height for f in samples)))
    y = 0
    for sample in samples:
        sheet.paste(sample, (0, y))
        y += sample.height
    palette = make_palette_keeping(sheet, KEPT)
    mapped = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    if durations is None:
        durations = [frame_ms] * (len(mapped) - 1) + [last_frame_ms]
    elif len(durations) != len(mapped):
        raise ValueError("One duration per frame.")
    buffer = io.BytesIO()
    mapped[0].save(buffer, format="GIF", save_all=True, append_images=mapped[1:],
                   duration=list(durations), loop=0, disposal=1)
    return buffer.getvalue()


def _scaled(data: bytes, max_width: int) -> Image.Image:
    frame = Image.open(io.BytesIO(data)).convert("RGB")
    if frame.width > max_width:
        height = round(frame.height * max_width / frame.width)
        # Area averaging: as sharp as Lanczos at this ratio and three times faster.
        frame = frame.resize((max_width, height), Image.Resampling.BOX)
    return frame
