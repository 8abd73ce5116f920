"""The Sugartopia picture in the phone frame: 800 x 1280 at every move, the table cut into
kept bands, meadows tagged and listed, the last card marked, zoom, the hand beside the
table in a seat's own picture."""

from __future__ import annotations

import copy
import io
import itertools
from functools import cache
from typing import Any

import pytest
from PIL import Image

from bot.games import get_game
from bot.games.engine import SeatInfo
from bot.games.sugartopia import tiles
from bot.games.sugartopia.board import new_entry
from renderers import render
from renderers import sugartopia as topia
from renderers.common import LAST_MOVE, Strip, forget_strips, table_of
from renderers.sugartopia import (
    BANDS,
    GRASS,
    HEIGHT,
    SQRT3,
    WIDTH,
    Geometry,
    Map,
    fit,
)
from tools.pictures import draw

GAME = get_game("sugartopia")
NAMES = ("Ana", "Bartholomew", "Cy", "Dmitri")


@cache
def states(players: int = 3, seed: int = 4) -> tuple[dict[str, Any], ...]:
    """Every state of a whole AI game, the first before any move."""
    state = GAME.new([SeatInfo(NAMES[i], ai=True) for i in range(players)], seed)
    out = [state]
    while GAME.to_act(state):
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.ai_action(state, seat)).state
        out.append(state)
    return tuple(out)


def played(moves: int, players: int = 3, seed: int = 4) -> dict[str, Any]:
    every = states(players, seed)
    return every[min(moves, len(every) - 1)]


def picture(view: dict[str, Any]) -> Image.Image:
    data = render(view)
    assert len(data) < 300 * 1024
    return Image.open(io.BytesIO(data)).convert("RGB")


def near(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 40) -> int:
    """How many pixels are close to ``colour``."""
    return sum(n for n, c in image.getcolors(1 << 20)
               if sum(abs(a - b) for a, b in zip(c, colour, strict=True)) <= tolerance)


def texts(view: dict[str, Any]) -> list[str]:
    """Every string the picture of ``view`` rasterises."""
    return [t.text for t in draw("sugartopia", view).texts]


# --------------------------------------------------------------------------- size


@pytest.mark.parametrize("players", [2, 4])
def test_every_picture_of_a_whole_game_is_800_by_1280_public_or_private(players):
    """The same size at every move, so that the picture never jumps on a phone."""
    for n, state in enumerate(states(players, 8)):
        for viewer in (None, n % players):
            img = Image.open(io.BytesIO(render(GAME.view(state, viewer))))
            assert img.size == (WIDTH, HEIGHT) == (800, 1280), (n, viewer)
    assert HEIGHT <= 1.6 * WIDTH


def test_the_zoomed_picture_is_the_same_size():
    view = GAME.view(played(12), None)
    img = Image.open(io.BytesIO(render({**view, "zoom": view["last"]["label"]})))
    assert img.size == (WIDTH, HEIGHT)


# --------------------------------------------------------------------------- the table


def test_an_early_table_is_drawn_larger_than_a_grown_one():
    def band(state: dict[str, Any]) -> int:
        view = GAME.view(state, None)
        return fit([(c["q"], c["r"]) for c in view["cards"]],
                   [(s["q"], s["r"]) for s in view["spots"]], 600).band

    assert band(played(0)) >= 1.5 * band(played(20))


def test_the_table_keeps_its_layout_while_it_grows_inside_it():
    """A card laid where the table already reaches moves nothing: its hexes stay put."""
    cells = [(0, 0), (0, 1), (1, 0)]
    ring = [(0, -1), (1, -1), (2, -1), (2, 0), (1, 1), (0, 2), (-1, 2), (-1, 1), (-1, 0)]
    before = fit(cells, ring, 600)
    after = fit([*cells, (-1, 1)], [s for s in ring if s != (-1, 1)], 600)
    assert after == before
    assert before.band in BANDS and before.oy % before.band == 0


