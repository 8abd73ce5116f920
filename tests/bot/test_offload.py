"""Moves worked out in a worker process (the render pool's ``offload``) are the moves worked out
in the bot's own process: the same commit at every move of a whole game, the same refusals,
the same check of a state the bot has not seen sound."""

from __future__ import annotations

import dataclasses
import json
import pickle
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

import bot.games.engine as engine
import bot.refusals as refusals
from bot.games import GAMES
from bot.games.engine import GameError, loads
from bot.store import Store
from bot.tables import DamagedStateError, MoveRequest, Tables
from renderers.pool import PooledRenderer
from tests.bot.tables.test_damaged_states import (
    ALICE,
    CHANNEL,
    Clock,
    damages,
    started,
    write_state,
)


@pytest.fixture(scope="module")
def pool() -> Iterator[PooledRenderer]:
    renderer = PooledRenderer(workers=1)
    assert renderer.start()
    yield renderer
    renderer.close()


@pytest.fixture
async def both(tmp_path: Path, pool: PooledRenderer) -> AsyncIterator[tuple[Tables, Tables]]:
    """Tables that work moves out in the pool's worker, and tables on the same database that
    work them out in a thread of this process."""
    store = await Store.open(tmp_path / "tables.db")
    clock = Clock()
    yield (Tables(store, GAMES, clock, offload=pool.offload),
           Tables(store, GAMES, clock))
    await store.close()


@pytest.mark.parametrize("slug", sorted(GAMES))
async def test_every_move_worked_out_in_a_worker_is_the_one_worked_out_here(both, slug,
                                                                            monkeypatch):
    away, here = both
    game_id = await started(away, slug)

    def not_here(*_args: object) -> None:
        raise AssertionError("worked out in the bot's own process")

    monkeypatch.setattr(away.moves, "_work", not_here)
    game = GAMES[slug]
    for _ in range(16):
        record = await away.store.games.get_game(game_id)
        if record.status != "active":
            break
        state = loads(record.state_json or "", game)
        seat = min(game.to_act(state))
        request = MoveRequest(user_id=ALICE, text=game.ai_action(state, seat).notation,
                              channel_id=CHANNEL)
        worked = await away.moves.prepare(request)
        assert worked.ready == (await here.moves.prepare(request)).ready
        await away.moves.commit(worked)


