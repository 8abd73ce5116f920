"""Every text a player needs for a decision reads on a phone, where pictures are 400 px wide.

Measured from the renderers' own text: every string rasterised while a picture is
drawn (sprite caches emptied first, so nothing hides in a cache) is recorded with
its font size, and its capital height scaled to 400 px must be at least 7 px. Text
a player never needs for a decision (a key, a move counter, a score split that the
message carries) is listed by the renderer in ``FINE_PRINT`` and may be smaller.
"""

from __future__ import annotations

import importlib
import io
import re
from typing import Any

import pytest
from picture_games import views
from PIL import Image, ImageFont

import bot.games
import renderers.common

PHONE = 400
MIN_CAP = 7.0


def _cap_height(size: int, bold: bool) -> int:
    _, top, _, bottom = renderers.common.font(size, bold).getbbox("H")
    return bottom - top


def _empty_caches(module: Any) -> None:
    for name, value in vars(module).items():
        if callable(getattr(value, "cache_clear", None)) and name != "_palette":
            value.cache_clear()
    renderers.common._text_mask.cache_clear()
    renderers.common.forget_strips()


def drawn_text(slug: str, view: dict[str, Any], monkeypatch: pytest.MonkeyPatch
               ) -> tuple[list[tuple[str, int, bool]], int]:
    """Every (text, size, bold) rasterised for ``view``'s picture, and the picture's width."""
    module = importlib.import_module(bot.games.CATALOGUE[slug].renderer_module)
    module.render(view)  # the palette, from made-up tables, is made once beforehand
    _empty_caches(module)
    seen: list[tuple[str, int, bool]] = []
    real = ImageFont.FreeTypeFont.getmask2

    def spy(font: ImageFont.FreeTypeFont, text: str, *args: Any, **kwargs: Any) -> Any:
        seen.append((text, font.size, "Bold" in (font.path or "")))
        return real(font, text, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(ImageFont.FreeTypeFont, "getmask2", spy)
        width = Image.open(io.BytesIO(module.render(view))).width
    return seen, width


def _fine_print(slug: str) -> list[re.Pattern[str]]:
    module = importlib.import_module(bot.games.CATALOGUE[slug].renderer_module)
    return [re.compile(p) for p in getattr(module, "FINE_PRINT", ())]


@pytest.mark.parametrize("slug", sorted(bot.games.GAMES))
def test_every_text_needed_for_a_decision_is_readable_at_400_px(slug, monkeypatch):
    fine = _fine_print(slug)
    for label, view, _ in views(slug):
        texts, width = drawn_text(slug, view, monkeypatch)
        assert len(texts) >= 15, f"{label}: only {len(texts)} texts recorded"
        small = sorted({f"{text!r} at {size} px" for text, size, bold in texts
                        if text.strip() and _cap_height(size, bold) * PHONE / width < MIN_CAP
                        and not any(p.fullmatch(text) for p in fine)})
        assert not small, f"{label} ({width} px wide): " + "; ".join(small)


def test_the_measure_sees_sprite_text_and_catches_small_text(monkeypatch):
    """Text drawn into cached sprites is recorded on every picture, and small text is caught:
    the Sugarworks score split is small and allowed only as fine print."""
    view = views("sugarworks")[1][1]
    texts, width = drawn_text("sugarworks", view, monkeypatch)
    again, _ = drawn_text("sugarworks", view, monkeypatch)
    assert sorted(texts) == sorted(again)  # the caches were emptied: all of it drawn again
    small = [text for text, size, bold in texts
             if _cap_height(size, bold) * PHONE / width < MIN_CAP]
    assert any(text.startswith("orders ") for text in small)
    assert _cap_height(24, False) * PHONE / 1000 >= MIN_CAP > _cap_height(23, False) * PHONE / 1000
