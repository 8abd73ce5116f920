"""The announcements aggregate: the outbox (queued in the transaction of the change
it announces, claimed by lanes under a lease, delivered or dropped) and the sending
processes that hold its leases."""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from bot.store.connection import Aggregate, Connection
from bot.store.records import (
    Announcement,
    GameRecord,
    Lease,
    OutboxRecord,
    channel_lane,
    check_int,
    dump_object,
)

#: A time after every other (what "every pending row" waits for).
FOREVER = 1e300
#: Which rows of a lane its head is taken from: a row that was tried (and waits for its
#: back-off) holds the rest, one that waits for its own time (a ping for a player away)
#: does not.
WAITING = "(i.attempts > 0 OR i.due_at <= ?)"


async def queue(db: Connection, announcements: Sequence[Announcement],
                now: float) -> list[str]:
    """Add ``announcements`` to the outbox inside the caller's transaction, each in its
    lane, due at once (or at their own ``due_at``); their nonces, in order."""
    nonces = [secrets.token_hex(8) for _ in announcements]
    if not announcements:
        return nonces
    await db.executemany(
        "INSERT INTO outbox (channel_id, guild_id, game_id, kind, content, mentions, nonce, "
        "created_at, due_at, data, lane) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(check_int(a.channel_id, "channel id"), check_int(a.guild_id, "server id"),
          a.game_id, a.kind, a.content, json.dumps([int(u) for u in a.mentions]),
          nonce, now, now if a.due_at is None else max(now, a.due_at),
          None if a.data is None else dump_object(a.data, "announcement"), a.lane)
         for a, nonce in zip(announcements, nonces, strict=True)])
    return nonces


async def lease_queued(db: Connection, announcements: Sequence[Announcement],
                       nonces: Sequence[str], lease: Lease, now: float,
                       game: GameRecord) -> OutboxRecord | None:
    """The last statement of the transaction that queued ``announcements`` (with
    ``nonces``) for a change to ``game``: the first of them due at once in the game's
    channel lane, leased to ``lease.owner`` and claimed as
    :meth:`Outbox.claim_announcements` would claim it, when nothing waits ahead of it in
    its lane (else ``None``: the handler claims the lane's head)."""
    lane = channel_lane(game.channel_id)
    first = next((k for k, a in enumerate(announcements)
                  if a.lane == lane and (a.due_at is None or a.due_at <= now)), None)
    if first is None:
        return None
    rows = await db.finish(
        "UPDATE outbox SET leased_until = ?, leased_by = ?, attempts = 1 "
        "WHERE lane = ? AND status = 'pending' AND nonce = ? AND NOT EXISTS ("
        "SELECT 1 FROM outbox i WHERE i.lane = outbox.lane AND i.status = 'pending' "
        f"AND i.id < outbox.id AND {WAITING}) RETURNING id, "
        "(SELECT COUNT(*) FROM outbox m WHERE m.lane = ? AND m.status = 'pending')",
        (now + lease.seconds, lease.owner, lane, nonces[first], now, lane))
    if not rows:
        return None
    ((row_id, pending),) = rows
    return OutboxRecord(int(row_id), announcements[first], nonces[first], now, 1,
                        more=int(pending) > 1, lane=lane, version=game.version,
                        shown=game.board_message_id)


