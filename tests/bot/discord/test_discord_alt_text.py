"""Every picture the bot posts carries alt text (the attachment's ``description``, at
most 1,024 characters), so that a screen reader says what a board shows: boards, a
seat's own view, previews, movement GIFs, replays and the leaderboard."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

import bot.games
from bot.games.engine import Engine, loads
from tests.support.discord_harness import Session
from tools.offline import Sent

ALICE, BOB = 396000000000000001, 396000000000000002
#: Discord's bound on an attachment's description.
ALT_MOST = 1024


def pictures(sent: list[Sent]) -> list[tuple[Sent, str]]:
    """Every file the bot sent, with its alt text."""
    return [(s, alt) for s in sent if s.files for alt in s.alt_texts]


@pytest.mark.parametrize("slug", list(bot.games.GAMES))
async def test_every_picture_of_a_game_says_what_it_shows(tmp_path: Path, slug: str) -> None:
    game = bot.games.GAMES[slug]
    table = await Session.open(tmp_path, bot.games.GAMES)
    sent: list[Sent] = []
    try:
        await table.start(slug, humans=(ALICE, BOB), ai=1)
        sent += table.rec.messages_sent()
        for _ in range(8):
            record = await table.bot.tables.store.games.open_game(table.channel_id)
            assert record is not None and record.state_json is not None
            state = loads(record.state_json, game)
            seat = next(s for s in record.seats if s.seat in game.to_act(state) and not s.ai)
            await table.play(seat.user_id or 0, game.ai_action(state, seat.seat).notation)
            sent += table.rec.messages_sent()
        for user, command, options in ((ALICE, "hand", None), (BOB, "board", None),
                                       (ALICE, "replay", None)):
            await table.command(user, "game", command, options)
            sent += table.rec.messages_sent()
        await table.command(BOB, "stats", options={"board": slug})
        sent += table.rec.messages_sent()
    finally:
        await table.close()
    shown = pictures(sent)
    kinds = {s.files[0][0].rsplit(".", 1)[-1] for s, _ in shown}
    assert len(shown) >= 8 and {"png", "gif"} <= kinds
    for message, alt in shown:
        assert alt.strip(), f"a picture without alt text: {message.path} {message.content[:80]}"
        assert len(alt) <= ALT_MOST
    boards = [alt for s, alt in shown if not s.ephemeral and s.pngs]
    assert any(game.title in alt for alt in boards), "a board's alt text names the game"
    # What the picture leaves out for a phone, the alt text says: the game's own summary.
    assert any(game.rules.summary(state) in alt for alt in boards)
    (replay,) = [alt for s, alt in shown if s.files[0][0] == "replay.gif"]
    assert game.title in replay and "move" in replay and "goes on" in replay


async def test_a_finished_games_replay_says_how_it_ended(tmp_path: Path) -> None:
    from tests.support.race_game import CandyDash

    table = await Session.open(tmp_path, {"candy-dash": Engine(CandyDash())})
    try:
        await table.start("candy-dash", humans=(ALICE, BOB), target=3)
        while (record := await table.bot.tables.store.games.open_game(table.channel_id)):
            turn = loads(record.state_json or "", Engine(CandyDash()))["turn"]
            await table.play((ALICE, BOB)[turn], "step")
        (game,) = await table.bot.tables.store.games.games_in_channel(table.channel_id)
        table.rec.clear()
        await table.command(BOB, "game", "replay", {"game": game.id})
        ((_sent, alt),) = pictures(table.rec.messages_sent())
    finally:
        await table.close()
    assert alt.startswith("An animated replay of Candy Dash: 5 moves.")
    assert alt.endswith("Player1 reached 3 first."), "the game's own summary of how it ended"


async def test_a_plays_alt_text_is_worked_out_off_the_event_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's summary in a board's alt text (a third of a millisecond a Sugartopia
    /play) is worked out with the board, in a thread, not on the event loop every channel
    waits for."""
    slug = "sugartopia"
    game = bot.games.GAMES[slug]
    rules = type(game.rules)
    summary = rules.summary
    on_loop: list[bool] = []

    def watched(self: object, state: dict[str, object]) -> str:
        on_loop.append(threading.current_thread() is threading.main_thread())
        return summary(self, state)  # type: ignore[arg-type]

    table = await Session.open(tmp_path, bot.games.GAMES)
    try:
        await table.start(slug, humans=(ALICE, BOB))
        record = await table.bot.tables.store.games.open_game(table.channel_id)
        assert record is not None and record.state_json is not None
        state = loads(record.state_json, game)
        seat = next(s for s in record.seats if s.seat in game.to_act(state))
        monkeypatch.setattr(rules, "summary", watched)
        table.rec.clear()
        await table.play(seat.user_id or 0, game.ai_action(state, seat.seat).notation)
        (board,) = [alt for s, alt in pictures(table.rec.messages_sent())
                    if not s.ephemeral and s.pngs]
        after = await table.bot.tables.store.games.open_game(table.channel_id)
        assert after is not None and after.state_json is not None
    finally:
        await table.close()
    assert on_loop and not any(on_loop)
    assert summary(game.rules, loads(after.state_json, game)) in board
