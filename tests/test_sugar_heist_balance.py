"""The balance figures docs/rules/sugar-heist.md tells how to measure."""

from __future__ import annotations

from pathlib import Path

from bot.games.sugar_heist.balance import balance

ROOT = Path(__file__).resolve().parents[1]


def test_the_documented_balance_command_measures_ai_games():
    command = 'from bot.games.sugar_heist.balance import balance; print(balance(30, 4))'
    assert command in (ROOT / "docs/rules/sugar-heist.md").read_text(encoding="utf-8")
    figures = balance(1, 3)
    assert figures["games"] == 1 and figures["players"] == 3
    assert 0 <= figures["passed_all_rooms"] <= 1 and figures["decisions_per_game"] > 0
