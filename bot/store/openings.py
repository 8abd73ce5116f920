"""The openings aggregate: a lobby on its way to being shown (its card, its thread),
counted against its host's limits from its first step and taken over if its bot stops."""

from __future__ import annotations

from bot.store.connection import Aggregate
from bot.store.games import rematch_made
from bot.store.records import (
    OPENING_COLUMNS,
    OpeningRecord,
    RematchTakenError,
    check_int,
    opening_record,
)


class Openings(Aggregate):
    """Lobbies being opened, step by step."""

    async def begin_opening(self, *, guild_id: int | None, channel_id: int, creator_id: int,
                            game: str, now: float, threaded: bool = False,
                            rematch_of: int | None = None) -> OpeningRecord:
        """Note a lobby being opened in ``channel_id`` (``threaded``: with a card there
        and a thread of its own): from now on it counts against its host's and its
        server's limits (:meth:`~bot.store.games.Games.open_counts`). A rematch is refused with
        :class:`RematchTakenError` when ``rematch_of`` has one, or one being opened."""
        for value, what in ((guild_id, "server id"), (channel_id, "channel id"),
                            (creator_id, "user id")):
            check_int(value, what)
        if rematch_of is not None:
            taken = await rematch_made(self.connector, rematch_of)
            if taken is not None:
                raise RematchTakenError(*taken)
        try:
            async with self.connector.transaction() as db:
                rows = await db.execute_fetchall(
                    "INSERT INTO openings (guild_id, channel_id, creator_id, game, threaded, "
                    "rematch_of, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                    f"RETURNING {OPENING_COLUMNS}",
                    (guild_id, channel_id, creator_id, game, int(threaded), rematch_of, now,
                     now))
                if rematch_of is not None:
                    # Made while this one was checked: the rematch is there already.
                    made = await db.execute_fetchall(
                        "SELECT id, channel_id FROM games WHERE rematch_of = ?", (rematch_of,))
                    if made:
                        raise RematchTakenError(int(made[0][0]), int(made[0][1]))
        except self.connector.integrity_errors:
            raise RematchTakenError(None, None) from None
        return opening_record(rows[0])

    async def opening_step(self, opening_id: int, now: float, *, card_id: int | None = None,
                           thread_id: int | None = None) -> None:
        """Note a step of an opening done: its card posted, its thread started."""
        check_int(card_id, "message id")
        check_int(thread_id, "channel id")
        await self.connector.alone(
            "UPDATE openings SET card_id = COALESCE(?, card_id), "
            "thread_id = COALESCE(?, thread_id), updated_at = ? WHERE id = ?",
            (card_id, thread_id, now, opening_id))

    async def end_opening(self, opening_id: int) -> None:
        """The opening is over: its lobby is shown, or everything it made is taken back."""
        await self.connector.alone("DELETE FROM openings WHERE id = ?", (opening_id,))

    async def stale_openings(self, before: float) -> list[OpeningRecord]:
        """Openings no step of which was noted since ``before``: their bot stopped."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {OPENING_COLUMNS} FROM openings WHERE updated_at < ? ORDER BY id",
                (before,))
        return [opening_record(row) for row in rows]

    async def claim_opening(self, opening: OpeningRecord, now: float) -> bool:
        """Take a stale opening over to finish it or take it back: ``False`` when another
        bot took it (or noted a step) since it was read."""
        return await self.connector.alone(
            "UPDATE openings SET updated_at = ? WHERE id = ? AND updated_at = ?",
            (now, opening.id, opening.updated_at)) == 1
