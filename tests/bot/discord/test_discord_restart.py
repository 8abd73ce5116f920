"""Games that outlive the bot: restarts, reminders from the database, failed posts."""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.games
from bot.discord.client import CandyBot
from bot.games.engine import Engine
from tests.support.discord_harness import (
    CHANNEL_ID,
    MANAGE_CHANNELS,
    Clock,
    Gateway,
    Recorder,
    Sent,
    start_bot,
)
from tests.support.race_game import CandyDash, CandyRace

ALICE, BOB = 310000000000000001, 310000000000000002


class Table:
    """A bot on a database file that can be restarted like a real process."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.clock = Clock()
        self.rec = Recorder()
        self.bot: CandyBot
        self.gw: Gateway

    async def boot(self) -> None:
        self.rec = Recorder()
        self.bot, self.gw = await start_bot(self.db, self.clock, bot.games.GAMES, self.rec)

    async def restart(self) -> None:
        await self.bot.close()
        await self.boot()

    async def command(self, user: int, name: str, sub: str | None = None,
                      options: dict[str, Any] | None = None, **kw: Any) -> Sent:
        await self.gw.send(self.gw.command(user, name, sub, options, **kw))
        return self.rec.last()

    async def click(self, user: int, sent: Sent, ending: str) -> Sent:
        custom_id = next(c for c in sent.custom_ids if c.endswith(ending))
        assert sent.message_id is not None
        await self.gw.send(self.gw.click(user, self.rec.messages[sent.message_id], custom_id))
        return self.rec.last()


@pytest.fixture
async def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Table]:
    for game in (Engine(CandyRace()), Engine(CandyDash())):
        monkeypatch.setitem(bot.games.GAMES, game.slug, game)
    t = Table(tmp_path / "bot.db")
    await t.boot()
    yield t
    await t.bot.close()


async def two_player_dash(table: Table, **options: Any) -> Sent:
    lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash", **options})
    await table.click(BOB, lobby, ":join")
    table.rec.clear()
    await table.click(ALICE, lobby, ":start")
    return table.rec.last()


async def test_buttons_and_reminders_survive_a_restart(table: Table) -> None:
    board = await two_player_dash(table, reminder_hours=1.0, ai_takeover=True)
    board_message = table.rec.messages[board.message_id or 0]
    await table.restart()

    # A button posted by the old process still plays the move.
    custom_id = next(c for c in board.custom_ids if c.endswith(":step"))
    await table.gw.send(table.gw.click(ALICE, board_message, custom_id))
    moved = table.rec.last()
    assert "steps to 1." in moved.content and f"<@{BOB}>" in moved.content

    # Reminders are read from the database by the new process, once each.
    pings = []
    for _ in range(3):
        table.clock.advance(1.01)
        assert await table.bot.send_due() == 1
        assert await table.bot.send_due() == 0
        pings.append(table.rec.last())
        await table.restart()
    assert all(f"<@{BOB}>" in p.content and "<t:" in p.content for p in pings)
    assert [re.findall(r"Reminder \d of 3", p.content) for p in pings] == [
        ["Reminder 1 of 3"], ["Reminder 2 of 3"], ["Reminder 3 of 3"]]
    # A player back after a day catches up at a glance.
    assert pings[0].content.startswith("Since your last turn:\n🟦● **Player1** steps to 1.")
    assert "an AI plays your move" in pings[-1].content
    assert pings[0].body["allowed_mentions"]["parse"] == []
    assert all(p.notifies() == {BOB} for p in pings)

    # After the last reminder an AI moves for the sleeper and the channel is told.
    table.clock.advance(1.01)
    assert await table.bot.send_due() == 1
    takeover = table.rec.last()
    assert "an AI stands in for them" in takeover.content and takeover.pngs
    assert takeover.via == "http" and takeover.path == f"/channels/{CHANNEL_ID}/messages"


async def test_no_reminder_without_a_human_to_wait_for(table: Table) -> None:
    await two_player_dash(table, reminder_hours=1.0)
    await table.command(ALICE, "game", "abort", permissions=MANAGE_CHANNELS)
    table.clock.advance(5)
    assert await table.bot.send_due() == 0


async def test_a_failed_post_keeps_the_move_and_board_recovers_it(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    await two_player_dash(table)
    table.rec.fail_when(lambda s: bool(s.pngs) and not s.ephemeral)
    table.rec.clear()
    with caplog.at_level(logging.ERROR):
        await table.gw.send(table.gw.command(ALICE, "play", options={"action": "step"}))
    # A saved move is not an error: the mover is told it counts, and Bob is pinged.
    assert not any("unexpected error" in r.message for r in caplog.records)
    told = table.rec.last()
    assert told.ephemeral and told.content.startswith("Your move counts: it is saved")
    assert [s for s in table.rec.public() if s.pngs and s.created] == []
    assert "`/game board` shows it" in told.content and "Traceback" not in told.content
    assert table.rec.notified_users() == [BOB]

    record = await table.bot.tables.store.games.open_game(CHANNEL_ID)
    assert record is not None
    assert [a.notation for a in await table.bot.tables.store.moves.actions(record.id)] == ["step"]

    table.rec.clear()
    recovered = await table.command(BOB, "game", "board")
    assert recovered.pngs and f"<@{BOB}>" in recovered.content and not recovered.ephemeral
    custom_id = next(c for c in recovered.custom_ids if c.endswith(":step"))
    assert custom_id == f"cb:m:{record.id}:1:m1:step"


async def test_close_releases_the_database_for_a_new_instance(table: Table) -> None:
    await two_player_dash(table)
    await table.restart()
    status = await table.command(BOB, "game", "status")
    assert "Waiting for" in status.content and f"<@{ALICE}>" in status.content
