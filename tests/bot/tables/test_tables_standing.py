"""Standing actions through the tables: a player acts out of turn without taking a turn."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games import GAMES
from bot.games.engine import loads
from bot.store import Store
from bot.tables import Tables

ALICE, BOB = 201, 202
CHANNEL, GUILD = 77, 88
GAME = GAMES["kingdoms-candy-monsters"]


@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[Tables]:
    store = await Store.open(tmp_path / "tables.db")
    yield Tables(store, {GAME.slug: GAME})
    await store.close()


async def test_a_player_converts_sugar_in_another_players_turn(tables: Tables) -> None:
    lobby = await tables.lobbies.open_lobby(channel_id=CHANNEL, guild_id=GUILD, game=GAME.slug,
                                            creator_id=ALICE, creator_name="Alice")
    await tables.lobbies.join(lobby.record.id, BOB, "Bob")
    await tables.lobbies.start(lobby.record.id, ALICE)
    record = await tables.store.games.open_game(CHANNEL)
    state = loads(record.state_json, GAME)
    acting = GAME.to_act(state)
    users = {s.seat: s.user_id for s in record.seats}
    idle = next(users[s] for s in users if s not in acting)
    idle_seat = next(s for s in users if users[s] == idle)
    assert [v for _label, v in await tables.queries.suggest(CHANNEL, idle, "")] == ["convert"]
    hand = await tables.queries.hand(CHANNEL, idle)
    assert [a.notation for a in hand.choices] == ["convert"]
    await tables.moves.play(channel_id=CHANNEL, user_id=idle, text="convert")
    after = loads((await tables.store.games.open_game(CHANNEL)).state_json, GAME)
    assert GAME.to_act(after) == acting
    assert after["players"][idle_seat]["candy"] == state["players"][idle_seat]["candy"] + 1
