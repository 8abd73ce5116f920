"""Sugarworks candy movement, exactly as the rulebook writes it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.sugarworks import content as ct
from bot.games.sugarworks.movement import Floor, Story, run

SIDE = ct.sides()["a"]


def cell(name: str) -> ct.Cell:
    out = ct.parse_cell(name)
    assert out is not None
    return out


def floor_tiles(played: dict[str, str] | None = None,
                outputs: dict[str, str] | None = None) -> dict[ct.Cell, tuple[str, str | None]]:
    """Side A as printed, the output tiles (at their starting spaces unless given), tiles played."""
    tiles: dict[ct.Cell, tuple[str, str | None]] = {c: (i, None)
                                                   for c, i in SIDE.printed.items()}
    spaces = outputs or {k: ct.cell_name(c) for k, c in SIDE.start.items()}
    for where in spaces.values():
        tiles[cell(where)] = ct.output_icons()
    for where, kind in (played or {}).items():
        tile = ct.tile_kinds()[kind]
        tiles[cell(where)] = (tile.centre, tile.corner)
    return tiles


def move(candies: list[tuple[str, str, str]], played: dict[str, str] | None = None,
         outputs: dict[str, str] | None = None) -> Story:
    return run(SIDE, floor_tiles(played, outputs),
               [(i, kind, cell(where)) for i, kind, where in candies])


def where(story: Story, candy: str) -> str:
    """A candy's place after the movement: its cell, its crate, or "lost"."""
    if candy in story.final:
        return ct.cell_name(story.final[candy])
    return dict(story.arrivals)[candy]


def path(story: Story, candy: str, activation: int) -> list[str]:
    """What happened in one activation, as short words: cells, bonks, crates, lost."""
    step = next(s for s in story.steps if s.candy == candy and s.activation == activation)
    out = []
    for event in step.events:
        if event["what"] == "move":
            out.append(f"{event['candy']}>{ct.cell_name(tuple(event['to']))}")
        elif event["what"] == "bonk":
            out.append(f"bonk {event['struck']}")
        elif event["what"] == "ship":
            out.append(f"{event['candy']}>{event['crate']}")
        else:
            out.append(f"{event['candy']} {event['what']}")
    return out


def activated(story: Story) -> list[str]:
    return list(dict.fromkeys(s.candy for s in story.steps))


# --------------------------------------------------------------------------- the example


def rulebook_example() -> Story:
    """The board of the rulebook's Candy Movement Example, on side A.

    Played tiles: up belts on d1-d4, a right jump on a4, a green candy eater alien on
    f2; the yellow output was adjusted to c4. Two red circles (e1, d1), three yellow
    hexagons (g5, f3, b4), a green triangle (e2), three blue squares (g3, c4, b5) and
    a purple rectangle (a4).
    """
    played = {"d1": "up", "d2": "up", "d3": "up", "d4": "up", "a4": "jump-right",
              "f2": "alien-green"}
    outputs = {"red": "a5", "yellow": "c4", "green": "a3", "blue": "a2", "purple": "a1"}
    candies = [("R1", "red", "e1"), ("R2", "red", "d1"),
               ("Y1", "yellow", "g5"), ("Y2", "yellow", "f3"), ("Y3", "yellow", "b4"),
               ("G", "green", "e2"),
               ("B1", "blue", "g3"), ("B2", "blue", "c4"), ("B3", "blue", "b5"),
               ("P", "purple", "a4")]
    return move(candies, played, outputs)


