"""``/privacy``: a person sees everything kept about them as a private file, and deletes
it; a server that removes the bot has its lobbies closed at once."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.games.engine import Engine
from tests.support.discord_harness import GUILD_ID, Session
from tests.support.race_game import CandyDash

ALICE, BOB = 353000000000000001, 353000000000000002


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Session]:
    session = await Session.open(tmp_path, {"candy-dash": Engine(CandyDash())})
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
    assert (await table.bot.tables.reminders.notify_settings(ALICE))[0] == "channel"


async def test_a_server_removing_the_bot_closes_its_lobbies(table: Session) -> None:
    await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    await table.bot.on_guild_remove(SimpleNamespace(id=GUILD_ID))  # type: ignore[arg-type]
    assert await table.bot.tables.store.games.open_game(table.channel_id) is None
    table.clock.advance(24 * 31)
    await table.bot.housekeeping()
    assert await table.bot.tables.store.games.games_in_channel(table.channel_id) == []


AL, ALICE_TOO = 353000000000000011, 353000000000000012
NAMES = {AL: "Al", ALICE_TOO: "Alice"}


@pytest.fixture(params=["sqlite", "postgresql"])
async def anywhere(request: pytest.FixtureRequest, tmp_path: Path,
                   monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Session]:
    """A bot on SQLite, then on PostgreSQL, whose players are called Al and Alice."""
    import tools.offline
    from tests.support.discord_harness import Clock, Recorder, start_bot

    plain = tools.offline.user_payload
    monkeypatch.setattr(tools.offline, "user_payload", lambda user: {
        **plain(user), "global_name": NAMES.get(user, f"Player{user % 1000}")})
    target = (str(tmp_path / "bot.db") if request.param == "sqlite"
              else request.getfixturevalue("postgres_url"))
    rec, clock = Recorder(), Clock()
    running, gw = await start_bot(target, clock, {"candy-dash": Engine(CandyDash())}, rec)
    session = Session(running, gw, rec, clock)
    yield session
    await session.close()


async def test_privacy_delete_leaves_no_id_and_renames_only_the_deleted_seat(
        anywhere: Session) -> None:
    from tests.support.kept_anywhere import rows_holding

    table = anywhere
    await table.start("candy-dash", humans=(AL, ALICE_TOO), target=3)
    for _ in range(8):
        record = await table.bot.tables.store.games.open_game(table.channel_id)
        if record is None:
            break
        state = json.loads(record.state_json or "{}")
        await table.play((AL, ALICE_TOO)[state["turn"]], "step")
    await table.command(AL, "notify", options={"how": "dm"})
    answer = await table.command(AL, "privacy", options={"delete": True})
    assert answer.ephemeral and "1 ended game" in answer.content
    store = table.bot.tables.store
    assert await rows_holding(store, AL) == [], "no row keeps Al's Discord id"
    log = await table.command(ALICE_TOO, "game", "log")
    assert "Alice steps to" in log.content and "playerice" not in log.content
    assert "a former player steps to" in log.content and "Al steps" not in log.content
