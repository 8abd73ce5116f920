"""The announcements waiting to be delivered, for the outbox's sender.

What a change must show is queued with the change itself (:func:`bot.tables.core.showing`);
the sender (:mod:`bot.discord.outbox`) claims them lane by lane through this service, says
what Discord made of each, and keeps its leases alive. The times are the sender's own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.store import Announcement, OutboxRecord
from bot.tables.core import Pipeline


class Announcements:
    """The outbox's side of the store: claiming, delivering, retrying, its senders."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline
        self.store = pipeline.store

    async def claim(self, now: float, *, lease: float, owner: str | None = None,
                    channel_id: int | None = None, lanes: Sequence[str] | None = None,
                    limit: int = 50, eager: bool = False,
                    queued_before: float | None = None,
                    queued: bool = False) -> list[OutboxRecord]:
        """The heads of the lanes due now, leased to ``owner`` for ``lease`` seconds
        (``queued``: the caller just queued one there, so nobody asks first whether any is
        due)."""
        return await self.store.outbox.claim_announcements(
            now, lease=lease, owner=owner, channel_id=channel_id, lanes=lanes, limit=limit,
            eager=eager, queued_before=queued_before, queued=queued)

    async def lane_leased(self, lane: str, now: float) -> bool:
        return await self.store.outbox.lane_leased(lane, now)

    async def release(self, announcement_ids: Sequence[int]) -> None:
        """Give claimed announcements back, untried."""
        await self.store.outbox.release_announcements(announcement_ids)

    async def delivered(self, announcement_id: int, message_id: int | None, now: float,
                        follow: Sequence[Announcement] = ()) -> None:
        """Discord took it (as ``message_id``); what must follow it is queued with that."""
        await self.store.outbox.announcement_delivered(announcement_id, message_id, now, follow)

    async def retry(self, announcement_id: int, due_at: float, error: str, *,
                    mentions: Sequence[int] | None = None,
                    data: Mapping[str, Any] | None = None, renew: bool = False) -> None:
        await self.store.outbox.retry_announcement(announcement_id, due_at, error,
                                                   mentions=mentions, data=data, renew=renew)

    async def drop(self, announcement_id: int, error: str) -> None:
        """Its place is gone: it will never be delivered."""
        await self.store.outbox.drop_announcement(announcement_id, error)

    async def queue(self, announcements: Sequence[Announcement], now: float) -> None:
        await self.store.outbox.queue_announcements(announcements, now)

    async def dm_refused(self, user_id: int, now: float) -> bool:
        """Note that ``user_id`` takes no DMs; whether they should be told so now."""
        return await self.store.people.dm_refused(user_id, now)

    async def pending(self, now: float | None = None, *, handlers_first: float = 0.0,
                      ) -> tuple[int, float | None]:
        """How many wait, and when the next is due."""
        return await self.store.outbox.pending_announcements(now, handlers_first=handlers_first)

    async def beat(self, sender: str, pid: int, mark: str | None, now: float) -> None:
        """``sender`` is alive."""
        await self.store.outbox.sender_beat(sender, pid, mark, now)

    async def senders(self) -> list[tuple[str, int, str | None, float]]:
        return await self.store.outbox.senders()

    async def forget_senders(self, senders: Sequence[str]) -> int:
        """Forget stopped senders and free their leases; how many were freed."""
        return await self.store.outbox.forget_senders(senders)