def test_the_rulebook_movement_example_tells_exactly_its_story():
    story = rulebook_example()
    # Types in order; within a type the top-right-most candy first.
    assert activated(story) == ["R1", "R2", "Y1", "Y2", "Y3", "G", "B1", "B2", "B3", "P"]
    # "The red circle candy in the rightmost-topmost position activates twice before
    # moving on to the next red circle candy."
    steps = [(s.candy, s.activation) for s in story.steps]
    assert steps[:4] == [("R1", 1), ("R1", 2), ("R2", 1), ("R2", 2)]
    assert path(story, "R2", 1) + path(story, "R2", 2) == ["R2>d2", "R2>d3"]
    # "The rightmost-topmost yellow hexagon activates twice, and is loaded into the
    # heart shipping crate."
    assert path(story, "Y1", 1) == ["Y1>g4"]
    assert path(story, "Y1", 2) == ["Y1>heart"]
    # "Then, the next rightmost in the middle row activates and Bonks! into the blue
    # square candy. ... the candy that moved into it goes down one space. The yellow
    # hexagon activates again and is loaded into the pumpkin shipping crate."
    assert path(story, "Y2", 1) == ["Y2>g3", "bonk B1", "Y2>g2"]
    assert path(story, "Y2", 2) == ["Y2>pumpkin"]
    # "Then, the last yellow hexagon activates and Bonks! into the blue square sending
    # the yellow hexagon down one space. The yellow hexagon activates a second time,
    # Bonking! into the red circle. ... the red circle moves one space to the right.
    # Notice, the red circle ignores the conveyor direction!"
    assert path(story, "Y3", 1) == ["Y3>c4", "bonk B2", "Y3>c3"]
    assert path(story, "Y3", 2) == ["Y3>d3", "bonk R2", "R2>e3"]
    assert floor_tiles({"d3": "up"})[cell("d3")][0] == "up"
    # "Green triangle will activate and immediately become lost as soon as it lands on
    # the green candy eater."
    assert path(story, "G", 1) == ["G>f2", "G lost"]
    assert not any(s.candy == "G" and s.activation == 2 for s in story.steps)
    # "Blue square activates and goes into the bunny crate."
    assert path(story, "B1", 1) == ["B1>bunny"]
    # "The second blue square goes right one space and then up one space."
    assert path(story, "B2", 1) + path(story, "B2", 2) == ["B2>d4", "B2>d5"]
    # "The third blue square goes right one space ... before it activates a second
    # time. The second activation ... Bonks! into the other blue, sending the moving
    # blue square candy down one space."
    assert path(story, "B3", 1) == ["B3>c5"]
    assert path(story, "B3", 2) == ["B3>d5", "bonk B2", "B3>d4"]
    # "Then the purple rectangle activates the first time ... Lastly, the purple
    # rectangle activates a second time, Bonks! into blue square sending purple
    # rectangle down one space. There, it Bonks! a second time into yellow hexagon,
    # which sends yellow hexagon up and to the right one space."
    assert path(story, "P", 1) == ["P>c4"]
    assert path(story, "P", 2) == ["P>d4", "bonk B3", "P>d3", "bonk Y3", "Y3>e4"]
    assert story.arrivals == [("Y1", "heart"), ("Y2", "pumpkin"), ("G", "lost"),
                              ("B1", "bunny")]
    final = {c: ct.cell_name(x) for c, x in story.final.items()}
    assert final == {"R1": "g1", "R2": "e3", "Y3": "e4", "B2": "d5", "B3": "d4", "P": "d3"}


def test_the_example_frames_show_the_board_after_each_activation():
    story = rulebook_example()
    b3_first = next(s for s in story.steps if s.candy == "B3" and s.activation == 1)
    # "leaves the board looking like this before it activates a second time"
    assert {c: ct.cell_name(x) for c, x in b3_first.after.items()} == {
        "R1": "g1", "R2": "e3", "Y3": "d3", "B2": "d5", "B3": "c5", "P": "a4"}


# --------------------------------------------------------------------------- icons


def test_each_arrow_moves_the_candy_one_space_its_way():
    story = move([("A", "red", "c3"), ("B", "blue", "e2")],
                 {"c3": "up", "c4": "left", "e2": "down", "e1": "left"})
    assert path(story, "A", 1) + path(story, "A", 2) == ["A>c4", "A>b4"]
    assert path(story, "B", 1) + path(story, "B", 2) == ["B>e1", "B>d1"]


