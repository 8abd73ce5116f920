"""The AI stand-in: after every reminder passed, an AI plays an absent player's seat, turn
after turn, marked as standing in, until the player is back (a click on "I'm back",
``/game back`` or any move of theirs)."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageFont

import renderers.common
from bot.games import GAMES
from bot.games.engine import Engine, View, loads
from bot.games.words import STANDING_IN, STANDING_IN_SHORT
from renderers import render
from tests.support.discord_harness import Sent, Session, UserOption, user_payload
from tests.support.race_game import CandyDash

ALICE, BOB = 330000000000000001, 330000000000000002


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Session]:
    session = await Session.open(tmp_path, {"candy-dash": Engine(CandyDash())})
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
    record = await table.bot.tables.store.games.open_game(table.channel_id)
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
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None and not any(s.standing_in for s in record.seats)
    await table.play(BOB, "step")
    state = await table.state()
    assert state is not None and state["turn"] == 0, "Alice plays her own turn again"


async def test_any_move_of_the_absent_player_takes_the_seat_back(table: Session) -> None:
    await stood_in(table)
    answer = await table.play(ALICE, "step")
    assert answer.ephemeral and "not your turn" in answer.content.lower()
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None and not any(s.standing_in for s in record.seats)
    again = await table.command(ALICE, "game", "back")
    assert again.ephemeral and "your seat is yours" in again.content


CAROL, DAN = 330000000000000003, 330000000000000004


async def vote(table: Session, voter: int, player: int, give: str) -> Sent:
    return await table.command(
        voter, "game", "vote", {"player": UserOption(player), "give": give},
        resolved={"users": {str(player): user_payload(player)}})


async def alice_stood_in_at_three(table: Session) -> None:
    """Alice, Bob and Carol play; Alice lets every reminder pass."""
    await table.start("candy-dash", humans=(ALICE, BOB, CAROL), reminder_hours=1.0,
                      ai_takeover=True)
    for _ in range(4):
        table.clock.advance(1.01)
        await table.bot.send_due()
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None and record.seats[0].standing_in


async def test_a_majority_of_the_others_gives_a_stood_in_seat_to_the_ai_for_good(
        table: Session) -> None:
    await alice_stood_in_at_three(table)
    first = await vote(table, BOB, ALICE, "ai")
    assert not first.ephemeral and "1 of the 2 votes" in first.content
    assert not first.notifies(), "a vote names, it pings nobody"
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None and record.seats[0].standing_in, "one vote of two carries not"

    carried = await vote(table, CAROL, ALICE, "ai")
    assert "gives Player1's seat to the AI for good" in carried.content
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None
    assert (record.seats[0].ai, record.seats[0].user_id) == (True, None)
    back = await table.command(ALICE, "game", "back")
    assert back.ephemeral and "No AI is standing in for you" in back.content


async def test_only_the_other_players_vote_and_only_on_a_stood_in_seat(
        table: Session) -> None:
    await alice_stood_in_at_three(table)
    for voter, player, said in ((ALICE, ALICE, "Only the other players"),
                                (DAN, ALICE, "Only the other players"),
                                (BOB, CAROL, "not up for a vote")):
        await vote(table, voter, player, "ai")
        (refusal,) = table.rec.messages_sent()
        assert refusal.ephemeral and not table.rec.public(), "private from the first byte"
        assert said in refusal.content
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None and record.seats[0].standing_in


async def test_coming_back_ends_the_vote_on_the_seat(table: Session) -> None:
    await alice_stood_in_at_three(table)
    await vote(table, BOB, ALICE, "ai")
    await table.command(ALICE, "game", "back")
    # Stood in for again later: Bob's old vote is gone, so Carol's alone does not carry.
    state = await table.state()
    while state is not None and state["turn"] != 0:
        await table.play((ALICE, BOB, CAROL)[state["turn"]], "step")
        state = await table.state()
    for _ in range(4):
        table.clock.advance(1.01)
        await table.bot.send_due()
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None and record.seats[0].standing_in
    again = await vote(table, CAROL, ALICE, "ai")
    assert "1 of the 2 votes" in again.content


async def test_a_seat_opened_by_vote_is_taken_by_a_newcomer(table: Session) -> None:
    await alice_stood_in_at_three(table)
    await vote(table, BOB, ALICE, "newcomer")
    opened = await vote(table, CAROL, ALICE, "newcomer")
    assert "opens Player1's seat for a new player" in opened.content
    taken_by_bob = await table.command(BOB, "game", "sit")
    assert taken_by_bob.ephemeral and "already have a seat" in taken_by_bob.content
    sat = await table.command(DAN, "game", "sit")
    assert "takes the open seat" in sat.content
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None
    assert (record.seats[0].user_id, record.seats[0].ai, record.seats[0].open) == (
        DAN, False, False)
    await table.command(ALICE, "game", "sit")
    (nobody,) = table.rec.messages_sent()
    assert nobody.ephemeral and "No seat is open" in nobody.content


async def test_an_open_seat_is_not_taken_past_the_games_one_person_may_sit_in(
        table: Session) -> None:
    from bot.limits import Limits

    await alice_stood_in_at_three(table)
    await vote(table, BOB, ALICE, "newcomer")
    await vote(table, CAROL, ALICE, "newcomer")
    table.bot.tables.pipeline.limits = Limits(games_per_person=1)
    elsewhere = table.channel_id + 500
    await table.gw.send(table.gw.command(DAN, "game", "new", {"game": "candy-dash"},
                                         channel_id=elsewhere))
    assert await table.bot.tables.store.games.open_game(elsewhere) is not None
    table.rec.clear()
    refused = await table.command(DAN, "game", "sit")
    assert refused.ephemeral and "You already sit in 1 game" in refused.content
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None and record.seats[0].open, "the seat stays open"


class DrawnNames:
    """A real renderer that keeps, for each picture, every text it drew."""

    def __init__(self) -> None:
        self.pictures: list[list[str]] = []
        self._lock = threading.Lock()

    def __call__(self, view: View) -> bytes:
        seen: list[str] = []
        real = ImageFont.FreeTypeFont.getmask2

        def spy(font: ImageFont.FreeTypeFont, text: str, *args: Any, **kwargs: Any) -> Any:
            seen.append(text)
            return real(font, text, *args, **kwargs)

        with self._lock:
            renderers.common._text_mask.cache_clear()  # so every text is drawn afresh
            ImageFont.FreeTypeFont.getmask2 = spy  # type: ignore[method-assign]
            try:
                png = render(view)
            finally:
                ImageFont.FreeTypeFont.getmask2 = real  # type: ignore[method-assign]
            self.pictures.append(seen)
        return png

    def marked(self, name: str) -> bool:
        """Whether the latest picture drew ``name`` with the stand-in's mark beside it."""
        return any(text.startswith(name) and (STANDING_IN in text or STANDING_IN_SHORT in text)
                   for text in self.pictures[-1])


