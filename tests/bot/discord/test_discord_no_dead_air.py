"""No dead air (issue 43, point 4, its Discord parts): Join answers the player privately
with the thread's link, the lobby says its options in words, a watcher's `/game status`
is theirs alone, and a menu value the bot never offered (forged, or from an older move)
is refused privately, nothing changed and nothing logged as an error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.games import GAMES
from tests.support.clicking import components_of
from tests.support.discord_harness import CHANNEL_ID, Session
from tools.offline import INVITED

ALICE, BOB, CAROL = 395000000000000001, 395000000000000002, 395000000000000003


async def lobby_in_thread(session: Session, game: str, **options: Any) -> int:
    """``/game new`` in a channel where games get threads: the thread (and card) id."""
    session.rec.room(CHANNEL_ID).permissions = INVITED
    before = {t.id for t in session.rec.threads()}
    await session.gw.send(session.gw.command(ALICE, "game", "new", {"game": game, **options},
                                             channel_id=CHANNEL_ID))
    (thread,) = [t for t in session.rec.threads() if t.id not in before]
    return thread.id


async def test_join_answers_the_player_privately_with_the_threads_link(tmp_path: Path) -> None:
    session = await Session.open(tmp_path, GAMES)
    try:
        thread = await lobby_in_thread(session, "sugar-blast")
        await session.click(BOB, thread, ":join")
        answers = [s for s in session.rec.messages_sent() if s.ephemeral]
        assert len(answers) == 1, [s.content for s in session.rec.messages_sent()]
        assert f"<#{thread}>" in answers[0].content and "seat 2" in answers[0].content
        assert not answers[0].notifies()
    finally:
        await session.close()


async def test_the_lobby_says_its_options_in_words(tmp_path: Path) -> None:
    session = await Session.open(tmp_path, GAMES)
    try:
        lobby = await session.command(ALICE, "game", "new", {"game": "sugar-heist"})
        assert "one round per player, as the rulebook says" in lobby.content, lobby.content
        assert "rounds: 0" not in lobby.content
    finally:
        await session.close()
    (tmp_path / "again").mkdir()
    session = await Session.open(tmp_path / "again", GAMES)
    try:
        lobby = await session.command(BOB, "game", "new", {"game": "sugarworks", "rounds": 5})
        assert "board side a (for first games)" in lobby.content, lobby.content
        assert "an order deck of 5 rounds" in lobby.content
    finally:
        await session.close()


async def test_a_watchers_status_is_answered_to_them_alone(tmp_path: Path) -> None:
    session = await Session.open(tmp_path, GAMES)
    try:
        await session.start("sugar-blast", humans=[ALICE, BOB])
        watcher = await session.command(CAROL, "game", "status")
        assert watcher.ephemeral and "Sugar Blast" in watcher.content, watcher.content
        player = await session.command(ALICE, "game", "status")
        assert not player.ephemeral
    finally:
        await session.close()


def with_menu(session: Session, message: int, menu: dict[str, Any],
              values: list[str]) -> dict[str, Any]:
    """The message as a client that offers ``values`` in ``menu`` sends it (forged)."""
    forged = {**menu, "options": [{"label": v, "value": v} for v in values]}
    return {**session.rec.message(message),
            "components": [{"type": 1, "components": [forged]}]}


@pytest.mark.parametrize("values", [["p:#99"], ["o:no such move"], ["x:#0"], ["p:"]])
async def test_a_forged_builder_menu_value_is_refused_privately_without_a_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, values: list[str]) -> None:
    session = await Session.open(tmp_path, GAMES)
    try:
        menu, message, user = await a_builder_menu(session)
        before = await session.state()
        session.rec.clear()
        await session.gw.send(session.gw.click(
            user, with_menu(session, message, menu, values), menu["custom_id"], values=values))
        answer = session.rec.last()
        assert answer.ephemeral and ("expired" in answer.content or "older" in answer.content), \
            answer.content
        assert await session.state() == before
        assert not [r for r in caplog.records if r.levelname == "ERROR"]
        assert "Traceback" not in caplog.text and "UnboundLocalError" not in caplog.text
    finally:
        await session.close()


async def test_a_menu_of_an_older_move_is_refused_privately_and_plays_nothing(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    session = await Session.open(tmp_path, GAMES)
    try:
        menu, message, user = await a_builder_menu(session)
        value = menu["options"][0]["value"]
        old = session.rec.message(message)
        state = json.loads((await session.bot.tables.store.games.open_game(session.channel_id)
                            ).state_json)
        seat = next(s for s in GAMES["sugarworks"].to_act(state))
        await session.play(user, GAMES["sugarworks"].ai_action(state, seat).notation)
        before = await session.state()
        session.rec.clear()
        await session.gw.send(session.gw.click(user, old, menu["custom_id"], values=[value]))
        answer = session.rec.last()
        assert answer.ephemeral and await session.state() == before
        assert not [r for r in caplog.records if r.levelname == "ERROR"]
    finally:
        await session.close()


async def a_builder_menu(session: Session) -> tuple[dict[str, Any], int, int]:
    """A Sugarworks game where a human's private steps show a builder menu: ``(the menu,
    its message, the player)``."""
    game = GAMES["sugarworks"]
    await session.start(game.slug, humans=[ALICE, BOB], ai=1)
    record = await session.bot.tables.store.games.open_game(session.channel_id)
    assert record is not None
    users = {s.seat: s.user_id for s in record.seats if s.user_id}
    for _ in range(60):
        state = json.loads((await session.bot.tables.store.games.open_game(session.channel_id)
                            ).state_json)
        seat = min(game.to_act(state))
        if seat in users and len(game.legal_actions(state, seat)) > 25:
            hand = await session.command(users[seat], "game", "hand")
            message = hand.message_id or 0
            for _ in range(4):
                shown = components_of(session.rec.message(message))
                menus = [c for c in shown if c.get("custom_id", "").startswith("cb:bs:")]
                if menus:
                    return menus[0], message, users[seat]
                step = next(c for c in shown if c.get("custom_id", "").startswith("cb:b:")
                            and c["custom_id"].split(":")[5] == "o0")
                await session.click(users[seat], message, step["custom_id"])
        await session.play(users[seat], game.ai_action(state, seat).notation)
    raise AssertionError("no builder menu was ever shown")
