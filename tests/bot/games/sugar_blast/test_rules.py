"""One test per Sugar Blast rule, on boards drawn by hand."""

from __future__ import annotations

import copy

import pytest

from bot.games.engine import (
    AmbiguousActionError,
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    SeatInfo,
    StaleActionError,
    Turn,
)
from bot.games.rng import Rng
from bot.games.sugar_blast import board as bd
from tests.support.sugar_blast_boards import BASE, GAME, board_from, chip_total, game_with


def with_rows(**rows: str) -> list[str]:
    """BASE with some rows replaced, e.g. with_rows(r1="M M C M G T")."""
    out = list(BASE)
    for key, text in rows.items():
        out[6 - int(key[1:])] = text
    return out


def begin_turn(state: dict) -> dict:
    turn = Turn(Rng(state["rng"]))
    GAME.rules._begin_turn(state, turn)
    state["rng"] = turn.rng.state
    return state


# ------------------------------------------------------------------ set-up


def test_setup_uses_72_chips_twelve_of_each_kind():
    state = GAME.new([SeatInfo("Ana"), SeatInfo("Bo")], seed=3)
    assert chip_total(state) == 72
    counts = {}
    for row in state["board"]:
        for candy in row:
            counts[candy] = counts.get(candy, 0) + 1
    for kind, n in state["bag"].items():
        counts[kind] = counts.get(kind, 0) + n
    assert set(counts.values()) == {12} and len(counts) == 6


@pytest.mark.parametrize("seed", range(20))
def test_setup_fills_the_board_with_no_line_of_three(seed):
    state = GAME.new([SeatInfo("Ana"), SeatInfo("Bo")], seed=seed)
    assert all(c is not None for row in state["board"] for c in row)
    assert not bd.has_line(state["board"])


def test_each_player_sits_at_one_side_of_the_board():
    sides = [[s["side"] for s in GAME.view(GAME.new([SeatInfo(str(i)) for i in range(n)], 1),
                                           None)["seats"]] for n in (2, 3, 4)]
    assert sides == [["south", "north"], ["south", "west", "north"],
                     ["south", "west", "north", "east"]]


def test_objective_can_be_chosen_by_the_creator():
    state = GAME.new([SeatInfo("Ana"), SeatInfo("Bo")], seed=1, options={"objective": "rainbow"})
    assert state["objective"] == "rainbow"


def test_unknown_objective_is_a_clear_error():
    from bot.games.engine import OptionsError

    with pytest.raises(OptionsError, match="objective"):
        GAME.new([SeatInfo("Ana"), SeatInfo("Bo")], seed=1, options={"objective": "nope"})


def test_seven_players_is_a_clear_error():
    from bot.games.engine import OptionsError

    with pytest.raises(OptionsError, match="2 to 4 players"):
        GAME.new([SeatInfo(str(i)) for i in range(7)], seed=1)


# ------------------------------------------------------------------ swapping


def test_swap_must_be_orthogonal_not_diagonal():
    state = game_with(with_rows(r1="M M C M G T"))
    with pytest.raises(IllegalActionError, match="no diagonals"):
        GAME.apply(state, 0, "swap c1 d2")


def test_swap_of_two_equal_candies_is_illegal():
    state = game_with(with_rows(r1="M M C M G T"))
    with pytest.raises(IllegalActionError, match="both"):
        GAME.apply(state, 0, "swap a1 b1")


def test_swap_must_create_a_blast():
    state = game_with(with_rows(r1="M M C M G T"))
    before = copy.deepcopy(state)
    with pytest.raises(IllegalActionError, match="makes no Blast"):
        GAME.apply(state, 0, "swap e1 f1")
    assert state == before


def test_only_the_turn_player_may_act():
    state = game_with(with_rows(r1="M M C M G T"))
    with pytest.raises(NotYourTurnError, match="Ana"):
        GAME.apply(state, 1, "swap c1 d1")


# ------------------------------------------------------------------ the Blasts


