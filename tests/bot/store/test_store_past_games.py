"""The store remembers a channel's ended games for `/game history` and the looking commands."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import GameRecord, SeatRecord, Store

CHANNEL, OTHER = 1_234_567_890_123_456_789, 1_234_567_890_123_456_790
ALICE, BOB = 111_111_111_111_111_111, 222_222_222_222_222_222
SEATS = (SeatRecord(0, ALICE, "Alice", False), SeatRecord(1, BOB, "Bob", False))
T0 = 1_700_000_000.0


@pytest.fixture
async def store(db_target: str) -> AsyncIterator[Store]:
    opened = await Store.open(db_target)
    yield opened
    await opened.close()


async def lobby(store: Store, channel: int = CHANNEL) -> GameRecord:
    return await store.games.create_lobby(channel_id=channel, guild_id=None, game="sugar-blast",
                                          creator_id=ALICE, options={}, settings={}, now=T0)


async def started(store: Store, channel: int = CHANNEL) -> GameRecord:
    record = await lobby(store, channel)
    record = await store.games.set_seats(record.id, record.version, SEATS, T0)
    return await store.games.start(record.id, record.version, seed=7, state_json='{"move": 0}',
                                   seats=SEATS, now=T0 + 1, next_reminder_at=None)


async def finished(store: Store, channel: int = CHANNEL) -> GameRecord:
    record = await started(store, channel)
    return await store.games.finish(record.id, record.version, state_json='{"move": 9}',
                                    result_json='{"ranking": [[0], [1]]}',
                                    placements=[(ALICE, 0, 1, True), (BOB, 1, 2, False)],
                                    now=T0 + 9)


async def test_past_games_are_the_ended_games_that_were_played_newest_first(
        store: Store) -> None:
    first = await finished(store)
    cancelled = await lobby(store)
    await store.games.abort(cancelled.id, T0 + 10)
    second = await started(store)
    await store.games.abort(second.id, T0 + 11)
    await finished(store, OTHER)
    await lobby(store)
    assert [g.id for g in await store.games.past_games(CHANNEL)] == [second.id, first.id]
    assert [g.status for g in await store.games.past_games(CHANNEL)] == ["aborted", "finished"]
    assert [g.id for g in await store.games.past_games(CHANNEL, limit=1)] == [second.id]


async def test_a_channel_without_ended_games_has_no_past_games(store: Store) -> None:
    await started(store)
    assert await store.games.past_games(CHANNEL) == []
