"""Choices without clutter (issue 43), through the bot: each option offered once, a dearer
way to pay only when the player asks for more ways, menus that say what they ask, and
`/play` suggestions that put the likely moves first and explain a wrong argument of a
known move."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.games import GAMES
from bot.games.engine import loads
from tests.support.clicking import components_of, offered, twice
from tests.support.discord_harness import Session

ALICE, BOB = 380000000000000001, 380000000000000002
GAME = GAMES["sugar-heist"]


async def until(session: Session, wanted: Callable[[dict[str, Any], int], bool],
                ) -> tuple[dict[str, Any], int, int]:
    """Play the AI's moves for the humans (typed) until ``wanted(state, seat)`` holds for
    the human who acts: ``(state, seat, user)``."""
    record = await session.bot.tables.store.games.open_game(session.channel_id)
    assert record is not None
    users = {s.seat: s.user_id for s in record.seats if s.user_id}
    for _ in range(300):
        record = await session.bot.tables.store.games.open_game(session.channel_id)
        assert record is not None, "the game ended first"
        state = loads(record.state_json, GAME)
        seat = min(s for s in GAME.to_act(state) if s in users)
        if wanted(state, seat):
            return state, seat, users[seat]
        await session.play(users[seat], GAME.ai_action(state, seat).notation)
    raise AssertionError("never reached")


def dearer_ways(state: dict[str, Any], seat: int) -> bool:
    legal = GAME.legal_actions(state, seat)
    return len(GAME.rules.dominated(state, seat, legal)) >= 5


async def heist(tmp_path: Path) -> Session:
    session = await Session.open(tmp_path, GAMES)
    await session.start(GAME.slug, humans=[ALICE, BOB], ai=1)
    return session


def the_step(session: Session, user: int) -> int:
    """The newest message offering ``user``'s choices (the board or their DM)."""
    shown = [int(m["id"]) for m in session.rec.messages.values()
             if any(c.get("custom_id", "").startswith(("cb:b", "cb:m:", "cb:s:"))
                    for c in components_of(m))]
    return max(shown)


async def test_a_payment_offers_each_cheapest_way_once_and_the_dearer_ones_on_asking(
        tmp_path: Path) -> None:
    session = await heist(tmp_path)
    try:
        state, seat, user = await until(session, dearer_ways)
        legal = GAME.legal_actions(state, seat)
        dominated = GAME.rules.dominated(state, seat, legal)
        hand = await session.command(user, "game", "hand")
        message = hand.message_id or 0
        reach = offered(session.rec.message(message), legal, GAME.rules.multi_select(state, seat))
        assert not twice(reach), "an option shown twice"
        shown = {n for _, moves in reach for n in moves}
        assert shown and not shown & dominated, sorted(shown & dominated)
        assert shown == {a.notation for a in legal} - dominated
        # The dearer ways are one tap away, and one more tap pays with one of them.
        more = next(c for c in components_of(session.rec.message(message))
                    if c.get("label") == "More ways to pay…")
        await session.click(user, message, more["custom_id"])
        every = offered(session.rec.message(message), legal, None)
        assert {n for _, moves in every for n in moves} >= dominated
        dearest = max(dominated, key=len)
        pick = next(c for c in components_of(session.rec.message(message))
                    if c.get("custom_id", "").startswith("cb:bs:")
                    and any(o["value"].endswith(":" + dearest) or o["value"].startswith("p:#")
                            for o in c["options"]))
        value = next(o["value"] for o in pick["options"]
                     if o["value"] == "p:" + dearest or o["label"].startswith(dearest))
        await session.click(user, message, pick["custom_id"], values=[value])
        after = loads((await session.bot.tables.store.games.open_game(session.channel_id)
                       ).state_json, GAME)
        assert after["move"] == state["move"] + 1, "a public payment plays at its tap"
        assert "preview" not in session.rec.message(message)["content"]
    finally:
        await session.close()


async def test_a_menu_asks_what_it_is_for_instead_of_naming_its_first_and_last_option(
        tmp_path: Path) -> None:
    session = await heist(tmp_path)
    try:
        _state, _seat, user = await until(
            session, lambda state, seat: GAME.top(state) is None
            and len(GAME.legal_actions(state, seat)) > 25)
        hand = await session.command(user, "game", "hand")
        message = hand.message_id or 0
        for _ in range(3):
            menus = [c for c in components_of(session.rec.message(message)) if c["type"] == 3]
            if menus:
                break
            steps = [c for c in components_of(session.rec.message(message))
                     if c.get("custom_id", "").startswith("cb:b:")
                     and c["custom_id"].split(":")[5] == "o0"]
            step = next((c for c in steps if c["label"] == "build"), steps[0])
            await session.click(user, message, step["custom_id"])
        assert menus
        for menu in menus:
            labels = [o["label"] for o in menu["options"]]
            assert menu["placeholder"].startswith("Choose"), menu["placeholder"]
            assert labels[0] not in menu["placeholder"]
    finally:
        await session.close()


async def test_suggestions_put_pass_and_the_cheapest_first_and_dearer_payments_last(
        tmp_path: Path) -> None:
    session = await heist(tmp_path)
    try:
        state, seat, user = await until(
            session, lambda state, seat: GAME.top(state) is None
            and any(a.notation.startswith("build ") for a in GAME.legal_actions(state, seat)))
        suggested = await session.suggest(user, "")
        assert suggested[0] == "pass"
        costs = [cost(state, seat, notation) for notation in suggested[1:]]
        assert costs == sorted(costs), suggested
        state, seat, user = await until(session, dearer_ways)
        suggested = await session.suggest(user, "pay")
        dominated = GAME.rules.dominated(state, seat, GAME.legal_actions(state, seat))
        cheap = [n for n in suggested if n not in dominated]
        assert cheap and suggested[:len(cheap)] == cheap
    finally:
        await session.close()


def cost(state: dict[str, Any], seat: int, notation: str) -> int:
    label = next(a.label for a in GAME.legal_actions(state, seat) if a.notation == notation)
    return int(label.split("$", 1)[1].split(")")[0].split(":")[0])


async def test_a_known_move_with_a_wrong_argument_is_explained_as_typed_and_when_sent(
        tmp_path: Path) -> None:
    session = await heist(tmp_path)
    try:
        state, _seat, user = await until(
            session, lambda state, _seat: GAME.top(state) is not None
            and GAME.top(state).kind == "challenge")
        pool = state["heist"]["pool"]
        session.rec.clear()
        await session.gw.send(session.gw.command(user, "play", options={"action": "pay 9"},
                                                 focused="action",
                                                 channel_id=session.channel_id))
        (choice,) = session.rec.sent[-1].payload["data"]["choices"]  # type: ignore[index]
        assert choice["name"].startswith("pay 9: You have no 9: your dice are ")
        assert str(pool[-1]) in choice["name"]
        answer = await session.play(user, "pay 9")
        assert answer.ephemeral
        assert answer.content.startswith("`pay 9`: You have no 9: your dice are"), answer.content
        assert "not a Sugar Heist move" not in answer.content
        assert (await session.state())["move"] == state["move"]
    finally:
        await session.close()
