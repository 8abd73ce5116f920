"""Ratings: openskill Plackett-Luce per server and game, updated with the finish."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator

import pytest

import bot.games
from bot.games.engine import Result, dumps
from bot.ratings import PROVISIONAL_GAMES, Rating, rate
from bot.store import SeatRecord, Store
from bot.tables.core import _placements, dumps_result
from tests.support.playthrough import play

T0 = 1_700_000_000.0
GUILD, OTHER_GUILD = 50, 51
USERS = (101, 102, 103, 104, 105, 106)


@pytest.fixture
async def store(db_target: str) -> AsyncIterator[Store]:
    opened = await Store.open(db_target)
    yield opened
    await opened.close()


async def finished(store: Store, slug: str, result: Result, *, humans: int,
                   ai: frozenset[int] = frozenset(), guild: int = GUILD, channel: int = 1,
                   state: str = "{}") -> None:
    """A game of ``slug`` with ``humans`` seats, ``ai`` of them AI, finished at ``result``."""
    seats = tuple(SeatRecord(i, None if i in ai else USERS[i], f"P{i}", i in ai)
                  for i in range(humans))
    record = await store.games.create_lobby(channel_id=channel, guild_id=guild, game=slug,
                                            creator_id=USERS[0], options={}, settings={}, now=T0)
    record = await store.games.set_seats(record.id, record.version, seats, T0)
    record = await store.games.start(record.id, record.version, seed=1, state_json=state,
                                     seats=seats, now=T0, next_reminder_at=None)
    await store.games.finish(record.id, record.version, state_json=state,
                             result_json=dumps_result(result),
                             placements=_placements(record, result), now=T0 + 60)


async def rating(store: Store, user: int, slug: str, guild: int = GUILD) -> Rating | None:
    lines = {line.game: line for line in await store.ratings.stats(guild, user)}
    return lines[slug].rating if slug in lines else None


@pytest.mark.parametrize("slug", sorted(bot.games.GAMES))
async def test_every_game_rates_its_players_when_it_finishes(store: Store, slug: str) -> None:
    game = bot.games.GAMES[slug]
    players = max(game.min_seats, min(3, game.max_seats))
    state, _ = play(game, seed=3, players=players)
    result = game.result(state)
    assert result is not None
    await finished(store, slug, result, humans=players, state=dumps(state))
    after = {seat: await rating(store, USERS[seat], slug) for seat in range(players)}
    assert all(r is not None and r.games == 1 and r.provisional for r in after.values())
    assert all((r.mu, r.sigma) != (Rating().mu, Rating().sigma) for r in after.values()
               if r is not None)
    best, worst = result.ranking[0][0], result.ranking[-1][0]
    if len(result.ranking) > 1:
        assert after[best].shown > after[worst].shown  # type: ignore[union-attr]


async def test_tied_players_share_the_same_new_rating(store: Store) -> None:
    tie = Result(((0, 1), (2,)), {0: 5, 1: 5, 2: 1}, "P0 and P1 tie.")
    await finished(store, "sugar-blast", tie, humans=3)
    first, second, third = [await rating(store, u, "sugar-blast") for u in USERS[:3]]
    assert first is not None and second is not None and third is not None
    assert (first.mu, first.sigma) == (second.mu, second.sigma)
    assert first.shown > third.shown


async def test_a_rating_moves_after_each_of_many_games(store: Store) -> None:
    shown = []
    for n in range(12):
        winner = n % 2
        result = Result(((winner,), (1 - winner,)), {}, "")
        await finished(store, "sugar-blast", result, humans=2, channel=100 + n)
        current = await rating(store, USERS[0], "sugar-blast")
        assert current is not None and current.games == n + 1
        shown.append(current.shown)
    assert all(a != b for a, b in itertools.pairwise(shown)), shown
    assert not current.provisional and PROVISIONAL_GAMES <= 12


async def test_ratings_are_kept_per_server_and_per_game(store: Store) -> None:
    result = Result(((0,), (1,)), {}, "")
    await finished(store, "sugar-blast", result, humans=2)
    assert await rating(store, USERS[0], "sugar-blast", OTHER_GUILD) is None
    assert await rating(store, USERS[0], "sugartopia") is None


async def test_ai_seats_are_not_rated_and_one_human_alone_is_not_rated(store: Store) -> None:
    result = Result(((1,), (0,), (2,)), {}, "")
    await finished(store, "sugar-blast", result, humans=3, ai=frozenset({1}))
    first, third = (await rating(store, USERS[0], "sugar-blast"),
                    await rating(store, USERS[2], "sugar-blast"))
    assert first is not None and third is not None and first.shown > third.shown
    alone = Result(((1,), (0,)), {}, "")
    await finished(store, "sugartopia", alone, humans=2, ai=frozenset({1}), channel=2)
    assert await rating(store, USERS[0], "sugartopia") is None


def test_rate_ranks_places_and_ties() -> None:
    new = rate([(Rating(), 2), (Rating(), 1), (Rating(), 2)])
    assert new[1].mu > new[0].mu == new[2].mu
    assert all(r.games == 1 for r in new)


async def test_a_game_still_finishes_when_the_rating_library_is_missing(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise ImportError("No module named 'openskill'")

    monkeypatch.setattr("bot.ratings._model", missing)
    await finished(store, "sugar-blast", Result(((0,), (1,)), {}, ""), humans=2)
    (line,) = await store.ratings.stats(GUILD, USERS[0])
    assert (line.played, line.won, line.rating) == (1, 1, None)