def test_three_blast_keeps_one_and_puts_two_back_in_the_bag():
    state = game_with(with_rows(r1="M M C M G T"), bag={})
    out = GAME.apply(state, 0, "swap c1 d1")
    new = out.state
    assert new["kept"][0] == {"marshmallow": 1}
    # The two returned marshmallows were the only chips in the bag: the refill
    # put them on a6 and b6 (left to right), and c6 stays empty.
    assert bd.at(new["board"], (0, 5)) == "marshmallow"
    assert bd.at(new["board"], (1, 5)) == "marshmallow"
    assert bd.at(new["board"], (2, 5)) is None
    assert any("blasted 3 marshmallows (a1-c1) and kept 1 marshmallow" in e.text
               for e in out.events)


def test_four_blast_removes_the_rest_of_the_row():
    rows = with_rows(r1="M M C M T G", r2="K L M T M C")
    state = game_with(rows)
    new = GAME.apply(state, 0, "swap c1 c2").state
    assert GAME.top(new).kind == "keep"
    assert all(c is None for c in new["board"][0])  # the whole of row 1 is gone
    assert [a.notation for a in GAME.legal_actions(new, 0)] == ["keep gumdrop", "keep truffle"]


def test_four_blast_keeps_one_match_and_one_other_candy():
    state = game_with(with_rows(r1="M M C M T G", r2="K L M T M C"))
    new = GAME.apply(state, 0, "swap c1 c2").state
    new = GAME.apply(new, 0, "keep truffle").state
    assert new["kept"][0] == {"marshmallow": 1, "truffle": 1}
    assert chip_total(new) == 72


def test_second_kept_candy_is_never_the_matched_kind():
    # Row 1 after the swap: M M M M T M; f1 is a marshmallow but not part of the four.
    state = game_with(with_rows(r1="M M C M T M", r2="K L M T M C"))
    out = GAME.apply(state, 0, "swap c1 c2")
    assert out.state["kept"][0] == {"marshmallow": 1, "truffle": 1}


def test_five_in_a_line_removes_every_candy_of_that_kind_and_keeps_two():
    rows = with_rows(r1="M M C M M T", r2="K L M T M C")
    board = board_from(rows)
    bd.swap(board, (2, 0), (2, 1))
    (blast,) = bd.find_blasts(board)
    marshmallows = [c for c in bd.all_cells() if bd.at(board, c) == "marshmallow"]
    assert blast.kind == "big" and sorted(blast.removed) == sorted(marshmallows)
    out = GAME.apply(game_with(rows), 0, "swap c1 c2")
    assert out.state["kept"][0] == {"marshmallow": 2}


T_SHAPE = with_rows(r2="K L G M M C", r3="G T M C M L", r4="M C K M G T", r5="K L G M M C")


def test_several_blasts_at_once_the_player_chooses_the_order():
    new = GAME.apply(game_with(T_SHAPE), 0, "swap d2 d3").state
    assert GAME.top(new).kind == "blast"
    assert sorted(a.notation for a in GAME.legal_actions(new, 0)) == [
        "blast c3-e3", "blast d3-d5", "mega c3-e3 d3-d5"]


def test_mega_blast_removes_the_rest_of_the_three_by_three_square():
    new = GAME.apply(game_with(T_SHAPE), 0, "swap d2 d3").state
    new = GAME.apply(new, 0, "mega c3-e3 d3-d5").state
    assert GAME.top(new).kind == "keep"
    square = [(c, r) for c in (2, 3, 4) for r in (2, 3, 4)]
    assert all(bd.at(new["board"], cell) is None for cell in square)
    # e5 held a marshmallow, so the second candy is a cane (c4) or a gumdrop (e4, c5).
    assert GAME.top(new).data["others"] == ["cane", "gumdrop"]
    out = GAME.apply(new, 0, "keep cane")
    assert out.events[0].text == "Ana kept a candy cane as well."
    assert out.state["kept"][0]["cane"] >= 1  # a chain after the refill may add more


def test_long_cross_offers_the_blast_of_four_or_the_mega_blast_not_both():
    rows = with_rows(r2="K L G M M C", r3="G T M M M L", r4="M C K M G T", r5="K L G M M C")
    state = game_with(rows, phase="blast")
    notations = sorted(a.notation for a in GAME.legal_actions(state, 0))
    assert notations == ["blast c3-e3", "blast d2-d5", "mega c3-e3 d2-d4", "mega c3-e3 d3-d5"]
    new = GAME.apply(state, 0, "blast d2-d5").state
    assert new["kept"][0] == {"marshmallow": 1}
    assert GAME.top(new).data["others"] == ["corn", "lollipop"]  # d6 and d1, never the row's Ms


