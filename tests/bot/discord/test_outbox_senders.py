"""Who holds an announcement: a sending process, named with its pid and its mark (boot,
process namespace, start), that says it is alive every few seconds. Its leases are taken
over as soon as it is known dead (silent too long, or ended on this machine), not when
they run out; a live one keeps them.
On SQLite and on PostgreSQL, with each sender on a store (a connection pool) of its own,
as two processes are."""

from __future__ import annotations

import os
import subprocess
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.discord.outbox import LEASE_SECONDS, STALE_SECONDS, Outbox, Sender
from bot.health import process_mark
from bot.store import Announcement, Store
from bot.tables import Pipeline
from bot.tables.announcements import Announcements

CHANNEL = 700000000000000009
T0 = 1_800_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


def gone_pid() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def started_otherwise(mark: str) -> str:
    """``mark`` (this machine and process namespace) with another start time."""
    boot, space, started = mark.split(" ")
    return f"{boot} {space} {int(started) + 1}"


here_mark = process_mark()
knows_processes = pytest.mark.skipif(here_mark is None,
                                     reason="this system does not tell its processes apart")

@pytest.fixture
async def stores(db_target: str) -> AsyncIterator[tuple[Store, Store]]:
    first, second = await Store.open(db_target), await Store.open(db_target)
    yield first, second
    await first.close()
    await second.close()


def outbox(store: Store, clock: Clock, sender: Sender) -> Outbox:
    poster: Any = None  # these senders post nothing: they claim and take over
    return Outbox(Announcements(Pipeline(store)), poster, clock, sender=sender)


async def held(store: Store, clock: Clock, owner: Outbox, channel: int = CHANNEL) -> int:
    """Queue an announcement in ``channel`` and have ``owner`` claim it; its id."""
    await store.outbox.queue_announcements([Announcement(
        channel_id=channel, guild_id=None, game_id=None, kind="notice", content="hello")],
        clock())
    await owner.take_over()
    (row,) = await store.outbox.claim_announcements(clock(), lease=LEASE_SECONDS,
                                                    owner=owner.sender.name)
    return row.id


async def claimed_by(outbox: Outbox) -> list[int]:
    rows = await outbox.announcements.claim(outbox.clock(), lease=LEASE_SECONDS,
                                            owner=outbox.sender.name)
    return [row.id for row in rows]


async def test_a_silent_senders_announcements_are_taken_over_after_its_beat_goes_stale(
        stores: tuple[Store, Store]) -> None:
    clock = Clock()
    # Processes of other machines: whether they run cannot be told, only heard.
    first = outbox(stores[0], clock, Sender("first", 1234, "another machine"))
    second = outbox(stores[1], clock, Sender("second", 1234, None))
    row = await held(stores[0], clock, first)
    # Alive and beating: what it holds stays its own, whoever asks.
    for _ in range(3):
        clock.now += STALE_SECONDS - 1
        await first.take_over()
        assert await second.take_over() == 0 and await claimed_by(second) == []
    # It stops (killed): a beat later than STALE_SECONDS, the other takes its row over,
    # long before the lease would have run out.
    clock.now += STALE_SECONDS + 0.5
    assert await second.take_over() == 1
    assert await claimed_by(second) == [row]
    assert STALE_SECONDS + 0.5 < LEASE_SECONDS


@knows_processes
async def test_a_sender_whose_process_ended_here_is_taken_over_at_once(
        stores: tuple[Store, Store]) -> None:
    clock = Clock()
    assert here_mark is not None
    dead = outbox(stores[0], clock, Sender("dead", gone_pid(), started_otherwise(here_mark)))
    row = await held(stores[0], clock, dead)
    started = outbox(stores[1], clock, Sender.here())
    assert await started.take_over() == 1
    assert await claimed_by(started) == [row]


@knows_processes
async def test_a_sender_of_a_process_still_running_here_keeps_what_it_holds(
        stores: tuple[Store, Store]) -> None:
    """Two bots in one process keep theirs; a sender whose pid another process has since
    (a container's pid 1 once more) does not."""
    clock = Clock()
    here = Sender.here()
    assert here.mark is not None
    sibling = outbox(stores[0], clock, Sender("sibling", here.pid, here.mark))
    await held(stores[0], clock, sibling)
    me = outbox(stores[1], clock, here)
    assert await me.take_over() == 0 and await claimed_by(me) == []
    before = outbox(stores[0], clock, Sender("before", os.getpid(),
                                             started_otherwise(here.mark)))
    row = await held(stores[0], clock, before, CHANNEL + 1)
    assert await me.take_over() == 1
    assert await claimed_by(me) == [row]


async def test_a_sender_that_stops_cleanly_gives_back_what_it_holds_at_once(
        stores: tuple[Store, Store]) -> None:
    clock = Clock()
    first = outbox(stores[0], clock, Sender("first", 1, None))
    second = outbox(stores[1], clock, Sender("second", 2, None))
    row = await held(stores[0], clock, first)
    assert await claimed_by(second) == []
    await first.close()
    assert await claimed_by(second) == [row]
