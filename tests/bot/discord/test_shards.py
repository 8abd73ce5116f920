"""Shards: ``candybot run --shard-count N --shard-ids ...`` and logins spaced across processes."""

from __future__ import annotations

import asyncio
import itertools
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot import cli
from bot.app import create_bot
from bot.config import Settings
from bot.discord.shards import IdentifyPacer, identify_lock_path
from bot.tables import Tables
from tests.support.paths import ROOT

pytestmark = pytest.mark.slow  # processes logging in seconds apart


def test_shard_flags_give_a_sharded_client_with_those_shards(tmp_path: Path) -> None:
    bot = create_bot(Settings(db_path=tmp_path / "bot.db", shard_count=4, shard_ids=(2, 3)))
    assert isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count == 4
    assert bot.shard_ids == [2, 3]


def test_without_shard_flags_the_bot_keeps_one_plain_connection(tmp_path: Path) -> None:
    bot = create_bot(Settings(db_path=tmp_path / "bot.db"))
    assert not isinstance(bot, discord.AutoShardedClient)


def test_run_passes_the_shard_flags_to_the_bot(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Settings] = []
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("bot.app.run_bot", lambda settings, debug: seen.append(settings) or 0)
    assert cli.main(["run", "--shard-count", "4", "--shard-ids", "0, 1"]) == 0
    assert (seen[0].shard_count, seen[0].shard_ids) == (4, (0, 1))


@pytest.mark.parametrize(("flags", "told"), [
    (["--shard-ids", "0"], "--shard-ids needs --shard-count"),
    (["--shard-count", "2", "--shard-ids", "0,2"], "shard 2 does not exist"),
    (["--shard-count", "2", "--shard-ids", "1,1"], "names a shard twice"),
    (["--shard-count", "2", "--shard-ids", "first"], "not a list of shard numbers"),
    (["--shard-count", "0"], "use 1 or more"),
])
def test_impossible_shard_flags_are_refused_plainly_before_anything_starts(
        flags: list[str], told: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("bot.app.run_bot", lambda settings, debug: pytest.fail("started"))
    assert cli.main(["run", *flags]) == 2
    assert told in capsys.readouterr().err


def test_a_second_login_waits_out_the_window_since_the_first(tmp_path: Path) -> None:
    now = [100.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    pacer = IdentifyPacer(tmp_path / "lock", 5.0, clock=lambda: now[0], sleep=sleep)
    pacer._take()
    now[0] += 1.5
    assert pacer._take() == pytest.approx(3.5)
    now[0] += 9.0
    assert pacer._take() == 0.0
    assert slept == [pytest.approx(3.5)]


def test_a_login_stamp_from_the_future_costs_one_window_at_most(tmp_path: Path) -> None:
    (tmp_path / "lock").write_text("99999999999.0")
    slept: list[float] = []
    IdentifyPacer(tmp_path / "lock", 5.0, clock=lambda: 100.0, sleep=slept.append)._take()
    assert slept == [5.0]


PACED_PROCESS = """
import asyncio, sys, time
from pathlib import Path
from bot.discord.shards import IdentifyPacer
pacer = IdentifyPacer(Path(sys.argv[1]), float(sys.argv[2]))
async def main():
    for _ in range(3):
        await pacer.wait()
        print(time.time(), flush=True)
asyncio.run(main())
"""


def test_processes_started_together_log_in_one_window_apart(tmp_path: Path) -> None:
    lock, window = identify_lock_path(tmp_path / "bot.db"), 0.25
    processes = [subprocess.Popen([sys.executable, "-c", PACED_PROCESS, str(lock), str(window)],
                                  stdout=subprocess.PIPE, text=True) for _ in range(2)]
    logins = sorted(float(line) for p in processes for line in p.communicate(timeout=60)[0].split())
    assert all(p.returncode == 0 for p in processes)
    assert len(logins) == 6
    gaps = [later - earlier for earlier, later in itertools.pairwise(logins)]
    assert min(gaps) >= window - 0.01, gaps


async def test_the_bot_asks_the_shared_pacer_before_each_login(tmp_path: Path) -> None:
    bot = create_bot(Settings(db_path=tmp_path / "bot.db", shard_count=2))
    bot.identify_pacer = IdentifyPacer(identify_lock_path(tmp_path / "bot.db"), 0.2)
    await bot.before_identify_hook(0, initial=True)
    stamp = float(identify_lock_path(tmp_path / "bot.db").read_text())
    await bot.before_identify_hook(1)
    assert float(identify_lock_path(tmp_path / "bot.db").read_text()) >= stamp + 0.19


def _doc_run_lines() -> list[str]:
    """The guide's `candybot run` lines, and the systemd unit's ExecStart it points to."""
    doc = (ROOT / "docs" / "scale.md").read_text()
    unit = (ROOT / "deploy" / "systemd" / "candybot@.service").read_text()
    lines = [line for line in doc.splitlines() if line.startswith("candybot run")]
    lines += [line.removeprefix("ExecStart=").split("/", -1)[-1]
              for line in unit.splitlines() if line.startswith("ExecStart=")]
    return [line.removeprefix("candybot ") for line in lines]


def test_every_run_line_in_the_scaling_guide_starts_its_shards(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Settings] = []
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("bot.app.run_bot", lambda settings, debug: seen.append(settings) or 0)
    lines = _doc_run_lines()
    assert len(lines) == 3
    for line in lines:
        for instance in range(4):
            assert cli.main(line.replace("%i", str(instance)).split()) == 0
    assert {ids for s in seen for ids in s.shard_ids or ()} == {0, 1, 2, 3}
    assert {s.shard_count for s in seen} == {4}


PACED_ON_POSTGRES = """
import asyncio, sys, time
from bot.store import Store
async def main():
    store = await Store.open(sys.argv[1])
    for _ in range(3):
        async with store.connector.identify_turn(float(sys.argv[2])):
            print(time.time(), flush=True)
    await asyncio.sleep(float(sys.argv[2]) + 0.2)  # let the last turn go before closing
    await store.close()
asyncio.run(main())
"""


def test_processes_on_one_postgresql_log_in_one_window_apart(postgres_url: str) -> None:
    # Processes on different machines share no file: the turn is PostgreSQL's.
    window = 0.25
    processes = [subprocess.Popen([sys.executable, "-c", PACED_ON_POSTGRES, postgres_url,
                                   str(window)], stdout=subprocess.PIPE, text=True)
                 for _ in range(2)]
    logins = sorted(float(line) for p in processes for line in p.communicate(timeout=60)[0].split())
    assert all(p.returncode == 0 for p in processes)
    assert len(logins) == 6
    gaps = [later - earlier for earlier, later in itertools.pairwise(logins)]
    assert min(gaps) >= window - 0.01, gaps


async def test_the_bot_on_postgresql_takes_its_login_turn_from_the_database(
        postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.discord.client.IDENTIFY_WINDOW", 0.2)
    bot = create_bot(Settings(db_path=tmp_path / "state", db_url=postgres_url, shard_count=2))
    bot._tables = await Tables.open(postgres_url)
    try:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await bot.before_identify_hook(0, initial=True)
        await bot.before_identify_hook(1)
        assert loop.time() - start >= 0.19
        assert not identify_lock_path(tmp_path / "state").exists()
    finally:
        await asyncio.sleep(0.3)
        await bot._tables.close()