# ------------------------------------------------------------------ tilt, refill, chains


def test_tilt_slides_candies_toward_the_players_side():
    for side, expected in [("south", (0, 0)), ("north", (0, 5)), ("west", (0, 3)),
                           ("east", (5, 3))]:
        board = [[None] * 6 for _ in range(6)]
        bd.put(board, (0, 3), "corn")
        bd.tilt(board, side)
        assert bd.at(board, expected) == "corn", side


def test_refill_goes_from_the_players_bottom_row_up_and_left_to_right():
    expected = {"south": [(0, 0), (1, 0), (2, 0)], "north": [(5, 5), (4, 5), (3, 5)],
                "west": [(0, 5), (0, 4), (0, 3)], "east": [(5, 0), (5, 1), (5, 2)]}
    for side, cells in expected.items():
        board = [[None] * 6 for _ in range(6)]
        filled = bd.refill(board, side, {"corn": 3}, Rng(1))
        assert filled == cells, side


def test_refill_that_makes_a_line_is_a_chain_blast():
    # After a1-c1 is blasted and the board tilts south, b2-c2 and the swapped
    # corn on d1 line up as b1-d1.
    state = game_with(with_rows(r1="M M C M G T", r2="K C C T M C"), bag={})
    out = GAME.apply(state, 0, "swap c1 d1")
    assert out.state["kept"][0] == {"marshmallow": 1, "corn": 1}
    assert any(e.kind == "chain" for e in out.events)


def test_the_board_tilts_toward_the_north_player_on_their_turn():
    state = game_with(with_rows(r6="M M C M G T"), bag={})
    state["turn"] = 1  # Bo sits north
    new = GAME.apply(state, 1, "swap c6 d6").state
    # a6-c6 were blasted; tilting north pulls columns a-c up, leaving the
    # gaps at row 1 where the two returned marshmallows refill from Bo's left (f side).
    assert bd.at(new["board"], (2, 0)) == "marshmallow"
    assert bd.at(new["board"], (1, 0)) == "marshmallow"
    assert bd.at(new["board"], (0, 0)) is None


# ------------------------------------------------------------------ no Blast possible


def test_without_a_blasting_swap_the_player_draws_and_must_replace():
    state = begin_turn(game_with(BASE))
    assert state["phase"] == "replace" and state["drawn"] is not None
    legal = GAME.legal_actions(state, 0)
    drawn = state["drawn"]
    assert legal and all(bd.at(state["board"], bd_cell(a.notation)) != drawn for a in legal)
    assert chip_total(state) == 72


def bd_cell(notation: str) -> tuple[int, int]:
    from bot.games.grid import parse_cell

    cell = parse_cell(notation.split(" ")[1], 6, 6)
    assert cell is not None
    return cell


def test_replaced_candy_goes_back_into_the_bag():
    state = begin_turn(game_with(BASE))
    action = GAME.legal_actions(state, 0)[0]
    removed = bd.at(state["board"], bd_cell(action.notation))
    out = GAME.apply(state, 0, action)
    assert chip_total(out.state) == 72
    assert out.state["last"]["replaced"] == list(bd_cell(action.notation))
    assert "went into the bag" in out.events[0].text
    assert removed.split()[0] in out.events[0].text


def test_replacing_into_a_line_resolves_the_blast():
    state = begin_turn(game_with(with_rows(r1="M M K L G T")))
    # Make the drawn chip a marshmallow, keeping the 72 chips whole.
    state["bag"][state["drawn"]] += 1
    state["bag"]["marshmallow"] -= 1
    state["drawn"] = "marshmallow"
    out = GAME.apply(state, 0, "replace c1")
    assert out.state["kept"][0].get("marshmallow", 0) >= 1
    assert "blasted 3 marshmallows (a1-c1)" in " ".join(e.text for e in out.events)


def test_a_round_without_any_blast_ends_the_game():
    state = begin_turn(game_with(BASE, bag={}))
    assert state["ended"] and state["winner"] is None
    result = GAME.result(state)
    assert result is not None and result.ranking == ((0, 1),)


