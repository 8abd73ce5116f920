"""The offline Discord keeps the rules the bot's delivery relies on, as Discord states them:
a message posted again under its nonce (with ``enforce_nonce``) returns the one made; an
edit in an archived thread is refused (50083) while a new message reopens a thread that
is not locked; an interaction's followup in a thread archived meanwhile is refused; a
user who takes no DM from the bot is refused one (403, 50007); opening a DM can fail."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.games.engine import Engine
from tests.support.discord_harness import CHANNEL_ID, Session
from tests.support.race_game import CandyHop
from tools.offline import (
    ALL_PERMISSIONS,
    CANNOT_MESSAGE_USER,
    PUBLIC_THREAD,
    THREAD_ARCHIVED,
    Channel,
)

ALICE = 370000000000000001


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[Session]:
    opened = await Session.open(tmp_path, {"candy-hop": Engine(CandyHop())})
    opened.rec.room(CHANNEL_ID).permissions = ALL_PERMISSIONS
    yield opened
    await opened.close()


def thread_of(session: Session) -> Channel:
    room = Channel(CHANNEL_ID + 50, PUBLIC_THREAD, parent_id=CHANNEL_ID)
    session.rec.rooms[room.id] = room
    return room


async def test_a_message_sent_again_under_its_nonce_is_the_one_discord_made(
        session: Session) -> None:
    channel = session.bot.get_partial_messageable(CHANNEL_ID)
    first = await channel.send("hello", nonce="n-1")
    again = await channel.send("hello again", nonce="n-1")
    other = await channel.send("hello", nonce="n-2")
    assert again.id == first.id and again.content == "hello" and other.id != first.id
    assert len([s for s in session.rec.sent if s.created]) == 2


async def test_an_archived_thread_refuses_edits_and_reopens_for_a_new_message(
        session: Session) -> None:
    room = thread_of(session)
    channel = session.bot.get_partial_messageable(room.id)
    posted = await channel.send("board")
    room.archived = True
    with pytest.raises(discord.HTTPException) as refused:
        await channel.get_partial_message(posted.id).edit(view=None)
    assert refused.value.code == THREAD_ARCHIVED and room.archived
    await channel.send("a new board")
    assert not room.archived, "a new message reopens a thread that is not locked"


async def test_a_followup_in_a_thread_archived_meanwhile_is_refused(session: Session) -> None:
    room = thread_of(session)

    def archives(sent: object) -> bool:
        if getattr(sent, "path", "").endswith("/callback"):
            room.archived = True
        return False

    session.rec.fail_when(archives)
    session.rec.clear()
    await session.gw.send(session.gw.command(ALICE, "games", channel_id=room.id))
    answers = [s for s in session.rec.sent if s.path.startswith("/webhooks/")]
    assert answers and all(s.failed == 400 for s in answers) and room.archived


async def test_a_user_who_takes_no_dm_is_refused_and_opening_a_dm_can_fail(
        session: Session) -> None:
    session.rec.closed_dms.add(ALICE)
    dm = await session.bot.create_dm(discord.Object(id=ALICE))
    with pytest.raises(discord.Forbidden) as refused:
        await dm.send("your turn")
    assert refused.value.code == CANNOT_MESSAGE_USER
    session.rec.fail_when(lambda s: s.path.startswith("/users/@me/channels"), status=503)
    session.bot._connection._private_channels.clear()
    with pytest.raises(discord.DiscordServerError):
        await session.bot.create_dm(discord.Object(id=ALICE + 1))
