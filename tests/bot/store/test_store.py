"""The store on both backends (SQLite, PostgreSQL): schema, optimistic concurrency, logs,
results and reminders. Tests taking ``db_path`` are about the SQLite file itself."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

import bot.store.migrations as store_module
from bot.discord.words import refusal
from bot.store import (
    AlreadyDoneError,
    Announcement,
    ChannelBusyError,
    ConflictError,
    CorruptRowError,
    FinishRecord,
    GameRecord,
    Lease,
    MoveRecord,
    NotFoundError,
    NotSavedError,
    Reach,
    SeatRecord,
    StatLine,
    Store,
    StoreBusyError,
    StoreClosedError,
    StoreError,
    WrongStatusError,
    channel_lane,
)
from bot.store.moves import RUN_FIRST_READ
from bot.store.sqlite import CHECKPOINT_EVERY

CHANNEL = 1_234_567_890_123_456_789  # Discord ids are large: keep them realistic
GUILD = 987_654_321_098_765_432
ALICE, BOB = 111_111_111_111_111_111, 222_222_222_222_222_222
SEATS = (SeatRecord(0, ALICE, "Alice", False), SeatRecord(1, BOB, "Bob", False))
T0 = 1_700_000_000.0


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "candybot.db"


@pytest.fixture
async def store(db_target: str) -> AsyncIterator[Store]:
    opened = await Store.open(db_target)
    yield opened
    await opened.close()


async def lobby(store: Store, channel: int = CHANNEL, guild: int | None = GUILD,
                game: str = "sugar-blast", now: float = T0) -> GameRecord:
    return await store.games.create_lobby(channel_id=channel, guild_id=guild, game=game,
                                          creator_id=ALICE, options={"size": 8},
                                          settings={"reminder_hours": 24, "ai_takeover": False},
                                          now=now)


async def active(store: Store, channel: int = CHANNEL, guild: int | None = GUILD,
                 game: str = "sugar-blast", seats: tuple[SeatRecord, ...] = SEATS,
                 next_reminder_at: float | None = T0 + 3600) -> GameRecord:
    record = await lobby(store, channel, guild, game)
    record = await store.games.set_seats(record.id, record.version, seats, T0)
    return await store.games.start(record.id, record.version, seed=42, state_json='{"move": 0}',
                                   seats=seats, now=T0 + 1, next_reminder_at=next_reminder_at)


async def move(store: Store, record: GameRecord, notation: str = "a1", *,
               expected_version: int | None = None, now: float = T0 + 10,
               turn_changed: bool = True, next_reminder_at: float | None = T0 + 7200,
               finish: FinishRecord | None = None) -> GameRecord:
    return await store.moves.commit_move(
        record.id, record.version if expected_version is None else expected_version,
        state_json=f'{{"after": "{notation}"}}', seat=0, user_id=ALICE, notation=notation,
        narration=f"Alice plays {notation}.", undoable=True, now=now, turn_changed=turn_changed,
        next_reminder_at=next_reminder_at, finish=finish)


def corrupt(target: str, game_id: int, column: str, value: str) -> None:
    """Damage one column of a game row behind the store's back."""
    if target.startswith("postgresql://"):
        with psycopg.connect(target) as conn:
            conn.execute(f"UPDATE games SET {column} = %s WHERE id = %s", (value, game_id))
        return
    with sqlite3.connect(target) as raw:
        raw.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, game_id))
    raw.close()


def alice_wins() -> FinishRecord:
    return FinishRecord('{"winners": [0]}', [(ALICE, 0, 1, True), (BOB, 1, 2, False)])


# --------------------------------------------------------------------------- opening


