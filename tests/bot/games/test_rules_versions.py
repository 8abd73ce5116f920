"""Games stored under older rules versions: played on as they were, or carried over."""

from __future__ import annotations

from typing import ClassVar

import pytest

from bot.games.engine import Engine, RulesVersionError, SeatInfo, dumps, loads
from bot.games.sugar_heist.rules import SugarHeist


class KeepsHeistOne(SugarHeist):
    """Sugar Heist as a game that still plays its rules 1 as they were."""

    older_rules: ClassVar[tuple[int, ...]] = (1,)


def test_a_kept_older_version_loads_and_replays_under_its_own_rules():
    game = Engine(KeepsHeistOne())
    seats = [SeatInfo("A"), SeatInfo("B"), SeatInfo("C")]
    old = game.new(seats, 4, None, rules=1)
    assert old["rules"] == 1
    assert loads(dumps(old), game)["rules"] == 1
    game.check_replayable(old)
    assert game.replay(seats, 4, None, [], rules=1) == old


def test_a_version_the_game_does_not_keep_is_not_made_new():
    game = Engine(SugarHeist())
    with pytest.raises(RulesVersionError, match="does not play"):
        game.new([SeatInfo("A"), SeatInfo("B"), SeatInfo("C")], 4, None,
                 rules=game.rules_version + 1)


def test_sugar_heist_keeps_playing_rules_one_and_two_as_they_were():
    # Rules 3 changed cards: games stored under 1 and 2 go on with the cards they had.
    game = Engine(SugarHeist())
    assert game.plays_rules(1) and game.plays_rules(2)
    seats = [SeatInfo("A"), SeatInfo("B"), SeatInfo("C")]
    for rules in (1, 2):
        old = game.new(seats, 4, None, rules=rules)
        assert loads(dumps(old), game)["rules"] == rules
        assert game.replay(seats, 4, None, [], rules=rules) == old