def test_a_right_jump_skips_over_the_space_between_even_when_a_candy_is_there():
    story = move([("J", "red", "b3"), ("S", "green", "c3")], {"b3": "jump-right"})
    assert path(story, "J", 1) == ["J>d3"]
    assert where(story, "S") == "e3"


def test_a_left_jump_skips_over_the_space_to_its_left():
    story = move([("J", "red", "e3"), ("S", "green", "d3")], {"e3": "jump-left",
                                                              "c3": "up"})
    assert path(story, "J", 1) == ["J>c3"]
    assert path(story, "J", 2) == ["J>c4"]


def test_an_up_spring_jumps_two_spaces_up_over_the_one_between():
    story = move([("S", "yellow", "d2"), ("X", "purple", "d3")],
                 {"d2": "spring", "d3": "down"})
    assert path(story, "S", 1) == ["S>d4"]


def test_a_candy_muncher_in_the_centre_eats_its_shape_when_it_activates():
    story = move([("R", "red", "d3")], {"d3": "munch-red"})
    assert path(story, "R", 1) == ["R lost"]
    assert where(story, "R") == "lost"


def test_a_candy_muncher_leaves_other_shapes_where_they_are():
    story = move([("B", "blue", "d3")], {"d3": "munch-red"})
    assert path(story, "B", 1) == ["B stay"]
    assert where(story, "B") == "d3"


def test_the_x_makes_any_candy_lost():
    story = move([("R", "red", "d3"), ("G", "green", "c3")], {"d3": "x"})
    assert where(story, "R") == "lost"
    # The green comes onto the X with its first activation and is lost with its second.
    assert path(story, "G", 1) == ["G>d3"]
    assert path(story, "G", 2) == ["G lost"]


def test_a_corner_eater_eats_its_shape_as_soon_as_it_enters():
    story = move([("G", "green", "c3"), ("B", "blue", "c2")],
                 {"d3": "alien-green", "d2": "alien-green"})
    assert path(story, "G", 1) == ["G>d3", "G lost"]
    # Any other shape passes the alien and follows its centre arrow.
    assert path(story, "B", 1) + path(story, "B", 2) == ["B>d2", "B>e2"]


# --------------------------------------------------------------------------- Bonk!


def test_a_struck_red_circle_moves_right_and_the_striker_takes_its_space():
    # The red waits on a blue muncher (no arrow for it) until the yellow strikes.
    story = move([("Y", "yellow", "c3"), ("R", "red", "d3")], {"d3": "munch-blue"})
    assert path(story, "R", 1) == ["R stay"]
    assert path(story, "Y", 1) == ["Y>d3", "bonk R", "R>e3"]
    assert where(story, "Y") == "d3"


def test_a_struck_yellow_hexagon_moves_up_and_right():
    story = move([("G", "green", "c3"), ("Y", "yellow", "d3")], {"d3": "munch-blue"})
    assert path(story, "G", 1) == ["G>d3", "bonk Y", "Y>e4"]


def test_striking_a_green_triangle_sends_the_striker_up_and_right():
    story = move([("R", "red", "c3"), ("G", "green", "d3")], {"d3": "down", "e4": "up"})
    assert path(story, "R", 1) == ["R>d3", "bonk G", "R>e4"]
    assert path(story, "R", 2) == ["R>e5"]


def test_striking_a_blue_square_sends_the_striker_down():
    story = move([("R", "red", "c3"), ("B", "blue", "d3")], {"d3": "up", "d2": "up"})
    assert path(story, "R", 1) == ["R>d3", "bonk B", "R>d2"]


def test_striking_a_purple_rectangle_sends_the_striker_right():
    story = move([("R", "red", "c3"), ("P", "purple", "d3")], {"d3": "up", "e3": "up"})
    assert path(story, "R", 1) == ["R>d3", "bonk P", "R>e3"]