async def test_open_creates_the_file_in_wal_mode_with_foreign_keys(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        assert db_path.exists()
        assert await store.connector.journal_mode() == "wal"
        assert await store.schema_version() == len(store_module.MIGRATIONS)
    finally:
        await store.close()
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    raw.close()


async def test_every_part_of_the_store_is_an_aggregate_over_its_one_connector(
        store: Store) -> None:
    from bot.store.connection import Aggregate

    parts = {name: part for name, part in vars(store).items() if name != "connector"}
    assert len(parts) == 10
    assert all(isinstance(part, Aggregate) and part.connector is store.connector
               for part in parts.values()), parts


async def test_a_move_never_stops_to_checkpoint_the_log_a_connection_of_its_own_does(
        db_path: Path) -> None:
    # SQLite's own checkpoint runs inside the commit that crosses 1,000 pages of log (an
    # fsync of the log and the file, on a move's path); the store's runs beside the moves.
    store = await Store.open(db_path)
    try:
        record = await active(store)
        before = db_path.stat().st_size
        big = "x" * 300_000  # some 73 pages a move: 20 moves cross SQLite's mark
        for n in range(20):
            record = await store.moves.commit_move(
                record.id, record.version, state_json=f'{{"pad": "{big}{n}"}}', seat=0,
                user_id=ALICE, notation=f"m{n}", narration="", undoable=True, now=T0 + n,
                turn_changed=True, next_reminder_at=None)
        assert db_path.stat().st_size == before  # every move is still only in the log
        for n in range(20, 20 + CHECKPOINT_EVERY):
            record = await move(store, record, f"m{n}", now=T0 + n)
            await asyncio.sleep(0.01)
            if db_path.stat().st_size > before:
                break
        assert db_path.stat().st_size > before  # copied into the file in the background
    finally:
        await store.close()


async def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(store.connector.integrity_errors):
        async with store.connector.transaction() as db:
            await db.execute("INSERT INTO actions (game_id, n, seat, notation, narration, at, "
                             "undoable) VALUES (999, 1, 0, 'x', '', 0, 0)")


async def test_close_is_idempotent_and_a_closed_store_refuses_politely(db_target: str) -> None:
    store = await Store.open(db_target)
    await store.close()
    await store.close()
    with pytest.raises(StoreError, match="closed"):
        await store.games.open_game(CHANNEL)


async def test_reopening_keeps_games_and_their_logs(db_target: str) -> None:
    store = await Store.open(db_target)
    record = await move(store, await active(store))
    await store.close()

    again = await Store.open(db_target)
    try:
        kept = await again.games.get_game(record.id)
        assert kept == record
        assert [a.notation for a in await again.moves.actions(record.id)] == ["a1"]
        assert await again.schema_version() == len(store_module.MIGRATIONS)
    finally:
        await again.close()


async def test_an_old_database_runs_only_the_new_migrations(
        db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = await Store.open(db_path)
    record = await lobby(first)
    await first.close()

    later = [*store_module.MIGRATIONS,
             """
             ALTER TABLE games ADD COLUMN note TEXT;
             CREATE TABLE seen (game_id INTEGER, at REAL);
             CREATE TRIGGER games_seen AFTER UPDATE ON games BEGIN
                 INSERT INTO seen (game_id, at) VALUES (new.id, new.updated_at);
             END;
             """]
    monkeypatch.setattr(store_module, "MIGRATIONS", later)
    upgraded = await Store.open(db_path)
    try:
        assert await upgraded.schema_version() == len(later)
        assert (await upgraded.games.get_game(record.id)) == record
        await upgraded.games.set_seats(record.id, record.version, SEATS, T0 + 5)
        async with upgraded.connector._conn().execute("SELECT game_id, at FROM seen") as cursor:
            assert await cursor.fetchall() == [(record.id, T0 + 5)]
    finally:
        await upgraded.close()
    # A third opening must not run the new migration again (CREATE TABLE would fail).
    third = await Store.open(db_path)
    assert await third.schema_version() == len(later)
    await third.close()


async def test_a_failing_migration_changes_nothing(
        db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = await Store.open(db_path)
    await first.close()
    broken = [*store_module.MIGRATIONS,
              "CREATE TABLE half_done (x INTEGER); SELECT * FROM no_such_table;"]
    monkeypatch.setattr(store_module, "MIGRATIONS", broken)
    with pytest.raises(sqlite3.OperationalError):
        await Store.open(db_path)
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == len(broken) - 1
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master")}
    raw.close()
    assert "half_done" not in tables


async def test_a_database_of_the_first_schema_keeps_its_log_after_migrating(
        db_path: Path) -> None:
    with sqlite3.connect(db_path) as raw:
        for statement in store_module.statements(store_module.MIGRATIONS[0]):
            raw.execute(statement)
        raw.execute("PRAGMA user_version = 1")
        raw.execute("INSERT INTO games (id, channel_id, game, status, creator_id, seats, "
                    "state_json, created_at, updated_at) VALUES (7, 1, 'sugar-blast', "
                    "'active', 1, '[]', '{}', 0, 0)")
        raw.execute("INSERT INTO actions (game_id, n, seat, user_id, notation, narration, at, "
                    "undoable) VALUES (7, 1, 0, 1, 'swap a1 a2', 'Alice swapped.', 5, 1)")
    raw.close()
    store = await Store.open(db_path)
    try:
        assert await store.schema_version() == len(store_module.MIGRATIONS)
        (old,) = await store.moves.actions(7)
        assert (old.notation, old.shown, old.narration) == ("swap a1 a2", "swap a1 a2",
                                                            "Alice swapped.")
        assert old.private == {} and old.episode is None and not old.snapshot
        assert await store.moves.snapshot(7, 1) is None
    finally:
        await store.close()


# --------------------------------------------------------------------------- lobbies


async def test_a_new_lobby_has_no_seats_and_version_one(store: Store) -> None:
    record = await lobby(store)
    assert (record.status, record.version, record.seats) == ("lobby", 1, ())
    assert record.channel_id == CHANNEL and record.guild_id == GUILD
    assert record.options == {"size": 8}
    assert record.settings == {"reminder_hours": 24, "ai_takeover": False}
    assert record.state_json is None and record.seed is None
    assert record.created_at == record.updated_at == T0
    assert await store.games.open_game(CHANNEL) == record
    assert await store.games.get_game(record.id) == record


async def test_one_open_game_per_channel(store: Store) -> None:
    first = await lobby(store)
    with pytest.raises(ChannelBusyError):
        await lobby(store)
    other = await lobby(store, channel=CHANNEL + 1)
    assert other.id != first.id
    await store.games.abort(first.id, T0 + 1)
    assert await store.games.open_game(CHANNEL) is None
    assert (await lobby(store)).status == "lobby"


async def test_a_finished_game_frees_its_channel(store: Store) -> None:
    record = await move(store, await active(store), finish=alice_wins())
    assert record.status == "finished"
    assert await store.games.open_game(CHANNEL) is None
    await lobby(store)


async def test_a_busy_channel_keeps_its_game_intact(store: Store) -> None:
    first = await active(store)
    with pytest.raises(ChannelBusyError):
        await lobby(store)
    assert await store.games.open_game(CHANNEL) == first


async def test_open_game_is_none_in_an_empty_channel(store: Store) -> None:
    assert await store.games.open_game(CHANNEL) is None


async def test_an_unknown_game_is_not_found(store: Store) -> None:
    with pytest.raises(NotFoundError) as refused:
        await store.games.get_game(404)
    assert "no longer exists" in refusal(refused.value)  # as the Discord layer says it


async def test_games_in_channel_lists_every_game_oldest_first(store: Store) -> None:
    first = await lobby(store)
    await store.games.abort(first.id, T0 + 1)
    second = await active(store)
    await lobby(store, channel=CHANNEL + 1)
    assert [g.id for g in await store.games.games_in_channel(CHANNEL)] == [first.id, second.id]


async def test_set_seats_replaces_every_seat_and_bumps_the_version(store: Store) -> None:
    record = await lobby(store)
    record = await store.games.set_seats(record.id, record.version, SEATS, T0 + 5)
    assert record.seats == SEATS and record.version == 2 and record.updated_at == T0 + 5
    ai = SeatRecord(1, None, "AI 1", True)
    record = await store.games.set_seats(record.id, record.version, (SEATS[0], ai), T0 + 6)
    assert record.seats == (SEATS[0], ai) and record.version == 3


async def test_set_seats_with_a_stale_version_conflicts_and_writes_nothing(store: Store) -> None:
    record = await lobby(store)
    await store.games.set_seats(record.id, record.version, SEATS[:1], T0)
    with pytest.raises(ConflictError):
        await store.games.set_seats(record.id, record.version, SEATS, T0)
    assert (await store.games.get_game(record.id)).seats == SEATS[:1]


async def test_two_players_cannot_share_a_seat(store: Store) -> None:
    record = await lobby(store)
    with pytest.raises(StoreError, match="share one seat"):
        await store.games.set_seats(record.id, record.version,
                                    (SEATS[0], SeatRecord(0, BOB, "Bob", False)), T0)
    assert (await store.games.get_game(record.id)).version == record.version


async def test_seats_cannot_be_set_once_the_game_started(store: Store) -> None:
    record = await active(store)
    with pytest.raises(WrongStatusError) as refused:
        await store.games.set_seats(record.id, record.version, SEATS[:1], T0)
    assert "already started" in refusal(refused.value)  # as the Discord layer says it


async def test_message_ids_are_kept_without_bumping_the_version(store: Store) -> None:
    record = await lobby(store)
    await store.games.set_lobby_message(record.id, 10**18 + 1)
    await store.games.set_board_message(record.id, 10**18 + 2)
    after = await store.games.get_game(record.id)
    assert (after.lobby_message_id, after.board_message_id) == (10**18 + 1, 10**18 + 2)
    assert after.version == record.version
    with pytest.raises(NotFoundError):
        await store.games.set_board_message(404, 1)


async def test_unsavable_options_are_refused_politely(store: Store) -> None:
    with pytest.raises(StoreError, match="could not be saved"):
        await store.games.create_lobby(
            channel_id=CHANNEL, guild_id=GUILD, game="g", creator_id=ALICE,
            options={"when": object()}, settings={}, now=T0)
    assert await store.games.open_game(CHANNEL) is None


# --------------------------------------------------------------------------- starting


async def test_start_makes_the_lobby_active_with_its_state(store: Store) -> None:
    record = await active(store)
    assert record.status == "active"
    assert (record.seed, record.state_json) == (42, '{"move": 0}')
    assert record.seats == SEATS
    assert (record.turn_started_at, record.reminders_sent, record.next_reminder_at) == (
        T0 + 1, 0, T0 + 3600)
    assert record.version == 3  # create, seats, start


async def test_a_lobby_starts_only_once(store: Store) -> None:
    record = await lobby(store)
    started = await store.games.start(record.id, record.version, seed=1, state_json="{}",
                                      seats=SEATS, now=T0, next_reminder_at=None)
    with pytest.raises(ConflictError):
        await store.games.start(record.id, record.version, seed=2, state_json="{}", seats=SEATS,
                                now=T0, next_reminder_at=None)
    with pytest.raises(WrongStatusError):
        await store.games.start(record.id, started.version, seed=2, state_json="{}", seats=SEATS,
                                now=T0, next_reminder_at=None)
    assert (await store.games.get_game(record.id)).seed == 1


async def test_a_seed_too_large_for_sqlite_is_refused(store: Store) -> None:
    record = await lobby(store)
    with pytest.raises(StoreError, match="too large"):
        await store.games.start(record.id, record.version, seed=2**64, state_json="{}", seats=SEATS,
                                now=T0, next_reminder_at=None)
    assert (await store.games.get_game(record.id)).status == "lobby"


# --------------------------------------------------------------------------- moves


async def test_a_move_stores_the_state_and_logs_who_and_when(store: Store) -> None:
    record = await active(store)
    after = await move(store, record, now=T0 + 50)
    assert after.version == record.version + 1
    assert after.state_json == '{"after": "a1"}'
    assert after.updated_at == T0 + 50
    [logged] = await store.moves.actions(record.id)
    assert logged.n == 1 and logged.seat == 0 and logged.user_id == ALICE
    assert (logged.notation, logged.narration) == ("a1", "Alice plays a1.")
    assert logged.at == T0 + 50 and logged.undoable is True


async def test_a_changed_turn_restarts_the_turn_clock_and_reminders(store: Store) -> None:
    record = await active(store)
    await store.clocks.mark_reminded(record.id, record.version, reminders_sent=1,
                                     next_reminder_at=T0 + 5000)
    record = await store.games.get_game(record.id)
    after = await move(store, record, now=T0 + 60, turn_changed=True, next_reminder_at=T0 + 999)
    assert (after.turn_started_at, after.reminders_sent, after.next_reminder_at) == (
        T0 + 60, 0, T0 + 999)


async def test_a_move_within_the_same_turn_keeps_the_reminder_schedule(store: Store) -> None:
    record = await active(store)
    after = await move(store, record, now=T0 + 60, turn_changed=False, next_reminder_at=None)
    assert (after.turn_started_at, after.reminders_sent, after.next_reminder_at) == (
        record.turn_started_at, 0, record.next_reminder_at)


async def test_a_stale_move_conflicts_and_writes_nothing(store: Store) -> None:
    record = await active(store)
    await move(store, record, "a1")
    with pytest.raises(ConflictError):
        await move(store, record, "b2")
    assert [a.notation for a in await store.moves.actions(record.id)] == ["a1"]
    assert (await store.games.get_game(record.id)).state_json == '{"after": "a1"}'


async def test_no_move_can_be_made_in_a_lobby_or_finished_game(store: Store) -> None:
    waiting = await lobby(store)
    with pytest.raises(WrongStatusError) as refused:
        await move(store, waiting)
    assert "not started" in refusal(refused.value)  # as the Discord layer says it
    done = await move(store, await active(store, channel=CHANNEL + 1), finish=alice_wins())
    with pytest.raises(WrongStatusError) as refused:
        await move(store, done)
    assert "over" in refusal(refused.value)  # as the Discord layer says it
    with pytest.raises(NotFoundError):
        await store.moves.commit_move(404, 1, state_json="{}", seat=0, user_id=None, notation="x",
                                      narration="", undoable=False, now=T0, turn_changed=False,
                                      next_reminder_at=None)


async def test_two_simultaneous_moves_on_one_store_let_exactly_one_win(store: Store) -> None:
    record = await active(store)
    outcomes = await asyncio.gather(move(store, record, "a1"), move(store, record, "b2"),
                                    return_exceptions=True)
    winners = [o for o in outcomes if isinstance(o, GameRecord)]
    losers = [o for o in outcomes if isinstance(o, ConflictError)]
    assert len(winners) == 1 and len(losers) == 1
    assert len(await store.moves.actions(record.id)) == 1
    assert (await store.games.get_game(record.id)).version == record.version + 1


async def test_two_simultaneous_moves_from_two_processes_let_exactly_one_win(
        db_path: Path) -> None:
    first, second = await Store.open(db_path), await Store.open(db_path)
    try:
        record = await active(first)
        outcomes = await asyncio.gather(move(first, record, "a1"), move(second, record, "b2"),
                                        return_exceptions=True)
        assert sorted(type(o).__name__ for o in outcomes) == ["ConflictError", "GameRecord"]
        logged = await second.moves.actions(record.id)
        assert len(logged) == 1
        winner = next(o for o in outcomes if isinstance(o, GameRecord))
        assert winner.state_json == f'{{"after": "{logged[0].notation}"}}'
    finally:
        await first.close()
        await second.close()


async def test_commit_moves_logs_a_move_and_its_ai_replies_at_once(store: Store) -> None:
    record = await active(store, seats=(SEATS[0], SeatRecord(1, None, "AI 1", True)))
    moves = [MoveRecord(0, ALICE, "a1", "Alice plays.", True),
             MoveRecord(1, None, "b2", "The AI plays.", False),
             MoveRecord(1, None, "c3", "The AI plays again.", False)]
    after = await store.moves.commit_moves(record.id, record.version, moves, state_json='{"n": 3}',
                                           now=T0 + 9, turn_changed=True, next_reminder_at=None)
    assert after.version == record.version + 1
    logged = await store.moves.actions(record.id)
    assert [(a.n, a.seat, a.user_id, a.notation, a.undoable) for a in logged] == [
        (1, 0, ALICE, "a1", True), (2, 1, None, "b2", False), (3, 1, None, "c3", False)]
    assert after.next_reminder_at is None


async def test_commit_moves_needs_at_least_one_move(store: Store) -> None:
    record = await active(store)
    with pytest.raises(StoreError, match="no move"):
        await store.moves.commit_moves(record.id, record.version, [], state_json="{}", now=T0,
                                       turn_changed=False, next_reminder_at=None)


async def test_a_winning_move_finishes_the_game_in_the_same_transaction(store: Store) -> None:
    record = await active(store)
    moves = [MoveRecord(0, ALICE, "a1", "", True), MoveRecord(1, BOB, "b2", "", True)]
    after = await store.moves.commit_moves(
        record.id, record.version, moves, state_json='{"end": 1}',
        now=T0 + 99, turn_changed=True, next_reminder_at=T0 + 500,
        finish=alice_wins())
    assert after.status == "finished"
    assert after.result_json == '{"winners": [0]}'
    assert after.state_json == '{"end": 1}'
    assert after.next_reminder_at is None
    assert after.version == record.version + 1
    assert len(await store.moves.actions(record.id)) == 2
    assert await store.ratings.stats(GUILD, ALICE) == [StatLine("sugar-blast", 1, 1)]


async def test_a_conflicting_winning_move_records_no_result(store: Store) -> None:
    record = await active(store)
    await move(store, record)
    with pytest.raises(ConflictError):
        await move(store, record, finish=alice_wins())
    assert await store.ratings.stats(GUILD, ALICE) == []
    assert (await store.games.get_game(record.id)).status == "active"


async def test_actions_last_gives_the_final_few_in_order(store: Store) -> None:
    record = await active(store)
    for notation in ("a1", "b2", "c3", "d4"):
        record = await move(store, record, notation)
    assert [a.notation for a in await store.moves.actions(record.id, last=2)] == ["c3", "d4"]
    assert [a.n for a in await store.moves.actions(record.id)] == [1, 2, 3, 4]
    assert await store.moves.actions(record.id, last=0) == []
    assert await store.moves.actions(404) == []


# --------------------------------------------------------------------------- undo and seats


async def test_undo_removes_the_last_action_and_stores_the_recomputed_state(
        store: Store) -> None:
    record = await active(store)
    record = await move(store, record, "a1")
    record = await move(store, record, "b2")
    after = await store.moves.undo_last(record.id, record.version, state_json='{"after": "a1"}',
                                        now=T0 + 70)
    assert after.version == record.version + 1 and after.updated_at == T0 + 70
    assert after.state_json == '{"after": "a1"}'
    assert [a.notation for a in await store.moves.actions(record.id)] == ["a1"]
    again = await move(store, after, "c3")
    assert [a.n for a in await store.moves.actions(again.id)] == [1, 2]


async def test_undo_with_nothing_logged_changes_nothing(store: Store) -> None:
    record = await active(store)
    with pytest.raises(NotFoundError) as refused:
        await store.moves.undo_last(record.id, record.version, state_json="{}", now=T0)
    assert "nothing to undo" in refusal(refused.value)  # as the Discord layer says it
    assert await store.games.get_game(record.id) == record


async def test_a_stale_undo_conflicts_and_keeps_the_log(store: Store) -> None:
    record = await active(store)
    moved = await move(store, record, "a1")
    await move(store, moved, "b2")
    with pytest.raises(ConflictError):
        await store.moves.undo_last(moved.id, moved.version, state_json="{}", now=T0)
    assert [a.notation for a in await store.moves.actions(record.id)] == ["a1", "b2"]


async def test_a_hidden_action_keeps_its_public_form_and_private_lines_apart(
        store: Store) -> None:
    record = await active(store)
    secret = MoveRecord(0, ALICE, "bid 3", "", True, public="placed a bid",
                        private={0: ["You bid 3."], 1: []}, before='{"move": 0}',
                        episode="round-1")
    await store.moves.commit_moves(record.id, record.version, (secret,), state_json='{"move": 1}',
                                   now=T0 + 5, turn_changed=False, next_reminder_at=None)
    (logged,) = await store.moves.actions(record.id)
    assert logged.notation == "bid 3" and logged.shown == "placed a bid"
    assert logged.lines_for(0) == ("You bid 3.",) and logged.lines_for(1) == ()
    assert logged.lines_for(None) == () and logged.episode == "round-1" and logged.snapshot
    assert await store.moves.snapshot(record.id, 1) == '{"move": 0}'


async def test_undo_to_restores_a_snapshot_and_drops_every_later_action(store: Store) -> None:
    record = await active(store)
    moves = [MoveRecord(s, ALICE if s == 0 else None, f"m{i}", "", True,
                        before=f'{{"move": {i}}}' if s == 0 else None)
             for i, s in enumerate((0, 1, 0, 1))]
    record = await store.moves.commit_moves(record.id, record.version, moves,
                                            state_json='{"move": 4}', now=T0 + 5,
                                            turn_changed=False, next_reminder_at=None)
    before = await store.moves.snapshot(record.id, 3)
    assert before == '{"move": 2}'
    undone = await store.moves.undo_to(record.id, record.version, n=3, state_json=before,
                                       now=T0 + 6)
    assert undone.state_json == '{"move": 2}' and undone.version == record.version + 1
    assert [a.notation for a in await store.moves.actions(record.id)] == ["m0", "m1"]
    with pytest.raises(ConflictError):
        await store.moves.undo_to(record.id, record.version, n=1, state_json="{}", now=T0 + 7)
    with pytest.raises(NotFoundError):
        await store.moves.undo_to(record.id, undone.version, n=9, state_json="{}", now=T0 + 7)


async def test_actions_after_a_number_are_those_made_since(store: Store) -> None:
    record = await active(store)
    for notation in ("a1", "b2", "c3"):
        record = await move(store, record, notation)
    assert [a.n for a in await store.moves.actions(record.id, after=1)] == [2, 3]
    assert [a.n for a in await store.moves.actions(record.id, last=1, after=1)] == [3]


async def test_a_finished_game_keeps_no_undo_snapshots(store: Store) -> None:
    record = await active(store)
    keep = MoveRecord(0, ALICE, "a1", "", True, before='{"move": 0}')
    record = await store.moves.commit_moves(record.id, record.version, (keep,),
                                            state_json='{"move": 1}', now=T0 + 5, turn_changed=True,
                                            next_reminder_at=None)
    await store.games.finish(record.id, record.version, state_json='{"move": 1}',
                             result_json="{}", placements=[(ALICE, 0, 1, True)], now=T0 + 6)
    assert await store.moves.snapshot(record.id, 1) is None
    assert not (await store.moves.actions(record.id))[0].snapshot


async def test_a_lobby_can_change_hands_with_its_seats(store: Store) -> None:
    record = await lobby(store)
    moved = await store.games.set_seats(record.id, record.version, SEATS[1:], T0 + 1,
                                        creator_id=BOB)
    assert moved.creator_id == BOB and moved.seats == SEATS[1:]
    kept = await store.games.set_seats(moved.id, moved.version, SEATS, T0 + 2)
    assert kept.creator_id == BOB


async def test_replace_seat_hands_one_seat_to_an_ai(store: Store) -> None:
    record = await active(store)
    ai = SeatRecord(1, None, "Bob (AI)", True)
    after = await store.games.replace_seat(record.id, record.version, ai, T0 + 3)
    assert after.seats == (SEATS[0], ai) and after.version == record.version + 1
    with pytest.raises(ConflictError):
        await store.games.replace_seat(record.id, record.version, ai, T0 + 4)
    with pytest.raises(NotFoundError) as refused:
        await store.games.replace_seat(record.id, after.version, SeatRecord(7, None, "X", True), T0)
    assert "no seat 8" in refusal(refused.value)  # as the Discord layer says it


# --------------------------------------------------------------------------- endings


async def test_finish_records_the_result_and_a_row_per_seat(store: Store) -> None:
    record = await active(store)
    done = await store.games.finish(record.id, record.version, state_json='{"over": true}',
                                    result_json='{"winners": [1]}',
                                    placements=[(ALICE, 0, 2, False), (BOB, 1, 1, True)],
                                    now=T0 + 80)
    assert (done.status, done.result_json, done.state_json) == (
        "finished", '{"winners": [1]}', '{"over": true}')
    assert done.next_reminder_at is None and done.version == record.version + 1
    assert await store.ratings.stats(GUILD, BOB) == [StatLine("sugar-blast", 1, 1)]
    assert await store.ratings.stats(GUILD, ALICE) == [StatLine("sugar-blast", 1, 0)]
    with pytest.raises(WrongStatusError) as refused:
        await store.games.finish(record.id, done.version, state_json="{}", result_json="{}",
                                 placements=[], now=T0)
    assert "over" in refusal(refused.value)  # as the Discord layer says it


async def test_abort_frees_the_channel_and_is_idempotent(store: Store) -> None:
    record = await active(store)
    await store.games.abort(record.id, T0 + 5)
    await store.games.abort(record.id, T0 + 6)
    after = await store.games.get_game(record.id)
    assert after.status == "aborted" and after.next_reminder_at is None
    assert after.version == record.version + 1
    assert await store.games.open_game(CHANNEL) is None
    assert await store.ratings.stats(GUILD, ALICE) == []
    with pytest.raises(ConflictError):
        await move(store, record)


async def test_a_finished_game_cannot_be_aborted(store: Store) -> None:
    done = await move(store, await active(store), finish=alice_wins())
    with pytest.raises(WrongStatusError) as refused:
        await store.games.abort(done.id, T0)
    assert "over" in refusal(refused.value)  # as the Discord layer says it
    with pytest.raises(NotFoundError):
        await store.games.abort(404, T0)


async def test_stats_count_finished_games_per_game_in_this_server_only(store: Store) -> None:
    await move(store, await active(store, channel=1), finish=alice_wins())
    await move(store, await active(store, channel=2), finish=FinishRecord(
        "{}", [(ALICE, 0, 2, False), (BOB, 1, 1, True)]))
    await move(store, await active(store, channel=3, game="candy-race"), finish=alice_wins())
    await move(store, await active(store, channel=4, guild=GUILD + 1), finish=alice_wins())
    await move(store, await active(store, channel=5, guild=None), finish=alice_wins())
    await active(store, channel=6)  # unfinished: does not count
    await store.games.abort((await active(store, channel=7)).id, T0)  # aborted: does not count
    assert await store.ratings.stats(GUILD, ALICE) == [StatLine("candy-race", 1, 1),
                                                       StatLine("sugar-blast", 2, 1)]
    assert await store.ratings.stats(GUILD + 1, ALICE) == [StatLine("sugar-blast", 1, 1)]
    assert await store.ratings.stats(None, ALICE) == [StatLine("sugar-blast", 1, 1)]
    assert await store.ratings.stats(GUILD, 333) == []


async def test_a_player_in_two_seats_counts_one_game(store: Store) -> None:
    both = (SeatRecord(0, ALICE, "Alice", False), SeatRecord(1, ALICE, "Alice 2", False))
    await move(store, await active(store, seats=both), finish=FinishRecord(
        "{}", [(ALICE, 0, 1, True), (ALICE, 1, 2, False)]))
    assert await store.ratings.stats(GUILD, ALICE) == [StatLine("sugar-blast", 1, 1)]


# --------------------------------------------------------------------------- reminders


async def test_due_reminders_are_active_games_whose_time_has_come(store: Store) -> None:
    soon = await active(store, channel=1, next_reminder_at=T0 + 100)
    sooner = await active(store, channel=2, next_reminder_at=T0 + 50)
    await active(store, channel=3, next_reminder_at=T0 + 500)
    await active(store, channel=4, next_reminder_at=None)
    gone = await active(store, channel=5, next_reminder_at=T0 + 10)
    await store.games.abort(gone.id, T0)
    await lobby(store, channel=6)
    assert [g.id for g in await store.clocks.due_reminders(T0 + 100)] == [sooner.id, soon.id]
    assert await store.clocks.due_reminders(T0) == []


async def test_a_reminder_claim_does_not_bump_the_version(store: Store) -> None:
    record = await active(store)
    assert await store.clocks.mark_reminded(record.id, record.version, reminders_sent=1,
                                            next_reminder_at=T0 + 9000)
    after = await store.games.get_game(record.id)
    assert (after.reminders_sent, after.next_reminder_at, after.version) == (
        1, T0 + 9000, record.version)
    await move(store, record)  # the board's buttons still work


async def test_each_reminder_is_sent_once_across_two_bots(db_target: str) -> None:
    first, second = await Store.open(db_target), await Store.open(db_target)
    try:
        record = await active(first, next_reminder_at=T0 + 10)
        [seen_by_first] = await first.clocks.due_reminders(T0 + 20)
        [seen_by_second] = await second.clocks.due_reminders(T0 + 20)
        claims = await asyncio.gather(
            first.clocks.mark_reminded(record.id, seen_by_first.version,
                                       reminders_sent=seen_by_first.reminders_sent + 1,
                                       next_reminder_at=T0 + 100),
            second.clocks.mark_reminded(record.id, seen_by_second.version,
                                        reminders_sent=seen_by_second.reminders_sent + 1,
                                        next_reminder_at=T0 + 101))
        assert sorted(claims) == [False, True]
        assert await first.clocks.due_reminders(T0 + 20) == []
        # The slower bot retrying later with what it read still loses.
        assert not await second.clocks.mark_reminded(record.id, seen_by_second.version,
                                                     reminders_sent=1, next_reminder_at=None)
        assert (await second.games.get_game(record.id)).reminders_sent == 1
    finally:
        await first.close()
        await second.close()


async def test_the_last_reminder_is_sent_once_even_when_it_clears_the_schedule(
        store: Store) -> None:
    record = await active(store, next_reminder_at=T0 + 10)
    claims = [await store.clocks.mark_reminded(record.id, record.version, reminders_sent=1,
                                               next_reminder_at=None) for _ in range(2)]
    assert claims == [True, False]
    assert await store.clocks.due_reminders(T0 + 10**6) == []


async def test_clearing_a_schedule_sends_nothing_and_stops_the_reminders(
        store: Store) -> None:
    record = await active(store, next_reminder_at=T0 + 10)
    assert not await store.clocks.mark_reminded(record.id, record.version, reminders_sent=0,
                                                next_reminder_at=None)
    assert await store.clocks.due_reminders(T0 + 10**6) == []
    assert (await store.games.get_game(record.id)).reminders_sent == 0


async def test_a_reminder_claim_after_a_move_is_refused(store: Store) -> None:
    record = await active(store, next_reminder_at=T0 + 10)
    await move(store, record, turn_changed=True, next_reminder_at=T0 + 50)
    assert not await store.clocks.mark_reminded(record.id, record.version, reminders_sent=1,
                                                next_reminder_at=T0 + 99)
    assert (await store.games.get_game(record.id)).next_reminder_at == T0 + 50


async def test_a_skipped_reminder_number_is_refused(store: Store) -> None:
    record = await active(store)
    assert not await store.clocks.mark_reminded(record.id, record.version, reminders_sent=2,
                                                next_reminder_at=T0 + 99)
    assert (await store.games.get_game(record.id)).reminders_sent == 0


# --------------------------------------------------------------------------- corrupt rows


@pytest.mark.parametrize(("column", "value", "what"), [
    ("options", "{not json", "unreadable options"),
    ("settings", "[1, 2]", "settings are not a mapping"),
    ("seats", '[{"seat": 0}]', "unreadable seats"),
    ("seats", "nonsense", "unreadable seats"),
])
async def test_a_damaged_row_gives_a_friendly_error(store: Store, db_target: str, column: str,
                                                    value: str, what: str) -> None:
    record = await active(store)
    corrupt(db_target, record.id, column, value)
    for read in (store.games.get_game(record.id), store.games.open_game(CHANNEL)):
        with pytest.raises(CorruptRowError) as caught:
            await read
        assert caught.value.game_id == record.id
        # The store says what is damaged; the Discord layer adds what to do about it.
        assert caught.value.what == what
        assert what in refusal(caught.value) and "/game abort" in refusal(caught.value)


async def test_a_damaged_row_can_still_be_aborted(store: Store, db_target: str) -> None:
    record = await active(store)
    corrupt(db_target, record.id, "seats", "{oops")
    with pytest.raises(CorruptRowError):
        await move(store, record)
    assert await store.moves.actions(record.id) == []
    await store.games.abort(record.id, T0)
    assert await store.games.open_game(CHANNEL) is None


async def test_a_damaged_row_does_not_hold_up_other_reminders(store: Store,
                                                              db_target: str) -> None:
    broken = await active(store, channel=1, next_reminder_at=T0)
    fine = await active(store, channel=2, next_reminder_at=T0)
    corrupt(db_target, broken.id, "options", "")
    assert [g.id for g in await store.clocks.due_reminders(T0)] == [fine.id]


def test_migration_scripts_split_into_whole_statements() -> None:
    script = """
        CREATE TABLE a (x TEXT DEFAULT ';');
        CREATE TRIGGER t AFTER INSERT ON a BEGIN SELECT 1; SELECT 2; END;
    """
    parts: list[Any] = store_module.statements(script)
    assert len(parts) == 2 and parts[1].endswith("END;")
    with pytest.raises(StoreError, match="incomplete"):
        store_module.statements("CREATE TRIGGER t AFTER INSERT ON a BEGIN SELECT 1;")


async def test_reach_reads_quiet_hours_vacations_and_notification_in_one_go(
        store: Store) -> None:
    carol = 333_333_333_333_333_333
    await store.people.set_quiet_hours(ALICE, ("Europe/Paris", 22, 7), T0)
    await store.people.add_vacation(ALICE, T0 + 100, T0 + 200, T0)
    await store.people.add_vacation(ALICE, T0 - 50, T0 + 50, T0)
    await store.people.add_vacation(ALICE, T0 - 300, T0 - 100, T0)  # over: not read
    await store.people.set_notify(ALICE, "quiet", T0)
    await store.people.set_notify(BOB, "dm", T0)
    await store.people.dm_refused(BOB, T0)  # Discord refused a DM: the channel it is
    users = [ALICE, BOB, carol]
    reach = await store.people.reach(users, ending_after=T0)
    assert reach == Reach({ALICE: ("Europe/Paris", 22, 7)},
                          {ALICE: [(T0 - 50, T0 + 50), (T0 + 100, T0 + 200)]},
                          {ALICE: "quiet", BOB: "channel"})
    assert reach == Reach(await store.people.quiet_hours(users),
                          await store.people.vacations(users, ending_after=T0),
                          await store.people.notify_modes(users))
    assert await store.people.reach([], ending_after=T0) == Reach({}, {}, {})


async def test_a_move_delivered_twice_is_saved_once_and_the_twin_told_so(
        store: Store) -> None:
    record = await active(store)
    moves = [MoveRecord(0, ALICE, "a1", "Alice plays.", True)]

    async def deliver(version: int) -> GameRecord:
        return await store.moves.commit_moves(record.id, version, moves, state_json='{"n": 1}',
                                              now=T0 + 5, turn_changed=True, next_reminder_at=None,
                                              interaction_id=77)

    saved = await deliver(record.version)
    # The twin read the game before the move was saved, or after it: either way it is
    # told the move is made, not that someone else moved, and it writes nothing.
    for version in (record.version, saved.version):
        with pytest.raises(AlreadyDoneError):
            await deliver(version)
    assert (await store.games.get_game(record.id)).version == saved.version
    assert [a.notation for a in await store.moves.actions(record.id)] == ["a1"]
    assert await store.moves.move_of(77) is not None


async def test_the_game_a_move_asks_for_is_read_with_whether_its_interaction_moved(
        store: Store) -> None:
    record = await active(store)
    await store.moves.commit_moves(record.id, record.version,
                                   [MoveRecord(0, ALICE, "a1", "Alice plays.", True)],
                                   state_json='{"n": 1}', now=T0 + 5, turn_changed=True,
                                   next_reminder_at=None, interaction_id=77)
    for where in ({"channel_id": CHANNEL}, {"game_id": record.id}):
        found, made = await store.moves.game_for_move(77, **where)  # type: ignore[arg-type]
        assert found is not None and found.id == record.id and made
        found, made = await store.moves.game_for_move(78, **where)  # type: ignore[arg-type]
        assert found is not None and not made
        assert (await store.moves.game_for_move(None, **where))[1] is False  # type: ignore[arg-type]
    # The move ended what the channel had under way: the twin is still known as made.
    await store.games.abort(record.id, T0 + 6)
    assert await store.moves.game_for_move(77, channel_id=CHANNEL) == (None, True)
    assert await store.moves.game_for_move(78, channel_id=CHANNEL) == (None, False)
    assert await store.moves.game_for_move(77, game_id=record.id + 99) == (None, True)


async def test_a_servers_lobbies_and_games_under_way_are_listed_and_no_others(
        store: Store) -> None:
    playing = await active(store)
    waiting = await lobby(store, channel=CHANNEL + 1)
    await active(store, channel=CHANNEL + 2, guild=GUILD + 1)  # another server's
    over = await active(store, channel=CHANNEL + 3)
    await move(store, over, finish=alice_wins())
    assert sorted(r.id for r in await store.games.open_games_of(GUILD)) == [playing.id, waiting.id]


async def test_a_servers_settings_are_kept_and_changed_on_every_backend(store: Store) -> None:
    assert await store.servers.server_settings(GUILD) == {}
    await store.servers.set_server_settings(GUILD, {"threads": False, "reminder_hours": 6.0}, T0)
    await store.servers.set_server_settings(GUILD, {"threads": True, "ai_takeover": False}, T0 + 1)
    assert await store.servers.server_settings(GUILD) == {"threads": True, "ai_takeover": False}
    assert await store.servers.server_settings(GUILD + 1) == {}


@pytest.mark.parametrize(("error", "said"), [
    (NotFoundError("game"), "That game no longer exists."),
    (NotFoundError("undo"), "There is nothing to undo yet."),
    (NotFoundError("seat", 7), "This game has no seat 8."),
    (WrongStatusError("finished", "play"), "This game is over, so you cannot play now."),
    (WrongStatusError("aborted", "abort"), "This game was ended early, so you cannot abort it"),
    (WrongStatusError("lobby", "undo"), "This game has not started yet, so you cannot undo"),
    (ChannelBusyError(), "This channel already has a game."),
    (ConflictError(), "already made by someone else"),
    (AlreadyDoneError(), "the request reached the bot twice"),
    (NotSavedError(), "NOT saved and nothing changed"),
    (StoreBusyError(), "busy; try again in a moment"),
    (StoreClosedError(), "The game store is closed."),
])
def test_each_store_error_a_person_can_meet_is_worded_by_the_discord_layer(
        error: StoreError, said: str) -> None:
    assert said in refusal(error)


async def test_a_claim_with_nothing_due_never_waits_for_another_processs_write(
        db_path: Path) -> None:
    """Every board shown first asks the outbox for its channel's announcements: when none
    is due, the answer is a read, which never queues behind another process's write."""
    store = await Store.open(db_path)
    try:
        later = Announcement(channel_id=CHANNEL, guild_id=GUILD, game_id=None, kind="notice",
                             content="in an hour", due_at=T0 + 3600)
        await store.outbox.queue_announcements([later], T0)
        other = sqlite3.connect(db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        try:
            for channel in (CHANNEL, None):
                assert await asyncio.wait_for(
                    store.outbox.claim_announcements(T0, lease=60, channel_id=channel), 2) == []
        finally:
            other.rollback()
            other.close()
        due = await store.outbox.claim_announcements(T0 + 3600, lease=60, channel_id=CHANNEL)
        assert [row.announcement.content for row in due] == ["in an hour"]
    finally:
        await store.close()


def shown_board(record: GameRecord) -> tuple[Announcement, Announcement]:
    """What a move of ``record`` queues: its board in the channel's lane, its card."""
    return (Announcement(channel_id=CHANNEL, guild_id=GUILD, game_id=record.id, kind="board",
                         data={"about": "board"}),
            Announcement(channel_id=CHANNEL, guild_id=GUILD, game_id=record.id, kind="card",
                         data={"card": 1}))


async def leasing_move(store: Store, record: GameRecord, lease: Lease,
                       now: float = T0 + 10) -> GameRecord:
    return await store.moves.commit_moves(
        record.id, record.version, [MoveRecord(0, ALICE, "a1", "Alice plays a1.", True)],
        state_json="{}", now=now, turn_changed=True, next_reminder_at=None,
        announce=shown_board(record), lease=lease)


async def test_a_move_leases_its_board_to_its_handler_in_its_own_transaction(
        store: Store) -> None:
    """The board a move queues is claimed by the move itself, for the handler that shows
    it: no other sender takes it while the lease runs, and once its holder is forgotten
    (it stopped or died) any sender claims it again, the same row under the same nonce."""
    record = await active(store)
    lease = Lease("handler", 60.0)
    saved = await leasing_move(store, record, lease)
    claimed = lease.claimed
    assert claimed is not None and claimed.announcement.kind == "board"
    assert (claimed.attempts, claimed.lane, claimed.more, claimed.superseded) == (
        1, channel_lane(CHANNEL), False, False)
    assert (claimed.version, claimed.shown) == (saved.version, saved.board_message_id)
    assert await store.outbox.claim_announcements(T0 + 11, lease=60, owner="other",
                                                  channel_id=CHANNEL) == []
    # Only the channel's board: the card waits in its own lane for whoever claims it.
    (card,) = await store.outbox.claim_announcements(T0 + 11, lease=60, owner="other")
    assert card.announcement.kind == "card"
    assert await store.outbox.forget_senders(["handler"]) == 1
    (again,) = await store.outbox.claim_announcements(T0 + 12, lease=60, owner="other",
                                                      channel_id=CHANNEL)
    assert (again.id, again.nonce, again.attempts) == (claimed.id, claimed.nonce, 2)


async def test_a_lease_runs_out_and_the_board_is_claimed_again(store: Store) -> None:
    record = await active(store)
    lease = Lease("handler", 60.0)
    await leasing_move(store, record, lease)
    assert lease.claimed is not None
    assert await store.outbox.claim_announcements(T0 + 69, lease=60,
                                                  channel_id=CHANNEL) == []
    (again,) = await store.outbox.claim_announcements(T0 + 70, lease=60, channel_id=CHANNEL)
    assert again.id == lease.claimed.id


async def test_a_move_leases_no_board_behind_an_announcement_its_lane_still_owes(
        store: Store) -> None:
    """A lane goes out in order: a board queued behind a notice that failed (and waits
    for its back-off) is not leased; the handler claims the lane's head, the notice."""
    record = await active(store)
    notice = Announcement(channel_id=CHANNEL, guild_id=GUILD, game_id=None, kind="notice",
                          content="first")
    await store.outbox.queue_announcements([notice], T0)
    (tried,) = await store.outbox.claim_announcements(T0 + 1, lease=60, channel_id=CHANNEL)
    await store.outbox.retry_announcement(tried.id, T0 + 600, "Discord said no")
    lease = Lease("handler", 60.0)
    await leasing_move(store, record, lease)
    assert lease.claimed is None
    (head,) = await store.outbox.claim_announcements(T0 + 11, lease=60, channel_id=CHANNEL,
                                                     eager=True, limit=1)
    assert head.id == tried.id and head.more


async def test_a_ping_waiting_for_a_player_away_does_not_keep_a_board_from_its_handler(
        store: Store) -> None:
    record = await active(store)
    later = Announcement(channel_id=CHANNEL, guild_id=GUILD, game_id=record.id, kind="turn",
                         mentions=(BOB,), due_at=T0 + 3600, data={"about": "turn"})
    await store.outbox.queue_announcements([later], T0)
    lease = Lease("handler", 60.0)
    await leasing_move(store, record, lease)
    assert lease.claimed is not None and lease.claimed.announcement.kind == "board"
    assert lease.claimed.more  # the ping still waits in the lane behind it


async def test_the_trailing_run_of_an_episode_is_the_logs_last_actions_in_it(
        store: Store) -> None:
    """What a board shows of the episode so far: the actions since the log last left it,
    however many the first read missed, and never more than asked for."""
    record = await active(store)
    episodes = ["turn-1", "turn-1", "turn-2", *["turn-3"] * (2 * RUN_FIRST_READ + 1)]
    moves = [MoveRecord(n % 2, ALICE if n % 2 == 0 else BOB, f"m{n}", f"Move {n}.", False,
                        episode=key) for n, key in enumerate(episodes)]
    record = await store.moves.commit_moves(record.id, record.version, moves, state_json="{}",
                                            now=T0 + 9, turn_changed=True, next_reminder_at=None)
    run = await store.moves.trailing_run(record.id, "turn-3", 50)
    assert [a.notation for a in run] == [f"m{n}" for n in range(3, len(episodes))]
    short = await store.moves.trailing_run(record.id, "turn-3", 4)
    assert [a.notation for a in short] == [f"m{n}" for n in range(len(episodes) - 4,
                                                                  len(episodes))]
    assert await store.moves.trailing_run(record.id, "turn-2", 50) == []  # not the log's end
    assert await store.moves.trailing_run(record.id + 99, "turn-3", 50) == []  # no such game
