"""Forged custom ids (numbers SQLite cannot hold, signs, malformed parts) are refused as
unknown before the store is asked anything."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.discord.components import UNKNOWN_BUTTON
from bot.games.engine import Engine
from tests.support.discord_harness import Session
from tests.support.faults import inject, watch_reads
from tests.support.race_game import CandyDash

ALICE, BOB = 350000000000000001, 350000000000000002
TOO_BIG = (2**63, 2**64 + 5, 10**25)


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Session]:
    session = await Session.open(tmp_path, {"candy-dash": Engine(CandyDash())})
    yield session
    await session.close()


FORGED = ([f"cb:m:{n}:0:m0:step" for n in TOO_BIG]
          + [f"cb:lobby:{n}:join" for n in TOO_BIG]
          + [f"cb:d:{2**63}", f"cb:s:{2**63}:0:m0", f"cb:ms:{2**63}:0:m0",
             f"cb:move:{2**63}:0:step", f"cb:pick:{2**63}:0",
             f"cb:b:{2**63}:0:m0:o0:step", f"cb:bs:{10**19}:0:m0:1",
             "cb:m:-1:0:m0:step", "cb:d:-5", "cb:m:1:-1:m0:step", "cb:m:1:0:bad token:step",
             "cb:m:1:9999999999:m0:step", "cb:lobby:1:explode", "cb:d:", "cb:d:1:2"])


@pytest.mark.parametrize("custom_id", FORGED)
async def test_a_forged_custom_id_is_refused_as_unknown_without_a_query(
        table: Session, custom_id: str, caplog: pytest.LogCaptureFixture) -> None:
    board = await table.start("candy-dash", humans=(ALICE, BOB))
    # The forged component sits on the message, as a hand-made request would claim.
    message = {**table.rec.message(board.message_id or 0), "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "Forged",
                                    "custom_id": custom_id}]}]}
    watched = inject(table.bot.tables.store)
    read = watch_reads(table.bot.tables.store)
    table.rec.clear()
    with caplog.at_level(logging.WARNING):
        await table.gw.send(table.gw.click(ALICE, message, custom_id))
    (answer,) = table.rec.messages_sent()
    assert answer.ephemeral and answer.content == UNKNOWN_BUTTON
    assert watched.statements == [] and read.statements == []
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_the_largest_id_sqlite_can_hold_is_still_a_button(table: Session) -> None:
    board = await table.start("candy-dash", humans=(ALICE, BOB))
    custom_id = f"cb:m:{2**63 - 1}:0:m0:step"
    message = {**table.rec.message(board.message_id or 0), "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "step",
                                    "custom_id": custom_id}]}]}
    table.rec.clear()
    await table.gw.send(table.gw.click(ALICE, message, custom_id))
    assert "no longer exists" in table.rec.last().content
