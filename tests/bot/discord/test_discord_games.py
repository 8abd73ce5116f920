"""``/games``: a player's games on every server, the ones waiting on them first, with
links to their latest boards, through the real discord.py machinery."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.games
from bot.app import create_bot
from bot.config import Settings
from bot.discord import messages
from bot.games.engine import Engine
from bot.store import GameRecord
from bot.tables import MyGame
from tests.support.discord_harness import CHANNEL_ID, GUILD_ID, Clock, Session
from tests.support.race_game import CandyDash, CandyRace

ALICE, BOB, CAROL = 300000000000000001, 300000000000000002, 300000000000000003
OTHER_GUILD = 800000000000000002
SECOND, THIRD = CHANNEL_ID + 1, CHANNEL_ID + 2
LINK = re.compile(r"https://discord\.com/channels/(\d+|@me)/(\d+)/(\d+)")


@pytest.fixture
async def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Session]:
    for game in (Engine(CandyRace()), Engine(CandyDash())):
        monkeypatch.setitem(bot.games.GAMES, game.slug, game)
    opened = await Session.open(tmp_path, bot.games.GAMES)
    yield opened
    await opened.close()


def in_guild(session: Session, guilds: dict[int, int]) -> None:
    """Make the gateway send each channel's interactions from its own server."""
    base = session.gw._base

    def payload(kind: int, user_id: int, **kw: Any) -> dict[str, Any]:
        built = base(kind, user_id, **kw)
        guild = guilds.get(int(built["channel_id"]), GUILD_ID)
        built["guild_id"] = built["channel"]["guild_id"] = str(guild)
        return built

    session.gw._base = payload  # type: ignore[method-assign]


async def start_in(session: Session, channel: int, game: str, humans: tuple[int, ...]) -> int:
    """Start a game in ``channel``; the id of its first board message."""
    session.channel_id = channel
    board = await session.start(game, humans=humans, target=30)
    assert board.message_id is not None
    return board.message_id


async def games_of(session: Session, user: int) -> str:
    answer = await session.command(user, "games")
    assert answer.ephemeral, "the list is for the caller only"
    return answer.content


async def test_games_lists_the_waiting_one_first_across_servers_with_board_links(
        session: Session) -> None:
    in_guild(session, {THIRD: OTHER_GUILD})
    first = await start_in(session, CHANNEL_ID, "candy-race", (BOB, ALICE))
    session.clock.advance(24)
    second = await start_in(session, SECOND, "candy-dash", (ALICE, BOB))
    session.clock.advance(24)
    third = await start_in(session, THIRD, "candy-race", (ALICE, CAROL))
    session.clock.advance(6)
    # Alice moves in the third game: now it waits on Carol.
    session.channel_id = THIRD
    moved = await session.play(ALICE, "step")
    third = moved.message_id or third

    text = await games_of(session, ALICE)
    lines = text.splitlines()
    assert lines[0] == "Your games: 1 game waiting on you."
    assert "Candy Dash" in lines[1] and "your turn for 30 hours" in lines[1]
    assert "Candy Race" in lines[2] and "waiting for Player2" in lines[2]
    assert "Candy Race" in lines[3] and "waiting for Player3" in lines[3]
    links = [LINK.search(line).groups() for line in lines[1:]]  # type: ignore[union-attr]
    assert links == [(str(GUILD_ID), str(SECOND), str(second)),
                     (str(GUILD_ID), str(CHANNEL_ID), str(first)),
                     (str(OTHER_GUILD), str(THIRD), str(third))]

    # Bob waits in the first game, longest; then in none of the others.
    session.channel_id = CHANNEL_ID
    bob = (await games_of(session, BOB)).splitlines()
    assert bob[0] == "Your games: 1 game waiting on you."
    assert "your turn for 2 days" in bob[1] and f"/{CHANNEL_ID}/" in bob[1]
    assert "Candy Dash" in bob[2] and "waiting for Player1" in bob[2]
    assert len(bob) == 3, "Bob does not sit at the third server's table"


