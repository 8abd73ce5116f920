"""Every handler acknowledges in time even while another process locks the database.

Another process holds the write lock for a few seconds; meanwhile a move waits to be
saved, and commands and clicks in other channels (reads and writes) must each be
acknowledged within the bound (:data:`~bot.discord.errors.ANSWER_WITHIN`, shortened
here, plus a margin) instead of when the lock is released. Afterwards every one of
them has done its work.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord import errors
from bot.games.engine import Engine
from tests.support.discord_harness import CHANNEL_ID, GUILD_ID, MANAGE_CHANNELS, Session, settle
from tests.support.race_game import CandyDash

ALICE, BOB, CAROL = 360000000000000001, 360000000000000002, 360000000000000003
MOVES, LOOKS, EMPTY, ENDING = (710000000000000001, 710000000000000002, 710000000000000004,
                               710000000000000005)
LOBBY = CHANNEL_ID
#: How long the other process holds the lock, and how soon each answer must come.
LOCKED_FOR, BOUND = 5.0, 2.5

HOLD = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("COMMIT")
"""


@pytest.fixture
async def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Session]:
    monkeypatch.setattr(errors, "ANSWER_WITHIN", 0.3)
    session = await Session.open(tmp_path, {"candy-dash": Engine(CandyDash())})
    yield session
    await session.close()


async def started(table: Session, channel_id: int, host: int, guest: int) -> None:
    tables = table.bot.tables
    lobby = await tables.lobbies.open_lobby(
        channel_id=channel_id, guild_id=GUILD_ID, game="candy-dash",
        creator_id=host, creator_name="Host")
    await tables.lobbies.join(lobby.record.id, guest, "Guest")
    await tables.lobbies.start(lobby.record.id, host)


@pytest.mark.slow  # another process holds the database
async def test_every_handler_answers_in_time_while_another_process_locks_the_database(
        table: Session) -> None:
    await started(table, MOVES, ALICE, BOB)
    await started(table, LOOKS, ALICE, BOB)
    await table.bot.tables.moves.play(channel_id=LOOKS, user_id=ALICE, text="step")
    await started(table, ENDING, CAROL, BOB)
    lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash"})

    answered: dict[str, float] = {}
    handle = table.rec._handle

    def timed(via: str, method: str, url: str, *args: Any) -> Any:
        if url.endswith("/callback"):
            answered.setdefault(url.split("/interactions/")[1].split("/")[0], time.monotonic())
        return handle(via, method, url, *args)

    table.rec._handle = timed  # type: ignore[method-assign]
    gw = table.gw
    join = next(c for c in lobby.custom_ids if c.endswith(":join"))
    payloads = {
        "/game board": gw.command(BOB, "game", "board", channel_id=LOOKS),
        "/game status": gw.command(BOB, "game", "status", channel_id=LOOKS),
        "/game hand": gw.command(BOB, "game", "hand", channel_id=LOOKS),
        "/game undo": gw.command(ALICE, "game", "undo", channel_id=LOOKS),
        "Join": gw.click(BOB, table.rec.message(lobby.message_id or 0), join),
        "/game new": gw.command(CAROL, "game", "new", {"game": "candy-dash"}, channel_id=EMPTY),
        "/game abort": gw.command(CAROL, "game", "abort", channel_id=ENDING,
                                  permissions=MANAGE_CHANNELS),
    }
    holder = subprocess.Popen([sys.executable, "-c", HOLD, table.bot.tables.store.path,
                               str(LOCKED_FOR)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        locked_at = time.monotonic()
        # A move that has to wait for the lock, holding up this bot's writes.
        table.bot._connection.parse_interaction_create(
            gw.command(ALICE, "play", options={"action": "step"}, channel_id=MOVES))
        await asyncio.sleep(0.2)
        sent_at = time.monotonic()
        for payload in payloads.values():
            table.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        while time.monotonic() < sent_at + BOUND and not all(
                p["id"] in answered for p in payloads.values()):
            await asyncio.sleep(0.02)
        late = {name: answered.get(p["id"], float("inf")) - sent_at
                for name, p in payloads.items()}
        assert time.monotonic() < locked_at + LOCKED_FOR, "the lock ended before the check"
        assert {name: t for name, t in late.items() if t > BOUND} == {}
    finally:
        holder.wait(timeout=30)
    await settle()

    # Everything was done once the lock was gone.
    store = table.bot.tables.store
    moved = await store.games.open_game(MOVES)
    assert moved is not None
    assert [a.notation for a in await store.moves.actions(moved.id)] == ["step"]
    undone = await store.games.open_game(LOOKS)
    assert undone is not None and await store.moves.actions(undone.id) == []
    joined = await store.games.open_game(LOBBY)
    assert joined is not None and [s.user_id for s in joined.seats] == [ALICE, BOB]
    opened = await store.games.open_game(EMPTY)
    assert opened is not None and opened.status == "lobby"
    assert await store.games.open_game(ENDING) is None
    assert not [s for s in table.rec.private() if "went wrong" in s.content]
