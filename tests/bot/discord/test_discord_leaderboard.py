"""``/stats board:<game>``: the server's best ratings in one game, as a picture."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

from bot.games.engine import Engine
from renderers import leaderboard
from tests.support.discord_harness import GUILD_ID, Session
from tests.support.race_game import CandyRace

ALICE, BOB, CAROL = 340000000000000001, 340000000000000002, 340000000000000003


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Session]:
    session = await Session.open(tmp_path, {"candy-race": Engine(CandyRace())})
    yield session
    await session.close()


async def alice_wins(table: Session) -> None:
    await table.start("candy-race", humans=(ALICE, BOB), target=3)
    for user in (ALICE, BOB, ALICE, BOB, ALICE):
        await table.play(user, "step")


async def test_the_leaderboard_ranks_the_winner_first_with_names_and_a_picture(
        table: Session) -> None:
    empty = await table.command(CAROL, "stats", options={"board": "candy-race"})
    assert "nobody has a rated game here yet" in empty.content and empty.pngs
    await alice_wins(table)
    await alice_wins(table)
    answer = await table.command(BOB, "stats", options={"board": "candy-race"})
    assert not answer.ephemeral and "**Candy Race: best ratings here** (top 2)" in answer.content
    (png,) = answer.pngs
    assert Image.open(io.BytesIO(png)).width == leaderboard.WIDTH
    board = await table.bot.tables.queries.leaderboard(GUILD_ID, "candy-race")
    assert [r["name"] for r in board["rows"]] == ["Player1", "Player2"]
    assert board["rows"][0]["rating"] > board["rows"][1]["rating"]
    assert all(r["provisional"] and r["games"] == 2 for r in board["rows"])


def test_a_long_name_is_shortened_to_fit_and_the_picture_reads_on_a_phone() -> None:
    rows = [{"name": "A" * 80, "rating": 120, "games": 9, "provisional": False}]
    image = Image.open(io.BytesIO(leaderboard.render({"title": "T", "rows": rows})))
    assert image.width == 800 and image.height < 400
