"""A hostile tester at the real bot: malformed options, junk moves, forged numbers, every
/game subcommand at every stage, and players clicking at once. Bad input gets a private
note and changes nothing; nothing logs an unexpected error or pings anyone."""

from __future__ import annotations

import json
import logging
import math
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.games
from bot.discord.words import MISMATCHED
from bot.games.engine import loads
from tests.support.discord_harness import MANAGE_CHANNELS, Sent, Session

ALICE, BOB, CAROL, DAN = (370000000000000001, 370000000000000002, 370000000000000003,
                          370000000000000004)
GAMES = list(bot.games.GAMES)
SUBCOMMANDS = ("board", "hand", "cards", "status", "log", "history", "replay", "undo",
               "leave", "abort", "rules")
HOSTILE_MOVES = ("x" * 5000, "🍬🍭" * 40, "@everyone", "@here take it", f"<@{CAROL}>",
                 "<@&1> **bold** `code`", "\u202e\u0000\u200b", " ", "-1", "9" * 40,
                 "'; DROP TABLE games; --", "seat 2 move", "undo")
MALFORMED_NEW = ({"seats": "many"}, {"seats": 2.5}, {"seats": True}, {"seats": 0},
                 {"seats": -3}, {"seats": 10**20}, {"reminder_hours": "soon"},
                 {"reminder_hours": -1.0}, {"reminder_hours": 0.0},
                 {"reminder_hours": 1e308}, {"reminder_hours": math.nan})


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Session]:
    session = await Session.open(tmp_path, bot.games.GAMES)
    yield session
    await session.close()


def unexpected(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.levelno >= logging.ERROR or r.exc_info or "unexpected" in r.getMessage()]


def pings_nobody_unasked(sent: list[Sent]) -> None:
    for message in sent:
        if message.ephemeral:
            continue
        assert "@everyone" not in message.content and "@here" not in message.content
        mentions = message.body.get("allowed_mentions")
        if mentions is not None:
            assert "everyone" not in mentions.get("parse", [])


async def started(table: Session, slug: str, humans: tuple[int, ...] = (ALICE, BOB)) -> Sent:
    game = bot.games.GAMES[slug]
    return await table.start(slug, humans=humans, ai=max(0, game.min_seats - len(humans)))


@pytest.mark.parametrize("slug", GAMES)
@pytest.mark.parametrize("malformed", MALFORMED_NEW, ids=repr)
async def test_a_malformed_lobby_option_is_refused_privately_and_opens_nothing(
        table: Session, slug: str, malformed: dict[str, Any],
        caplog: pytest.LogCaptureFixture) -> None:
    answer = await table.command(ALICE, "game", "new", {"game": slug, **malformed})
    assert answer.ephemeral, answer.content
    assert await table.bot.tables.store.games.open_game(table.channel_id) is None
    assert not unexpected(caplog)


