"""Sugartopia area names: unique, kept for the whole game, shown in narration and views."""

from __future__ import annotations

import re

from bot.games.engine import Engine, SeatInfo, State, playing
from bot.games.sugartopia import Sugartopia, tiles
from bot.games.sugartopia.board import new_entry

GAME = Engine(Sugartopia())
NORTH = (0, -1)  # a1, north of the castle
WEST = (-1, 0)  # touches the castle's north-west grassland side


def table_with(*entries: tuple[str, tuple[int, int], int]) -> State:
    """A two-player game whose table is the castle plus ``(card, spot, rot)`` entries."""
    state = GAME.new([SeatInfo("Ana"), SeatInfo("Bo")], 1)
    cards = tiles.catalogue()
    state["table"] = [state["table"][0]] + [new_entry(cards[c], pos, rot)
                                            for c, pos, rot in entries]
    return state


def names(view: dict) -> dict[tuple[int, int], str]:
    """Each area's name by its first field."""
    return {tuple(a["regions"][0]): a["name"] for a in view["areas"]}


def test_two_areas_on_one_card_have_different_names():
    # L01's road runs north-south and cuts it into an east and a west field; neither
    # touches the castle's grassland, so each is an area of its own.
    view = GAME.view(table_with(("l01", NORTH, 0)), None)
    assert names(view) == {(0, 0): "Meadow 1", (0, 1): "Meadow 2",
                           (1, 0): "Meadow 3", (1, 1): "Meadow 4"}
    card = view["cards"][1]
    east, west = (view["areas"][f["area"]]["name"] for f in card["fields"])
    assert east != west


def test_joined_areas_keep_the_older_name_and_the_narration_says_so():
    state = table_with(("l01", NORTH, 0))
    state["hands"] = ["l14", None]
    out = GAME.apply(state, 0, f"l14 at {tiles.label_of(WEST)} 0")
    text = " ".join(e.text for e in out.events)
    assert "L14 joins Meadow 2 and Meadow 4 into one area: Meadow 2." in text
    after = names(GAME.view(out.state, None))
    assert after[(0, 1)] == "Meadow 2" and "Meadow 4" not in after.values()
    # The areas that were not touched keep their names; the new card founded no area.
    assert after[(0, 0)] == "Meadow 1" and after[(1, 0)] == "Meadow 3"
    assert len(after) == 3


def whole_game(seed: int, players: int = 3) -> tuple[list[State], list[str]]:
    state = GAME.new([SeatInfo(f"P{i}", ai=True) for i in range(players)], seed)
    states, lines = [state], []
    for _seat, out in playing(GAME, state):
        states.append(out.state)
        lines.extend(e.text for e in out.events)
    return states, lines


def test_an_area_keeps_its_name_all_game_and_a_name_is_never_given_twice():
    for seed in (3, 8):
        states, _ = whole_game(seed)
        key_of: dict[str, tuple[int, int]] = {}
        for state in states:
            view = GAME.view(state, None)
            seen = [a["name"] for a in view["areas"]]
            assert len(seen) == len(set(seen))
            for key, name in names(view).items():
                assert key_of.setdefault(name, key) == key, name


def test_a_completed_area_is_named_once_and_never_fed_again():
    for seed in (3, 8):
        _, lines = whole_game(seed)
        completed: set[str] = set()
        for line in lines:
            fed = re.match(r"In (Meadow \d+), \d+ hungry", line)
            assert not (fed and fed.group(1) in completed), line
            done = re.match(r"(Meadow \d+) is complete", line)
            if done:
                assert done.group(1) not in completed, line
                completed.add(done.group(1))


def test_zoom_spots_are_the_placed_cards_then_the_open_spots():
    state = table_with(("l01", NORTH, 0))
    spots = GAME.rules.zoom_spots(state)
    assert spots[:2] == ["castle", "a1"]
    assert spots[2:] == [s["label"] for s in GAME.view(state, None)["spots"]]
    assert len(spots) == len(set(spots))
