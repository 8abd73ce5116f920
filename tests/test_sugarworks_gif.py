"""The candy movement GIF: crates fill as candies ship, it ends on the static board, it is short."""

from __future__ import annotations

import io
from functools import cache
from typing import Any

from PIL import Image, ImageChops
from playthrough import play

import renderers.sugarworks as works
from bot.games.sugarworks import GAME
from renderers.common import to_png
from renderers.gif import animate


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
    floor = works.Floor(view["board"], top=120)
    row = next(c for c in view["board"]["crates"] if c["crate"] == crate)
    return floor.box(floor.width, row["y"])


def test_real_games_ship_candies_in_several_movements():
    assert len(_movements()) >= 3


def test_the_last_frame_is_the_static_board_after_the_movement():
    for view in _movements():
        frames = works.movement_frames(view)
        assert frames is not None
        last = Image.open(io.BytesIO(to_png(frames[-1][0], works._palette()))).convert("RGB")
        static = Image.open(io.BytesIO(works.render(view))).convert("RGB")
        difference = ImageChops.difference(_crop_floor(last, 120, view),
                                           _crop_floor(static, works.BY, view))
        assert difference.getbbox() is None


def test_a_crate_shows_a_candy_from_the_frame_it_is_shipped_in():
    checked = 0
    for view in _movements():
        frames = works.movement_frames(view)
        for n, step in enumerate(view["movement"]["steps"]):
            for event in step["events"]:
                if event["what"] != "ship":
                    continue
                box = _crate_box(view, event["crate"])
                before, after = frames[n][0].crop(box), frames[n + 1][0].crop(box)
                assert ImageChops.difference(before, after).getbbox() is not None
                checked += 1
    assert checked >= 3


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


def _gif_frames(data: bytes) -> list[Image.Image]:
    gif = Image.open(io.BytesIO(data))
    frames = []
    for frame in range(gif.n_frames):
        gif.seek(frame)
        frames.append(gif.convert("RGB"))
    return frames


def test_the_gif_is_the_one_its_frames_pngs_would_make():
    # animate_drawn skips the PNGs and scales only changed rows: same frames exactly.
    for view in _movements()[:3]:
        frames = works.movement_frames(view)
        assert frames is not None
        pngs = [to_png(image, works._palette()) for image, _ in frames]
        expected = _gif_frames(animate(pngs, durations=[ms for _, ms in frames]))
        got = _gif_frames(works.animate(view))
        assert len(got) == len(expected)
        for a, b in zip(got, expected, strict=True):
            assert ImageChops.difference(a, b).getbbox() is None


def test_frames_on_the_shared_ground_are_the_frames_drawn_whole(monkeypatch):
    # A movement draws the empty floor once (floor_ground) and redraws only the tiles
    # under candies; each frame must equal the frame drawn from a blank picture.
    whole = works._frame
    checked = 0
    for view in _movements()[:3]:
        frames = works.movement_frames(view)
        assert frames is not None
        monkeypatch.setattr(works, "_frame", lambda *args, ground=None: whole(*args))
        drawn = works.movement_frames(view)
        monkeypatch.setattr(works, "_frame", whole)
        assert drawn is not None and len(drawn) == len(frames)
        for (a, _), (b, _) in zip(frames, drawn, strict=True):
            assert ImageChops.difference(a, b).getbbox() is None
            checked += 1
    assert checked >= 20
