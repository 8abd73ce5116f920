"""``candybot health``: one line from the status the running bot writes; and the settings
that tune a deployment (metrics port, stop time)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.app import create_bot
from bot.cli import main
from bot.config import DEFAULT_STOP_SECONDS, ConfigError, Settings
from bot.discord.gate import RESTARTING, Gate
from bot.health import (
    ANNOUNCEMENT_GRACE_SECONDS,
    GATEWAY_GRACE_SECONDS,
    STALE_SECONDS,
    Status,
    check_health,
    judge,
    process_ended,
    process_mark,
    status_path,
    write_status,
)

NOW = 1_800_000_000.0
WELL = Status(written_at=NOW - 5, pid=42, connected=True, connected_at=NOW - 5,
              latency_ms=41.6, database_ok=True, database_problem=None)


def test_a_fresh_status_of_a_connected_bot_with_a_writable_database_is_healthy():
    assert judge(WELL, NOW) == (True, "healthy: gateway connected, latency 42 ms; "
                                      "database writable")


def test_a_status_nobody_refreshed_means_the_bot_is_stuck_or_gone():
    healthy, line = judge(replace(WELL, written_at=NOW - STALE_SECONDS - 1), NOW)
    assert not healthy and "stuck or has stopped" in line


def test_a_short_gateway_gap_is_tolerated_a_long_one_is_not():
    gap = replace(WELL, connected=False, connected_at=NOW - 30)
    assert judge(gap, NOW)[0]
    assert "reconnecting" in judge(gap, NOW)[1]
    long_gap = replace(gap, connected_at=NOW - GATEWAY_GRACE_SECONDS - 1)
    assert judge(long_gap, NOW) == (False, "unhealthy: disconnected from Discord for 121 s")
    assert judge(replace(WELL, connected=False, connected_at=None), NOW) == (
        False, "unhealthy: never connected to Discord")


def test_a_database_that_cannot_be_written_is_unhealthy():
    locked = replace(WELL, database_ok=False, database_problem="database is locked")
    assert judge(locked, NOW) == (False, "unhealthy: database not writable (database is locked)")


def test_announcements_overdue_too_long_are_unhealthy():
    flowing = replace(WELL, announcements_waiting=3, announcement_due_at=NOW - 20)
    assert judge(flowing, NOW)[1].endswith("; 3 announcements waiting")
    stuck = replace(flowing, announcement_due_at=NOW - ANNOUNCEMENT_GRACE_SECONDS - 5)
    assert judge(stuck, NOW) == (
        False, f"unhealthy: 3 announcements waiting, one of them overdue for "
               f"{ANNOUNCEMENT_GRACE_SECONDS + 5:.0f} s")


def test_a_stopping_bot_is_not_healthy():
    assert judge(replace(WELL, stopping=True), NOW) == (False, "unhealthy: the bot is stopping")


def test_a_bot_that_said_it_stopped_is_stopped_however_fresh_its_status():
    stopped = replace(WELL, connected=False, stopping=True, stopped=True)
    assert judge(stopped, NOW) == (
        False, "unhealthy: the bot is stopped (pid 42 stopped cleanly 5 s ago)")


def test_a_bot_whose_process_has_ended_is_stopped():
    assert judge(WELL, NOW, ended=True) == (
        False, "unhealthy: the bot is stopped (pid 42 has ended without stopping cleanly; "
               "its last status is 5 s old)")


def test_a_process_is_known_ended_only_where_it_can_be_seen():
    here = replace(WELL, pid=os.getpid(), process=process_mark())
    assert here.process is not None and not process_ended(here)
    child = subprocess.Popen(["sleep", "60"])
    theirs = replace(WELL, pid=child.pid, process=process_mark(child.pid))
    assert not process_ended(theirs)
    child.kill()
    os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # dead, not yet reaped
    assert process_ended(theirs), "a zombie has ended"
    child.wait()
    assert process_ended(theirs)
    # Its pid taken by another process (this one, say) is not the same process.
    assert process_ended(replace(theirs, pid=os.getpid()))
    # From another container or boot, or written without a mark: it cannot be told.
    boot, space, started = str(theirs.process).split(" ")
    assert not process_ended(replace(theirs, process=f"{boot} pid:[1] {started}"))
    assert not process_ended(replace(theirs, process=f"another-boot {space} {started}"))
    assert not process_ended(replace(theirs, process=None))
    assert not process_ended(replace(theirs, process="garbled"))


def test_candybot_health_prints_one_line_and_exits_by_the_verdict(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    db = tmp_path / "candybot.db"
    monkeypatch.setenv("CANDYBOT_DB", str(db))
    monkeypatch.chdir(tmp_path)
    assert main(["health"]) == 1
    assert capsys.readouterr().out.startswith("unhealthy: no status at")

    write_status(status_path(db), replace(WELL, written_at=time.time(),
                                          connected_at=time.time()))
    assert main(["health"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith("healthy: ")

    status_path(db).write_text("{not json")
    assert main(["health"]) == 1
    assert "cannot be read" in capsys.readouterr().out

    # A fresh status from a process that is gone: stopped, whatever the status says.
    child = subprocess.Popen(["sleep", "60"])
    gone = replace(WELL, written_at=time.time(), connected_at=time.time(), pid=child.pid,
                   process=process_mark(child.pid))
    child.kill()
    child.wait()
    write_status(status_path(db), gone)
    assert main(["health"]) == 1
    assert capsys.readouterr().out.startswith(
        f"unhealthy: the bot is stopped (pid {child.pid} has ended without stopping cleanly")


def test_the_status_file_lives_beside_the_database():
    assert status_path(Path("/data/candybot.db")) == Path("/data/candybot.db-health.json")
    assert check_health(Path("/nonexistent/x.db"), NOW)[0] is False


# --------------------------------------------------------------------------- settings


def test_metrics_are_off_unless_a_port_is_set_and_a_bad_port_is_refused():
    assert Settings.from_env({}, None).metrics_port is None
    assert Settings.from_env({"CANDYBOT_METRICS_PORT": "9108"}, None).metrics_port == 9108
    for bad in ("http", "0", "70000", "-1"):
        with pytest.raises(ConfigError, match="CANDYBOT_METRICS_PORT"):
            Settings.from_env({"CANDYBOT_METRICS_PORT": bad}, None)


def test_the_stop_time_defaults_under_dockers_ten_seconds_and_can_be_set():
    assert Settings.from_env({}, None).stop_seconds == DEFAULT_STOP_SECONDS < 10
    assert Settings.from_env({"CANDYBOT_STOP_SECONDS": "3.5"}, None).stop_seconds == 3.5
    for bad in ("soon", "0", "-2", "inf"):
        with pytest.raises(ConfigError, match="CANDYBOT_STOP_SECONDS"):
            Settings.from_env({"CANDYBOT_STOP_SECONDS": bad}, None)


def test_the_openings_grace_defaults_to_a_minute_and_can_be_set():
    assert Settings.from_env({}, None).opening_grace_seconds == 60
    assert Settings.from_env({"CANDYBOT_OPENING_GRACE_SECONDS": "5"},
                             None).opening_grace_seconds == 5
    for bad in ("soon", "0", "-2", "inf"):
        with pytest.raises(ConfigError, match="CANDYBOT_OPENING_GRACE_SECONDS"):
            Settings.from_env({"CANDYBOT_OPENING_GRACE_SECONDS": bad}, None)


# --------------------------------------------------------------------------- the gate


class Tap:
    """A stand-in interaction: its kind and what it was answered."""

    def __init__(self) -> None:
        self.type = discord.InteractionType.application_command
        self.data: dict[str, Any] = {"name": "play"}
        self.guild_id = self.channel_id = 1
        self.said: list[tuple[str, bool]] = []

        async def send_message(text: str, *, ephemeral: bool = False) -> None:
            self.said.append((text, ephemeral))

        self.response = SimpleNamespace(send_message=send_message)


async def test_closing_the_gate_waits_for_handlers_cuts_the_late_and_turns_new_taps_away():
    timed: list[tuple[str, float]] = []
    gate = Gate(lambda kind, seconds: timed.append((kind, seconds)))
    cut: list[bool] = []

    async def handle(seconds: float) -> None:
        assert await gate.admit(Tap())  # type: ignore[arg-type]
        try:
            await asyncio.sleep(seconds)
        except asyncio.CancelledError:
            cut.append(True)
            raise

    tasks = [asyncio.create_task(handle(s)) for s in (0.05, 0.1, 30)]
    await asyncio.sleep(0.01)
    assert gate.in_flight == 3
    loop = asyncio.get_running_loop()
    began = loop.time()
    drained = await gate.close(0.5)
    assert (drained.finished, drained.cut) == (2, 1) and cut == [True]
    assert loop.time() - began < 2
    assert all(t.done() for t in tasks)
    assert [kind for kind, _ in timed] == ["command"] * 3

    late = Tap()
    assert not await gate.admit(late)  # type: ignore[arg-type]
    assert late.said == [(RESTARTING, True)]


# --------------------------------------------------------------------------- the bot's word


def read(db: Path) -> Status:
    return Status.from_json(status_path(db).read_text())


async def test_the_bot_says_it_is_stopping_then_stopped_and_a_late_event_changes_neither(
        tmp_path: Path):
    db = tmp_path / "candybot.db"
    bot = create_bot(Settings(db_path=db), renderer=None)
    await bot._async_setup_hook()
    await bot.setup_hook()
    await bot.on_connect()
    assert judge(read(db), time.time(), ended=process_ended(read(db)))[0]
    assert read(db).process == process_mark() and read(db).pid == os.getpid()

    stopping = asyncio.create_task(bot.stop(1.0))
    await asyncio.sleep(0)
    assert read(db).stopping and not read(db).stopped
    await stopping
    assert read(db).stopped and read(db).stopping and not read(db).connected
    # discord.py tells of the gateway's end after the bot has closed: still stopped.
    await bot.on_disconnect()
    assert read(db).stopped
    assert check_health(db) == (False, "unhealthy: the bot is stopped (pid "
                                       f"{os.getpid()} stopped cleanly 0 s ago)")


async def test_a_bot_that_never_started_leaves_the_status_of_the_one_that_runs(
        tmp_path: Path):
    db = tmp_path / "candybot.db"
    now = time.time()
    write_status(status_path(db), replace(WELL, written_at=now, connected_at=now))
    # `candybot sync` builds a bot for its commands while the real one runs.
    idle = create_bot(Settings(db_path=db), renderer=None)
    await idle.close()
    assert not read(db).stopped and check_health(db)[0]
