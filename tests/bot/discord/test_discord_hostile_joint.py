"""Two players answering a joint decision at the same moment: both answers count."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.games import GAMES
from bot.games.engine import loads
from tests.support.discord_harness import Session

ALICE, BOB = 380000000000000001, 380000000000000002
GAME = GAMES["kingdoms-candy-monsters"]


async def test_both_feeders_typing_at_once_at_a_black_candy_are_both_heard(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    table = await Session.open(tmp_path, GAMES)
    try:
        await table.start(GAME.slug, humans=(ALICE, BOB), ai=1)
        record = await table.bot.tables.store.games.open_game(table.channel_id)
        users = {s.seat: s.user_id for s in record.seats if s.user_id and not s.ai}
        raced = 0
        for _ in range(800):
            record = await table.bot.tables.store.games.open_game(table.channel_id)
            if record is None or raced >= 3:
                break
            state = loads(record.state_json, GAME)
            top = GAME.top(state)
            humans = [s for s in sorted(GAME.to_act(state)) if s in users]
            if top is not None and top.kind == "feed" and len(humans) == 2:
                moves = {s: GAME.ai_action(state, s).notation for s in humans}
                table.rec.clear()
                await table.gw.send(*(table.gw.command(users[s], "play",
                                                       options={"action": moves[s]})
                                      for s in humans))
                after = await table.bot.tables.store.games.get_game(record.id)
                assert after.version == record.version + 2, "an answer was lost"
                told = [m.content for m in table.rec.messages_sent() if m.ephemeral]
                for s in humans:
                    assert any(f"You played `{moves[s]}`" in t for t in told), told
                for m in table.rec.messages_sent():
                    assert m.ephemeral or not any(v in m.content for v in moves.values())
                raced += 1
                continue
            await table.play(users[humans[0]], GAME.ai_action(state, humans[0]).notation)
    finally:
        await table.close()
    assert raced == 3
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
