"""Every state the store holds either loads and validates, or is reported as damaged with
the way out (``/game abort``), and nothing but abort changes a damaged game."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.discord.words import refusal
from bot.games import GAMES
from bot.games.engine import dumps, loads
from bot.store import Store
from bot.tables import DamagedStateError, Tables
from tests.support.discord_harness import Clock, Session

ALICE = 101
CHANNEL, GUILD = 55, 66
ENVELOPE = {"format", "game", "seed", "options", "seats", "move", "rng", "rules", "decisions",
            "decision_counter"}



@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[Tables]:
    store = await Store.open(tmp_path / "tables.db")
    yield Tables(store, GAMES, Clock())
    await store.close()


async def started(tables: Tables, slug: str) -> int:
    """A game of ``slug`` with Alice in seat 1 and AI seats for the rest, Alice to act."""
    game = GAMES[slug]
    lobby = await tables.lobbies.open_lobby(channel_id=CHANNEL, guild_id=GUILD, game=slug,
                                            creator_id=ALICE, creator_name="Alice",
                                            reminder_hours=1.0)
    for _ in range(game.min_seats - 1):
        await tables.lobbies.add_ai(lobby.record.id, ALICE)
    await tables.lobbies.start(lobby.record.id, ALICE)
    return lobby.record.id


def write_state(db: str, game_id: int, text: str) -> None:
    """Change a stored state behind the bot's back, as a bad disk or a hand edit would."""
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE games SET state_json = ? WHERE id = ?", (text, game_id))
    raw.close()


def damages(state: dict[str, Any]) -> dict[str, Callable[[dict[str, Any]], str]]:
    """Ways to damage ``state``, by name: each returns the damaged text."""

    def without(key: str) -> Callable[[dict[str, Any]], str]:
        return lambda s: dumps({k: v for k, v in s.items() if k != key})

    def kind_of(key: str) -> Callable[[dict[str, Any]], str]:
        return lambda s: dumps({**s, key: 7 if isinstance(s[key], str) else "7"})

    out: dict[str, Callable[[dict[str, Any]], str]] = {
        "unreadable": lambda s: dumps(s)[:-40],
        "not-a-state": lambda s: "[1, 2, 3]",
        "other-game": lambda s: dumps({**s, "game": "no-such-game"}),
        "no-rng": without("rng"),
        "a-seat-lost": lambda s: dumps({**s, "seats": s["seats"][:-1]}),
    }
    for key in sorted(set(state) - ENVELOPE):
        out[f"no-{key}"] = without(key)
        if state[key] is not None:
            out[f"{key}-of-another-kind"] = kind_of(key)
    return out


async def row(tables: Tables, game_id: int) -> tuple[Any, ...]:
    record = await tables.store.games.get_game(game_id)
    actions = await tables.store.moves.actions(game_id)
    return record.version, record.status, record.seats, record.state_json, len(actions)


@pytest.mark.parametrize("slug", sorted(GAMES))
async def test_a_damaged_state_is_reported_with_the_way_out_and_only_abort_changes_it(
        tables: Tables, slug: str) -> None:
    game = GAMES[slug]
    game_id = await started(tables, slug)
    record = await tables.store.games.get_game(game_id)
    sound = record.state_json or ""
    state = loads(sound, game)
    move = game.ai_action(state, 0).notation
    await tables.queries.board(CHANNEL)  # the sound state validates

    for name, damage in damages(state).items():
        write_state(tables.store.path, game_id, damage(json.loads(sound)))
        before = await row(tables, game_id)
        attempts = {
            "board": tables.queries.board(CHANNEL),
            "status": tables.queries.status(CHANNEL),
            "hand": tables.queries.hand(CHANNEL, ALICE),
            "play": tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text=move),
            "undo": tables.moves.undo(CHANNEL, ALICE),
            "leave": tables.leaving.concede(CHANNEL, ALICE),
        }
        for command, attempt in attempts.items():
            with pytest.raises(DamagedStateError) as told:
                await attempt
            assert told.value.game_id == game_id, (name, command)
            assert f"#{game_id} is damaged" in refusal(told.value), (name, command)
            assert "/game abort" in refusal(told.value)
            assert await row(tables, game_id) == before, (name, command)
        tables.clock.advance(3)  # type: ignore[attr-defined]
        assert await tables.reminders.due() == []
        assert await row(tables, game_id) == before, (name, "reminders")
        write_state(tables.store.path, game_id, sound)

    write_state(tables.store.path, game_id, damages(state)["no-rng"](state))
    assert await tables.leaving.abort(CHANNEL, ALICE, can_manage=False) is not None
    assert (await tables.store.games.get_game(game_id)).status == "aborted"


