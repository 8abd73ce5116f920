"""The announcement outbox's sender: posts what committed changes queued, until Discord
accepts it, exactly once and in order per channel.

A ping for the next player or a reminder is written to the store in the same
transaction as the change it announces (:class:`bot.store.Announcement`). This
sender claims the oldest pending announcement of each channel with a lease,
posts it with the announcement's nonce (discord.py then sets ``enforce_nonce``,
so a repeat after a lost answer returns the first message instead of posting a
second), and marks it delivered. A failure leaves it queued, due again after a
back-off; announcements still pending when the bot starts are sent at once.

Who calls it: every handler that committed a move delivers its channel's
announcements straight away (:meth:`Outbox.deliver`); :meth:`Outbox.run` is the
background loop that retries; :meth:`Outbox.drain` is for a clean stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

import aiohttp
import discord

from bot.discord import messages, pacing
from bot.games.engine import Game
from bot.store import Announcement, OutboxRecord, Store, StoreError

log = logging.getLogger(__name__)

#: How long a claimed announcement is left to its sender before another may try it.
LEASE_SECONDS = 120.0
#: The first wait after a failure; it doubles with each attempt, up to the cap.
FIRST_BACKOFF = 5.0
MAX_BACKOFF = 600.0
#: Discord refusing the announcement itself (missing permissions, a deleted channel)
#: is retried for this long, so an operator can fix it, then given up.
GIVE_UP_AFTER = 3600.0
#: How often the background loop looks even when nothing woke it.
POLL_SECONDS = 60.0


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


#: Posts the current board of a game for a claimed announcement (a ``board``, or a ping
#: that rides on one) and returns the message's id, or None when there is no board to
#: post any more (a newer board is on show).
BoardPoster = Callable[[OutboxRecord], Awaitable[int | None]]
#: The message a ``dm`` announcement sends, as keyword arguments of ``send`` (a turn DM:
#: the player's own view and their first choices), or None for its words alone.
DirectMaker = Callable[[OutboxRecord], Awaitable[dict[str, Any] | None]]


def rides_on_board(item: Announcement) -> bool:
    """Whether ``item`` is a queued board, or a hand-over ping meant to be carried by the
    new board of its move (not one pointing to an edited board, nor an older text row)."""
    data = item.data or {}
    return item.kind == "board" or (item.kind == "turn" and "shown" in data
                                    and not data.get("board"))


class Outbox:
    """Delivers the store's pending announcements through ``poster``.

    An announcement of kind ``"board"`` (a board Discord refused after a saved change),
    and a ping whose board was refused with it, are delivered by ``boards``, which draws
    the game's board as it stands then (a ping whose board is no longer needed goes out
    on its own).
    """

    def __init__(self, store: Store, poster: Poster,
                 clock: Callable[[], float] = time.time, *,
                 boards: BoardPoster | None = None,
                 directs: DirectMaker | None = None,
                 games: Mapping[str, Game] | None = None) -> None:
        self.store = store
        self.poster = poster
        self.clock = clock
        self.boards = boards
        self.directs = directs
        if games is None:
            from bot.games import GAMES

            games = GAMES
        self.games = games
        self._wake = asyncio.Event()

    async def deliver(self, channel_id: int | None = None) -> int:
        """Post every announcement that is due now (only ``channel_id``'s, if given),
        each channel's in order; returns how many Discord accepted.

        Never raises for a failed post: the announcement stays queued and is retried
        after a back-off (see :meth:`run`).
        """
        delivered = 0
        while True:
            try:
                claimed = await self.store.claim_announcements(
                    self.clock(), lease=LEASE_SECONDS, channel_id=channel_id)
            except StoreError:
                log.warning("could not read the outbox; trying again later", exc_info=True)
                return delivered
            if not claimed:
                return delivered
            results = await asyncio.gather(*(self.post(row) for row in claimed))
            accepted = sum(results)
            delivered += accepted
            if accepted < len(claimed) and channel_id is not None:
                return delivered
            if not accepted:
                return delivered
            # The channel's queue is empty: no need to ask again (unless a refused DM just
            # queued its notice).
            if channel_id is not None and not any(
                    row.more or row.announcement.kind == "dm" for row in claimed):
                return delivered

    async def deliver_until(self, channel_id: int, match: Callable[[OutboxRecord], bool],
                            superseded: Callable[[OutboxRecord], bool] = lambda row: False,
                            ) -> OutboxRecord | None:
        """Deliver ``channel_id``'s due announcements in order until the next one is one
        that ``match`` picks: that one is returned claimed and not posted (its caller posts
        it with a board, then calls :meth:`delivered`, or :meth:`post` should the board
        fail). Those that ``superseded`` picks are marked delivered unposted (a queued
        board the caller's newer board replaces). ``None`` when no such announcement is
        next (everything due was delivered, or one was refused and the rest wait behind
        it)."""
        while True:
            try:
                claimed = await self.store.claim_announcements(
                    self.clock(), lease=LEASE_SECONDS, channel_id=channel_id, limit=1)
            except StoreError:
                log.warning("could not read the outbox; trying again later", exc_info=True)
                return None
            if not claimed:
                return None
            row = claimed[0]
            if match(row):
                return row
            if superseded(row):
                await self.delivered(row, None)
            elif not await self.post(row):
                return None

    async def delivered(self, row: OutboxRecord, message_id: int | None) -> None:
        """A claimed announcement went out (with a board, in message ``message_id``)."""
        try:
            await self.store.announcement_delivered(row.id, message_id, self.clock())
        except StoreError:
            # Posted but not marked: the lease runs out and the nonce stops a second post.
            log.warning("announcement %s was posted but could not be marked delivered", row.id,
                        exc_info=True)

    async def post(self, row: OutboxRecord, *, alone: bool = False) -> bool:
        """Post one claimed announcement and record how it went; ``alone``: as a message
        of its own, even a ping that would ride on its board."""
        try:
            sent_id = await self._send(row, alone=alone)
        except discord.HTTPException as exc:
            await self._failed(row, exc, getattr(exc, "status", 0) or 0,
                               getattr(exc, "retry_after", None))
            return False
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            await self._failed(row, exc, 0, None)
            return False
        await self.delivered(row, sent_id)
        return True

    async def _send(self, row: OutboxRecord, *, alone: bool = False) -> int | None:
        item = row.announcement
        if self.boards is not None and rides_on_board(item) and not alone:
            sent_id = await self.boards(row)
            if sent_id is not None or item.kind == "board":
                return sent_id
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
            if await self.store.dm_refused(user, self.clock()):
                notice = Announcement(channel_id=item.channel_id, guild_id=item.guild_id,
                                      game_id=item.game_id, kind="notice",
                                      data={"dm_closed": user})
                await self.store.queue_announcements((notice,), self.clock())
            return None

    async def _failed(self, row: OutboxRecord, exc: BaseException, status: int,
                      retry_after: float | None) -> None:
        item = row.announcement
        now = self.clock()
        refused = 400 <= status < 500 and status != 429
        error = f"{type(exc).__name__} {status or ''}: {exc}".strip()
        try:
            if refused and now - row.created_at >= GIVE_UP_AFTER:
                log.error("gave up announcement %s (%s) in channel %s after %s tries: %s",
                          row.id, item.kind, item.channel_id, row.attempts, error)
                await self.store.drop_announcement(row.id, error)
                return
            wait = backoff(row.attempts, retry_after)
            log.warning("could not post announcement %s (%s) in channel %s, try %s (%s); "
                        "trying again in %.0f s", row.id, item.kind, item.channel_id,
                        row.attempts, error, wait)
            await self.store.retry_announcement(row.id, now + wait, error)
        except StoreError:
            log.warning("could not reschedule announcement %s; its lease will run out", row.id,
                        exc_info=True)
        self.kick()

    def kick(self) -> None:
        """Wake the background loop (something new may be due soon)."""
        self._wake.set()

    async def pending(self) -> int:
        """How many announcements wait to be delivered."""
        count, _due = await self.store.pending_announcements()
        return count

    async def run(self) -> None:
        """The background loop: deliver what is due, then sleep until the next is due.
        Its requests wait behind those of moves being answered (:mod:`~bot.discord.pacing`)."""
        with pacing.background():
            await self._run()

    async def _run(self) -> None:
        while True:
            await self.deliver()
            try:
                _count, due = await self.store.pending_announcements()
            except StoreError:
                due = None
            wait = POLL_SECONDS if due is None else min(POLL_SECONDS,
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
            count, due = await self.store.pending_announcements()
            left = deadline - loop.time()
            if count == 0 or due is None or left <= 0:
                return count
            await asyncio.sleep(min(left, max(0.05, due - self.clock())))
