"""A channel that reads well over days: quiet refusals, buttons that say what they are,
lobbies with a host who is seated, narration that reads once, catching up after a day."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.games
from bot.discord import messages
from bot.discord.components import UNKNOWN_BUTTON
from bot.games.engine import Engine, RulesVersionError, State, versions
from bot.tables import Step
from tests.support.discord_harness import CHANNEL_ID, EPHEMERAL, Sent, Session
from tests.support.race_game import CandyDash, CandyDuel, CandyRace, CandyStroll

ALICE, BOB, CAROL = 340000000000000001, 340000000000000002, 340000000000000003
OTHER_CHANNEL = 700000000000000099


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Session]:
    games = {g.slug: Engine(g) for g in (CandyRace(), CandyDash(), CandyStroll(), CandyDuel())}
    session = await Session.open(tmp_path, games)
    yield session
    await session.close()


def refused_at_once(session: Session) -> Sent:
    """The only answer was one private message, with no public placeholder before it (a
    private "thinking" note that the answer replaces may come first)."""
    assert [s for s in session.rec.sent if s.kind == 5 and not
            int((s.payload or {}).get("data", {}).get("flags") or 0) & EPHEMERAL] == []
    assert [s for s in session.rec.sent if s.method == "DELETE"] == []
    (answer,) = session.rec.messages_sent()
    assert answer.ephemeral, answer
    return answer


# --------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(("user", "text", "says"), [
    (ALICE, "fly away", "is not a Candy Dash move"),
    (BOB, "step", "It is not your turn"),
    (CAROL, "step", "You are not playing"),
])
async def test_a_refused_move_is_answered_privately_without_a_public_placeholder(
        table: Session, user: int, text: str, says: str) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB))
    await table.play(user, text)
    assert says in refused_at_once(table).content


@pytest.mark.parametrize(("user", "sub", "says"), [
    (CAROL, "leave", "not playing"),
    (ALICE, "undo", "nothing of yours to undo"),
    (CAROL, "undo", "not playing"),
])
async def test_refused_game_commands_flash_nothing_in_the_channel(
        table: Session, user: int, sub: str, says: str) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB))
    await table.command(user, "game", sub)
    assert says in refused_at_once(table).content


async def test_board_and_replay_without_a_game_are_refused_privately(table: Session) -> None:
    for sub in ("board", "replay", "leave", "undo"):
        await table.command(ALICE, "game", sub)
        assert "no game in this channel" in refused_at_once(table).content


# --------------------------------------------------------------------------- buttons


async def test_a_button_clicked_in_another_channel_does_nothing_there(table: Session) -> None:
    board = await table.start("candy-dash", humans=(ALICE, BOB))
    elsewhere = {**table.rec.message(board.message_id or 0), "channel_id": str(OTHER_CHANNEL)}
    step = next(c for c in board.custom_ids if c.endswith(":step"))
    table.rec.clear()
    await table.gw.send(table.gw.click(ALICE, elsewhere, step))
    told = refused_at_once(table)
    assert f"belongs to a game in <#{CHANNEL_ID}>" in told.content
    state = await table.state()
    assert state is not None and state["move"] == 0


async def test_a_lobby_button_clicked_in_another_channel_leaves_the_lobby_alone(
        table: Session) -> None:
    lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    elsewhere = {**table.rec.message(lobby.message_id or 0), "channel_id": str(OTHER_CHANNEL)}
    table.rec.clear()
    await table.gw.send(table.gw.click(BOB, elsewhere, lobby.custom_ids[0]))
    assert "belongs to a game in" in refused_at_once(table).content
    record = await table.bot.tables.store.games.open_game(CHANNEL_ID)
    assert record is not None and [s.user_id for s in record.seats] == [ALICE]


@pytest.mark.parametrize("custom_id", ["cb:turn:1:0:step", "candybot-move-7", "cb:m:1:x:y:z"])
async def test_a_button_the_bot_does_not_know_is_answered_privately(
        table: Session, custom_id: str) -> None:
    board = await table.start("candy-dash", humans=(ALICE, BOB))
    message = {**table.rec.message(board.message_id or 0), "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "Old",
                                    "custom_id": custom_id}]}]}
    table.rec.clear()
    await table.gw.send(table.gw.click(ALICE, message, custom_id))
    assert refused_at_once(table).content == UNKNOWN_BUTTON


async def test_a_forged_button_that_is_not_on_the_message_is_answered_privately(
        table: Session) -> None:
    board = await table.start("candy-dash", humans=(ALICE, BOB))
    table.rec.clear()
    await table.gw.send(table.gw.click(ALICE, table.rec.message(board.message_id or 0),
                                       "cb:m:1:0:m0:jump"))
    assert refused_at_once(table).content == UNKNOWN_BUTTON


async def test_buttons_of_the_older_format_still_play_at_their_move(table: Session) -> None:
    board = await table.start("candy-dash", humans=(ALICE, BOB))
    old = "cb:move:1:0:step"
    message = {**table.rec.message(board.message_id or 0), "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "step",
                                    "custom_id": old}]}]}
    table.rec.clear()
    await table.gw.send(table.gw.click(ALICE, message, old))
    assert "🟦● **Player1** steps to 1." in table.rec.last().content
    table.rec.clear()
    await table.gw.send(table.gw.click(ALICE, message, old))
    assert "expired" in table.rec.last().content


# --------------------------------------------------------------------------- lobby


async def test_the_lobby_passes_to_the_next_player_when_its_host_leaves(table: Session) -> None:
    lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    for user in (BOB, CAROL):
        await table.click(user, lobby, ":join")
    assert f"hosted by <@{ALICE}>" in table.rec.message(lobby.message_id or 0)["content"]
    left = await table.click(ALICE, lobby, ":leave")
    assert f"hosted by <@{BOB}>" in left.content
    assert f"1. 🟦● <@{BOB}>" in left.content and f"2. 🟧■ <@{CAROL}>" in left.content
    refused = await table.click(CAROL, lobby, ":start")
    assert refused.ephemeral and f"Only the lobby's host (<@{BOB}>) can start" in refused.content
    board = await table.click(BOB, lobby, ":start")
    assert "Players: 🟦● **Player2** · 🟧■ **Player3**" in board.content


async def test_a_lobby_everyone_left_closes(table: Session) -> None:
    lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    closed = await table.click(ALICE, lobby, ":leave")
    assert "Everyone left, so this lobby closed." in closed.content
    assert closed.custom_ids == []
    assert await table.bot.tables.store.games.open_game(CHANNEL_ID) is None


# --------------------------------------------------------------------------- narration


async def test_a_take_over_names_the_ai_and_reads_once(table: Session) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB), reminder_hours=1.0, ai_takeover=True)
    for _ in range(4):
        table.clock.advance(1.01)
        await table.bot.send_due()
    takeover = table.rec.last()
    assert "an AI stands in for them until they are back" in takeover.content
    (line,) = [x for x in takeover.content.splitlines() if "**Player1**" in x
               and not x.startswith(("Players", "🤖"))]
    # The deal is random, so the AI may step or play a card; either way it is named once.
    assert re.match(r"The AI, for 🟦● \*\*Player1\*\*, (plays a \d|steps to \d)", line), line
    assert line.count("Player1") == 1, line
    log = await table.command(BOB, "game", "log", {"n": 1})
    assert "the last 1 move." in log.content and "the AI for Player1" in log.content


COUNTED = re.compile(r"(?<![\w.])1 (moves|cookies|candies|points|coins|cards|players|turns|"
                     r"rounds|reminders|seats|sweets|monsters|bears|gems|cubes)\b")


def test_no_text_of_any_game_says_one_with_a_plural() -> None:
    from tests.support.playthrough import play

    checked = 0
    for game in bot.games.GAMES.values():
        for seed, players in enumerate(sorted({game.min_seats, min(game.max_seats, 4)})):

            def on_step(step: Any, slug: str = game.slug, game: Any = game) -> None:
                nonlocal checked
                outcome = step.outcome
                texts = [e.text for e in outcome.events]
                texts.append(messages.step_line(game, Step(
                    seat=step.seat, name="Ann",
                    notation=outcome.public or outcome.action.notation,
                    events=tuple(outcome.narration(None)), by_ai=False,
                    hidden=bool(outcome.action.public))))
                for text in texts:
                    assert not COUNTED.search(text), f"{slug}: {text}"
                checked += len(texts)

            play(game, seed, players, on_step=on_step)
    assert checked > 100


def test_the_bots_own_counts_agree_with_their_nouns() -> None:
    assert messages.fit(["a" * 40] * 3 + ["end"], limit=120).count("1 more line:") == 1
    game = bot.games.GAMES["sugar-blast"]
    assert "in 1 earlier move" not in " ".join(messages.since_lines(game, (), 1, None))
    assert messages.since_lines(game, (Step(seat=0, name="Ann", notation="step", events=(),
                                            by_ai=False),), 1, None)[0] == \
        "Since your last turn (1 earlier move in `/game log`):"


# --------------------------------------------------------------------------- the end, undo


async def test_the_last_human_leaving_posts_the_final_result(table: Session) -> None:
    await table.start("candy-dash", humans=(ALICE,), ai=1)
    ended = await table.command(ALICE, "game", "leave")
    assert not ended.ephemeral and "**Game over.**" in ended.content
    assert "Player1 left the game, and no players remain: the game is over." in ended.content
    assert "1. 🟧■ **AI 1**:" in ended.content and "2. 🟦● **Player1 (AI)**:" in ended.content


async def test_undo_takes_back_the_move_and_the_ai_replies_from_the_saved_state(
        table: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    await table.start("candy-stroll", humans=(ALICE,), ai=2)
    before = await table.state()
    await table.play(ALICE, "step")

    def rerun(*args: Any, **kwargs: Any) -> State:
        raise AssertionError("undo must restore the saved state, not play the game again")

    monkeypatch.setattr(versions, "replay", rerun)
    monkeypatch.setattr(versions, "begin", rerun)
    undone = await table.command(ALICE, "game", "undo")
    assert not undone.ephemeral
    assert "Player1 took back `step` and the 2 AI moves after it." in undone.content
    assert await table.state() == before


# --------------------------------------------------------------------------- rules versions


async def test_a_game_under_other_rules_refuses_replay_privately(
        table: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB))
    await table.play(ALICE, "step")
    monkeypatch.setattr(CandyDash, "rules_version", 2)
    monkeypatch.setattr(CandyDash, "_upgrade", lambda self, state: state)
    await table.command(BOB, "game", "replay")
    assert "cannot be replayed" in refused_at_once(table).content
    board = await table.command(BOB, "game", "board")
    assert not board.ephemeral, "the game itself carries on"


async def test_a_game_that_cannot_be_carried_over_says_so_privately(
        table: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB))
    monkeypatch.setattr(CandyDash, "rules_version", 2)
    await table.command(BOB, "game", "board")
    told = refused_at_once(table).content
    assert "cannot be carried over" in told and "/game abort" in told
    await table.play(ALICE, "step")
    assert "cannot be carried over" in refused_at_once(table).content
    assert issubclass(RulesVersionError, Exception)


# --------------------------------------------------------------------------- coming back


async def test_status_says_when_the_next_reminder_and_the_ai_come(table: Session) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB), reminder_hours=2.0, ai_takeover=True)
    start = table.clock.now
    status = await table.command(BOB, "game", "status")
    assert f"Next reminder <t:{int(start + 2 * 3600)}:R>" in status.content
    assert f"The AI moves for them <t:{int(start + 8 * 3600)}:R>" in status.content
    table.clock.advance(2.01)
    await table.bot.send_due()
    status = await table.command(BOB, "game", "status")
    assert f"<t:{int(start + 8 * 3600 + 0.01 * 3600)}:R>" in status.content
