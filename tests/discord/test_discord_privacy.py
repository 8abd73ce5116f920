"""``/privacy``: a person sees everything kept about them as a private file, and deletes
it; a server that removes the bot has its lobbies closed at once."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from discord_harness import GUILD_ID, Session
from race_game import CandyDash

ALICE, BOB = 353000000000000001, 353000000000000002


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Session]:
    session = await Session.open(tmp_path, {"candy-dash": CandyDash()})
    yield session
    await session.close()


async def test_privacy_shows_what_is_kept_in_a_private_file(table: Session) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB))
    await table.command(ALICE, "notify", options={"how": "dm"})
    answer = await table.command(ALICE, "privacy")
    assert answer.ephemeral and "Everything candybot keeps about you" in answer.content
    ((name, data),) = answer.files
    assert name == f"candybot-{ALICE}.json"
    kept = json.loads(data)
    assert kept["user_id"] == ALICE and kept["notifications"][0]["how"] == "dm"
    assert [g["status"] for g in kept["games"]] == ["active"]
    assert not table.rec.public()


async def test_privacy_delete_removes_settings_and_says_what_stays(table: Session) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB))
    await table.command(ALICE, "notify", options={"how": "dm"})
    answer = await table.command(ALICE, "privacy", options={"delete": True})
    assert answer.ephemeral and "Deleted: 1 setting" in answer.content
    assert "1 game under way" in answer.content
    assert (await table.bot.tables.notify_settings(ALICE))[0] == "channel"


async def test_a_server_removing_the_bot_closes_its_lobbies(table: Session) -> None:
    await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    await table.bot.on_guild_remove(SimpleNamespace(id=GUILD_ID))  # type: ignore[arg-type]
    assert await table.bot.tables.store.open_game(table.channel_id) is None
    table.clock.advance(24 * 31)
    await table.bot.housekeeping()
    assert await table.bot.tables.store.games_in_channel(table.channel_id) == []
