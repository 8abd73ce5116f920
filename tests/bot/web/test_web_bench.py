"""docs/benchmarks.md's ``candybot bench --web 200``, from the shell with fewer viewers for
a shorter while: every viewer is answered, sees the moves made meanwhile, and each version
of the board is drawn once."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.slow  # a bot, its render pool and a process of viewers, for seconds
def test_viewers_of_a_live_game_are_answered_and_see_its_moves(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "bench", "--web", "20", "--web-seconds", "7",
         "--json"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["viewers"] == 20 and figures["moves"] >= 2
    kinds = figures["by_kind_ms"]
    assert set(kinds) == {"page", "static", "picture", "live"}
    # Each viewer: the page, its two files and board, then a poll a second, at least.
    assert figures["requests"] >= 20 * (4 + 4)
    assert figures["seen_after_move_ms"]["median"] < 2000
    assert figures["pictures_drawn"] <= figures["moves"] + 2
