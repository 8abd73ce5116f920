"""``/notify``: a player is reached by a channel mention (the default), a direct message as
well, or quietly; a DM Discord refuses is said once in the channel, then not tried again."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.games
from bot.games.engine import Engine
from tests.support.discord_harness import Sent, Session
from tests.support.race_game import CandyRace

ALICE, BOB = 320000000000000001, 320000000000000002


@pytest.fixture
async def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Session]:
    monkeypatch.setitem(bot.games.GAMES, "candy-race", Engine(CandyRace()))
    opened = await Session.open(tmp_path, bot.games.GAMES)
    yield opened
    await opened.close()


async def test_a_dm_subscriber_gets_the_ping_in_the_channel_and_a_direct_message(
        session: Session) -> None:
    answer = await session.command(BOB, "notify", options={"how": "dm"})
    assert answer.ephemeral and "direct message" in answer.content
    await session.start("candy-race", humans=(ALICE, BOB))
    session.rec.clear()
    await session.play(ALICE, "step")
    # The DM waits behind the ping the board carries; the outbox's loop sends it.
    await session.bot.outbox.deliver()
    (dm,) = session.rec.direct_messages()
    assert dm.notifies() == {BOB} and "your turn in **Candy Race**" in dm.content
    assert f"<#{session.channel_id}>" in dm.content, "the DM points to the game's channel"
    assert session.rec.notified_users().count(BOB) == 2, "the channel ping and the DM"
    session.rec.clear()
    session.clock.advance(24)
    await session.bot.send_due()
    (reminder,) = session.rec.direct_messages()
    assert reminder.dm_to == BOB and "Reminder 1" in reminder.content


async def test_closed_dms_are_said_once_in_the_channel_and_then_left_alone(
        session: Session) -> None:
    await session.command(BOB, "notify", options={"how": "dm"})
    await session.start("candy-race", humans=(ALICE, BOB))

    def to_bob(sent: Sent) -> bool:
        parts = sent.path.strip("/").split("/")
        return parts[0] == "channels" and int(parts[1]) in session.rec.dm_channels

    session.rec.fail_when(to_bob, status=403)
    session.rec.clear()
    await session.play(ALICE, "step")
    await session.bot.outbox.deliver()
    notices = [s for s in session.rec.public() if "could not send" in s.content]
    assert len(notices) == 1 and not notices[0].notifies(), "said once, pinging nobody"
    assert BOB in session.rec.notified_users(), "the channel ping still reaches him"
    assert await session.bot.tables.store.people.notify_modes([BOB]) == {BOB: "channel"}

    session.rec.clear()
    await session.play(BOB, "step")
    await session.play(ALICE, "step")
    await session.bot.outbox.deliver()
    assert session.rec.direct_messages() == [] and not any(
        "could not send" in s.content for s in session.rec.public())
    again = await session.command(BOB, "notify", options={"how": "dm"})
    assert again.ephemeral
    assert await session.bot.tables.store.people.notify_modes([BOB]) == {BOB: "dm"}


async def test_a_quiet_player_is_named_but_never_notified(session: Session) -> None:
    answer = await session.command(BOB, "notify", options={"how": "quiet"})
    assert answer.ephemeral and "/games" in answer.content
    await session.start("candy-race", humans=(ALICE, BOB))
    session.rec.clear()
    await session.play(ALICE, "step")
    assert BOB not in session.rec.notified_users()
    assert any(f"<@{BOB}>" in s.content for s in session.rec.public()), "still named"
    session.clock.advance(24)
    session.rec.clear()
    await session.bot.send_due()
    assert BOB not in session.rec.notified_users()
    await session.command(BOB, "notify", options={"how": "channel"})
    session.rec.clear()
    await session.play(BOB, "step")
    await session.play(ALICE, "step")
    assert BOB in session.rec.notified_users()


async def reminders_of_bobs_turn(session: Session) -> list[Sent]:
    """Alice moves, then three days pass, one reminder a day: the reminders posted."""
    await session.start("candy-race", humans=(ALICE, BOB))
    await session.play(ALICE, "step")
    posted: list[Sent] = []
    for _ in range(3):
        session.rec.clear()
        session.clock.advance(24)
        await session.bot.send_due()
        posted += [s for s in session.rec.public() if "Reminder" in s.content]
    return posted


async def test_a_player_who_wants_only_the_first_reminder_is_named_in_the_others(
        session: Session) -> None:
    answer = await session.command(BOB, "notify", options={"reminders": "first"})
    assert answer.ephemeral and "Only the first reminder" in answer.content
    posted = await reminders_of_bobs_turn(session)
    assert [("Reminder 1" in s.content, s.notifies()) for s in posted] == [
        (True, {BOB}), (False, frozenset()), (False, frozenset())]
    assert all(f"<@{BOB}>" in s.content for s in posted), "named in every reminder"


async def test_reminders_ping_nobody_who_asked_for_none_and_the_turn_still_pings(
        session: Session) -> None:
    await session.command(BOB, "notify", options={"reminders": "none"})
    await session.start("candy-race", humans=(ALICE, BOB))
    session.rec.clear()
    await session.play(ALICE, "step")
    assert BOB in session.rec.notified_users(), "his turn itself pings him"
    session.rec.clear()
    session.clock.advance(24)
    await session.bot.send_due()
    (reminder,) = [s for s in session.rec.public() if "Reminder 1" in s.content]
    assert reminder.notifies() == frozenset() and f"<@{BOB}>" in reminder.content


async def test_each_reminder_pings_by_default_and_notify_alone_says_the_settings(
        session: Session) -> None:
    answer = await session.command(BOB, "notify")
    assert answer.ephemeral and "mention in the game's channel" in answer.content
    assert "Every reminder" in answer.content
    posted = await reminders_of_bobs_turn(session)
    assert [s.notifies() for s in posted] == [{BOB}] * 3