# ------------------------------------------------------------------ winning


def test_completing_the_objective_wins_at_once():
    state = game_with(with_rows(r1="M M C M G T"), objective="four-alike")
    state["kept"][0] = {"marshmallow": 3}
    out = GAME.apply(state, 0, "swap c1 d1")
    result = GAME.result(out.state)
    assert result is not None and result.winners == (0,)
    assert GAME.to_act(out.state) == frozenset()
    with pytest.raises(GameOverError):
        GAME.apply(out.state, 1, "swap a1 a2")


def test_losers_are_ranked_by_progress_toward_the_objective():
    state = game_with(with_rows(r1="M M C M G T"), players=3, objective="four-alike")
    state["kept"] = [{"marshmallow": 3}, {"corn": 1}, {"cane": 3}]
    result = GAME.result(GAME.apply(state, 0, "swap c1 d1").state)
    assert result is not None and result.ranking == ((0,), (2,), (1,))


# ------------------------------------------------------------------ notation


def test_swap_notation_reads_either_order_and_without_the_verb():
    state = game_with(with_rows(r1="M M C M G T"))
    assert GAME.parse(state, 0, "swap d1 c1").notation == "swap c1 d1"
    assert GAME.parse(state, 0, "  C1   D1 ").notation == "swap c1 d1"
    assert GAME.parse(state, 0, "c1-d1").notation == "swap c1 d1"


def test_text_that_is_not_notation_is_a_notation_error():
    state = game_with(with_rows(r1="M M C M G T"))
    for text in ("fly to the moon", ""):
        with pytest.raises(NotationError):
            GAME.parse(state, 0, text)


def test_a_known_move_with_words_it_cannot_take_says_why():
    state = game_with(with_rows(r1="M M C M G T"))
    with pytest.raises(IllegalActionError, match=r"There is no space “z9” on the board: "
                                                 r"spaces go from a1 to f6\."):
        GAME.parse(state, 0, "swap z9 a1")
    with pytest.raises(IllegalActionError) as unicorn:
        GAME.parse(state, 0, "keep unicorn")
    assert unicorn.value.typed == "keep unicorn" and str(unicorn.value)


def test_an_abbreviation_that_fits_several_moves_is_ambiguous():
    state = GAME.new([SeatInfo("Ana"), SeatInfo("Bo")], seed=1)
    assert len(GAME.legal_actions(state, 0)) > 1
    with pytest.raises(AmbiguousActionError) as err:
        GAME.parse(state, 0, "swap")
    assert set(err.value.candidates) == {a.notation for a in GAME.legal_actions(state, 0)}


def test_a_unique_abbreviation_names_its_move():
    state = game_with(with_rows(r1="M M C M G T"))
    matches = [a for a in GAME.legal_actions(state, 0) if a.notation.startswith("swap d1 ")]
    if len(matches) == 1:
        assert GAME.parse(state, 0, "swap d1").notation == matches[0].notation


def test_a_stale_move_is_refused_and_changes_nothing():
    state = game_with(with_rows(r1="M M C M G T"))
    before = copy.deepcopy(state)
    with pytest.raises(StaleActionError, match="expired"):
        GAME.apply(state, 0, "swap c1 d1", expected=state["move"] - 1)
    assert state == before


def test_keep_accepts_the_candy_name_in_words():
    state = game_with(with_rows(r1="M M C M T G", r2="K L M T M C"))
    new = GAME.apply(state, 0, "swap c1 c2").state
    assert GAME.parse(new, 0, "keep truffles").notation == "keep truffle"


def test_a_round_without_a_blast_does_not_end_the_game_while_the_bag_has_chips():
    # Seed 10, two players (the random objective draws four-alike): both players
    # fail to Blast after their replacements, yet 25 chips remain in the bag.
    state = GAME.new([SeatInfo("A"), SeatInfo("B")], 10)
    log = ["swap c2 c3", "swap e2 e3", "replace f2", "swap e3 e4", "replace c5", "replace d3",
           "replace f6"]
    for notation in log:
        state = GAME.apply(state, min(GAME.to_act(state)), notation).state
    assert state["objective"] == "four-alike"
    assert GAME.result(state) is None and GAME.to_act(state) == {1}
    assert sum(state["bag"].values()) > 0

