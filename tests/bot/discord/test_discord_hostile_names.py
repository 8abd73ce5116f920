"""Players whose display names are mentions (@everyone, <@id>, role pings) play whole turns
of every game: no public message lets such a name ping anyone."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest

import bot.games
import tools.offline
from bot.games.engine import loads
from tests.support.discord_harness import Session

ALICE, BOB = 395000000000000001, 395000000000000002
STRANGER = 123456789012345678
NAMES = {ALICE: "@everyone", BOB: f"<@{STRANGER}> @here <@&42>"}


def named(user_id: int) -> dict[str, Any]:
    return {"id": str(user_id), "username": f"user{user_id}", "discriminator": "0",
            "global_name": NAMES.get(user_id, "Someone"), "avatar": None}


@pytest.mark.parametrize("slug", list(bot.games.GAMES))
async def test_a_name_that_is_a_mention_pings_nobody(
        tmp_path: Path, slug: str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(tools.offline, "user_payload", named)  # the names Discord sends
    game = bot.games.GAMES[slug]
    table = await Session.open(tmp_path, bot.games.GAMES)
    sent = []
    try:
        await table.start(slug, humans=(ALICE, BOB), ai=max(0, game.min_seats - 2))
        sent += table.rec.messages_sent()
        for _ in range(6):
            record = await table.bot.tables.store.games.open_game(table.channel_id)
            if record is None:
                break
            state = loads(record.state_json or "", game)
            seat = next(s for s in record.seats if s.seat in game.to_act(state) and not s.ai)
            await table.play(seat.user_id or 0, game.ai_action(state, seat.seat).notation)
            sent += table.rec.messages_sent()
        for sub in ("board", "status", "log"):
            await table.command(BOB, "game", sub)
            sent += table.rec.messages_sent()
        await table.command(ALICE, "game", "leave")
        sent += table.rec.messages_sent()
    finally:
        await table.close()
    for message in sent:
        if message.ephemeral or not message.created:
            continue
        allowed = message.body.get("allowed_mentions")
        assert allowed is not None, message.content[:80]
        assert "everyone" not in (allowed.get("parse") or []), message.content[:80]
        assert "roles" not in (allowed.get("parse") or []), message.content[:80]
        assert message.notifies() <= {ALICE, BOB}, message.content[:80]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


#: Names that try to phish, format or pass for someone else: a masked link, a bare link,
#: bold, a spoiler, a heading, a quote, a code span, a mention and a timestamp.
PHISHING = {ALICE: "[Free nitro](https://ev.il/x)",
            BOB: "**Mod** ||x|| `y` <@123456789012345678> <t:1:R> https://ev.il/y"}
_ESCAPE = re.compile(r"\\[!-/:-@\[-`{-~]")


def disarmed(text: str) -> str:
    """``text`` as Discord's markdown reads it, every escaped mark put aside."""
    return _ESCAPE.sub("·", text)


def phishing(user_id: int) -> dict[str, Any]:
    return {"id": str(user_id), "username": f"user{user_id}", "discriminator": "0",
            "global_name": PHISHING.get(user_id, "Someone"), "avatar": None}


@pytest.mark.parametrize("slug", list(bot.games.GAMES))
async def test_a_name_can_neither_link_nor_format_nor_mention_in_any_message(
        tmp_path: Path, slug: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tools.offline, "user_payload", phishing)  # the names Discord sends
    game = bot.games.GAMES[slug]
    table = await Session.open(tmp_path, bot.games.GAMES)
    sent = []
    try:
        lobby = await table.command(ALICE, "game", "new", {"game": slug})
        sent.append(lobby)
        await table.click(BOB, lobby, ":join")
        for _ in range(max(0, game.min_seats - 2)):
            await table.click(ALICE, lobby, ":ai")
        sent += table.rec.messages_sent()
        await table.click(ALICE, lobby, ":start")
        sent += table.rec.messages_sent()
        for _ in range(4):
            record = await table.bot.tables.store.games.open_game(table.channel_id)
            if record is None:
                break
            state = loads(record.state_json or "", game)
            seat = next(s for s in record.seats if s.seat in game.to_act(state) and not s.ai)
            await table.play(seat.user_id or 0, game.ai_action(state, seat.seat).notation)
            sent += table.rec.messages_sent()
        for user, sub in ((BOB, "board"), (BOB, "status"), (BOB, "log"), (ALICE, "hand"),
                          (BOB, "hand")):
            await table.command(user, "game", sub)
            sent += table.rec.messages_sent()
        await table.command(BOB, "games")
        sent += table.rec.messages_sent()
        table.clock.advance(25)
        await table.bot.send_due()
        sent += table.rec.messages_sent()
        await table.command(ALICE, "game", "leave")
        sent += table.rec.messages_sent()
        await table.command(BOB, "game", "leave")
        sent += table.rec.messages_sent()
        await table.command(BOB, "game", "history")
        sent += table.rec.messages_sent()
    finally:
        await table.close()
    assert len(sent) > 12
    assert any("Free nitro" in m.content for m in sent), "the hostile names were shown"
    for message in sent:
        read = disarmed(message.content)
        # Shown as typed, but no link: neither masked nor bare (the scheme's colon and
        # slashes are escaped, which Discord does not read as a link; the bot's own jump
        # links to messages stay).
        assert "://ev.il" not in read and "](" not in read, message.content[:200]
        assert "||" not in read and "<t:1:R>" not in read, message.content[:200]
        assert "<@123456789012345678>" not in read, message.content[:200]
        assert "`y`" not in read, message.content[:200]
