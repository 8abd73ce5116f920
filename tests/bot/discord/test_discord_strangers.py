"""A bot among strangers: what one person may ask is bounded, a table protects itself, and
every refusal is private, says why (and when to try again) and changes nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.games.engine import Engine
from bot.limits import Limits
from tests.support.discord_harness import CHANNEL_ID, MANAGE_CHANNELS, Session, UserOption
from tests.support.race_game import CandyDash

ALICE, BOB, CAROL, MALLORY = (340000000000000001, 340000000000000002, 340000000000000003,
                              340000000000000666)


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Session]:
    session = await Session.open(tmp_path, {"candy-dash": Engine(CandyDash())})
    yield session
    await session.close()


def channel(n: int) -> int:
    return CHANNEL_ID + 1000 + n


async def open_games(table: Session) -> int:
    """Lobbies and games under way, in every channel."""
    return sum((await table.bot.tables.store.games.open_game_counts()).values())


# --------------------------------------------------------------------------- limits


async def test_one_person_hosts_only_a_few_lobbies_at_once(table: Session) -> None:
    allowed = Limits().lobbies_per_person
    for n in range(allowed):
        table.channel_id = channel(n)
        lobby = await table.command(MALLORY, "game", "new", {"game": "candy-dash"})
        assert not lobby.ephemeral
    table.channel_id = channel(allowed)
    refused = await table.command(MALLORY, "game", "new", {"game": "candy-dash"})
    assert refused.ephemeral and f"You already host {allowed} lobbies" in refused.content
    assert "Nothing changed" in refused.content
    assert await table.bot.tables.store.games.open_game(channel(allowed)) is None
    assert await open_games(table) == allowed


async def test_one_person_holds_only_so_many_seats(tmp_path: Path) -> None:
    session = await Session.open(tmp_path, {"candy-dash": Engine(CandyDash())})
    session.bot.tables.pipeline.limits = Limits(games_per_person=2)
    try:
        lobbies = []
        for n in range(3):
            session.channel_id = channel(n)
            lobbies.append(await session.command(ALICE + n, "game", "new",
                                                 {"game": "candy-dash"}))
        for lobby in lobbies[:2]:
            await session.click(MALLORY, lobby, ":join")
            assert f"<@{MALLORY}>" in session.rec.message(lobby.message_id or 0)["content"]
            assert "You took seat 2" in session.answer().content
        refused = await session.click(MALLORY, lobbies[2], ":join")
        assert refused.ephemeral and "You already sit in 2 games" in refused.content
        record = await session.bot.tables.store.games.open_game(channel(2))
        assert record is not None and [s.user_id for s in record.seats] == [ALICE + 2]
    finally:
        await session.close()


async def test_a_server_has_only_so_many_open_games(tmp_path: Path) -> None:
    session = await Session.open(tmp_path, {"candy-dash": Engine(CandyDash())})
    session.bot.tables.pipeline.limits = Limits(games_per_server=2)
    try:
        for n in range(2):
            session.channel_id = channel(n)
            await session.command(ALICE + n, "game", "new", {"game": "candy-dash"})
        session.channel_id = channel(2)
        refused = await session.command(CAROL, "game", "new", {"game": "candy-dash"})
        assert refused.ephemeral and "This server already has 2 games open" in refused.content
        assert await session.bot.tables.store.games.open_game(channel(2)) is None
    finally:
        await session.close()


def join_button(session: Session, lobby: Any) -> tuple[dict[str, Any], str]:
    message = session.rec.message(lobby.message_id or 0)
    return message, next(c["custom_id"] for row in message["components"]
                         for c in row["components"] if c.get("custom_id", "").endswith(":join"))


async def test_limits_hold_when_the_requests_come_all_at_once(tmp_path: Path) -> None:
    # A flood sends its requests together, not one after another: the counts must hold.
    session = await Session.open(tmp_path, {"candy-dash": Engine(CandyDash())})
    tables, gw = session.bot.tables, session.gw
    try:
        tables.pipeline.limits = Limits(lobbies_per_person=3)
        await gw.send(*(gw.command(MALLORY, "game", "new", {"game": "candy-dash"},
                                   channel_id=channel(n)) for n in range(10)))
        assert await open_games(session) == 3, "one person hosts three lobbies at most"

        tables.pipeline.limits = Limits(games_per_person=2)
        lobbies = []
        for n in range(10, 16):
            session.channel_id = channel(n)
            lobbies.append(await session.command(ALICE + n, "game", "new",
                                                 {"game": "candy-dash"}))
        await gw.send(*(gw.click(CAROL, *join_button(session, lobby)) for lobby in lobbies))
        seated = [s.user_id for n in range(10, 16)
                  for s in (await tables.store.games.open_game(channel(n))).seats]  # type: ignore[union-attr]
        assert seated.count(CAROL) == 2, "one person sits in two games at most"

        tables.pipeline.limits = Limits(games_per_server=11)  # nine open: room for two more
        await gw.send(*(gw.command(BOB + n, "game", "new", {"game": "candy-dash"},
                                   channel_id=channel(20 + n)) for n in range(5)))
        assert await open_games(session) == 11, "the server's limit, no more"
    finally:
        await session.close()


async def test_a_player_posts_the_board_in_public_once_in_a_while(table: Session) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB))
    again = await table.command(ALICE, "game", "board")
    assert not again.ephemeral and again.pngs
    private = await table.command(ALICE, "game", "board")
    assert private.ephemeral and private.pngs and not private.custom_ids
    assert "you can post the board in public again <t:" in private.content
    assert not table.rec.public(), "too soon: the board comes privately, nothing in public"
    table.clock.advance(Limits().public_cooldown / 3600 + 0.001)
    allowed = await table.command(ALICE, "game", "board")
    assert not allowed.ephemeral and allowed.pngs


async def test_someone_not_playing_sees_the_board_privately_and_the_buttons_stay(
        table: Session) -> None:
    board = await table.start("candy-dash", humans=(ALICE, BOB))
    before = table.rec.message(board.message_id or 0)["components"]
    assert before, "the players' board has buttons"
    for _ in range(5):
        seen = await table.command(MALLORY, "game", "board")
        assert seen.ephemeral and seen.pngs and not seen.custom_ids
        assert not table.rec.public(), "nothing public, no buttons taken"
    assert table.rec.message(board.message_id or 0)["components"] == before


async def test_the_log_and_the_leaderboard_have_cooldowns_too(table: Session) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB))
    assert not (await table.command(MALLORY, "game", "log")).ephemeral
    again = await table.command(MALLORY, "game", "log")
    assert again.ephemeral and "post the log in public again <t:" in again.content
    assert not table.rec.public()
    first = await table.command(MALLORY, "stats", options={"board": "candy-dash"})
    assert not first.ephemeral
    again = await table.command(MALLORY, "stats", options={"board": "candy-dash"})
    assert again.ephemeral and again.pngs and "post a leaderboard again <t:" in again.content
    assert not table.rec.public()


# --------------------------------------------------------------------------- a table's say


async def test_only_the_host_adds_ai_seats(table: Session) -> None:
    lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    await table.click(MALLORY, lobby, ":join")
    refused = await table.click(MALLORY, lobby, ":ai")
    assert refused.ephemeral and f"Only the lobby's host (<@{ALICE}>) can add AI seats" \
        in refused.content
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None and not any(s.ai for s in record.seats)


async def test_the_host_removes_a_player_who_cannot_join_again(table: Session) -> None:
    lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    await table.click(MALLORY, lobby, ":join")
    await table.click(BOB, lobby, ":join")
    refused = await table.click(MALLORY, lobby, "cb:lr:1", values=[f"u{BOB}"])
    assert refused.ephemeral and "Only the lobby's host" in refused.content
    removed = await table.click(ALICE, lobby, "cb:lr:1", values=[f"u{MALLORY}"])
    assert not removed.ephemeral and f"<@{MALLORY}>" not in removed.content
    again = await table.click(MALLORY, lobby, ":join")
    assert again.ephemeral and "The host removed you from this lobby" in again.content
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None and [s.user_id for s in record.seats] == [ALICE, BOB]
    assert [s.seat for s in record.seats] == [0, 1], "seats are numbered afresh"


async def test_the_ai_takes_over_a_silent_seat_by_default_and_the_lobby_says_so(
        table: Session) -> None:
    lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash",
                                                       "reminder_hours": 1.0})
    assert "an AI plays for a silent player, at its strong level, until they are back" \
        in lobby.content
    await table.click(BOB, lobby, ":join")
    await table.click(ALICE, lobby, ":start")
    for _ in range(4):
        table.clock.advance(1.01)
        await table.bot.send_due()
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None and record.seats[0].standing_in, "the game goes on without Alice"


async def test_with_the_take_over_off_the_table_votes_a_silent_seat_to_the_ai(
        table: Session) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB, CAROL), reminder_hours=1.0,
                      ai_takeover=False)
    for _ in range(5):
        table.clock.advance(1.01)
        await table.bot.send_due()
    assert (await table.state() or {})["turn"] == 0, "nothing moves: Alice is silent"
    first = await table.command(BOB, "game", "vote",
                                {"player": UserOption(ALICE), "give": "ai"})
    assert not first.ephemeral and "1 of the 2 votes" in first.content
    carried = await table.command(CAROL, "game", "vote",
                                  {"player": UserOption(ALICE), "give": "ai"})
    assert "to the AI for good" in carried.content
    state = await table.state()
    assert state is not None and state["turn"] != 0, "the AI played the silent seat at once"


async def test_a_silent_seat_is_not_up_for_a_vote_before_its_reminders_ran_out(
        table: Session) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB, CAROL), reminder_hours=1.0,
                      ai_takeover=False)
    refused = await table.command(BOB, "game", "vote", {"player": UserOption(ALICE),
                                                        "give": "ai"})
    assert refused.ephemeral and "not up for a vote" in refused.content


async def test_a_host_cannot_end_a_game_others_still_play(table: Session) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB))
    refused = await table.command(ALICE, "game", "abort")
    assert refused.ephemeral and "1 other player still plays this game" in refused.content
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None and record.status == "active"
    ended = await table.command(CAROL, "game", "abort", permissions=MANAGE_CHANNELS)
    assert not ended.ephemeral and "counts for nobody" in ended.content


async def test_a_host_who_left_cannot_end_the_game(table: Session) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB, CAROL))
    await table.command(ALICE, "game", "leave")
    refused = await table.command(ALICE, "game", "abort")
    assert refused.ephemeral and "while still seated" in refused.content
    assert (await table.bot.tables.store.games.open_game(table.channel_id)) is not None


async def test_a_host_alone_with_ai_seats_may_end_the_game(table: Session) -> None:
    await table.start("candy-dash", humans=(ALICE,), ai=1)
    ended = await table.command(ALICE, "game", "abort")
    assert not ended.ephemeral and "counts for nobody" in ended.content
    assert await table.bot.tables.store.games.open_game(table.channel_id) is None


# --------------------------------------------------------------------------- replays


async def test_twenty_replays_asked_at_once_are_drawn_once_and_say_how_many_moves(
        table: Session) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB))
    for _ in range(3):
        await table.play(ALICE, "step")
        await table.play(BOB, "step")
    table.rec.clear()
    asking = [MALLORY + n for n in range(20)]
    await table.gw.send(*(table.gw.command(user, "game", "replay") for user in asking))
    gifs = [s for s in table.rec.public() if s.gifs]
    assert len(gifs) == 20 and len({s.gifs[0] for s in gifs}) == 1
    assert table.bot.replays.drawn == 1
    assert all("the game so far, 6 moves." in s.content for s in gifs)
    refused = await table.command(asking[0], "game", "replay")
    assert refused.ephemeral and "ask for a replay again" in refused.content
async def test_a_replay_turned_away_as_busy_does_not_start_the_askers_wait(
        table: Session) -> None:
    from bot.refusals import Busy

    await table.start("candy-dash", humans=(ALICE, BOB))
    await table.play(ALICE, "step")
    replays = table.bot.replays
    drawing = replays.gif

    async def full_line(key, draw):  # every heavy-picture slot taken, the line full
        raise Busy(retry_at=table.clock.now + 60)

    replays.gif = full_line  # type: ignore[method-assign]
    busy = await table.command(CAROL, "game", "replay")
    assert busy.ephemeral and "being drawn right now" in busy.content
    replays.gif = drawing  # type: ignore[method-assign]
    table.clock.advance(61 / 3600)  # the minute that refusal asked to wait
    table.rec.clear()
    await table.command(CAROL, "game", "replay")
    assert [s for s in table.rec.public() if s.gifs], "drawn on asking again after a minute"