def _request(text: str, user: int = ALICE, **kwargs: object) -> MoveRequest:
    return MoveRequest(user_id=user, text=text, channel_id=CHANNEL, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("request_", [
    _request("no such move at all"),
    _request("swap a1 f6"),  # well formed, not legal
    _request("swap a1 a2", user=ALICE + 1),  # not at the table
    _request("swap a1 a2", token="stale", offered_at=0),  # a button of another move
], ids=["notation", "illegal", "stranger", "stale button"])
async def test_a_refusal_from_the_worker_is_the_refusal_made_here(both, request_):
    away, here = both
    await started(away, "sugar-blast")
    errors = []
    for tables in (away, here):
        with pytest.raises(GameError) as told:
            await tables.moves.prepare(request_)
        errors.append(told.value)
    assert type(errors[0]) is type(errors[1])
    assert str(errors[0]) == str(errors[1]) and vars(errors[0]) == vars(errors[1])


async def test_a_state_the_bot_has_not_found_sound_is_checked_in_the_worker(both):
    away, here = both
    game_id = await started(away, "sugar-heist")
    record = await away.store.games.get_game(game_id)
    state = json.loads(record.state_json or "")
    write_state(away.store.path, game_id, damages(state)["no-players"](state))
    move = _request("pass")
    for tables in (away, here):
        with pytest.raises(DamagedStateError) as told:
            await tables.moves.prepare(move)
        assert told.value.game_id == game_id


def _every(kind: type) -> Iterator[type]:
    for sub in kind.__subclasses__():
        yield sub
        yield from _every(sub)


def _example(kind: type[refusals.Refused]) -> refusals.Refused:
    """An instance of a refusal with a value of its own kind in each field."""
    values = {str: "Ana", int: 7, float: 1.5, bool: True}
    made = {}
    for spec in dataclasses.fields(kind):
        kind_name = str(spec.type)
        made[spec.name] = next((v for t, v in values.items() if kind_name.startswith(t.__name__)),
                               ("a", "b") if "tuple" in kind_name else None)
    return kind(**made)


def test_every_refusal_and_game_error_crosses_to_another_process_whole():
    errors: list[GameError] = [_example(kind) for kind in _every(refusals.Refused)
                               if dataclasses.is_dataclass(kind)]
    errors += [engine.NotationError("Sugar Blast", "swp", "swap a1 a2"),
               engine.AmbiguousActionError("buy", ["buy 1", "buy 2"]),
               engine.NotYourTurnError("wait", waiting=["Ana"], decided=True),
               engine.RulesVersionError("older", title="Sugar Blast", made=1, plays=2),
               engine.IllegalActionError("no"), engine.StaleActionError("old")]
    assert len(errors) > 40
    for error in errors:
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and str(again) == str(error)
        assert vars(again) == vars(error) and again.args == error.args


async def test_with_its_workers_gone_the_pool_works_moves_out_in_the_bots_process(tmp_path):
    closed = PooledRenderer(workers=1)
    assert closed.start()
    closed.close()  # as after a second break: the lanes are in-process from then on
    store = await Store.open(tmp_path / "tables.db")
    try:
        clock = Clock()
        away, here = (Tables(store, GAMES, clock, offload=closed.offload),
                      Tables(store, GAMES, clock))
        await started(away, "kingdoms-candy-monsters")
        record = await away.store.games.open_game(CHANNEL)
        state = loads(record.state_json or "", GAMES["kingdoms-candy-monsters"])
        move = _request(GAMES["kingdoms-candy-monsters"].ai_action(state, 0).notation)
        assert (await away.moves.prepare(move)).ready == (await here.moves.prepare(move)).ready
    finally:
        await store.close()


@pytest.mark.parametrize("slug", sorted(GAMES))
async def test_a_moves_board_is_begun_in_the_worker_that_worked_the_move_out(both, slug, pool,
                                                                           monkeypatch):
    """The board of a move prepared for showing is drawn by the worker right after the move
    (no second trip to it): the picture the bot then asks for is that one, pixel for pixel
    the picture drawn here of the same view."""
    from renderers import render

    away, _here = both
    game_id = await started(away, slug)
    record = await away.store.games.get_game(game_id)
    game = GAMES[slug]
    state = loads(record.state_json or "", game)
    worked = await away.moves.prepare(
        _request(game.ai_action(state, min(game.to_act(state))).notation))
    assert worked.view is not None

    def no_second_trip(*_args: object, **_kwargs: object) -> object:
        raise AssertionError("the board was sent to a worker again")

    monkeypatch.setattr(pool, "_awaited", no_second_trip)
    assert await pool.render_async(worked.view, key=game_id) == render(worked.view)
    monkeypatch.undo()
    assert pool._begun(worked.view) is None  # taken once
    await away.moves.commit(worked)


async def test_a_refused_move_leaves_no_picture_for_the_next_one(both, pool):
    """A move the worker refuses leaves nothing drawn: the next board is its own."""
    from renderers import render

    away, _here = both
    game_id = await started(away, "sugar-blast")
    before = dict(pool._drawn)  # the pool is the module's: earlier tests' moves are kept
    with pytest.raises(GameError):
        await away.moves.prepare(_request("swap a1 f6"))
    assert dict(pool._drawn) == before
    record = await away.store.games.get_game(game_id)
    state = loads(record.state_json or "", GAMES["sugar-blast"])
    worked = await away.moves.prepare(_request(GAMES["sugar-blast"].ai_action(state, 0).notation))
    assert worked.view is not None
    assert await pool.render_async(worked.view, key=game_id) == render(worked.view)
