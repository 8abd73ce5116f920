"""Seasons in the store, on both backends: a game is rated in the season it ends in
beside its all-time rating, a closed season's standings are kept once and as they were,
overlapping seasons cannot both be added, and deleting a player's data leaves their
place to a former player."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.discord.words import refusal
from bot.limits import Limits
from bot.organized.seasons import Season, clashing, day_of
from bot.ratings import Rating
from bot.refusals import BadSeason, LimitReached
from bot.store import Announcement, FinishRecord, SeatRecord, Store
from bot.tables.core import Pipeline
from bot.tables.seasons import Seasons

GUILD, CHANNEL = 987_654_321_098_765_432, 1_234_567_890_123_456_789
ALICE, BOB = 111_111_111_111_111_111, 222_222_222_222_222_222
SEATS = (SeatRecord(0, ALICE, "Alice", False), SeatRecord(1, BOB, "Bob", False))
T0 = 1_700_000_000.0
DAY = 86_400.0


def day(at: float) -> str:
    """The UTC day of ``at`` as a manager types it."""
    return day_of(at).isoformat()


@pytest.fixture
async def store(db_target: str) -> AsyncIterator[Store]:
    opened = await Store.open(db_target)
    yield opened
    await opened.close()


async def game_won(store: Store, winner: int, at: float) -> None:
    """A two-player game on the server that ``winner`` wins, ending at ``at``."""
    record = await store.games.create_lobby(channel_id=CHANNEL + int(at), guild_id=GUILD,
                                            game="sugar-blast", creator_id=ALICE, options={},
                                            settings={}, now=at - 10)
    record = await store.games.set_seats(record.id, record.version, SEATS, at - 9)
    record = await store.games.start(record.id, record.version, seed=1, state_json="{}",
                                     seats=SEATS, now=at - 8, next_reminder_at=None)
    loser = BOB if winner == ALICE else ALICE
    finish = FinishRecord("{}", ((winner, 0 if winner == ALICE else 1, 1, True),
                                 (loser, 1 if winner == ALICE else 0, 2, False)))
    await store.games.finish(record.id, record.version, state_json="{}",
                             result_json=finish.result_json, placements=finish.placements, now=at)



async def season(store: Store, name: str, starts: float, ends: float, *,
                 fresh: bool = False) -> Season:
    def check(seasons: list[Season]) -> None:
        other = clashing(seasons, starts, ends)
        if other is not None:
            raise ValueError(other.name)

    return await store.ratings.add_season(GUILD, name=name, starts_at=starts, ends_at=ends,
                                          channel_id=CHANNEL, fresh=fresh, now=starts, check=check)


async def test_a_game_is_rated_in_the_season_it_ends_in_and_all_time_alike(
        store: Store) -> None:
    await game_won(store, BOB, T0 - DAY)  # before the season: all time only
    autumn = await season(store, "Autumn", T0, T0 + 7 * DAY, fresh=True)
    await game_won(store, ALICE, T0 + DAY)
    alltime = {u: r for u, _, r in await store.ratings.leaders(GUILD, "sugar-blast")}
    seasonal = {u: r for u, _, r in
                await store.ratings.leaders(GUILD, "sugar-blast", season=autumn)}
    assert alltime[ALICE].games == 2 and seasonal[ALICE].games == 1
    # Afresh: one game from a newcomer's rating, as the rating model gives it.
    assert seasonal[ALICE].mu > Rating().mu > seasonal[BOB].mu
    assert seasonal[ALICE].mu != alltime[ALICE].mu
    (line,) = await store.ratings.stats(GUILD, ALICE, autumn)
    assert (line.played, line.won, line.rating) == (1, 1, seasonal[ALICE])
    (line,) = await store.ratings.stats(GUILD, ALICE)
    assert (line.played, line.won) == (2, 1)


async def test_overlapping_seasons_are_refused_inside_the_transaction(store: Store) -> None:
    await season(store, "Autumn", T0, T0 + 7 * DAY)
    with pytest.raises(ValueError, match="Autumn"):
        await season(store, "Late", T0 + 6 * DAY, T0 + 9 * DAY)
    await season(store, "Winter", T0 + 7 * DAY, T0 + 30 * DAY)
    assert [s.name for s in await store.ratings.seasons(GUILD)] == ["Autumn", "Winter"]


async def test_a_closed_seasons_standings_are_kept_once_and_do_not_change(
        store: Store) -> None:
    autumn = await season(store, "Autumn", T0, T0 + 2 * DAY)
    await game_won(store, ALICE, T0 + DAY)
    assert await store.ratings.seasons_due(T0 + DAY) == []
    (due,) = await store.ratings.seasons_due(T0 + 3 * DAY)
    post = Announcement(channel_id=CHANNEL, guild_id=GUILD, game_id=None, kind="season",
                        data={"season": due.id})
    assert await store.ratings.close_season(due, T0 + 3 * DAY, (post,))
    assert not await store.ratings.close_season(due, T0 + 3 * DAY, (post,))
    count, _ = await store.outbox.pending_announcements(T0 + 3 * DAY)
    assert count == 1
    kept = await store.ratings.season_standings(autumn)
    assert [name for name, *_ in kept["sugar-blast"]] == ["Alice", "Bob"]
    await game_won(store, BOB, T0 + 4 * DAY)
    await game_won(store, BOB, T0 + 5 * DAY)
    assert await store.ratings.season_standings(autumn) == kept
    assert await store.ratings.seasons_due(T0 + 9 * DAY) == []


async def test_deleting_a_player_leaves_a_former_player_in_a_kept_place(store: Store) -> None:
    autumn = await season(store, "Autumn", T0, T0 + 2 * DAY)
    await game_won(store, ALICE, T0 + DAY)
    (due,) = await store.ratings.seasons_due(T0 + 3 * DAY)
    await store.ratings.close_season(due, T0 + 3 * DAY, ())
    about = await store.people.about(ALICE)
    assert about["season_ratings"][0]["season"] == "Autumn"
    assert about["season_standings"][0]["place"] == 1
    counts = await store.people.forget(ALICE, "a former player", T0 + 4 * DAY, {})
    assert counts["season_ratings"] == 1 and counts["season_standings"] == 1
    kept = await store.ratings.season_standings(autumn)
    assert [name for name, *_ in kept["sugar-blast"]] == ["a former player", "Bob"]
    about = await store.people.about(ALICE)
    assert about["season_ratings"] == [] and about["season_standings"] == []
    leaders = await store.ratings.leaders(GUILD, "sugar-blast", season=autumn)
    assert [u for u, _, _ in leaders] == [BOB]


async def test_a_season_not_begun_is_removed_and_one_under_way_ends_early(
        store: Store) -> None:
    later = await season(store, "Later", T0 + 10 * DAY, T0 + 20 * DAY)
    assert await store.ratings.end_season(later, T0) is None
    now = await season(store, "Now", T0, T0 + 20 * DAY)
    ended = await store.ratings.end_season(now, T0 + DAY)
    assert ended is not None and ended.ends_at == T0 + DAY
    assert [s.name for s in await store.ratings.seasons_due(T0 + DAY)] == ["Now"]


async def test_seasons_not_over_are_a_limit_per_server_and_past_ones_do_not_count(
        store: Store) -> None:
    now = [T0]
    seasons = Seasons(Pipeline(store, {}, lambda: now[0], limits=Limits(seasons_per_server=2)))
    await seasons.create(GUILD, name="One", start=day(T0), end=day(T0 + DAY), channel_id=CHANNEL)
    await seasons.create(GUILD, name="Two", start=day(T0 + 5 * DAY), end=day(T0 + 6 * DAY),
                         channel_id=CHANNEL)
    with pytest.raises(LimitReached) as refused:
        await seasons.create(GUILD, name="Three", start=day(T0 + 9 * DAY),
                             end=day(T0 + 9 * DAY), channel_id=CHANNEL)
    assert "2 seasons under way or to come" in refusal(refused.value)
    now[0] = T0 + 3 * DAY  # One is over: it is kept, and no longer counts
    await seasons.create(GUILD, name="Three", start=day(T0 + 9 * DAY), end=day(T0 + 9 * DAY),
                         channel_id=CHANNEL)
    assert [s.name for s in await seasons.listed(GUILD)] == ["One", "Two", "Three"]
    for taken in ("one", "All  time"):  # "all time" is what /stats takes for every game
        with pytest.raises(BadSeason):
            await seasons.create(GUILD, name=taken, start=day(T0 + 20 * DAY),
                                 end=day(T0 + 21 * DAY), channel_id=CHANNEL)


async def test_a_server_purged_loses_its_seasons(store: Store) -> None:
    await season(store, "Autumn", T0, T0 + 2 * DAY)
    await game_won(store, ALICE, T0 + DAY)
    await store.servers.server_gone(GUILD, T0 + 2 * DAY)
    assert await store.servers.purge_servers(T0 + 40 * DAY) == [GUILD]
    assert await store.ratings.seasons(GUILD) == []
    assert (await store.people.about(ALICE))["season_ratings"] == []
