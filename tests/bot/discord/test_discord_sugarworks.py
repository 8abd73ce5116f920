"""A Sugarworks game through Discord: two humans and an AI, from lobby to result.

Hands (orders and conveyor tiles) reach only their owner through the ephemeral
`/game hand`; every public picture comes from a public view; the candy movement
arrives as a GIF on the board message right after it; no order card drawn from
the deck and no conveyor tile in a hand is ever named in the channel.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

from PIL import Image

from bot.games import GAMES
from bot.games.engine import loads
from tests.support.discord_harness import PictureLog, Session

ALICE, BOB = 340000000000000001, 340000000000000002
GAME = GAMES["sugarworks"]
NAMED_PUBLICLY = re.compile(r"(?:market is now|from the market:|filled order) (o\d\d)")


def in_hands(state: dict[str, Any]) -> tuple[set[str], set[str]]:
    """Order cards and conveyor tile ids held in any hand."""
    orders = {c for hand in state["hands"] for c in hand["orders"]}
    tiles = {t for hand in state["hands"] for t in hand["tiles"]}
    return orders, tiles


async def test_sugarworks_two_humans_and_an_ai_from_lobby_to_result(tmp_path: Path):
    pictures = PictureLog()
    table = await Session.open(tmp_path, GAMES, renderer=pictures)
    try:
        await table.start("sugarworks", humans=[ALICE, BOB], ai=1, rounds=4)
        record = await table.bot.tables.store.games.open_game(table.channel_id)
        users = {s.seat: s.user_id for s in record.seats if s.user_id}
        market_seen: set[str] = set()
        checked_hand = False
        movements = gifs = 0
        for _ in range(200):
            record = await table.bot.tables.store.games.open_game(table.channel_id)
            if record is None:
                break
            state = loads(record.state_json, GAME)
            market_seen |= {c for c in state["market"] if c}
            (seat,) = GAME.to_act(state)
            user = users[seat]
            if not checked_hand:
                hand = await table.command(user, "game", "hand")
                assert hand.ephemeral
                assert hand.pngs and set(hand.pngs) <= pictures.private
                checked_hand = True
            suggestions = await table.suggest(user, "")
            assert 1 <= len(suggestions) <= 25
            await table.play(user, suggestions[0])
            after = loads((await table.bot.tables.store.games.get_game(record.id)).state_json, GAME)
            assert after["move"] > state["move"], f"{suggestions[0]} was not played"
            movements += len(after["history"]) - len(state["history"])
            public = [s for s in table.rec.sent if not s.ephemeral]
            text = " ".join(s.content for s in public)
            market_seen |= set(NAMED_PUBLICLY.findall(text))
            orders, tiles = in_hands(after)
            hidden = (orders - market_seen) | tiles
            for sent in public:
                assert not set(sent.pngs) & pictures.private, "a hand picture went public"
                for png in sent.pngs:
                    assert Image.open(io.BytesIO(png)).format == "PNG"
                for gif in sent.gifs:
                    assert Image.open(io.BytesIO(gif)).format == "GIF"
                gifs += len(sent.gifs)
                for secret in hidden:
                    assert secret not in sent.content, f"{secret} named in the channel"
            for view in pictures.public_views:
                assert not any(f'"{secret}"' in view for secret in hidden)
            pictures.public_views.clear()
        else:
            raise AssertionError("the game did not end")
        assert checked_hand
        assert movements == 4
        assert gifs >= 1, "the candy movement was never shown as a GIF"
        stats = await table.command(ALICE, "stats")
        assert "Sugarworks: 1 played" in stats.content
    finally:
        await table.close()
