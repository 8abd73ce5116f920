"""A write that fails at any statement, COMMIT included, changes nothing and leaves the
store working; the player is told plainly that the move was not saved."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games.engine import Engine
from bot.store import NotSavedError, Store, StoreBusyError, StoreError
from bot.tables import Tables
from tests.support.discord_harness import Session
from tests.support.faults import inject, statements_of_transaction
from tests.support.race_game import CandyRace

ALICE = 101
CHANNEL, GUILD = 55, 66


@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[Tables]:
    store = await Store.open(tmp_path / "tables.db")
    clock = iter(range(1_700_000_000, 1_800_000_000))
    yield Tables(store, {"candy-race": Engine(CandyRace())}, lambda: float(next(clock)))
    await store.close()


async def race_against_an_ai(tables: Tables) -> int:
    lobby = await tables.lobbies.open_lobby(channel_id=CHANNEL, guild_id=GUILD, game="candy-race",
                                            creator_id=ALICE, creator_name="Alice",
                                            options={"target": "30"})
    await tables.lobbies.add_ai(lobby.record.id, ALICE)
    await tables.lobbies.start(lobby.record.id, ALICE)
    return lobby.record.id


async def saved(tables: Tables, game_id: int) -> tuple[int, str | None, list[str]]:
    record = await tables.store.games.get_game(game_id)
    actions = await tables.store.moves.actions(game_id)
    return record.version, record.state_json, [a.notation for a in actions]


async def test_a_move_failing_at_any_statement_changes_nothing_and_the_next_one_saves(
        tables: Tables) -> None:
    game_id = await race_against_an_ai(tables)
    # A dry run counts the statements of one move: Alice's step and the AI's reply.
    dry = inject(tables.store)
    await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
    numbers = statements_of_transaction(dry)
    assert dry.statements[numbers[0] - 1] == "BEGIN IMMEDIATE"
    assert dry.statements[numbers[-1] - 1] == "COMMIT"
    assert len(numbers) >= 4
    for number in numbers:
        before = await saved(tables, game_id)
        faulty = inject(tables.store, {number})
        with pytest.raises(StoreError) as refused:
            await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
        assert faulty.failed, f"statement {number} was never reached"
        if faulty.failed[0].startswith("BEGIN"):
            assert isinstance(refused.value, StoreBusyError)
        else:
            assert isinstance(refused.value, NotSavedError), faulty.failed
        assert await saved(tables, game_id) == before, faulty.failed
        # The store is usable at once: the same move is saved on the next try.
        inject(tables.store)
        await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
        version, _state, log = await saved(tables, game_id)
        assert version == before[0] + 1 and len(log) == len(before[2]) + 2


async def test_a_failed_commit_whose_rollback_fails_too_reconnects(tables: Tables) -> None:
    game_id = await race_against_an_ai(tables)
    dry = inject(tables.store)
    await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
    commit = statements_of_transaction(dry)[-1]
    before = await saved(tables, game_id)
    faulty = inject(tables.store, {commit, commit + 1})
    with pytest.raises(NotSavedError):
        await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
    assert faulty.failed == ["COMMIT", "ROLLBACK"]
    assert await saved(tables, game_id) == before
    await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
    assert len((await saved(tables, game_id))[2]) == len(before[2]) + 2


async def test_a_player_whose_move_failed_to_save_is_told_it_was_not_saved(
        tmp_path: Path) -> None:
    session = await Session.open(tmp_path, {"candy-race": Engine(CandyRace())})
    try:
        await session.start("candy-race", humans=[ALICE], ai=1, target="30")
        state = await session.state()
        faulty = inject(session.bot.tables.store, fail_on="COMMIT")
        told = await session.play(ALICE, "step")
        assert faulty.failed == ["COMMIT"]
        assert told.ephemeral and "NOT saved" in told.content
        assert not [s for s in session.rec.public() if s.pngs]
        assert await session.state() == state
        inject(session.bot.tables.store)
        moved = await session.play(ALICE, "step")
        assert not moved.ephemeral and await session.state() != state
    finally:
        await session.close()


async def test_an_undo_or_a_lobby_change_whose_commit_fails_changes_nothing(
        tables: Tables) -> None:
    bob = 202
    lobby = await tables.lobbies.open_lobby(channel_id=CHANNEL, guild_id=GUILD, game="candy-race",
                                            creator_id=ALICE, creator_name="Alice")
    inject(tables.store, fail_on="COMMIT")
    with pytest.raises(NotSavedError):
        await tables.lobbies.join(lobby.record.id, bob, "Bob")
    assert (await tables.store.games.get_game(lobby.record.id)).seats == lobby.record.seats
    joined = await tables.lobbies.join(lobby.record.id, bob, "Bob")
    assert [s.user_id for s in joined.record.seats] == [ALICE, bob]

    game_id = lobby.record.id
    await tables.lobbies.start(game_id, ALICE)
    await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
    before = await saved(tables, game_id)
    inject(tables.store, fail_on="COMMIT")
    with pytest.raises(NotSavedError):
        await tables.moves.undo(CHANNEL, ALICE)
    assert await saved(tables, game_id) == before
    await tables.moves.undo(CHANNEL, ALICE)
    assert (await saved(tables, game_id))[2] == []


@pytest.mark.parametrize(("error", "said"), [("database or disk is full", NotSavedError),
                                             ("database is locked", StoreBusyError)])
async def test_a_write_of_one_statement_that_fails_changes_nothing_and_says_why(
        tables: Tables, error: str, said: type[StoreError]) -> None:
    game_id = await race_against_an_ai(tables)
    before = await tables.store.games.get_game(game_id)
    faulty = inject(tables.store, fail_on="UPDATE games SET board_message_id")
    faulty.error = error
    with pytest.raises(StoreError) as refused:
        await tables.store.games.set_board_message(game_id, 42)
    assert faulty.failed and isinstance(refused.value, said)
    assert await tables.store.games.get_game(game_id) == before
    await tables.store.games.set_board_message(game_id, 43)  # the store writes on
    assert (await tables.store.games.get_game(game_id)).board_message_id == 43
