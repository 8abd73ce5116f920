"""Narration reads right: every count agrees with its noun, "an" comes before a vowel
sound, and nobody "loses 0" of anything. Scanned over whole games of every game."""

from __future__ import annotations

import re
from functools import cache

import pytest

from bot.games import GAMES
from bot.games.engine import Engine, Result
from bot.games.words import article
from tests.support.playthrough import play

#: Countable nouns of the games' narration, singular and plural.
NOUNS = {
    "move": "moves", "card": "cards", "cookie": "cookies", "monster": "monsters",
    "ability": "abilities", "die": "dice", "point": "points", "round": "rounds",
    "bear": "bears", "cube": "cubes", "order": "orders", "tile": "tiles", "token": "tokens",
    "coin": "coins", "room": "rooms", "player": "players", "turn": "turns", "seat": "seats",
    "crate": "crates", "spring": "springs", "belt": "belts", "meadow": "meadows",
    "sheep": "sheep", "star": "stars", "gem": "gems", "space": "spaces", "bonus": "bonuses",
}
_WORD = r"(?:[a-z][a-z-]* )?"  # at most one describing word between number and noun
_NOT_BETWEEN = r"(?!(?:of|for|from|and|or|to|in|on|at|by|more|than|is|are|was) )"
ONE_WITH_PLURAL = re.compile(
    rf"(?<![\w.,/$-])1 {_NOT_BETWEEN}{_WORD}"
    rf"({'|'.join(p for s, p in NOUNS.items() if p != s)})\b")
MANY_WITH_SINGULAR = re.compile(
    rf"(?<![\w.,/$-])(0|[2-9]|\d\d+) {_NOT_BETWEEN}{_WORD}"
    rf"({'|'.join(s for s, p in NOUNS.items() if p != s)})\b(?![- ]?[a-z]*(?:s|ies)\b)")
A_BEFORE = re.compile(r"(?<![\w'])([aA]n?) ([\w-]+)")
LOSES_NOTHING = re.compile(r"\b(?:loses|pays|gives|steals|takes) 0\b")


def slips(text: str) -> list[str]:
    """The wording slips in ``text``."""
    found = [m.group(0) for m in ONE_WITH_PLURAL.finditer(text)]
    found += [m.group(0) for m in MANY_WITH_SINGULAR.finditer(text)]
    found += [m.group(0) for m in LOSES_NOTHING.finditer(text)]
    for m in A_BEFORE.finditer(text):
        said, word = m.group(1).lower(), m.group(2)
        if said != article(word).split(" ")[0]:
            found.append(m.group(0))
    return found


def texts_of(result: Result | None, game: Engine, state: dict) -> list[str]:
    return [result.summary] if result is not None else [game.rules.summary(state)]


@cache
def narration(slug: str) -> tuple[str, ...]:
    """Every public line of several whole games of ``slug``, with the results."""
    game = GAMES[slug]
    lines: list[str] = []
    for players in range(game.min_seats, min(game.max_seats, 4) + 1):
        for seed in (1, 2, 3):
            final, _ = play(game, seed, players, on_step=lambda step: lines.extend(
                step.outcome.narration(None)))
            lines.extend(texts_of(game.result(final), game, final))
    return tuple(lines)


def test_the_scanner_catches_each_kind_of_slip() -> None:
    assert slips("Ann has 1 cookies and 3 cookie.") == ["1 cookies", "3 cookie"]
    assert slips("Ann: 7 monsters + 1 tucked abilities.") == ["1 tucked abilities"]
    assert slips("Ann played a Up belt, an Left belt and an X.") == ["a Up", "an Left"]
    assert slips("Ann loses 0 candy.") == ["loses 0"]
    assert slips("Ann has 1 cookie, 2 cookies, an Up belt, a unit and 16 from monsters.") == []


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_narration_of_whole_games_has_no_wording_slips(slug: str) -> None:
    lines = narration(slug)
    assert len(lines) > 50
    wrong = {(slip, line) for line in lines for slip in slips(line)}
    assert not wrong, sorted(wrong)[:10]


def test_the_article_follows_the_sound_of_the_next_word() -> None:
    assert article("Up belt") == "an Up belt"
    assert article("Left belt") == "a Left belt"
    assert article("X") == "an X" and article("L19") == "an L19" and article("B2") == "a B2"
    assert article("unicorn") == "a unicorn" and article("hour") == "an hour"
    assert article("8") == "an 8" and article("3") == "a 3"


def test_a_candy_monsters_score_counts_candies_per_item_not_cards() -> None:
    from bot.games.candy_monsters.scoring import breakdown_text

    items = {"monsters": 16, "kept": 0, "tucked": 1, "candy": 4, "sugar": 0, "black": -2,
             "bonus": 0, "total": 19}
    assert breakdown_text(items) == ("16 from monsters + 1 from tucked abilities + "
                                     "4 from candy tokens - 2 for black cubes = 19")


def test_sugar_heist_names_dice_as_dice_and_says_why_one_did_not_change() -> None:
    from bot.games.sugar_heist.dice import showing
    from bot.games.sugar_heist.effects import _unchanged

    assert showing([6]) == "the die showing 6"
    assert showing([2, 2, 1]) == "the dice showing 2, 2 and 1"
    assert _unchanged(1, {"do": "add", "amount": -1}) == "the 1 cannot go lower"
    assert _unchanged(6, {"do": "add", "amount": 2}) == "the 6 cannot go higher"
    assert _unchanged(4, {"do": "set", "value": 4}) == "the 4 already shows 4"


def test_sugartopia_counts_one_cookie_as_one() -> None:
    game = GAMES["sugartopia"]
    final, _ = play(game, 1, 2)
    final["final"][0]["cookies"] = 1
    result = game.result(final)
    assert result is not None and "1 cookie)" in result.summary
