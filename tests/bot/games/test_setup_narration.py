"""What a game says while it is set up reaches the players; private lines do not."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games import GAMES
from bot.games.engine import Engine, SeatInfo, State, Turn
from bot.store import Store
from bot.tables import Tables
from tests.support import tiny_game
from tests.support.refusing import told

CHANNEL, GUILD, ALICE, BOB = 500, 600, 1, 2


class WhisperingHunch(tiny_game.CandyHunch):
    """Candy Hunch that tells each player their first card privately while dealing."""

    def _setup(self, state: State, turn: Turn) -> None:
        super()._setup(state, turn)
        for seat, card in enumerate(state["hands"]):
            turn.say(f"You were dealt {card}.", seat, "deal", to=[seat])


@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[Tables]:
    store = await Store.open(tmp_path / "tables.db")
    games = {g.slug: g for g in (GAMES["sugarworks"], Engine(WhisperingHunch()))}
    yield Tables(store, games, lambda: 1_000_000.0)
    await store.close()


async def _start(tables: Tables, game: str) -> str:
    lobby = await tables.lobbies.open_lobby(channel_id=CHANNEL, guild_id=GUILD, game=game,
                                            creator_id=ALICE, creator_name="Alice")
    await tables.lobbies.join(lobby.record.id, BOB, "Bob")
    _lobby, board = await tables.lobbies.start(lobby.record.id, ALICE)
    return told(board)


def test_begin_returns_the_state_new_makes_and_the_set_up_narration():
    game = GAMES["sugarworks"]
    seats = [SeatInfo("Ann"), SeatInfo("Bo")]
    state, events = game.begin(seats, 7)
    assert state == game.new(seats, 7)
    assert "The Sugarworks opens: one candy on each output tile." in [e.text for e in events]


async def test_the_set_up_narration_is_in_the_message_that_starts_the_game(
        tables: Tables) -> None:
    headline = await _start(tables, "sugarworks")
    assert headline.startswith("Sugarworks begins!")
    assert "The Sugarworks opens: one candy on each output tile." in headline


async def test_a_private_set_up_line_stays_out_of_the_channel(tables: Tables) -> None:
    headline = await _start(tables, "candy-hunch")
    assert "Everybody stakes in secret." in headline
    assert "dealt" not in headline
