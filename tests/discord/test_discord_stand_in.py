"""The AI stand-in: after every reminder passed, an AI plays an absent player's seat, turn
after turn, marked as standing in, until the player is back (a click on "I'm back",
``/game back`` or any move of theirs)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from discord_harness import Session
from race_game import CandyDash

ALICE, BOB = 330000000000000001, 330000000000000002


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Session]:
    session = await Session.open(tmp_path, {"candy-dash": CandyDash()})
    yield session
    await session.close()


async def stood_in(table: Session) -> None:
    """Alice lets every reminder pass: the AI stands in for her."""
    await table.start("candy-dash", humans=(ALICE, BOB), reminder_hours=1.0, ai_takeover=True)
    for _ in range(4):
        table.clock.advance(1.01)
        await table.bot.send_due()


async def test_the_stand_in_plays_every_turn_of_the_absent_player_and_is_marked(
        table: Session) -> None:
    await stood_in(table)
    board = table.rec.last()
    assert "Player1** (AI standing in)" in board.content
    assert "🤖 An AI plays for" in board.content and "cb:k:" in " ".join(board.custom_ids)
    record = await table.bot.tables.store.open_game(table.channel_id)
    assert record is not None and [s.standing_in for s in record.seats] == [True, False]
    state = await table.state()
    assert state is not None and state["turn"] == 1, "Bob's turn after the stand-in's move"

    table.rec.clear()
    await table.play(BOB, "step")
    assert ALICE not in table.rec.notified_users(), "nobody pings a seat the AI plays"
    state = await table.state()
    assert state is not None and state["turn"] == 1, "the stand-in answered at once"
    lines = [line for line in table.rec.last().content.splitlines()
             if line.startswith("The AI, for")]
    assert lines, "the stand-in's moves are told as the AI's, for Alice"
    status = await table.command(BOB, "game", "status")
    assert "Next reminder" not in status.content or f"<@{ALICE}>" not in status.content


async def test_im_back_hands_the_seat_back_and_only_to_its_player(table: Session) -> None:
    await stood_in(table)
    board = table.rec.last()
    button = next(c for c in board.custom_ids if c.startswith("cb:k:"))
    refused = await table.click(BOB, board, button)
    assert refused.ephemeral and "No AI is standing in for you" in refused.content
    back = await table.click(ALICE, board, button)
    assert "Player1 is back" in back.content and "(AI standing in)" not in back.content
    record = await table.bot.tables.store.open_game(table.channel_id)
    assert record is not None and not any(s.standing_in for s in record.seats)
    await table.play(BOB, "step")
    state = await table.state()
    assert state is not None and state["turn"] == 0, "Alice plays her own turn again"


async def test_any_move_of_the_absent_player_takes_the_seat_back(table: Session) -> None:
    await stood_in(table)
    answer = await table.play(ALICE, "step")
    assert answer.ephemeral and "not your turn" in answer.content.lower()
    record = await table.bot.tables.store.open_game(table.channel_id)
    assert record is not None and not any(s.standing_in for s in record.seats)
    again = await table.command(ALICE, "game", "back")
    assert again.ephemeral and "your seat is yours" in again.content
