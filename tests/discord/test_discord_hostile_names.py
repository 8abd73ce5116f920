"""Players whose display names are mentions (@everyone, <@id>, role pings) play whole turns
of every game: no public message lets such a name ping anyone."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import discord_harness
import pytest
from discord_harness import Session

import bot.games
from bot.games.engine import loads

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
    monkeypatch.setattr(discord_harness, "user_payload", named)
    game = bot.games.GAMES[slug]
    table = await Session.open(tmp_path, bot.games.GAMES)
    sent = []
    try:
        await table.start(slug, humans=(ALICE, BOB), ai=max(0, game.min_seats - 2))
        sent += table.rec.messages_sent()
        for _ in range(6):
            record = await table.bot.tables.store.open_game(table.channel_id)
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
