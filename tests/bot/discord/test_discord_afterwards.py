"""A finished game stays readable: board, status, log and replay answer about the channel's
last ended game until the next one starts, and `/game history` lists the ended games."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games.engine import Engine, View, loads
from bot.store import SeatRecord
from tests.support.discord_harness import MANAGE_CHANNELS, Sent, Session, fake_render
from tests.support.race_game import CandyDash, CandyDuel, CandyRace

ALICE, BOB = 350000000000000001, 350000000000000002
OTHER_CHANNEL = 700000000000000077


class Views:
    """Fake pictures that remember the views they were drawn from."""

    def __init__(self) -> None:
        self.seen: list[View] = []

    def __call__(self, view: View) -> bytes:
        self.seen.append(view)
        return fake_render(view)


@pytest.fixture
def views() -> Views:
    return Views()


@pytest.fixture
async def table(tmp_path: Path, views: Views) -> AsyncIterator[Session]:
    games = {g.slug: g for g in (Engine(CandyRace()), Engine(CandyDash()), Engine(CandyDuel()))}
    session = await Session.open(tmp_path, games, renderer=views)
    yield session
    await session.close()


async def race_to_the_end(table: Session) -> Sent:
    """Alice and Bob step in turn until Alice reaches 3: the final board."""
    await table.start("candy-race", humans=(ALICE, BOB), target=3)
    for user in (ALICE, BOB, ALICE, BOB):
        await table.play(user, "step")
    final = await table.play(ALICE, "step")
    assert "**Game over.** Player1 reached 3 first." in final.content
    assert await table.state() is None, "the channel is free again"
    return final


async def test_after_the_end_board_status_log_and_replay_show_the_finished_game(
        table: Session, views: Views) -> None:
    await race_to_the_end(table)
    views.seen.clear()
    board = await table.command(BOB, "game", "board")
    assert not board.ephemeral and board.pngs
    assert "**Game over.** Player1 reached 3 first." in board.content
    assert [c.split(":")[1] for c in board.custom_ids] == ["rm"], \
        "an ended game offers only its rematch"
    assert views.seen and all(v["hand"] is None for v in views.seen), "hands stay hidden"

    status = await table.command(BOB, "game", "status")
    assert "Player1 reached 3 first." in status.content and "ended <t:" in status.content
    assert "Scores: Player1 3, Player2 2." in status.content
    assert "Waiting for" not in status.content

    log = await table.command(BOB, "game", "log", {"n": 2})
    assert "4. Player2: `step` · Player2 steps to 2." in log.content
    assert "5. Player1: `step` · Player1 steps to 3." in log.content

    replay = await table.command(BOB, "game", "replay")
    assert replay.gifs and "5 moves" in replay.content


async def test_the_finished_game_stays_on_show_until_the_next_one_starts(
        table: Session) -> None:
    await race_to_the_end(table)
    lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    board = await table.command(BOB, "game", "board")
    assert "**Game over.** Player1 reached 3 first." in board.content, "a lobby is not a game"
    await table.click(BOB, lobby, ":join")
    await table.click(ALICE, lobby, ":start")
    board = await table.command(BOB, "game", "board")
    assert "Game over" not in board.content and "Candy Dash" in board.content
    log = await table.command(BOB, "game", "log")
    assert "no moves yet" in log.content


async def test_an_aborted_game_reads_as_ended_without_a_result(table: Session) -> None:
    await table.start("candy-race", humans=(ALICE, BOB))
    await table.play(ALICE, "step")
    await table.command(ALICE, "game", "abort", permissions=MANAGE_CHANNELS)
    board = await table.command(BOB, "game", "board")
    assert not board.ephemeral and "ended without a result" in board.content
    assert "Your turn" not in board.content and not board.custom_ids
    status = await table.command(BOB, "game", "status")
    assert "ended without a result" in status.content
    log = await table.command(BOB, "game", "log")
    assert "1. Player1: `step` · Player1 steps to 1." in log.content


async def test_a_cancelled_lobby_leaves_nothing_to_read(table: Session) -> None:
    lobby = await table.command(ALICE, "game", "new", {"game": "candy-race"})
    await table.click(ALICE, lobby, ":cancel")
    for sub in ("board", "status", "log", "replay"):
        answer = await table.command(BOB, "game", sub)
        assert answer.ephemeral and "no game in this channel" in answer.content, sub
    history = await table.command(BOB, "game", "history")
    assert "No game has ended in this channel yet." in history.content


async def test_history_lists_ended_games_newest_first_with_their_results(
        table: Session) -> None:
    await race_to_the_end(table)
    first = (await table.bot.tables.store.games.past_games(table.channel_id))[0].id
    await table.start("candy-dash", humans=(ALICE, BOB))
    await table.command(ALICE, "game", "abort", permissions=MANAGE_CHANNELS)
    second = (await table.bot.tables.store.games.past_games(table.channel_id))[0].id
    history = await table.command(BOB, "game", "history")
    assert not history.ephemeral
    lines = history.content.splitlines()
    assert lines[1].startswith(f"`{second}` **Candy Dash**")
    assert lines[1].endswith("ended without a result.")
    assert lines[2].startswith(f"`{first}` **Candy Race**")
    assert lines[2].endswith("1. 🟦● **Player1** 3 · 2. 🟧■ **Player2** 2")
    assert "`/game replay game:<number>`" in history.content


async def test_an_older_game_is_replayed_and_logged_by_its_number(table: Session) -> None:
    await race_to_the_end(table)
    first = (await table.bot.tables.store.games.past_games(table.channel_id))[0].id
    await table.start("candy-dash", humans=(ALICE, BOB))
    replay = await table.command(BOB, "game", "replay", {"game": first})
    assert replay.gifs and f"game {first}, 5 moves" in replay.content
    log = await table.command(BOB, "game", "log", {"game": first, "n": 1})
    assert "5. Player1: `step` · Player1 steps to 3." in log.content
    current = await table.command(BOB, "game", "log")
    assert "no moves yet" in current.content


async def ended_elsewhere(table: Session, channel: int, state_json: str = "{}") -> int:
    """A game stored straight into ``channel`` (the harness plays in one channel only),
    started and aborted: its number."""
    store = table.bot.tables.store
    seats = (SeatRecord(0, ALICE, "Player1", False), SeatRecord(1, BOB, "Player2", False))
    record = await store.games.create_lobby(channel_id=channel, guild_id=None, game="candy-race",
                                            creator_id=ALICE, options={}, settings={}, now=0.0)
    record = await store.games.set_seats(record.id, record.version, seats, 0.0)
    record = await store.games.start(record.id, record.version, seed=1, state_json=state_json,
                                     seats=seats, now=0.0, next_reminder_at=None)
    await store.games.abort(record.id, 1.0)
    return record.id


async def test_an_ended_game_with_a_damaged_state_is_unreadable_without_pointing_to_abort(
        table: Session) -> None:
    number = await ended_elsewhere(table, table.channel_id)
    for sub in ("board", "status", "replay"):
        answer = await table.command(BOB, "game", sub)
        assert answer.ephemeral, sub
        assert f"Game {number} has ended, but its saved state is damaged" in answer.content
        assert "abort" not in answer.content
    history = await table.command(BOB, "game", "history")
    assert f"`{number}` **Candy Race**" in history.content


@pytest.mark.parametrize("number", [404, None])
async def test_a_game_number_from_elsewhere_is_refused_privately(
        table: Session, number: int | None) -> None:
    if number is None:  # a game that ended in another channel
        number = await ended_elsewhere(table, OTHER_CHANNEL)
    for sub in ("replay", "log"):
        answer = await table.command(BOB, "game", sub, {"game": number})
        assert answer.ephemeral and f"There is no game {number} in this channel" in \
            answer.content


async def test_a_secret_bid_stays_secret_after_the_end(table: Session) -> None:
    await table.start("candy-duel", humans=(ALICE, BOB), rounds=1)
    await table.play(ALICE, "bid 3")
    await table.play(BOB, "bid 1")
    record = (await table.bot.tables.store.games.games_in_channel(table.channel_id))[-1]
    while (record := await table.bot.tables.store.games.get_game(record.id)).status == "active":
        duel = table.bot.tables.game("candy-duel")
        state = loads(record.state_json or "", duel)
        seat = min(duel.to_act(state))
        user = ALICE if seat == 0 else BOB
        legal = duel.legal_actions(state, seat)
        await table.play(user, legal[0].notation)
    log = await table.command(BOB, "game", "log", {"n": 50})
    assert "placed a bid" in log.content and "bid 3" not in log.content


async def test_after_the_end_a_player_still_sees_their_own_final_hand_privately(
        table: Session, views: Views) -> None:
    await race_to_the_end(table)
    views.seen.clear()
    hand = await table.command(BOB, "game", "hand")
    assert hand.ephemeral and hand.pngs
    assert "This game is over" in hand.content
    assert not hand.custom_ids, "an ended game offers nothing to decide"
    assert views.seen and all(v["hand"] is not None for v in views.seen), "his own view"
    outsider = await table.command(350000000000000009, "game", "hand")
    assert outsider.ephemeral and "did not play" in outsider.content
