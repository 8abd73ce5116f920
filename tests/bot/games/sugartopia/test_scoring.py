"""Sugartopia scoring: the rulebook's worked examples, neutral bears and cookie routes."""

from __future__ import annotations

from collections.abc import Iterable

from bot.games.sugartopia import tiles
from bot.games.sugartopia.board import Table, new_entry, score_area, split
from bot.games.sugartopia.tiles import Card, Pos
from tests.bot.games.sugartopia.test_rules import (
    GAME,
    card,
    field,
    game_with,
    meadow,
    placed,
    with_test_castle,
)

FOUR = ["red", "blue", "yellow", "purple"]


def scored_area(bears: Iterable[str], sugar: int = 0, honey: int = 0,
                fed: Iterable[bool] | None = None, colours: list[str] = FOUR):
    """Score a one-card area (a meadow south of the castle) holding these bears and cubes."""
    cards = with_test_castle()
    cards["l90"] = meadow("l90", bears=bears)
    table = Table([new_entry(cards["castle"], (0, 0), 0),
                   placed(cards["l90"], (0, 1), sugar=sugar, honey=honey, fed=fed)], cards)
    area = next(a for a in table.areas() if (1, 0) in a.regions)
    return table, score_area(table, area, colours)


# ------------------------------------------------------------------- the rulebook's examples


def test_blue_with_the_most_bears_takes_the_last_sugar_cube():
    _, scored = scored_area(["blue", "blue", "yellow"], sugar=1)
    assert scored.sugar == {1: 1} and scored.returned_sugar == 0


def test_blue_and_yellow_tied_on_one_honey_get_nothing_and_it_goes_back():
    _, scored = scored_area(["blue", "yellow"], honey=1)
    assert scored.honey == {} and scored.returned_honey == 1


def test_purple_and_yellow_tied_on_one_sugar_get_nothing_and_the_honey_goes_back_too():
    _, scored = scored_area(["purple", "yellow"], sugar=1, honey=1)
    assert scored.sugar == {} and scored.honey == {}
    assert scored.returned_sugar == 1 and scored.returned_honey == 1


def test_red_with_the_most_bears_takes_the_honey_worth_two_points():
    _, scored = scored_area(["red", "red", "blue"], honey=1)
    assert scored.honey == {0: 1} and scored.returned_honey == 0


def test_blue_and_purple_share_three_sugar_one_each_and_one_goes_back():
    _, scored = scored_area(["blue", "purple", "red", "blue", "purple"], sugar=3)
    assert scored.sugar == {1: 1, 3: 1} and scored.returned_sugar == 1


def test_players_first_take_the_cubes_on_their_own_bears():
    table, scored = scored_area(["red", "blue", "blue"], sugar=1, fed=[True, True, False])
    assert scored.own_sugar == {0: 1, 1: 1}
    # The loose cube then goes to blue, who has the most bears.
    assert scored.sugar == {1: 1}
    assert table.entries[1]["fields"][0] == {"sugar": 0, "honey": 0,
                                             "fed": [False, False, False], "done": True}


# --------------------------------------------------------------------------- neutral colours


def test_a_tie_with_a_neutral_colour_returns_the_neutral_share():
    _, scored = scored_area(["blue", "blue", "green", "green"], sugar=3)
    assert scored.sugar == {1: 1} and scored.returned_sugar == 2


def test_a_neutral_majority_sends_every_cube_back():
    _, scored = scored_area(["orange", "orange", "red"], sugar=2, honey=1)
    assert scored.sugar == {} and scored.honey == {}
    assert scored.returned_sugar == 2 and scored.returned_honey == 1


def test_a_cube_on_a_neutral_bear_is_shared_by_majority():
    _, scored = scored_area(["green", "red", "red"], sugar=0, fed=[True, False, False])
    assert scored.own_sugar == {} and scored.sugar == {0: 1}


def test_colours_no_player_has_count_as_neutral():
    # In a two-player game purple belongs to nobody.
    _, scored = scored_area(["purple", "purple", "red"], sugar=2, colours=["red", "blue"],
                            fed=[True, False, False])
    assert scored.own_sugar == {} and scored.sugar == {}
    assert scored.returned_sugar == 3


def test_an_area_without_bears_returns_its_cubes():
    assert split({}, 3, FOUR).returned == 3


# --------------------------------------------------------------------------- cookie routes


def straight(card_id: str, a: int, b: int, cookies: int = 0) -> Card:
    """A card with one road from side ``a`` to side ``b``, ``cookies`` on side a's stretch."""
    edges = "".join("r" if s in (a, b) else "g" for s in range(6))
    return card(card_id, edges, cookies={a: cookies})


