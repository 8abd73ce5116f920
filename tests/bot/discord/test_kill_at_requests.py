"""A real ``candybot run`` SIGKILLed at every request of a step, then started again on
the same database: players see every saved move within 15 s, one live board per game,
the card current, and nothing orphaned (issue 42, "Done when"; tests/support/after_kill.py).

Each test repeats its step with the kill at its 1st, 2nd, ... request, before Discord
carries the request out or after it (the answer lost), on one database and one offline
Discord; the games it needs are set up beforehand with the bot in this process.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.after_kill import (
    DONE,
    KilledBot,
    Outcome,
    Position,
    Step,
    game_in_thread,
    hands_over,
    in_process,
    keeps_the_turn,
    played_until,
)
from tools.offline import ALL_PERMISSIONS, CHANNEL_ID, Recorder
from tools.offline_http import OfflineServer

pytestmark = pytest.mark.slow  # a real bot process killed and started dozens of times

#: Games set up for a test: more than its step makes requests, twice (a game per kill).
GAMES = 20
#: Someone who plays in none of the games, and someone who opens one.
ONLOOKER, ALICE = 369999999999999999, 369999999999999998


def people() -> Iterator[int]:
    """Players, each in one game only (no one meets the limits on lobbies and seats)."""
    return itertools.count(360000000000000001)


def threads_room() -> Recorder:
    rec = Recorder()
    rec.room(CHANNEL_ID).permissions = ALL_PERMISSIONS  # a game in a thread of its own
    return rec


async def positions(db: Path, rec: Recorder, want: Any) -> list[Position]:
    """:data:`GAMES` games of Sugar Blast in their threads, each where the player to act
    has a move ``want`` likes (with no ``want``: each game over, its last move played)."""
    found: list[Position] = []
    users = people()

    async def work(bot: Any, gateway: Any) -> None:
        for _ in range(3 * GAMES):
            if len(found) == GAMES:
                return
            host, guest = next(users), next(users)
            thread = await game_in_thread(bot, gateway, rec, CHANNEL_ID, host, guest)
            position = await played_until(bot, gateway, thread, {0: host, 1: guest}, want)
            if position is None:
                continue  # that game ended before it came to such a move
            if want is None:  # the last move, then the game is over
                await gateway.send(gateway.command(position.user, "play",
                                                   options={"action": position.notation},
                                                   channel_id=thread))
            found.append(position)

    await in_process(db, rec, work)
    assert len(found) == GAMES, f"only {len(found)} games came to such a move"
    return found


async def killed_everywhere(tmp_path: Path, rec: Recorder, steps: Iterator[Step],
                            board_of: int | None = None) -> list[Outcome]:
    """Start the bot on the offline Discord, kill it at every request of a step (a new one
    each time), before Discord carries it out and then after; ``board_of``: a thread whose
    board someone outside the game asks for first, so that the bot's render workers have
    started when the step is counted."""
    with OfflineServer(rec) as server:
        bot = await KilledBot.open(server, tmp_path / "candybot.db")
        def warm() -> None:
            assert board_of is not None
            bot.command(ONLOOKER, "game", "board", channel_id=board_of)

        try:
            bot.start()
            return await bot.kill_everywhere(steps,
                                             warm=warm if board_of is not None else None)
        finally:
            await bot.close()


def held(outcomes: list[Outcome]) -> None:
    """Every kill kept every promise (the outcomes are printed either way: `pytest -rA`)."""
    verdict = "\n".join(str(o) for o in outcomes)
    print(verdict)
    assert not any(o.broken for o in outcomes), verdict


def moves(ready: list[Position]) -> Iterator[Step]:
    """``/play`` of each position's move by its player, in turn."""
    for at in ready:
        yield Step(lambda bot, at=at: bot.command(at.user, "play", options={
            "action": at.notation}, channel_id=at.thread), at.thread)


async def test_the_bot_under_test_is_candybot_run_on_the_offline_discord(
        tmp_path: Path) -> None:
    rec = threads_room()
    with OfflineServer(rec) as server:
        bot = await KilledBot.open(server, tmp_path / "candybot.db")
        try:
            bot.start()
            bot.command(ALICE, "game", "new", {"game": "sugar-blast"}, channel_id=CHANNEL_ID)
            bot.quiet(DONE)
            assert await bot.problems() == [] and await bot.orphans() == []
            assert server.call(lambda: [s.content for s in rec.private()]) == [
                f"Your lobby for **Sugar Blast** is open: <#{rec.threads()[0].id}>. Players "
                f"join with the buttons on its card; the game is played in its thread."]
        finally:
            assert bot.bot.stop() == 0, "a clean stop"
            await bot.close()
    assert "ready as candybot; 1 server;" in bot.bot.log.read_text()
    assert "stopped on SIGTERM" in bot.bot.log.read_text()


async def test_a_kill_at_every_request_of_opening_a_game_leaves_nothing_orphaned(
        tmp_path: Path) -> None:
    rec = threads_room()
    steps = (Step(lambda bot, host=host: bot.command(
        host, "game", "new", {"game": "sugar-blast"}, channel_id=CHANNEL_ID))
        for host in people())
    held(await killed_everywhere(tmp_path, rec, steps))


@pytest.mark.parametrize("want", [keeps_the_turn, hands_over],
                         ids=["keeping-the-turn", "handing-over"])
async def test_a_kill_at_every_request_of_a_move_shows_it(tmp_path: Path, want: Any) -> None:
    """A Sugar Blast swap that leaves its player to choose which Blast goes first (or
    which candy to keep), or a move that hands the turn to the other player."""
    rec = threads_room()
    ready = await positions(tmp_path / "candybot.db", rec, want)
    held(await killed_everywhere(tmp_path, rec, moves(ready), ready[-1].thread))


async def test_a_kill_at_every_request_of_a_rematch_leaves_one_usable_lobby(
        tmp_path: Path) -> None:
    rec = threads_room()
    ended = await positions(tmp_path / "candybot.db", rec, None)
    steps = (Step(lambda bot, at=at: bot.click(at.user, at.thread, "cb:rm:"), at.thread)
             for at in ended)  # Rematch, on the game's card
    held(await killed_everywhere(tmp_path, rec, steps, ended[-1].thread))