@pytest.mark.parametrize("options", ({}, {"seats": 2}), ids=("nothing", "no game"))
async def test_a_new_game_without_its_game_is_refused_as_a_mismatched_command(
        table: Session, options: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    answer = await table.command(ALICE, "game", "new", options)
    assert answer.ephemeral and answer.content == MISMATCHED
    assert await table.bot.tables.store.games.open_game(table.channel_id) is None
    assert not unexpected(caplog)


@pytest.mark.parametrize("game", ("", "nope", "🍬", "x" * 300, "sugar-blast "))
async def test_an_unknown_game_is_refused_privately(table: Session, game: str,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    answer = await table.command(ALICE, "game", "new", {"game": game})
    assert answer.ephemeral
    assert await table.bot.tables.store.games.open_game(table.channel_id) is None
    assert not unexpected(caplog)


@pytest.mark.parametrize("slug", GAMES)
async def test_every_subcommand_answers_at_every_stage_without_an_unexpected_error(
        table: Session, slug: str, caplog: pytest.LogCaptureFixture) -> None:
    async def every_subcommand(stage: str, users: tuple[int, ...]) -> None:
        for sub in SUBCOMMANDS:
            if sub in ("leave", "abort", "undo") and stage == "mid-game":
                continue  # these change the game; they run once the game is over
            for user in users:
                answer = await table.command(user, "game", sub)
                assert answer is not None, (stage, sub)
                if sub not in ("rules", "history", "board", "status", "log", "replay"):
                    assert answer.ephemeral, (stage, sub, answer.content)
                pings_nobody_unasked(table.rec.messages_sent())
        assert not unexpected(caplog), stage

    await every_subcommand("no game", (BOB,))
    await table.command(ALICE, "game", "new", {"game": slug})
    await every_subcommand("lobby", (CAROL,))
    await table.command(ALICE, "game", "abort", permissions=MANAGE_CHANNELS)
    await started(table, slug)
    await every_subcommand("mid-game", (ALICE, CAROL))
    await table.command(ALICE, "game", "abort", permissions=MANAGE_CHANNELS)
    await every_subcommand("after the end", (ALICE, CAROL))


@pytest.mark.parametrize("slug", GAMES)
async def test_hostile_move_text_is_refused_privately_and_changes_nothing(
        table: Session, slug: str, caplog: pytest.LogCaptureFixture) -> None:
    await started(table, slug)
    before = await table.state()
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None
    game = bot.games.GAMES[slug]
    state = loads(record.state_json or "", game)
    acting = game.to_act(state)
    mover = next(s for s in record.seats if s.seat in acting and not s.ai)
    legal = game.ai_action(state, mover.seat).notation
    others = tuple(u for u in (ALICE, BOB, CAROL) if u != mover.user_id)
    for user in others:  # the mover's own legal move, typed by another seat or a spectator
        answer = await table.play(user, legal)
        assert answer.ephemeral, answer.content
    for text in HOSTILE_MOVES:
        for user in (ALICE, BOB, CAROL):
            answer = await table.play(user, text)
            assert answer.ephemeral, (text[:20], answer.content)
            assert [m for m in table.rec.messages_sent() if not m.ephemeral] == []
    assert await table.state() == before
    assert not unexpected(caplog)


@pytest.mark.parametrize("slug", GAMES)
async def test_a_move_after_the_game_ended_and_its_old_buttons_change_nothing(
        table: Session, slug: str, caplog: pytest.LogCaptureFixture) -> None:
    board = await started(table, slug)
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None
    game = bot.games.GAMES[slug]
    state = loads(record.state_json or "", game)
    (seat,) = [s for s in record.seats if s.seat in game.to_act(state) and not s.ai][:1]
    move = game.ai_action(state, seat.seat).notation
    await table.command(ALICE, "game", "abort", permissions=MANAGE_CHANNELS)
    ended = await table.bot.tables.store.games.get_game(record.id)
    answer = await table.play(seat.user_id or 0, move)
    assert answer.ephemeral
    message = table.rec.message(board.message_id or 0)
    for custom_id in [c["custom_id"] for row in message["components"]
                      for c in row["components"] if "custom_id" in c][:3]:
        table.rec.clear()
        await table.gw.send(table.gw.click(seat.user_id or 0, message, custom_id))
        assert all(m.ephemeral or m.edit for m in table.rec.messages_sent())
    assert (await table.bot.tables.store.games.get_game(record.id)).version == ended.version
    assert not unexpected(caplog)


@pytest.mark.parametrize("numbers", ({"n": 10**30}, {"n": -5}, {"game": 2**63},
                                     {"start": 10**25}, {"game": -1}, {"start": 0}), ids=repr)
async def test_log_and_replay_refuse_numbers_out_of_range_privately(
        table: Session, numbers: dict[str, int], caplog: pytest.LogCaptureFixture) -> None:
    await started(table, "sugar-blast")
    for sub in ("log", "replay"):
        options = {k: v for k, v in numbers.items() if sub == "log" or k == "game"}
        if not options:
            continue
        answer = await table.command(BOB, "game", sub, options)
        assert answer.ephemeral, (sub, options, answer.content)
    assert not unexpected(caplog)


# --------------------------------------------------------------------------- at once


@pytest.mark.parametrize("slug", GAMES)
async def test_players_joining_at_once_all_get_a_seat(table: Session, slug: str,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    game = bot.games.GAMES[slug]
    lobby = await table.command(ALICE, "game", "new", {"game": slug})
    message = table.rec.message(lobby.message_id or 0)
    join = next(c for c in lobby.custom_ids if c.endswith(":join"))
    joiners = (BOB, CAROL, DAN)[:game.max_seats - 1]
    table.rec.clear()
    await table.gw.send(*(table.gw.click(user, message, join) for user in joiners))
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None
    assert sorted(s.user_id or 0 for s in record.seats) == sorted((ALICE, *joiners))
    assert not unexpected(caplog)


@pytest.mark.parametrize("slug", GAMES)
async def test_start_pressed_twice_at_once_starts_one_game(
        table: Session, slug: str, caplog: pytest.LogCaptureFixture) -> None:
    game = bot.games.GAMES[slug]
    lobby = await table.command(ALICE, "game", "new", {"game": slug})
    await table.click(BOB, lobby, ":join")
    for _ in range(max(0, game.min_seats - 2)):
        await table.click(ALICE, lobby, ":ai")
    message = table.rec.message(lobby.message_id or 0)
    start = next(c for c in lobby.custom_ids if c.endswith(":start"))
    table.rec.clear()
    await table.gw.send(table.gw.click(ALICE, message, start),
                        table.gw.click(ALICE, message, start))
    boards = [m for m in table.rec.messages_sent() if not m.ephemeral and m.pngs]
    assert len(boards) == 1
    state = await table.state()
    assert state is not None and state["move"] == 0
    assert not unexpected(caplog)


@pytest.mark.parametrize("slug", GAMES)
async def test_a_move_sent_twice_at_once_is_made_once_and_the_other_told_privately(
        table: Session, slug: str, caplog: pytest.LogCaptureFixture) -> None:
    game = bot.games.GAMES[slug]
    await started(table, slug, humans=(ALICE, BOB, CAROL)[:max(2, min(3, game.max_seats))])
    for _ in range(4):
        record = await table.bot.tables.store.games.open_game(table.channel_id)
        if record is None or record.status != "active":
            break
        state = loads(record.state_json or "", game)
        before = json.loads(record.state_json or "{}")["move"]
        payloads, acting = [], game.to_act(state)
        for seat in record.seats:
            if seat.seat in acting and not seat.ai:
                move = game.ai_action(state, seat.seat).notation
                payloads += [table.gw.command(seat.user_id or 0, "play",
                                              options={"action": move})] * 1
                payloads.append(table.gw.command(seat.user_id or 0, "play",
                                                 options={"action": move}))
        table.rec.clear()
        await table.gw.send(*payloads)
        after = await table.bot.tables.store.games.get_game(record.id)
        made = await table.bot.tables.store.moves.actions(record.id) if hasattr(
            table.bot.tables.store, "actions") else None
        assert json.loads(after.state_json or "{}")["move"] > before
        refused = [m for m in table.rec.messages_sent() if m.ephemeral
                   and ("already" in m.content or "not your turn" in m.content.lower())]
        assert refused, [m.content for m in table.rec.messages_sent()]
        del made
    assert not unexpected(caplog)
