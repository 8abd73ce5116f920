"""The balance figures docs/rules/sugar-heist.md tells how to measure."""

from __future__ import annotations

from tests.support.paths import ROOT
from tools.balance.sugar_heist import balance, card_figures, card_table


def test_the_documented_balance_command_measures_ai_games():
    command = 'from tools.balance.sugar_heist import balance; print(balance(30, 4))'
    assert command in (ROOT / "docs/rules/sugar-heist.md").read_text(encoding="utf-8")
    figures = balance(1, 3)
    assert figures["games"] == 1 and figures["players"] == 3
    assert 0 <= figures["passed_all_rooms"] <= 1 and figures["decisions_per_game"] > 0


def test_the_documented_card_figures_command_measures_every_room_met():
    command = ("from tools.balance.sugar_heist import card_figures, card_table; "
               "print(card_table(card_figures(300, 3)))")
    assert command in (ROOT / "docs/rules/sugar-heist.md").read_text(encoding="utf-8")
    figures = card_figures(2, 3)
    assert figures and all(0 <= f["stop_rate"] <= 1 and f["met"] >= 0 for f in figures.values())
    assert any(k.startswith("default:") for k in figures), "board defaults are met too"
    assert card_table(figures).startswith("| Card | Cost | Kind |")
