"""AI seats at the level the host picks: set in the lobby, shown with the seat's name,
and played at; the stand-in for an absent player plays at the table's stand-in level."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

import bot.games
from bot.games.engine import Action, Engine, State, ai
from tests.support.discord_harness import Session
from tests.support.race_game import CandyDash

ALICE, BOB = 370000000000000001, 370000000000000002


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The level of every AI move asked of the engine, in order."""
    levels: list[str] = []
    real = ai.ai_action

    def recording(game: Any, state: State, seat: int, level: str = "normal") -> Action:
        levels.append(level)
        return real(game, state, seat, level)

    monkeypatch.setattr(ai, "ai_action", recording)
    return levels


@pytest.fixture
async def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Session]:
    monkeypatch.setitem(bot.games.GAMES, "candy-dash", Engine(CandyDash()))
    opened = await Session.open(tmp_path, bot.games.GAMES)
    yield opened
    await opened.close()


async def test_the_host_sets_an_ai_seats_level_and_it_shows_and_plays_at_it(
        table: Session, asked: list[str]) -> None:
    lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash", "target": 6})
    await table.click(ALICE, lobby, ":ai")
    menu = next(c for row in table.rec.message(lobby.message_id or 0)["components"]
                for c in row["components"] if c["custom_id"].startswith("cb:ll:"))
    assert {o["value"] for o in menu["options"]} == {"s1:easy", "s1:strong"}
    refused = await table.click(BOB, lobby, menu["custom_id"], values=["s1:easy"])
    assert refused.ephemeral and "host" in refused.content
    changed = await table.click(ALICE, lobby, menu["custom_id"], values=["s1:easy"])
    assert "AI 1 · easy" in changed.content
    board = await table.click(ALICE, lobby, ":start")
    assert "AI 1 · easy" in board.content, "the level shows wherever the seat's name does"
    for _ in range(3):
        await table.play(ALICE, "step")
    assert asked and set(asked) == {"easy"}


async def test_the_stand_in_for_an_absent_player_plays_at_its_strongest(
        table: Session, asked: list[str]) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB), target=8)
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None
    assert "at its strong level" in table.rec.message(record.lobby_message_id or 0)["content"]
    # Bob lets every reminder pass: the AI stands in for him.
    for _ in range(4):
        table.clock.advance(25)
        await table.bot.send_due()
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None and any(s.standing_in for s in record.seats)
    assert "strong" in asked


async def test_the_stand_in_says_why_it_moved_where_it_is_cheap_to_say(
        table: Session) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB), target=20)
    for _ in range(4):
        table.clock.advance(25)
        await table.bot.send_due()
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None
    stood = [s.seat for s in record.seats if s.standing_in]
    assert stood
    moves = [a for a in await table.bot.tables.store.moves.actions(record.id)
             if a.user_id is None and a.seat in stood]
    assert moves and all("It chose this move to score" in a.narration for a in moves)


async def test_ai_moves_are_chosen_by_the_thinker_the_bot_draws_with(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, asked: list[str]) -> None:
    """With a pool of workers (anything that draws and also runs the rules' work), AI seats
    think there."""
    from tests.support.discord_harness import fake_render

    class Pool:
        def __init__(self) -> None:
            self.thought: list[str] = []

        def __call__(self, view: Any) -> bytes:
            return fake_render(view)

        def work(self, work: Callable[[Any], Any], job: Any) -> Any:
            """The work "in a worker": the AI moves asked meanwhile were asked there."""
            before = len(asked)
            done = work(job)
            self.thought += asked[before:]
            return done

        def run_now(self, work: Callable[[Any], Any], job: Any) -> Any:
            return self.work(work, job)

        async def offload(self, work: Callable[[Any], Any], job: Any, key: int,
                          draws: Callable[[Any], Any] | None = None) -> Any:
            return self.work(work, job)

    monkeypatch.setitem(bot.games.GAMES, "candy-dash", Engine(CandyDash()))
    pool = Pool()
    table = await Session.open(tmp_path, bot.games.GAMES, renderer=pool)
    try:
        lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash", "target": 6})
        await table.click(ALICE, lobby, ":ai")
        await table.click(ALICE, lobby, ":start")
        for _ in range(3):
            await table.play(ALICE, "step")
        assert pool.thought and pool.thought == asked
    finally:
        await table.close()
