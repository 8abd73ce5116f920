"""One test per power card rule, on boards drawn by hand, and the power option."""

from __future__ import annotations

import copy

import pytest

from bot.games.engine import IllegalActionError, OptionsError, SeatInfo, Turn
from bot.games.grid import parse_cell
from bot.games.rng import Rng
from bot.games.sugar_blast import board as bd
from bot.games.sugar_blast import powers as pw
from tests.support.paths import ROOT
from tests.support.sugar_blast_boards import (
    BASE,
    GAME,
    chip_total,
    game_with,
    show,
    token_total,
    with_rows,
)

SEATS = [SeatInfo("Ana"), SeatInfo("Bo")]
ROW_OF_THREE = with_rows(r1="M M C M G T")  # swap c1 d1: marshmallows a1-c1


def at(state: dict, name: str) -> str | None:
    cell = parse_cell(name, 6, 6)
    assert cell is not None
    return bd.at(state["board"], cell)


def legal(state: dict, seat: int = 0) -> list[str]:
    return [a.notation for a in GAME.legal_actions(state, seat)]


# ------------------------------------------------------------------ the cards as data


def test_twelve_cards_use_thirty_two_tokens_and_every_kind_of_card():
    cards = pw.cards()
    assert len(cards) == 12 and len({c["id"] for c in cards}) == 12
    assert sum(c["tokens"] for c in cards) == 32
    assert {c["type"] for c in cards} == {"board", "pile", "discard", "card"}
    assert all(c["tokens"] == 3 for c in cards if c["type"] == "pile")  # a pile of 3
    assert all(c["place"] == "space" for c in cards if c["type"] == "board")


def test_every_card_text_is_generated_from_its_effects():
    for card in pw.cards():
        text = pw.card_text(card)
        assert text["reminder"] and text["condition"] and text["short"]
        assert pw.token_name(card) in text["reminder"] + text["condition"]
    assert "can never be removed from the board" in pw.card_text(pw.card("star"))["condition"]
    assert "form a pile" in pw.card_text(pw.card("bomb"))["condition"]
    assert "You have to discard" in pw.card_text(pw.card("twist"))["condition"]


def test_the_rules_document_lists_the_cards_as_the_data_says():
    doc = ROOT / "docs" / "rules" / "sugar-blast.md"
    from tools.rules_pages import sugar_blast_cards

    assert sugar_blast_cards() in doc.read_text(encoding="utf-8")


# ------------------------------------------------------------------ the power option


def test_no_power_card_leaves_the_basic_game_exactly_as_it_was():
    basic = GAME.new(SEATS, seed=5)
    assert GAME.new(SEATS, seed=5, options={"power": "none"}) == basic
    assert "power" not in basic and "power" not in basic["options"]
    assert "power" not in GAME.view(basic, None)


def test_named_cards_are_accepted_in_any_order_and_by_name():
    assert GAME.validate_options({"power": "Rainbow Sprinkles and BOMB"})["power"] == "bomb + wild"
    assert GAME.validate_options({"power": "wild, bomb"})["power"] == "bomb + wild"
    assert GAME.validate_options({"power": "tongs"})["power"] == "tongs"


@pytest.mark.parametrize(("value", "message"), [
    ("bombs + nope", "cannot be 'nope'.*toffee, star"),
    ("bomb + bomb", "same card twice"),
    ("bomb + wild + star", "one or two power cards"),
])
def test_a_bad_power_option_is_a_clear_error_naming_the_valid_ones(value, message):
    with pytest.raises(OptionsError, match=message):
        GAME.new(SEATS, seed=1, options={"power": value})


def test_random_cards_are_drawn_from_the_seed():
    one = GAME.new(SEATS, seed=8, options={"power": "random 2"})
    again = GAME.new(SEATS, seed=8, options={"power": "random 2"})
    assert one == again and len(set(one["power"]["cards"])) == 2
    drawn = {tuple(GAME.new(SEATS, seed=s, options={"power": "random 1"})["power"]["cards"])
             for s in range(30)}
    assert len(drawn) > 5


