"""Stored golden playthroughs replay to the same final state (see tests/golden/record.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from golden.record import state_hash
from playthrough import seats_for

from bot.games import GAMES

GOLDEN = Path(__file__).resolve().parent / "golden"
FILES = sorted(GOLDEN.glob("*/*.json"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_golden_playthrough_replays_to_the_same_final_state(path: Path):
    golden = json.loads(path.read_text(encoding="utf-8"))
    game = GAMES[golden["game"]]
    assert golden["rules_version"] == game.rules_version, (
        f"{game.title} rules are now version {game.rules_version}: record its goldens anew "
        "(tests/golden/record.py) once the change is meant to alter old games")
    log = [(seat, notation) for seat, notation in golden["log"]]
    final = game.replay(seats_for(game, golden["players"]), golden["seed"], golden["options"],
                        log)
    assert state_hash(final) == golden["final_sha256"], (
        f"{path.name} no longer replays to the same game: the rules changed without a new "
        f"rules_version for {game.title}")


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_registered_game_has_golden_playthroughs(slug: str):
    assert list((GOLDEN / slug).glob("*.json")), f"record one: tests/golden/record.py {slug} ..."
