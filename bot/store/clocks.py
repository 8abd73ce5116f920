"""The clocks aggregate: reminders due and claimed, the players' clocks charged, and the
stretches a bot ran (what a clock is not charged for)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from bot.store.connection import Aggregate
from bot.store.games import clock_values
from bot.store.outbox import queue
from bot.store.records import GAME_COLUMNS, Announcement, ClockWrite, GameRecord, readable

#: How long a stretch a bot ran is kept once two later stretches began (seconds).
UPTIME_KEPT = 30 * 86400



class Clocks(Aggregate):
    """Reminders, clocks and uptime."""

    async def due_reminders(self, now: float) -> list[GameRecord]:
        """Active games whose next reminder is due at ``now``, earliest first (not those
        whose place refuses the bot: see :meth:`~bot.store.games.Games.hold`).

        A damaged row is logged and skipped, so it cannot hold up other channels.
        """
        return await self._due("next_reminder_at", now, "skipping reminders for game %s: %s")

    async def _due(self, column: str, now: float, skipping: str) -> list[GameRecord]:
        """Active games not held whose ``column`` (a time) is due at ``now``, earliest
        first; a damaged row is logged (``skipping``) and left out."""
        async with self.connector.reading() as db, db.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' "
                f"AND {column} IS NOT NULL AND {column} <= ? "
                f"AND held IS NULL ORDER BY {column}, id", (now,)) as cursor:
            rows = await cursor.fetchall()
        return readable(rows, skipping)

    async def mark_reminded(self, game_id: int, expected_version: int, *, reminders_sent: int,
                            next_reminder_at: float | None,
                            announce: Sequence[Announcement] = (), now: float = 0.0) -> bool:
        """Claim a due reminder before sending it: True means send it, False means do not.

        ``announce`` (the reminder itself) is queued in the outbox, due at ``now``, only
        with a claim and in the same transaction, so it is delivered exactly once.

        The version is not bumped (buttons on the board stay valid), so the claim is
        guarded by the reminder columns instead. Only while the game is active at
        ``expected_version``:

        * if ``reminders_sent`` is exactly one more than the stored count, the count and
          schedule are updated and the call returns True. Of several callers (two bots,
          or one after a restart) that read the same count, only the first can make that
          step, so each reminder number is sent at most once;
        * if ``reminders_sent`` equals the stored count and ``next_reminder_at`` is None,
          the schedule is cleared (nothing is due any more) and the call returns False,
          because there is nothing to send.

        Anything else (a stale or skipped count, a changed version, a finished game)
        changes nothing and returns False.
        """
        async with self.connector.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET reminders_sent = ?, next_reminder_at = ? "
                "WHERE id = ? AND version = ? AND status = 'active' AND reminders_sent = ?",
                (reminders_sent, next_reminder_at, game_id, expected_version,
                 reminders_sent - 1))
            claimed = cursor.rowcount == 1
            if claimed:
                await queue(db, announce, now)
            if not claimed and next_reminder_at is None:
                await db.execute(
                    "UPDATE games SET next_reminder_at = NULL WHERE id = ? AND version = ? "
                    "AND status = 'active' AND reminders_sent = ?",
                    (game_id, expected_version, reminders_sent))
        return claimed

    async def postpone_reminder(self, game_id: int, expected_version: int, *,
                                reminders_sent: int, until: float) -> bool:
        """Move the due reminder to ``until`` without sending it (its players are in
        quiet hours); like :meth:`mark_reminded`, only while nothing else moved on."""
        async with self.connector.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET next_reminder_at = ? WHERE id = ? AND version = ? "
                "AND status = 'active' AND reminders_sent = ?",
                (until, game_id, expected_version, reminders_sent))
        return cursor.rowcount == 1

    async def due_clocks(self, now: float) -> list[GameRecord]:
        """Active games whose clocks are due a look at ``now`` (a reminder, time run out, a
        charge), earliest first, not those whose place refuses the bot (see
        :meth:`~bot.store.games.Games.hold`). A damaged row is logged and skipped."""
        return await self._due("clock_due_at", now, "skipping the clock of game %s: %s")

    async def set_clock(self, game_id: int, expected_version: int, clock: ClockWrite, *,
                        announce: Sequence[Announcement] = (), now: float = 0.0) -> bool:
        """Store the game's clocks as charged at ``now`` (with ``announce``, its low-time
        reminders, queued in the same write), only while it is active at
        ``expected_version`` and its clocks are still ``clock``'s predecessor as read (a
        move saved meanwhile wins); the version is not bumped, so buttons stay valid.
        Whether it was stored."""
        async with self.connector.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET clock = ?, clock_due_at = ? WHERE id = ? AND version = ? "
                "AND status = 'active'", (*clock_values(clock), game_id, expected_version))
            stored = cursor.rowcount == 1
            if stored:
                await queue(db, announce, now)
        return stored

    async def uptime_beat(self, now: float, outage: float) -> None:
        """Note that a bot is running at ``now``: the latest running stretch goes on to
        ``now``, or, when its last beat is more than ``outage`` seconds old (the bot was
        down meanwhile), a new stretch begins."""
        async with self.connector.transaction() as db:
            cursor = await db.execute(
                "UPDATE uptime SET beat_at = ? WHERE id = (SELECT MAX(id) FROM uptime) "
                "AND beat_at >= ? AND beat_at <= ?", (now, now - outage, now))
            if cursor.rowcount != 1:
                rows = await db.execute_fetchall(
                    "SELECT 1 FROM uptime WHERE id = (SELECT MAX(id) FROM uptime) "
                    "AND beat_at > ?", (now,))
                if not rows:
                    await db.execute("INSERT INTO uptime (started_at, beat_at) VALUES (?, ?)",
                                     (now, now))
                    # A running clock is charged at least hourly while a bot runs, so only
                    # the stretch before the latest outage is ever asked about; a month's
                    # margin keeps the table from growing with every restart.
                    await db.execute(
                        "DELETE FROM uptime WHERE beat_at < ? AND id < "
                        "(SELECT MAX(id) FROM uptime) - 1", (now - UPTIME_KEPT,))

    async def downtime(self, since: float, now: float, outage: float,
                       ) -> list[tuple[float, float]]:
        """The stretches between ``since`` and ``now`` when no bot was running: the gaps
        between running stretches, and the time since the last beat when that is more
        than ``outage`` seconds ago (none known when no bot ever beat)."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                "SELECT started_at, beat_at FROM uptime WHERE beat_at >= ? "
                "OR id = (SELECT MAX(id) FROM uptime WHERE beat_at < ?) ORDER BY started_at",
                (since, since))
        gaps: list[tuple[float, float]] = []
        stretches = [(float(a), float(b)) for a, b in rows]
        for (_, ended), (began, _) in itertools.pairwise(stretches):
            if began > ended:
                gaps.append((max(ended, since), min(began, now)))
        if stretches and now - stretches[-1][1] > outage:
            gaps.append((max(stretches[-1][1], since), now))
        return [(a, b) for a, b in gaps if b > a]
