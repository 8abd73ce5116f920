"""The announcement outbox's sender: delivers what committed changes queued, until Discord
accepts it or its place is gone, lane by lane, in order, each once.

Everything a change must show is written to the store in the change's own transaction
(:class:`bot.store.Announcement`): its board (carrying the ping of the players it hands
the turn to), the buttons taken off the board it replaces, its card, a ping for a player
away, a reminder, a direct message. Each waits in a **lane** (:attr:`Announcement.lane`):
its channel's, its reader's for a DM, its game's card, or what follows its game's new
board. A lane's announcements go out one at a time and in order; lanes go out side by
side, so one failing (a player's DMs closed, a card Discord refuses) holds up no other.

This sender claims the head of each lane with a lease in its own name, posts it with the
announcement's nonce (discord.py then sets ``enforce_nonce``, so a repeat after a lost
answer returns the first message instead of posting a second), and marks it delivered.
A failure leaves it queued, due again after a back-off. A sender says it is alive every
:data:`BEAT_SECONDS`; the leases of one that stopped beating, or whose process is known
to have ended, are taken over at once (:meth:`Outbox.take_over`).

What a change shows (kinds ``board``, ``card``, ``strip``, ``archive``, and a ping for a
player away, ``turn``) is delivered by the ``shows`` given to the outbox
(:mod:`bot.discord.publish`); words (reminders, notices, DMs) by the outbox itself.

Who calls it: the handler of every change delivers that change's lanes straight away
(:meth:`Outbox.deliver_lane`, through :func:`bot.discord.publish.publish_saved`);
:meth:`Outbox.run` is the background loop that retries and sends what a dead process
left; :meth:`Outbox.drain` is for a clean stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp
import discord

from bot.discord import messages, pacing
from bot.games.engine import Engine
from bot.health import ended, process_mark
from bot.store import Announcement, Lease, OutboxRecord, StoreError, channel_lane
from bot.tables.announcements import Announcements

log = logging.getLogger(__name__)

#: How long a claimed announcement is left to its sender, alive, before another may try it.
LEASE_SECONDS = 120.0
#: How often a sender says it is alive, and how long a silent one is taken for dead (its
#: leases are taken over then). A process known to have ended is taken for dead at once.
BEAT_SECONDS = 3.0
STALE_SECONDS = 12.0
#: The first wait after a failure; it doubles with each attempt, up to the cap.
FIRST_BACKOFF = 5.0
MAX_BACKOFF = 600.0
#: Discord refusing the announcement itself (missing permissions) is retried for this
#: long, so an operator can fix it, then given up; a direct message at once.
GIVE_UP_AFTER = 3600.0
#: How long a change's handler waits for another sender to deliver what is ahead of its
#: own board in the channel's lane, before leaving it all to that sender.
WAIT_FOR_LANE = 5.0
#: How long what a change queued is left to its handler (which has its board in hand and
#: answers a player, before the background's work) before the background loop takes it.
HANDLER_FIRST = 2.0
#: A player handed the same turn of the same game again within this many seconds (a move,
#: ``/game undo``, the move again) is named but not pinged again.
PING_COOLDOWN = 900.0
#: Discord's answers that say the place of an announcement is gone for good.
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004

#: Delivers a claimed announcement of a kind the outbox does not word itself (a board, a
#: card...) with what the handler has in hand (or ``None``), marks it delivered and returns
#: True; or reschedules it and returns False; or raises Discord's refusal.
Show = Callable[[OutboxRecord, Any], Awaitable[bool]]
#: The message a ``dm`` announcement sends, as keyword arguments of ``send`` (a turn DM:
#: the player's own view and their first choices), or None for its words alone.
DirectMaker = Callable[[OutboxRecord], Awaitable[dict[str, Any] | None]]


class Poster(Protocol):
    """What the sender needs from the bot: a channel to post in, a DM to open."""

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None,
                                ) -> discord.PartialMessageable: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...


def backoff(attempts: int, retry_after: float | None = None) -> float:
    """Seconds to wait after the ``attempts``-th failed try (at least Discord's
    ``retry_after`` for a rate limit)."""
    wait = min(MAX_BACKOFF, FIRST_BACKOFF * 2 ** max(0, attempts - 1))
    return max(wait, retry_after or 0.0)


def unsent(row: OutboxRecord) -> int:
    """How many of the tries before this claim of ``row`` are known to have left no
    message under its nonce (refused outright, or made under an older nonce): the others
    may have, without Discord's answer reaching the sender (a 5xx, a timeout, a sender
    killed), and Discord gives such a message back when asked again under the nonce."""
    clear = (row.announcement.data or {}).get("clear", 0)
    return clear if isinstance(clear, int) else 0


@dataclass(frozen=True)
class Sender:
    """Who holds a lease: one sending process, by a name of its own, its pid and its mark
    (:func:`bot.health.process_mark`: what tells it from every other process of its
    machine, ``None`` where the system does not say)."""

    name: str
    pid: int
    mark: str | None

    @classmethod
    def here(cls) -> Sender:
        return cls(f"s{secrets.token_hex(8)}", os.getpid(), process_mark())


class Outbox:
    """Delivers the store's pending announcements through ``poster``, lane by lane."""

    def __init__(self, announcements: Announcements, poster: Poster,
                 clock: Callable[[], float] = time.time, *,
                 shows: Mapping[str, Show] | None = None,
                 directs: DirectMaker | None = None,
                 games: Mapping[str, Engine] | None = None,
                 sender: Sender | None = None) -> None:
        self.announcements = announcements
        self.poster = poster
        self.clock = clock
        self.shows = dict(shows or {})
        self.directs = directs
        if games is None:
            from bot.games import GAMES

            games = GAMES
        self.games = games
        self.sender = sender or Sender.here()
        self._wake = asyncio.Event()
        #: The lanes this process is delivering now, each with what its waiters wait on.
        self._busy: dict[str, asyncio.Event] = {}
        #: When each player was last pinged for a turn: ``(game, move, user)``.
        self._pinged: dict[tuple[int, int, int], float] = {}
        self._beat_at: float | None = None

    # ----------------------------------------------------------------- delivering

    async def deliver(self, channel_id: int | None = None, *,
                      lanes: Sequence[str] | None = None, hand: Any = None,
                      handlers_first: bool = False) -> int:
        """Post every announcement that is due now (only ``channel_id``'s lane, or
        ``lanes``, if given), each lane's in order; returns how many Discord accepted.

        A lane this process is delivering already is left to that delivery, and with
        ``handlers_first`` (the background loop) what a change queued in the last
        :data:`HANDLER_FIRST` seconds is left to the change's handler. Never raises for a
        failed post: the announcement stays queued and is retried after a back-off (see
        :meth:`run`).
        """
        if channel_id is not None:
            lanes = [*(lanes or ()), channel_lane(channel_id)]
        await self._beat()
        delivered = 0
        while True:
            now = self.clock()
            try:
                claimed = await self.announcements.claim(
                    now, lease=LEASE_SECONDS, owner=self.sender.name, lanes=lanes,
                    queued_before=now - HANDLER_FIRST if handlers_first else None)
            except StoreError:
                log.warning("could not read the outbox; trying again later", exc_info=True)
                return delivered
            if not claimed:
                return delivered
            mine = [row for row in claimed if row.lane not in self._busy]
            await self._release([row for row in claimed if row.lane in self._busy])
            for row in mine:
                self._busy[row.lane] = asyncio.Event()
            results = await asyncio.gather(*(self._post_holding(row, hand) for row in mine))
            accepted = sum(results)
            delivered += accepted
            if not accepted:
                return delivered
            # The lanes asked for are empty: no need to ask again (unless a refused DM just
            # queued its notice).
            if lanes is not None and not any(
                    row.more or row.announcement.kind == "dm" for row in mine):
                return delivered

    async def _post_holding(self, row: OutboxRecord, hand: Any) -> bool:
        try:
            return await self.post(row, hand)
        finally:
            self._free(row.lane)

    def _free(self, lane: str) -> None:
        done = self._busy.pop(lane, None)
        if done is not None:
            done.set()

    @contextlib.asynccontextmanager
    async def _holding(self, lane: str) -> AsyncIterator[None]:
        """Deliver ``lane`` alone in this process (other deliveries of it wait or leave
        it)."""
        while lane in self._busy:
            await self._busy[lane].wait()
        self._busy[lane] = asyncio.Event()
        try:
            yield
        finally:
            self._free(lane)

    def lease(self) -> Lease:
        """A lease in this sender's name on the board a change queues, taken in the
        change's own transaction (:class:`~bot.store.Lease`): its handler then gives
        :meth:`deliver_lane` the row claimed."""
        return Lease(self.sender.name, LEASE_SECONDS)

    async def deliver_lane(self, lane: str, hand: Any = None, *, queued: bool = False,
                           claimed: OutboxRecord | None = None) -> bool:
        """Deliver ``lane`` in order until it is empty (waiting a little for another
        sender holding it); False when an announcement in it was refused (it and the
        rest of the lane wait for its retry). A head waiting for its back-off is tried
        again at once: a new change is worth a new try. ``queued``: the caller has just
        queued something in ``lane``, so the first claim does not ask whether anything
        is due; ``claimed``: the lane's head, leased to this sender already (by the
        caller's change: :meth:`lease`), is posted first without a claim."""
        await self._beat()
        eager = True
        waited = 0.0
        async with self._holding(lane):
            while True:
                if claimed is not None:
                    rows, claimed = [claimed], None
                else:
                    try:
                        rows = await self.announcements.claim(
                            self.clock(), lease=LEASE_SECONDS, owner=self.sender.name,
                            lanes=[lane], limit=1, eager=eager, queued=queued)
                    except StoreError:
                        # Not Discord's refusal: the background sender delivers it later.
                        log.warning("could not read the outbox; trying again later",
                                    exc_info=True)
                        self.kick()
                        return True
                eager = queued = False
                if not rows:
                    if waited < WAIT_FOR_LANE and await self._held(lane):
                        pause = min(0.5, 0.05 * 2 ** int(waited / 0.5))
                        await asyncio.sleep(pause)
                        waited += pause
                        continue
                    return True
                (row,) = rows
                if not await self.post(row, hand):
                    return False
                if not row.more:
                    return True

    async def _held(self, lane: str) -> bool:
        """Whether another sender holds the head of ``lane`` under a running lease."""
        try:
            return await self.announcements.lane_leased(lane, self.clock())
        except StoreError:
            return False

    async def _release(self, rows: Sequence[OutboxRecord]) -> None:
        if not rows:
            return
        try:
            await self.announcements.release([row.id for row in rows])
        except StoreError:
            log.warning("could not give back announcements; their lease will run out",
                        exc_info=True)

    async def delivered(self, row: OutboxRecord, message_id: int | None,
                        follow: Sequence[Announcement] = ()) -> None:
        """A claimed announcement went out (in message ``message_id``), or has nothing
        left to show; ``follow`` is queued with the news."""
        try:
            await self.announcements.delivered(row.id, message_id, self.clock(), follow)
        except StoreError:
            # Posted but not marked: it is claimed again later and its nonce stops a
            # second post.
            log.warning("announcement %s was posted but could not be marked delivered", row.id,
                        exc_info=True)

    async def post(self, row: OutboxRecord, hand: Any = None) -> bool:
        """Deliver one claimed announcement and record how it went (``hand``: what the
        handler of its change has in hand); whether it is done."""
        kind = row.announcement.kind
        try:
            show = self.shows.get(kind)
            if show is not None:
                return await show(row, hand)
            sent_id = await self._send(row)
        except discord.HTTPException as exc:
            await self.failed(row, exc, getattr(exc, "status", 0) or 0,
                              getattr(exc, "retry_after", None))
            return False
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            await self.failed(row, exc, 0, None)
            return False
        await self.delivered(row, sent_id)
        return True

    async def _send(self, row: OutboxRecord) -> int | None:
        item = row.announcement
        if item.kind == "dm":
            return await self._direct(row)
        channel = self.poster.get_partial_messageable(item.channel_id, guild_id=item.guild_id)
        return (await channel.send(self.words(item), nonce=row.nonce,
                                   allowed_mentions=messages.only(item.mentions))).id

    def words(self, item: Announcement) -> str:
        """What ``item`` says, worded from its data now."""
        return messages.announcement(item, lambda slug: self.games[slug])

    async def _direct(self, row: OutboxRecord) -> int | None:
        """Send a ``dm`` announcement to its one user. Discord refusing it (the user closed
        their DMs) is final: the bot stops trying and says so once in the channel, where
        the player is still named by every ping."""
        item = row.announcement
        (user,) = item.mentions
        made = None
        if self.directs is not None:
            try:
                made = await self.directs(row)
            except Exception:
                # The words alone still reach the player.
                log.exception("could not make the direct message of announcement %s", row.id)
        try:
            channel = await self.poster.create_dm(discord.Object(id=user))
            if made is not None:
                return (await channel.send(**made, nonce=row.nonce)).id
            return (await channel.send(self.words(item), nonce=row.nonce,
                                       allowed_mentions=messages.NOBODY)).id
        except discord.Forbidden:
            log.info("user %s does not take direct messages; reaching them in channel %s",
                     user, item.channel_id)
            if await self.announcements.dm_refused(user, self.clock()):
                notice = Announcement(channel_id=item.channel_id, guild_id=item.guild_id,
                                      game_id=item.game_id, kind="notice",
                                      data={"dm_closed": user})
                await self.announcements.queue((notice,), self.clock())
            return None

    async def failed(self, row: OutboxRecord, exc: BaseException, status: int,
                     retry_after: float | None, **rewrite: Any) -> None:
        """Record a failed delivery of ``row``: given up when its place is gone, when
        Discord refused a DM, or after :data:`GIVE_UP_AFTER` of refusals; else due again
        after a back-off (``rewrite``: what of it went out meanwhile, see
        :meth:`~bot.store.outbox.Outbox.retry_announcement`)."""
        item = row.announcement
        now = self.clock()
        refused = 400 <= status < 500 and status != 429
        code = getattr(exc, "code", 0)
        error = f"{type(exc).__name__} {status or ''}: {exc}".strip()
        gone = code in (UNKNOWN_CHANNEL, UNKNOWN_GUILD)
        direct = row.lane.startswith("user:")
        try:
            if gone or (refused and direct) or (
                    (refused or direct) and now - row.created_at >= GIVE_UP_AFTER):
                log.log(logging.INFO if gone or direct else logging.ERROR,
                        "gave up announcement %s (%s) in channel %s after %s tries: %s",
                        row.id, item.kind, item.channel_id, row.attempts, error)
                await self.announcements.drop(row.id, error)
                return
            wait = backoff(row.attempts, retry_after)
            log.warning("could not post announcement %s (%s) in channel %s, try %s (%s); "
                        "trying again in %.0f s", row.id, item.kind, item.channel_id,
                        row.attempts, error, wait)
            if (refused or status == 429) and "data" not in rewrite and item.data is not None:
                # Discord did not carry it out: this try left no message behind.
                rewrite["data"] = {**item.data, "clear": unsent(row) + 1}
            await self.announcements.retry(row.id, now + wait, error, **rewrite)
        except StoreError:
            log.warning("could not reschedule announcement %s; its lease will run out", row.id,
                        exc_info=True)
        self.kick()

    # ----------------------------------------------------------------- pings

    def pingable(self, game_id: int | None, move: int, users: Iterable[int],
                 awaited: Iterable[int], *, again: bool = False) -> tuple[int, ...]:
        """Who of ``users``, handed move ``move`` of the game, a ping still reaches: those
        the game still waits for, unless already pinged for that same turn within
        :data:`PING_COOLDOWN` (``/game undo`` and the move again hand it over again); with
        ``again`` (a game going on after its place refused the bot), whoever it was."""
        now = self.clock()
        waiting = set(awaited)
        return tuple(u for u in dict.fromkeys(users) if u in waiting and (
            again or game_id is None
            or now - self._pinged.get((game_id, move, u), -PING_COOLDOWN) >= PING_COOLDOWN))

    def pinged(self, game_id: int | None, move: int, users: Iterable[int]) -> None:
        """Note that ``users`` were pinged for move ``move`` of the game."""
        if game_id is None:
            return
        now = self.clock()
        if len(self._pinged) > 10_000:
            self._pinged = {key: at for key, at in self._pinged.items()
                            if now - at < PING_COOLDOWN}
        for user in users:
            self._pinged[(game_id, move, user)] = now

    # ----------------------------------------------------------------- senders

    async def take_over(self) -> int:
        """Say this sender is alive, and forget the senders that are not: those silent for
        :data:`STALE_SECONDS`, and those whose process is known to have ended (of this
        machine and process namespace: a bot killed and started again in the same place
        takes its announcements over at once). Returns how many announcements they held,
        now free to claim."""
        now = self.clock()
        me = self.sender
        try:
            await self.announcements.beat(me.name, me.pid, me.mark, now)
            self._beat_at = now
            dead = [name for name, pid, mark, beat_at in await self.announcements.senders()
                    if name != me.name and (now - beat_at > STALE_SECONDS or ended(pid, mark))]
            released = await self.announcements.forget_senders(dead)
        except StoreError:
            log.warning("could not note this sender's heartbeat", exc_info=True)
            return 0
        if dead:
            log.info("took over %s held by %s sender(s) that stopped", released, len(dead))
            self.kick()
        return released

    async def _beat(self) -> None:
        if self._beat_at is None or self.clock() - self._beat_at >= BEAT_SECONDS:
            await self.take_over()

    async def close(self) -> None:
        """This sender stops: what it held is free for others at once."""
        try:
            await self.announcements.forget_senders([self.sender.name])
        except StoreError:
            log.warning("could not release this sender's announcements", exc_info=True)

    # ----------------------------------------------------------------- loops

    def kick(self) -> None:
        """Wake the background loop (something new may be due soon)."""
        self._wake.set()

    async def pending(self) -> int:
        """How many announcements wait to be delivered."""
        count, _due = await self.announcements.pending(self.clock())
        return count

    async def run(self) -> None:
        """The background loop: deliver what is due, then sleep until the next is due (or
        the next heartbeat). Its requests wait behind those of moves being answered
        (:mod:`~bot.discord.pacing`)."""
        with pacing.background():
            await self._run()

    async def _run(self) -> None:
        while True:
            await self._beat()
            await self.deliver(handlers_first=True)
            try:
                _count, due = await self.announcements.pending(
                    self.clock(), handlers_first=HANDLER_FIRST)
            except StoreError:
                due = None
            wait = BEAT_SECONDS if due is None else min(BEAT_SECONDS,
                                                        max(0.05, due - self.clock()))
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)

    async def drain(self, timeout: float) -> int:
        """Deliver what is due, retrying within ``timeout`` seconds (a clean stop calls
        this before closing); returns how many stay queued for the next start."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            await self.deliver()
            count, due = await self.announcements.pending(self.clock())
            left = deadline - loop.time()
            if count == 0 or due is None or left <= 0:
                return count
            await asyncio.sleep(min(left, max(0.05, due - self.clock())))
