"""The AI-strength commands docs/benchmarks.md gives, run from the shell with small counts:
each prints what the docs say it prints (not timed; the figures come from long runs)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.support.paths import ROOT
from tools.sugar_blast_value import FEATURES

pytestmark = pytest.mark.slow  # whole AI games in a fresh interpreter

DOCS = (ROOT / "docs" / "benchmarks.md").read_text()


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_strength_command_prints_a_row_per_match_and_the_table() -> None:
    assert "python -m tools.strength --game" in DOCS
    out = run("tools.strength", "--game", "sugar-blast", "kingdoms-candy-monsters",
              "--games", "4", "--level", "easy", "strong", "--against", "random", "previous")
    rows = [line for line in out.splitlines() if line.startswith("| ")]
    # Four matches a game, each printed as it ends and again in the closing table.
    assert len([r for r in rows if re.search(r"\d+(\.\d+)?%", r)]) == 2 * 2 * 2 * 2
    assert all(slug in out for slug in ("sugar-blast", "kingdoms-candy-monsters"))


def test_the_value_fitting_command_prints_the_weights_it_found() -> None:
    assert "python -m tools.sugar_blast_value --games" in DOCS
    out = run("tools.sugar_blast_value", "--games", "6", "--seed-base", "100000")
    assert "of 6 games, seeds 100000-100005" in out
    weights = re.search(r"VALUE_WEIGHTS = \(([^)]*)\)", out)
    assert weights is not None
    assert len([float(w) for w in weights.group(1).split(", ")]) == len(FEATURES)
