"""Shared drawing helpers: fonts, colours, text, legend and PNG encoding."""

from __future__ import annotations

import io
import itertools

from PIL import Image, ImageChops, ImageDraw

from renderers.common import (
    BACKGROUND,
    INK,
    SEAT_COLOURS,
    SEAT_SHAPES,
    WHITE,
    box_canvas,
    centred_text,
    font,
    make_palette,
    new_canvas,
    outlined_text,
    paste_centred,
    seat_colour,
    seat_mark,
    seat_text_colour,
    shorten,
    smooth_sprite,
    stamp_lines,
    stamp_text,
    text_size,
    to_png,
    with_ending,
    wrap,
)

# Machado et al. (2009) full-severity simulation matrices, applied to linear RGB.
COLOUR_VISION = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def _simulate(colour: tuple[int, int, int], matrix) -> tuple[float, ...]:
    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    def gamma(c: float) -> float:
        c = min(max(c, 0.0), 1.0)
        return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)

    lin = [linear(c) for c in colour]
    return tuple(gamma(sum(row[j] * lin[j] for j in range(3))) for row in matrix)


def _ink_box(image: Image.Image) -> tuple[int, int, int, int]:
    """Bounding box of everything that is not background."""
    box = ImageChops.difference(image, Image.new("RGB", image.size, BACKGROUND)).getbbox()
    assert box is not None
    return box


def test_fonts_are_loaded_once_per_size_and_weight():
    assert font(20) is font(20)
    assert font(20) is not font(20, bold=True)
    assert font(20).size == 20


def test_six_seat_colours_stay_apart_for_every_common_colour_blindness():
    colours = [seat_colour(seat) for seat in range(6)]
    assert len(set(colours)) == 6
    for name, matrix in COLOUR_VISION.items():
        seen = [_simulate(c, matrix) for c in colours]
        closest = min(sum((a - b) ** 2 for a, b in zip(p, q, strict=True)) ** 0.5
                      for p, q in itertools.combinations(seen, 2))
        assert closest > 25, name


def test_a_seventh_seat_reuses_the_first_colour():
    assert seat_colour(6) == seat_colour(0) == SEAT_COLOURS[0]


def _mark(seat: int) -> Image.Image:
    """The silhouette of ``seat``'s mark: white where anything was drawn."""
    image = Image.new("RGB", (60, 60), WHITE)
    seat_mark(ImageDraw.Draw(image), seat, 30, 30, 16)
    return Image.eval(image.convert("L"), lambda v: 255 if v < 250 else 0)


def test_every_seat_has_its_own_shape_of_about_the_same_size():
    assert SEAT_SHAPES == ("circle", "square", "triangle", "diamond", "star", "hexagon")
    silhouettes = [_mark(seat) for seat in range(6)]
    for a, b in itertools.combinations(range(6), 2):
        differ = ImageChops.difference(silhouettes[a], silhouettes[b]).histogram()[255]
        assert differ > 60, (SEAT_SHAPES[a], SEAT_SHAPES[b])
    areas = [m.histogram()[255] for m in silhouettes]
    assert max(areas) < 1.8 * min(areas)


def test_a_seat_mark_is_filled_with_the_seat_colour_and_outlined():
    for seat in range(6):
        image = Image.new("RGB", (60, 60), (128, 128, 128))
        seat_mark(ImageDraw.Draw(image), seat, 30, 30, 16)
        colours = {colour for _, colour in image.getcolors(10_000)}
        assert seat_colour(seat) in colours
        assert INK in colours or WHITE in colours


def test_seat_text_colours_read_on_the_background():
    def luminance(colour):
        def linear(c):
            c /= 255
            return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
        r, g, b = (linear(c) for c in colour)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    for seat in range(6):
        text = seat_text_colour(seat)
        assert (luminance(BACKGROUND) + 0.05) / (luminance(text) + 0.05) >= 3.0
    assert seat_text_colour(0) == seat_colour(0)  # blue needs no darkening
    assert seat_text_colour(4) != seat_colour(4)  # yellow does


def test_centred_text_is_centred_on_the_point():
    image, draw = new_canvas(200, 100)
    centred_text(draw, (100, 50), "Blast", 30, INK, bold=True)
    x0, y0, x1, y1 = _ink_box(image)
    assert abs((x0 + x1) / 2 - 100) <= 2
    assert abs((y0 + y1) / 2 - 50) <= 3


def test_stamped_text_has_the_same_pixels_as_drawn_text():
    for anchor in ("la", "mm", "rm", "mt"):
        drawn, draw = new_canvas(200, 60)
        draw.text((80, 30), "Meadow 12", font=font(22, True), fill=(200, 0, 0), anchor=anchor)
        stamped, _ = new_canvas(200, 60)
        stamp_text(stamped, (80, 30), "Meadow 12", 22, (200, 0, 0), True, anchor)
        stamp_text(stamped, (80, 30), "", 22)  # nothing to draw
        assert ImageChops.difference(drawn, stamped).getbbox() is None, anchor


def test_outlined_text_draws_its_outline_around_the_letters():
    image, draw = new_canvas(120, 60)
    outlined_text(draw, (60, 30), "a1", 30, fill=(255, 255, 255), outline=(200, 0, 0))
    colours = {colour for _, colour in image.getcolors(10_000)}
    assert (255, 255, 255) in colours and (200, 0, 0) in colours