def test_typing_a_card_suggests_it_and_every_pair_with_it():
    found = pw.suggestions("bomb")
    assert found[0] == "bomb" and len(found) == 12
    assert all("bomb" in v for v in found)
    assert pw.suggestions("bomb +") == [v for v in found if "+" in v]
    assert pw.suggestions("")[:3] == ["none", "random 1", "random 2"]


def test_set_up_tokens_never_make_a_blast_on_the_opening_board():
    for seed in range(15):
        state = GAME.new(SEATS, seed=seed, options={"power": "wild + cage"})
        assert not bd.has_blast(state["board"], GAME.rules._rules(state))
        assert len(state["power"]["chips"]) == 6


# ------------------------------------------------------------------ toffee puddles


def test_a_toffee_puddle_holds_its_candy_and_stops_the_candies_behind_it():
    state = game_with(ROW_OF_THREE, bag={}, power="toffee", spaces={"a3": "toffee", "f6": "toffee"})
    new = GAME.apply(state, 0, "swap c1 d1").state
    assert at(new, "a1") == "cane"  # a2's cane slid down to a1
    assert at(new, "a3") == "gumdrop"  # held on the toffee
    assert at(new, "a2") == "marshmallow"  # the gap in front of the toffee was refilled
    assert new["power"]["spaces"] == {"a3": "toffee", "f6": "toffee"}


def test_an_empty_toffee_puddle_catches_the_first_candy_that_slides_onto_it():
    rows = with_rows(r1="M C K L G T", r2="M L G T M C", r3="C M T C K L", r4="K C K L G T")
    state = game_with(rows, bag={}, power="toffee", spaces={"a2": "toffee", "f6": "toffee"})
    new = GAME.apply(state, 0, "swap a3 b3").state  # blasts a1-a3
    assert at(new, "a2") == "cane", show(new)  # a4's cane slid onto the empty toffee and stuck
    assert at(new, "a3") == "cane" and at(new, "a4") == "gumdrop"
    assert at(new, "a1") == "marshmallow"  # nothing slid past the toffee: the refill filled a1


# ------------------------------------------------------------------ star spaces


def test_a_blasted_candy_on_a_gold_star_is_kept_as_well():
    state = game_with(ROW_OF_THREE, power="star", spaces={"b1": "star", "e5": "star"})
    out = GAME.apply(state, 0, "swap c1 d1")
    assert out.state["kept"][0] == {"marshmallow": 2}
    assert any("for the gold star on b1" in e.text for e in out.events)
    assert out.state["power"]["spaces"] == {"b1": "star", "e5": "star"}  # never removed
    assert chip_total(out.state) == 72


# ------------------------------------------------------------------ frozen candies


def test_a_frozen_candy_cannot_be_swapped():
    state = game_with(ROW_OF_THREE, power="frozen", chips={"d1": "frozen"})
    assert "swap c1 d1" not in legal(state)
    with pytest.raises(IllegalActionError, match="cannot be swapped"):
        GAME.apply(state, 0, "swap c1 d1")


def test_a_frozen_candy_does_not_slide_when_the_board_tilts():
    state = game_with(ROW_OF_THREE, bag={}, power="frozen", chips={"b3": "frozen"})
    new = GAME.apply(state, 0, "swap c1 d1").state
    assert at(new, "b3") == "truffle" and new["power"]["chips"] == {"b3": "frozen"}
    assert at(new, "b1") == "lollipop"  # b2 slid under the frozen truffle


def test_a_frozen_candy_cannot_be_replaced_by_the_drawn_one():
    state = game_with(with_rows(r1="M M C M G T"), power="frozen", chips={"e1": "frozen"})
    state["phase"], state["drawn"] = "replace", "cane"
    state["bag"]["cane"] -= 1
    assert "replace e1" not in legal(state) and "replace f1" in legal(state)


