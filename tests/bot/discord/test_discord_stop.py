"""A clean stop: a real process, a real SIGTERM in the middle of moves, then a restart.

The bot runs as its own process (tests/support/offline_bot.py: the production
``serve`` with the offline Discord stand-in), one game of Candy Stroll (a player
against the AI) in each of four channels; pictures of the moves caught by the signal
take 4 s to draw, so that they are surely in flight when it comes.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import DEFAULT_STOP_SECONDS
from bot.discord.gate import RESTARTING
from bot.health import Status, status_path
from tests.support.discord_harness import Gateway
from tests.support.paths import ROOT

pytestmark = pytest.mark.slow  # a bot process stopped and restarted

ALICE = 320000000000000001
CHANNELS = [710000000000000001 + n for n in range(4)]
Report = dict[str, Any]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def metrics_once(port: int, line: str, seconds: float = 10.0) -> str:
    """The bot's metrics page once it shows ``line`` (the last read after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while True:
        text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read()
        if line in text.decode() or time.monotonic() > deadline:
            return str(text.decode())
        await asyncio.sleep(0.05)


class BotProcess:
    """``offline_bot.py`` in a child process: payloads in, Discord requests out."""

    def __init__(self, db: Path, **env: str) -> None:
        self.db = db
        self.env = {**{k: v for k, v in os.environ.items()
                       if not k.startswith(("CANDYBOT_", "DISCORD_"))},
                    "CANDYBOT_DB": str(db), "DISCORD_TOKEN": "offline-token",
                    # This checkout's bot and its test harness.
                    "PYTHONPATH": str(ROOT), **env}
        self.reports: list[Report] = []
        self.gw = Gateway(None)  # type: ignore[arg-type]  # builds payloads only
        self.channel_of: dict[str, int] = {}  # interaction token -> channel
        self.sent_at: dict[str, int] = {}  # interaction token -> reports before it
        self.proc: asyncio.subprocess.Process
        self._ready = asyncio.Event()

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.support.offline_bot", cwd=ROOT, env=self.env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
        self._reading = asyncio.create_task(self._read())
        ready = asyncio.create_task(self._ready.wait())
        await asyncio.wait({ready, self._reading}, timeout=60,
                           return_when=asyncio.FIRST_COMPLETED)
        if not self._ready.is_set():
            ready.cancel()
            self.proc.kill()
            assert self.proc.stderr is not None
            raise AssertionError("the bot did not start:\n" +
                                 (await self.proc.stderr.read()).decode())

    async def _read(self) -> None:
        assert self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            report = json.loads(line)
            if report.get("ready"):
                self._ready.set()
            else:
                self.reports.append(report)

    async def _write(self, line: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(line).encode() + b"\n")
        await self.proc.stdin.drain()

    async def send(self, payload: dict[str, Any]) -> str:
        """Deliver an interaction; returns its token."""
        self.channel_of[payload["token"]] = int(payload["channel_id"])
        self.sent_at[payload["token"]] = len(self.reports)
        await self._write(payload)
        return str(payload["token"])

    async def slow_pictures(self, seconds: float) -> None:
        """From now on each picture takes ``seconds`` to draw."""
        await self._write({"picture_seconds": seconds})

    def answers(self, token: str) -> list[Report]:
        """What answered the interaction ``token``: its own replies, and what was posted
        in its channel after it (the board a move posts there)."""
        channel = f"/channels/{self.channel_of[token]}/"
        return [r for r in self.reports[self.sent_at[token]:]
                if f"/{token}/" in r["sent"]["path"] + "/" or r["sent"]["path"].startswith(
                    channel)]

    async def until(self, test: Callable[[], Any], timeout: float = 60) -> Any:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = test()
            if found:
                return found
            await asyncio.sleep(0.05)
        raise AssertionError(f"the bot never got there; its output:\n{self.reports[-5:]}")

    async def answered(self, token: str, test: Callable[[Report], bool]) -> Report:
        return await self.until(lambda: next((r for r in self.answers(token) if test(r)), None))

    async def command(self, channel: int, name: str, sub: str | None = None,
                      options: dict[str, Any] | None = None) -> str:
        return await self.send(self.gw.command(ALICE, name, sub, options, channel_id=channel))

    async def click(self, channel: int, message: dict[str, Any], ending: str) -> str:
        custom_id = next(c["custom_id"] for row in message["components"]
                         for c in row["components"] if c.get("custom_id", "").endswith(ending))
        message = {**message, "channel_id": str(channel)}
        return await self.send(self.gw.click(ALICE, message, custom_id))

    async def stop(self, sig: signal.Signals) -> tuple[int, float, str]:
        """Signal the process; its exit code, seconds to exit, and standard error."""
        began = time.monotonic()
        self.proc.send_signal(sig)
        assert self.proc.stderr is not None
        err = await asyncio.wait_for(self.proc.stderr.read(), DEFAULT_STOP_SECONDS + 20)
        code = await self.proc.wait()
        await self._reading
        return code, time.monotonic() - began, err.decode()

    def public_moves(self) -> list[tuple[int, str]]:
        """(channel, line) of every public line telling a step, as posted."""
        out = []
        for report in self.reports:
            sent = report["sent"]
            channel = _channel(sent["path"], self.channel_of)
            if sent["ephemeral"] or channel is None:
                continue
            for line in sent["content"].splitlines():
                if "steps to" in line:
                    out.append((channel, line))
        return out


