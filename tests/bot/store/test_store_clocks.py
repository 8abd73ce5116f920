"""What the store keeps of clocks, on SQLite and PostgreSQL: a game's clocks written with
its start, its moves and a charge (which a move saved meanwhile wins), the games due a
look, and the bot's running stretches from which the time it was down is read."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import ClockWrite, MoveRecord, Store
from tests.bot.store.test_store import SEATS, T0, active, lobby


@pytest.fixture
async def store(db_target: str) -> AsyncIterator[Store]:
    opened = await Store.open(db_target)
    yield opened
    await opened.close()


RUNNING = {"0": {"left": 86400.0, "at": T0 + 1, "warned": 0}}


async def test_a_clock_is_stored_with_the_start_and_the_move_and_read_back(
        store: Store) -> None:
    record = await lobby(store)
    record = await store.games.set_seats(record.id, record.version, SEATS, T0)
    record = await store.games.start(record.id, record.version, seed=1, state_json='{"move": 0}',
                                     seats=SEATS, now=T0 + 1, next_reminder_at=None,
                                     clock=ClockWrite(RUNNING, T0 + 3600))
    assert record.clock == RUNNING and record.clock_due_at == T0 + 3600
    assert [g.id for g in await store.clocks.due_clocks(T0 + 3600)] == [record.id]
    assert await store.clocks.due_clocks(T0 + 3599) == []
    moved = {"0": {"left": 80000.0, "at": None, "warned": 0}}
    record = await store.moves.commit_moves(
        record.id, record.version, [MoveRecord(0, 1, "a1", "", False)],
        state_json='{"move": 1}', now=T0 + 10, turn_changed=True, next_reminder_at=None,
        clock=ClockWrite(moved, None))
    assert record.clock == moved and await store.clocks.due_clocks(T0 + 10**6) == []


async def test_a_charge_loses_to_a_move_saved_meanwhile(store: Store) -> None:
    record = await active(store)
    charged = ClockWrite(RUNNING, T0 + 60)
    assert await store.clocks.set_clock(record.id, record.version, charged)
    assert (await store.games.get_game(record.id)).clock == RUNNING
    assert not await store.clocks.set_clock(record.id, record.version - 1, ClockWrite({}, None))
    assert (await store.games.get_game(record.id)).clock == RUNNING


async def test_the_time_the_bot_was_down_is_the_gap_between_its_running_stretches(
        store: Store) -> None:
    outage = 600.0
    assert await store.clocks.downtime(T0, T0 + 10**5, outage) == [], "nothing known: nothing off"
    for minute in range(0, 61, 5):  # up an hour, beating every five minutes
        await store.clocks.uptime_beat(T0 + minute * 60, outage)
    for minute in range(240, 301, 5):  # down three hours, then up another hour
        await store.clocks.uptime_beat(T0 + minute * 60, outage)
    assert await store.clocks.downtime(T0, T0 + 300 * 60, outage) == [(T0 + 3600, T0 + 240 * 60)]
    assert await store.clocks.downtime(T0 + 7200, T0 + 300 * 60, outage) == [
        (T0 + 7200, T0 + 240 * 60)]
    # Silent for longer than an outage until now: down since the last beat.
    assert await store.clocks.downtime(T0 + 250 * 60, T0 + 400 * 60, outage) == [
        (T0 + 300 * 60, T0 + 400 * 60)]
    assert await store.clocks.downtime(T0 + 250 * 60, T0 + 305 * 60, outage) == []


async def test_stretches_a_month_old_are_forgotten_once_two_later_ones_began(
        store: Store) -> None:
    outage, day = 600.0, 86400.0
    for start in (0.0, 40 * day, 80 * day, 81 * day):  # four runs, outages between them
        await store.clocks.uptime_beat(T0 + start, outage)
        await store.clocks.uptime_beat(T0 + start + 60, outage)
    # The stretch before the latest outage is kept whatever its age (a clock charged in
    # it asks about the gap since), and the month-old ones before it are gone: asked
    # from the first day, only the gap after the kept stretch is known.
    assert await store.clocks.downtime(T0 + 80 * day, T0 + 81 * day + 60, outage) == [
        (T0 + 80 * day + 60, T0 + 81 * day)]
    assert await store.clocks.downtime(T0, T0 + 81 * day + 60, outage) == [
        (T0 + 80 * day + 60, T0 + 81 * day)]