async def test_a_stand_in_is_marked_on_the_board_and_in_the_narration(tmp_path: Path) -> None:
    pictures = DrawnNames()
    table = await Session.open(tmp_path, GAMES, renderer=pictures)
    try:
        await table.start("sugar-blast", humans=(ALICE, BOB), reminder_hours=1.0,
                          ai_takeover=True)
        assert not pictures.marked("Player1"), "no mark before anyone is stood in for"
        for _ in range(4):
            table.clock.advance(1.01)
            await table.bot.send_due()
        board = table.rec.last()
        assert board.pngs and pictures.marked("Player1"), "the picture marks the stand-in"
        assert not pictures.marked("Player2")
        assert "**Player1** (AI standing in)" in board.content

        record = await table.bot.tables.store.games.open_game(table.channel_id)
        assert record is not None
        game = GAMES["sugar-blast"]
        move = game.legal_actions(loads(record.state_json, game), 1)[0].notation
        table.rec.clear()
        await table.play(BOB, move)
        told = table.rec.public()[-1]
        assert any(line.startswith("The AI, for ") and "**Player1**," in line
                   for line in told.content.splitlines()), "the AI's move, for Player1"
        assert pictures.marked("Player1"), "every new board keeps the mark"
        log = await table.command(BOB, "game", "log", {"n": 3})
        assert "the AI for Player1" in log.content

        hand = await table.command(ALICE, "game", "hand")
        assert hand.ephemeral and "Since your last turn" in hand.content
        assert "The AI, for you," in hand.content, "her catch-up says the AI played for her"
        assert pictures.marked("Player1"), "her own picture shows the mark too"

        back = await table.command(ALICE, "game", "back")
        assert "(AI standing in)" not in back.content
        assert not pictures.marked("Player1"), "the mark goes when the seat is handed back"
    finally:
        await table.close()
