"""What a saved change must show reaches the players whatever dies or fails in between
(issue 42): the bot killed at each request of a move and started again shows, within 15
seconds, the move's board (one board with buttons, the latest), the buttons taken off the
older one, the card as the game stands and the ping, once; an older board never lands
after a newer one; a failing DM holds back nobody else's ping."""

from __future__ import annotations

import asyncio
import inspect
import json
import re
import subprocess
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discord import surfaces
from bot.games.engine import Engine
from tests.support.discord_harness import CHANNEL_ID, Clock, Recorder, Sent, Session, start_bot
from tests.support.race_game import CandyHop
from tools.offline import ALL_PERMISSIONS, Died, Gateway

ALICE, BOB, CAROL = 360000000000000001, 360000000000000002, 360000000000000003
GAMES = {"candy-hop": Engine(CandyHop())}
#: How soon, after a killed bot is started again, every saved move must be shown.
RECOVERY_SECONDS = 15.0


def gone_pid() -> int:
    """The number of a process that has come and gone on this host."""
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


class Process:
    """A bot process on one database, killed and started again; Discord (the recorder)
    and the clock live on. The channel lets the bot open threads, so each game has its
    thread and its card."""

    def __init__(self, folder: Path) -> None:
        self.db = folder / "bot.db"
        self.rec = Recorder()
        self.clock = Clock()
        self.rec.room(CHANNEL_ID).permissions = ALL_PERMISSIONS
        self.session: Session

    async def boot(self) -> None:
        bot, gw = await start_bot(self.db, self.clock, GAMES, self.rec)
        self.session = Session(bot, gw, self.rec, self.clock)
        outbox: Any = bot.outbox
        if hasattr(outbox, "take_over"):
            # What this process claims is held in the name of a process the system will
            # find gone once it is killed (as a killed process is).
            from bot.discord.outbox import Sender

            me = outbox.sender
            outbox.sender = Sender(f"{me.name}-doomed", gone_pid(), me.mark)
            await outbox.take_over()

    @property
    def bot(self) -> Any:
        return self.session.bot

    @property
    def gw(self) -> Gateway:
        return self.session.gw

    async def kill(self) -> None:
        """What SIGKILL leaves: the database as committed, Discord as it is."""
        bot = self.bot
        for task in (bot._reminders, bot._sender, bot._heartbeat):
            if task is not None:
                task.cancel()
        await discord.Client.close(bot)
        await bot.tables.close()

    async def start_again(self) -> None:
        await self.kill()
        await self.boot()

    async def recover(self) -> None:
        """The started bot's background loop, a pass a second for
        :data:`RECOVERY_SECONDS`."""
        deliver = self.bot.outbox.deliver
        loop = {"handlers_first": True} \
            if "handlers_first" in inspect.signature(deliver).parameters else {}
        begun = self.clock.now
        while self.clock.now - begun <= RECOVERY_SECONDS:
            await deliver(**loop)
            self.clock.now += 1.0

    async def close(self) -> None:
        await self.bot.close()


@pytest.fixture
async def proc(tmp_path: Path) -> AsyncIterator[Process]:
    p = Process(tmp_path)
    await p.boot()
    yield p
    await p.close()


async def new_thread_game(proc: Process, target: int = 3) -> int:
    """Alice hosts a game of Candy Hop to ``target`` in a thread of its own, Bob joins,
    Alice starts it; the thread (its card has the same id)."""
    before = {t.id for t in proc.rec.threads()}
    await proc.gw.send(proc.gw.command(ALICE, "game", "new",
                                       {"game": "candy-hop", "target": target}))
    (thread,) = [t.id for t in proc.rec.threads() if t.id not in before]
    proc.session.channel_id = thread
    await proc.session.click(BOB, thread, ":join")
    await proc.session.click(ALICE, thread, ":start")
    return thread


def boards_in(rec: Recorder, thread: int) -> list[dict[str, Any]]:
    return [m for m in rec.messages.values()
            if int(m["channel_id"]) == thread and m["attachments"]]