def test_the_last_ice_cube_to_the_pile_brings_all_three_back_on_the_board():
    state = game_with(ROW_OF_THREE, power="frozen", chips={"a1": "frozen"})
    assert state["power"]["pile"]["frozen"] == 2
    new = GAME.apply(state, 0, "swap c1 d1").state
    assert new["power"]["pile"]["frozen"] == 0 and len(new["power"]["chips"]) == 3
    assert token_total(new) == {"frozen": 3}


# ------------------------------------------------------------------ candy bombs


def test_a_blasted_bomb_clears_its_three_by_three_square():
    state = game_with(ROW_OF_THREE, power="bomb", chips={"b1": "bomb", "f6": "bomb"})
    out = GAME.apply(state, 0, "swap c1 d1")
    blasted = {tuple(c) for c in out.state["last"]["blasted"]}
    assert blasted == {(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)}
    assert out.state["kept"][0] == {"marshmallow": 1}  # nobody keeps what the bomb clears
    assert out.state["power"]["pile"]["bomb"] == 2
    assert chip_total(out.state) == 72


def test_a_bomb_in_a_bombs_square_explodes_too():
    state = game_with(ROW_OF_THREE, power="bomb", chips={"b1": "bomb", "c2": "bomb"})
    new = GAME.apply(state, 0, "swap c1 d1").state
    blasted = {tuple(c) for c in new["last"]["blasted"]}
    assert {(3, 2), (3, 1), (1, 2)} <= blasted  # d3, d2 and b3 are in c2's square
    assert len(blasted) == 11


# ------------------------------------------------------------------ rainbow sprinkles


def test_a_candy_with_a_sprinkle_matches_every_kind():
    state = game_with(with_rows(r1="M M C L G T"), bag={}, power="wild",
                      chips={"c2": "wild", "f6": "wild"})
    assert "swap c1 c2" in legal(state)
    out = GAME.apply(state, 0, "swap c1 c2")  # the sprinkled gumdrop lands on c1
    assert out.state["kept"][0] == {"marshmallow": 1}
    assert "blasted 3 marshmallows (a1-c1)" in " ".join(e.text for e in out.events)
    assert out.state["power"]["pile"]["wild"] == 2


def test_a_blast_needs_one_candy_of_its_own_kind_without_a_sprinkle():
    board = [list(r) for r in game_with(with_rows(r1="M C K L G T"))["board"]]
    rules = bd.BoardRules(wild=frozenset({(0, 0), (1, 0), (2, 0)}))
    assert not any(b.matched == ((0, 0), (1, 0), (2, 0)) for b in bd.find_blasts(board, rules))
    rules = bd.BoardRules(wild=frozenset({(1, 0), (2, 0)}))
    # M * * L: the sprinkled pair belongs to a marshmallow run and to a lollipop run.
    assert [b.notation for b in bd.find_blasts(board, rules)] == ["blast a1-c1", "blast b1-d1"]


# ------------------------------------------------------------------ caramel cages


def test_a_caged_candy_never_counts_in_a_blast():
    state = game_with(ROW_OF_THREE, power="cage", chips={"d1": "cage"})
    assert "swap c1 d1" not in legal(state)
    with pytest.raises(IllegalActionError, match="makes no Blast"):
        GAME.apply(state, 0, "swap c1 d1")


def test_a_blast_next_to_a_cage_breaks_it():
    state = game_with(ROW_OF_THREE, power="cage", chips={"a2": "cage", "f6": "cage"})
    out = GAME.apply(state, 0, "swap c1 d1")
    assert "f6" in out.state["power"]["chips"]
    assert out.state["power"]["pile"]["cage"] == 2
    assert any("broke the cage on a2" in e.text for e in out.events)


# ------------------------------------------------------------------ jelly spaces


