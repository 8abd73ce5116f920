"""``candybot pictures``: how every game's public board reads on a phone.

Discord shows a picture about 400 px wide on a phone. Over whole AI games at the
fewest and the most seats of each game, every public board (the table before
the first move and after every move) is drawn by its renderer, and measured:

- its height over its width (a phone shows a tall picture as a scroll);
- every string it rasterises, as a font size once the picture is fitted to
  400 px wide (``size * 400 / width``): the median over every character drawn
  (a sentence weighs more than a coordinate letter) and the smallest string.
  Text drawn into a supersampled sprite (:func:`renderers.common.smooth_sprite`)
  counts at the size it ends up, a quarter of its drawing size.

The targets (issue 43): a ratio of at most :data:`MAX_RATIO`, a median of at least
:data:`MIN_MEDIAN` px and nothing under :data:`MIN_SMALLEST` px. Every string is
recorded by spying on Pillow's ``FreeTypeFont.getmask2``, which ``draw.text`` and
:func:`renderers.common.stamp_text` both go through; the renderer's caches (kept
strips, sprites, text masks) are emptied before each picture so that nothing hides
in them. A developer tool: the bot never imports it.
"""

from __future__ import annotations

import importlib
import io
import json
import statistics
import sys
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from types import ModuleType
from typing import Any

from PIL import Image, ImageFont

import bot.games
import renderers.common
from bot.games.engine import SeatInfo
from bot.ops import Exit

PHONE = 400
MAX_RATIO = 1.6
MIN_MEDIAN = 12.0
MIN_SMALLEST = 10.0
#: Seat names of the measured games: as long as real ones get, so that names are tested.
NAMES = ("Ana", "Bartholomew", "Cy", "Dmitri", "Eve", "Fay")
SEED = 1


@dataclass(frozen=True)
class Text:
    """One string a picture rasterised: its drawing size and weight."""

    text: str
    size: float
    bold: bool


@dataclass(frozen=True)
class Picture:
    """One picture's size and every string drawn in it."""

    width: int
    height: int
    texts: tuple[Text, ...]

    @property
    def ratio(self) -> float:
        return self.height / self.width

    def phone(self, text: Text) -> float:
        """``text``'s font size once this picture is fitted to :data:`PHONE` px wide."""
        return text.size * PHONE / self.width


def renderer(slug: str) -> ModuleType:
    """The renderer module of the game ``slug``."""
    return importlib.import_module(bot.games.CATALOGUE[slug].renderer_module)


def _empty_caches(module: ModuleType) -> None:
    """Forget every sprite, text mask and strip ``module`` keeps (its palette stays)."""
    for name, value in vars(module).items():
        if callable(getattr(value, "cache_clear", None)) and name != "_palette":
            value.cache_clear()
    renderers.common._text_mask.cache_clear()
    renderers.common._outlined_masks.cache_clear()
    renderers.common.forget_strips()


_SMOOTH = renderers.common.smooth_sprite.__code__


def _shrink() -> int:
    """How many times larger than it ends up the text being drawn now is: the
    supersampling factor inside :func:`renderers.common.smooth_sprite`, else 1."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code is _SMOOTH:
            return renderers.common.SUPERSAMPLE
        frame = frame.f_back  # type: ignore[assignment]
    return 1


def draw(slug: str, view: dict[str, Any]) -> Picture:
    """``view`` drawn by its game's renderer from nothing, with every string it rasterised."""
    module = renderer(slug)
    module._palette()  # made once beforehand, from pictures of its own
    _empty_caches(module)
    seen: list[Text] = []
    real = ImageFont.FreeTypeFont.getmask2

    def spy(font: ImageFont.FreeTypeFont, text: str, *args: Any, **kwargs: Any) -> Any:
        if text.strip():
            seen.append(Text(text, font.size / _shrink(), "Bold" in str(font.path or "")))
        return real(font, text, *args, **kwargs)

    ImageFont.FreeTypeFont.getmask2 = spy  # type: ignore[method-assign,assignment]
    try:
        png = module.render(view)
    finally:
        ImageFont.FreeTypeFont.getmask2 = real  # type: ignore[method-assign]
    width, height = Image.open(io.BytesIO(png)).size
    return Picture(width, height, tuple(seen))


