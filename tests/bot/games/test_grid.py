"""Shared geometry: square cells and flat-topped hexes, for rules and pictures alike."""

from __future__ import annotations

import math

from bot.games.grid import (
    HEX_SIDES,
    adjacent,
    cell_name,
    hex_centre,
    hex_corners,
    hex_neighbour,
    hex_opposite,
    hex_ring,
    hex_rotated,
    neighbours,
    parse_cell,
)


def test_square_cells_are_named_from_a1_at_the_bottom_left_and_parse_back():
    assert cell_name((0, 0)) == "a1" and cell_name((5, 5)) == "f6"
    assert parse_cell("c3", 6, 6) == (2, 2) and parse_cell("g1", 6, 6) is None
    assert sorted(neighbours((0, 0), 6, 6)) == [(0, 1), (1, 0)]
    assert adjacent((2, 2), (2, 3)) and not adjacent((2, 2), (3, 3))


def test_walking_across_a_hex_side_and_back_returns_home():
    for side in range(HEX_SIDES):
        there = hex_neighbour((2, -1), side)
        assert hex_neighbour(there, hex_opposite(side)) == (2, -1)
        assert hex_ring(hex_neighbour((0, 0), side)) == 1


def test_turning_a_hex_six_times_sixty_degrees_is_a_full_turn():
    for side in range(HEX_SIDES):
        assert hex_rotated(side, 360) == side
        assert hex_rotated(hex_rotated(side, 120), -120) == side
        assert hex_rotated(side, 60) == (side + 1) % HEX_SIDES


def test_neighbouring_hex_centres_are_equally_far_apart_and_corners_touch():
    size = 10.0
    here = hex_centre((0, 0), size)
    for side in range(HEX_SIDES):
        there = hex_centre(hex_neighbour((0, 0), side), size)
        assert math.isclose(math.dist(here, there), size * math.sqrt(3))
    north = hex_centre(hex_neighbour((0, 0), 0), size)
    assert north[1] < here[1], "north is up: y grows downwards"
    shared = {(round(x, 6), round(y, 6)) for x, y in hex_corners(here, size)} & {
        (round(x, 6), round(y, 6)) for x, y in hex_corners(north, size)}
    assert len(shared) == 2