def test_a_table_that_outgrows_its_strip_gets_smaller_hexes():
    row = [(q, 0) for q in range(-6, 7)]
    assert fit(row, [], 600).band < fit(row[5:8], [], 600).band
    assert fit(row, [], 600).size * 1.5 * 12 + 2 * fit(row, [], 600).size <= WIDTH


def _drawing(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The painters of the strips drawn from now on (not copied from a picture before)."""
    drawn: list[str] = []
    real = Strip.mapped

    def spy(strip: Strip, width: int, palette: Image.Image) -> Image.Image:
        drawn.append(strip.paint.__name__)
        return real(strip, width, palette)

    render(GAME.view(played(0), None))  # the palette, made from pictures of its own
    monkeypatch.setattr(Strip, "mapped", spy)
    forget_strips()
    return drawn


def test_a_move_redraws_only_the_bands_of_the_table_it_changed(monkeypatch):
    """Drawn move after move, as a render worker draws them, most of the table's bands
    are copied from the picture before: only those of the cards and spots a move changed
    (and all of them when the hexes change size) are drawn again."""
    drawn = _drawing(monkeypatch)
    shown = 0
    for state in states(3, 5)[1:]:
        view = GAME.view(state, None)
        shown += sum(1 for s in topia._strips(view) if s.paint is topia._band)
        render(view)
    assert shown > 250
    assert drawn.count("_band") < 0.6 * shown, (drawn.count("_band"), shown)


def test_a_picture_that_changes_nothing_on_the_table_draws_none_of_it(monkeypatch):
    view = GAME.view(played(12), None)
    drawn = _drawing(monkeypatch)
    render(view)
    assert drawn.count("_band") == len([s for s in topia._strips(view) if s.paint is topia._band])
    drawn.clear()
    later = copy.deepcopy(view)
    later["table"]["move"] += 1  # the header says another move; the table is the same
    render(later)
    assert drawn == ["_paint_title"]  # the header's title line alone says the move


def test_the_card_just_placed_is_marked_in_amber():
    view = GAME.view(played(5), None)
    assert view["last"] is not None
    with_last = near(picture(view), LAST_MOVE, 10)
    without = near(picture({**view, "last": None}), LAST_MOVE, 10)
    assert with_last > without + 200


def test_a_card_with_two_roads_keeps_the_meadow_between_them_whole():
    # L16's two bends cut off its north-east and south-west corners; its one field
    # runs from the south-east side through the middle to the north-west side.
    card = tiles.catalogue()["l16"]
    state = GAME.new([SeatInfo("A"), SeatInfo("B")], 1)
    state["table"].append(new_entry(card, (0, -1), 0))
    view = GAME.view(state, None)
    bare = {**view["cards"][1], "fields": []}  # roads only, no sheep or bears in the way
    sprite = topia._hex_sprite(50, Map(view, fit([(0, 0)], [], 600)).look(bare))
    geo = Geometry(topia._size(50), topia._hex_half(50), 50)
    for side in (2, 5):
        for reach in (0.0, 0.4, 0.8):
            x, y = geo.side_point(0, 0, side, reach)
            assert sprite.getpixel((round(x), round(y)))[:3] == GRASS, (side, reach)
    for side in (0, 1, 3, 4):
        x, y = geo.side_point(0, 0, side, 0.9)
        assert sprite.getpixel((round(x), round(y)))[:3] != GRASS, side


def test_zoom_draws_one_spot_and_its_neighbours_large_with_the_cards_labels():
    view = GAME.view(played(12), None)
    spot = view["last"]["label"]
    assert spot in GAME.rules.zoom_spots(played(12))
    whole, zoomed = picture(view), picture({**view, "zoom": spot})
    assert near(zoomed, LAST_MOVE, 10) > 2 * near(whole, LAST_MOVE, 10)
    assert spot in texts({**view, "zoom": spot}) and spot not in texts(view)


def test_zoom_on_a_label_that_is_not_on_the_table_shows_the_whole_table():
    view = GAME.view(played(6), None)
    assert render({**view, "zoom": "z99"}) == render(view)


# --------------------------------------------------------------------------- meadow tags


def _cards_tags(view: dict[str, Any]) -> list[tuple[int, ...]]:
    board = Map(view, fit([(c["q"], c["r"]) for c in view["cards"]],
                          [(s["q"], s["r"]) for s in view["spots"]], 600))
    return [tuple(f[6][0] for f in board.look(card)[3] if f[6] is not None)
            for card in view["cards"]]


def test_each_meadow_that_holds_anything_is_named_once_on_the_map():
    view = GAME.view(played(30), None)
    tags = [n for card in _cards_tags(view) for n in card]
    holding = {view["areas"][f["area"]]["number"] for c in view["cards"] for f in c["fields"]
               if f.get("area") is not None and (f["sheep"] or f["rainbow"] or f["bears"])}
    assert len(holding) > 5
    assert sorted(tags) == sorted(holding)


def test_a_meadow_is_grey_once_completed_not_when_the_end_of_the_game_scores_it():
    view = GAME.view(states(3, 4)[-1], None)
    board = Map(view, fit([(c["q"], c["r"]) for c in view["cards"]], [], 600))
    greys = {}
    for card in view["cards"]:
        for field, drawn in zip(card["fields"], board.look(card)[3], strict=True):
            area = view["areas"][field["area"]]
            assert area["done"]  # the end scored every meadow
            assert drawn[7] == (not area["open"]), area["name"]
            if drawn[6] is not None:
                greys[area["number"]] = drawn[6][1]
    assert True in greys.values() and False in greys.values()


def test_a_small_card_carries_one_tag_where_the_meadows_allow():
    """On small hexes a card has room for one tag: a meadow whose best field is on a card
    already named goes to its next best field elsewhere."""
    def doubled(places: dict[int, tuple[int, int, int]]) -> int:
        cards = [place[:2] for place in places.values()]
        return sum(1 for card in set(cards) if cards.count(card) > 1)

    crowded = spread = 0
    for state in states(4, 1)[::2]:
        view = GAME.view(state, None)
        one, three = topia.tag_places(view, 1), topia.tag_places(view, 3)
        assert set(one) == set(three)  # every meadow named either way
        assert doubled(one) <= doubled(three)
        crowded, spread = crowded + doubled(three), spread + doubled(one)
    assert spread < crowded


def _overlapping(geo: Geometry, blocks: list[Any], ceiling: float) -> list[tuple[Any, Any]]:
    tagged = [b for b in blocks if b.tag is not None]
    centres = topia._tag_centres(geo, tagged, ceiling)
    sizes = [topia._measure_tag(f"M{b.tag[0]}", b.tag_size) for b in tagged]
    return [(a, b) for (a, sa), (b, sb) in itertools.combinations(zip(centres, sizes,
                                                                      strict=True), 2)
            if abs(a[0] - b[0]) < (sa[0] + sb[0]) / 2 - 1
            and abs(a[1] - b[1]) < (sa[1] + sb[1]) / 2 - 1]


def test_no_two_tags_on_a_card_overlap():
    """As many tags as a card of its size has room for stand apart, and on the real tables
    of whole games, with the sizes the picture gives them, no tag covers another."""
    for size, tags in ((40.0, (3, 4)), (64.0, (3, 4, 12))):
        geo = Geometry(size, 70.0, 70.0)
        blocks = [topia._field_block(geo, ((side,), 2, 0, 1, 0, (("red", "circle", True),),
                                           (number, False, False), False), 20)
                  for side, number in zip((0, 3, 5), tags, strict=False)]
        topia._arrange(geo, blocks, 0)
        assert not _overlapping(geo, blocks, 0), (size, tags)
    cards = crowded = 0
    for players in (2, 4):
        for state in states(players, 1)[::3]:
            view = GAME.view(state, None)
            layout = fit([(c["q"], c["r"]) for c in view["cards"]],
                         [(s["q"], s["r"]) for s in view["spots"]], 620)
            board = Map(view, layout)
            geo = Geometry(layout.size, 0, 0)
            for card in view["cards"]:
                fields = board.look(card)[3]
                blocks = [b for b in (topia._field_block(geo, f, board.tag_px) for f in fields)
                          if b is not None]
                topia._arrange(geo, blocks, -layout.size)
                cards += 1
                crowded += bool(_overlapping(geo, blocks, -layout.size))
    assert cards > 250 and crowded == 0, (crowded, cards)


def test_a_cards_tokens_stay_apart_and_inside_it():
    geo = Geometry(80.0, 90.0, 90.0)
    bears = (("red", "circle", True), ("blue", "square", False))
    fields = [((0, 1), 2, 1, 2, 1, bears, (3, False, False), False),
              ((1, 2), 1, 0, 1, 0, bears, (4, False, False), False),
              ((2, 3), 2, 0, 0, 0, (), None, False)]
    blocks = [topia._field_block(geo, f, 24) for f in fields]
    topia._arrange(geo, blocks, 0)
    for i, a in enumerate(blocks):
        assert abs(a.x - 90) + a.width / 2 <= 80 * SQRT3 / 2 + 1
        for b in blocks[i + 1:]:
            apart_x = abs(a.x - b.x) >= (a.width + b.width) / 2
            apart_y = abs(a.y - b.y) >= (a.height + b.height) / 2
            assert apart_x or apart_y


# --------------------------------------------------------------------------- the meadows


def test_a_chip_counts_each_open_meadows_bears_by_player_and_its_cubes():
    view = GAME.view(played(14), None)
    colours = table_of(view).colours
    chips = topia._chips(view, colours)
    listed = {chip[0] for chip in chips}
    for area in view["areas"]:
        worth = not area["done"] and bool(area["bears"] or area["sugar"] or area["honey"])
        assert (area["number"] in listed) == worth, area["name"]
    for number, _, bears, others, sugar, _ in chips:
        area = next(a for a in view["areas"] if a["number"] == number)
        assert dict(bears) == {s: area["bears"][c] for s, c in enumerate(colours)
                               if c in area["bears"]}
        assert others + sum(n for _, n in bears) == sum(area["bears"].values())
        assert sugar == area["sugar"] + area["fed"]


def test_meadows_that_do_not_fit_are_counted_and_the_least_worth_are_left_out():
    chips = [(n, False, ((0, 1),) if n % 3 == 0 else (), 0, n, 0) for n in range(1, 25)]
    rows, more = topia._chip_rows(chips)
    shown = [chip for row in rows for chip in row]
    assert len(rows) <= topia.MEADOW_ROWS and more == len(chips) - len(shown) > 0
    assert all(chip in shown for chip in chips if chip[2])  # every meadow with a player's bears
    hidden = [chip for chip in chips if chip not in shown]
    assert max(c[4] for c in hidden) <= min(c[4] for c in shown if not c[2])


def test_every_meadow_in_play_is_said_in_the_summary_the_alt_text_carries():
    state = played(20, 4, 1)
    summary = GAME.rules.summary(state)
    view = GAME.view(state, None)
    for number, *_ in topia._chips(view, table_of(view).colours):
        assert f"Meadow {number}:" in summary


# --------------------------------------------------------------------------- seats, legend


def test_the_header_and_seat_cards_say_the_deck_scores_and_holdings():
    state = played(20, 4, 1)
    view = GAME.view(state, None)
    drawn = texts(view)
    assert f"deck: {view['deck']} cards · move {view['move']}" in drawn
    for seat in view["seats"]:
        assert str(seat["score"]) in drawn and str(seat["sugar"]) in drawn


def test_the_legend_explains_what_the_picture_draws_now():
    feeding = next(GAME.view(s, None) for s in states(3, 4) if GAME.view(s, None)["feeding"])
    assert "eating now" in texts(feeding)
    quiet = next(GAME.view(s, None) for s in states(3, 4)[1:] if not GAME.view(s, None)["feeding"])
    assert "eating now" not in texts(quiet) and "completed" not in texts(quiet)
    assert "open spot" in texts(quiet)
    end = GAME.view(states(3, 4)[-1], None)
    assert "open spot" not in texts(end) and "completed" in texts(end)


def test_the_last_card_is_said_under_the_table():
    view = GAME.view(played(5), None)
    card = view["cards"][view["last"]["index"]]
    name = table_of(view).names[view["last"]["seat"]]
    assert f"last card: {name} placed {card['name']} at {view['last']['label']}" in texts(view)
    assert "No card placed yet: the castle stands alone." in texts(GAME.view(played(0), None))


def test_the_final_ranking_ranks_by_points_and_says_a_tie():
    view = copy.deepcopy(GAME.view(states(3, 4)[-1], None))
    [strip] = [s for s in topia._strips(view) if s.paint.__name__ == "_paint_ranking"]
    _, standings, criteria = strip.args
    assert criteria == ("points",)
    assert [s.values for s in standings] == [(f["total"],) for f in view["final"]]
    tied = copy.deepcopy(view)
    for f in tied["final"]:
        f["total"] = 7
    tied["table"]["result"]["ranking"] = [[0, 1, 2]]
    assert any(t.startswith("tied with") for t in texts(tied))


# --------------------------------------------------------------------------- the hand


def test_only_a_players_own_picture_shows_its_hand_and_its_six_turns():
    state = played(3)
    seat = min(GAME.to_act(state))
    own = GAME.view(state, seat)
    public = texts(GAME.view(state, None))
    mine = texts(own)
    assert f"Your card {own['hand']['name']}" in mine
    assert all(f"rot {rot}" in mine for rot in (0, 60, 120, 180, 240, 300))
    assert not any(t.startswith("Your card") or t in {f"rot {r}" for r in range(0, 360, 60)}
                   for t in public)
    assert not any(own["hand"]["name"] in t for t in public)


def test_the_hand_stands_beside_the_table_which_fits_in_what_is_left():
    state = played(3)
    seat = min(GAME.to_act(state))
    strips = topia._strips(GAME.view(state, seat))
    bands = [s for s in strips if s.paint.__name__ == "_band"]
    looks = [look[0] for s in bands for _, _, look in s.args[1]]
    assert looks.count("yours") >= 1 and looks.count("turn") >= 6
    left = min(x for s in bands for x, _, look in s.args[1] if look[0] == "yours")
    for s in bands:
        for x, _, look in s.args[1]:
            if look[0] == "card":
                assert x + topia._hex_sprite(s.args[0], look).width <= left, look


def test_strips_are_module_functions_kept_by_what_they_show():
    view = GAME.view(played(10), 0)
    for strip in topia._strips(view):
        assert isinstance(strip, Strip) and strip.kept
        strip.key(WIDTH)  # every argument can be written out as its key


def test_the_palette_keeps_the_tables_flat_colours_exact():
    img = picture(GAME.view(played(10), None))
    colours = {c for _, c in img.getcolors(1 << 16)}
    assert GRASS in colours and LAST_MOVE in colours


def test_a_hex_sprite_is_exactly_the_rows_of_the_two_bands_it_lies_across():
    """A hex centred on a band's edge covers that band and the one above, and no more: a
    card drawn anew redraws two bands."""
    for band in (20, 40, 64):
        for look in (("spot", "b3", 24), Map(GAME.view(played(0), None),
                                              fit([(0, 0)], [], 600)).look(
                                                  GAME.view(played(0), None)["cards"][0])):
            sprite = topia._hex_sprite(band, look)
            assert sprite.height == 2 * band
            alpha = sprite.getchannel("A")
            assert alpha.getbbox() is not None and alpha.getbbox()[3] <= 2 * band