def live_boards(rec: Recorder, thread: int) -> list[dict[str, Any]]:
    """The boards of the thread that still have buttons."""
    return [m for m in boards_in(rec, thread) if m["components"]]


async def click_move(proc: Process, thread: int, user: int, move: str) -> None:
    """Tap ``move`` on the thread's board with buttons."""
    (board,) = live_boards(proc.rec, thread)
    ids = [c["custom_id"] for row in board["components"] for c in row["components"]]
    await proc.gw.send(proc.gw.click(user, board, next(i for i in ids
                                                       if i.endswith(f":{move}"))))


def is_board_post(thread: int) -> Callable[[Sent], bool]:
    return lambda s: s.method == "POST" and s.channel_id == thread and bool(s.pngs)


def is_strip(thread: int) -> Callable[[Sent], bool]:
    return lambda s: (s.method == "PATCH" and s.channel_id == thread
                      and s.body.get("components") == [] and not s.body.get("content"))


def is_card_edit(s: Sent) -> bool:
    return s.method == "PATCH" and s.channel_id == CHANNEL_ID


#: Where the bot dies in a move, after the move is committed.
KILLS = ("after the commit", "at the board's post", "after the board's post",
         "at the strip", "at the card")
#: The moves: one that keeps the turn (no ping), one that hands it over, the last one.
MOVES = {"keeps the turn": (ALICE, "hop"), "hands the turn over": (ALICE, "step"),
         "ends the game": (ALICE, "step")}


@pytest.mark.parametrize("kill", KILLS)
@pytest.mark.parametrize("move", list(MOVES))
async def test_a_bot_killed_at_each_step_of_a_move_shows_it_all_within_15_s_of_its_start(
        proc: Process, monkeypatch: pytest.MonkeyPatch, kill: str, move: str) -> None:
    thread = await new_thread_game(proc)
    if move == "ends the game":  # Alice hops and rests, Bob steps: Alice's step wins
        await click_move(proc, thread, ALICE, "hop")
        await click_move(proc, thread, ALICE, "rest")
        await click_move(proc, thread, BOB, "step")
    user, notation = MOVES[move]
    before = {int(m["id"]) for m in boards_in(proc.rec, thread)}
    if kill == "after the commit":
        async def dies(*args: Any, **kwargs: Any) -> bool:
            raise Died("after the commit")

        monkeypatch.setattr(surfaces, "publish_saved", dies)
    elif kill == "at the board's post":
        proc.rec.die_when(is_board_post(thread))
    elif kill == "after the board's post":
        proc.rec.die_when(is_board_post(thread), carried_out=True)
    elif kill == "at the strip":
        proc.rec.die_when(is_strip(thread))
    else:
        proc.rec.die_when(is_card_edit)
    await click_move(proc, thread, user, notation)
    assert proc.rec.deaths == [], "the bot died where it was meant to"
    monkeypatch.undo()
    await proc.start_again()
    await proc.recover()

    record = await proc.bot.tables.store.games.get_game(
        next(r.id for r in await proc.bot.tables.store.games.games_in_channel(thread)))
    state = await proc.bot.tables.queries.board_of_game(record)
    # One board with buttons, the latest, recorded as the board on show.
    (live,) = live_boards(proc.rec, thread)
    assert int(live["id"]) == record.board_message_id and int(live["id"]) not in before
    assert f"move {state.move}" in live["content"]
    assert len(boards_in(proc.rec, thread)) == len(before) + 1, "the move's board, once"
    # The card says how the game stands.
    card = proc.rec.message(thread)["content"]
    buttons = [c["custom_id"] for row in proc.rec.message(thread)["components"]
               for c in row["components"]]
    if move == "ends the game":
        assert record.status == "finished" and "Game over: 1." in card
        assert buttons == [f"cb:rm:{record.id}"], "Rematch on the card"
        assert proc.rec.room(thread).archived
    else:
        waiting = "Player1" if move == "keeps the turn" else "Player2"
        assert f"Move {state.move}: waiting for {waiting}" in card
    # The ping of a hand-over, once; none for a move that keeps the turn.
    notified = [n for n in proc.rec.notified() if int(n.sent.message_id or 0) not in before
                and n.sent.channel_id == thread]
    pinged = [user for n in notified for user in n.users]
    assert pinged == ([BOB] if move == "hands the turn over" else [])
    assert await proc.bot.outbox.pending() == 0


