"""A game in a thread of its own: many games in one channel, each played in its thread,
its card in the channel kept up to date, archiving that never stops a game, rematches,
and a channel without thread permissions that still plays one game."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.games
from bot.games.engine import Engine
from tests.support.discord_harness import CHANNEL_ID, Session
from tests.support.paths import ROOT
from tests.support.race_game import CandyDash
from tools.offline import INVITED, WITHOUT_THREADS

ALICE, BOB, CAROL, DAN = (350000000000000001, 350000000000000002, 350000000000000003,
                          350000000000000004)


@pytest.fixture
async def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Session]:
    monkeypatch.setitem(bot.games.GAMES, "candy-dash", Engine(CandyDash()))
    opened = await Session.open(tmp_path, bot.games.GAMES)
    opened.rec.room(CHANNEL_ID).permissions = INVITED
    yield opened
    await opened.close()


async def new_game(table: Session, host: int, **options: Any) -> int:
    """``/game new`` in the channel; the new game's thread (its card has the same id)."""
    before = {t.id for t in table.rec.threads()}
    await table.gw.send(table.gw.command(host, "game", "new",
                                         {"game": "candy-dash", **options},
                                         channel_id=CHANNEL_ID))
    (thread,) = [t for t in table.rec.threads() if t.id not in before]
    return thread.id


async def started_game(table: Session, host: int = ALICE, guest: int = BOB) -> int:
    """A two-player game to 3 opened, joined and started in a thread of its own."""
    thread = await new_game(table, host, target=3)
    await table.click(guest, thread, ":join")
    await table.click(host, thread, ":start")
    return thread


async def state_of(table: Session, thread: int) -> dict[str, Any]:
    record = await table.bot.tables.store.games.open_game(thread)
    assert record is not None and record.state_json is not None
    return dict(json.loads(record.state_json))


def board_in(table: Session, thread: int) -> dict[str, Any]:
    """The last message with buttons the bot posted in the thread (its board)."""
    boards = [m for m in table.rec.messages.values()
              if int(m["channel_id"]) == thread and m["attachments"]]
    return boards[-1]


async def play_out(table: Session, thread: int, players: tuple[int, ...]) -> None:
    """Tap ``step`` for whoever must move until the game ends. Each hand-over must be one
    new message in the thread that pings the next player."""
    for _ in range(60):
        record = await table.bot.tables.store.games.open_game(thread)
        if record is None:
            return
        mover = players[(await state_of(table, thread))["turn"]]
        board = board_in(table, thread)
        table.rec.clear()
        await table.click(mover, int(board["id"]), ":step")
        created = [s for s in table.rec.public() if s.created]
        assert all(s.channel_id == thread for s in created), "the game talks in its thread"
        still = await table.bot.tables.store.games.open_game(thread)
        if still is not None:
            nxt = players[(await state_of(table, thread))["turn"]]
            (handed,) = created
            assert handed.notifies() == {nxt} and handed.pngs
    raise AssertionError("the game did not end")


async def test_one_channel_holds_three_games_each_in_its_own_thread(table: Session) -> None:
    tables = [(ALICE, BOB), (CAROL, DAN), (BOB, CAROL)]
    threads = []
    for host, guest in tables:
        thread = await new_game(table, host, target=3)
        card = table.rec.message(thread)
        assert int(card["channel_id"]) == CHANNEL_ID, "the card is in the channel"
        answer = table.answer()
        assert answer.ephemeral and f"<#{thread}>" in answer.content
        await table.click(guest, thread, ":join")
        assert guest in table.rec.room(thread).members, "joining adds the player"
        await table.click(host, thread, ":start")
        threads.append(thread)
    assert table.rec.room(threads[0]).auto_archive_duration == 10080
    # The card says whose turn it is, with a link to the thread.
    record = await table.bot.tables.store.games.open_game(threads[0])
    assert record is not None and record.parent_id == CHANNEL_ID
    card = table.rec.message(threads[0])["content"]
    assert f"/{threads[0]}" in card and "Move 0: waiting for" in card
    for (host, guest), thread in zip(tables, threads, strict=True):
        await play_out(table, thread, (host, guest))
    for thread in threads:
        card = table.rec.message(thread)
        assert "Game over: 1." in card["content"]
        assert [c["custom_id"] for row in card["components"] for c in row["components"]] == \
            [f"cb:rm:{(await game_in(table, thread)).id}"]
        assert table.rec.room(thread).archived and not table.rec.room(thread).locked
    # The channel's history lists the three games; the log works from a thread too.
    await table.gw.send(table.gw.command(ALICE, "game", "history", channel_id=CHANNEL_ID))
    assert table.rec.last().content.count("Candy Dash") == 3
    first = (await game_in(table, threads[0])).id
    table.rec.room(threads[0]).archived = False  # someone wrote in it: Discord reopens it
    for asker, where in ((BOB, CHANNEL_ID), (ALICE, threads[0])):
        table.rec.clear()
        await table.gw.send(table.gw.command(asker, "game", "log", {"game": first},
                                             channel_id=where))
        assert "step" in table.rec.last().content and not table.rec.last().ephemeral