def test_bonks_chain_before_the_moving_candy_uses_its_second_activation():
    # The red strikes a blue (down), lands on a purple (right), lands on a red (pushed
    # right), and only then activates again from where it came to rest.
    story = move([("R", "red", "c4"), ("B", "blue", "d4"), ("P", "purple", "d3"),
                  ("Q", "red", "e3")], {"d4": "up", "e3": "munch-blue", "f3": "up"})
    assert path(story, "R", 1) == ["R>d4", "bonk B", "R>d3", "bonk P", "R>e3", "bonk Q",
                                   "Q>f3"]
    assert path(story, "R", 2) == ["R stay"]


def test_a_corner_icon_resolves_before_the_bonk():
    # The green enters the alien's space where a blue sits: it is eaten, nobody Bonks!.
    story = move([("G", "green", "c3"), ("B", "blue", "d3")], {"d3": "alien-green",
                                                                 "c3": "right"})
    assert path(story, "G", 1) == ["G>d3", "G lost"]
    assert where(story, "B") == "f3"


def test_a_candy_pushed_by_a_bonk_is_eaten_by_the_corner_icon_it_enters():
    story = move([("Y", "yellow", "c3"), ("R", "red", "d3")], {"d3": "munch-blue",
                                                               "e3": "alien-red"})
    assert path(story, "Y", 1) == ["Y>d3", "bonk R", "R>e3", "R lost"]


# --------------------------------------------------------------------------- order


def test_types_resolve_red_yellow_green_blue_purple_whatever_their_place():
    story = move([("P", "purple", "f5"), ("B", "blue", "f4"), ("G", "green", "f3"),
                  ("Y", "yellow", "b2"), ("R", "red", "b1")],
                 {"f5": "left", "f4": "left", "f3": "left", "e5": "left", "e4": "left",
                  "e3": "left"})
    assert activated(story) == ["R", "Y", "G", "B", "P"]


def test_within_a_type_columns_go_right_to_left_each_from_the_top():
    story = move([("A", "blue", "b5"), ("B", "blue", "e1"), ("C", "blue", "e4"),
                  ("D", "blue", "e2"), ("E", "blue", "c3")],
                 {"e4": "up", "e2": "up", "e1": "up"})
    assert activated(story) == ["C", "D", "B", "E", "A"]


def test_a_red_pushed_by_an_earlier_red_activates_later_at_its_new_space():
    # R1 (e3, top-right-most) goes left into R2 on d3, which is pushed right to e3;
    # R2 has not activated yet and does so from e3, after R1's two activations.
    story = move([("R1", "red", "e3"), ("R2", "red", "d3")],
                 {"e3": "left", "d3": "down"})
    assert path(story, "R1", 1) == ["R1>d3", "bonk R2", "R2>e3"]
    assert path(story, "R1", 2) == ["R1>d2"]
    assert [s.candy for s in story.steps] == ["R1", "R1", "R2", "R2"]
    assert path(story, "R2", 1) == ["R2>d3"]
    assert path(story, "R2", 2) == ["R2>d2", "bonk R1", "R1>e2"]


# --------------------------------------------------------------------------- edges


def test_a_candy_leaving_by_the_top_edge_is_lost():
    story = move([("A", "red", "d5")], {"d5": "up"})
    assert path(story, "A", 1) == ["A lost"] and where(story, "A") == "lost"


def test_a_candy_leaving_by_the_bottom_edge_is_lost():
    story = move([("A", "red", "d1")], {"d1": "down"})
    assert where(story, "A") == "lost"


def test_a_candy_leaving_by_the_left_edge_is_lost():
    story = move([("A", "red", "b1")], {"b1": "left", "a1": "left"}, {
        "red": "a5", "yellow": "a4", "green": "a3", "blue": "a2", "purple": "c1"})
    assert path(story, "A", 2) == ["A lost"]


def test_a_candy_leaving_the_right_edge_beside_no_crate_is_lost():
    story = move([("A", "red", "g5")], {"g5": "right"})
    assert where(story, "A") == "lost"


