"""The tables service: lobby, play, AI turns, undo, concede, abort, reminders, stats."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games.engine import Engine, NotationError, NotYourTurnError, OptionsError
from bot.refusals import AlreadyMade, HostOnly, MayNotEnd, OthersStillPlaying
from bot.store import Store
from bot.tables import AlreadyMadeError, Board, MoveRequest, Reminder, Tables

# The test-only games live beside the Discord tests.
from tests.support.race_game import CandyDash, CandyDuel, CandyRace, CandyStroll
from tests.support.refusing import refused, told

ALICE, BOB, CAROL = 101, 102, 103
CHANNEL, GUILD = 55, 66


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += hours * 3600


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def tables(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Tables]:
    store = await Store.open(tmp_path / "tables.db")
    games = {g.slug: Engine(g) for g in (CandyRace(), CandyDash(), CandyStroll(), CandyDuel())}
    yield Tables(store, games, clock)
    await store.close()


async def lobby_with(tables: Tables, *, game: str = "candy-race", ai: int = 0,
                     humans: tuple[int, ...] = (), **kwargs: object) -> int:
    lobby = await tables.lobbies.open_lobby(channel_id=CHANNEL, guild_id=GUILD, game=game,
                                            creator_id=ALICE, creator_name="Alice", **kwargs)  # type: ignore[arg-type]
    for user in humans:
        await tables.lobbies.join(lobby.record.id, user, f"P{user}")
    for _ in range(ai):
        await tables.lobbies.add_ai(lobby.record.id, ALICE)
    return lobby.record.id


async def started(tables: Tables, **kwargs: object) -> Board:
    game_id = await lobby_with(tables, **kwargs)  # type: ignore[arg-type]
    _lobby, board = await tables.lobbies.start(game_id, ALICE)
    return board


# --------------------------------------------------------------------------- lobby


async def test_the_creator_takes_the_first_seat_of_a_new_lobby(tables: Tables) -> None:
    lobby = await tables.lobbies.open_lobby(channel_id=CHANNEL, guild_id=GUILD, game="candy-race",
                                            creator_id=ALICE, creator_name="Alice",
                                            options={"target": "12"})
    assert [(s.user_id, s.name) for s in lobby.record.seats] == [(ALICE, "Alice")]
    assert lobby.record.options == {"target": 12, "pace": "steady"}
    assert lobby.record.settings["reminder_hours"] == 24.0


async def test_a_second_lobby_in_the_channel_explains_how_to_end_the_first(
        tables: Tables) -> None:
    await lobby_with(tables)
    with refused("/game abort"):
        await lobby_with(tables)


async def test_an_option_the_game_does_not_have_is_refused(tables: Tables) -> None:
    with pytest.raises(OptionsError, match="Unknown option 'pace'"):
        await tables.lobbies.open_lobby(channel_id=CHANNEL, guild_id=GUILD, game="candy-dash",
                                        creator_id=ALICE, creator_name="Alice",
                                        options={"pace": "brisk"})
    assert await tables.store.games.open_game(CHANNEL) is None


async def test_seats_outside_the_games_range_are_refused(tables: Tables) -> None:
    with refused("2 to 4 players"):
        await lobby_with(tables, seats=5)


async def test_a_full_lobby_turns_away_the_next_player(tables: Tables) -> None:
    game_id = await lobby_with(tables, seats=2, humans=(BOB,))
    with refused("full"):
        await tables.lobbies.join(game_id, CAROL, "Carol")
    with refused("already joined"):
        await tables.lobbies.join(game_id, BOB, "Bob")


async def test_only_the_creator_starts_and_only_with_enough_players(tables: Tables) -> None:
    game_id = await lobby_with(tables)
    with refused("at least 2"):
        await tables.lobbies.start(game_id, ALICE)
    await tables.lobbies.join(game_id, BOB, "Bob")
    with pytest.raises(HostOnly) as host_only:
        await tables.lobbies.start(game_id, BOB)
    assert host_only.value.what == "start" and host_only.value.host == ALICE
    _lobby, board = await tables.lobbies.start(game_id, ALICE)
    assert board.mentions == (ALICE,)


async def test_leaving_a_lobby_frees_the_seat(tables: Tables) -> None:
    game_id = await lobby_with(tables, humans=(BOB,))
    lobby = await tables.lobbies.leave_lobby(game_id, BOB)
    assert [s.user_id for s in lobby.record.seats] == [ALICE]


# --------------------------------------------------------------------------- playing


async def test_ai_seats_answer_a_human_move_in_the_same_commit(tables: Tables) -> None:
    await started(tables, ai=2)
    board = await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
    assert [s.name for s in board.steps] == ["Alice", "AI 1", "AI 2"]
    assert [s.by_ai for s in board.steps] == [False, True, True]
    assert board.mentions == (ALICE,)
    actions = await tables.store.moves.actions(board.record.id)
    assert [a.seat for a in actions] == [0, 1, 2]


async def test_a_player_out_of_turn_is_told_whose_turn_it_is(tables: Tables) -> None:
    await started(tables, humans=(BOB,))
    with pytest.raises(NotYourTurnError, match="waiting for Alice"):
        await tables.moves.play(channel_id=CHANNEL, user_id=BOB, text="step")


async def test_someone_not_seated_cannot_play(tables: Tables) -> None:
    await started(tables, humans=(BOB,))
    with refused("not playing"):
        await tables.moves.play(channel_id=CHANNEL, user_id=CAROL, text="step")


async def test_nonsense_is_refused_and_changes_nothing(tables: Tables) -> None:
    board = await started(tables, humans=(BOB,))
    with pytest.raises(NotationError):
        await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="fly away")
    record = await tables.store.games.get_game(board.record.id)
    assert record is not None and record.version == board.record.version


async def test_a_choice_for_an_old_move_has_expired_and_says_what_happened(
        tables: Tables) -> None:
    board = await started(tables, humans=(BOB,))
    await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
    await tables.moves.play(channel_id=CHANNEL, user_id=BOB, text="step")
    with refused("expired. Since it was offered: Alice played `step`; P102 played `step`"):
        await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step",
                                game_id=board.record.id, expected=board.token, offered_at=0)
    with refused("expired"):
        await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step",
                                game_id=board.record.id, expected=0)


async def test_two_moves_at_once_apply_exactly_one(tables: Tables) -> None:
    await started(tables, humans=(BOB,))
    results = await asyncio.gather(
        tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step"),
        tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step"),
        return_exceptions=True)
    assert sum(isinstance(r, Board) for r in results) == 1
    assert sum(isinstance(r, AlreadyMadeError) for r in results) == 1
    record = await tables.store.games.open_game(CHANNEL)
    assert record is not None
    assert len(await tables.store.moves.actions(record.id)) == 1


async def test_a_checked_move_is_applied_once_and_committed_as_checked(
        tables: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    await started(tables, ai=2)
    game = tables.game("candy-race")
    applied: list[int] = []
    apply = game.apply
    monkeypatch.setattr(game, "apply", lambda state, seat, *a, **k: (
        applied.append(seat), apply(state, seat, *a, **k))[1])
    prepared = await tables.moves.prepare(
        MoveRequest(user_id=ALICE, text="step", channel_id=CHANNEL))
    board = await tables.moves.commit(prepared)
    assert applied == [0, 1, 2]  # Alice's move once, then each AI's answer
    assert [s.name for s in board.steps] == ["Alice", "AI 1", "AI 2"]
    assert [a.seat for a in await tables.store.moves.actions(board.record.id)] == [0, 1, 2]


async def test_a_prepared_move_that_another_move_overtook_is_refused_as_not_applied(
        tables: Tables) -> None:
    await started(tables, humans=(BOB,))
    prepared = await tables.moves.prepare(
        MoveRequest(user_id=ALICE, text="step", channel_id=CHANNEL))
    # Another tap, saved first:
    await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
    with pytest.raises(AlreadyMade) as made:
        await tables.moves.commit(prepared)
    assert made.value.reason == "raced"
    record = await tables.store.games.open_game(CHANNEL)
    assert record is not None
    assert [a.seat for a in await tables.store.moves.actions(record.id)] == [0]


async def test_a_prepared_move_shows_the_very_view_it_prepared_after_the_ai_answers(
        tables: Tables) -> None:
    await started(tables, ai=2)
    prepared = await tables.moves.prepare(
        MoveRequest(user_id=ALICE, text="step", channel_id=CHANNEL))
    assert await tables.store.moves.actions(prepared.record.id) == [], "nothing stored yet"
    board = await tables.moves.commit(prepared)
    assert prepared.view is board.view  # a picture begun from it before the commit is the board's
    assert [s.name for s in board.steps] == ["Alice", "AI 1", "AI 2"]


async def a_race_in_each_of(tables: Tables, channels: range) -> range:
    """A candy race of Alice and Bob started in each of ``channels``."""
    for channel in channels:
        lobby = await tables.lobbies.open_lobby(
            channel_id=channel, guild_id=GUILD, game="candy-race",
            creator_id=ALICE, creator_name="Alice")
        await tables.lobbies.join(lobby.record.id, BOB, "Bob")
        await tables.lobbies.start(lobby.record.id, ALICE)
    return channels


async def test_a_burst_of_moves_is_worked_out_a_few_at_a_time(
        tables: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading
    import time

    from bot.tables.core import MOVES_AT_ONCE

    channels = await a_race_in_each_of(tables, range(900, 900 + 3 * MOVES_AT_ONCE))
    game = tables.game("candy-race")
    apply = game.apply
    lock = threading.Lock()
    now_working, most = [0], [0]

    def slow_apply(*args: object, **kwargs: object) -> object:
        with lock:
            now_working[0] += 1
            most[0] = max(most[0], now_working[0])
        time.sleep(0.02)  # lets the other threads in, as a long move would
        try:
            return apply(*args, **kwargs)
        finally:
            with lock:
                now_working[0] -= 1

    monkeypatch.setattr(game, "apply", slow_apply)
    boards = await asyncio.gather(*(tables.moves.play(channel_id=c, user_id=ALICE, text="step")
                                    for c in channels))
    assert all(b.move == 1 for b in boards)
    assert most[0] == MOVES_AT_ONCE


async def test_in_a_burst_the_first_move_is_stored_before_the_last_ones_are_read(
        tables: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.tables.core import MOVES_AT_ONCE

    channels = await a_race_in_each_of(tables, range(900, 900 + 3 * MOVES_AT_ONCE))
    said: list[str] = []
    store = tables.store
    game_for_move, commit_moves = store.moves.game_for_move, store.moves.commit_moves

    async def reading(*args: object, **kwargs: object) -> object:
        said.append("read")
        return await game_for_move(*args, **kwargs)  # type: ignore[arg-type]

    async def storing(*args: object, **kwargs: object) -> object:
        said.append("stored")
        return await commit_moves(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(store.moves, "game_for_move", reading)
    monkeypatch.setattr(store.moves, "commit_moves", storing)
    await asyncio.gather(*(tables.moves.play(channel_id=c, user_id=ALICE, text="step",
                                             interaction_id=c) for c in channels))
    # The store's reads are taken in turn: a move's reads wait for its slot, so the
    # first move is not read and stored only after every move of the burst was read.
    assert said.count("read") == len(channels)
    assert said.index("stored") <= MOVES_AT_ONCE + 1


async def test_a_move_worked_out_commits_before_the_moves_that_came_after_it_begin() -> None:
    from bot.tables.core import Slots

    slots, said = Slots(1), []

    async def move(name: str) -> None:
        async with slots.held():
            said.append(f"{name} worked out")
            await asyncio.sleep(0)
        async with slots.held(finishing=True):
            said.append(f"{name} committed")

    await asyncio.gather(move("first"), move("second"), move("third"))
    # The second move takes the slot the first lets go of between its work and its
    # commit; from then on a move waiting to commit goes before one not begun.
    assert said == ["first worked out", "second worked out", "first committed",
                    "second committed", "third worked out", "third committed"]


@pytest.mark.parametrize("given_up", ["while waiting", "as its turn came"])
async def test_a_move_given_up_waiting_for_its_turn_holds_no_slot(given_up: str) -> None:
    from bot.tables.core import Slots

    slots = Slots(1)
    async with slots.held():
        waiting = asyncio.create_task(slots.held().__aenter__())
        await asyncio.sleep(0)
        if given_up == "while waiting":
            waiting.cancel()
    if given_up == "as its turn came":
        waiting.cancel()  # the slot was handed to it a moment before
    with pytest.raises(asyncio.CancelledError):
        await waiting
    async with asyncio.timeout(1), slots.held():  # the slot is free again
        second = asyncio.create_task(slots.held().__aenter__())
        await asyncio.sleep(0.01)
        assert not second.done(), "one slot let two moves in"
        second.cancel()


async def test_autocomplete_lists_the_callers_moves_best_first_and_filtered(
        tables: Tables) -> None:
    await started(tables, humans=(BOB,))
    everything = await tables.queries.suggest(CHANNEL, ALICE, "")
    notations = [value for _label, value in everything]
    assert notations[-1] == "step" and all(n.startswith("play") for n in notations[:-1])
    assert await tables.queries.suggest(CHANNEL, ALICE, "ste") == [("step one space", "step")]
    assert all(label.startswith("play ") for label, _v in everything[:-1])
    assert await tables.queries.suggest(CHANNEL, BOB, "") == []


async def test_a_finished_game_ranks_the_seats_and_counts_for_stats(tables: Tables) -> None:
    board = await started(tables, humans=(BOB,), options={"target": "3"})
    while not board.finished:
        user = ALICE if board.to_act == (0,) else BOB
        board = await tables.moves.play(channel_id=CHANNEL, user_id=user, text="step")
    assert board.result is not None and board.ranking[0][1] == 1
    assert await tables.store.games.open_game(CHANNEL) is None
    lines = dict((title, line) for title, line in await tables.queries.stats(GUILD, ALICE))
    assert lines["Candy Race"].played == 1 and lines["Candy Race"].won == 1
    bob = dict((title, line) for title, line in await tables.queries.stats(GUILD, BOB))
    assert bob["Candy Race"].won == 0


# --------------------------------------------------------------------------- undo


async def test_undo_takes_back_a_move_that_revealed_nothing(tables: Tables) -> None:
    board = await started(tables, humans=(BOB,))
    await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
    undone = await tables.moves.undo(CHANNEL, ALICE)
    assert undone.state["totals"] == [0, 0] and undone.to_act == (0,)
    assert "took back `step`" in told(undone)
    assert undone.state == board.state


async def test_a_move_that_drew_a_card_cannot_be_undone(tables: Tables) -> None:
    board = await started(tables, humans=(BOB,))
    card = board.state["hands"][0][0]
    await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text=f"play {card}")
    with refused("cannot be taken back"):
        await tables.moves.undo(CHANNEL, ALICE)


async def test_undo_is_refused_once_another_player_has_acted(tables: Tables) -> None:
    await started(tables, humans=(BOB,))
    await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
    await tables.moves.play(channel_id=CHANNEL, user_id=BOB, text="step")
    with refused("only undo your own last move"):
        await tables.moves.undo(CHANNEL, ALICE)


async def test_undo_takes_back_the_ai_replies_with_the_players_move(tables: Tables) -> None:
    board = await started(tables, game="candy-stroll", ai=2)
    await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
    undone = await tables.moves.undo(CHANNEL, ALICE)
    assert "took back `step` and the 2 AI moves after it" in told(undone)
    assert undone.state == board.state
    assert await tables.store.moves.actions(board.record.id) == []


async def test_undo_is_refused_when_an_ai_reply_revealed_something(tables: Tables) -> None:
    await started(tables, ai=1)
    await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
    with refused(r"AI 1.s `play \d` after it revealed"):
        await tables.moves.undo(CHANNEL, ALICE)


# --------------------------------------------------------------------------- leave, abort


async def test_a_conceding_player_is_replaced_by_an_ai_who_moves_at_once(
        tables: Tables) -> None:
    await started(tables, humans=(BOB, CAROL))
    outcome = await tables.leaving.concede(CHANNEL, ALICE)
    board = outcome.board  # type: ignore[union-attr]
    assert board.steps[0].name == "Alice (AI)" and board.mentions == (BOB,)


async def test_the_last_human_leaving_ends_the_game_and_it_counts_as_a_loss(
        tables: Tables) -> None:
    await started(tables, ai=1)
    outcome = await tables.leaving.concede(CHANNEL, ALICE)
    assert outcome.board.finished  # type: ignore[union-attr]
    assert await tables.store.games.open_game(CHANNEL) is None
    (title, line), = await tables.queries.stats(GUILD, ALICE)
    assert (title, line.played, line.won) == ("Candy Race", 1, 0)


async def test_only_the_creator_or_a_channel_manager_may_abort(tables: Tables) -> None:
    await started(tables, humans=(BOB,))
    with pytest.raises(MayNotEnd):
        await tables.leaving.abort(CHANNEL, BOB, can_manage=False)
    with pytest.raises(OthersStillPlaying) as others:
        await tables.leaving.abort(CHANNEL, ALICE, can_manage=False)
    assert others.value.players == 1
    await tables.leaving.abort(CHANNEL, BOB, can_manage=True)
    assert await tables.store.games.open_game(CHANNEL) is None


# --------------------------------------------------------------------------- reminders


async def test_reminders_come_after_the_interval_three_times_and_never_twice(
        tables: Tables, clock: FakeClock) -> None:
    await started(tables, humans=(BOB,), reminder_hours=2)
    assert await tables.reminders.due() == []
    numbers = []
    for _ in range(4):
        clock.advance(2.01)
        due = await tables.reminders.due()
        assert await tables.reminders.due() == []
        numbers += [r.number for r in due if isinstance(r, Reminder)]
    assert numbers == [1, 2, 3]


async def test_an_ai_moves_after_the_last_reminder_when_the_lobby_asked_for_it(
        tables: Tables, clock: FakeClock) -> None:
    await started(tables, humans=(BOB,), reminder_hours=1, ai_takeover=True)
    for _ in range(3):
        clock.advance(1.01)
        (reminder,) = await tables.reminders.due()
        assert isinstance(reminder, Reminder) and reminder.mentions == (ALICE,)
    assert reminder.last and reminder.takeover_at is not None
    clock.advance(1.01)
    (board,) = await tables.reminders.due()
    assert isinstance(board, Board) and "an AI stands in for them" in told(board)
    assert board.steps[0].name == "Alice" and board.mentions == (BOB,)
    clock.advance(1.01)
    (next_reminder,) = await tables.reminders.due()
    assert isinstance(next_reminder, Reminder) and next_reminder.mentions == (BOB,)


async def test_a_move_resets_the_reminder_clock(tables: Tables, clock: FakeClock) -> None:
    await started(tables, humans=(BOB,), reminder_hours=2)
    clock.advance(1.5)
    await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text="step")
    clock.advance(1.0)
    assert await tables.reminders.due() == []
    clock.advance(1.01)
    (reminder,) = await tables.reminders.due()
    assert isinstance(reminder, Reminder) and reminder.mentions == (BOB,)


# --------------------------------------------------------------------------- private view


async def test_the_hand_shows_only_the_callers_cards(tables: Tables) -> None:
    board = await started(tables, humans=(BOB,))
    hand = await tables.queries.hand(CHANNEL, BOB)
    assert hand.view["hand"] == board.state["hands"][1]
    assert board.view["hand"] is None
    assert board.choices == ()  # hidden hands never become public buttons


async def test_one_unreadable_game_does_not_hold_up_other_reminders(
        tables: Tables, clock: FakeClock) -> None:
    store = tables.store
    broken = await store.games.create_lobby(channel_id=77, guild_id=GUILD, game="candy-race",
                                            creator_id=BOB, options={}, settings={}, now=clock.now)
    broken = await store.games.start(broken.id, broken.version, seed=1, state_json="{not json",
                                     seats=(), now=clock.now, next_reminder_at=clock.now + 60)
    await started(tables, humans=(BOB,), reminder_hours=1)
    clock.advance(1.01)
    (reminder,) = await tables.reminders.due()
    assert isinstance(reminder, Reminder) and reminder.record.channel_id == CHANNEL


async def test_a_game_under_other_rules_stops_its_reminders_quietly(
        tables: Tables, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    board = await started(tables, humans=(BOB,), reminder_hours=1)
    monkeypatch.setattr(CandyRace, "rules_version", 2)
    clock.advance(1.01)
    assert await tables.reminders.due() == []
    record = await tables.store.games.get_game(board.record.id)
    assert record.next_reminder_at is None and record.status == "active"


async def test_a_damaged_game_can_be_ended_by_a_channel_manager_only(tables: Tables,
                                                                      tmp_path: Path) -> None:
    await started(tables, humans=(BOB,))
    import sqlite3

    with sqlite3.connect(tmp_path / "tables.db") as db:
        db.execute("UPDATE games SET options = 'not json'")
    with refused("Manage Channels"):
        await tables.leaving.abort(CHANNEL, ALICE, can_manage=False)
    assert await tables.leaving.abort(CHANNEL, BOB, can_manage=True) is None
    assert await tables.store.games.open_game(CHANNEL) is None
