"""The announcement outbox: every announcement of a committed change is delivered exactly
once, in order per channel, despite 5xx and 429 answers, lost answers and restarts."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord.client import CandyBot
from bot.discord.outbox import LEASE_SECONDS
from bot.games.engine import Engine
from bot.store import Announcement, Store
from bot.store.outbox import queue
from tests.support.discord_harness import CHANNEL_ID, Clock, Gateway, Recorder, Sent, start_bot
from tests.support.race_game import CandyDash

ALICE, BOB, CAROL = 340000000000000001, 340000000000000002, 340000000000000003
GAMES = {"candy-dash": Engine(CandyDash())}


class Table:
    """A bot whose process can be restarted; Discord (the recorder) lives on."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.clock = Clock()
        self.rec = Recorder()
        self.bot: CandyBot
        self.gw: Gateway

    async def boot(self) -> None:
        self.bot, self.gw = await start_bot(self.db, self.clock, GAMES, self.rec)

    async def restart(self) -> None:
        await self.bot.close()
        await self.boot()

    async def command(self, user: int, name: str, sub: str | None = None,
                      options: dict[str, Any] | None = None) -> None:
        await self.gw.send(self.gw.command(user, name, sub, options))

    async def click(self, user: int, message_id: int, ending: str) -> None:
        message = self.rec.messages[message_id]
        ids = [c["custom_id"] for row in message["components"] for c in row["components"]]
        await self.gw.send(self.gw.click(user, message, next(i for i in ids if
                                                              i.endswith(ending))))

    async def start(self, *humans: int, **options: Any) -> None:
        await self.command(humans[0], "game", "new", {"game": "candy-dash", **options})
        lobby = self.rec.last().message_id
        assert lobby is not None
        for user in humans[1:]:
            await self.click(user, lobby, ":join")
        await self.click(humans[0], lobby, ":start")

    async def mover(self, *humans: int) -> int:
        record = await self.bot.tables.store.games.open_game(CHANNEL_ID)
        assert record is not None and record.state_json is not None
        return humans[json.loads(record.state_json)["turn"]]

    async def step(self, *humans: int) -> int:
        """The player to move steps; returns who moved."""
        user = await self.mover(*humans)
        await self.command(user, "play", options={"action": "step"})
        return user

    async def queued(self) -> list[tuple[int, str, str]]:
        """Every announcement the store holds: (id, status, nonce), oldest first."""
        store = self.bot.tables.store
        async with store.connector.reading() as db, db.execute(
                "SELECT id, status, nonce FROM outbox ORDER BY id") as cursor:
            return [tuple(row) for row in await cursor.fetchall()]  # type: ignore[misc]


def pings(rec: Recorder) -> list[Sent]:
    """The announcements Discord created (each once, whatever the retries)."""
    return [s for s in rec.sent if s.created and s.body.get("nonce")]


def is_ping(sent: Sent) -> bool:
    return sent.method == "POST" and bool((sent.payload or {}).get("nonce"))


def refuse_hand_over(rec: Recorder, status: int) -> None:
    """Discord refuses the next hand-over: the board carrying the ping, then the ping
    sent alone at once."""
    for _ in range(2):
        rec.fail_when(is_ping, status=status)


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    t = Table(tmp_path / "bot.db")
    await t.boot()
    yield t
    await t.bot.close()


# --------------------------------------------------------------------------- failures


@pytest.mark.parametrize("status", [500, 502, 503, 429])
async def test_a_refused_hand_over_is_retried_until_discord_takes_it(table: Table,
                                                                     status: int) -> None:
    await table.start(ALICE, BOB)
    table.rec.clear()
    refuse_hand_over(table.rec, status)
    mover = await table.step(ALICE, BOB)
    waiting = BOB if mover == ALICE else ALICE
    # The move counts; the board carrying the ping was refused, then the ping alone.
    told = [s for s in table.rec.messages_sent() if s.ephemeral]
    assert not any("went wrong" in s.content for s in told)
    assert table.rec.notified_users() == []
    assert await table.bot.outbox.pending() == 1  # the board, carrying its ping
    # Nothing is due before the back-off has passed.
    assert await table.bot.outbox.deliver() == 0
    for _ in range(5):
        table.clock.advance(1.0)
        await table.bot.outbox.deliver()
    assert table.rec.notified_users() == [waiting]
    (handed,) = pings(table.rec)
    assert handed.pngs, "the retry is the board, carrying the ping: one message"
    assert await table.bot.outbox.pending() == 0
    table.clock.advance(5.0)
    assert await table.bot.outbox.deliver() == 0
    assert len(pings(table.rec)) == 1


