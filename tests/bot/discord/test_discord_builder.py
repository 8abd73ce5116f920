"""The move builder through the bot: steps in a private message, a preview with Confirm
and Back for a move built in several steps, and clicks that are stale or forged refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.discord.flows import _preview_view
from bot.games import GAMES
from bot.games.engine import Action, loads
from bot.tables.moves import Choosing
from tests.support.clicking import components_of
from tests.support.discord_harness import Session

ALICE, BOB = 340000000000000001, 340000000000000002
GAME = GAMES["sugarworks"]


def ids(session: Session, message_id: int) -> list[str]:
    return [c["custom_id"] for c in components_of(session.rec.message(message_id))
            if "custom_id" in c]


def find(session: Session, message_id: int, target: str,
         op: str = "p") -> tuple[str, list[str] | None] | None:
    """The button, or the menu and its value, that does ``op`` with the path ``target``."""
    for c in components_of(session.rec.message(message_id)):
        custom_id = c.get("custom_id", "")
        if custom_id.startswith("cb:b:") and custom_id.endswith(":" + target) \
                and f":{op}0:" in custom_id:
            return custom_id, None
        if custom_id.startswith("cb:bs:") and any(o["value"] == f"{op}:{target}"
                                                  for o in c["options"]):
            return custom_id, [f"{op}:{target}"]
    return None


async def press(session: Session, user: int, message: int, target: str, op: str = "p"):
    found = find(session, message, target, op)
    assert found is not None, (target, op, ids(session, message))
    return await session.click(user, message, found[0], values=found[1])


def with_button(session: Session, message: int, custom_id: str) -> dict[str, Any]:
    """The message as a client that kept (or forged) a button with ``custom_id`` sends it."""
    button = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
    return {**session.rec.message(message),
            "components": [{"type": 1, "components": [button]}]}


async def state_of(session: Session) -> dict[str, Any]:
    record = await session.bot.tables.store.games.open_game(session.channel_id)
    return loads(record.state_json, GAME)


async def go_to(session: Session, user: int, message: int, target: str) -> None:
    """Click the steps on the way to ``target`` until its pick is offered."""
    for _ in range(6):
        if find(session, message, target) is not None:
            return
        words = target.split()
        ways = [" ".join(words[:n]) for n in range(len(words) - 1, 0, -1)]
        way = next((w for w in ways if find(session, message, w, "o") is not None), None)
        assert way is not None, (target, ids(session, message))
        await press(session, user, message, way, "o")
    raise AssertionError(f"{target} is never offered")


async def test_a_move_built_in_steps_is_previewed_privately_then_confirmed(tmp_path: Path):
    session = await Session.open(tmp_path, GAMES)
    try:
        await session.start(GAME.slug, humans=[ALICE, BOB], ai=1)
        record = await session.bot.tables.store.games.open_game(session.channel_id)
        users = {s.seat: s.user_id for s in record.seats if s.user_id}
        for _ in range(60):  # typed moves (not under test) until a factory action is due
            state = await state_of(session)
            seat = sorted(GAME.to_act(state))[0]
            legal = GAME.legal_actions(state, seat)
            drawing = previewed(state, seat, legal)
            if seat in users and len(legal) > 25 and drawing:
                break
            await session.play(users[seat], GAME.ai_action(state, seat).notation)
        else:
            raise AssertionError("no human ever could move a conveyor")
        target = drawing[0]
        user = users[seat]
        board = await session.command(user, "game", "board")
        hand = await session.click(user, board, f"cb:d:{record.id}")
        assert hand.ephemeral and hand.message_id is not None
        message = hand.message_id
        # Every step is the same private message, edited in place.
        await go_to(session, user, message, target)
        before = await state_of(session)
        preview = await press(session, user, message, target)
        assert preview.ephemeral and f"preview of `{target}`" in preview.content
        assert preview.pngs, "the preview shows the board after the move"
        assert await state_of(session) == before, "a preview plays nothing"
        assert not session.rec.public()
        found = find(session, message, target, "c")
        assert found is not None
        confirm = found[0]
        back = next(c for c in ids(session, message) if ":b0:" in c)
        await session.click(user, message, back)
        await press(session, user, message, target)
        # A forged path and a click from another player change nothing.
        forged = confirm.rsplit(":", 1)[0] + ":adjust nothing to z9"
        payload = session.gw.click(user, with_button(session, message, forged), forged)
        session.rec.clear()
        await session.gw.send(payload)
        assert "expired" in session.rec.last().content and session.rec.last().ephemeral
        other = users[next(s for s in users if s != seat)]
        refused = await session.click(other, message, confirm)
        assert refused.ephemeral and await state_of(session) == before
        await session.click(user, message, confirm)
        after = await state_of(session)
        assert after["move"] > before["move"]
        assert session.rec.public(), "the move is told publicly"
        assert "You played" in session.rec.message(message)["content"]
        # The confirm button is now stale: it plays nothing again.
        stale = session.gw.click(user, with_button(session, message, confirm), confirm)
        session.rec.clear()
        await session.gw.send(stale)
        assert session.rec.last().ephemeral and "expired" in session.rec.last().content
        assert (await state_of(session))["move"] == after["move"]
    finally:
        await session.close()


async def a_pick_to_preview(session: Session) -> tuple[int, int, str]:
    """Play typed moves until a player can adjust an output in steps; open their builder
    there: ``(player, their private builder message, the pick to preview)``."""
    await session.start(GAME.slug, humans=[ALICE, BOB], ai=1)
    record = await session.bot.tables.store.games.open_game(session.channel_id)
    users = {s.seat: s.user_id for s in record.seats if s.user_id}
    for _ in range(60):
        state = await state_of(session)
        seat = sorted(GAME.to_act(state))[0]
        legal = GAME.legal_actions(state, seat)
        drawing = previewed(state, seat, legal)
        if seat in users and len(legal) > 25 and drawing:
            break
        await session.play(users[seat], GAME.ai_action(state, seat).notation)
    else:
        raise AssertionError("no human ever could move a conveyor")
    user = users[seat]
    board = await session.command(user, "game", "board")
    hand = await session.click(user, board, f"cb:d:{record.id}")
    assert hand.message_id is not None
    await go_to(session, user, hand.message_id, drawing[0])
    return user, hand.message_id, drawing[0]


def previewed(state: dict[str, Any], seat: int, legal: list[Action]) -> list[str]:
    """The moves built in several steps that draw (a conveyor moved draws candies) and
    whose public result the player could work out: those are previewed."""
    choosing = Choosing(record=None, game=GAME, state=state, seat=seat,  # type: ignore[arg-type]
                        legal=tuple(legal), token="")
    return [a.notation for a in legal if a.notation.startswith("conveyor ")
            and not GAME.apply(state, seat, a).undoable
            and _preview_view(choosing, a) is not None]


def chance_free(state: dict[str, Any], seat: int, legal: list[Action]) -> list[str]:
    """The moves built in several steps that reveal nothing and draw nothing."""
    return [a.notation for a in legal if a.notation.startswith("adjust ")
            and GAME.apply(state, seat, a).undoable]


async def test_a_move_that_reveals_nothing_and_draws_nothing_is_played_at_its_last_tap(
        tmp_path: Path) -> None:
    session = await Session.open(tmp_path, GAMES)
    try:
        await session.start(GAME.slug, humans=[ALICE, BOB], ai=1)
        record = await session.bot.tables.store.games.open_game(session.channel_id)
        users = {s.seat: s.user_id for s in record.seats if s.user_id}
        for _ in range(60):
            state = await state_of(session)
            seat = sorted(GAME.to_act(state))[0]
            legal = GAME.legal_actions(state, seat)
            adjusts = chance_free(state, seat, legal)
            if seat in users and len(legal) > 25 and adjusts:
                break
            await session.play(users[seat], GAME.ai_action(state, seat).notation)
        else:
            raise AssertionError("no human ever could adjust an output")
        user = users[seat]
        board = await session.command(user, "game", "board")
        hand = await session.click(user, board, f"cb:d:{record.id}")
        assert hand.message_id is not None
        await go_to(session, user, hand.message_id, adjusts[0])
        before = await state_of(session)
        await press(session, user, hand.message_id, adjusts[0])
        # No preview and no Confirm: `/game undo` takes such a move back.
        assert (await state_of(session))["move"] == before["move"] + 1
        shown = session.rec.message(hand.message_id)
        assert "preview" not in shown["content"] and "You played" in shown["content"]
        assert not [c for c in components_of(shown) if c.get("label") == "Confirm"]
    finally:
        await session.close()


async def test_a_pick_whose_preview_discord_refuses_is_not_played(tmp_path: Path) -> None:
    session = await Session.open(tmp_path, GAMES)
    try:
        user, message, target = await a_pick_to_preview(session)
        before = await state_of(session)
        session.rec.fail_when(lambda s: s.path.startswith("/webhooks/") and bool(s.pngs),
                              status=500)
        await press(session, user, message, target)
        assert await state_of(session) == before, "played without Confirm"
        assert not [s for s in session.rec.public() if s.created]
        assert any("went wrong" in s.content for s in session.rec.private() if s.failed is None)
    finally:
        await session.close()


async def test_stale_and_forged_builder_steps_are_refused_privately_and_nothing_breaks(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    session = await Session.open(tmp_path, GAMES)
    try:
        user, message, target = await a_pick_to_preview(session)
        pick = find(session, message, target)
        assert pick is not None
        # Another game's number, an old decision's token, a path nobody offered.
        parts = pick[0].split(":")
        forged = [":".join([*parts[:2], "999", *parts[3:]]),
                  ":".join([*parts[:3], str(int(parts[3]) - 1), *parts[4:]]),
                  pick[0].rsplit(":", 1)[0] + ":adjust nothing to z9"]
        before = await state_of(session)
        for custom_id in forged:
            session.rec.clear()
            await session.gw.send(session.gw.click(
                user, with_button(session, message, custom_id), custom_id))
            answer = session.rec.last()
            assert answer.ephemeral and await state_of(session) == before
        assert "UnboundLocalError" not in caplog.text
        assert not [r for r in caplog.records if r.levelname == "ERROR"]
    finally:
        await session.close()
