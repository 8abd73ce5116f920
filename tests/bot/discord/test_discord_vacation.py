"""``/away`` vacations: no ping, reminder or AI take-over reaches a player on vacation;
the board and ``/game status`` say who is away until when; a ping held for a player in
quiet hours or on vacation arrives when they are back."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.games
from bot.away import DAY, QuietHours, Vacation, away_until, plan_vacation
from bot.games.engine import Engine
from tests.support.discord_harness import Session
from tests.support.race_game import CandyRace
from tests.support.refusing import refused

ALICE, BOB = 310000000000000001, 310000000000000002
# The fake clock starts at 2023-11-14 22:13:20 UTC.
NOW = 1_700_000_000.0


@pytest.fixture
async def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Session]:
    monkeypatch.setitem(bot.games.GAMES, "candy-race", Engine(CandyRace()))
    opened = await Session.open(tmp_path, bot.games.GAMES)
    yield opened
    await opened.close()


async def heard(session: Session) -> list[int]:
    session.rec.clear()
    await session.bot.send_due()
    await session.bot.outbox.deliver(session.channel_id)
    return session.rec.notified_users()


async def test_a_vacation_holds_the_ping_reminders_and_take_over_until_it_ends(
        session: Session) -> None:
    answer = await session.command(BOB, "away", options={"vacation_days": 3})
    assert answer.ephemeral and "Vacation set: 3 days" in answer.content
    await session.start("candy-race", humans=(ALICE, BOB), reminder_hours=6.0,
                        ai_takeover=True)
    await session.play(ALICE, "step")  # Bob's turn, while he is away
    board = session.rec.last()
    assert "🌙 Away: " in board.content and "Player2" in board.content
    assert f"<t:{int(NOW + 3 * DAY)}:R>" in board.content
    assert BOB not in session.rec.notified_users(), "his ping waits for his return"
    status = await session.command(ALICE, "game", "status")
    assert "🌙 Away: " in status.content

    for _ in range(11):  # two and three-quarter days: far past the take-over
        session.clock.advance(6)
        assert await heard(session) == []
    state = await session.state()
    assert state is not None and state["turn"] == 1, "no AI played Bob's move"

    session.clock.advance(6)  # the vacation is over: the held ping reaches him
    assert BOB in await heard(session)


async def test_back_ends_a_vacation_at_once(session: Session) -> None:
    await session.command(BOB, "away", options={"vacation_days": 5})
    answer = await session.command(BOB, "away", options={"back": True})
    assert answer.ephemeral and "Welcome back" in answer.content
    await session.start("candy-race", humans=(ALICE, BOB))
    session.rec.clear()
    await session.play(ALICE, "step")
    assert BOB in session.rec.notified_users()
    again = await session.command(BOB, "away", options={"back": True})
    assert "no vacation" in again.content


async def test_a_vacation_past_the_yearly_allowance_is_refused_and_changes_nothing(
        session: Session) -> None:
    await session.command(BOB, "away", options={"vacation_days": 15, "vacation_from":
                                                "2024-03-01"})
    answer = await session.command(BOB, "away", options={"vacation_days": 10,
                                                         "vacation_from": "2024-06-01"})
    assert answer.ephemeral and "6 of 21 left" in answer.content
    answer = await session.command(BOB, "away", options={"vacation_days": 2,
                                                         "vacation_from": "1999-01-01"})
    assert answer.ephemeral and "That day is over" in answer.content
    answer = await session.command(BOB, "away", options={"vacation_days": 2,
                                                         "vacation_from": "next week"})
    assert answer.ephemeral and "not a date" in answer.content
    kept = await session.bot.tables.store.people.vacations([BOB], ending_after=0)
    assert len(kept[BOB]) == 1


async def test_a_ping_for_a_player_in_quiet_hours_waits_until_they_end(
        session: Session) -> None:
    # 23:13 in Berlin when the game starts; Bob's quiet hours run to 08:00.
    await session.command(BOB, "away", options={"timezone": "Europe/Berlin",
                                                "quiet_from": 22, "quiet_to": 8})
    await session.start("candy-race", humans=(ALICE, BOB))
    session.rec.clear()
    await session.play(ALICE, "step")
    assert BOB not in session.rec.notified_users()
    session.clock.advance(8)  # 07:13 in Berlin
    assert BOB not in await heard(session)
    session.clock.advance(1)  # 07:13 UTC, 08:13 in Berlin
    assert BOB in await heard(session)


def test_the_allowance_counts_days_per_calendar_year() -> None:
    new_year = 1_704_067_200.0  # 2024-01-01 00:00 UTC
    december = [Vacation(new_year - 10 * DAY, new_year - 1 * DAY)]
    # Nine days in 2023 do not count against 2024.
    assert plan_vacation(december, new_year, 21).ends == new_year + 21 * DAY
    with refused("12 of 21 left"):
        plan_vacation(december, new_year - 40 * DAY, 13)
    with refused("overlaps"):
        plan_vacation(december, new_year - 5 * DAY, 1)


def test_a_vacation_ending_in_quiet_hours_lasts_until_they_end() -> None:
    hours = QuietHours("UTC", 22, 8)
    start = 1_704_067_200.0 + 12 * 3600  # noon UTC
    trip = [Vacation(start, start + 11 * 3600)]  # ends 23:00 UTC, in quiet hours
    assert away_until(start + 3600, hours, trip) == start + 20 * 3600  # 08:00 next day
    assert away_until(start - 3600, hours, trip) is None