async def test_a_refused_picture_sends_the_ping_at_once_and_the_board_follows_unpinged(
        table: Table) -> None:
    await table.start(ALICE, BOB)
    table.rec.clear()
    table.rec.fail_when(lambda s: bool(s.pngs), status=503)
    mover = await table.step(ALICE, BOB)
    waiting = BOB if mover == ALICE else ALICE
    assert table.rec.notified_users() == [waiting]
    (alone,) = [s for s in table.rec.sent if s.created and not s.ephemeral]
    assert not alone.pngs
    table.clock.advance(1.0)
    await table.bot.outbox.deliver()
    (board,) = [s for s in table.rec.sent if s.created and s.pngs]
    assert board.body["nonce"] != alone.body["nonce"] and not board.notifies()
    assert table.rec.notified_users() == [waiting]


async def test_a_lost_answer_does_not_post_the_ping_twice(table: Table) -> None:
    await table.start(ALICE, BOB)
    table.rec.clear()
    # Discord creates the board carrying the ping, but the bot never hears so: the ping
    # sent alone at once has the same nonce, and Discord answers with the board it made,
    # which is then the board on show: nothing more is posted.
    table.rec.fail_when(is_ping, status=503, accepted=True)
    mover = await table.step(ALICE, BOB)
    first, again = [s for s in table.rec.sent if is_ping(s)][:2]
    assert first.body["nonce"] == again.body["nonce"] and again.duplicate
    assert await table.bot.outbox.pending() == 0
    record = await table.bot.tables.store.games.open_game(CHANNEL_ID)
    assert record is not None and record.board_message_id == first.message_id
    table.clock.advance(1.0)
    await table.bot.outbox.deliver()
    assert table.rec.notified_users() == [BOB if mover == ALICE else ALICE]
    assert len([s for s in table.rec.sent if s.created and s.pngs]) == 1


async def test_a_ping_for_a_turn_already_played_is_not_sent(table: Table) -> None:
    """The channel's announcements go out in order, and a hand-over whose player played
    before Discord took it pings nobody: its board was replaced, and its turn is over."""
    await table.start(ALICE, BOB, CAROL)
    table.rec.clear()
    refuse_hand_over(table.rec, 500)
    movers = [await table.step(ALICE, BOB, CAROL) for _ in range(3)]
    assert await table.bot.outbox.pending() == 0
    order = (ALICE, BOB, CAROL)
    expected = [order[(order.index(m) + 1) % 3] for m in movers]
    # The first hand-over's player moved without the ping (using /play): it is not sent.
    assert table.rec.notified_users() == expected[1:]