async def test_games_orders_several_waiting_games_by_the_longest_wait(session: Session) -> None:
    await start_in(session, CHANNEL_ID, "candy-race", (ALICE, BOB))
    session.clock.advance(3)
    await start_in(session, SECOND, "candy-dash", (ALICE, BOB))
    session.clock.advance(2)
    lines = (await games_of(session, ALICE)).splitlines()
    assert lines[0] == "Your games: 2 games waiting on you."
    assert "Candy Race" in lines[1] and "your turn for 5 hours" in lines[1]
    assert "Candy Dash" in lines[2] and "your turn for 2 hours" in lines[2]


async def test_a_player_in_no_game_is_told_so_privately(session: Session) -> None:
    await start_in(session, CHANNEL_ID, "candy-race", (ALICE, BOB))
    text = await games_of(session, CAROL)
    assert text.startswith("You are not playing any game right now")


async def test_finished_games_of_the_last_week_show_their_result(session: Session) -> None:
    session.channel_id = CHANNEL_ID
    await session.start("candy-race", humans=(ALICE, BOB), target=3)
    for user in (ALICE, BOB, ALICE, BOB, ALICE):
        await session.play(user, "step")
    assert await session.state() is None, "Alice reached 3 first"
    alice = (await games_of(session, ALICE)).splitlines()
    assert alice[0] == "Your games: none is waiting on you."
    assert "Candy Race" in alice[1] and "you won (Player1 reached 3 first.)" in alice[1]
    bob = (await games_of(session, BOB)).splitlines()
    assert "you placed 2 of 2" in bob[1]
    session.clock.advance(24 * 8)
    assert (await games_of(session, ALICE)).startswith("You are not playing")


async def test_a_player_who_left_sees_the_game_until_it_ends(session: Session) -> None:
    await start_in(session, CHANNEL_ID, "candy-race", (ALICE, BOB, CAROL))
    await session.command(BOB, "game", "leave")
    assert (await games_of(session, BOB)).startswith("You are not playing")
    assert "waiting for Player1" in (await games_of(session, CAROL))
    await session.command(ALICE, "game", "leave")
    await session.command(CAROL, "game", "leave")  # no human left: the game ends
    assert "you left it" in (await games_of(session, BOB)).splitlines()[1]
    assert "you left it, ended" in (await games_of(session, CAROL)).splitlines()[1]


def entry(n: int) -> MyGame:
    record = GameRecord(n, CHANNEL_ID, GUILD_ID, "candy-race", "active", ALICE, {}, {}, 1,
                        "{}", 1, (), 0.0, 0.0, 0.0, 0, None, None, 10 ** 17 + n, None)
    return MyGame(record=record, title="Candy Race " + "x" * 60, your_turn=True)


def test_a_long_list_is_cut_by_whole_entries_with_how_many_more() -> None:
    text = messages.my_games_text([entry(n) for n in range(1, 60)], 3600.0 * 24)
    assert len(text) <= messages.MAX_CONTENT
    shown = [line for line in text.splitlines() if line.startswith("- ")]
    assert all(LINK.search(line) for line in shown), "no entry is cut in the middle"
    assert text.splitlines()[-1] == f"… and {59 - len(shown)} more."


async def test_games_answers_in_a_direct_message_too(session: Session) -> None:
    await start_in(session, CHANNEL_ID, "candy-race", (ALICE, BOB))
    payload = session.gw.command(ALICE, "games", channel_id=THIRD)
    member = payload.pop("member")
    payload.pop("guild_id")
    payload["user"] = member["user"]
    payload["channel"] = {"id": str(THIRD), "type": 1, "recipients": [member["user"]]}
    payload["context"] = 1
    session.rec.clear()
    await session.gw.send(payload)
    answer = session.rec.last()
    assert answer.ephemeral
    assert "your turn for" in answer.content
    assert f"/channels/{GUILD_ID}/{CHANNEL_ID}/" in answer.content


def test_games_may_be_used_in_servers_and_direct_messages(tmp_path: Path) -> None:
    client = create_bot(Settings(db_path=tmp_path / "x.db"), renderer=None, clock=Clock())
    command = next(c for c in client.tree.get_commands() if c.name == "games").to_dict(
        client.tree)
    assert set(command["contexts"]) == {0, 1, 2}
    assert set(command["integration_types"]) == {0, 1}
