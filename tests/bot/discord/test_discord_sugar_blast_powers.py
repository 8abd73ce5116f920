"""Power cards through Discord: the `power` option of /game new, the lobby, a whole game."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.games import GAMES
from renderers import render
from tests.support.discord_harness import Session

ALICE = 300000000000000011


async def option_suggestions(session: Session, typed: str) -> list[str]:
    session.rec.clear()
    await session.gw.send(session.gw.command(
        ALICE, "game", "new", {"game": "sugar-blast", "power": typed}, focused="power",
        channel_id=session.channel_id))
    return [c["value"] for c in session.rec.sent[-1].payload["data"]["choices"]]


async def test_a_power_card_game_from_the_lobby_to_the_end(tmp_path: Path):
    session = await Session.open(tmp_path, GAMES, renderer=render)
    try:
        assert "bomb" in await option_suggestions(session, "bom")
        # Pairs are suggested too, from the game's own option_suggestions.
        assert "bomb + wild" in await option_suggestions(session, "bomb")
        assert "none" in await option_suggestions(session, "")
        lobby = await session.command(ALICE, "game", "new",
                                      {"game": "sugar-blast", "power": "Rush, tongs"})
        assert "power cards tongs + rush" in lobby.content, lobby.content
        await session.click(ALICE, lobby, ":ai")
        board = await session.click(ALICE, lobby, ":start")
        # Two seats' board is 800 x 900; the power cards' strip comes under it.
        width, height = Image.open(io.BytesIO(board.pngs[-1])).size
        assert width == 800 and 1000 <= height <= 1.6 * width
        for _ in range(300):
            state = await session.state()
            if state is None:
                break
            assert state["power"]["cards"] == ["tongs", "rush"]
            typed = await session.suggest(ALICE)
            assert typed, "Alice always has a move when the game waits for her"
            sent = await session.play(ALICE, typed[0])
            assert not sent.ephemeral, sent.content
        else:
            raise AssertionError("the game did not end")
        rules = await session.command(ALICE, "game", "rules", {"game": "sugar-blast"})
        assert "Option `power`" in rules.content
    finally:
        await session.close()


async def test_a_bad_power_option_is_refused_privately_with_the_cards_named(tmp_path: Path):
    session = await Session.open(tmp_path, GAMES, renderer=render)
    try:
        reply = await session.command(ALICE, "game", "new",
                                      {"game": "sugar-blast", "power": "bomb + nope"})
        assert reply.ephemeral and "toffee, star, frozen" in reply.content
    finally:
        await session.close()
