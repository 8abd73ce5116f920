"""`candybot demo --option`: game options in an offline demo, replayed exactly."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.cli import main


def test_a_demo_with_power_cards_is_replayed_exactly(tmp_path: Path, capsys):
    out = tmp_path / "power"
    assert main(["demo", "sugar-blast", "--players", "2", "--seed", "3",
                 "--option", "power=random 2", "--option", "objective=rainbow",
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "objective=rainbow, power=random 2" in printed and "Power: " in printed
    with sqlite3.connect(out / "candybot.db") as db:
        (options,) = db.execute("SELECT options FROM games").fetchone()
    assert "random 2" in options
    assert main(["replay", str(out)]) == 0
    assert "matches the stored one exactly" in capsys.readouterr().out


@pytest.mark.parametrize(("option", "message"), [
    ("powr=bomb", "Unknown option 'powr' for Sugar Blast (known: objective, power)"),
    ("power=bomb + nope", "The cards: toffee, star, frozen"),
    ("objective=nope", "must be one of: random, four-alike"),
    ("power", "--option takes NAME=VALUE"),
])
def test_a_bad_demo_option_is_a_clear_error_naming_the_valid_ones(tmp_path: Path, capsys,
                                                                  option, message):
    assert main(["demo", "sugar-blast", "--option", option, "--out", str(tmp_path / "x")]) == 2
    assert message in capsys.readouterr().out
    assert not (tmp_path / "x" / "candybot.db").exists()
