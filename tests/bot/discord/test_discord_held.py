"""A game whose place refuses the bot is held, said where its players can still read it,
and goes on once the place takes the bot's posts again: a thread a moderator locked
(Discord answers 160005), a thread that cannot reopen at the server's cap on active
threads (160006), permissions taken away. A server's games channel that was deleted
lapses, with a word to its managers."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.games
from bot.discord import threads
from bot.games.engine import Engine
from tests.support.discord_harness import CHANNEL_ID, GUILD_ID, Session, start_bot
from tests.support.race_game import CandyDash
from tools.offline import (
    INVITED,
    PUBLIC_THREAD,
    SEND_MESSAGES_IN_THREADS,
    THREAD_LOCKED,
    Channel,
)

ALICE, BOB = 370000000000000011, 370000000000000012
MANAGE_GUILD = 1 << 5


@pytest.fixture
async def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Session]:
    monkeypatch.setitem(bot.games.GAMES, "candy-dash", Engine(CandyDash()))
    opened = await Session.open(tmp_path, bot.games.GAMES)
    opened.rec.room(CHANNEL_ID).permissions = INVITED
    yield opened
    await opened.close()


async def restart(table: Session) -> None:
    db = table.bot.settings.db_path
    await table.bot.close()
    table.bot, table.gw = await start_bot(db, table.clock, bot.games.GAMES, table.rec)
    await table.gw.send()


async def started_game(table: Session) -> int:
    """A game of Alice and Bob to 5, started in a thread of its own: its thread."""
    before = {t.id for t in table.rec.threads()}
    await table.gw.send(table.gw.command(ALICE, "game", "new", {"game": "candy-dash",
                                                                "target": 5}))
    (thread,) = [t.id for t in table.rec.threads() if t.id not in before]
    await table.click(BOB, thread, ":join")
    await table.click(ALICE, thread, ":start")
    return thread


async def state_of(table: Session, thread: int) -> dict[str, Any]:
    record = await table.bot.tables.store.games.open_game(thread)
    assert record is not None and record.state_json is not None
    return dict(json.loads(record.state_json))


async def mover(table: Session, thread: int) -> int:
    return (ALICE, BOB)[(await state_of(table, thread))["turn"]]


def board_in(table: Session, thread: int) -> int:
    return int([m for m in table.rec.messages.values()
                if int(m["channel_id"]) == thread and m["attachments"]][-1]["id"])


def card(table: Session, thread: int) -> str:
    return str(table.rec.message(thread)["content"])


def posts_in(table: Session, thread: int) -> list[Any]:
    """Every message the bot created in ``thread`` since the recorder was cleared."""
    return [s for s in table.rec.sent if s.channel_id == thread and s.created]


async def test_a_thread_a_moderator_locks_holds_its_game_until_it_is_unlocked(
        table: Session) -> None:
    thread = await started_game(table)
    table.rec.clear()
    table.gw.lock(thread, archived=False)  # locked, still active: clicks still arrive
    await table.gw.send()
    assert "A moderator locked this game's thread" in card(table, thread)
    before = await state_of(table, thread)
    player = await mover(table, thread)
    said = await table.click(player, board_in(table, thread), ":step")
    assert said.ephemeral and "A moderator locked" in said.content
    assert await state_of(table, thread) == before, "no move was saved, none was lost"
    # No reminder is posted where Discord refuses it.
    table.clock.advance(25)
    await table.bot.send_due()
    assert not [s for s in table.rec.sent if s.failed], "nothing was sent to be refused"
    # The moderator unlocks it: the board comes back, pinging the player it waits for.
    table.rec.clear()
    table.gw.unlock(thread)
    await table.gw.send()
    (shown,) = posts_in(table, thread)
    assert shown.pngs and shown.notifies() == {player}
    assert "unlocked" in shown.content
    assert "A moderator locked" not in card(table, thread)
    await table.click(player, board_in(table, thread), ":step")
    assert (await state_of(table, thread))["move"] == before["move"] + 1


async def test_a_closed_and_locked_thread_is_not_reopened_into_refusing_every_post(
        table: Session) -> None:
    thread = await started_game(table)
    table.rec.clear()
    table.gw.lock(thread)  # "Close and lock": archived and locked
    await table.gw.send()
    room = table.rec.room(thread)
    assert room.archived and room.locked
    assert not [s for s in table.rec.sent if s.failed], "the bot tried nothing Discord refuses"
    assert "A moderator locked" in card(table, thread)
    # Its player plays from a direct message: the move waits too.
    said = await table.bot.tables.store.games.open_game(thread)
    assert said is not None and said.held == "locked"


async def test_a_thread_locked_while_the_bot_was_away_is_held_then_goes_on_once_unlocked(
        table: Session) -> None:
    thread = await started_game(table)
    room = table.rec.room(thread)
    room.archived = room.locked = True
    await restart(table)
    assert "A moderator locked" in card(table, thread)
    assert room.archived, "a locked thread is not reopened"
    room.locked = False  # unlocked, still archived, while the bot was away again
    table.rec.clear()
    await restart(table)
    assert not room.archived
    (shown,) = posts_in(table, thread)
    assert shown.notifies() == {await mover(table, thread)}


async def test_at_the_thread_cap_an_archived_games_thread_is_tried_again_until_it_reopens(
        table: Session) -> None:
    thread = await started_game(table)
    other = CHANNEL_ID + 50  # someone's own thread, active
    table.rec.rooms[other] = Channel(other, PUBLIC_THREAD, GUILD_ID, CHANNEL_ID)
    table.rec.max_active_threads = 1
    table.gw.archive(thread)
    await table.gw.send()
    assert table.rec.room(thread).archived
    assert "as many active threads as Discord allows" in card(table, thread)
    table.clock.advance(threads.HOLD_SECONDS / 3600)
    await table.bot.send_due()
    assert table.rec.room(thread).archived, "still full: it waits"
    table.rec.rooms[other].archived = True  # that thread went quiet: room for one
    table.rec.clear()
    table.clock.advance(threads.HOLD_SECONDS / 3600)
    await table.bot.send_due()
    assert not table.rec.room(thread).archived, "tried again without a restart"
    (shown,) = posts_in(table, thread)
    assert shown.pngs and shown.notifies() == {await mover(table, thread)}
    await table.click(await mover(table, thread), board_in(table, thread), ":step")


async def test_lost_permissions_are_said_on_the_card_and_the_board_follows_when_back(
        table: Session) -> None:
    thread = await started_game(table)
    table.rec.room(CHANNEL_ID).permissions = INVITED & ~SEND_MESSAGES_IN_THREADS
    player = await mover(table, thread)
    await table.click(player, board_in(table, thread), ":step")
    assert (await state_of(table, thread))["move"] == 1, "the move is saved"
    assert "I may no longer post in this game's channel" in card(table, thread)
    assert "Send Messages in Threads" in card(table, thread)
    # No reminder is tried meanwhile.
    table.rec.clear()
    table.clock.advance(25)
    await table.bot.send_due()
    assert not [s for s in table.rec.sent if s.failed and s.body.get("content", "")
                .startswith("Reminder")]
    # The permission is back: the board as it stands is shown, without a restart.
    table.rec.room(CHANNEL_ID).permissions = INVITED
    table.rec.clear()
    table.clock.advance(threads.HOLD_SECONDS / 3600)
    await table.bot.send_due()
    boards = [s for s in posts_in(table, thread) if s.pngs]
    assert boards, "the board came once the bot may post again"
    assert "I may no longer post" not in card(table, thread)
    record = await table.bot.tables.store.games.open_game(thread)
    assert record is not None and record.held is None


async def test_discords_own_locked_refusal_holds_the_game_too(table: Session) -> None:
    """The bot heard nothing of the lock (its event lost): the refused board tells."""
    thread = await started_game(table)
    table.rec.room(thread).locked = True
    player = await mover(table, thread)
    table.rec.clear()
    await table.click(player, board_in(table, thread), ":step")
    assert [s.failed for s in table.rec.sent if s.failed] and any(
        s.channel_id == thread for s in table.rec.sent if s.failed)
    record = await table.bot.tables.store.games.open_game(thread)
    assert record is not None and record.held == "locked"
    assert THREAD_LOCKED == threads.THREAD_LOCKED
    said = await table.click(await mover(table, thread), board_in(table, thread), ":step")
    assert "A moderator locked" in said.content


# --------------------------------------------------------------------------- the games channel


async def test_a_deleted_games_channel_lapses_and_the_managers_are_told(
        table: Session) -> None:
    games_channel = CHANNEL_ID + 7
    table.rec.room(games_channel)
    table.gw.guild_create()
    await table.bot.tables.lobbies.set_server_defaults(GUILD_ID, channels=[games_channel])
    refused = await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    assert f"<#{games_channel}>" in refused.content
    table.gw.delete_channel(games_channel)
    await table.gw.send()
    opened = await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    assert "Your lobby for **Candy Dash** is open" in opened.content
    said = await table.command(BOB, "settings", None, {}, permissions=MANAGE_GUILD)
    assert "was deleted" in said.content and str(games_channel) in said.content
    assert "Games may open in: any channel" in said.content


async def test_a_games_channel_deleted_while_the_bot_was_away_lapses_when_it_connects(
        table: Session) -> None:
    games_channel = CHANNEL_ID + 8
    table.rec.room(games_channel)
    table.gw.guild_create()
    await table.bot.tables.lobbies.set_server_defaults(GUILD_ID, channels=[games_channel])
    table.gw.delete_channel(games_channel, heard=False)
    await restart(table)
    assert (await table.bot.tables.lobbies.server_defaults(GUILD_ID))["channels"] == []
    opened = await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    assert "is open" in opened.content