def test_a_blast_on_a_jelly_sends_it_to_the_pile():
    state = game_with(ROW_OF_THREE, power="jelly",
                      spaces={"a1": "jelly", "e5": "jelly", "f6": "jelly"})
    new = GAME.apply(state, 0, "swap c1 d1").state
    assert new["power"]["spaces"] == {"e5": "jelly", "f6": "jelly"}
    assert new["power"]["pile"]["jelly"] == 1 and new["kept"][0] == {"marshmallow": 1}


def test_whoever_clears_the_last_jelly_keeps_one_more_of_the_kind_blasted():
    state = game_with(ROW_OF_THREE, power="jelly", spaces={"a1": "jelly"})
    out = GAME.apply(state, 0, "swap c1 d1")
    assert out.state["kept"][0] == {"marshmallow": 2}
    assert len(out.state["power"]["spaces"]) == 3  # all three came back together
    assert token_total(out.state) == {"jelly": 3}


# ------------------------------------------------------------------ twist


def test_a_twist_swaps_two_diagonal_candies_that_make_a_blast():
    rows = with_rows(r1="M M C L G T", r2="K L G M M C")
    state = game_with(rows, power="twist", hands={0: {"twist": 1}})
    assert "twist c1 d2" in legal(state)
    new = GAME.apply(state, 0, "twist d2 c1").state
    assert new["kept"][0] == {"marshmallow": 1}
    assert new["power"]["hands"][0] == {} and new["power"]["supply"]["twist"] == 3


def test_without_a_twist_token_a_diagonal_swap_is_refused():
    state = game_with(with_rows(r1="M M C L G T", r2="K L G M M C"), power="twist")
    with pytest.raises(IllegalActionError, match="You hold no twist"):
        GAME.apply(state, 0, "twist c1 d2")


def test_a_blast_of_four_earns_a_twist():
    state = game_with(with_rows(r1="M M C M T G", r2="K L M T M C"), power="twist")
    new = GAME.apply(state, 0, "swap c1 c2").state
    assert new["power"]["hands"][0] == {"twist": 1}


# ------------------------------------------------------------------ candy tongs


def test_tongs_take_any_candy_to_keep_then_the_board_tilts_toward_you():
    state = game_with(ROW_OF_THREE, power="tongs", hands={0: {"tongs": 1}})
    out = GAME.apply(state, 0, "tongs e4")
    assert out.state["kept"][0] == {"gumdrop": 1}
    assert at(out.state, "e4") == "marshmallow"  # e5 slid down
    assert out.state["turn"] == 1 and out.state["power"]["supply"]["tongs"] == 3
    assert chip_total(out.state) == 72


def test_a_turn_that_brings_you_no_closer_earns_a_pair_of_tongs():
    state = game_with(with_rows(r1="G G K G M T"), bag={}, power="tongs",
                      objective="peppermint-parade")
    new = GAME.apply(state, 0, "swap c1 d1").state  # gumdrops: no use for candy canes
    assert new["power"]["hands"][0] == {"tongs": 1}


def test_when_no_swap_blasts_a_token_or_a_draw_is_the_choice():
    state = game_with(BASE, power="tongs", hands={0: {"tongs": 1}})
    GAME.rules._begin_turn(state, Turn(Rng(state["rng"])))
    actions = legal(state)
    assert "draw" in actions and "tongs a1" in actions and state["phase"] == "swap"


# ------------------------------------------------------------------ sugar rush

RUSH_CHAIN = with_rows(r1="M C K L G T", r2="M L G T M C", r3="C M T C K L", r4="K M M L G T")


def test_a_chain_blast_earns_a_rush():
    state = game_with(RUSH_CHAIN, bag={}, power="rush")
    new = GAME.apply(state, 0, "swap a3 b3").state  # the refill lines up a4-c4
    assert new["power"]["hands"][0] == {"rush": 2}


