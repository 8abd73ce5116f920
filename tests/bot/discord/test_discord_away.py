"""``/away`` quiet hours: a reminder or a ping that falls in them arrives when they end."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.games
from bot.away import AwayError, QuietHours
from bot.games.engine import Engine
from tests.support.discord_harness import Session
from tests.support.race_game import CandyRace

ALICE, BOB = 300000000000000001, 300000000000000002
# The fake clock starts at 2023-11-14 22:13:20 UTC, 23:13:20 in Berlin.
BERLIN = {"timezone": "Europe/Berlin", "quiet_from": 22, "quiet_to": 8}


@pytest.fixture
async def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Session]:
    monkeypatch.setitem(bot.games.GAMES, "candy-race", Engine(CandyRace()))
    opened = await Session.open(tmp_path, bot.games.GAMES)
    yield opened
    await opened.close()


async def reminders_heard(session: Session) -> list[int]:
    session.rec.clear()
    await session.bot.send_due()
    return session.rec.notified_users()


async def test_a_reminder_in_quiet_hours_arrives_when_they_end(session: Session) -> None:
    answer = await session.command(ALICE, "away", options=BERLIN)
    assert answer.ephemeral and "from 22:00 to 8:00" in answer.content
    start = await session.start("candy-race", humans=(ALICE, BOB))
    assert "🌙 Away: " in start.content, "the board says Alice is in her quiet hours"
    assert ALICE not in session.rec.notified_users(), "her first ping waits for 08:00"
    session.clock.advance(9)  # 08:13 in Berlin: the held ping arrives
    assert await reminders_heard(session) == [ALICE]
    session.clock.advance(15)  # the first reminder is due at 23:13 in Berlin: quiet
    assert await reminders_heard(session) == []
    session.clock.advance(7.7)  # 06:55 in Berlin: still quiet
    assert await reminders_heard(session) == []
    session.clock.advance(1.1)  # 07:01 UTC, 08:01 in Berlin
    assert await reminders_heard(session) == [ALICE]


async def test_without_quiet_hours_the_reminder_comes_on_time(session: Session) -> None:
    await session.command(ALICE, "away", options=BERLIN)
    answer = await session.command(ALICE, "away")
    assert answer.ephemeral and "off" in answer.content
    await session.start("candy-race", humans=(ALICE, BOB))
    session.clock.advance(24)
    assert await reminders_heard(session) == [ALICE]


async def test_bad_quiet_hours_are_refused_privately(session: Session) -> None:
    answer = await session.command(ALICE, "away", options={**BERLIN, "timezone": "Mars/Base"})
    assert answer.ephemeral and "not a time zone" in answer.content
    answer = await session.command(ALICE, "away", options={"quiet_from": 22})
    assert answer.ephemeral and "Give all three" in answer.content
    assert await session.bot.tables.store.people.quiet_hours([ALICE]) == {}


def test_quiet_hours_cross_midnight_and_follow_summer_time() -> None:
    hours = QuietHours("Europe/Berlin", 22, 8)
    summer_night = 1_720_044_000.0  # 2024-07-03 22:00 UTC, midnight in Berlin (UTC+2)
    assert hours.until(summer_night) == summer_night + 8 * 3600  # 08:00 in Berlin, 06:00 UTC
    winter_night = 1_700_002_800.0  # 2023-11-14 23:00 UTC, midnight in Berlin (UTC+1)
    assert hours.until(winter_night) == winter_night + 8 * 3600
    assert hours.until(summer_night - 5 * 3600) is None  # 19:00 in Berlin
    with pytest.raises(AwayError):
        QuietHours("Europe/Berlin", 5, 5)