# --------------------------------------------------------------------------- order


async def test_an_older_board_never_lands_after_a_newer_one_across_two_processes(
        tmp_path: Path) -> None:
    """One process is slow to post a move's board; another saves the next move meanwhile
    and shows it. The older board goes first, then the newer one, which alone keeps its
    buttons and pings the player it hands the turn to."""
    rec, clock = Recorder(), Clock()
    db = tmp_path / "bot.db"
    first, gw = await start_bot(db, clock, GAMES, rec)
    second, gw2 = await start_bot(db, clock, GAMES, rec)
    try:
        table = Session(first, gw, rec, clock)
        await table.start("candy-hop", humans=(ALICE, BOB))
        arrived, release = asyncio.Event(), asyncio.Event()
        sent_by_first = first.http.request

        async def slow(route: Any, **kwargs: Any) -> Any:
            if route.method == "POST" and kwargs.get("files") and not release.is_set():
                arrived.set()
                await release.wait()
            return await sent_by_first(route, **kwargs)

        first.http.request = slow  # type: ignore[method-assign]
        (board,) = live_boards(rec, CHANNEL_ID)
        ids = [c["custom_id"] for row in board["components"] for c in row["components"]]
        gw.dispatch(gw.click(ALICE, board, next(i for i in ids if i.endswith(":step"))))
        await asyncio.wait_for(arrived.wait(), 10)
        # Bob, handed the turn, plays at once through the other process.
        gw2.dispatch(gw2.command(BOB, "play", options={"action": "step"}))
        for _ in range(200):
            record = await second.tables.store.games.open_game(CHANNEL_ID)
            if record is not None and record.state_json and '"move": 2' in record.state_json:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)  # the second process waits for the channel's lane
        release.set()
        await settle_all()
        posts = [s for s in rec.sent if s.created and s.pngs]
        moves = [int(re.search(r"· move (\d+)", s.content).group(1))  # type: ignore[union-attr]
                 for s in posts]
        assert moves == sorted(moves) and moves[-1] == 2, "boards in the order of the moves"
        record = await second.tables.store.games.open_game(CHANNEL_ID)
        assert record is not None
        (live,) = live_boards(rec, CHANNEL_ID)
        assert int(live["id"]) == record.board_message_id and "move 2" in live["content"]
        assert [u for n in rec.notified() if n.sent is posts[-1] for u in n.users] == [ALICE]
    finally:
        await first.close()
        await second.close()


async def settle_all() -> None:
    from tests.support.discord_harness import settle

    await settle()


# --------------------------------------------------------------------------- DMs


def opens_a_dm(s: Sent) -> bool:
    return s.method == "POST" and s.path.startswith("/users/@me/channels")


async def three_players(tmp_path: Path) -> Session:
    session = await Session.open(tmp_path, GAMES)
    await session.command(BOB, "notify", options={"how": "dm"})
    await session.start("candy-hop", humans=(ALICE, BOB, CAROL), target=9)
    return session


async def test_a_dm_discord_keeps_failing_holds_back_no_other_ping(tmp_path: Path) -> None:
    """Bob asked for his turns by DM and Discord cannot open one (503, again and again):
    his DMs wait, and the pings of the players after him go out at once."""
    session = await three_players(tmp_path)
    try:
        for _ in range(100):
            session.rec.fail_when(opens_a_dm, status=503)
        await session.play(ALICE, "step")
        await session.bot.outbox.deliver()
        await session.play(BOB, "step")
        assert session.rec.notified_users() == [CAROL]
        await session.bot.outbox.deliver()
        await session.play(CAROL, "step")
        assert session.rec.notified_users() == [ALICE]
        assert session.rec.direct_messages() == []
        session.rec.failures.clear()
        session.rec.clear()
        session.clock.advance(1.0)
        await session.bot.outbox.deliver()
        assert [dm.dm_to for dm in session.rec.direct_messages()] == [BOB], \
            "his DM goes once Discord opens it"
    finally:
        await session.close()


