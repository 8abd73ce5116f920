"""A Sugar Heist game through Discord: two humans and an AI, from lobby to result.

Hands and face-down cards reach only their owner (ephemeral `/game hand`); a
human defends a heist and is pinged for the defender's decision, which they
answer with the dice menu; every public picture is drawn from a public view
that names no hidden card.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from PIL import Image

from bot.games import GAMES
from bot.games.engine import loads
from bot.games.sugar_heist import cards
from tests.support.discord_harness import PictureLog, Session, latest_public

ALICE, BOB = 330000000000000001, 330000000000000002
GAME = GAMES["sugar-heist"]
#: Cards whose effect asks the defender to choose, good to build in room 1 to defend.
DEFENDING = ("creaky door", "banana peel", "insidious lawn gnomes", "toothpick pit",
             "lights out", "hungry hamster", "big sister", "guard dog", "alarm bell")


def secrets(state: dict[str, Any]) -> set[str]:
    return {s for seat in range(len(state["seats"])) for s in GAME.rules.secrets(state, seat)}


def defending_build(suggestions: list[str]) -> str | None:
    for value in suggestions:
        if value.startswith("build ") and " room 1" in value and \
                any(value.startswith(f"build {name} ") for name in DEFENDING):
            return value
    return None




async def test_sugar_heist_two_humans_and_an_ai_from_lobby_to_result(tmp_path: Path):
    pictures = PictureLog()
    table = await Session.open(tmp_path, GAMES, renderer=pictures)
    users = {}
    try:
        await table.start("sugar-heist", humans=[ALICE, BOB], ai=1, rounds=2)
        record = await table.bot.tables.store.games.open_game(table.channel_id)
        users = {s.seat: s.user_id for s in record.seats if s.user_id}
        checked_hand = human_defended = used_menu = False
        for _ in range(400):
            record = await table.bot.tables.store.games.open_game(table.channel_id)
            if record is None:
                break
            state = loads(record.state_json, GAME)
            hidden = secrets(state)
            (seat,) = GAME.to_act(state)
            user = users[seat]
            top = GAME.top(state)
            if not checked_hand and state["players"][seat]["hand"]:
                hand = await table.command(user, "game", "hand")
                assert hand.ephemeral
                name = cards.design(state["players"][seat]["hand"][0])["name"]
                assert name.lower() in hand.content.lower()
                assert hand.pngs and set(hand.pngs) <= pictures.private
                checked_hand = True
            defending = top is not None and state["heist"] is not None and \
                top.kind in ("reroll", "lose", "add", "set") and \
                state["heist"]["defender"] == seat
            menu = latest_public(table.rec.sent, "cb:ms:") if defending else None
            if defending:
                human_defended = True
                pinged = [m for m in table.rec.sent if not m.ephemeral and f"<@{user}>" in
                          m.content]
                assert pinged, "the human defender is pinged"
            if menu is not None and not used_menu:
                select = next(c for row in menu.components for c in row["components"]
                              if c.get("custom_id", "").startswith("cb:ms:"))
                table.rec.clear()
                await table.click(user, menu, select["custom_id"],
                                  values=[select["options"][0]["value"]])
                moved = loads((await table.bot.tables.store.games.get_game(record.id)).state_json,
                              GAME)
                assert moved["move"] > state["move"], "the dice menu made the move"
                used_menu = True
            else:
                suggestions = await table.suggest(user, "")
                assert 1 <= len(suggestions) <= 25
                choice = suggestions[0]
                if state["prep"] is not None:
                    choice = defending_build(suggestions) or defending_build(
                        await table.suggest(user, "build")) or choice
                await table.play(user, choice)
            after = await table.bot.tables.store.games.get_game(record.id)
            still = secrets(loads(after.state_json, GAME)) & hidden
            for sent in table.rec.sent:
                if sent.ephemeral:
                    continue
                assert not set(sent.pngs) & pictures.private, "a private picture went public"
                for png in sent.pngs:
                    assert Image.open(io.BytesIO(png)).format == "PNG"
                for card in still:
                    assert card not in sent.content
            for text in pictures.public_views:
                assert not any(card in text for card in still)
            pictures.public_views.clear()
        else:
            raise AssertionError("the game did not end")
        assert checked_hand and human_defended and used_menu
        stats = await table.command(ALICE, "stats")
        assert "Sugar Heist: 1 played" in stats.content
    finally:
        await table.close()