def test_outlined_text_has_the_same_pixels_as_text_drawn_with_a_stroke():
    """Its outline and letters are rasterised once and kept: laid on anywhere, at whole or
    fractional places, they are what ``draw.text`` with ``stroke_width`` draws there."""
    cases = [("7", (40.0, 30.0), 24, 2, "mm", (255, 255, 255), INK),
             ("12", (40.5, 30.5), 24, 2, "mm", (255, 255, 255), INK),
             ("Vampire", (17.3, 21.8), 30, 3, "la", INK, (255, 255, 255)),
             ("x2", (60.75, 33.25), 20, 2, "lm", (255, 255, 255), (255, 255, 255))]
    for text, xy, size, stroke, anchor, fill, outline in cases:
        for ground in ((253, 246, 236), (200, 40, 120)):
            drawn, draw = new_canvas(160, 60, ground)
            draw.text(xy, text, font=font(size, True), fill=fill, anchor=anchor,
                      stroke_width=stroke, stroke_fill=outline)
            for _ in range(2):  # rasterised, then kept
                outlined, on = new_canvas(160, 60, ground)
                outlined_text(on, xy, text, size, fill, outline, stroke, True, anchor)
                assert outlined.tobytes() == drawn.tobytes(), (text, xy)


def test_outlined_text_is_rasterised_once_per_string_and_offset(monkeypatch):
    from PIL import ImageFont

    rasterised: list[str] = []
    real = ImageFont.FreeTypeFont.getmask2

    def spy(face, text, *args, **kwargs):
        rasterised.append(text)
        return real(face, text, *args, **kwargs)

    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", spy)
    _image, draw = new_canvas(200, 60)
    for x in (30, 90, 150):  # the same string, whole pixels apart
        outlined_text(draw, (x, 30), "Ogre 9", 26)
    assert rasterised == ["Ogre 9", "Ogre 9"]  # its outline and its letters, once


def test_long_text_is_shortened_with_an_ellipsis_to_fit():
    name = "Bartholomew the Magnificent"
    short = shorten(name, 20, 120, bold=True)
    assert short.endswith("…") and text_size(short, 20, True)[0] <= 120
    assert shorten("Ana", 20, 120) == "Ana"


def test_stamped_text_given_a_width_never_runs_past_it():
    image, _ = new_canvas(400, 40)
    stamp_text(image, (10, 20), "a very long player name indeed " * 3, 20, INK, anchor="lm",
               width=150)
    assert _ink_box(image)[2] <= 10 + 150 + 1


def test_a_name_is_shortened_before_its_ending():
    label = with_ending("Bartholomew the Magnificent of Candyland", " to play", 30, 400)
    assert label.startswith("Bartholomew") and label.endswith("… to play")
    assert text_size(label, 30, True)[0] <= 400
    assert with_ending("Bo", " to play", 30, 400) == "Bo to play"


def test_wrapped_lines_fit_the_width_and_keep_every_word():
    text = "Swap two neighbouring candies to make a Blast of three or more in a line."
    lines = wrap(text, 18, 200)
    assert len(lines) > 1
    assert all(text_size(line, 18)[0] <= 200 for line in lines)
    assert " ".join(lines) == text


def test_wrapped_lines_up_to_a_limit_end_with_an_ellipsis():
    text = "Swap two neighbouring candies to make a Blast of three or more in a line."
    lines = wrap(text, 18, 200, limit=2)
    assert len(lines) == 2 and lines[-1].endswith("…")
    assert lines[0] == wrap(text, 18, 200)[0]
    image, _ = new_canvas(300, 200)
    assert stamp_lines(image, (10, 10), text, 18, 200, limit=2) == 10 + 2 * round(18 * 1.25)


def test_sprites_paste_centred_through_their_transparency():
    sprite = smooth_sprite(20, 20, lambda draw, k: draw.ellipse((0, 0, 20 * k - 1, 20 * k - 1),
                                                                 fill=(200, 0, 0)))
    assert sprite.mode == "RGBA" and sprite.getpixel((0, 0))[3] == 0
    image, _ = new_canvas(60, 60)
    paste_centred(image, sprite, 30, 30)
    assert image.getpixel((30, 30)) == (200, 0, 0)
    assert image.getpixel((21, 21)) == BACKGROUND  # outside the disc: the sprite is clear
    box, _ = box_canvas(10, 4, INK)
    assert box.size == (11, 5) and box.getpixel((10, 4)) == INK


def test_png_on_a_fixed_palette_is_smaller_and_decodes_to_the_same_size():
    image, draw = new_canvas(300, 200)
    for i, colour in enumerate(SEAT_COLOURS):
        draw.ellipse((20 + 60 * i, 50, 70 + 60 * i, 100), fill=colour, outline=INK, width=3)
    centred_text(draw, (150, 150), "Sugar Blast", 28, INK, bold=True)
    full = to_png(image)
    mapped = to_png(image, make_palette(image))
    for data in (full, mapped):
        decoded = Image.open(io.BytesIO(data))
        assert decoded.format == "PNG" and decoded.size == (300, 200)
    assert Image.open(io.BytesIO(mapped)).mode == "P"
    assert len(mapped) < len(full)
