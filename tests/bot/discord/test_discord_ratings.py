"""Ratings in ``/stats``, through the real discord.py machinery: a finished game rates
its players, a player who left takes the loss alone, new ratings are marked provisional."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.games
from bot.games.engine import Engine
from tests.support.discord_harness import CHANNEL_ID, Session, UserOption
from tests.support.race_game import CandyRace

ALICE, BOB, CAROL = 300000000000000001, 300000000000000002, 300000000000000003
SEATED = (ALICE, BOB, CAROL)
RATING = re.compile(r"Candy Race: \d+ played, \d+ won\. Rating (-?\d+)(\?)? ")


@pytest.fixture
async def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Session]:
    monkeypatch.setitem(bot.games.GAMES, "candy-race", Engine(CandyRace()))
    opened = await Session.open(tmp_path, bot.games.GAMES)
    yield opened
    await opened.close()


async def shown(session: Session, user: int) -> tuple[int, bool]:
    """``user``'s Candy Race rating in ``/stats`` and whether it is marked provisional."""
    answer = await session.command(ALICE, "stats", options={"user": UserOption(user)},
                                   resolved={"users": {str(user): {
                                       "id": str(user), "username": f"user{user}",
                                       "discriminator": "0", "avatar": None}}})
    found = RATING.search(answer.content)
    assert found, answer.content
    return int(found.group(1)), bool(found.group(2))


async def play_out(session: Session) -> None:
    """The humans step until the race ends (the AI moves for empty seats)."""
    for _ in range(60):
        state = await session.state()
        if state is None:
            return
        turn = state["turn"]
        await session.play(SEATED[turn], "step")
    raise AssertionError("the race never ended")


async def test_a_player_who_left_takes_the_loss_and_the_others_are_rated(
        session: Session) -> None:
    session.channel_id = CHANNEL_ID
    await session.start("candy-race", humans=SEATED, target=3)
    await session.command(BOB, "game", "leave")
    await play_out(session)
    alice, carol, bob = [await shown(session, u) for u in (ALICE, CAROL, BOB)]
    assert bob[0] < min(alice[0], carol[0])
    assert alice[1] and bob[1] and carol[1], "one game makes a provisional rating"


async def test_a_rating_loses_its_provisional_mark_after_five_games(session: Session) -> None:
    ratings = []
    for n in range(5):
        session.channel_id = CHANNEL_ID + n
        await session.start("candy-race", humans=(ALICE, CAROL), target=3)
        for user in (ALICE, CAROL, ALICE, CAROL, ALICE):
            await session.play(user, "step")
        ratings.append(await shown(session, ALICE))
    assert [mark for _, mark in ratings] == [True, True, True, True, False]
    assert len({value for value, _ in ratings}) == 5, "every win moved the rating"


async def test_the_rating_model_is_ready_before_the_first_game_finishes(
        tmp_path: Path) -> None:
    # A finished game rates its players inside its commit: the model's import (openskill,
    # 17 ms) is made as the bot starts, not on the event loop at the first finish.
    from bot import ratings

    ratings._model.cache_clear()
    opened = await Session.open(tmp_path, bot.games.GAMES)
    try:
        assert ratings._model.cache_info().currsize == 1
    finally:
        await opened.close()
