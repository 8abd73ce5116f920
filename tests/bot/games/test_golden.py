"""Stored golden playthroughs replay to the same final state (see tests/golden/record.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.games import GAMES
from tests.golden.record import state_hash
from tests.support.paths import ROOT
from tests.support.playthrough import seats_for

GOLDEN = (ROOT / "tests") / "golden"
FILES = sorted(GOLDEN.glob("*/*.json"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_golden_playthrough_replays_to_the_same_final_state(path: Path):
    golden = json.loads(path.read_text(encoding="utf-8"))
    game = GAMES[golden["game"]]
    made = golden["rules_version"]
    assert made <= game.rules_version, f"{path.name} was recorded by a newer candybot"
    log = [(seat, notation) for seat, notation in golden["log"]]
    seats = seats_for(game, golden["players"])
    if game.plays_rules(made):
        # The current rules, or an older version the game still plays as it was.
        final = game.replay(seats, golden["seed"], golden["options"], log, made)
    else:
        # An older version the game carries over: its log must play the same under the
        # current rules (only the stamp differs), or carrying games over would change them.
        final = game.replay(seats, golden["seed"], golden["options"], log)
        final["rules"] = made
    assert state_hash(final) == golden["final_sha256"], (
        f"{path.name} no longer replays to the same game: the rules changed without a new "
        f"rules_version for {game.title}")


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_registered_game_has_golden_playthroughs_of_its_current_rules(slug: str):
    game = GAMES[slug]
    current = [p for p in (GOLDEN / slug).glob("*.json")
               if json.loads(p.read_text(encoding="utf-8"))["rules_version"] == game.rules_version]
    assert current, (f"{game.title} rules are now version {game.rules_version}: record its "
                     f"goldens (python -m tests.golden.record {slug} ...)")
