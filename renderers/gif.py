"""An animated GIF of a whole game from its per-move PNGs."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image, ImageChops

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
    frames = [_scaled(Image.open(io.BytesIO(data)).convert("RGB"), max_width) for data in pngs]
    return _gif(frames, _durations(len(frames), frame_ms, last_frame_ms, durations))


def animate_drawn(pictures: Sequence[Image.Image], palette: Image.Image, *,
                  durations: Sequence[int], max_width: int = 640) -> bytes:
    """The GIF :func:`animate` makes of ``[to_png(p, palette) for p in pictures]``.

    Made without writing and reading back a PNG per frame, and each frame after
    the first maps and scales only the rows that changed since the one before (a
    movement redraws the whole floor but moves a few candies): half the time.
    """
    if not pictures:
        raise ValueError("A replay needs at least one picture.")
    frames: list[Image.Image] = []
    before: Image.Image | None = None
    for picture in pictures:
        if before is None or before.size != picture.size or picture.width <= max_width:
            mapped = picture.quantize(palette=palette, dither=Image.Dither.NONE)
            frames.append(_scaled(mapped.convert("RGB"), max_width))
        else:
            frames.append(_rescaled(frames[-1], picture, palette,
                                    _changed_rows(before, picture)))
        before = picture
    return _gif(frames, _durations(len(frames), 0, 0, durations))


#: Rows compared at a time when looking for what changed between two frames.
BAND = 16


def _changed_rows(before: Image.Image, after: Image.Image) -> list[tuple[int, int]]:
    """Runs of rows (start, end) of two same-sized pictures that differ, to a band."""
    difference = ImageChops.difference(before, after)
    box = difference.getbbox()
    if box is None:
        return []
    left, top, right, bottom = box
    top -= top % BAND
    # A band is unchanged when its bytes are all zero, which comparing with zeros
    # tells at memcmp speed.
    data = difference.crop((left, top, right, bottom)).tobytes()
    row = len(data) // (bottom - top)
    size = BAND * row
    zeros = bytes(size)
    runs: list[tuple[int, int]] = []
    for offset in range(0, len(data), size):
        chunk = data[offset:offset + size]
        if chunk == zeros[:len(chunk)]:
            continue
        start = top + offset // row
        end = min(start + BAND, bottom)
        if runs and runs[-1][1] == start:
            runs[-1] = (runs[-1][0], end)
        else:
            runs.append((start, end))
    return runs


def _rescaled(scaled: Image.Image, picture: Image.Image, palette: Image.Image,
              changed: list[tuple[int, int]]) -> Image.Image:
    """``scaled`` (the scaled picture before) with the rows that ``changed`` mapped
    onto ``palette`` and scaled anew.

    Area averaging reads, for each scaled row, only the picture rows it covers,
    so scaling just the rows a change reaches gives the very pixels scaling the
    whole picture would (a test compares the two).
    """
    out = scaled.copy()
    step = picture.height / scaled.height
    for start, end in changed:
        first = max(0, math.floor(start / step) - 1)
        last = min(scaled.height, math.ceil(end / step) + 1)
        # Only the picture rows these scaled rows read (and a row either side) are
        # mapped: mapping is pixel by pixel, so a strip maps as it does in the whole.
        low = max(0, math.floor(first * step) - 1)
        high = min(picture.height, math.ceil(last * step) + 1)
        strip = picture.crop((0, low, picture.width, high))
        source = strip.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
        rows = source.resize((scaled.width, last - first), Image.Resampling.BOX,
                             box=(0, first * step - low, picture.width, last * step - low))
        out.paste(rows, (0, first))
    return out


def _durations(frames: int, frame_ms: int, last_frame_ms: int,
               durations: Sequence[int] | None) -> list[int]:
    if durations is None:
        return [frame_ms] * (frames - 1) + [last_frame_ms]
    if len(durations) != frames:
        raise ValueError("One duration per frame.")
    return list(durations)


def _gif(frames: list[Image.Image], durations: list[int]) -> bytes:
    """Scaled RGB ``frames`` on one shared palette, as a looping GIF."""
    step = max(1, len(frames) // PALETTE_SAMPLES)
    samples = [*frames[::step][:PALETTE_SAMPLES - 1], frames[-1]]
    sheet = Image.new("RGB", (max(f.width for f in samples), sum(f.height for f in samples)))
    y = 0
    for sample in samples:
        sheet.paste(sample, (0, y))
        y += sample.height
    palette = make_palette_keeping(sheet, KEPT)
    mapped = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in frames]
    buffer = io.BytesIO()
    mapped[0].save(buffer, format="GIF", save_all=True, append_images=mapped[1:],
                   duration=durations, loop=0, disposal=1)
    return buffer.getvalue()


def _scaled(frame: Image.Image, max_width: int) -> Image.Image:
    if frame.width > max_width:
        height = round(frame.height * max_width / frame.width)
        # Area averaging: as sharp as Lanczos at this ratio and three times faster.
        frame = frame.resize((max_width, height), Image.Resampling.BOX)
    return frame
