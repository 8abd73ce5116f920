"""No game is left stuck: what changed while the bot was away is caught up with when it
connects, a lobby or rematch the bot was killed in the middle of opening is finished or
taken back, and a failure while opening one says what happened and leaves nothing."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import bot.games
from bot.games.engine import Engine
from bot.store import GameRecord
from tests.support.discord_harness import (
    CHANNEL_ID,
    GUILD_ID,
    Clock,
    Session,
    fake_render,
    settle,
    start_bot,
)
from tests.support.race_game import CandyDash
from tools.offline import (
    CREATE_PUBLIC_THREADS,
    INVITED,
    SEND_MESSAGES,
    WITHOUT_THREADS,
    Recorder,
    Sent,
)

ALICE, BOB, CAROL = 360000000000000001, 360000000000000002, 360000000000000003
OTHER = CHANNEL_ID + 5  # a channel without threads: one game, played in it


@pytest.fixture
def games(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    monkeypatch.setitem(bot.games.GAMES, "candy-dash", Engine(CandyDash()))
    return bot.games.GAMES


async def open_table(folder: Path, games: dict[str, Any]) -> Session:
    folder.mkdir(parents=True, exist_ok=True)
    table = await Session.open(folder, games)
    table.rec.room(CHANNEL_ID).permissions = INVITED  # what the invite asks: no more
    table.rec.room(OTHER).permissions = WITHOUT_THREADS
    table.gw.guild_create()
    return table


@pytest.fixture
async def table(tmp_path: Path, games: dict[str, Any]) -> AsyncIterator[Session]:
    opened = await open_table(tmp_path, games)
    yield opened
    await opened.close()


async def restart(table: Session) -> None:
    """The bot stops (killed, or closed) and starts again on the same database, with the
    same Discord; it connects, and whatever it does on connecting is done."""
    db = table.bot.settings.db_path
    await table.bot.close()
    table.bot, table.gw = await start_bot(db, table.clock, bot.games.GAMES, table.rec)
    await table.gw.send()


async def new_game(table: Session, user: int, channel: int = CHANNEL_ID) -> Sent:
    """``/game new`` of Candy Dash to 3; the bot's last message in answer."""
    table.rec.clear()
    await table.gw.send(table.gw.command(user, "game", "new",
                                         {"game": "candy-dash", "target": 3},
                                         channel_id=channel))
    return table.rec.last()


async def lobby_in(table: Session, channel: int) -> GameRecord:
    record = await table.bot.tables.store.games.open_game(channel)
    assert record is not None
    return record


async def play_out(table: Session, where: int, players: tuple[int, ...]) -> None:
    """Step for whoever is to move until the game in ``where`` ends."""
    for _ in range(60):
        record = await table.bot.tables.store.games.open_game(where)
        if record is None:
            return
        assert record.state_json is not None
        mover = players[json.loads(record.state_json)["turn"]]
        board = [m for m in table.rec.messages.values()
                 if int(m["channel_id"]) == where and m["attachments"]][-1]
        await table.click(mover, int(board["id"]), ":step")
    raise AssertionError("the game did not end")


async def finished_in_thread(table: Session) -> int:
    """A game of Alice and Bob in a thread of its own, played to its end: its thread."""
    await new_game(table, ALICE)
    (thread,) = [t.id for t in table.rec.threads()]
    await table.click(BOB, thread, ":join")
    await table.click(ALICE, thread, ":start")
    await play_out(table, thread, (ALICE, BOB))
    return thread


async def nothing_left_behind(table: Session) -> None:
    """Every lobby being opened is finished or taken back: no opening is left; every
    thread the bot made holds an open game or is archived; no card says "opening…"; every
    open lobby shows its message with its buttons, and counts for its host."""
    store = table.bot.tables.store
    assert await store.openings.stale_openings(float("inf")) == [], "an opening was left behind"
    open_games = {r.channel_id: r for r in await store.games.open_games_of(GUILD_ID)}
    for thread in table.rec.threads():
        if thread.id in open_games:
            assert not thread.archived, "an open game's thread is open"
        else:
            assert thread.archived, f"thread {thread.id} was opened for nothing"
    for message in table.rec.messages.values():
        if not message.get("deleted") and not message["flags"] & 64:
            assert "is opening" not in message["content"], "a card still says it is opening"
    for record in open_games.values():
        assert record.status == "lobby" and record.lobby_message_id is not None
        shown = table.rec.message(record.lobby_message_id)
        assert not shown.get("deleted") and shown["components"], "a lobby nobody can click"
    hosting = sum(1 for r in open_games.values() if r.creator_id == ALICE)
    assert (await store.games.open_counts(ALICE, GUILD_ID))[0] == hosting


