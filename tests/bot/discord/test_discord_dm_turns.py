"""A turn from the direct message: with ``/notify how:dm`` the DM that hands a player
their turn shows their own view and their choices, and a whole game can be played from
DMs, each click checked as one in the channel."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.games
from bot.games.engine import Engine
from tests.support.discord_harness import Sent, Session
from tests.support.race_game import CandyRace

ALICE, BOB, CAROL = 360000000000000001, 360000000000000002, 360000000000000003


@pytest.fixture
async def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Session]:
    monkeypatch.setitem(bot.games.GAMES, "candy-race", Engine(CandyRace()))
    opened = await Session.open(tmp_path, bot.games.GAMES)
    yield opened
    await opened.close()


async def turn_dm(table: Session, user: int) -> Sent:
    """The newest direct message to ``user`` (the outbox's loop sends DMs)."""
    await table.bot.outbox.deliver()
    dms = [s for s in table.rec.direct_messages() if s.dm_to == user]
    assert dms, f"no DM reached {user}"
    return dms[-1]


async def mover(table: Session) -> int:
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None and record.state_json is not None
    return (ALICE, BOB)[json.loads(record.state_json)["turn"]]


async def test_a_whole_game_is_played_from_direct_messages(table: Session) -> None:
    for user in (ALICE, BOB):
        await table.command(user, "notify", options={"how": "dm"})
    await table.start("candy-race", humans=(ALICE, BOB), target=4)
    moves = 0
    while await table.bot.tables.store.games.open_game(table.channel_id) is not None:
        user = await mover(table)
        dm = await turn_dm(table, user)
        # The DM shows the player's own view (their hand is theirs to see) and choices.
        assert dm.pngs and dm.custom_ids and "your turn" in dm.content
        assert "(only you can see this)" in dm.content
        table.rec.clear()
        await table.click(user, dm, ":step")
        # The board and the next hand-over go to the game's channel.
        boards = [s for s in table.rec.public() if s.pngs and s.channel_id == table.channel_id]
        assert boards, "the move is shown in the channel"
        moves += 1
        assert moves < 40
    assert moves >= 3


async def test_a_click_in_someone_elses_dm_or_an_old_one_changes_nothing(
        table: Session) -> None:
    await table.command(BOB, "notify", options={"how": "dm"})
    await table.start("candy-race", humans=(ALICE, BOB))
    if await mover(table) == ALICE:
        await table.play(ALICE, "step")
    dm = await turn_dm(table, BOB)
    record = await table.bot.tables.store.games.open_game(table.channel_id)
    assert record is not None
    # The DM's payload has no server and no member, as Discord sends from a DM.
    payload = table.gw.click(CAROL, table.rec.message(dm.message_id or 0),
                             next(c for c in dm.custom_ids if c.endswith(":step")))
    assert "guild_id" not in payload and "member" not in payload
    table.rec.clear()
    await table.gw.send(payload)
    (refused,) = table.rec.messages_sent()
    assert refused.ephemeral and "You are not playing" in refused.content, refused.content
    after = await table.bot.tables.store.games.open_game(table.channel_id)
    assert after is not None and after.version == record.version
    # Bob moves in the channel instead; the DM's button is then stale.
    await table.play(BOB, "step")
    table.rec.clear()
    await table.click(BOB, dm, ":step")
    (stale,) = table.rec.messages_sent()
    assert stale.ephemeral and "expired" in stale.content
