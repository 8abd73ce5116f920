"""Sugartopia rules: placement, cubes, feeding, completed areas, Gingermen, turns and notation.

Situations are built directly: extra test cards join the real catalogue, and a
fresh game's table, hands and deck are replaced.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import pytest

from bot.games.engine import (
    AmbiguousActionError,
    Engine,
    GameError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    SeatInfo,
    State,
)
from bot.games.sugartopia import Sugartopia, tiles
from bot.games.sugartopia.board import Entry, Table, new_entry
from bot.games.sugartopia.tiles import Arm, Card, Field, Road
from tests.support.refusing import refused

GAME = Engine(Sugartopia())


# --------------------------------------------------------------------------- helpers


def field(sides: Iterable[int], sheep: int = 0, rainbow: int = 0,
          bears: Iterable[str] = ()) -> Field:
    return Field(tuple(sides), sheep, rainbow, tuple(bears))


def card(card_id: str, edges: str, fields: Iterable[Field] = (),
         cookies: dict[int, int] | None = None) -> Card:
    """A test land card whose road sides all meet at one hub."""
    cookies = cookies or {}
    arms = tuple(Arm(s, cookies.get(s, 0)) for s in range(6) if edges[s] == "r")
    return Card(card_id, "land", edges, (Road(arms),) if arms else (), tuple(fields))


def meadow(card_id: str, sheep: int = 0, rainbow: int = 0, bears: Iterable[str] = ()) -> Card:
    return card(card_id, "gggggg", [field(range(6), sheep, rainbow, bears)])


#: A castle with roads north, south-east and south-west and grassland between them, so
#: that the situations below do not depend on the shipped castle's design.
TEST_CASTLE = Card("castle", "castle", "rgrgrg", (Road((Arm(0, 0), Arm(2, 0), Arm(4, 0))),),
                   (field([1]), field([3]), field([5])))


def with_test_castle() -> dict[str, Card]:
    """The real cards with the test castle."""
    return {**tiles.catalogue(), "castle": TEST_CASTLE}


@pytest.fixture
def extra(monkeypatch: pytest.MonkeyPatch) -> dict[str, Card]:
    """The real cards and the test castle, open for test cards (add them to the dict)."""
    cards = with_test_castle()
    monkeypatch.setattr(tiles, "catalogue", lambda: cards)
    return cards


def placed(c: Card, pos: tiles.Pos, rot: int = 0, owner: int | None = None, sugar: int = 0,
           honey: int = 0, fed: Iterable[bool] | None = None) -> Entry:
    """A placed card with cubes on its first field."""
    entry = new_entry(c, pos, rot, owner)
    if entry["fields"]:
        entry["fields"][0]["sugar"] = sugar
        entry["fields"][0]["honey"] = honey
        if fed is not None:
            entry["fields"][0]["fed"] = list(fed)
    return entry


def game_with(entries: Iterable[Entry], hands: list[str | None], deck: list[str] | None = None,
              gingermen: list[bool] | None = None, turn: int = 0,
              supply: dict[str, int] | None = None) -> State:
    """A game whose table (after the castle), hands and deck are the given ones."""
    state = GAME.new([SeatInfo(f"P{i}") for i in range(len(hands))], 1)
    state["table"] = [state["table"][0], *entries]
    state["hands"] = list(hands)
    state["deck"] = list(deck or [])
    state["gingermen"] = gingermen if gingermen is not None else [True] * len(hands)
    state["turn"] = turn
    state["phase"] = "place"
    if supply is not None:
        state["supply"] = dict(supply)
    return state


def fed(state: State, index: int, f: int = 0) -> list[bool]:
    return state["table"][index]["fields"][f]["fed"]


def texts(outcome) -> str:
    return " ".join(e.text for e in outcome.events)


# --------------------------------------------------------------------------- the cards


def test_there_are_21_land_cards_a_castle_and_a_gingerman():
    cards = tiles.catalogue()
    assert len(tiles.land_ids()) == 21
    assert cards["castle"].kind == "castle" and cards["gingerman"].edges == "rrrrrr"


def test_every_grassland_side_belongs_to_exactly_one_field_and_every_road_side_to_one_arm():
    for c in tiles.catalogue().values():
        grass = sorted(s for s in range(6) if c.edges[s] == "g")
        road = sorted(s for s in range(6) if c.edges[s] == "r")
        assert sorted(s for f in c.fields for s in f.sides) == grass, c.id
        assert sorted(a.side for r in c.roads for a in r.arms) == road, c.id


def _separates(arms: list[int], a: int, b: int) -> bool:
    """Whether a road with these arms cuts the hex between grassland sides a and b."""
    if len(arms) < 2:
        return False
    ordered = sorted(arms)
    for start, end in zip(ordered, [*ordered[1:], ordered[0] + 6], strict=True):
        inside = {s % 6 for s in range(start + 1, end)}
        if (a in inside) != (b in inside):
            return True
    return False


def test_the_fields_of_every_card_are_the_regions_its_roads_cut_the_hex_into():
    for c in tiles.catalogue().values():
        roads = [[a.side for a in r.arms] for r in c.roads]
        for one in c.fields:
            for other in c.fields:
                for a in one.sides:
                    for b in other.sides:
                        cut = any(_separates(arms, a, b) for arms in roads)
                        assert cut == (one is not other), (c.id, a, b)


def test_the_supply_is_enough_for_every_sheep_and_the_colours_are_balanced():
    lands = [tiles.catalogue()[i] for i in tiles.land_ids()]
    sheep = sum(f.sheep for c in lands for f in c.fields)
    rainbow = sum(f.rainbow for c in lands for f in c.fields)
    assert sheep <= tiles.supply()["sugar"] == 40
    assert rainbow <= tiles.supply()["honey"] == 6
    bears = [b for c in lands for f in c.fields for b in f.bears]
    counts = {colour: bears.count(colour) for colour in tiles.player_colours()}
    assert len(set(counts.values())) == 1, counts
    assert any(b in tiles.neutral_colours() for b in bears)


def test_spot_labels_run_by_ring_clockwise_from_north():
    assert tiles.label_of((0, -1)) == "a1"
    assert tiles.label_of((1, -1)) == "a2"
    assert tiles.label_of((-1, 0)) == "a6"
    assert tiles.label_of((0, -2)) == "b1"
    assert tiles.label_of((0, 2)) == "b7"
    assert tiles.pos_of("a4") == (0, 1)
    assert tiles.pos_of("b13") is None and tiles.pos_of("castle") is None


def test_every_spot_a_game_can_reach_has_one_label_that_reads_back():
    seen = set()
    for q in range(-26, 27):
        for r in range(-26, 27):
            pos = (q, r)
            if 0 < tiles.ring(pos) <= 26:
                label = tiles.label_of(pos)
                assert tiles.pos_of(label) == pos
                seen.add(label)
    assert len(seen) == 3 * 26 * 27
    assert not any(label.startswith("l") for label in seen), "spot names look like card names"
    assert tiles.label_of((0, -12)) == "m1" and tiles.label_of((0, -26)) == "z151"


# --------------------------------------------------------------------------- set-up


def test_each_player_starts_with_one_secret_card_and_the_rest_form_the_deck():
    state = GAME.new([SeatInfo("Ann"), SeatInfo("Bob"), SeatInfo("Cy")], 7)
    assert all(h is not None for h in state["hands"])
    assert len(state["deck"]) == 21 - 3
    assert sorted(state["deck"] + state["hands"]) == sorted(tiles.land_ids())
    assert state["supply"] == {"sugar": 40, "honey": 6}
    assert state["table"][0]["card"] == "castle" and state["turn"] == 0


def test_other_seats_and_spectators_see_only_that_a_hand_card_exists():
    state = GAME.new([SeatInfo("Ann"), SeatInfo("Bob")], 7)
    hand = state["hands"][0]
    own = GAME.view(state, 0)
    assert own["hand"]["card"] == hand and own["hand"]["placements"]
    for viewer in (1, None):
        view = GAME.view(state, viewer)
        assert view["seats"][0]["has_card"] is True
        assert hand not in json.dumps(view)
        assert view["deck"] == 19


# --------------------------------------------------------------------------- placement


def test_a_card_must_touch_the_table_and_match_every_touching_side():
    cards = tiles.catalogue()
    table = Table([new_entry(cards["castle"], (0, 0), 0)], cards)
    straight = cards["l01"]  # road north and south
    assert table.fits(straight, (0, -1), 0)  # its south road meets the castle's north road
    assert not table.fits(straight, (0, -1), 60)  # its south side would be grassland
    assert not table.fits(straight, (0, -2), 0)  # touches nothing
    assert not table.fits(straight, (0, 0), 0)  # the castle's own spot
    spots = {tiles.label_of(p) for p, _ in table.placements(straight)}
    assert spots == {"a1", "a2", "a3", "a4", "a5", "a6"}


def test_cards_may_be_turned_to_any_of_the_six_rotations(extra):
    cards = tiles.catalogue()
    table = Table([new_entry(cards["castle"], (0, 0), 0)], cards)
    rots = {rot for pos, rot in table.placements(cards["l12"]) if pos == (0, -1)}
    # A single road north must turn to face the castle's road at a1: only turned 180°.
    assert rots == {180}
    assert {rot for _, rot in table.placements(cards["l14"])} == {0, 60, 120, 180, 240, 300}


def test_placing_reveals_the_card_and_puts_sugar_and_honey_on_its_sheep(extra):
    extra["l81"] = meadow("l81", sheep=2, rainbow=1)
    state = game_with([], ["l81", None], deck=["l02"])
    out = GAME.apply(state, 0, "place l81 at a4 rot 0")
    new = out.state
    assert new["table"][1]["fields"][0]["sugar"] == 2
    assert new["table"][1]["fields"][0]["honey"] == 1
    assert new["supply"] == {"sugar": 38, "honey": 5}
    assert any(e.reveals and "L81" in e.text for e in out.events)
    assert not out.undoable


def test_when_the_supply_runs_out_a_sheep_gets_no_cube(extra):
    extra["l81"] = meadow("l81", sheep=3)
    state = game_with([], ["l81", None], supply={"sugar": 1, "honey": 6})
    out = GAME.apply(state, 0, "l81 at a4 rot 0")
    assert out.state["table"][1]["fields"][0]["sugar"] == 1
    assert out.state["supply"]["sugar"] == 0
    assert "ran out" in texts(out)


# --------------------------------------------------------------------------- feeding


def test_hungry_bears_in_the_area_the_card_joins_eat_its_sugar(extra):
    extra["l82"] = meadow("l82", bears=["red", "blue"])
    extra["l83"] = meadow("l83", sheep=2)
    state = game_with([placed(extra["l82"], (0, 1))], ["l83", None], deck=["l02"])
    new = GAME.apply(state, 0, "l83 at b7 0").state
    assert fed(new, 1) == [True, True]
    assert new["table"][2]["fields"][0]["sugar"] == 0
    assert new["phase"] == "place" and new["turn"] == 1


def test_a_fed_bear_does_not_eat_again(extra):
    extra["l82"] = meadow("l82", bears=["red", "blue"])
    extra["l83"] = meadow("l83", sheep=2)
    state = game_with([placed(extra["l82"], (0, 1), fed=[True, False])], ["l83", None])
    new = GAME.apply(state, 0, "l83 at b7 0").state
    assert fed(new, 1) == [True, True]
    assert new["table"][2]["fields"][0]["sugar"] == 1


def test_honey_never_moves_to_a_bear(extra):
    extra["l82"] = meadow("l82", bears=["red"])
    extra["l84"] = meadow("l84", rainbow=1)
    state = game_with([placed(extra["l82"], (0, 1))], ["l84", None])
    new = GAME.apply(state, 0, "l84 at b7 0").state
    assert fed(new, 1) == [False]
    assert new["table"][2]["fields"][0]["honey"] == 1


def test_bears_in_an_area_the_card_does_not_join_stay_hungry(extra):
    extra["l82"] = meadow("l82", bears=["red"])
    extra["l83"] = meadow("l83", sheep=2)
    # The bears sit south of the castle; the sheep go north-east: different areas.
    state = game_with([placed(extra["l82"], (0, 1))], ["l83", None])
    new = GAME.apply(state, 0, "l83 at a2 0").state
    assert fed(new, 1) == [False]


def test_with_more_hungry_bears_than_sugar_the_turn_player_chooses(extra):
    extra["l82"] = meadow("l82", bears=["red", "blue", "green"])
    extra["l83"] = meadow("l83", sheep=2)
    state = game_with([placed(extra["l82"], (0, 1))], ["l83", "l02"], deck=["l03"])
    out = GAME.apply(state, 0, "l83 at b7 0")
    mid = out.state
    assert GAME.rules.choosing_bears(mid) and GAME.to_act(mid) == {0}
    assert [a.notation for a in GAME.legal_actions(mid, 0)] == ["feed red", "feed blue",
                                                                "feed green"]
    assert GAME.rules.quick_choices(mid, 0) == GAME.legal_actions(mid, 0)
    assert GAME.legal_actions(mid, 1) == []
    view = GAME.view(mid, 1)
    assert view["feeding"]["cubes"] == 2 and view["feeding"]["colours"] == ["red", "blue", "green"]
    with pytest.raises(IllegalActionError, match="hungry bear"):
        GAME.apply(mid, 0, "b6 0")
    mid = GAME.apply(mid, 0, "feed green").state
    assert fed(mid, 1) == [False, False, True] and GAME.rules.choosing_bears(mid)
    with pytest.raises(IllegalActionError, match="no hungry green"):
        GAME.apply(mid, 0, "feed green")
    end = GAME.apply(mid, 0, "feed blue").state
    assert fed(end, 1) == [False, True, True]
    assert end["phase"] == "place" and end["turn"] == 1
    assert end["hands"][0] == "l03"


def test_no_choice_is_asked_when_every_hungry_bear_is_the_same_colour(extra):
    extra["l82"] = meadow("l82", bears=["red", "red", "red"])
    extra["l83"] = meadow("l83", sheep=2)
    state = game_with([placed(extra["l82"], (0, 1))], ["l83", None])
    new = GAME.apply(state, 0, "l83 at b7 0").state
    assert new["phase"] == "place" and fed(new, 1) == [True, True, False]


# --------------------------------------------------------------------------- completed areas

# A card with grassland only to the north (field {0}) and one with it only to the south.
NORTH_ONLY = "grrrrr"
SOUTH_ONLY = "rrrgrr"


def test_an_area_closed_off_by_roads_is_scored_at_once(extra):
    extra["l85"] = card("l85", NORTH_ONLY, [field([0], sheep=1, bears=["red"])])
    extra["l86"] = card("l86", SOUTH_ONLY, [field([3], sheep=2, bears=["blue"])])
    # p lies north of the castle; its red bear already ate its own sheep's cube.
    state = game_with([placed(extra["l85"], (0, -1), fed=[True])], ["l86", None], deck=["l02"])
    out = GAME.apply(state, 0, "l86 at b1 0")
    new = out.state
    # Blue eats one of q's two cubes; the area is closed: each player takes the cube on
    # their own bear, and the last cube (red 1 bear, blue 1 bear: 1/2 each) goes back.
    assert new["held"][0] == {"sugar": 1, "honey": 0}
    assert new["held"][1] == {"sugar": 1, "honey": 0}
    assert new["supply"]["sugar"] == 40 - 2 + 1
    assert all(f["done"] and f["sugar"] == 0 for e in new["table"][1:] for f in e["fields"])
    assert fed(new, 1) == [False] and fed(new, 2) == [False]
    assert "complete" in texts(out)
    assert GAME.rules.scores(new) == {0: 1, 1: 1}


def test_an_area_still_open_is_not_scored_during_the_game(extra):
    extra["l85"] = card("l85", NORTH_ONLY, [field([0], sheep=1, bears=["red"])])
    state = game_with([], ["l85", None])
    new = GAME.apply(state, 0, "l85 at a1 0").state
    assert new["held"][0] == {"sugar": 0, "honey": 0}
    assert fed(new, 1) == [True]


# --------------------------------------------------------------------------- Gingerman


def test_a_gingerman_may_touch_grassland_and_any_card_may_then_touch_it(extra):
    cards = tiles.catalogue()
    state = game_with([], ["l14", "l14"], deck=["l01"])
    # a2 faces the castle's grassland side: a land card with road there could not go.
    out = GAME.apply(state, 0, "gingerman at a2")
    new = out.state
    assert new["table"][1] == new_entry(cards["gingerman"], (1, -1), 0, 0)
    assert new["gingermen"][0] is False
    # b3 touches only the Gingerman: the all-grassland meadow fits in every rotation.
    table = Table(new["table"], cards)
    assert {rot for pos, rot in table.placements(cards["l14"]) if pos == (2, -2)} == set(
        tiles.ROTATIONS)


def test_a_gingerman_goes_out_once_per_game_and_keeps_the_hand_card(extra):
    state = game_with([], ["l01", "l02"], deck=["l03"])
    new = GAME.apply(state, 0, "gingerman at a1").state
    assert new["hands"][0] == "l01" and new["deck"] == ["l03"]
    new["turn"] = 0
    assert not any(a.notation.startswith("gingerman") for a in GAME.legal_actions(new, 0))
    with pytest.raises(IllegalActionError, match="already placed your Gingerman"):
        GAME.apply(new, 0, "gingerman at a2")


def test_grassland_facing_a_gingerman_is_closed_and_scored(extra):
    extra["l85"] = card("l85", NORTH_ONLY, [field([0], sheep=2, bears=["blue"])])
    state = game_with([placed(extra["l85"], (0, -1), sugar=1, fed=[True])], [None, None],
                      gingermen=[True, True])
    new = GAME.apply(state, 0, "gingerman at b1").state
    # Blue takes the cube on its bear; the sheep's cube goes to blue, the most bears.
    assert new["held"][1] == {"sugar": 2, "honey": 0}


# --------------------------------------------------------------------------- turns and the end


def test_a_card_is_drawn_after_the_turn_without_naming_it():
    state = game_with([], ["l01", "l02"], deck=["l05", "l09"])
    out = GAME.apply(state, 0, "l01 at a1 0")
    assert out.state["hands"][0] == "l09" and out.state["deck"] == ["l05"]
    draws = [e for e in out.events if e.kind == "draw"]
    assert draws and all("l09" not in e.text.lower() for e in out.events)


def test_with_an_empty_deck_nothing_is_drawn():
    state = game_with([], ["l01", "l02"], deck=[])
    out = GAME.apply(state, 0, "l01 at a1 0")
    assert out.state["hands"][0] is None
    assert not [e for e in out.events if e.kind == "draw"]


def test_a_player_with_no_card_and_no_gingerman_passes(extra):
    state = game_with([], ["l01", None, "l03"], gingermen=[True, False, True])
    out = GAME.apply(state, 0, "l01 at a1 0")
    assert out.state["turn"] == 2
    assert out.state["passed"][1] is True
    assert "P1 has no card" in texts(out)


def test_the_game_ends_when_everyone_passes_and_all_areas_are_scored(extra):
    extra["l85"] = card("l85", NORTH_ONLY, [field([0], sheep=1, bears=["red"])])
    extra["l82"] = meadow("l82", sheep=0, bears=["blue", "blue"])
    # An open area south of the castle: 2 loose sugar, 1 honey, blue has the most bears.
    south = placed(extra["l82"], (0, 1), sugar=2, honey=1, fed=[True, False])
    state = game_with([south], ["l85", None], gingermen=[False, False])
    out = GAME.apply(state, 0, "l85 at a1 0")
    final = out.state
    assert final["phase"] == "over" and GAME.to_act(final) == frozenset()
    result = GAME.result(final)
    assert result is not None
    # Red: its own bear's cube, and the open north area (red alone).
    # Blue: the cube on its bear, then the 2 loose sugar and the honey by majority.
    assert final["held"][0] == {"sugar": 1, "honey": 0}
    assert final["held"][1] == {"sugar": 3, "honey": 1}
    assert result.scores == {0: 1, 1: 5}
    assert result.ranking == ((1,), (0,))


def test_equal_totals_share_the_victory(extra):
    state = game_with([], ["l01", None], gingermen=[False, False])
    final = GAME.apply(state, 0, "l01 at a1 0").state
    result = GAME.result(final)
    assert result is not None and result.ranking == ((0, 1),)
    assert "share the victory" in result.summary


def test_a_card_that_fits_nowhere_is_set_aside_and_replaced(extra):
    extra["castle"] = card("castle", "gggggg", [field(range(6))])
    extra["l87"] = card("l87", "rrrrrr")
    state = game_with([], ["l14", "l87"], deck=["l02", "l03"])
    out = GAME.apply(state, 0, "l14 at a1 0")
    after = out.state
    # Every open spot now touches grassland, so the all-road card fits nowhere.
    assert after["set_aside"] == ["l87"]
    assert after["hands"] == ["l03", "l02"] and after["turn"] == 1
    assert any(e.reveals and "L87" in e.text for e in out.events)
    assert GAME.view(after, None)["set_aside"] == ["l87"]


# --------------------------------------------------------------------------- notation and errors


def test_placements_read_short_forms_and_fill_in_the_hand_card():
    state = game_with([], ["l01", "l02"])
    for text in ("place l01 at a1 rot 0", "l01 a1 0", "a1 0", "place a1 rot 0", "a1 r0",
                 "A1 0°", "place L1 at a1 rot 0"):
        assert GAME.parse(state, 0, text).notation == "place l01 at a1 rot 0", text
    assert GAME.parse(state, 0, "gm a2").notation == "gingerman at a2"


def test_an_abbreviation_fitting_several_placements_lists_them(extra):
    state = game_with([], ["l14", "l02"])
    with pytest.raises(AmbiguousActionError) as err:
        GAME.parse(state, 0, "a2")
    assert len(err.value.candidates) == 6


@pytest.mark.parametrize(("text", "error", "words"), [
    ("a1 90", IllegalActionError, "steps of 60"),
    ("a1 60", IllegalActionError, "does not fit"),
    ("c9 0", IllegalActionError, "not an open spot"),
    ("place l05 at a1 rot 0", IllegalActionError, "Your land card is L01"),
    ("feed red", IllegalActionError, "No bears are waiting"),
    ("dance", NotationError, "not a Sugartopia move"),
])
def test_bad_moves_get_a_clear_message_and_change_nothing(text, error, words):
    state = game_with([], ["l01", "l02"])
    before = json.dumps(state, sort_keys=True)
    with refused(words) as caught:
        GAME.apply(state, 0, text)
    assert isinstance(caught.value, error)
    assert json.dumps(state, sort_keys=True) == before


def test_only_the_turn_player_may_place():
    state = game_with([], ["l01", "l02"])
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, 1, "a1 0")


def test_a_player_without_a_card_is_told_to_use_the_gingerman():
    state = game_with([], [None, "l02"])
    with pytest.raises(GameError, match="no land card"):
        GAME.apply(state, 0, "a1 0")


# --------------------------------------------------------------------------- the shipped castle


def test_every_land_card_fits_next_to_the_shipped_castle():
    cards = tiles.catalogue()
    table = Table([new_entry(cards["castle"], (0, 0), 0)], cards)
    for card_id in tiles.land_ids():
        assert table.placements(cards[card_id]), card_id


# --------------------------------------------------------------------------- view, summary, AI


def test_the_view_holds_everything_needed_to_draw_the_table(extra):
    extra["l82"] = meadow("l82", bears=["red", "blue", "green"])
    extra["l83"] = meadow("l83", sheep=2)
    state = game_with([placed(extra["l82"], (0, 1))], ["l83", "l02"], deck=["l03"])
    mid = GAME.apply(state, 0, "b7 0").state
    view = GAME.view(mid, 1)
    assert view["phase"] == "feed" and view["turn"] == 0 and view["to_act"] == [0]
    assert [s["colour"] for s in view["seats"]] == ["red", "blue"]
    assert view["hand"]["card"] == "l02" and view["hand"]["placements"]
    assert view["supply"] == {"sugar": 38, "honey": 6} and view["deck"] == 1
    castle, bears, sheep = view["cards"]
    assert castle["label"] == "castle" and castle["edges"][0] == "road"
    assert bears["label"] == "a4" and bears["fields"][0]["bears"][2] == {"colour": "green",
                                                                          "fed": False}
    assert sheep["fields"][0]["sugar"] == 2 and sheep["q"] == 0 and sheep["r"] == 2
    area = view["areas"][sheep["fields"][0]["area"]]
    assert area["bears"] == {"red": 1, "blue": 1, "green": 1} and area["open"]
    assert {"label": "b6", "q": 1, "r": 1} in view["spots"]
    assert view["feeding"]["colours"] == ["red", "blue", "green"]
    assert view["feeding"]["area"] == area["id"]
    assert view["last"]["label"] == "b7"
    assert json.loads(json.dumps(view)) == view


def test_the_view_shows_each_placed_gingermans_route(extra):
    state = game_with([placed(extra["gingerman"], (0, -1), owner=1)], ["l01", None])
    view = GAME.view(state, None)
    assert view["routes"] == [{"seat": 1, "reached": True, "cookies": 0, "points": 0,
                               "cards": [1, 0]}]
    assert view["cards"][1]["owner"] == 1 and view["hand"] is None


def test_summary_and_scores_follow_the_game(extra):
    state = game_with([], ["l01", "l02"])
    state["held"][1] = {"sugar": 3, "honey": 1}
    assert GAME.rules.scores(state) == {0: 0, 1: 5}
    assert GAME.rules.summary(state).startswith("P0 to play")


def test_the_summary_says_every_meadow_in_play_with_its_bears_and_cubes(extra):
    """What the picture's meadow chips show, in words (the alt text and /game status)."""
    extra["l82"] = meadow("l82", sheep=2, bears=["red", "green", "green"])
    extra["l83"] = meadow("l83", rainbow=1)
    state = game_with([placed(extra["l82"], (0, 1), sugar=2),
                       placed(extra["l83"], (0, -3), honey=1)], ["l01", "l02"])
    summary = GAME.rules.summary(state)
    view = GAME.view(state, None)
    numbers = {view["cards"][i]["card"]: view["areas"][view["cards"][i]["fields"][0]["area"]]
               ["number"] for i in (1, 2)}
    assert f"Meadow {numbers['l82']}: 1 red and 2 green bears, 2 sugar." in summary
    assert f"Meadow {numbers['l83']}: no bears, 1 honey." in summary
    assert summary.count("Meadow ") == 2  # the castle's empty fields are not in play


