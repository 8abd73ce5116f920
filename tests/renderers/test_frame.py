"""One frame for every game's picture: the header follows the view's envelope (``view["table"]``)
and nothing else, palettes are drawn from real views, and no game renderer keeps a helper of
its own that ``renderers.common`` already has."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import io
import itertools
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

import bot.games
import renderers
import renderers.common
from renderers.common import (
    BANNER_H,
    FRAME_MARGIN,
    HEADER_H,
    TEXT_PX,
    TITLE_H,
    Header,
    Key,
    Sample,
    Standing,
    Table,
    key_swatch,
    legend,
    packed_keys,
    ranking_strip,
    table_of,
    text_size,
    tie_break_words,
)
from tests.renderers.test_phone_readability import PHONE_FIRST
from tests.support.paths import ROOT
from tests.support.picture_games import views
from tools.pictures import public_views, seat_counts

SLUGS = sorted(bot.games.GAMES)
Box = tuple[int, int, int, int]


def _module(slug: str) -> Any:
    return importlib.import_module(bot.games.CATALOGUE[slug].renderer_module)


def _picture(slug: str, view: dict[str, Any]) -> Image.Image:
    return Image.open(io.BytesIO(_module(slug).render(view))).convert("RGB")


def _headers(slug: str, view: dict[str, Any],
             monkeypatch: pytest.MonkeyPatch) -> tuple[Image.Image, list[tuple[Header, Box]]]:
    """The picture of ``view`` and every header drawn in it, with the box each covers: the
    frame's header is the top of the picture, its title line (with the move) one strip and
    its banner another, which says no move."""
    _module(slug)._palette()  # made once, from pictures with headers of their own
    renderers.common.forget_strips()  # drawn, not copied from the picture before
    drawn: list[tuple[Header, Box]] = []
    clocks: list[str] = []
    real_banner, real_title = Header.draw_banner, renderers.common.title_line

    def banner(self: Header, image: Image.Image, draw: Any, x: int, y: int,
               move: str = "") -> None:
        assert self.title == "" and not self.move and self.table.move == 0
        drawn.append((self, (x, FRAME_MARGIN, x + self.width, HEADER_H)))
        real_banner(self, image, draw, x, y, move)

    def title(image: Image.Image, x: int, y: int, width: int, text: str, clock: str,
              size: int) -> None:
        clocks.append(clock)
        real_title(image, x, y, width, text, clock, size)

    with monkeypatch.context() as patch:
        patch.setattr(Header, "draw_banner", banner)
        patch.setattr(renderers.common, "title_line", title)
        picture = _picture(slug, view)
    assert len(clocks) == len(drawn)
    assert all(clock.endswith(f"move {view['table']['move']}") for clock in clocks)
    return picture, [(dataclasses.replace(header, table=dataclasses.replace(
        header.table, move=view["table"]["move"])), box) for header, box in drawn]


def _mid_game(slug: str) -> dict[str, Any]:
    """A real public view half-way through an AI game, with one seat to act."""
    for _, view, _ in views(slug)[1:5]:
        if len(view["table"]["acting"]) == 1:
            return copy.deepcopy(view)
    raise AssertionError(f"no {slug} view with one seat to act")


def _differ(a: Image.Image, b: Image.Image, box: Box) -> bool:
    return ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


@pytest.mark.parametrize("slug", SLUGS)
def test_every_picture_draws_the_header_once_from_its_envelope(slug, monkeypatch):
    view = _mid_game(slug)
    picture, headers = _headers(slug, view, monkeypatch)
    assert len(headers) == 1, f"{slug} drew {len(headers)} headers"
    header, box = headers[0]
    table = table_of(view)
    assert header.table == table
    # The banner is filled with the colour of the seat to act, beside its name.
    banner_top = box[1] + TITLE_H
    seat = table.acting[0]
    assert picture.getpixel((box[2] - 6, banner_top + BANNER_H // 2)) == table.rgb(seat)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_header_changes_with_who_acts_and_the_result(slug, monkeypatch):
    view = _mid_game(slug)
    picture, [(_, box)] = _headers(slug, view, monkeypatch)
    seats = len(view["table"]["seats"])
    other = (view["table"]["acting"][0] + 1) % seats

    acting = copy.deepcopy(view)
    acting["table"].update(acting=[other], decision=None)
    changed, [(header, _)] = _headers(slug, acting, monkeypatch)
    assert header.table.acting == (other,)
    assert _differ(picture, changed, box), f"{slug}: the header ignores who acts"

    over = copy.deepcopy(view)
    over["table"].update(acting=[], decision=None, result={
        "ranking": [[other], [s for s in range(seats) if s != other]],
        "scores": {str(s): 1 for s in range(seats)}, "summary": "A result in the envelope."})
    ended, [(header, _)] = _headers(slug, over, monkeypatch)
    assert header.table.over and header.lines == ("A result in the envelope.",)
    assert _differ(picture, ended, box), f"{slug}: the header ignores the result"


@pytest.mark.parametrize("slug", SLUGS)
def test_the_header_reads_nothing_but_the_envelope(slug, monkeypatch):
    """The game's own fields that once told whose turn it was say otherwise here; the
    header, drawn from the envelope, does not change."""
    view = _mid_game(slug)
    picture, [(_, box)] = _headers(slug, view, monkeypatch)
    misled = copy.deepcopy(view)
    seats = len(view["table"]["seats"])
    someone_else = (view["table"]["acting"][0] + 1) % seats
    misled.update(to_act=[someone_else], over=True,
                  result={"ranking": [[someone_else]], "scores": {}, "summary": "Not so."})
    if isinstance(misled.get("turn"), int):
        misled["turn"] = someone_else
    again, _ = _headers(slug, misled, monkeypatch)
    assert not _differ(picture, again, box), f"{slug}: the header reads the game's fields"


@pytest.mark.parametrize("slug", SLUGS)
def test_palettes_are_drawn_from_views_the_game_itself_made(slug, monkeypatch):
    module = _module(slug)
    game = bot.games.GAMES[slug]
    assert module.PALETTE_GAMES and all(isinstance(s, Sample) for s in module.PALETTE_GAMES)
    made: list[dict[str, Any]] = []
    drawn: list[dict[str, Any]] = []
    real_view, real_draw = game.view, module.PICTURES.draw

    def view_spy(state: Any, seat: int | None) -> dict[str, Any]:
        made.append(real_view(state, seat))
        return made[-1]

    def draw_spy(view: dict[str, Any]) -> Image.Image:
        drawn.append(view)
        return real_draw(view)

    renderers.common.real_views.cache_clear()
    try:
        monkeypatch.setattr(game, "view", view_spy)
        monkeypatch.setattr(module.PICTURES, "draw", draw_spy)
        module.PICTURES.made_palette()
    finally:
        monkeypatch.undo()
        renderers.common.real_views.cache_clear()
    assert drawn, f"{slug}: no view drawn for its palette"
    assert all(any(view is real for real in made) for view in drawn), \
        f"{slug}: its palette is drawn from views the game did not make"
    assert all("table" in view for view in drawn)


def test_each_palette_kept_beside_the_code_is_the_one_its_pictures_make(tmp_path):
    """renderers/palettes.json holds every game's palette as its pictures make it, and a
    renderer draws on it without making one; after a change to a game's drawing, run
    `python -m tools.palettes` to write them again."""
    import subprocess
    import sys

    from tools import palettes

    kept = renderers.common.kept_palettes()
    made = palettes.made()
    assert sorted(kept) == sorted(made) == sorted(SLUGS)
    for slug in SLUGS:
        assert kept[slug] == made[slug], \
            f"{slug}: its palette changed; run `python -m tools.palettes`"
        module = _module(slug)
        assert bytes(module._palette().getpalette()) == bytes.fromhex(kept[slug])
    written = tmp_path / "palettes.json"
    subprocess.run([sys.executable, "-m", "tools.palettes", str(written)], check=True,
                   cwd=ROOT, timeout=300)
    assert written.read_text() == (Path(renderers.__file__).parent / "palettes.json").read_text()


def test_a_fresh_process_draws_its_first_picture_without_making_a_palette(monkeypatch):
    """With the palette kept beside the code, no game's pictures are drawn for it."""
    def not_made(self):
        raise AssertionError(f"{self.slug}: a palette was made in a fresh process")

    monkeypatch.setattr(renderers.common.Pictures, "made_palette", not_made)
    for slug in SLUGS:
        module = _module(slug)
        module._palette.cache_clear()
        try:
            view = views(slug)[0][1]
            assert renderers.render(view)[:8] == b"\x89PNG\r\n\x1a\n"
        finally:
            module._palette.cache_clear()


