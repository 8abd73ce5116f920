"""People can see and delete what the bot keeps about them; old announcements and the
games of servers that removed the bot are not kept for ever (docs/privacy.md). On both
backends."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Announcement, Store
from bot.tables import FORMER_PLAYER, Tables

sys.path.insert(0, str(Path(__file__).parent / "discord"))
from race_game import CandyRace

ALICE, BOB, CAROL = 501, 502, 503
GUILD, CHANNEL = 88, 77
NOW = 1_700_000_000.0
DAY = 86400.0


@pytest.fixture
async def tables(db_target: str) -> AsyncIterator[Tables]:
    store = await Store.open(db_target)
    clock = [NOW]
    yield Tables(store, {"candy-race": CandyRace()}, lambda: clock[0])
    await store.close()


async def finished_game(tables: Tables, channel: int = CHANNEL, guild: int = GUILD) -> int:
    """Alice (named Ann) beats Bob to 3 in ``channel``."""
    lobby = await tables.open_lobby(channel_id=channel, guild_id=guild, game="candy-race",
                                    creator_id=ALICE, creator_name="Ann",
                                    options={"target": 3})
    await tables.join(lobby.record.id, BOB, "Bob")
    await tables.start(lobby.record.id, ALICE)
    for user in (ALICE, BOB, ALICE, BOB, ALICE):
        await tables.play(channel_id=channel, user_id=user, text="step")
    record = await tables.store.get_game(lobby.record.id)
    assert record.status == "finished"
    return record.id


async def test_a_person_sees_everything_kept_about_them(tables: Tables) -> None:
    game_id = await finished_game(tables)
    await tables.set_quiet_hours(ALICE, "Europe/Berlin", 22, 7)
    await tables.set_notify(ALICE, "dm")
    await tables.take_vacation(ALICE, 3)
    kept = await tables.about(ALICE)
    json.dumps(kept)  # all of it plain JSON, for the file /privacy attaches
    assert kept["quiet_hours"][0]["timezone"] == "Europe/Berlin"
    assert kept["notifications"][0]["how"] == "dm" and len(kept["vacations"]) == 1
    assert [g["game_id"] for g in kept["games"]] == [game_id]
    assert kept["games"][0]["name"] == "Ann"
    assert kept["results"][0]["won"] and kept["ratings"][0]["game"] == "candy-race"
    assert kept["announcements"], "the pings that named her"
    assert not (await tables.about(CAROL))["games"], "nobody else's data"


async def test_deleting_keeps_others_games_and_renames_the_ended_ones(tables: Tables) -> None:
    game_id = await finished_game(tables)
    await tables.set_quiet_hours(ALICE, "Europe/Berlin", 22, 7)
    await tables.set_notify(ALICE, "dm")
    lobby = await tables.open_lobby(channel_id=CHANNEL + 1, guild_id=GUILD, game="candy-race",
                                    creator_id=BOB, creator_name="Bob")
    await tables.join(lobby.record.id, ALICE, "Ann")
    forgotten = await tables.forget(ALICE)
    assert forgotten.deleted["quiet_hours"] == 1 and forgotten.deleted["notify"] == 1
    assert forgotten.deleted["ended_games"] == 1 and forgotten.kept_games == 1
    kept = await tables.about(ALICE)
    assert not kept["quiet_hours"] and not kept["notifications"] and not kept["ratings"]
    assert not kept["results"] and not kept["announcements"]
    assert [g["status"] for g in kept["games"]] == ["lobby"], "the lobby still seats her"
    record = await tables.store.get_game(game_id)
    assert [s.name for s in record.seats] == [FORMER_PLAYER, "Bob"]
    assert record.seats[0].user_id is None
    assert "Ann" not in (record.state_json or "")
    assert not any("Ann" in a.narration for a in await tables.store.actions(game_id))
    bob = await tables.about(BOB)
    assert bob["results"] and bob["ratings"], "Bob's own record stays"
    assert (await tables.stats(GUILD, BOB))[0][1].played == 1


async def test_a_player_who_left_is_forgotten_too(tables: Tables) -> None:
    lobby = await tables.open_lobby(channel_id=CHANNEL, guild_id=GUILD, game="candy-race",
                                    creator_id=ALICE, creator_name="Ann")
    await tables.join(lobby.record.id, BOB, "Bob")
    await tables.start(lobby.record.id, ALICE)
    await tables.concede(CHANNEL, ALICE)
    await tables.concede(CHANNEL, BOB)
    record = await tables.store.get_game(lobby.record.id)
    assert record.status == "finished" and record.seats[0].left == ALICE
    await tables.forget(ALICE)
    record = await tables.store.get_game(lobby.record.id)
    assert record.seats[0].name == FORMER_PLAYER and record.seats[0].left is None
    assert "Ann" not in (record.state_json or "")


async def test_old_announcements_are_pruned_and_pending_ones_kept(tables: Tables) -> None:
    store = tables.store
    await store.queue_announcements([Announcement(channel_id=CHANNEL, guild_id=GUILD, game_id=None,
                                                  kind="turn", content="old", mentions=(BOB,))],
                                    NOW - 40 * DAY)
    (claimed,) = await store.claim_announcements(NOW - 40 * DAY, lease=60)
    await store.announcement_delivered(claimed.id, 9, NOW - 40 * DAY)
    await store.queue_announcements([Announcement(channel_id=CHANNEL, guild_id=GUILD, game_id=None,
                                                  kind="turn", content="new", mentions=(BOB,))],
                                    NOW - 40 * DAY)
    assert await store.prune_announcements(NOW - 30 * DAY) == 1
    assert (await store.pending_announcements())[0] == 1, "a pending one is never pruned"


async def test_a_server_that_removed_the_bot_loses_its_lobbies_now_and_its_games_later(
        tables: Tables) -> None:
    store = tables.store
    game_id = await finished_game(tables)
    lobby = await tables.open_lobby(channel_id=CHANNEL + 1, guild_id=GUILD, game="candy-race",
                                    creator_id=CAROL, creator_name="Carol")
    other = await finished_game(tables, channel=CHANNEL + 2, guild=GUILD + 1)
    assert await store.server_gone(GUILD, NOW) == 1
    assert (await store.get_game(lobby.record.id)).status == "aborted"
    assert (await store.get_game(game_id)).status == "finished", "kept through the grace"
    assert await store.purge_servers(NOW - DAY) == []
    await store.server_back(GUILD)
    assert await store.purge_servers(NOW + 60 * DAY) == [], "back in time: nothing dropped"
    await store.server_gone(GUILD, NOW)
    assert await store.purge_servers(NOW + DAY) == [GUILD]
    assert not (await tables.about(ALICE))["results"] or all(
        r["server_id"] != GUILD for r in (await tables.about(ALICE))["results"])
    assert await store.games_in_channel(CHANNEL) == []
    assert (await store.get_game(other)).status == "finished", "other servers keep theirs"