def nth(n: int) -> Callable[[Sent], bool]:
    """The ``n``-th request from now (counting from 0)."""
    seen = itertools.count()
    return lambda sent: next(seen) == n


# --------------------------------------------------------------------------- away


async def test_a_thread_deleted_while_the_bot_was_away_ends_its_game_when_it_connects(
        table: Session) -> None:
    await new_game(table, ALICE)
    (thread,) = [t.id for t in table.rec.threads()]
    await table.click(BOB, thread, ":join")
    await table.click(ALICE, thread, ":start")
    await new_game(table, CAROL)  # a lobby in a thread of its own, deleted too
    (lobby,) = [t.id for t in table.rec.threads() if t.id != thread]
    table.gw.delete_channel(thread, heard=False)
    table.gw.delete_channel(lobby, heard=False)
    await restart(table)
    assert await table.bot.tables.store.games.open_games_in(CHANNEL_ID) == []
    assert "its thread was deleted" in table.rec.message(thread)["content"]
    assert (await table.bot.tables.store.games.open_counts(CAROL, GUILD_ID))[0] == 0


async def test_a_channel_deleted_while_the_bot_was_away_ends_every_game_held_there(
        table: Session) -> None:
    await new_game(table, ALICE)  # a lobby in a thread of CHANNEL_ID...
    table.channel_id = OTHER  # ...and OTHER holds one game, played in it
    await table.start("candy-dash", humans=(BOB, CAROL))
    table.gw.delete_channel(CHANNEL_ID, heard=False)
    table.gw.delete_channel(OTHER, heard=False)
    await restart(table)
    store = table.bot.tables.store
    assert await store.games.open_games_of(GUILD_ID) == []
    ended = [r for channel in (OTHER, *[t.id for t in table.rec.threads()])
             for r in await store.games.games_in_channel(channel)]
    assert all(r.status == "aborted" and r.result_json is None for r in ended)


async def test_a_game_whose_place_is_still_there_is_left_alone_when_the_bot_connects(
        table: Session) -> None:
    await new_game(table, ALICE)
    (thread,) = [t.id for t in table.rec.threads()]
    await table.click(BOB, thread, ":join")
    await table.click(ALICE, thread, ":start")
    table.channel_id = OTHER
    await table.start("candy-dash", humans=(BOB, CAROL))
    await restart(table)
    assert {r.status for r in await table.bot.tables.store.games.open_games_of(GUILD_ID)} == \
        {"active"}
    assert len(await table.bot.tables.store.games.open_games_of(GUILD_ID)) == 2


# --------------------------------------------------------------------------- killed while opening


@pytest.mark.parametrize("carried_out", [False, True], ids=["before", "after"])
async def test_a_bot_killed_at_any_request_of_opening_a_game_leaves_nothing_stuck(
        tmp_path: Path, games: dict[str, Any], carried_out: bool) -> None:
    dry = await open_table(tmp_path / "dry", games)
    await new_game(dry, ALICE)
    requests = len(dry.rec.sent)
    await dry.close()
    assert requests >= 5  # its answer, the card, the thread, the card's buttons, the host
    for n in range(requests):
        table = await open_table(tmp_path / f"at-{n}", games)
        try:
            table.rec.die_when(nth(n), carried_out=carried_out)
            await table.gw.send(table.gw.command(ALICE, "game", "new",
                                                 {"game": "candy-dash", "target": 3}))
            table.clock.advance(2 * table.bot.settings.opening_grace_seconds / 3600)
            await restart(table)
            await table.bot.send_due()
            await nothing_left_behind(table)
            # The host's three lobbies are all theirs to open again, or still open.
            while len(await table.bot.tables.store.games.open_games_in(CHANNEL_ID)) < 3:
                said = await new_game(table, ALICE)
                assert "is open" in said.content, f"killed at request {n}: {said.content}"
            await nothing_left_behind(table)
        finally:
            await table.close()