def test_a_rush_discarded_when_the_turn_ends_gives_another_turn():
    state = game_with(ROW_OF_THREE, power="rush", hands={0: {"rush": 1}})
    new = GAME.apply(state, 0, "swap c1 d1").state
    assert GAME.top(new).kind == "rush" and legal(new) == ["rush", "done"]
    again = GAME.apply(new, 0, "rush").state
    assert again["turn"] == 0 and GAME.top(again) is None and again["power"]["extra"]
    assert again["power"]["supply"]["rush"] == 2
    passed = GAME.apply(new, 0, "done").state
    assert passed["turn"] == 1 and passed["power"]["hands"][0] == {"rush": 1}


# ------------------------------------------------------------------ sweet tooth


def test_a_sweet_tooth_takes_a_kept_candy_from_another_player_before_the_move():
    state = game_with(ROW_OF_THREE, power="steal", hands={0: {"steal": 1}})
    state["kept"][1] = {"corn": 2}
    state["bag"]["corn"] -= 2
    assert "steal corn north" in legal(state)
    new = GAME.apply(state, 0, "steal candy corn from north").state
    assert new["kept"] == [{"corn": 1}, {"corn": 1}]
    assert new["turn"] == 0 and "swap c1 d1" in legal(new)  # the move is still to come


def test_a_rivals_blast_of_four_gives_every_other_player_a_sweet_tooth():
    state = game_with(with_rows(r1="M M C M T G", r2="K L M T M C"), players=3,
                      power="steal")
    new = GAME.apply(state, 0, "swap c1 c2").state
    assert [h.get("steal", 0) for h in new["power"]["hands"]] == [0, 1, 1]


# ------------------------------------------------------------------ flavour of the day


def test_a_blast_of_the_flavour_keeps_one_more_and_the_marker_moves_on():
    state = game_with(ROW_OF_THREE, power="flavour")
    state["power"]["marker"] = "marshmallow"
    new = GAME.apply(state, 0, "swap c1 d1").state
    assert new["kept"][0] == {"marshmallow": 2}
    assert new["power"]["marker"] == "corn"


# ------------------------------------------------------------------ two cards together


def test_a_sprinkled_candy_on_a_star_is_kept_as_its_own_kind():
    state = game_with(with_rows(r1="M M C L G T"), power="star + wild", chips={"c2": "wild"},
                      spaces={"c2": "star", "f6": "star"})
    new = GAME.apply(state, 0, "swap c1 c2").state  # the sprinkled gumdrop moves onto c1
    assert new["kept"][0] == {"marshmallow": 1}  # c1 has no star: only the swap's Blast
    state = game_with(with_rows(r1="M M C L G T"), power="star + wild", chips={"c2": "wild"},
                      spaces={"c1": "star", "f6": "star"})
    new = GAME.apply(state, 0, "swap c1 c2").state
    assert new["kept"][0] == {"marshmallow": 1, "gumdrop": 1}


def test_a_bomb_cleared_candy_on_a_star_is_kept():
    state = game_with(ROW_OF_THREE, power="star + bomb", chips={"b1": "bomb"},
                      spaces={"b2": "star", "f6": "star"})
    new = GAME.apply(state, 0, "swap c1 d1").state
    assert new["kept"][0] == {"marshmallow": 1, "lollipop": 1}  # b2's lollipop


def test_tongs_never_take_a_frozen_candy():
    state = game_with(ROW_OF_THREE, power="frozen + tongs", chips={"e4": "frozen"},
                      hands={0: {"tongs": 1}})
    assert "tongs e4" not in legal(state)
    with pytest.raises(IllegalActionError, match="cannot be swapped, replaced or taken"):
        GAME.apply(state, 0, "tongs e4")


def test_an_illegal_power_move_changes_nothing():
    state = game_with(ROW_OF_THREE, power="twist + steal", hands={0: {"twist": 1}})
    before = copy.deepcopy(state)
    for text in ("twist a1 b1", "twist a1 c3", "steal corn north", "steal corn south",
                 "rush", "draw", "tongs a1"):
        with pytest.raises(IllegalActionError):
            GAME.apply(state, 0, text)
    assert state == before
