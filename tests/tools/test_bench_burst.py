"""``candybot bench --burst``: the morning burst measures what it says (small counts; not
a timed test)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tools.burst import _order
from tools.offline import Sent

pytestmark = pytest.mark.slow  # the morning burst over sockets


def test_the_burst_is_delivered_in_order_within_discords_limits_from_the_shell(
        tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "bench", "--burst", "75", "--burst-channels", "15",
         "--json"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["announcements"] == 75 and figures["pace"] == 40
    assert (figures["delivered"], figures["left"], figures["twice"]) == (75, 0, 0)
    assert figures["out_of_order"] == 0 and figures["channels_out_of_order"] == 0
    assert figures["global_429"] == figures["route_429"] == figures["invalid"] == 0
    assert 0 < figures["peak_per_s"] <= 50
    assert figures["moves"] >= 1 and figures["move_board_ms"]["median"] > 0
    assert figures["paced"]["granted"] >= 75


def test_the_burst_tells_announcements_out_of_order_and_twice(tmp_path: Path) -> None:
    db = tmp_path / "outbox.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE outbox (id INTEGER PRIMARY KEY, channel_id INTEGER, "
                     "nonce TEXT)")
        conn.executemany("INSERT INTO outbox VALUES (?, ?, ?)",
                         [(1, 7, "a"), (2, 8, "b"), (3, 7, "c"), (4, 8, "d")])

    def posted(nonce: str) -> Sent:
        return Sent("http", "POST", "/channels/7/messages", {"content": "x", "nonce": nonce})

    in_order = [posted(n) for n in ("a", "b", "d", "c")]  # channels interleave: fine
    assert _order(db, in_order) == {"delivered": 4, "twice": 0, "out_of_order": 0,
                                    "channels_out_of_order": 0}
    swapped = [posted(n) for n in ("c", "b", "a", "a", "d")]  # channel 7's rows swapped
    assert _order(db, swapped) == {"delivered": 4, "twice": 1, "out_of_order": 1,
                                   "channels_out_of_order": 1}


def test_the_same_burst_unpaced_is_measured_as_the_docs_compare_it(tmp_path: Path) -> None:
    """docs/benchmarks.md's ``--pace 0``: the bot without its own pace, every request sent
    as soon as discord.py lets it; the burst is still delivered whole and in order."""
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "bench", "--burst", "75", "--burst-channels", "15",
         "--pace", "0", "--json"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["pace"] == 0 and figures["announcements"] == 75
    assert (figures["delivered"], figures["left"], figures["twice"]) == (75, 0, 0)
    assert figures["out_of_order"] == 0 and figures["channels_out_of_order"] == 0
    assert figures["paced"] is None, "no pace, so nothing granted by one"