def public_views(slug: str, seats: int, seed: int = SEED) -> Iterator[dict[str, Any]]:
    """The public view of a whole AI game of ``slug``: before the first move and after each."""
    game = bot.games.GAMES[slug]
    state = game.new([SeatInfo(NAMES[i], ai=True) for i in range(seats)], seed)
    yield game.view(state, None)
    while game.to_act(state):
        seat = min(game.to_act(state))
        state = game.apply(state, seat, game.ai_action(state, seat)).state
        yield game.view(state, None)


@dataclass(frozen=True)
class Figures:
    """One game's figures over its measured games, against the targets."""

    game: str
    seats: tuple[int, ...]
    pictures: int
    worst_ratio: float
    worst_ratio_at: str
    median_px: float
    smallest_px: float
    smallest_text: str

    @property
    def passed(self) -> bool:
        return (self.worst_ratio <= MAX_RATIO and self.median_px >= MIN_MEDIAN
                and self.smallest_px >= MIN_SMALLEST)


def seat_counts(slug: str) -> tuple[int, ...]:
    """The fewest and the most seats of ``slug``."""
    game = bot.games.GAMES[slug]
    return tuple(sorted({game.min_seats, game.max_seats}))


def measure(slug: str, seed: int = SEED) -> Figures:
    """``slug``'s figures over whole AI games at its fewest and most seats."""
    seats = seat_counts(slug)
    worst, worst_at, count = 0.0, "", 0
    sizes: list[float] = []  # one entry a character: a sentence weighs more than a letter
    smallest, smallest_text = float("inf"), ""
    for players in seats:
        for move, view in enumerate(public_views(slug, players, seed)):
            picture = draw(slug, view)
            count += 1
            if picture.ratio > worst:
                worst = picture.ratio
                worst_at = f"{players} seats, move {move} ({picture.width}x{picture.height})"
            for text in picture.texts:
                px = picture.phone(text)
                sizes.extend([px] * len(text.text.strip()))
                if px < smallest:
                    smallest, smallest_text = px, text.text
    return Figures(slug, seats, count, round(worst, 2), worst_at,
                   round(statistics.median(sizes), 1) if sizes else 0.0,
                   round(smallest, 1) if sizes else 0.0, smallest_text)


def report(figures: Sequence[Figures]) -> str:
    """The figures as a table a person reads."""
    lines = [f"Public boards of whole AI games, fitted to {PHONE} px wide. Targets: height "
             f"<= {MAX_RATIO} x width, text median >= {MIN_MEDIAN:g} px, smallest >= "
             f"{MIN_SMALLEST:g} px.",
             f"{'game':<24} {'seats':<6} {'pictures':>8} {'ratio':>6} {'median':>7} "
             f"{'smallest':>8}  verdict"]
    for f in figures:
        seats = "-".join(map(str, f.seats))
        lines.append(f"{f.game:<24} {seats:<6} {f.pictures:>8} {f.worst_ratio:>6.2f} "
                     f"{f.median_px:>7.1f} {f.smallest_px:>8.1f}  "
                     f"{'pass' if f.passed else 'FAIL'}")
    lines.append("")
    for f in figures:
        lines.append(f"{f.game}: tallest at {f.worst_ratio_at}; smallest text "
                     f"{f.smallest_text!r}")
    return "\n".join(lines)


def pictures(games: Sequence[str] | None = None, as_json: bool = False,
             seed: int = SEED) -> int:
    """Measure ``games`` (default: every game) and print the figures; exit status 0 when
    every measured game meets the targets, 1 otherwise."""
    slugs = list(games) if games else list(bot.games.GAMES)
    unknown = [slug for slug in slugs if slug not in bot.games.GAMES]
    if unknown:
        print(f"candybot pictures: no game called {', '.join(unknown)}; games: "
              f"{', '.join(bot.games.GAMES)}", file=sys.stderr)
        return Exit.CONFIG
    figures = [measure(slug, seed) for slug in slugs]
    if as_json:
        print(json.dumps([{**asdict(f), "passed": f.passed} for f in figures]))
    else:
        print(report(figures))
    return Exit.OK if all(f.passed for f in figures) else Exit.FAILED
