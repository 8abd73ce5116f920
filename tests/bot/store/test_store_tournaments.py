"""Tournaments in the store, on both backends: sign-ups within their limits, rounds
written whole with their announcement, a lease per tournament, and a player forgotten
without breaking anyone's standings."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import Announcement, ConflictError, Store
from bot.store.tournaments import Tournaments

GUILD, CHANNEL = 900_000_000_000_000_001, 900_000_000_000_000_002
ALICE, BOB, CAROL = 111, 222, 333
T0 = 1_700_000_000.0


@pytest.fixture
async def store(db_target: str) -> AsyncIterator[Store]:
    opened = await Store.open(db_target)
    yield opened
    await opened.close()


async def new(tournaments: Tournaments, token: str = "tok") -> int:
    record = await tournaments.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, game="sugar-blast", format="swiss",
        rounds=3, seats=2, settings={"reminder_hours": 24.0}, deadline=None, token=token,
        now=T0)
    return record.id


async def test_sign_ups_keep_to_the_limits_and_once_each(store: Store) -> None:
    tournaments = store.tournaments
    tid = await new(tournaments)
    other = await new(tournaments, "tok2")
    limits = {"most_players": 2, "most_signups": 1}
    assert await tournaments.join(tid, ALICE, "Alice", T0, **limits) == "joined"
    assert await tournaments.join(tid, ALICE, "Alice", T0, **limits) == "already"
    assert await tournaments.join(other, ALICE, "Alice", T0, **limits) == "signups"
    assert await tournaments.join(tid, BOB, "Bob", T0, **limits) == "joined"
    assert await tournaments.join(tid, CAROL, "Carol", T0, **limits) == "full"
    assert [p.entry for p in await tournaments.players(tid)] == [1, 2]
    assert await tournaments.signups_of(ALICE) == 1
    # Leaving before the start takes the player off the list.
    assert (await tournaments.leave(tid, ALICE, T0)) is not None
    assert [p.user_id for p in await tournaments.players(tid)] == [BOB]


async def test_a_round_is_written_whole_with_its_announcement(store: Store) -> None:
    tournaments = store.tournaments
    tid = await new(tournaments)
    for user in (ALICE, BOB, CAROL):
        await tournaments.join(tid, user, f"P{user}", T0, most_players=9, most_signups=9)
    record = await tournaments.get(tid)
    notice = Announcement(channel_id=CHANNEL, guild_id=GUILD, game_id=None, kind="standings",
                          data={"tournament": tid, "about": "first", "played": 0})
    started = await tournaments.begin_round(record, 1, [(1, 2), (3,)], T0, (notice,))
    assert (started.status, started.round) == ("running", 1)
    tables = await tournaments.tables(tid)
    assert [(t.entries, t.bye, t.places) for t in tables] == [((1, 2), False, None),
                                                             ((3,), True, {3: 1})]
    claimed = await store.outbox.claim_announcements(T0, lease=60)
    assert [(r.announcement.kind, r.announcement.data) for r in claimed] == [
        ("standings", {"tournament": tid, "about": "first", "played": 0})]
    with pytest.raises(ConflictError):  # formed twice from the same reading: once
        await tournaments.begin_round(record, 1, [(1, 2), (3,)], T0)
    await tournaments.set_game(tid, 1, 1, 77)
    await tournaments.end_table(tid, 1, 1, {1: 2, 2: 1})
    assert (await tournaments.tables(tid))[0].places == {1: 2, 2: 1}
    # A withdrawal under way keeps the entry, withdrawn from this round on.
    await tournaments.leave(tid, BOB, T0)
    assert [p.withdrawn for p in await tournaments.players(tid)] == [None, 1, None]


async def test_one_process_at_a_time_works_on_a_tournament(store: Store) -> None:
    tournaments = store.tournaments
    tid = await new(tournaments)
    assert await tournaments.claim(tid, T0, 60)
    assert not await tournaments.claim(tid, T0 + 1, 60)
    assert await tournaments.claim(tid, T0 + 61, 60)  # the holder died: its lease ran out
    await tournaments.release(tid)
    assert await tournaments.claim(tid, T0 + 62, 60)


async def test_a_forgotten_player_keeps_their_results_for_the_others(store: Store) -> None:
    tournaments = store.tournaments
    tid = await new(tournaments)
    signing = await new(tournaments, "tok2")
    for user in (ALICE, BOB):
        await tournaments.join(tid, user, f"P{user}", T0, most_players=9, most_signups=9)
    await tournaments.join(signing, ALICE, "Alice", T0, most_players=9, most_signups=9)
    await tournaments.begin_round(await tournaments.get(tid), 1, [(1, 2)], T0)
    await tournaments.end_table(tid, 1, 1, {1: 1, 2: 2})
    assert len((await store.people.about(ALICE))["tournaments"]) == 2
    counts = await store.people.forget(ALICE, "Former player", T0, {})
    assert (counts["tournament_signups"], counts["tournament_entries"]) == (1, 1)
    assert (await store.people.about(ALICE))["tournaments"] == []
    players = await tournaments.players(tid)
    assert [(p.entry, p.user_id, p.name, p.withdrawn) for p in players] == [
        (1, None, "", 1), (2, BOB, f"P{BOB}", None)]
    assert (await tournaments.tables(tid))[0].places == {1: 1, 2: 2}
    assert await tournaments.players(signing) == []
