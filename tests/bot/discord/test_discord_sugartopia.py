"""A Sugartopia game through Discord: two humans and an AI, hands only ever ephemeral."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image

from bot.games import GAMES
from bot.games.engine import loads
from renderers import render
from tests.support.discord_harness import CHANNEL_ID, Clock, Recorder, start_bot

ALICE, BOB = 300000000000000001, 300000000000000002


class PictureLog:
    """Renders for real and remembers which pictures were drawn from a private view."""

    def __init__(self) -> None:
        self.private: set[bytes] = set()

    def __call__(self, view: dict[str, Any]) -> bytes:
        png = render(view)
        if view.get("hand"):
            self.private.add(png)
        return png


def hand_ids(state: dict[str, Any]) -> set[str]:
    return {card for card in state["hands"] if card}


async def test_sugartopia_with_two_humans_and_an_ai_keeps_hands_out_of_the_channel(
        tmp_path: Path):
    pictures, rec, clock = PictureLog(), Recorder(), Clock()
    client, gw = await start_bot(tmp_path / "bot.db", clock, GAMES, rec, renderer=pictures)
    game = GAMES["sugartopia"]
    users = {0: ALICE, 1: BOB}
    try:
        await gw.send(gw.command(ALICE, "game", "new", {"game": "sugartopia"}))
        lobby = rec.last()
        join = next(c for c in lobby.custom_ids if c.endswith(":join"))
        await gw.send(gw.click(BOB, rec.messages[lobby.message_id], join))
        ai = next(c for c in lobby.custom_ids if c.endswith(":ai"))
        await gw.send(gw.click(ALICE, rec.messages[lobby.message_id], ai))
        start = next(c for c in lobby.custom_ids if c.endswith(":start"))
        await gw.send(gw.click(ALICE, rec.messages[lobby.message_id], start))

        checked_hand = False
        for _ in range(120):
            record = await client.tables.store.games.open_game(CHANNEL_ID)
            if record is None:
                break
            state = loads(record.state_json, game)
            secret = hand_ids(state)
            (seat,) = game.to_act(state)
            user = users[seat]
            if not checked_hand and state["hands"][seat]:
                rec.clear()
                await gw.send(gw.command(user, "game", "hand"))
                reply = rec.last()
                assert reply.ephemeral
                assert state["hands"][seat].lower() in reply.content.lower()
                assert reply.pngs and set(reply.pngs) <= pictures.private
                checked_hand = True
            rec.clear()
            await gw.send(gw.command(user, "play", options={"action": ""}, focused="action"))
            suggestions = rec.sent[-1].payload["data"]["choices"]
            assert 1 <= len(suggestions) <= 25
            rec.clear()
            await gw.send(gw.command(user, "play", options={"action": suggestions[0]["value"]}))
            for sent in rec.sent:
                if sent.ephemeral:
                    continue
                assert not set(sent.pngs) & pictures.private, "a hand picture went public"
                placed = sent.content.lower()
                # Cards still in a hand after this move must not be named in the channel.
                record_after = await client.tables.store.games.get_game(record.id)
                still_hidden = hand_ids(loads(record_after.state_json, game)) & secret
                for card in still_hidden:
                    assert card.lower() not in placed, f"{card} named in the channel"
                for png in sent.pngs:
                    assert Image.open(io.BytesIO(png)).format == "PNG"
        else:
            raise AssertionError("the game did not end")
        assert checked_hand
        rec.clear()
        await gw.send(gw.command(ALICE, "stats"))
        assert "Sugartopia: 1 played" in rec.last().content
    finally:
        await client.close()
