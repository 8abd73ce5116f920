"""Offline tests through the real discord.py machinery: lobby to game over, and the rules
of who may do what."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import bot.games
from bot.discord.client import CandyBot
from bot.games.engine import Engine
from tests.support.discord_harness import (
    CHANNEL_ID,
    MANAGE_CHANNELS,
    Clock,
    Gateway,
    Recorder,
    Sent,
    UserOption,
    start_bot,
)
from tests.support.race_game import CandyDash, CandyRace

ALICE, BOB, CAROL = 300000000000000001, 300000000000000002, 300000000000000003


@dataclass
class Env:
    bot: CandyBot
    gw: Gateway
    rec: Recorder
    clock: Clock
    db: Path

    async def restart(self) -> None:
        """Close this bot and start a new instance on the same database."""
        await self.bot.close()
        self.rec = Recorder()
        self.bot, self.gw = await start_bot(self.db, self.clock, bot.games.GAMES, self.rec)


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    for game in (Engine(CandyRace()), Engine(CandyDash())):
        monkeypatch.setitem(bot.games.GAMES, game.slug, game)
    return bot.games.GAMES


@pytest.fixture
async def env(tmp_path: Path, registry: dict[str, Any]) -> AsyncIterator[Env]:
    rec, clock = Recorder(), Clock()
    client, gw = await start_bot(tmp_path / "bot.db", clock, registry, rec)
    environment = Env(client, gw, rec, clock, tmp_path / "bot.db")
    yield environment
    await environment.bot.close()


# --------------------------------------------------------------------------- helpers


async def new_game(env: Env, user: int = ALICE, **options: Any) -> Sent:
    await env.gw.send(env.gw.command(user, "game", "new", options))
    return env.rec.last()


def message_of(env: Env, sent: Sent) -> dict[str, Any]:
    assert sent.message_id is not None
    return env.rec.messages[sent.message_id]


def button(sent: Sent, ending: str) -> str:
    return next(c for c in sent.custom_ids if c.endswith(ending))


async def click(env: Env, user: int, sent: Sent, custom_id: str, **kw: Any) -> None:
    await env.gw.send(env.gw.click(user, message_of(env, sent), custom_id, **kw))


async def started_dash(env: Env, *, ai: int = 1, humans: tuple[int, ...] = (),
                       **options: Any) -> Sent:
    lobby = await new_game(env, game="candy-dash", **options)
    for user in humans:
        await click(env, user, lobby, button(lobby, ":join"))
    for _ in range(ai):
        await click(env, ALICE, lobby, button(lobby, ":ai"))
    env.rec.clear()
    await click(env, ALICE, lobby, button(lobby, ":start"))
    return env.rec.last()


async def play(env: Env, user: int, text: str) -> Sent:
    env.rec.clear()
    await env.gw.send(env.gw.command(user, "play", options={"action": text}))
    return env.rec.last()


# --------------------------------------------------------------------------- a whole game


async def test_a_lobby_with_a_human_and_an_ai_plays_to_game_over(env: Env) -> None:
    lobby = await new_game(env, game="candy-dash", target="3")
    assert not lobby.ephemeral and "Candy Dash" in lobby.content
    assert {c.rsplit(":", 1)[1] for c in lobby.custom_ids} == {"join", "leave", "ai", "start",
                                                                  "cancel"}
    assert lobby.body["allowed_mentions"]["parse"] == []

    await click(env, ALICE, lobby, button(lobby, ":ai"))
    edit = env.rec.last()
    assert edit.kind == 7 and "AI 1" in edit.content

    env.rec.clear()
    await click(env, ALICE, lobby, button(lobby, ":start"))
    board = env.rec.last()
    assert board.pngs, "the board is posted as a PNG"
    assert f"<@{ALICE}>" in board.content
    # The board hands Alice the turn: it is the one message that notifies her.
    assert board.notifies() == {ALICE} and env.rec.notified_users() == [ALICE]
    assert any(c.startswith("cb:m:") for c in board.custom_ids)

    for _ in range(20):
        if "Game over" in board.content:
            break
        step = next(c for c in board.custom_ids if c.endswith(":step"))
        env.rec.clear()
        await click(env, ALICE, board, step)
        # The AI's reply hands the turn back: the board carries the ping.
        board = next(s for s in env.rec.messages_sent() if s.pngs)
        assert not board.ephemeral
        assert "**AI 1** " in board.content or "Game over" in board.content
    assert "Game over" in board.content
    assert "1. " in board.content and "2. " in board.content
    assert [c.split(":")[1] for c in board.custom_ids] == ["rm"], "only Rematch is left"

    env.rec.clear()
    await env.gw.send(env.gw.command(ALICE, "stats"))
    assert "Candy Dash: 1 played" in env.rec.last().content


async def test_a_second_new_game_explains_how_to_end_the_first(env: Env) -> None:
    await new_game(env, game="candy-dash")
    again = await new_game(env, game="candy-race")
    assert again.ephemeral and "/game abort" in again.content


async def test_an_option_of_another_game_is_refused_kindly(env: Env) -> None:
    sent = await new_game(env, game="candy-dash", pace="brisk")
    assert sent.ephemeral and "Unknown option 'pace'" in sent.content


async def test_option_autocomplete_offers_the_selected_games_values(env: Env) -> None:
    await env.gw.send(env.gw.command(ALICE, "game", "new", {"game": "candy-race", "pace": "b"},
                                     focused="pace"))
    sent = env.rec.sent[-1]
    assert sent.kind == 8
    assert [c["value"] for c in sent.payload["data"]["choices"]] == ["brisk"]


# --------------------------------------------------------------------------- moves


async def test_play_autocomplete_lists_only_the_callers_legal_moves(env: Env) -> None:
    await started_dash(env, ai=0, humans=(BOB,))
    env.rec.clear()
    await env.gw.send(env.gw.command(ALICE, "play", options={"action": "pl"}, focused="action"))
    choices = env.rec.sent[-1].payload["data"]["choices"]
    assert 1 <= len(choices) <= 25
    assert all(c["value"].startswith("play ") for c in choices)
    env.rec.clear()
    await env.gw.send(env.gw.command(BOB, "play", options={"action": ""}, focused="action"))
    assert env.rec.sent[-1].payload["data"]["choices"] == []


async def test_typed_notation_is_accepted(env: Env) -> None:
    await started_dash(env, ai=1)
    sent = await play(env, ALICE, "  STEP ")
    assert "🟦● **Player1** steps to 1." in sent.content
    assert sent.pngs and not sent.ephemeral


async def test_an_illegal_move_gets_an_ephemeral_explanation(env: Env) -> None:
    await started_dash(env, ai=1)
    sent = await play(env, ALICE, "play 9")
    assert sent.ephemeral and "not a legal move" in sent.content
    assert not any(s.pngs for s in env.rec.sent)


async def test_a_move_out_of_turn_says_whose_turn_it_is(env: Env) -> None:
    await started_dash(env, ai=0, humans=(BOB,))
    sent = await play(env, BOB, "step")
    assert sent.ephemeral and "waiting for Player1" in sent.content


async def test_a_stranger_is_told_they_are_not_playing(env: Env) -> None:
    board = await started_dash(env, ai=1)
    env.rec.clear()
    await click(env, CAROL, board, button(board, ":step"))
    sent = env.rec.last()
    assert sent.ephemeral and "not playing" in sent.content


async def test_a_new_board_takes_the_buttons_off_the_old_one(env: Env) -> None:
    board = await started_dash(env, ai=1)
    assert message_of(env, board)["components"]
    # A typed move, then /game board: each new board leaves only itself clickable.
    moved = await play(env, ALICE, "step")
    assert message_of(env, board)["components"] == []
    assert message_of(env, moved)["components"]
    env.rec.clear()
    await env.gw.send(env.gw.command(ALICE, "game", "board"))
    again = env.rec.last()
    assert message_of(env, moved)["components"] == [] and message_of(env, again)["components"]


async def test_a_click_on_an_old_board_says_privately_what_happened_since(env: Env) -> None:
    board = await started_dash(env, ai=1)
    old = dict(message_of(env, board))  # the click was on its way before the buttons went
    await play(env, ALICE, "step")
    env.rec.clear()
    await env.gw.send(env.gw.click(ALICE, old, button(board, ":step")))
    (sent,) = env.rec.messages_sent()
    assert sent.ephemeral, "refused privately: nothing public, not even a placeholder"
    assert [s for s in env.rec.sent if s.kind == 5] == []
    assert "expired" in sent.content
    # The deal is random: the AI's reply may be a step or a card.
    assert "Since it was offered: Player1 played `step`; AI 1 played `" in sent.content


async def test_two_clicks_at_once_apply_exactly_one_move(env: Env) -> None:
    board = await started_dash(env, ai=0, humans=(BOB,))
    record = await env.bot.tables.store.games.open_game(CHANNEL_ID)
    env.rec.clear()
    step = button(board, ":step")
    message = message_of(env, board)
    await env.gw.send(env.gw.click(ALICE, message, step), env.gw.click(ALICE, message, step))
    posted = [s for s in env.rec.messages_sent() if s.pngs]
    told = [s for s in env.rec.messages_sent() if s.ephemeral]
    assert len(posted) == 1 and len(told) == 1
    assert "already made" in told[0].content
    assert record is not None
    assert len(await env.bot.tables.store.moves.actions(record.id)) == 1


async def test_undo_takes_back_the_callers_move_for_everyone_to_see(env: Env) -> None:
    await started_dash(env, ai=0, humans=(BOB,))
    await play(env, ALICE, "step")
    env.rec.clear()
    await env.gw.send(env.gw.command(ALICE, "game", "undo"))
    sent = env.rec.last()
    assert not sent.ephemeral and "took back `step`" in sent.content and sent.pngs
    assert f"<@{ALICE}>" in sent.content


async def test_undo_of_someone_elses_move_is_refused(env: Env) -> None:
    await started_dash(env, ai=0, humans=(BOB,))
    await play(env, ALICE, "step")
    env.rec.clear()
    await env.gw.send(env.gw.command(BOB, "game", "undo"))
    sent = env.rec.last()
    assert sent.ephemeral and "own last move" in sent.content


# --------------------------------------------------------------------------- hidden information


async def test_hidden_hands_are_shown_only_ephemerally_to_their_owner(env: Env) -> None:
    lobby = await new_game(env, game="candy-race")
    await click(env, BOB, lobby, button(lobby, ":join"))
    env.rec.clear()
    await click(env, ALICE, lobby, button(lobby, ":start"))
    board = env.rec.last()
    assert not any(c.startswith("cb:m:") for c in board.custom_ids)

    record = await env.bot.tables.store.games.open_game(CHANNEL_ID)
    assert record is not None
    hand = json.loads(record.state_json)["hands"][0]
    env.rec.clear()
    await env.gw.send(env.gw.command(ALICE, "game", "hand"))
    private = env.rec.last()
    assert private.ephemeral and private.pngs
    assert f"`play {hand[0]}`" in private.content
    assert any(c.startswith("cb:m:") for c in private.custom_ids)
    # The public messages never carried the hand.
    public = [s for s in env.rec.sent if not s.ephemeral and s.content]
    assert all("play " not in s.content for s in public)

    await click(env, ALICE, private, button(private, ":step"))
    moved = env.rec.public()[-1]
    assert not moved.ephemeral and "**Player1** steps to 1." in moved.content


async def test_a_game_without_hidden_information_says_so_in_the_hand(env: Env) -> None:
    await started_dash(env, ai=1)
    env.rec.clear()
    await env.gw.send(env.gw.command(CAROL, "game", "hand"))
    assert env.rec.last().ephemeral and "not playing" in env.rec.last().content


# --------------------------------------------------------------------------- abort, leave


async def test_abort_is_for_the_creator_or_a_channel_manager(env: Env) -> None:
    await started_dash(env, ai=0, humans=(BOB,))
    env.rec.clear()
    await env.gw.send(env.gw.command(BOB, "game", "abort"))
    assert env.rec.last().ephemeral and "Manage Channels" in env.rec.last().content
    await env.gw.send(env.gw.command(CAROL, "game", "abort", permissions=MANAGE_CHANNELS))
    ended = env.rec.last()
    assert not ended.ephemeral and "ended this game" in ended.content
    assert await env.bot.tables.store.games.open_game(CHANNEL_ID) is None


async def test_leaving_hands_the_seat_to_an_ai(env: Env) -> None:
    await started_dash(env, ai=0, humans=(BOB,))
    env.rec.clear()
    await env.gw.send(env.gw.command(ALICE, "game", "leave"))
    sent = env.rec.last()
    assert "an AI took their seat" in sent.content and "Player1 (AI)" in sent.content
    assert f"<@{BOB}>" in sent.content


async def test_status_log_rules_and_replay(env: Env) -> None:
    await started_dash(env, ai=1)
    await play(env, ALICE, "step")
    env.rec.clear()
    await env.gw.send(env.gw.command(ALICE, "game", "status"))
    status = env.rec.last().content
    assert "<t:" in status and ":R>" in status and "Scores:" in status
    await env.gw.send(env.gw.command(ALICE, "game", "log", {"n": 5}))
    assert "1. Player1: `step`" in env.rec.last().content
    await env.gw.send(env.gw.command(ALICE, "game", "rules", {"game": "candy-race"}))
    rules = env.rec.last()
    assert rules.ephemeral and "`play 2`" in rules.content
    env.rec.clear()
    await env.gw.send(env.gw.command(ALICE, "game", "replay"))
    gif = env.rec.last()
    assert gif.files and gif.files[0][1].startswith(b"GIF8")


async def test_stats_for_another_user(env: Env) -> None:
    await env.gw.send(env.gw.command(
        ALICE, "stats", options={"user": UserOption(BOB)},
        resolved={"users": {str(BOB): {"id": str(BOB), "username": "bob", "discriminator": "0",
                                       "global_name": "Bob", "avatar": None}}}))
    assert f"<@{BOB}> has not finished a game" in env.rec.last().content