async def game_in(table: Session, thread: int) -> Any:
    (record,) = [r for r in await table.bot.tables.store.games.games_in_channel(thread)]
    return record


async def test_discord_archiving_an_active_games_thread_does_not_stop_it(
        table: Session) -> None:
    thread = await started_game(table)
    table.gw.archive(thread)
    await table.gw.send()
    assert not table.rec.room(thread).archived, "the bot unarchived its game's thread"
    await play_out(table, thread, (ALICE, BOB))


async def test_a_thread_archived_while_the_bot_was_away_is_reopened_when_it_connects(
        table: Session) -> None:
    thread = await started_game(table)
    finished = await started_game(table, CAROL, DAN)
    await play_out(table, finished, (CAROL, DAN))
    table.rec.room(thread).archived = True  # Discord archived it; the bot heard nothing
    table.gw.guild_create()  # the bot connects again: the server, with its active threads
    await table.gw.send()
    assert not table.rec.room(thread).archived, "the game's thread is open again"
    assert table.rec.room(finished).archived, "a finished game's thread stays archived"
    await play_out(table, thread, (ALICE, BOB))


async def test_a_click_in_an_archived_thread_is_never_delivered(table: Session) -> None:
    thread = await started_game(table)
    table.rec.room(thread).archived = True  # archived without the bot hearing of it
    board = board_in(table, thread)
    await table.gw.send(table.gw.click(ALICE, board, "cb:m:1:0:m0:step"))
    assert table.rec.undelivered, "Discord delivers nothing from an archived thread"


async def test_a_rematch_starts_from_the_game_over_card_once_and_for_players_only(
        table: Session) -> None:
    thread = await started_game(table)
    await play_out(table, thread, (ALICE, BOB))
    await table.click(CAROL, thread, ":rm:1")
    assert "Only the players who finished" in table.answer().content
    before = {t.id for t in table.rec.threads()}
    await table.click(BOB, thread, ":rm:1")
    (again,) = [t.id for t in table.rec.threads() if t.id not in before]
    lobby = await table.bot.tables.store.games.open_game(again)
    assert lobby is not None and lobby.status == "lobby" and lobby.creator_id == BOB
    assert [s.user_id for s in lobby.seats] == [ALICE, BOB]
    assert lobby.options == {"target": 3}
    assert {ALICE, BOB} <= table.rec.room(again).members
    await table.click(ALICE, thread, ":rm:1")
    assert "already open" in table.answer().content
    assert len(table.rec.threads()) == 2


async def test_a_rematch_starts_from_the_game_over_board_with_the_ai_seats_kept(
        table: Session) -> None:
    table.rec.room(CHANNEL_ID).permissions = WITHOUT_THREADS  # one game in the channel
    await table.start("candy-dash", humans=(ALICE, BOB), ai=1, target=3)
    for _ in range(60):
        record = await table.bot.tables.store.games.open_game(CHANNEL_ID)
        if record is None:
            break
        turn = (await state_of(table, CHANNEL_ID))["turn"]
        mover = next(s.user_id for s in record.seats if s.seat == turn)
        assert mover is not None, "the AI seat moves by itself"
        await table.click(mover, int(board_in(table, CHANNEL_ID)["id"]), ":step")
    over = board_in(table, CHANNEL_ID)  # the game-over board
    await table.click(ALICE, int(over["id"]), ":rm:1")
    lobby = await table.bot.tables.store.games.open_game(CHANNEL_ID)
    assert lobby is not None and lobby.status == "lobby" and lobby.creator_id == ALICE
    assert [(s.user_id, s.ai) for s in lobby.seats] == [(ALICE, False), (BOB, False),
                                                         (None, True)]
    await table.command(BOB, "game", "leave")  # carried over, and free to go
    lobby = await table.bot.tables.store.games.open_game(CHANNEL_ID)
    assert lobby is not None and [s.user_id for s in lobby.seats] == [ALICE, None]