async def test_a_half_opened_lobby_is_left_alone_for_the_grace_the_operator_set(
        table: Session) -> None:
    table.rec.die_when(nth(1), carried_out=True)  # the card posted, no thread yet
    await table.gw.send(table.gw.command(ALICE, "game", "new",
                                         {"game": "candy-dash", "target": 3}))
    await restart(table)
    # CANDYBOT_OPENING_GRACE_SECONDS=600: two minutes on, the opening is still in flight.
    table.bot.settings = replace(table.bot.settings, opening_grace_seconds=600.0)
    table.clock.advance(2 / 60)
    await table.bot.send_due()
    assert len(await table.bot.tables.store.openings.stale_openings(float("inf"))) == 1
    assert any("is opening" in m["content"] for m in table.rec.messages.values())
    table.clock.advance(9 / 60)  # eleven minutes on: settled
    await table.bot.send_due()
    await nothing_left_behind(table)


@pytest.mark.parametrize("carried_out", [False, True], ids=["before", "after"])
async def test_a_bot_killed_at_any_request_of_opening_a_rematch_leaves_it_to_open_once(
        tmp_path: Path, games: dict[str, Any], carried_out: bool) -> None:
    dry = await open_table(tmp_path / "dry", games)
    thread = await finished_in_thread(dry)
    dry.rec.clear()
    await dry.click(BOB, thread, ":rm:1")
    requests = len(dry.rec.sent)
    await dry.close()
    for n in range(requests):
        table = await open_table(tmp_path / f"at-{n}", games)
        try:
            thread = await finished_in_thread(table)
            table.rec.clear()
            table.rec.die_when(nth(n), carried_out=carried_out)
            await table.gw.send(table.gw.click(BOB, table.rec.message(thread), "cb:rm:1"))
            table.clock.advance(2 * table.bot.settings.opening_grace_seconds / 3600)
            await restart(table)
            await table.bot.send_due()
            await nothing_left_behind(table)
            said = await table.click(ALICE, thread, ":rm:1")
            assert "(game 0)" not in said.content
            (rematch,) = [r for r in await table.bot.tables.store.games.open_games_of(GUILD_ID)]
            assert rematch.rematch_of == 1 and rematch.status == "lobby"
            await nothing_left_behind(table)
        finally:
            await table.close()


async def test_a_rematch_a_killed_bot_marked_as_being_opened_opens_after_all(
        table: Session) -> None:
    thread = await finished_in_thread(table)
    # What an older bot killed while opening the rematch left: the game marked, no lobby.
    store = table.bot.tables.store
    ended = await store.games.get_game(1)
    await store.games.set_ended_settings(1, ended.version, {**ended.settings, "rematch": 0})
    said = await table.click(BOB, thread, ":rm:1")
    assert "(game 0)" not in said.content
    (rematch,) = await store.games.open_games_of(GUILD_ID)
    assert rematch.creator_id == BOB and rematch.rematch_of == 1


async def test_two_players_pressing_rematch_at_once_open_one_and_neither_reads_game_0(
        table: Session) -> None:
    thread = await finished_in_thread(table)
    card = table.rec.message(thread)
    table.rec.clear()
    await table.gw.send(table.gw.click(ALICE, card, "cb:rm:1"), table.gw.click(BOB, card,
                                                                               "cb:rm:1"))
    answers = [s.content for s in table.rec.private()]
    assert not any("(game 0)" in said for said in answers), answers
    assert len(await table.bot.tables.store.games.open_games_of(GUILD_ID)) == 1
    assert any("opening this game's rematch" in said or "already open" in said
               for said in answers), answers
    assert len(table.rec.threads()) == 2


# --------------------------------------------------------------------------- left-behind threads


async def test_a_rematch_at_the_hosts_lobby_limit_is_refused_before_any_thread(
        table: Session) -> None:
    thread = await finished_in_thread(table)
    for _ in range(3):
        await new_game(table, BOB)
    before = len(table.rec.threads())
    said = await table.click(BOB, thread, ":rm:1")
    assert said.ephemeral and "You already host 3" in said.content
    assert len(table.rec.threads()) == before, "no thread was started for it"
    await nothing_left_behind(table)


async def test_eight_new_games_at_once_open_three_threads_and_no_more(table: Session) -> None:
    table.rec.clear()
    await table.gw.send(*(table.gw.command(ALICE, "game", "new", {"game": "candy-dash"})
                          for _ in range(8)))
    assert len(table.rec.threads()) == 3
    refused = [s for s in table.rec.private() if "You already host 3" in s.content]
    assert len(refused) == 5
    await nothing_left_behind(table)


