"""The moves aggregate: a game's action log, written with the game's new state in one
transaction, and undone."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from bot.store.connection import Aggregate, Connection, Row
from bot.store.games import clock_values, fetch_game, finish_in_transaction, guarded_update
from bot.store.outbox import lease_queued, queue
from bot.store.records import (
    ACTION_COLUMNS,
    GAME_COLUMNS,
    ActionRecord,
    AlreadyDoneError,
    Announcement,
    ClockWrite,
    FinishRecord,
    GameRecord,
    Lease,
    MoveRecord,
    NotFoundError,
    SeatRecord,
    StoreError,
    action_records,
    check_int,
    dump_private,
    dump_seats,
    game_record,
)

#: How many of the log's last actions :meth:`Moves.trailing_run` reads first.
RUN_FIRST_READ = 6



class Moves(Aggregate):
    """A game's moves: committed (with the AI's replies, a finish, announcements), read
    back and undone."""

    async def commit_move(self, game_id: int, expected_version: int, *, state_json: str,
                          seat: int, user_id: int | None, notation: str, narration: str,
                          undoable: bool, now: float, turn_changed: bool,
                          next_reminder_at: float | None,
                          finish: FinishRecord | None = None, public: str = "",
                          before: str | None = None) -> GameRecord:
        """Log one action and store the new state in one transaction."""
        move = MoveRecord(seat, user_id, notation, narration, undoable, public, before=before)
        return await self.commit_moves(game_id, expected_version, (move,),
                                       state_json=state_json, now=now, turn_changed=turn_changed,
                                       next_reminder_at=next_reminder_at, finish=finish)

    async def commit_moves(self, game_id: int, expected_version: int, moves: Sequence[MoveRecord],
                           *, state_json: str, now: float, turn_changed: bool,
                           next_reminder_at: float | None,
                           finish: FinishRecord | None = None,
                           seats: Sequence[SeatRecord] | None = None,
                           announce: Sequence[Announcement] = (),
                           interaction_id: int | None = None,
                           clock: ClockWrite | None = None,
                           lease: Lease | None = None) -> GameRecord:
        """Log several actions (a move and the AI replies) and the final state at once.

        Raises :class:`ConflictError`, writing nothing, unless the game is still active
        at ``expected_version``. With ``turn_changed`` the turn clock restarts and the
        reminders are rescheduled to ``next_reminder_at``; otherwise they stay as they
        were. ``finish`` ends the game in the same transaction (see
        :meth:`~bot.store.games.Games.finish`);
        ``seats`` replaces every seat in it too (a seat handed to the AI and its reply),
        and ``announce`` queues its announcements in the outbox. ``interaction_id`` (the
        Discord interaction that asked for the move) is kept with the first action under
        a unique key: asking again raises :class:`AlreadyDoneError` and writes nothing.
        ``clock`` is the table's clocks as the moves leave them. With ``lease``, the board
        the handler delivers is leased to it in the same transaction (see :class:`Lease`).
        """
        if not moves:
            raise StoreError("There is no move to save.")
        assignments = "state_json = ?, updated_at = ?"
        params: list[Any] = [state_json, now]
        if clock is not None:
            assignments += ", clock = ?, clock_due_at = ?"
            params += clock_values(clock)
        if seats is not None:
            assignments += ", seats = ?"
            params.append(dump_seats(seats))
        if turn_changed:
            assignments += ", turn_started_at = ?, reminders_sent = 0, next_reminder_at = ?"
            params += [now, next_reminder_at]
        check_int(interaction_id, "interaction id")
        try:
            async with self.connector.transaction() as db:
                try:
                    # A finished game is changed again below: read back at the end.
                    updated = await guarded_update(
                        db, game_id, expected_version, ("active",), "play", assignments,
                        params, returning=finish is None)
                except StoreError:
                    # The game moved on: by this very interaction's move, delivered twice?
                    # (Asked only then, a move costs one round trip less; a twin that
                    # gets past the update is stopped by the unique interaction key.)
                    if interaction_id is not None:
                        await self._not_done(db, interaction_id)
                    raise
                await db.executemany(
                    "INSERT INTO actions (game_id, n, seat, user_id, notation, narration, at, "
                    "undoable, public, private, before, episode, interaction_id) VALUES (?, "
                    "(SELECT COALESCE(MAX(n), 0) + 1 FROM actions WHERE game_id = ?), ?, ?, ?, "
                    "?, ?, ?, ?, ?, ?, ?, ?)",
                    [(game_id, game_id, m.seat, m.user_id, m.notation, m.narration, now,
                      int(bool(m.undoable)), m.public, dump_private(m.private), m.before,
                      m.episode, interaction_id if i == 0 else None)
                     for i, m in enumerate(moves)])
                if finish is not None:
                    await finish_in_transaction(db, game_id, state_json, finish, now)
                nonces = await queue(db, announce, now)
                record = updated or await fetch_game(db, game_id)
                claimed = None if lease is None else await lease_queued(
                    db, announce, nonces, lease, now, record)
        except self.connector.integrity_errors:
            if interaction_id is None:
                raise
            # Another delivery of the same interaction committed its move first.
            raise AlreadyDoneError() from None
        if lease is not None:
            lease.claimed = claimed
        return record

    async def _not_done(self, db: Connection, interaction_id: int) -> None:
        """Raise :class:`AlreadyDoneError` if ``interaction_id`` already made a move."""
        if await db.execute_fetchall("SELECT 1 FROM actions WHERE interaction_id = ?",
                                     (interaction_id,)):
            raise AlreadyDoneError()

    async def game_for_move(self, interaction_id: int | None, *, channel_id: int | None = None,
                            game_id: int | None = None) -> tuple[GameRecord | None, bool]:
        """The game a move asks for (the game ``game_id`` in any status, else the lobby or
        game under way in ``channel_id``) and whether the interaction ``interaction_id``
        already made a move, in one read (a move makes one trip less). Only when there is
        no such game is the interaction looked up alone."""
        made = "EXISTS (SELECT 1 FROM actions WHERE interaction_id = ?)"
        where, key = (("id = ?", game_id) if game_id is not None else
                      ("channel_id = ? AND status IN ('lobby', 'active')", channel_id))
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                f"SELECT {GAME_COLUMNS}, {made} FROM games WHERE {where}",
                (interaction_id, key))
        if rows:
            return game_record(rows[0][:-1]), bool(rows[0][-1])
        return None, interaction_id is not None and await self.move_of(
            interaction_id) is not None

    async def move_of(self, interaction_id: int) -> tuple[int, int] | None:
        """The game and action number that the interaction ``interaction_id`` made, if any."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                "SELECT game_id, n FROM actions WHERE interaction_id = ?", (interaction_id,))
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def undo_last(self, game_id: int, expected_version: int, *, state_json: str,
                        now: float) -> GameRecord:
        """Delete the last action and store ``state_json`` as the state, atomically.

        The turn clock and reminder schedule are left as they were.
        """
        async with self.connector.transaction() as db:
            await guarded_update(db, game_id, expected_version, ("active",), "undo",
                                 "state_json = ?, updated_at = ?", (state_json, now))
            cursor = await db.execute(
                "DELETE FROM actions WHERE game_id = ? AND n = "
                "(SELECT MAX(n) FROM actions WHERE game_id = ?)", (game_id, game_id))
            if cursor.rowcount != 1:
                raise NotFoundError("undo")
            record = await fetch_game(db, game_id)
        return record

    async def undo_to(self, game_id: int, expected_version: int, *, n: int, state_json: str,
                      now: float, announce: Sequence[Announcement] = ()) -> GameRecord:
        """Delete action ``n`` and every later one, storing ``state_json`` (the state
        before ``n``), atomically, with ``announce`` queued. The turn clock and reminders
        are left as they were."""
        async with self.connector.transaction() as db:
            await guarded_update(db, game_id, expected_version, ("active",), "undo",
                                 "state_json = ?, updated_at = ?", (state_json, now))
            cursor = await db.execute("DELETE FROM actions WHERE game_id = ? AND n >= ?",
                                      (game_id, int(n)))
            if cursor.rowcount < 1:
                raise NotFoundError("undo")
            await queue(db, announce, now)
            record = await fetch_game(db, game_id)
        return record

    async def actions(self, game_id: int, last: int | None = None, *,
                      after: int | None = None) -> list[ActionRecord]:
        """The game's action log in order; ``last=k`` gives only the final ``k``,
        ``after=n`` only the actions numbered above ``n``."""
        query = f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ?"
        params: list[Any] = [game_id]
        if after is not None:
            query += " AND n > ?"
            params.append(int(after))
        query += " ORDER BY n DESC"
        if last is not None:
            query += " LIMIT ?"
            params.append(max(0, int(last)))
        async with self.connector.reading() as db, db.execute(query, params) as cursor:
            rows = await cursor.fetchall()
        return action_records(game_id, reversed(rows))

    async def trailing_run(self, game_id: int, episode: str, limit: int) -> list[ActionRecord]:
        """The actions at the end of the game's log whose episode key is ``episode`` (at most
        ``limit``), in order: what a board shows of the episode so far.

        Most runs are a move or two, so the last few rows are read first, and the rest only
        when all of those belong to the run; only the run's rows are parsed."""
        run: list[Row] = []
        async with self.connector.reading() as db:
            for batch in (min(limit, RUN_FIRST_READ), limit):
                rows = await db.execute_fetchall(
                    f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? "
                    "ORDER BY n DESC LIMIT ?", (game_id, batch))
                run = list(itertools.takewhile(lambda row: row[9] == episode, rows))
                if len(run) < len(rows) or len(rows) < batch:
                    break
        return action_records(game_id, reversed(run))

    async def snapshot(self, game_id: int, n: int) -> str | None:
        """The state text kept from before action ``n``, if one was kept."""
        async with self.connector.reading() as db, db.execute(
                "SELECT before FROM actions WHERE game_id = ? AND n = ?",
                (game_id, n)) as cursor:
            row = await cursor.fetchone()
        return None if row is None else row[0]