@pytest.mark.parametrize("refusal", ["closed", "opening refused", "refused"])
async def test_a_dm_discord_refuses_is_given_up_at_once(tmp_path: Path, refusal: str) -> None:
    session = await three_players(tmp_path)
    try:
        if refusal == "closed":
            session.rec.closed_dms.add(BOB)  # Discord answers 403, code 50007
        elif refusal == "opening refused":
            session.rec.fail_when(opens_a_dm, status=403)
        else:
            session.rec.fail_when(lambda s: s.channel_id in session.rec.dm_channels, status=400)
        await session.play(ALICE, "step")
        await session.bot.outbox.deliver()
        assert await session.bot.outbox.pending() == 0, "nothing retried for an hour"
        assert session.rec.direct_messages() == []
        assert session.rec.notified_users()[-1:] == [BOB], "the channel's ping reaches him"
    finally:
        await session.close()


# --------------------------------------------------------------------------- the mover


def is_answer(s: Sent) -> bool:
    """The interaction's answer to its user (a followup, or its first answer edited)."""
    return s.path.startswith("/webhooks/") and s.method in ("POST", "PATCH")


@pytest.mark.parametrize("trouble", ["thread archived meanwhile", "webhook failing"])
async def test_a_saved_move_whose_answer_discord_refuses_is_shown_and_never_said_to_fail(
        proc: Process, trouble: str) -> None:
    thread = await new_thread_game(proc)
    room = proc.rec.room(thread)
    if trouble == "thread archived meanwhile":
        def archives(s: Sent) -> bool:
            if s.path.endswith("/callback"):  # once the command is acknowledged
                room.archived = True
            return False

        proc.rec.fail_when(archives)
    else:
        proc.rec.fail_when(is_answer, status=500)
    proc.rec.clear()
    await proc.gw.send(proc.gw.command(ALICE, "play", options={"action": "step"},
                                       channel_id=thread))
    told = [s.content for s in proc.rec.private() if s.failed is None]
    assert not any("went wrong" in t or "try" in t for t in told), told
    assert any("You played `step`" in t for t in told), "told the move counts, once it can be"
    (live,) = live_boards(proc.rec, thread)
    assert "move 1" in live["content"] and not room.archived
    assert proc.rec.notified_users() == [BOB]


# --------------------------------------------------------------------------- the card


async def test_a_refused_final_card_is_retried_until_it_shows_the_result_and_rematch(
        proc: Process) -> None:
    thread = await new_thread_game(proc)
    await click_move(proc, thread, ALICE, "hop")
    await click_move(proc, thread, ALICE, "rest")
    await click_move(proc, thread, BOB, "step")
    for _ in range(3):
        proc.rec.fail_when(is_card_edit, status=503)
    await click_move(proc, thread, ALICE, "step")
    record = next(r for r in await proc.bot.tables.store.games.games_in_channel(thread))
    assert record.status == "finished"
    assert "Game over" not in proc.rec.message(thread)["content"]
    for _ in range(4):
        proc.clock.now += 60.0
        await proc.bot.outbox.deliver()
    card = proc.rec.message(thread)
    assert "Game over: 1." in card["content"]
    assert [c["custom_id"] for row in card["components"] for c in row["components"]] == \
        [f"cb:rm:{record.id}"]
    assert await proc.bot.outbox.pending() == 0


# --------------------------------------------------------------------------- undo


