"""``candybot pictures`` (docs/pictures.md): every public board of whole AI games measured as a
phone shows it, with a verdict against the targets."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from PIL import Image, ImageDraw

import renderers.common
from tests.support.paths import ROOT
from tools import pictures
from tools.pictures import MAX_RATIO, MIN_MEDIAN, MIN_SMALLEST, Picture, Text


def test_the_documented_command_measures_a_game_and_says_whether_it_passes():
    documented = (ROOT / "docs" / "pictures.md").read_text()
    assert "candybot pictures --game sugar-blast" in documented
    done = subprocess.run([sys.executable, "-m", "bot.cli", "pictures", "--game", "sugar-blast",
                           "--json"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    [figures] = json.loads(done.stdout)
    assert figures["game"] == "sugar-blast" and figures["seats"] == [2, 4]
    # Every board of two whole games: more than one picture a move of the shorter one.
    assert figures["pictures"] > 20
    passed = (figures["worst_ratio"] <= MAX_RATIO and figures["median_px"] >= MIN_MEDIAN
              and figures["smallest_px"] >= MIN_SMALLEST)
    assert figures["passed"] is passed
    assert done.returncode == (0 if passed else 1), done.stderr


def test_an_unknown_game_is_refused_by_name(capsys):
    assert pictures.pictures(["chess"]) == 2
    assert "no game called chess" in capsys.readouterr().err


def test_sizes_are_scaled_to_a_phone_and_the_median_weighs_characters(monkeypatch):
    picture = Picture(800, 1000, (Text("a sentence of text", 24, False), Text("1", 48, True)))
    assert picture.ratio == 1.25 and picture.phone(picture.texts[0]) == 12.0

    def drawn(slug, view):
        return picture

    monkeypatch.setattr(pictures, "draw", drawn)
    monkeypatch.setattr(pictures, "public_views", lambda slug, seats, seed: iter([{}]))
    figures = pictures.measure("sugar-blast")
    assert figures.pictures == 2  # one picture at the fewest seats, one at the most
    assert figures.median_px == 12.0  # the long sentence, not the one large digit
    assert figures.smallest_px == 12.0 and figures.worst_ratio == 1.25 and figures.passed


class _OneSprite:
    """A renderer whose 1000 px wide picture holds one smooth sprite with a letter in it."""

    @staticmethod
    def _palette() -> None:
        return None

    @staticmethod
    def render(view: dict) -> bytes:
        def letter(draw: ImageDraw.ImageDraw, scale: int) -> None:
            draw.text((0, 0), "?", font=renderers.common.font(24 * scale))

        renderers.common.smooth_sprite(40, 40, letter)
        buffer = io.BytesIO()
        Image.new("RGB", (1000, 500)).save(buffer, "PNG")
        return buffer.getvalue()


def test_text_in_a_supersampled_sprite_counts_at_the_size_it_ends_up(monkeypatch):
    """Sugar Blast's "any kind" chip draws its question mark four times larger and shrinks it."""
    monkeypatch.setattr(pictures, "renderer", lambda slug: _OneSprite)
    picture = pictures.draw("sugar-blast", {})
    assert [(t.text, t.size) for t in picture.texts] == [("?", 24)]
    assert picture.phone(picture.texts[0]) == 9.6