def test_the_ai_feeds_its_own_bear_first(extra):
    extra["l82"] = meadow("l82", bears=["red", "blue", "green"])
    extra["l83"] = meadow("l83", sheep=1)
    state = game_with([placed(extra["l82"], (0, 1))], [None, "l83"], turn=1)
    mid = GAME.apply(state, 1, "b7 0").state
    assert GAME.ai_action(mid, 1).notation == "feed blue"


def test_the_ai_takes_a_placement_that_feeds_its_own_bear(extra):
    extra["l82"] = meadow("l82", bears=["red"])
    extra["l83"] = meadow("l83", sheep=1)
    state = game_with([placed(extra["l82"], (0, 1))], ["l83", None], gingermen=[False, False])
    action = GAME.ai_action(state, 0)
    assert action.notation.startswith("place l83 at b")  # next to the red bear's meadow
    ranked = GAME.rules.rank_actions(state, 0, GAME.legal_actions(state, 0))
    assert ranked[0].notation.split(" ")[3] in ("b6", "b7", "b8")
    legal = GAME.legal_actions(state, 0)
    assert sorted(a.notation for a in ranked) == sorted(a.notation for a in legal)


def test_a_card_that_lies_the_same_turned_is_offered_once_per_spot() -> None:
    """L14 and L15 lie the same whichever way they are turned, L16 the same every third
    turn: a placement that another turn of the card already makes is the same move, so it
    is offered once (the smallest turn); the others stay legal for /play."""
    state = GAME.new([SeatInfo("Ana", False), SeatInfo("Bo", False)], 5, {})
    seat = state["turn"]
    for hand, most in (("l14", 1), ("l15", 1), ("l16", 3), ("l01", 6)):
        state["hands"][seat] = hand
        legal = GAME.legal_actions(state, seat)
        places = [a.notation for a in legal if a.notation.startswith(f"place {hand} ")]
        same = GAME.rules.dominated(state, seat, legal)
        card = tiles.catalogue()[hand]
        for spot in {n.split()[3] for n in places}:
            here = [n for n in places if n.split()[3] == spot]
            kept = [n for n in here if n not in same]
            lies = {card.as_placed(int(n.split()[-1])) for n in here}
            assert len(kept) == len(lies) <= most
            assert {card.as_placed(int(n.split()[-1])) for n in kept} == lies
        for notation in same:
            assert GAME.parse(state, seat, notation).notation == notation