async def test_undo_and_the_move_again_ping_the_opponent_once(tmp_path: Path) -> None:
    """Move, ``/game undo``, move again, ten times over: the opponent is pinged for the
    turn once (named again each time, pinged no more)."""
    session = await Session.open(tmp_path, GAMES)
    try:
        await session.start("candy-hop", humans=(ALICE, BOB), target=9)
        pinged = []
        for _ in range(10):
            await session.play(ALICE, "step")
            pinged += session.rec.notified_users()
            await session.command(ALICE, "game", "undo")
            pinged += session.rec.notified_users()
        assert pinged == [BOB]
        (live,) = live_boards(session.rec, CHANNEL_ID)
        record = await session.bot.tables.store.games.open_game(CHANNEL_ID)
        assert record is not None and int(live["id"]) == record.board_message_id
    finally:
        await session.close()


async def test_a_burst_of_moves_and_undos_posts_only_its_latest_board(
        tmp_path: Path) -> None:
    """Move, undo, move again, ten times, faster than Discord takes boards (its first
    answer is slow): the boards queued behind the first are replaced before they go, so
    the channel sees the first and the last, and Bob is pinged once."""
    session = await Session.open(tmp_path, GAMES)
    try:
        await session.start("candy-hop", humans=(ALICE, BOB), target=9)
        session.rec.clear()
        bot = session.bot
        arrived, release = asyncio.Event(), asyncio.Event()
        request = bot.http.request

        async def slow(route: Any, **kwargs: Any) -> Any:
            if route.method == "POST" and kwargs.get("files") and not release.is_set():
                arrived.set()
                await release.wait()
            return await request(route, **kwargs)

        bot.http.request = slow
        store = bot.tables.store
        for n in range(20):
            version = (await store.games.open_game(CHANNEL_ID)).version  # type: ignore[union-attr]
            session.gw.dispatch(session.gw.command(ALICE, "play", options={"action": "step"})
                                if n % 2 == 0 else session.gw.command(ALICE, "game", "undo"))
            for _ in range(500):
                if (await store.games.open_game(CHANNEL_ID)).version > version:  # type: ignore[union-attr]
                    break
                await asyncio.sleep(0.005)
            else:
                raise AssertionError(f"change {n + 1} was not saved")
        assert arrived.is_set()
        release.set()
        await settle_all()
        boards = [s for s in session.rec.sent if s.created and s.pngs]
        assert len(boards) == 2, f"{len(boards)} boards for 20 changes"
        assert session.rec.notified_users() == [BOB]
        (live,) = live_boards(session.rec, CHANNEL_ID)
        record = await store.games.open_game(CHANNEL_ID)
        assert record is not None and int(live["id"]) == record.board_message_id
        assert live["id"] == str(boards[-1].message_id)
        assert f"move {json.loads(record.state_json or '{}')['move']}" in live["content"]
    finally:
        await session.close()


async def test_a_board_discord_made_without_saying_so_loses_its_buttons_when_replaced(
        tmp_path: Path) -> None:
    """Discord makes a move's board but its answer is lost; the next move replaces that
    board before it is retried: asked again under its nonce, Discord gives the board back,
    whose buttons are taken off, and the newer board alone has buttons."""
    session = await Session.open(tmp_path, GAMES)
    try:
        await session.start("candy-hop", humans=(ALICE, BOB))
        session.rec.fail_when(is_board_post(CHANNEL_ID), status=503, accepted=True)
        await session.play(ALICE, "hop")  # keeps the turn: no ping to send on its own
        assert session.rec.failures == [], "Discord made the board, its answer was lost"
        await session.play(ALICE, "rest")
        assert len(boards_in(session.rec, CHANNEL_ID)) == 3, "the start's, the hop's, the rest's"
        (live,) = live_boards(session.rec, CHANNEL_ID)
        record = await session.bot.tables.store.games.open_game(CHANNEL_ID)
        assert record is not None and int(live["id"]) == record.board_message_id
        assert "move 2" in live["content"]
        assert await session.bot.outbox.pending() == 0
    finally:
        await session.close()