class Outbox(Aggregate):
    """The outbox and its senders."""

    async def queue_announcements(self, announcements: Sequence[Announcement],
                                  now: float) -> None:
        """Add ``announcements`` to the outbox in a transaction of their own (for what is
        shown without a change, such as a board a player posts again)."""
        async with self.connector.transaction() as db:
            await queue(db, announcements, now)

    async def claim_announcements(self, now: float, *, lease: float, owner: str | None = None,
                                  channel_id: int | None = None,
                                  lanes: Sequence[str] | None = None, limit: int = 50,
                                  eager: bool = False,
                                  queued_before: float | None = None,
                                  queued: bool = False) -> list[OutboxRecord]:
        """Claim due announcements to post: the oldest pending one of each lane (of
        ``lanes``, or ``channel_id``'s lane, if given), unless a lease on it still runs.

        Each claimed row is leased to ``owner`` until ``now + lease``: until then no other
        sender (another task or process) claims it, and the later rows of its lane wait,
        so a lane's announcements go out one at a time and in order. A row waiting for its
        own ``due_at`` (a ping for a player away) does not hold its lane; a row waiting
        for its back-off after a failure does, and ``eager`` claims it before its back-off
        ends (a new change in the channel tries again at once). With ``queued_before``, a
        lane whose head was queued later and never tried is left alone (the handler of its
        change is delivering it), but for direct messages. The claimer must end the
        lease with :meth:`announcement_delivered`, :meth:`board_shown`,
        :meth:`retry_announcement`, :meth:`release_announcements` or
        :meth:`drop_announcement`; if it dies instead, its lease is ended by
        :meth:`forget_senders`, or runs out, and the row is claimed again (its nonce keeps
        Discord from posting it twice). ``queued``: the caller has just queued an
        announcement in these lanes (the handler of a change delivering it), so the read
        that asks first whether anything is due is skipped: it would find that one.
        """
        if channel_id is not None:
            lanes = [*(lanes or ()), channel_lane(channel_id)]
        where, params = "", []
        if lanes is not None:
            if not lanes:
                return []
            where = f"AND i.lane IN ({', '.join('?' for _ in lanes)}) "
            params = list(lanes)
        due = "(i.due_at <= ? OR i.attempts > 0)" if eager else "i.due_at <= ?"
        fresh, settled = "", []
        if queued_before is not None:
            fresh = "AND (o.attempts > 0 OR o.created_at <= ? OR o.lane LIKE 'user:%') "
            settled = [queued_before]
        # Most claims find nothing due (every board shown asks first): a read, which takes
        # no write lock and waits for no writer, says so without a transaction.
        if not queued:
            async with self.connector.reading() as db:
                if not await db.execute_fetchall(
                        f"SELECT 1 FROM outbox i WHERE i.status = 'pending' {where}"
                        f"AND {due} {fresh.replace('o.', 'i.')}LIMIT 1",
                        [*params, now, *settled]):
                    return []
        ready = "(o.due_at <= ? OR o.attempts > 0)" if eager else "o.due_at <= ?"
        async with self.connector.transaction() as db:
            # Each lane's head, read from the index of pending rows only (outbox_lanes): a
            # claim costs in proportion to what waits, not to the delivered announcements
            # kept for keep_days. Rows another process has locked (it is claiming them) are
            # skipped, not waited for; once it commits, their lease keeps them from being
            # claimed twice.
            rows = await db.execute_fetchall(
                    "SELECT o.id, o.channel_id, o.guild_id, o.game_id, o.kind, o.content, "
                    "o.mentions, o.nonce, o.created_at, o.attempts, o.data, o.lane, "
                    "(SELECT COUNT(*) FROM outbox m WHERE m.lane = o.lane "
                    "AND m.status = 'pending'), "
                    "EXISTS (SELECT 1 FROM outbox m WHERE m.lane = o.lane AND "
                    "m.status = 'pending' AND m.id > o.id AND o.kind IN ('board', 'card') "
                    "AND m.kind = o.kind AND m.game_id = o.game_id), "
                    "g.version, g.board_message_id FROM outbox o "
                    "LEFT JOIN games g ON g.id = o.game_id "
                    "WHERE o.status = 'pending' AND o.id IN (SELECT MIN(i.id) FROM outbox i "
                    f"WHERE i.status = 'pending' AND {WAITING} {where}GROUP BY i.lane) "
                    f"AND {ready} AND (o.leased_until IS NULL OR o.leased_until <= ?) "
                    f"{fresh}ORDER BY o.id LIMIT ?{self.connector.skip_locked}",
                    [now, *params, now, now, *settled, max(1, int(limit))])
            if rows:
                await db.executemany(
                    "UPDATE outbox SET leased_until = ?, leased_by = ?, attempts = attempts + 1 "
                    "WHERE id = ?", [(now + lease, owner, row[0]) for row in rows])
        out = []
        for (row_id, channel, guild, game_id, kind, content, mentions, nonce, created,
             attempts, data, lane, pending, superseded, version, shown) in rows:
            try:
                users = tuple(int(u) for u in json.loads(mentions))
            except (TypeError, ValueError):
                users = ()  # a damaged list pings nobody rather than blocking the lane
            try:
                said = json.loads(data) if data else None
            except (TypeError, ValueError):
                said = None  # worded as "damaged" rather than blocking the lane
            item = Announcement(channel_id=channel, guild_id=guild, game_id=game_id, kind=kind,
                                content=content, mentions=users, data=said)
            out.append(OutboxRecord(row_id, item, nonce, created, attempts + 1,
                                    more=int(pending) > 1, lane=str(lane),
                                    superseded=bool(superseded),
                                    version=None if version is None else int(version),
                                    shown=None if shown is None else int(shown)))
        return out

    async def announcement_delivered(self, announcement_id: int, message_id: int | None,
                                     now: float, follow: Sequence[Announcement] = ()) -> None:
        """Discord accepted the announcement (or it has nothing left to show): it is never
        sent again; ``follow`` is queued in the same transaction."""
        check_int(message_id, "message id")
        done = ("UPDATE outbox SET status = 'delivered', delivered_at = ?, message_id = ?, "
                "leased_until = NULL WHERE id = ? AND status = 'pending'")
        if not follow:
            await self.connector.alone(done, (now, message_id, announcement_id))
            return
        async with self.connector.transaction() as db:
            await db.executemany(done, [(now, message_id, announcement_id)])
            await queue(db, follow, now)

    async def board_shown(self, game_id: int, message_id: int, announcement_id: int,
                          now: float, follow: Sequence[Announcement] = ()) -> None:
        """A claimed board went out as message ``message_id``, in one transaction: the game
        notes it as its board on show, the announcement is delivered, and ``follow`` (what
        must come after a new board: the older one's buttons taken off, a finished game's
        thread archived) is queued."""
        check_int(message_id, "message id")
        async with self.connector.transaction() as db:
            # Nothing reads what these change: they go in one trip with the COMMIT.
            await db.executemany("UPDATE games SET board_message_id = ? WHERE id = ?",
                                 [(message_id, game_id)])
            await db.executemany(
                "UPDATE outbox SET status = 'delivered', delivered_at = ?, message_id = ?, "
                "leased_until = NULL WHERE id = ? AND status = 'pending'",
                [(now, message_id, announcement_id)])
            await queue(db, follow, now)

    async def retry_announcement(self, announcement_id: int, due_at: float, error: str, *,
                                 mentions: Sequence[int] | None = None,
                                 data: Mapping[str, Any] | None = None,
                                 renew: bool = False) -> None:
        """Posting failed: release the lease; the announcement is due again at ``due_at``.
        What went out of it meanwhile can be taken off: ``mentions`` and ``data`` replace
        its own, and ``renew`` gives it a new nonce (a ping sent alone under the old one
        leaves its board to post as a new message)."""
        assignments, params = "leased_until = NULL, due_at = ?, last_error = ?", [due_at,
                                                                                error[:500]]
        if mentions is not None:
            assignments += ", mentions = ?"
            params.append(json.dumps([int(u) for u in mentions]))
        if data is not None:
            assignments += ", data = ?"
            params.append(dump_object(data, "announcement"))
        if renew:
            assignments += ", nonce = ?"
            params.append(secrets.token_hex(8))
        await self.connector.alone(
            f"UPDATE outbox SET {assignments} WHERE id = ? AND status = 'pending'",
            (*params, announcement_id))

    async def release_announcements(self, announcement_ids: Sequence[int]) -> None:
        """Give back claimed announcements nobody tried to post (their lane was busy in
        this process): due as they were, the claim not counted as an attempt."""
        if not announcement_ids:
            return
        await self.connector.alone(
            f"UPDATE outbox SET leased_until = NULL, leased_by = NULL, attempts = attempts - 1 "
            f"WHERE id IN ({', '.join('?' for _ in announcement_ids)}) AND status = 'pending'",
            [int(i) for i in announcement_ids])

    async def drop_announcement(self, announcement_id: int, error: str) -> None:
        """Give the announcement up for good (Discord will never take it, or its place is
        gone), so the later ones of its lane can go."""
        await self.connector.alone(
            "UPDATE outbox SET status = 'dropped', leased_until = NULL, last_error = ? "
            "WHERE id = ? AND status = 'pending'", (error[:500], announcement_id))

    async def pending_announcements(self, now: float | None = None, *,
                                    handlers_first: float = 0.0,
                                    ) -> tuple[int, float | None]:
        """How many announcements wait to be delivered, and when the next can be claimed
        at the earliest (``None`` when none waits): each lane's head at its back-off or,
        while leased, when its lease runs out; a row waiting for its own time (a player
        away) at that time; with ``handlers_first``, a row never tried that many seconds
        after it was queued (see :meth:`claim_announcements`). Without ``now``, every
        pending row counts as waiting."""
        at = FOREVER if now is None else now
        async with self.connector.reading() as db, db.execute(
                "SELECT (SELECT COUNT(*) FROM outbox WHERE status = 'pending'), "
                f"MIN({self.connector.greatest}(o.due_at, COALESCE(o.leased_until, o.due_at), "
                "CASE WHEN o.attempts = 0 AND o.lane NOT LIKE 'user:%' THEN o.created_at + ? "
                "ELSE o.due_at END)) "
                "FROM outbox o WHERE o.status = 'pending' AND ("
                "o.id = (SELECT MIN(i.id) FROM outbox i WHERE i.lane = o.lane AND "
                f"i.status = 'pending' AND {WAITING}) "
                "OR (o.attempts = 0 AND o.due_at > ?))",
                (float(handlers_first), at, at)) as cursor:
            row = await cursor.fetchone()
        if row is None or not row[0] or row[1] is None:
            return (int(row[0]) if row is not None and row[0] else 0), None
        return int(row[0]), float(row[1])

    async def prune_announcements(self, before: float) -> int:
        """Delete announcements delivered or given up that were queued before ``before``."""
        async with self.connector.transaction() as db:
            cursor = await db.execute(
                "DELETE FROM outbox WHERE status <> 'pending' AND created_at < ?", (before,))
        return max(0, cursor.rowcount)

    async def sender_beat(self, sender: str, pid: int, mark: str | None, now: float) -> None:
        """Note that the sending process ``sender`` (``pid``, marked ``mark``: see
        :func:`bot.health.process_mark`) is alive at ``now``: its leases hold while its
        beat is fresh."""
        await self.connector.alone(
            "INSERT INTO senders (id, pid, mark, beat_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at",
            (sender, int(pid), mark, now))

    async def senders(self) -> list[tuple[str, int, str | None, float]]:
        """Every sending process known: ``(sender, pid, mark, latest beat)``."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall("SELECT id, pid, mark, beat_at FROM senders")
        return [(str(s), int(p), None if m is None else str(m), float(b))
                for s, p, m, b in rows]

    async def lane_leased(self, lane: str, now: float) -> bool:
        """Whether the head of ``lane`` is held by a sender's running lease."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                "SELECT 1 FROM outbox i WHERE i.lane = ? AND i.status = 'pending' AND "
                "i.leased_until > ? LIMIT 1", (lane, now))
        return bool(rows)

    async def forget_senders(self, senders: Sequence[str]) -> int:
        """Forget sending processes that stopped (or died): the announcements they held
        are released at once, due as they were, for any sender to claim. How many were
        released."""
        if not senders:
            return 0
        marks = ", ".join("?" for _ in senders)
        async with self.connector.transaction() as db:
            cursor = await db.execute(
                f"UPDATE outbox SET leased_until = NULL, leased_by = NULL "
                f"WHERE status = 'pending' AND leased_by IN ({marks})", list(senders))
            released = int(cursor.rowcount)
            await db.execute(f"DELETE FROM senders WHERE id IN ({marks})", list(senders))
        return released
