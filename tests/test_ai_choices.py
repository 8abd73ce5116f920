"""The AIs made faster choose as they did: every case of tests/ai_choices/ (recorded from
the AI before it was made faster, by tests/ai_choices/record.py) plays the same moves,
and the AI gives every legal action the very same value at every move."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ai_choices.record import play

from bot.games import GAMES

HERE = Path(__file__).resolve().parent / "ai_choices"
CASES = [(path.stem, n) for path in sorted(HERE.glob("*.json"))
         for n in range(len(json.loads(path.read_text(encoding="utf-8"))["cases"]))]


@pytest.mark.parametrize(("slug", "n"), CASES, ids=lambda v: str(v))
def test_the_ai_chooses_and_values_as_recorded(slug: str, n: int) -> None:
    recorded = json.loads((HERE / f"{slug}.json").read_text(encoding="utf-8"))["cases"][n]
    again = play(GAMES[slug], recorded["seed"], recorded["players"], recorded["rules"])
    assert again["log"] == recorded["log"]
    changed = [i for i, (a, b) in enumerate(zip(again["values"], recorded["values"],
                                                strict=True)) if a != b]
    assert not changed, f"the AI valued the legal actions differently at moves {changed}"


def test_every_game_whose_ai_was_made_faster_has_recorded_choices() -> None:
    assert {path.stem for path in HERE.glob("*.json")} >= {"sugartopia", "sugar-heist"}
