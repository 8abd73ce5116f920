"""``/game leave`` hands a seat to the AI and saves the AI's reply together, or not at all;
an AI seat left to act is always moved on, at the latest by the reminder pass."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games.engine import Engine
from bot.store import NotSavedError, Store
from bot.tables import Board, Tables
from tests.support.discord_harness import Clock
from tests.support.faults import inject
from tests.support.race_game import CandyRace
from tests.support.refusing import told

ALICE, BOB = 101, 102
CHANNEL, GUILD = 55, 66



@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[Tables]:
    store = await Store.open(tmp_path / "tables.db")
    yield Tables(store, {"candy-race": Engine(CandyRace())}, Clock())
    await store.close()


async def race(tables: Tables, *, bob: bool = True, ai: int = 0) -> int:
    """A started Candy Race in which Alice (seat 1) moves first."""
    lobby = await tables.lobbies.open_lobby(channel_id=CHANNEL, guild_id=GUILD, game="candy-race",
                                            creator_id=ALICE, creator_name="Alice",
                                            options={"target": "30"}, reminder_hours=1.0)
    if bob:
        await tables.lobbies.join(lobby.record.id, BOB, "Bob")
    for _ in range(ai):
        await tables.lobbies.add_ai(lobby.record.id, ALICE)
    await tables.lobbies.start(lobby.record.id, ALICE)
    return lobby.record.id


async def stored(tables: Tables, game_id: int) -> tuple[object, ...]:
    record = await tables.store.games.get_game(game_id)
    actions = await tables.store.moves.actions(game_id)
    return (record.version, record.status, record.seats, record.state_json,
            [(a.seat, a.notation) for a in actions])


@pytest.mark.parametrize("failing", ["INSERT INTO actions", "COMMIT"])
async def test_a_hand_over_whose_ai_reply_fails_to_save_changes_nothing(
        tables: Tables, failing: str) -> None:
    game_id = await race(tables)
    before = await stored(tables, game_id)
    faulty = inject(tables.store, fail_on=failing)
    with pytest.raises(NotSavedError):
        await tables.leaving.concede(CHANNEL, ALICE)
    assert faulty.failed and faulty.failed[0].startswith(failing)
    assert await stored(tables, game_id) == before
    record = await tables.store.games.get_game(game_id)
    assert [(s.user_id, s.ai) for s in record.seats] == [(ALICE, False), (BOB, False)]

    # Leaving again works, and the AI that took the seat has already moved.
    conceded = await tables.leaving.concede(CHANNEL, ALICE)
    record = await tables.store.games.get_game(game_id)
    assert [(s.name, s.ai) for s in record.seats] == [("Alice (AI)", True), ("Bob", False)]
    actions = await tables.store.moves.actions(game_id)
    assert [(a.seat, a.by_ai) for a in actions] == [(0, True)]
    assert conceded.board.to_act == (1,) and conceded.board.mentions == (BOB,)


async def test_the_last_human_leaving_ends_the_game_with_the_seat_change_or_not_at_all(
        tables: Tables) -> None:
    game_id = await race(tables, bob=False, ai=1)
    before = await stored(tables, game_id)
    inject(tables.store, fail_on="INSERT INTO results")
    with pytest.raises(NotSavedError):
        await tables.leaving.concede(CHANNEL, ALICE)
    assert await stored(tables, game_id) == before
    conceded = await tables.leaving.concede(CHANNEL, ALICE)
    record = await tables.store.games.get_game(game_id)
    assert record.status == "finished" and conceded.board.finished
    assert all(s.ai for s in record.seats)


async def test_an_ai_seat_left_to_act_is_moved_on_by_the_reminder_pass(tables: Tables) -> None:
    game_id = await race(tables)
    record = await tables.store.games.get_game(game_id)
    # As an older bot could leave it: Alice's seat handed over, but no reply saved.
    alice = record.seats[0]
    await tables.store.games.replace_seat(game_id, record.version,
                                          type(alice)(0, None, "Alice (AI)", True), tables.clock())
    assert await tables.reminders.due() == []
    tables.clock.advance(1.01)  # type: ignore[attr-defined]
    [board] = await tables.reminders.due()
    assert isinstance(board, Board)
    assert [(s.seat, s.by_ai) for s in board.steps] == [(0, True)]
    assert board.to_act == (1,) and board.mentions == (BOB,)
    assert told(board) == "Alice (AI) had not played yet; the game goes on now."
    assert [a.seat for a in await tables.store.moves.actions(game_id)] == [0]
