"""Narration's small words: numbers agree with their nouns, lists read as English."""

from __future__ import annotations

from bot.games.words import listing, plural, possessive


def test_one_takes_the_singular_and_every_other_count_the_plural():
    assert plural(1, "move") == "1 move"
    assert plural(0, "move") == "0 moves"
    assert plural(2, "candy", "candies") == "2 candies"
    assert plural(1, "candy", "candies") == "1 candy"


def test_names_are_listed_with_commas_and_a_final_and():
    assert listing([]) == ""
    assert listing(["Ana"]) == "Ana"
    assert listing(["Ana", "Bo"]) == "Ana and Bo"
    assert listing(["Ana", "Bo", "Cy"]) == "Ana, Bo and Cy"


def test_a_name_ending_in_s_takes_only_an_apostrophe():
    assert possessive("Ana") == "Ana's"
    assert possessive("Insidious Lawn Gnomes") == "Insidious Lawn Gnomes'"