def test_a_candy_moving_right_beside_a_crate_is_shipped():
    for row, crate in (("4", "heart"), ("3", "bunny"), ("2", "pumpkin")):
        story = move([("A", "red", f"g{row}")])
        assert where(story, "A") == crate


def test_a_jump_must_land_exactly_in_the_crate():
    exact = move([("A", "red", "f4")], {"f4": "jump-right"})
    assert where(exact, "A") == "heart"
    beyond = move([("A", "red", "g4")], {"g4": "jump-right"})
    assert where(beyond, "A") == "lost"


def test_a_bonk_can_ship_a_candy_or_lose_it():
    pushed = move([("Y", "yellow", "f3"), ("R", "red", "g3")], {"g3": "munch-blue"})
    assert path(pushed, "Y", 1) == ["Y>g3", "bonk R", "R>bunny"]
    diagonal = move([("R", "red", "f3"), ("G", "green", "g3")], {"g3": "up"})
    assert path(diagonal, "R", 1) == ["R>g3", "bonk G", "R>heart"]
    down = move([("R", "red", "c1"), ("B", "blue", "d1")], {"d1": "up", "c1": "right"})
    assert path(down, "R", 1) == ["R>d1", "bonk B", "R lost"]


# --------------------------------------------------------------------------- properties


def test_a_tile_played_under_a_candy_resolves_its_corner_icon_at_once():
    tiles = floor_tiles({"d3": "alien-green"})
    floor = Floor(SIDE, tiles, [("G", "green", cell("d3")), ("B", "blue", cell("e3"))])
    assert floor.eat_on_placement(cell("d3"))
    assert not floor.eat_on_placement(cell("e3"))
    assert floor.arrivals == [("G", "lost")]


ICON_KINDS = sorted(ct.tile_kinds())
CELLS = sorted(SIDE.printed)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(CELLS), st.sampled_from(ICON_KINDS), max_size=25),
       st.lists(st.tuples(st.sampled_from(CELLS), st.sampled_from(ct.candy_order())),
                max_size=22, unique_by=lambda t: t[0]))
def test_every_movement_ends_with_every_candy_in_exactly_one_place(played, candies):
    names = {f"c{i}": (kind, where) for i, (where, kind) in enumerate(candies)}
    tiles = floor_tiles({ct.cell_name(c): k for c, k in played.items()})
    start = [(i, kind, where) for i, (kind, where) in names.items()]
    story = run(SIDE, tiles, start)
    arrived = [c for c, _ in story.arrivals]
    assert sorted(arrived + list(story.final)) == sorted(names)
    assert len(set(story.final.values())) == len(story.final), "two candies share a space"
    assert all(SIDE.on_board(c) for c in story.final.values())
    # Every candy activates at most twice and, unless it left the board, exactly twice.
    counts: dict[str, int] = {}
    for step in story.steps:
        counts[step.candy] = counts.get(step.candy, 0) + 1
    assert all(n <= 2 for n in counts.values())
    assert all(counts.get(c) == 2 for c in story.final)
    # The same floor moves the same way.
    again = run(SIDE, tiles, start)
    assert [s.to_json() for s in again.steps] == [s.to_json() for s in story.steps]


@given(st.dictionaries(st.sampled_from(CELLS), st.sampled_from(ICON_KINDS), max_size=25),
       st.lists(st.tuples(st.sampled_from(CELLS), st.sampled_from(ct.candy_order())),
                max_size=22, unique_by=lambda t: t[0]))
def test_a_movement_played_without_its_story_ends_and_ships_the_same(played, candies):
    """The AI's forecasts play movements without narrating them: the same candies end on
    the same spaces and leave for the same crates, in the same order."""
    tiles = floor_tiles({ct.cell_name(c): k for c, k in played.items()})
    start = [(f"c{i}", kind, where) for i, (where, kind) in enumerate(candies)]
    told, quiet = run(SIDE, tiles, start), run(SIDE, tiles, start, narrate=False)
    assert (quiet.final, quiet.arrivals, quiet.steps) == (told.final, told.arrivals, [])
