"""The balance command the rules document quotes runs and prints both of its tables."""

from __future__ import annotations

import pytest

from bot.games.sugarworks import GAME
from tools.balance import sugarworks as balance

pytestmark = pytest.mark.slow  # many whole AI games


def test_the_balance_command_prints_the_shape_and_the_livelier_figures_per_rules(
        capsys: pytest.CaptureFixture[str]):
    balance.main(["1"])
    out = capsys.readouterr().out
    assert balance.HEADER in out and balance.LIVELY_HEADER in out
    lively = out.split(balance.LIVELY_HEADER)[1].strip().splitlines()
    assert sorted(line.split(" | ")[0:2] for line in lively) == sorted(
        [f"| {rules}", f"{players}"] for rules in (*GAME.older_rules, GAME.rules_version)
        for players in (2, 3, 4))


def test_the_figures_count_every_factory_action_and_every_star():
    figures = balance.simulate(1, 3)
    assert figures.adjust + figures.conveyor + figures.make == pytest.approx(1.0)
    assert 0.0 <= figures.blanket_share <= 1.0 and 0.0 <= figures.no_order <= 1.0
    assert figures.rules == GAME.rules_version
