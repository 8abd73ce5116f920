"""The GIF maker: drawn frames give the GIF their PNGs would, scaling only what changed."""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageDraw

from renderers.common import BACKGROUND, INK, SEAT_COLOURS, make_palette, to_png
from renderers.gif import _changed_rows, animate, animate_drawn


def _frames(height: int) -> list[Image.Image]:
    """A candy crossing a lined board, one frame per step, on a picture ``height`` tall."""
    frames = []
    for step in range(6):
        image = Image.new("RGB", (1000, height), BACKGROUND)
        draw = ImageDraw.Draw(image)
        for y in range(40, height, 97):
            draw.line((0, y, 1000, y), fill=INK, width=3)
        x, y = 60 + 150 * step, 90 + 83 * step
        draw.ellipse((x, y, x + 70, y + 70), fill=SEAT_COLOURS[step % 4], outline=INK, width=4)
        draw.text((20, 8), f"Step {step}", fill=INK)
        frames.append(image)
    return frames


def _decoded(data: bytes) -> list[Image.Image]:
    gif = Image.open(io.BytesIO(data))
    out = []
    for n in range(gif.n_frames):
        gif.seek(n)
        out.append(gif.convert("RGB"))
    return out


def test_drawn_frames_make_the_gif_of_their_pngs():
    for height in (660, 641, 1001):  # scale factors that are and are not round
        frames = _frames(height)
        palette = make_palette(frames[0])
        durations = [500] * len(frames)
        expected = _decoded(animate([to_png(f, palette) for f in frames], durations=durations))
        got = _decoded(animate_drawn(frames, palette, durations=durations))
        assert len(got) == len(expected)
        for a, b in zip(got, expected, strict=True):
            assert ImageChops.difference(a, b).getbbox() is None


def test_changed_rows_are_the_bands_that_differ():
    before = Image.new("P", (300, 200), 0)
    after = before.copy()
    assert _changed_rows(before, after) == []
    after.putpixel((150, 37), 5)
    after.putpixel((10, 170), 9)
    runs = _changed_rows(before, after)
    assert len(runs) == 2
    assert runs[0][0] <= 37 < runs[0][1] and runs[1][0] <= 170 < runs[1][1]