async def test_without_thread_permissions_a_channel_plays_one_game_and_says_why(
        table: Session) -> None:
    table.rec.room(CHANNEL_ID).permissions = WITHOUT_THREADS
    lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    assert not lobby.ephemeral and lobby.custom_ids and not table.rec.threads()
    refused = await table.command(BOB, "game", "new", {"game": "candy-dash"})
    assert refused.ephemeral and "one game per channel" in refused.content
    assert "Create Public Threads" in refused.content


async def test_the_servers_thread_cap_gets_a_clear_answer_and_leaves_nothing(
        table: Session) -> None:
    table.rec.max_active_threads = 0
    await table.gw.send(table.gw.command(ALICE, "game", "new", {"game": "candy-dash"},
                                         channel_id=CHANNEL_ID))
    told = table.answer()
    assert "as many active threads as Discord allows" in told.content
    cards = [m for m in table.rec.messages.values()
             if int(m["channel_id"]) == CHANNEL_ID and not m.get("deleted")
             and not (m["flags"] & 64)]
    assert cards == [], "the card was taken back"
    assert await table.bot.tables.store.games.open_games_in(CHANNEL_ID) == []


async def test_a_deleted_thread_ends_its_game_and_the_card_says_so(table: Session) -> None:
    thread = await started_game(table)
    table.gw.delete_channel(thread)
    await table.gw.send()
    assert await table.bot.tables.store.games.open_game(thread) is None
    assert "its thread was deleted" in table.rec.message(thread)["content"]


async def test_a_game_in_a_thread_is_reached_there_by_links_reminders_and_replays(
        table: Session) -> None:
    thread = await new_game(table, ALICE, target=3, reminder_hours=1)
    await table.click(BOB, thread, ":join")
    await table.click(ALICE, thread, ":start")
    await table.click(ALICE, int(board_in(table, thread)["id"]), ":step")
    # /games, asked anywhere, links the thread.
    await table.gw.send(table.gw.command(BOB, "games", channel_id=CHANNEL_ID))
    assert f"/{thread}" in table.rec.last().content
    # A reminder pings in the thread, not in the channel.
    table.rec.clear()
    table.clock.advance(1.01)
    await table.bot.send_due()
    pings = [s for s in table.rec.public() if s.created and s.notifies()]
    assert pings and all(s.channel_id == thread for s in pings)
    assert {BOB} <= set().union(*(s.notifies() for s in pings))
    # The replay, asked in the thread or in the channel (naming the game).
    game_id = (await game_in(table, thread)).id
    for asker, where, options in ((ALICE, thread, None), (BOB, CHANNEL_ID, {"game": game_id})):
        table.rec.clear()
        await table.gw.send(table.gw.command(asker, "game", "replay", options,
                                             channel_id=where))
        assert any(s.gifs for s in table.rec.public()), f"a replay asked in {where}"


async def test_a_deleted_channel_ends_the_games_in_its_threads_without_a_result(
        table: Session) -> None:
    thread = await started_game(table)
    table.gw.delete_channel(CHANNEL_ID)
    await table.gw.send()
    assert await table.bot.tables.store.games.open_game(thread) is None
    (record,) = await table.bot.tables.store.games.games_in_channel(thread)
    assert record.status != "active" and record.result_json is None


MANAGE_GUILD = 1 << 5


async def test_the_servers_defaults_shape_the_next_lobby(table: Session) -> None:
    told = await table.command(BOB, "settings", None, {"threads": False})
    assert told.ephemeral and "Manage Server" in told.content
    said = await table.command(ALICE, "settings", None,
                               {"threads": False, "reminder_hours": 6.0},
                               permissions=MANAGE_GUILD)
    assert said.ephemeral and "one game per channel" in said.content and "6 h" in said.content
    lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    assert not table.rec.threads(), "thread mode is off on this server"
    assert "Reminders every 6 h" in lobby.content
    refused = await table.command(BOB, "game", "new", {"game": "candy-dash"})
    assert "turned game threads off" in refused.content