async def test_a_move_in_a_channel_claims_nothing_after_its_commit(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The move's own transaction leased its board to the handler: the handler shows it
    without a claim, and asks for nothing else of the outbox."""
    await table.start(ALICE, BOB, CAROL)
    store = table.bot.tables.store
    claims: list[Any] = []
    claim = store.outbox.claim_announcements

    async def counted(now: float, **kwargs: Any) -> Any:
        claims.append(kwargs.get("lanes"))
        return await claim(now, **kwargs)

    monkeypatch.setattr(store.outbox, "claim_announcements", counted)
    table.rec.clear()
    await table.step(ALICE, BOB, CAROL)
    assert len(pings(table.rec)) == 1
    assert claims == []


async def test_a_channels_whole_queue_goes_out_with_the_next_move_in_order(
        table: Table) -> None:
    await table.start(ALICE, BOB, CAROL)
    table.rec.clear()
    table.rec.fail_when(lambda s: s.method == "POST" and "Reminder" in s.content, status=500)
    table.clock.advance(25.0)
    await table.bot.send_due()  # the reminder is refused: it waits, and the channel with it
    assert table.rec.notified_users() == []
    mover = await table.step(ALICE, BOB, CAROL)
    # The next move tries the reminder again at once, then shows its board.
    order = (ALICE, BOB, CAROL)
    assert table.rec.notified_users() == [mover, order[(order.index(mover) + 1) % 3]]
    assert await table.bot.outbox.pending() == 0


async def test_a_failed_reminder_is_retried(table: Table) -> None:
    await table.start(ALICE, BOB, reminder_hours=1.0)
    waiting = await table.mover(ALICE, BOB)
    table.rec.clear()
    table.rec.fail_when(is_ping, status=502)
    table.clock.advance(1.5)
    assert await table.bot.send_due() == 1
    assert table.rec.notified_users() == []
    table.clock.advance(0.01)
    assert await table.bot.send_due() == 0  # the reminder is not claimed twice...
    assert table.rec.notified_users() == [waiting]  # ...but its post is retried
    (reminder,) = pings(table.rec)
    assert "Reminder 1 of 3" in reminder.content


# --------------------------------------------------------------------------- restarts


async def test_pending_announcements_are_sent_when_the_bot_starts(table: Table) -> None:
    await table.start(ALICE, BOB)
    table.rec.clear()
    refuse_hand_over(table.rec, 500)
    mover = await table.step(ALICE, BOB)
    await table.restart()
    # The background sender starts with the bot and sends what was left, once.
    table.clock.advance(1.0)
    sender = asyncio.create_task(table.bot.outbox.run())
    for _ in range(100):
        if table.rec.notified_users() and not await table.bot.outbox.pending():
            break
        await asyncio.sleep(0.02)
    sender.cancel()
    assert table.rec.notified_users() == [BOB if mover == ALICE else ALICE]
    assert await table.bot.outbox.pending() == 0


async def test_a_ping_claimed_by_a_bot_that_died_is_sent_once_after_its_lease(
        tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db")
    try:
        clock = Clock()
        item = Announcement(channel_id=CHANNEL_ID, guild_id=None, game_id=None, kind="turn",
                            content=f"<@{BOB}>: your turn.", mentions=(BOB,))
        async with store.connector.transaction() as db:
            await queue(db, (item,), clock())
        (claimed,) = await store.outbox.claim_announcements(clock(), lease=LEASE_SECONDS)
        # Another sender (or the same bot after a restart) finds it leased...
        assert await store.outbox.claim_announcements(clock(), lease=LEASE_SECONDS) == []
        # ...and claims it again once the lease has run out, with the same nonce.
        clock.now += LEASE_SECONDS + 1
        (again,) = await store.outbox.claim_announcements(clock(), lease=LEASE_SECONDS)
        assert again.id == claimed.id and again.nonce == claimed.nonce and again.attempts == 2
        await store.outbox.announcement_delivered(again.id, 1, clock())
        assert await store.outbox.claim_announcements(clock() + 10 ** 6, lease=1) == []
    finally:
        await store.close()


async def test_every_announcement_is_delivered_once_despite_failures_and_restarts(
        table: Table) -> None:
    """Many moves, random 5xx/429 answers (some after Discord created the message) and
    restarts of the bot in the middle: each message is created at most once, a player is
    pinged only for a turn they still had, in the order of the moves, and the channel
    ends with one board with buttons, the game's latest."""
    chance = random.Random(16)
    humans = (ALICE, BOB, CAROL)
    await table.start(*humans, target=30)
    table.rec.clear()
    handed: list[int] = []
    for _ in range(24):
        for _ in range(chance.randrange(3)):
            table.rec.fail_when(is_ping, status=chance.choice((500, 502, 503, 429)),
                                accepted=chance.random() < 0.3)
        mover = await table.step(*humans)
        handed.append(humans[(humans.index(mover) + 1) % 3])
        if chance.random() < 0.25:
            await table.restart()
        table.clock.advance(chance.choice((0.0, 0.001, 0.01)))
        await table.bot.outbox.deliver()
    table.rec.failures.clear()
    for _ in range(20):
        table.clock.advance(0.5)
        await table.bot.outbox.deliver()
    assert await table.bot.outbox.pending() == 0
    created = [s.body["nonce"] for s in pings(table.rec)]
    assert len(created) == len(set(created)), "no message twice"
    notified = table.rec.notified_users()
    assert notified[-1] == handed[-1]
    it = iter(handed)
    assert all(user in it for user in notified), "pings in the order of the moves"
    live = [m for m in table.rec.messages.values() if m["components"]
            and int(m["channel_id"]) == CHANNEL_ID and m["attachments"]]
    record = await table.bot.tables.store.games.open_game(CHANNEL_ID)
    assert record is not None and [int(m["id"]) for m in live] == [record.board_message_id]


async def test_the_next_due_time_waits_for_the_oldest_announcement_of_each_channel(
        tmp_path: Path) -> None:
    """A later announcement stuck behind one in back-off is not due: the sender sleeps
    until the back-off ends instead of polling."""
    store = await Store.open(tmp_path / "bot.db")
    try:
        now = 1000.0
        items = [Announcement(channel_id=CHANNEL_ID, guild_id=None, game_id=None, kind="turn",
                              content=f"ping {n}", mentions=()) for n in (1, 2)]
        async with store.connector.transaction() as db:
            await queue(db, items, now)
        (first,) = await store.outbox.claim_announcements(now, lease=LEASE_SECONDS)
        assert first.announcement.content == "ping 1"
        assert await store.outbox.pending_announcements() == (2, now + LEASE_SECONDS)
        await store.outbox.retry_announcement(first.id, now + 30, "503")
        assert await store.outbox.pending_announcements() == (2, now + 30)
        assert await store.outbox.claim_announcements(now + 29, lease=LEASE_SECONDS) == []
        (again,) = await store.outbox.claim_announcements(now + 30, lease=LEASE_SECONDS)
        assert again.id == first.id
    finally:
        await store.close()


async def test_a_ping_discord_keeps_refusing_is_given_up_after_an_hour(
        table: Table, caplog: pytest.LogCaptureFixture) -> None:
    """A 403 (the bot may not post there) is retried for an hour, then dropped so that
    the channel's later announcements are not held up for ever."""
    await table.start(ALICE, BOB, CAROL)
    table.rec.clear()
    for _ in range(50):
        table.rec.fail_when(is_ping, status=403)
    await table.step(ALICE, BOB, CAROL)
    for _ in range(12):
        table.clock.advance(0.1)
        await table.bot.outbox.deliver()
    statuses = [status for _id, status, _nonce in await table.queued()]
    # The board carrying the ping is dropped; nothing else was.
    assert statuses.count("dropped") == 1 and "pending" not in statuses
    assert "gave up announcement" in caplog.text
    table.rec.failures.clear()
    await table.step(ALICE, BOB, CAROL)
    assert len(table.rec.notified_users()) == 1


async def test_drain_delivers_what_is_due_and_leaves_the_rest_queued(table: Table) -> None:
    """A clean stop calls ``bot.outbox.drain(timeout)``: due announcements go out, one in
    back-off past the timeout stays queued for the next start."""
    await table.start(ALICE, BOB)
    table.rec.clear()
    refuse_hand_over(table.rec, 500)
    await table.step(ALICE, BOB)
    assert await table.bot.outbox.drain(0.1) == 1  # the board and its ping, due in 5 s
    await table.restart()
    table.clock.advance(1.0)
    assert await table.bot.outbox.drain(1.0) == 0
    assert len(table.rec.notified_users()) == 1


# --------------------------------------------------------------------------- refused boards


def boards_created(rec: Recorder) -> list[Sent]:
    return [s for s in rec.sent if s.pngs and s.created and not s.ephemeral]


async def test_a_board_discord_refused_after_a_saved_move_is_posted_once_when_it_takes_it(
        table: Table) -> None:
    """The move is saved, the mover is told so, and the board follows through the outbox,
    even across a restart: exactly one new board, showing the game as it stands."""
    await table.start(ALICE, BOB)
    table.rec.clear()
    table.rec.fail_when(lambda s: bool(s.pngs), status=503)
    mover = await table.step(ALICE, BOB)
    assert any("it is posted as soon as Discord takes it" in s.content
               for s in table.rec.private())
    assert boards_created(table.rec) == []
    assert await table.bot.outbox.pending() == 1
    await table.restart()
    table.clock.advance(0.1)
    await table.bot.outbox.drain(1.0)
    (board,) = boards_created(table.rec)
    record = await table.bot.tables.store.games.open_game(CHANNEL_ID)
    assert record is not None and record.board_message_id == board.message_id
    assert f"<@{BOB if mover == ALICE else ALICE}>" in board.content
    await table.bot.outbox.drain(1.0)
    assert len(boards_created(table.rec)) == 1


async def test_a_queued_board_is_dropped_when_a_newer_board_was_shown_first(
        table: Table) -> None:
    await table.start(ALICE, BOB)
    table.rec.clear()
    table.rec.fail_when(lambda s: bool(s.pngs), status=503)
    await table.step(ALICE, BOB)
    table.rec.failures.clear()
    await table.step(ALICE, BOB)  # the next move posts its own board first
    (newer,) = boards_created(table.rec)
    table.clock.advance(60.0)
    await table.bot.outbox.drain(1.0)
    assert boards_created(table.rec) == [newer]
    assert "pending" not in [status for _id, status, _nonce in await table.queued()]
