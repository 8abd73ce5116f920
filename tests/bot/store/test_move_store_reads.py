"""A move asks the store only what it needs, once: every read is a round trip through the
one SQLite thread that all channels queue for."""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.games import GAMES
from bot.games.engine import loads
from bot.store import Store
from bot.tables import Tables
from tests.support.discord_harness import Clock

ALICE, BOB = 101, 102
CHANNEL, GUILD = 55, 66


def counting(reads: Counter[str], name: str, read: Callable[..., Any]) -> Callable[..., Any]:
    """``read``, counting its calls under ``name``."""
    def counted(*args: Any, **kwargs: Any) -> Any:
        reads[name] += 1
        return read(*args, **kwargs)
    return counted


async def test_a_move_reads_whether_and_how_its_players_are_reached_once(
        tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "reads.db")
    try:
        await one_move_reads_away_once(Tables(store, GAMES, Clock()))
    finally:
        await store.close()


async def one_move_reads_away_once(tables: Tables) -> None:
    slug = "sugar-blast"
    game = GAMES[slug]
    lobby = await tables.lobbies.open_lobby(channel_id=CHANNEL, guild_id=GUILD, game=slug,
                                            creator_id=ALICE, creator_name="Alice",
                                            reminder_hours=1.0)
    await tables.lobbies.join(lobby.record.id, BOB, "Bob")
    await tables.lobbies.start(lobby.record.id, ALICE)
    reads: Counter[str] = Counter()
    store = tables.store
    for name in ("quiet_hours", "vacations", "notify_modes", "reach"):
        setattr(store.people, name, counting(reads, name, getattr(store.people, name)))
    record = await store.games.open_game(CHANNEL)
    state = loads(record.state_json or "", game)
    seat = min(game.to_act(state))
    mover = next(s.user_id for s in record.seats if s.seat == seat)
    board = await tables.moves.play(channel_id=CHANNEL, user_id=mover,
                                    text=game.ai_action(state, seat).notation)
    assert board.to_act  # someone is awaited, and the board says whether they are away
    assert reads == {"reach": 1}  # quiet hours, vacations and notifications in one statement


async def test_a_reminder_reads_whether_and_how_its_players_are_reached_once(
        tmp_path: Path) -> None:

    store = await Store.open(tmp_path / "reads.db")
    clock = Clock()
    tables = Tables(store, GAMES, clock)
    try:
        lobby = await tables.lobbies.open_lobby(
            channel_id=CHANNEL, guild_id=GUILD, game="sugar-blast",
            creator_id=ALICE, creator_name="Alice",
            reminder_hours=1.0)
        await tables.lobbies.join(lobby.record.id, BOB, "Bob")
        await tables.lobbies.start(lobby.record.id, ALICE)
        await store.people.set_notify(BOB, "dm", clock())
        await store.people.set_notify(ALICE, "dm", clock())
        reads: Counter[str] = Counter()
        for name in ("quiet_hours", "vacations", "notify_modes", "reach"):
            setattr(store.people, name, counting(reads, name, getattr(store.people, name)))
        clock.advance(2)
        assert len(await tables.reminders.due()) == 1
        assert reads == {"reach": 1}
        with sqlite3.connect(tmp_path / "reads.db") as db:
            kinds = [kind for (kind,) in db.execute("SELECT kind FROM outbox")]
        assert "dm" in kinds  # the way they chose to be reached held
    finally:
        await store.close()