def board(cards: dict[str, Card], layout: list[tuple[Card, Pos, int | None]]) -> Table:
    """A table: the castle plus (card, position, Gingerman owner or None) in order."""
    entries = [new_entry(cards["castle"], (0, 0), 0)]
    for c, pos, owner in layout:
        cards[c.id] = c
        entries.append(new_entry(c, pos, 0, owner))
    return Table(entries, cards)


def catalogue() -> dict[str, Card]:
    return with_test_castle()


GINGER = tiles.catalogue()["gingerman"]


def test_red_collects_two_cookies_on_the_way_home_for_four_points():
    table = board(catalogue(), [(straight("l91", 0, 3, 1), (0, -1), None),
                                (straight("l92", 0, 3, 1), (0, -2), None),
                                (GINGER, (0, -3), 0)])
    route = table.best_route(0)
    assert route is not None and route.cookies == 2
    assert route.cards == (3, 2, 1, 0)


def _blue_board(red_gingerman: bool) -> Table:
    north = (GINGER, (0, -2), 0) if red_gingerman else (straight("l93", 0, 3, 1), (0, -2), None)
    return board(catalogue(), [
        (straight("l91", 0, 3, 1), (0, -1), None),
        north,
        (GINGER, (0, -3), 1),
        # The long way round to the east, into the castle's south-east road.
        (straight("l94", 5, 3), (1, -3), None),
        (straight("l95", 0, 3, 1), (1, -2), None),
        (straight("l96", 0, 3), (1, -1), None),
        (straight("l97", 0, 5), (1, 0), None),
    ])


def test_blue_cannot_pass_the_red_gingerman_and_takes_another_road_for_one_cookie():
    assert _blue_board(red_gingerman=False).best_route(1).cookies == 2
    table = _blue_board(red_gingerman=True)
    route = table.best_route(1)
    assert route is not None and route.cookies == 1
    assert 2 not in route.cards  # never on the Red Gingerman's card
    # Red, hemmed in the same way, can still walk straight home.
    assert table.best_route(0).cookies == 1


def test_purple_next_to_the_castle_makes_a_detour_for_two_cookies():
    table = board(catalogue(), [(GINGER, (0, -1), 3),
                                (straight("l91", 5, 3, 1), (1, -1), None),
                                (straight("l92", 0, 5, 1), (1, 0), None)])
    route = table.best_route(3)
    assert route is not None and route.cookies == 2 and len(route.cards) == 4


def test_yellow_reaches_the_castle_without_a_cookie_and_scores_nothing():
    table = board(catalogue(), [(GINGER, (0, -1), 2)])
    route = table.best_route(2)
    assert route is not None and route.cookies == 0


def test_a_gingerman_with_no_road_to_the_castle_gets_no_route():
    table = board(catalogue(), [(GINGER, (1, -1), 2)])  # faces the castle's grassland
    assert table.best_route(2) is None
    assert table.best_route(0) is None  # no Gingerman at all


def test_a_route_never_uses_the_same_stretch_twice():
    # A junction north of the castle with a dead-end branch full of cookies to the east.
    cards = catalogue()
    junction = card("l91", "rgrrgg", cookies={0: 0, 2: 0, 3: 0})
    dead_end = card("l92", "gggggr", [field(range(5))], cookies={5: 5})
    table = board(cards, [(junction, (0, -1), None), (dead_end, (1, -1), None),
                          (GINGER, (0, -2), 0)])
    assert table.best_route(0).cookies == 0


def test_a_route_may_cross_the_same_card_twice_on_other_stretches():
    cards = catalogue()
    crossing = card("l91", "rrgrgr")  # N, NE, S and NW meet in the middle
    table = board(cards, [
        (crossing, (0, -1), None),
        (GINGER, (0, -2), 0),
        (straight("l92", 4, 0), (1, -2), None),
        (straight("l93", 3, 5, 1), (1, -3), None),
        (straight("l94", 2, 4), (0, -3), None),
        (straight("l95", 1, 3), (-1, -2), None),
        (straight("l96", 0, 2), (-1, -1), None),
    ])
    route = table.best_route(0)
    assert route is not None and route.cookies == 1
    assert route.cards.count(1) == 2


def test_the_cookie_bonus_is_two_points_per_cookie_in_the_final_score(monkeypatch):
    cards = catalogue()
    cards["l91"] = straight("l91", 0, 3, 1)
    cards["l92"] = straight("l92", 0, 3, 1)
    monkeypatch.setattr(tiles, "catalogue", lambda: cards)
    state = game_with([placed(cards["l91"], (0, -1)), placed(cards["gingerman"], (0, -3),
                                                             owner=0)],
                      ["l92", None], gingermen=[False, False])
    final = GAME.apply(state, 0, "l92 at b1 0").state
    assert final["phase"] == "over"
    assert final["final"][0]["cookies"] == 2 and final["final"][0]["total"] == 4
    assert final["final"][0]["route"] == ["c1", "b1", "a1", "castle"]
    assert GAME.result(final).scores == {0: 4, 1: 0}
