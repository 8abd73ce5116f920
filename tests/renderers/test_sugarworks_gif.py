"""The candy movement GIF: crates fill as candies ship, it ends on the static board, it is short,
it is drawn at its own size and shows each frame in the board's own colours."""

from __future__ import annotations

import io
from functools import cache
from typing import Any

from PIL import Image, ImageChops

import renderers.sugarworks as works
from bot.games.sugarworks import GAME
from renderers.common import to_png
from renderers.gif import scaled_size
from tests.support.playthrough import play


@cache
def _movements() -> tuple[dict[str, Any], ...]:
    """Public views of a real 3-player game right after each candy movement that shipped."""
    seen: list[dict[str, Any]] = []

    def keep(step: Any) -> None:
        view = GAME.view(step.outcome.state, None)
        movement = view["movement"]
        if movement and movement["fresh"] and movement["shipped"]:
            seen.append(view)

    play(GAME, 6, 3, on_step=keep)
    return tuple(seen)


def _crop_floor(image: Image.Image, top: int, view: dict[str, Any]) -> Image.Image:
    """The floor with its coordinates and crates, from the row of letters above it down."""
    floor = works.Floor(view["board"], top=top)
    return image.crop((0, floor.top - 26, image.width, floor.bottom + 30))


def _crate_box(view: dict[str, Any], crate: str) -> tuple[int, int, int, int]:
    floor = works.Floor(view["board"], top=works.FRAME_FLOOR_TOP)
    row = next(c for c in view["board"]["crates"] if c["crate"] == crate)
    return floor.box(floor.width, row["y"])


def test_real_games_ship_candies_in_several_movements():
    assert len(_movements()) >= 3


def test_the_last_frame_is_the_static_board_after_the_movement():
    for view in _movements():
        frames = works.movement_frames(view, scale=1)
        assert frames is not None
        last = Image.open(io.BytesIO(to_png(frames[-1][0], works._palette()))).convert("RGB")
        static = Image.open(io.BytesIO(works.render(view))).convert("RGB")
        difference = ImageChops.difference(_crop_floor(last, works.FRAME_FLOOR_TOP, view),
                                           _crop_floor(static, works.PICTURE_FLOOR_TOP, view))
        assert difference.getbbox() is None


def test_a_crate_shows_a_candy_from_the_frame_it_is_shipped_in():
    checked = 0
    for view in _movements():
        frames = works.movement_frames(view, scale=1)
        for n, step in enumerate(view["movement"]["steps"]):
            for event in step["events"]:
                if event["what"] != "ship":
                    continue
                box = _crate_box(view, event["crate"])
                before, after = frames[n][0].crop(box), frames[n + 1][0].crop(box)
                assert ImageChops.difference(before, after).getbbox() is not None
                checked += 1
    assert checked >= 3


def _most_different_block(a: Image.Image, b: Image.Image, top: int, block: int = 32) -> int:
    """The largest mean difference (0-255) of a ``block``-pixel square of two same-sized
    pictures, from row ``top`` down."""
    difference = ImageChops.difference(a, b).convert("L").crop((0, top, a.width, a.height))
    across, down = difference.width // block, difference.height // block
    means = difference.resize((across, down), Image.Resampling.BOX,
                              box=(0, 0, across * block, down * block))
    return max(means.tobytes())


def test_the_gif_is_drawn_at_its_own_size_and_shows_the_board_shrunk():
    # Drawn at 640 px rather than drawn at 800 and shrunk. Below the caption (whose text is
    # drawn at its own size, so its letters differ), no 32-pixel square differs from the
    # shrunk frame by more than edges a fraction of a pixel apart do (23 at most in these
    # games): a candy, crate or arrow out of place makes a square differ by 35 or more.
    caption = round(works.CAPTION_H * works.GIF_SCALE)
    for view in _movements()[:4]:
        small, whole = works.movement_frames(view), works.movement_frames(view, scale=1)
        assert small is not None and whole is not None and len(small) == len(whole)
        for (a, ms), (b, same_ms) in zip(small, whole, strict=True):
            width, height = scaled_size(*b.size, works.GIF_WIDTH)
            assert a.width == width and abs(a.height - height) <= 1 and ms == same_ms
            shrunk = b.resize(a.size, Image.Resampling.BOX)
            assert _most_different_block(a, shrunk, top=caption) < 28


def test_the_whole_movement_runs_under_eight_seconds():
    longest = 0
    for view in _movements():
        gif = Image.open(io.BytesIO(works.animate(view)))
        total = 0
        for frame in range(gif.n_frames):
            gif.seek(frame)
            total += gif.info["duration"]
        assert total <= 8000
        longest = max(longest, len(view["movement"]["steps"]))
    assert longest >= 8  # a movement long enough to have run well over 8 s at the old pace


def test_each_gif_frame_is_its_frames_png_to_the_pixel():
    # The frames are mapped onto the board's own palette, as its PNG is: the GIF shows every
    # colour the board does, and a frame like the one before only lengthens it.
    for view in _movements()[:3]:
        frames = works.movement_frames(view)
        assert frames is not None
        wanted: list[tuple[Image.Image, int]] = []
        for image, ms in frames:
            png = Image.open(io.BytesIO(to_png(image, works._palette()))).convert("RGB")
            if wanted and ImageChops.difference(wanted[-1][0], png).getbbox() is None:
                wanted[-1] = (wanted[-1][0], wanted[-1][1] + ms)
            else:
                wanted.append((png, ms))
        gif = Image.open(io.BytesIO(works.animate(view)))
        assert gif.n_frames == len(wanted)
        for n, (png, ms) in enumerate(wanted):
            gif.seek(n)
            assert gif.info["duration"] == ms
            assert ImageChops.difference(gif.convert("RGB"), png).getbbox() is None


def test_frames_on_the_shared_ground_are_the_frames_drawn_whole(monkeypatch):
    # A movement draws the empty floor once (floor_ground) and redraws only the tiles
    # under candies; each frame must equal the frame drawn from a blank picture.
    whole = works._frame
    checked = 0
    for view in _movements()[:3]:
        frames = works.movement_frames(view)
        assert frames is not None
        monkeypatch.setattr(works, "_frame",
                            lambda *args, ground=None, **rest: whole(*args, **rest))
        drawn = works.movement_frames(view)
        monkeypatch.setattr(works, "_frame", whole)
        assert drawn is not None and len(drawn) == len(frames)
        for (a, _), (b, _) in zip(frames, drawn, strict=True):
            assert ImageChops.difference(a, b).getbbox() is None
            checked += 1
    assert checked >= 20


def test_an_occupied_tile_is_pasted_only_where_no_later_tile_covers_it():
    cell = 10
    grid = ((0, 1), (1, 1), (2, 1), (0, 0), (1, 0), (2, 0))  # drawn row by row, top first
    inner, no_right, no_below, whole = ((0, 0, cell, cell), (0, 0, cell + 1, cell),
                                        (0, 0, cell, cell + 1), (0, 0, cell + 1, cell + 1))
    assert works._owned(cell, grid) == (inner, inner, no_right, no_below, no_below, whole)
    # Only the corner pixel of (1, 1) lies under its later neighbour below and to the left:
    # no rectangle, so that tile is pasted whole and the neighbour's corner again.
    assert works._owned(cell, ((1, 1), (0, 0))) == (None, whole)
