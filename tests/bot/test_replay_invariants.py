"""For every registered game: the store cannot change a game.

A game whose state is written out and read back before every single move (as the bot
does, one move per stored state) equals the same game kept in memory, at every move,
and both equal ``Game.replay`` of its log. A rule that depends on the order of a dict's
keys or a set's members breaks this, since a state read back has its keys sorted.
"""

from __future__ import annotations

import pytest

from bot.games import GAMES
from bot.games.engine import Engine, dumps, loads
from tests.support.playthrough import seats_for

SEEDS = (1, 2, 3)
#: Enough moves to pass through every phase of a round several times.
MOVES = 250
#: Moves at which the log is also replayed from the seed (and at the end).
REPLAY_AT = (1, 40, 120)


def players(game: Engine, seed: int) -> int:
    """A different table size per seed, within what the game allows."""
    return game.min_seats + seed % (game.max_seats - game.min_seats + 1)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_game_reloaded_before_every_move_equals_it_in_memory_and_its_replay(
        slug: str, seed: int) -> None:
    game = GAMES[slug]
    seats = seats_for(game, players(game, seed))
    in_memory = game.new(seats, seed)
    stored = dumps(game.new(seats, seed))
    log: list[tuple[int, str]] = []
    for move in range(1, MOVES + 1):
        acting = sorted(game.to_act(in_memory))
        if not acting:
            break
        seat = acting[0]
        action = game.ai_action(in_memory, seat)
        in_memory = game.apply(in_memory, seat, action).state
        # As the bot does: read the stored text, apply the typed notation, store the result.
        stored = dumps(game.apply(loads(stored, game), seat, action.notation).state)
        log.append((seat, action.notation))
        assert dumps(in_memory) == stored, f"{slug} seed {seed}: differs after move {move} " \
                                           f"({seat}: {action.notation})"
        if move in REPLAY_AT:
            assert dumps(game.replay(seats, seed, None, log)) == stored, (slug, seed, move)
    assert dumps(game.replay(seats, seed, None, log)) == stored, (slug, seed, len(log))
    assert log, f"{slug} had no move to make"
