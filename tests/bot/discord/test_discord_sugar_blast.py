"""A real Sugar Blast game through Discord: lobby, autocomplete, buttons, game over, stats."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.games import GAMES
from bot.games.engine import loads
from tests.support.discord_harness import CHANNEL_ID, Clock, Recorder, start_bot

ALICE = 300000000000000001


def pngs_ok(sent) -> bool:
    return bool(sent.pngs) and all(Image.open(io.BytesIO(p)).format == "PNG" for p in sent.pngs)


async def test_sugar_blast_from_lobby_to_game_over_with_a_human_and_an_ai(tmp_path: Path):
    rec, clock = Recorder(), Clock()
    client, gw = await start_bot(tmp_path / "bot.db", clock, GAMES, rec, real_pictures=True)
    try:
        await gw.send(gw.command(ALICE, "game", "new",
                                 {"game": "sugar-blast", "objective": "four-alike"}))
        lobby = rec.last()
        assert "Sugar Blast" in lobby.content and not lobby.ephemeral
        message = rec.messages[lobby.message_id]
        ai = next(c for c in lobby.custom_ids if c.endswith(":ai"))
        await gw.send(gw.click(ALICE, message, ai))
        start = next(c for c in lobby.custom_ids if c.endswith(":start"))
        rec.clear()
        await gw.send(gw.click(ALICE, rec.messages[lobby.message_id], start))
        board = rec.last()
        assert pngs_ok(board)

        game = GAMES["sugar-blast"]
        used_button = used_typed = False
        for _ in range(200):
            record = await client.tables.store.games.open_game(CHANNEL_ID)
            if record is None:
                break
            state = loads(record.state_json, game)
            assert game.to_act(state) == {0}, "the AI answers at once, so it is always Alice"
            choices = [c for c in rec.last().custom_ids if c.startswith("cb:move:")]
            if choices and not used_button:
                # A common choice (keep, which Blast first) comes with buttons.
                rec.clear()
                await gw.send(gw.click(ALICE, rec.messages[board.message_id], choices[0]))
                used_button = True
            else:
                rec.clear()
                await gw.send(gw.command(ALICE, "play", options={"action": ""}, focused="action"))
                suggestions = rec.sent[-1].payload["data"]["choices"]
                assert 1 <= len(suggestions) <= 25
                legal = {a.notation for a in game.legal_actions(state, 0)}
                assert {s["value"] for s in suggestions} <= legal
                rec.clear()
                await gw.send(gw.command(ALICE, "play",
                                         options={"action": suggestions[0]["value"]}))
                used_typed = True
            board = rec.last()
            assert not board.ephemeral, board.content
            assert pngs_ok(board)
        else:
            raise AssertionError("the game did not end")
        assert used_typed
        final = rec.last()
        assert "1." in final.content or "wins" in final.content.lower()
        rec.clear()
        await gw.send(gw.command(ALICE, "stats"))
        assert "Sugar Blast: 1 played" in rec.last().content
        await gw.send(gw.command(ALICE, "game", "rules", {"game": "sugar-blast"}))
        assert "Mega-Blast" in rec.last().content and "`swap c3 d3`" in rec.last().content
    finally:
        await client.close()