async def test_the_servers_take_over_default_is_the_next_lobbys_own_unless_it_says(
        table: Session) -> None:
    await table.command(ALICE, "settings", None, {"ai_takeover": False},
                        permissions=MANAGE_GUILD)
    thread = await new_game(table, BOB)
    record = await table.bot.tables.store.games.open_game(thread)
    assert record is not None and record.settings["ai_takeover"] is False
    chosen = await new_game(table, CAROL, ai_takeover=True)
    record = await table.bot.tables.store.games.open_game(chosen)
    assert record is not None and record.settings["ai_takeover"] is True


async def test_a_server_that_names_its_games_channels_keeps_games_there(
        table: Session) -> None:
    elsewhere = CHANNEL_ID + 7
    table.rec.room(elsewhere)  # a channel the server has
    table.gw.guild_create()
    await table.bot.tables.lobbies.set_server_defaults(800000000000000001, channels=[elsewhere])
    refused = await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    assert refused.ephemeral and f"<#{elsewhere}>" in refused.content
    assert await table.bot.tables.store.games.open_games_in(CHANNEL_ID) == []


def test_the_invite_link_asks_for_exactly_what_the_docs_name() -> None:
    import re

    import discord

    page = (ROOT / "docs" / "discord.md").read_text()
    match = re.search(r"permissions=(\d+)", page)
    assert match is not None
    asked = discord.Permissions(int(match.group(1)))
    wanted = discord.Permissions(view_channel=True, send_messages=True, attach_files=True,
                                 create_public_threads=True, send_messages_in_threads=True)
    assert asked == wanted
    assert f"`{wanted.value}`" in page


async def test_a_deleted_card_ends_its_game_at_the_next_change_said_in_the_thread(
        table: Session) -> None:
    thread = await new_game(table, ALICE, target=5)
    await table.click(BOB, thread, ":join")
    await table.click(ALICE, thread, ":start")
    table.rec.messages[thread]["deleted"] = True  # a moderator deletes the card
    mover = (ALICE, BOB)[(await state_of(table, thread))["turn"]]
    table.rec.clear()
    await table.click(mover, int(board_in(table, thread)["id"]), ":step")
    assert await table.bot.tables.store.games.open_game(thread) is None
    (said,) = [s for s in table.rec.public() if "card was deleted" in s.content]
    assert said.channel_id == thread and not said.notifies()
    assert table.rec.room(thread).archived


async def test_a_thread_starts_even_before_discord_announced_the_server(
        table: Session) -> None:
    # A bot that has not yet heard the server's GUILD_CREATE knows no guild for its card.
    guild = table.bot.get_guild(800000000000000001)
    assert guild is not None
    table.bot._connection._remove_guild(guild)
    thread = await new_game(table, ALICE)
    record = await table.bot.tables.store.games.open_game(thread)
    assert record is not None and record.parent_id == CHANNEL_ID


async def test_an_aborted_game_or_a_cancelled_lobby_leaves_its_thread_archived(
        table: Session) -> None:
    thread = await new_game(table, ALICE)
    await table.click(BOB, thread, ":join")
    await table.click(ALICE, thread, ":start")
    await table.gw.send(table.gw.command(ALICE, "game", "abort", channel_id=thread,
                                         permissions=1 << 4))  # Manage Channels
    assert "ended without a result" in table.rec.message(thread)["content"]
    assert table.rec.message(thread)["components"] == []
    assert table.rec.room(thread).archived
    other = await new_game(table, BOB)
    await table.click(BOB, other, ":cancel")
    assert "cancelled" in table.rec.message(other)["content"]
    assert table.rec.room(other).archived
    assert await table.bot.tables.store.games.open_games_in(CHANNEL_ID) == []


async def test_a_game_in_a_thread_someone_opened_is_played_there_and_kept_open(
        table: Session) -> None:
    from tools.offline import PUBLIC_THREAD, Channel

    post = CHANNEL_ID + 99  # a forum's post, say: a thread the bot did not make
    table.rec.rooms[post] = Channel(post, PUBLIC_THREAD, parent_id=CHANNEL_ID)
    table.channel_id = post
    board = await table.start("candy-dash", humans=(ALICE, BOB))
    assert board.channel_id == post and not table.rec.threads(post)
    table.gw.archive(post)
    await table.gw.send()
    assert not table.rec.room(post).archived