def test_no_game_renderer_keeps_its_own_copy_of_a_shared_helper():
    shared = {name for name, value in vars(renderers.common).items()
              if inspect.isfunction(value) and value.__module__ == "renderers.common"}
    old = {"_fit", "_write", "_text", "_short", "_lines", "_wrapped", "_canvas", "_sprite",
           "_paste", "_stamp", "_outlined", "_MEASURE", "_sample_view", "_sample_views",
           "_sample_sheet", "_power_sample", "with_ending", "_seat_order", "_status"}
    for slug in SLUGS:
        module = _module(slug)
        own = {name for name, value in vars(module).items()
               if getattr(value, "__module__", None) == module.__name__}
        assert not own & (shared | old), f"{module.__name__} redefines {sorted(own & old)}"
        assert "_MEASURE" not in vars(module)


# --------------------------------------------------------------------------- the phone frame


def _finished_table(names: tuple[str, ...], ranking: tuple[tuple[int, ...], ...]) -> Table:
    return Table(None, 30, (), None, (), (), ranking, "", names, (False,) * len(names),
                 renderers.common.STANDARD_SEATS[:len(names)])


def test_tie_breaks_are_said_in_words():
    table = _finished_table(("Ana", "Bo", "Cy", "Di", "Ed"), ((2,), (0, 1), (3,), (4,)))
    standings = {2: Standing(2, (5, 9), ""), 0: Standing(0, (4, 7), ""),
                 1: Standing(1, (4, 7), ""), 3: Standing(3, (4, 6), ""),
                 4: Standing(4, (2, 8), "")}
    words = tie_break_words(table, standings, ("objective candies", "candies kept"))
    assert words == {
        0: "tied with Bo on objective candies and candies kept",
        3: "level with Bo on objective candies; behind on candies kept, 6 to 7"}
    # Cy won on the score and Ed lost on it: the scores say so, no words needed.