def _channel(path: str, channel_of: dict[str, int]) -> int | None:
    """The channel a request posted in: its path's, or its interaction's."""
    found = re.search(r"^/channels/(\d+)/", path)
    if found:
        return int(found.group(1))
    found = re.search(r"/(token-\d+)(/|$)", path)
    return channel_of[found.group(1)] if found else None


async def open_games(bot: BotProcess) -> None:
    """A Candy Stroll game against one AI seat in each channel."""
    for channel in CHANNELS:
        token = await bot.command(channel, "game", "new", {"game": "candy-stroll"})
        lobby = await bot.answered(token, lambda r: any(
            c.endswith(":ai") for c in r["sent"]["custom_ids"]))
        token = await bot.click(channel, lobby["message"], ":ai")
        await bot.answered(token, lambda r: "AI" in r["sent"]["content"])
        token = await bot.click(channel, lobby["message"], ":start")
        await bot.answered(token, lambda r: r["sent"]["pngs"] > 0)


def operator(folder: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``candybot ARGS`` as the operator runs it beside the bot, with the bot's settings."""
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=60)


def stopping(db: Path) -> bool:
    """Whether the bot's health status says it is stopping."""
    try:
        return Status.from_json(status_path(db).read_text()).stopping
    except (OSError, ValueError):
        return False


def finished_move(report: Report) -> bool:
    return report["sent"]["pngs"] > 0 and "steps to" in report["sent"]["content"]


def database(db: Path) -> dict[int, list[tuple[int | None, str]]]:
    """Each channel's stored moves (who, notation), after checking the file is whole."""
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        games = dict(conn.execute("SELECT id, channel_id FROM games").fetchall())
        moves: dict[int, list[tuple[int | None, str]]] = {channel: [] for channel in CHANNELS}
        for game_id, n, user, notation in conn.execute(
                "SELECT game_id, n, user_id, notation FROM actions ORDER BY game_id, n"):
            moves[games[game_id]].append((user, notation))
            assert n == len(moves[games[game_id]]), "the log has a gap"
        for state_json, count in conn.execute(
                "SELECT g.state_json, (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id) "
                "FROM games g"):
            state = json.loads(state_json)
            # A step moves one space: the stored state is the log's, not half of it.
            assert sum(state["totals"]) == count
    conn.close()
    return moves


@pytest.fixture
def processes() -> Iterator[list[BotProcess]]:
    """Bot processes a test started; any still running at its end (a failure) is killed."""
    started: list[BotProcess] = []
    yield started
    for bot in started:
        proc = getattr(bot, "proc", None)
        if proc is not None and proc.returncode is None:
            proc.kill()