async def test_the_channel_is_told_the_game_is_damaged_and_how_to_clear_it(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    session = await Session.open(tmp_path, GAMES)
    try:
        await session.start("sugar-heist", humans=[ALICE], ai=2)
        record = await session.bot.tables.store.games.open_game(session.channel_id)
        assert record is not None and record.state_json is not None
        state = json.loads(record.state_json)
        del state["players"]
        write_state(session.bot.tables.store.path, record.id, dumps(state))
        for told in (await session.command(ALICE, "game", "board"),
                     await session.play(ALICE, "pass"),
                     await session.command(ALICE, "game", "leave")):
            assert told.ephemeral and "is damaged" in told.content, told.content
            assert "/game abort" in told.content
        with caplog.at_level(logging.ERROR):
            assert await session.suggest(ALICE, "") == []
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        after = await session.bot.tables.store.games.get_game(record.id)
        assert after.seats == record.seats and after.version == record.version
        ended = await session.command(ALICE, "game", "abort")
        assert "damaged" not in ended.content
        assert await session.bot.tables.store.games.open_game(session.channel_id) is None
    finally:
        await session.close()


async def test_a_state_the_bot_just_saved_is_not_checked_again_but_one_changed_is(
        tables: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.tables.core as core

    checked: list[int] = []
    exercise = core._exercise
    monkeypatch.setattr(core, "_exercise", lambda game, state, record, shape: (
        checked.append(record.version), exercise(game, state, record, shape)))
    slug = "sugar-blast"
    game = GAMES[slug]
    game_id = await started(tables, slug)

    async def alice_moves() -> None:
        state = loads((await tables.store.games.get_game(game_id)).state_json or "", game)
        await tables.moves.play(channel_id=CHANNEL, user_id=ALICE,
                                text=game.ai_action(state, 0).notation)

    await alice_moves()
    assert len(checked) == 1  # the state the lobby stored, checked once
    await alice_moves()
    assert len(checked) == 1  # the state the bot saved after Alice's move is trusted
    sound = (await tables.store.games.get_game(game_id)).state_json or ""
    move = game.ai_action(loads(sound, game), 0).notation
    write_state(tables.store.path, game_id, damages(loads(sound, game))["no-rng"](
        json.loads(sound)))
    with pytest.raises(DamagedStateError):
        await tables.moves.play(channel_id=CHANNEL, user_id=ALICE, text=move)


async def test_a_state_stays_trusted_while_thousands_of_other_games_are_saved(
        tables: Tables, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.tables.core as core

    checked: list[int] = []
    exercise = core._exercise
    monkeypatch.setattr(core, "_exercise", lambda game, state, record, shape: (
        checked.append(record.id), exercise(game, state, record, shape)))
    game = GAMES["sugar-blast"]
    game_id = await started(tables, game.slug)

    async def alice_moves() -> None:
        state = loads((await tables.store.games.get_game(game_id)).state_json or "", game)
        await tables.moves.play(channel_id=CHANNEL, user_id=ALICE,
                                text=game.ai_action(state, 0).notation)

    def others_saved(count: int, start: int) -> None:
        """Moves of ``count`` other games were saved by this process meanwhile."""
        for other in range(start, start + count):
            tables.pipeline.vouch((other, 2, hash(str(other))))

    await alice_moves()
    assert checked == [game_id]  # the state the lobby stored
    others_saved(5000, 10**6)  # a bot with thousands of games under way
    await alice_moves()
    assert checked == [game_id]
    others_saved(core.SOUND_GAMES, 2 * 10**6)  # more games than it remembers
    await alice_moves()
    assert checked == [game_id, game_id]  # forgotten, so checked again


async def test_games_reads_who_acts_without_checking_every_view_yet_names_damage(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.tables.core as core

    checked: list[int] = []
    exercise = core._exercise
    monkeypatch.setattr(core, "_exercise", lambda game, state, record, shape: (
        checked.append(record.id), exercise(game, state, record, shape)))
    store = await Store.open(tmp_path / "tables.db")
    try:
        game_id = await started(Tables(store, GAMES, Clock()), "sugar-heist")
        checked.clear()
        fresh = Tables(store, GAMES, Clock())  # another process: nothing vouched for yet
        (entry,) = await fresh.queries.my_games(ALICE)
        assert entry.your_turn and not entry.damaged
        assert checked == []
        sound = (await store.games.get_game(game_id)).state_json or ""
        state = json.loads(sound)
        for name in ("unreadable", "no-rng", "no-over"):  # who acts cannot be worked out
            write_state(store.path, game_id, damages(state)[name](state))
            (entry,) = await Tables(store, GAMES, Clock()).queries.my_games(ALICE)
            assert f"Damaged(game_id={game_id}," in entry.damaged, name
    finally:
        await store.close()
