"""``candybot restore BACKUP``: a backup back in place, the replaced database kept."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import time
from dataclasses import replace
from pathlib import Path

import pytest

from bot.cli import main
from bot.health import Status, process_mark, status_path, write_status
from bot.ops import Exit
from bot.store import Store


async def a_database(path: Path, channels: list[int]) -> None:
    store = await Store.open(path)
    try:
        for channel in channels:
            await store.games.create_lobby(channel_id=channel, guild_id=1, game="sugar-blast",
                                           creator_id=7, options={},
                                           settings={}, now=1.0)
    finally:
        await store.close()


def channels_in(path: Path) -> list[int]:
    with sqlite3.connect(path) as db:
        rows = [c for (c,) in db.execute("SELECT channel_id FROM games ORDER BY channel_id")]
    db.close()
    return rows


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "data" / "candybot.db"
    db.parent.mkdir()
    monkeypatch.setenv("CANDYBOT_DB", str(db))
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    return db


def test_restore_puts_the_backup_in_place_and_keeps_what_it_replaced(
        place: Path, capsys: pytest.CaptureFixture[str]):
    asyncio.run(a_database(place, [1, 2]))
    assert main(["backup", str(place.parent / "backup.db")]) == 0
    asyncio.run(a_database(place, [3]))  # played on after the backup
    place.with_name("candybot.db-wal").write_bytes(b"")  # a log left by a killed bot
    capsys.readouterr()

    assert main(["restore", str(place.parent / "backup.db")]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"Restored {place.parent / 'backup.db'} into {place}: schema ")
    assert channels_in(place) == [1, 2]
    assert not place.with_name("candybot.db-wal").exists()
    [kept] = place.parent.glob("candybot-before-restore-*.db")
    assert channels_in(kept) == [1, 2, 3] and str(kept) in said
    # The database is whole; check's one problem is the missing token.
    assert main(["check"]) == Exit.CONFIG
    out = capsys.readouterr().out
    assert "integrity ok" in out and out.count("Problem (exit code") == 1


@pytest.fixture
def ended() -> tuple[int, str]:
    """The pid and mark of a process that has ended (a child, started, marked, killed)."""
    child = subprocess.Popen(["sleep", "60"])
    mark = process_mark(child.pid)
    child.kill()
    child.wait()
    assert mark is not None, "this machine's /proc tells processes apart"
    return child.pid, mark


def running_status(now: float) -> Status:
    """The status a bot running in this very process would write."""
    return Status(written_at=now, pid=os.getpid(), connected=True, connected_at=now,
                  latency_ms=40, database_ok=True, database_problem=None,
                  process=process_mark())


def test_restore_refuses_while_the_bot_runs_or_is_stopping(
        place: Path, capsys: pytest.CaptureFixture[str]):
    asyncio.run(a_database(place, [1]))
    assert main(["backup", str(place.parent / "backup.db")]) == 0
    running = running_status(time.time())
    write_status(status_path(place), running)
    capsys.readouterr()
    assert main(["restore", str(place.parent / "backup.db")]) == Exit.RUNNING == 10
    assert f"is running (pid {os.getpid()};" in capsys.readouterr().err
    # Stopping, it may still write: not yet.
    write_status(status_path(place), replace(running, stopping=True))
    assert main(["restore", str(place.parent / "backup.db")]) == Exit.RUNNING
    assert "is stopping" in capsys.readouterr().err and not list(
        place.parent.glob("candybot-before-restore-*.db"))


def test_restore_proceeds_at_once_when_the_bot_said_it_stopped(place: Path):
    asyncio.run(a_database(place, [1]))
    assert main(["backup", str(place.parent / "backup.db")]) == 0
    # Written by a bot in another container (its process cannot be seen from here) a
    # moment ago: its word is what counts.
    elsewhere = replace(running_status(time.time()), process="another-boot pid:[1] 7",
                        stopping=True)
    write_status(status_path(place), elsewhere)
    assert main(["restore", str(place.parent / "backup.db")]) == Exit.RUNNING
    write_status(status_path(place), replace(elsewhere, stopped=True))
    assert main(["restore", str(place.parent / "backup.db")]) == 0


def test_restore_proceeds_at_once_when_the_bots_process_has_ended(
        place: Path, ended: tuple[int, str]):
    asyncio.run(a_database(place, [1]))
    assert main(["backup", str(place.parent / "backup.db")]) == 0
    pid, mark = ended
    # Killed before it could say so: a fresh status that says it runs, from a process gone.
    write_status(status_path(place), replace(running_status(time.time()), pid=pid,
                                             process=mark))
    assert main(["restore", str(place.parent / "backup.db")]) == 0


def test_restore_refuses_a_damaged_or_foreign_backup_and_changes_nothing(
        place: Path, capsys: pytest.CaptureFixture[str]):
    asyncio.run(a_database(place, [1]))
    foreign = place.parent / "photos.db"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
    db.close()
    assert main(["restore", str(foreign)]) == 6
    assert main(["restore", str(place.parent / "missing.db")]) == 5
    assert channels_in(place) == [1]
    assert not list(place.parent.glob("candybot-before-restore-*.db"))


def test_a_damaged_database_is_replaced_and_kept_as_it_was(
        place: Path, capsys: pytest.CaptureFixture[str]):
    asyncio.run(a_database(place, [1, 2]))
    assert main(["backup", str(place.parent / "backup.db")]) == 0
    place.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)  # damaged beyond use
    assert main(["check"]) != 0
    assert main(["restore", str(place.parent / "backup.db")]) == 0
    assert channels_in(place) == [1, 2]
    [kept] = place.parent.glob("candybot-before-restore-*.db")
    assert kept.read_bytes().startswith(b"SQLite format 3\x00\xff")