async def test_a_move_goes_to_sqlites_thread_twice_and_its_board_message_once(
        tmp_path: Path) -> None:
    from tests.support.faults import inject, watch_reads

    store = await Store.open(tmp_path / "trips.db")
    try:
        tables = Tables(store, GAMES, Clock())
        slug = "sugar-blast"
        game = GAMES[slug]
        lobby = await tables.lobbies.open_lobby(channel_id=CHANNEL, guild_id=GUILD, game=slug,
                                                creator_id=ALICE, creator_name="Alice")
        await tables.lobbies.join(lobby.record.id, BOB, "Bob")
        await tables.lobbies.start(lobby.record.id, ALICE)
        record = await store.games.open_game(CHANNEL)
        state = loads(record.state_json or "", game)
        seat = min(game.to_act(state))
        mover = next(s.user_id for s in record.seats if s.seat == seat)
        writes, reads = inject(store), watch_reads(store)
        board = await tables.moves.play(channel_id=CHANNEL, user_id=mover,
                                        text=game.ai_action(state, seat).notation)
        # BEGIN and the guarded update; the action's insert and the COMMIT.
        assert (writes.trips, writes.statements[0], writes.statements[-1]) == (
            2, "BEGIN IMMEDIATE", "COMMIT")
        assert reads.trips == reads.count  # every read's rows come back with it
        await store.games.set_board_message(board.record.id, 123)
        assert writes.trips == 3 and "BEGIN IMMEDIATE" not in writes.statements[3:]
    finally:
        await store.close()


async def test_a_typed_play_answered_and_shown_goes_to_sqlites_threads_five_times(
        tmp_path: Path) -> None:
    """The whole /play through the bot: its reads (the game with whether the interaction
    already made a move, how its players are reached), its commit, which leases the board
    it queued to the handler (no claim after it, and no read asking whether anything is
    due), and the board's record as shown."""
    from tests.support.discord_harness import Session
    from tests.support.faults import inject, watch_reads

    slug = "sugar-blast"
    game = GAMES[slug]
    session = await Session.open(tmp_path, {slug: game})
    try:
        await session.start(slug, humans=(ALICE, BOB))
        store = session.bot.tables.store
        for _ in range(3):
            record = await store.games.open_game(session.channel_id)
            assert record is not None
            state = loads(record.state_json or "", game)
            seat = min(game.to_act(state))
            mover = next(s.user_id for s in record.seats if s.seat == seat)
            writes, reads = inject(store), watch_reads(store)
            session.rec.clear()
            await session.gw.send(session.gw.command(
                mover, "play", options={"action": game.ai_action(state, seat).notation},
                channel_id=session.channel_id))
            assert [s for s in session.rec.sent if s.pngs]  # the board was shown
            # The move's commit (its board leased with its last statement, sent with the
            # COMMIT), then the board recorded as shown.
            assert writes.statements.count("BEGIN IMMEDIATE") == 2
            assert (writes.trips, reads.trips) == (3, 2)
            leased = [s for s in writes.statements if s.startswith("UPDATE outbox SET leased")]
            assert len(leased) == 1
            assert writes.statements[writes.statements.index(leased[0]) + 1] == "COMMIT"
            assert not [s for s in reads.statements if "FROM outbox" in s]
            assert not [s for s in reads.statements if s.startswith("SELECT game_id, n")]
    finally:
        await session.close()


async def test_a_typed_play_hands_a_thread_only_what_takes_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hand-over to a thread and back costs the event loop more than a few small
    dicts: a /play sends a thread its move to work out, its board to describe and its
    picture to draw (without the render pool), and words its hand-over's ping itself."""
    import asyncio

    from tests.support.discord_harness import Session

    handed: list[str] = []
    to_thread = asyncio.to_thread

    async def watched(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        handed.append(getattr(func, "__name__", repr(func)))
        return await to_thread(func, *args, **kwargs)

    slug = "sugar-blast"
    game = GAMES[slug]
    session = await Session.open(tmp_path, {slug: game})
    try:
        await session.start(slug, humans=(ALICE, BOB))
        record = await session.bot.tables.store.games.open_game(session.channel_id)
        assert record is not None
        state = loads(record.state_json or "", game)
        seat = min(game.to_act(state))
        mover = next(s.user_id for s in record.seats if s.seat == seat)
        monkeypatch.setattr(asyncio, "to_thread", watched)
        session.rec.clear()
        await session.gw.send(session.gw.command(
            mover, "play", options={"action": game.ai_action(state, seat).notation},
            channel_id=session.channel_id))
        assert [s for s in session.rec.sent if s.pngs]  # the board was shown
    finally:
        await session.close()
    # The move, its board, its picture (the harness's own renderer), in any order.
    assert len(handed) == 3 and {"_work", "board_of"} <= set(handed), handed
