"""The offline Discord keeps Discord's deadline: an interaction's first answer must come
within 3 seconds of its creation, and only once; a late or second one is refused."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games.engine import Engine
from tests.support.discord_harness import Session
from tests.support.race_game import CandyDash
from tools.offline import ALREADY_ACKNOWLEDGED, ANSWER_DEADLINE, UNKNOWN_INTERACTION

ALICE = 350000000000000001


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Session]:
    session = await Session.open(tmp_path, {"candy-dash": Engine(CandyDash())})
    yield session
    await session.close()


def test_the_deadline_is_discords() -> None:
    assert ANSWER_DEADLINE == 3.0


async def test_an_answer_after_the_deadline_is_refused_and_shows_nothing(
        table: Session) -> None:
    table.rec.deadline = 0.0
    table.rec.clear()
    await table.gw.send(table.gw.command(ALICE, "game", "rules", {"game": "candy-dash"}))
    callbacks = [s for s in table.rec.sent if s.path.endswith("/callback")]
    assert callbacks and all(s.failed == 404 for s in callbacks)
    assert not [s for s in table.rec.sent if s.created], "a late answer shows nobody anything"


async def test_an_answer_in_time_is_taken_once(table: Session) -> None:
    answer = await table.command(ALICE, "game", "rules", {"game": "candy-dash"})
    assert answer.ephemeral and answer.failed is None
    token = answer.path.strip("/").split("/")[2]
    refused = table.rec._refused_answer(answer)
    assert token in table.rec.answered and refused is not None and refused.status == 400
    assert refused.code == ALREADY_ACKNOWLEDGED
    assert UNKNOWN_INTERACTION == 10062
