"""An animated GIF of a whole game from its per-move PNGs."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image


def animate(pngs: Sequence[bytes], *, frame_ms: int = 900, last_frame_ms: int = 3000,
            max_width: int = 640) -> bytes:
    """Frames in order, scaled down to ``max_width``; the final position lingers."""
    if not pngs:
        raise ValueError("A replay needs at least one picture.")
    frames = []
    for data in pngs:
        frame = Image.open(io.BytesIO(data)).convert("RGB")
        if frame.width > max_width:
            height = round(frame.height * max_width / frame.width)
            frame = frame.resize((max_width, height), Image.Resampling.LANCZOS)
        frames.append(frame.quantize(colors=128, method=Image.Quantize.MEDIANCUT))
    durations = [frame_ms] * (len(frames) - 1) + [last_frame_ms]
    buffer = io.BytesIO()
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:],
                   duration=durations, loop=0, disposal=1)
    return buffer.getvalue()