def test_a_ranking_strip_grows_with_its_words():
    table = _finished_table(("Ana", "Bo", "Cy"), ((0,), (1,), (2,)))
    plain = ranking_strip(table, [Standing(s, (3 - s, 0), "") for s in range(3)], ("a", "b"))
    broken = ranking_strip(table, [Standing(0, (3, 2), ""), Standing(1, (3, 1), ""),
                                   Standing(2, (1, 0), "")], ("a", "b"))
    assert broken.height > plain.height


def test_a_legend_explains_each_mark_once_and_takes_module_functions_only():
    key = Key("blasted", key_swatch, ((255, 0, 0),))
    assert legend([key, key]).height == legend([key]).height
    assert legend([key, Key("other", key_swatch, ((0, 0, 255),))]).height >= \
        legend([key]).height
    with pytest.raises(ValueError, match="module's function"):
        Key("a lambda", lambda image, draw, cx, cy: None)


def _label(width: int, mark: str) -> str:
    """A label about ``width`` px wide at the legend's size."""
    return mark + "x" * (width // text_size("x", TEXT_PX)[0])


def test_packed_keys_fill_the_ends_of_rows_and_keep_the_lead_first():
    wide, narrow = 420, 200
    keys = [Key(_label(wide, "l"), key_swatch, ((0, 0, 0),)),
            Key(_label(wide, "b"), key_swatch, ((2, 2, 2),)),
            Key(_label(narrow, "c"), key_swatch, ((3, 3, 3),)),
            Key(_label(narrow, "d"), key_swatch, ((4, 4, 4),))]
    # In this order: the lead l alone, then b and c, then d (three rows); packed, c
    # fills the end of the first row and d the end of the second.
    packed = packed_keys([*keys, keys[2]], lead=1)
    assert packed[0] == keys[0] and sorted(packed, key=keys.index) == keys
    assert legend(packed).height < legend(keys).height


@pytest.mark.parametrize("slug", sorted(PHONE_FIRST))
def test_the_frame_header_strips_are_the_same_height_whatever_they_say(slug):
    heights = set()
    for _, view, _ in views(slug):
        title, banner = _module(slug)._strips(view)[:2]  # the top strips
        assert (title.paint.__name__, banner.paint.__name__) == ("_paint_title", "_paint_banner")
        heights.add((title.height, banner.height))
    assert heights == {(FRAME_MARGIN + TITLE_H, HEADER_H - FRAME_MARGIN - TITLE_H)}


@pytest.mark.parametrize("slug", sorted(PHONE_FIRST))
def test_the_banner_is_kept_while_only_the_move_changes(slug):
    """The move is said in the title line alone: a picture one move later whose seat to act
    and words are the same draws its title line again, and copies its banner."""
    view = _mid_game(slug)
    later = copy.deepcopy(view)
    later["table"]["move"] += 1
    title, banner = _module(slug)._strips(view)[:2]
    title_later, banner_later = _module(slug)._strips(later)[:2]
    assert banner.key(800) == banner_later.key(800)
    assert title.key(800) != title_later.key(800)


@pytest.mark.parametrize("slug", sorted(PHONE_FIRST))
def test_the_final_ranking_strip_agrees_with_the_rules_ranking(slug):
    """The words a picture gives for its ranking come from the values it declares; those
    values rank the seats exactly as the game's rules did."""
    for players in seat_counts(slug):
        view = list(public_views(slug, players))[-1]
        table = table_of(view)
        [strip] = [s for s in _module(slug)._strips(view) if s.paint.__name__ == "_paint_ranking"]
        _, standings, criteria = strip.args
        assert strip.args[0] == table and len(criteria) == len(standings[0].values)
        values = {s.seat: s.values for s in standings}
        assert set(values) == set(table.seats)
        groups = [[values[seat] for seat in group] for group in table.ranking]
        assert all(len(set(group)) == 1 for group in groups), groups
        assert all(a[0] > b[0] for a, b in itertools.pairwise(groups)), groups


@pytest.mark.parametrize("slug", SLUGS)
def test_the_header_shows_the_tables_clock_on_the_banner_and_nothing_else_moves(slug,
                                                                               monkeypatch):
    view = _mid_game(slug)
    picture, [(_, box)] = _headers(slug, view, monkeypatch)
    timed = copy.deepcopy(view)
    timed["table"]["clock"] = {"seat": timed["table"]["acting"][0], "left": 2 * 86400 + 4 * 3600}
    clocked, [(header, _)] = _headers(slug, timed, monkeypatch)
    assert header.table.clock == 2 * 86400 + 4 * 3600
    assert clocked.size == picture.size
    banner_top = box[1] + TITLE_H  # the title line is a strip of its own above the banner
    banner = (box[0], banner_top, box[2], banner_top + BANNER_H)
    assert _differ(picture, clocked, banner), f"{slug}: the header shows no clock"
    # Only the banner changes: the board under the header stays where it was.
    below = (0, banner_top + BANNER_H, picture.width, picture.height)
    assert not _differ(picture, clocked, below)
    # The words fit beside the seat's name at the frame's running text size (12 px on a
    # phone, as every line of the header).
    words = "2 d 4 h left"
    assert text_size(words, TEXT_PX, True)[0] < (box[2] - box[0]) / 3