async def test_a_lobby_that_cannot_be_stored_archives_its_thread_without_manage_threads(
        table: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.store import NotSavedError

    async def failing(*args: Any, **kwargs: Any) -> Any:
        raise NotSavedError()

    monkeypatch.setattr(table.bot.tables.store.games, "create_lobby", failing)
    said = await new_game(table, ALICE)
    assert said.ephemeral and "NOT saved" in said.content
    (thread,) = table.rec.threads()
    assert thread.archived, "the thread opened for nothing is archived, not left active"
    assert not [s for s in table.rec.sent if s.method == "DELETE" and s.path.endswith(
        f"/channels/{thread.id}")], "deleting a thread takes Manage Threads"
    await nothing_left_behind(table)


async def test_a_member_opening_and_cancelling_again_and_again_fills_no_thread_allowance(
        table: Session) -> None:
    table.rec.clear()
    for _ in range(20):
        said = await new_game(table, ALICE)
        if not said.ephemeral or "is open" in said.content:
            record = (await table.bot.tables.store.games.open_games_in(CHANNEL_ID))[0]
            await table.click(ALICE, record.channel_id, ":cancel")
    active = [t for t in table.rec.threads() if not t.archived]
    assert active == []
    cards = [m for m in table.rec.messages.values()
             if int(m["channel_id"]) == CHANNEL_ID and not m["flags"] & 64]
    assert len(cards) == 3, "after a few, a person waits before opening another"
    assert "closed a few unstarted" in table.answer().content


# --------------------------------------------------------------------------- misleading answers


async def test_discord_failing_to_start_a_thread_says_so_and_logs_no_error(
        table: Session, caplog: pytest.LogCaptureFixture) -> None:
    table.rec.fail_when(lambda s: s.path.endswith("/threads"), status=503)
    with caplog.at_level(logging.WARNING):
        said = await new_game(table, ALICE)
    assert said.ephemeral and "Discord did not take the new game" in said.content
    assert "your move" not in said.content
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert table.rec.threads() == []
    await nothing_left_behind(table)
    assert (await table.bot.tables.store.games.open_counts(ALICE, GUILD_ID))[0] == 0


async def test_a_channel_where_the_bot_may_start_threads_but_not_post_refuses_plainly(
        table: Session, caplog: pytest.LogCaptureFixture) -> None:
    table.rec.room(CHANNEL_ID).permissions = INVITED & ~SEND_MESSAGES
    assert table.rec.room(CHANNEL_ID).permissions & CREATE_PUBLIC_THREADS
    with caplog.at_level(logging.WARNING):
        said = await new_game(table, ALICE)
    assert said.ephemeral and "may start threads in this channel but not post" in said.content
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [s for s in table.rec.sent if s.via == "http"] == [], "nothing was tried"
    await nothing_left_behind(table)


async def test_closing_the_bot_stops_the_movements_it_was_drawing(
        tmp_path: Path, games: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    import renderers

    release = asyncio.Event()

    class SlowMovie:
        """Pictures at once, a move's GIF only once released."""

        def __call__(self, view: dict[str, Any]) -> bytes:
            return fake_render(view)

        async def animate_async(self, view: dict[str, Any]) -> bytes:
            await release.wait()
            return b"GIF89a"

    class Movements:
        """The movement GIFs being drawn: the test does not wait for them."""

        def __contains__(self, task: object) -> bool:
            return isinstance(task, asyncio.Task) and task.get_name().startswith("movement-")

    monkeypatch.setattr(renderers, "animator_for", lambda slug: lambda view: None)
    rec, clock = Recorder(), Clock()
    running, gw = await start_bot(tmp_path / "bot.db", clock, games, rec, renderer=SlowMovie())

    async def send(payload: dict[str, Any]) -> None:
        gw.dispatch(payload)
        await settle(ignore=Movements())  # type: ignore[arg-type]

    await send(gw.command(ALICE, "game", "new", {"game": "candy-dash"}))
    lobby = rec.last().message_id or 0
    await send(gw.click(BOB, rec.message(lobby), "cb:lobby:1:join"))
    await send(gw.click(ALICE, rec.message(lobby), "cb:lobby:1:start"))
    mine = {t for t in asyncio.all_tasks() if t in Movements()}
    assert mine and not any(t.done() for t in mine), "its movement is being drawn"
    await running.close()
    assert all(t.done() for t in mine), "closing the bot stopped its movements"
    release.set()
    await asyncio.sleep(0)
    assert "has not been set up" not in caplog.text