async def test_sigterm_mid_play_finishes_the_moves_in_flight_and_exits_0(
        tmp_path: Path, processes: list[BotProcess]):
    db = tmp_path / "candybot.db"
    bot = BotProcess(db)
    processes.append(bot)
    await bot.start()
    await open_games(bot)

    # One move everywhere, answered in full.
    tokens = [await bot.command(c, "play", options={"action": "step"}) for c in CHANNELS]
    for token in tokens:
        await bot.answered(token, finished_move)

    # Another everywhere, with pictures that take 4 s to draw; once each is acknowledged
    # (and still drawing), SIGTERM.
    await bot.slow_pictures(4)
    in_flight = [await bot.command(c, "play", options={"action": "step"}) for c in CHANNELS]
    for token in in_flight:
        await bot.answered(token, lambda r: r["sent"]["kind"] == 5)
    assert not any(finished_move(r) for t in in_flight for r in bot.answers(t))
    bot.proc.send_signal(signal.SIGTERM)
    began = time.monotonic()
    # A tap arriving while the bot stops is turned away privately. (One arriving in the
    # same instant as the signal may still be taken, and is then finished like the rest:
    # wait until the bot says it is stopping.)
    await bot.until(lambda: stopping(db))
    late = await bot.command(CHANNELS[0], "play", options={"action": "step"})
    turned_away = await bot.answered(late, lambda r: r["sent"]["content"] == RESTARTING)
    assert turned_away["sent"]["ephemeral"]
    assert bot.proc.stderr is not None
    err = (await asyncio.wait_for(bot.proc.stderr.read(), DEFAULT_STOP_SECONDS + 20)).decode()
    code = await bot.proc.wait()
    took = time.monotonic() - began
    await bot._reading

    assert code == 0, err
    assert took < DEFAULT_STOP_SECONDS + 2, f"took {took:.1f} s"
    [stopped] = [line for line in err.splitlines() if "stopped on SIGTERM" in line]
    assert "4 interactions in flight finished" in stopped and "cut off" not in stopped
    assert "0 announcements left queued" in stopped
    # Every acknowledged move was finished and stored; the turned-away one was not.
    for token in in_flight:
        assert any(finished_move(r) for r in bot.answers(token))
    stored = database(db)
    for channel in CHANNELS:
        assert [who for who, _ in stored[channel]] == [ALICE, None, ALICE, None]
    # The log was checkpointed into the database file at close.
    wal = db.with_name(db.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    # It said it stopped (a reader in another container, who cannot see its process, goes
    # by that): `candybot health` fails at once, and a restore goes ahead at once.
    said = Status.from_json(status_path(db).read_text())
    assert said.stopped and not said.connected
    health = operator(tmp_path, bot.env, "health")
    assert health.returncode == 1
    assert health.stdout.startswith(f"unhealthy: the bot is stopped (pid {bot.proc.pid} "
                                    f"stopped cleanly ")
    assert operator(tmp_path, bot.env, "backup", str(tmp_path / "copy.db")).returncode == 0
    restored = operator(tmp_path, bot.env, "restore", str(tmp_path / "copy.db"))
    assert restored.returncode == 0, restored.stderr

    # A restart: nothing is announced again, the games go on, SIGINT also stops cleanly.
    port = free_port()
    again = BotProcess(db, CANDYBOT_METRICS_PORT=str(port))
    processes.append(again)
    again.channel_of = bot.channel_of
    await again.start()
    health = operator(tmp_path, again.env, "health")
    assert health.returncode == 0, health.stdout + health.stderr
    assert health.stdout.startswith("healthy: gateway connected; database writable")
    more = [await again.command(c, "play", options={"action": "step"}) for c in CHANNELS]
    for token in more:
        await again.answered(token, finished_move)
    # A handler's time is observed once it returns, just after its last answer was seen.
    text = await metrics_once(port, 'candybot_answer_seconds_count{kind="command"}')
    assert 'candybot_moves_total{by="player",game="candy-stroll"} 4.0' in text
    assert 'candybot_moves_total{by="ai",game="candy-stroll"} 4.0' in text
    assert 'candybot_answer_seconds_count{kind="command"}' in text
    assert "candybot_announcements_waiting 0.0" in text

    code, took, err = await again.stop(signal.SIGINT)
    assert code == 0, err
    assert "stopped on SIGINT" in err
    told = bot.public_moves() + again.public_moves()
    assert len(told) == len(set(told)), "a move was announced twice"
    assert {who for who, _ in database(db)[CHANNELS[0]]} == {ALICE, None}
    assert len(database(db)[CHANNELS[0]]) == 6
