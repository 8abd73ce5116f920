"""People can see and delete what the bot keeps about them; old announcements and the
games of servers that removed the bot are not kept for ever (docs/privacy.md). On both
backends."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from bot.games.engine import Engine
from bot.store import Announcement, Store
from bot.tables import FORMER_PLAYER, Tables
from tests.support.race_game import CandyRace

ALICE, BOB, CAROL = 501, 502, 503
GUILD, CHANNEL = 88, 77
NOW = 1_700_000_000.0
DAY = 86400.0


@pytest.fixture
async def tables(db_target: str) -> AsyncIterator[Tables]:
    store = await Store.open(db_target)
    clock = [NOW]
    yield Tables(store, {"candy-race": Engine(CandyRace())}, lambda: clock[0])
    await store.close()


async def finished_game(tables: Tables, channel: int = CHANNEL, guild: int = GUILD) -> int:
    """Alice (named Ann) beats Bob to 3 in ``channel``."""
    lobby = await tables.lobbies.open_lobby(channel_id=channel, guild_id=guild, game="candy-race",
                                            creator_id=ALICE, creator_name="Ann",
                                            options={"target": 3})
    await tables.lobbies.join(lobby.record.id, BOB, "Bob")
    await tables.lobbies.start(lobby.record.id, ALICE)
    for user in (ALICE, BOB, ALICE, BOB, ALICE):
        await tables.moves.play(channel_id=channel, user_id=user, text="step")
    record = await tables.store.games.get_game(lobby.record.id)
    assert record.status == "finished"
    return record.id


async def test_a_person_sees_everything_kept_about_them(tables: Tables) -> None:
    game_id = await finished_game(tables)
    await tables.reminders.set_quiet_hours(ALICE, "Europe/Berlin", 22, 7)
    await tables.reminders.set_notify(ALICE, "dm")
    await tables.reminders.take_vacation(ALICE, 3)
    kept = await tables.queries.about(ALICE)
    json.dumps(kept)  # all of it plain JSON, for the file /privacy attaches
    assert kept["quiet_hours"][0]["timezone"] == "Europe/Berlin"
    assert kept["notifications"][0]["how"] == "dm" and len(kept["vacations"]) == 1
    assert [g["game_id"] for g in kept["games"]] == [game_id]
    assert kept["games"][0]["name"] == "Ann"
    assert kept["results"][0]["won"] and kept["ratings"][0]["game"] == "candy-race"
    assert kept["announcements"], "the pings that named her"
    assert not (await tables.queries.about(CAROL))["games"], "nobody else's data"


async def test_deleting_keeps_others_games_and_renames_the_ended_ones(tables: Tables) -> None:
    game_id = await finished_game(tables)
    await tables.reminders.set_quiet_hours(ALICE, "Europe/Berlin", 22, 7)
    await tables.reminders.set_notify(ALICE, "dm")
    lobby = await tables.lobbies.open_lobby(
        channel_id=CHANNEL + 1, guild_id=GUILD, game="candy-race",
        creator_id=BOB, creator_name="Bob")
    await tables.lobbies.join(lobby.record.id, ALICE, "Ann")
    forgotten = await tables.queries.forget(ALICE)
    assert forgotten.deleted["quiet_hours"] == 1 and forgotten.deleted["notify"] == 1
    assert forgotten.deleted["ended_games"] == 1 and forgotten.kept_games == 1
    kept = await tables.queries.about(ALICE)
    assert not kept["quiet_hours"] and not kept["notifications"] and not kept["ratings"]
    assert not kept["results"] and not kept["announcements"]
    assert [g["status"] for g in kept["games"]] == ["lobby"], "the lobby still seats her"
    record = await tables.store.games.get_game(game_id)
    assert [s.name for s in record.seats] == [FORMER_PLAYER, "Bob"]
    assert record.seats[0].user_id is None
    assert "Ann" not in (record.state_json or "")
    assert not any("Ann" in a.narration for a in await tables.store.moves.actions(game_id))
    bob = await tables.queries.about(BOB)
    assert bob["results"] and bob["ratings"], "Bob's own record stays"
    assert (await tables.queries.stats(GUILD, BOB))[0][1].played == 1


async def test_a_player_who_left_is_forgotten_too(tables: Tables) -> None:
    lobby = await tables.lobbies.open_lobby(channel_id=CHANNEL, guild_id=GUILD, game="candy-race",
                                            creator_id=ALICE, creator_name="Ann")
    await tables.lobbies.join(lobby.record.id, BOB, "Bob")
    await tables.lobbies.start(lobby.record.id, ALICE)
    await tables.leaving.concede(CHANNEL, ALICE)
    await tables.leaving.concede(CHANNEL, BOB)
    record = await tables.store.games.get_game(lobby.record.id)
    assert record.status == "finished" and record.seats[0].left == ALICE
    await tables.queries.forget(ALICE)
    record = await tables.store.games.get_game(lobby.record.id)
    assert record.seats[0].name == FORMER_PLAYER and record.seats[0].left is None
    assert "Ann" not in (record.state_json or "")


async def test_old_announcements_are_pruned_and_pending_ones_kept(tables: Tables) -> None:
    store = tables.store
    await store.outbox.queue_announcements(
        [Announcement(channel_id=CHANNEL, guild_id=GUILD, game_id=None,
                      kind="turn", content="old", mentions=(BOB,))],
        NOW - 40 * DAY)
    (claimed,) = await store.outbox.claim_announcements(NOW - 40 * DAY, lease=60)
    await store.outbox.announcement_delivered(claimed.id, 9, NOW - 40 * DAY)
    await store.outbox.queue_announcements(
        [Announcement(channel_id=CHANNEL, guild_id=GUILD, game_id=None,
                      kind="turn", content="new", mentions=(BOB,))],
        NOW - 40 * DAY)
    assert await store.outbox.prune_announcements(NOW - 30 * DAY) == 1
    assert (await store.outbox.pending_announcements())[0] == 1, "a pending one is never pruned"


async def test_a_server_that_removed_the_bot_loses_its_lobbies_now_and_its_games_later(
        tables: Tables) -> None:
    store = tables.store
    game_id = await finished_game(tables)
    lobby = await tables.lobbies.open_lobby(
        channel_id=CHANNEL + 1, guild_id=GUILD, game="candy-race",
        creator_id=CAROL, creator_name="Carol")
    other = await finished_game(tables, channel=CHANNEL + 2, guild=GUILD + 1)
    assert await store.servers.server_gone(GUILD, NOW) == 1
    assert (await store.games.get_game(lobby.record.id)).status == "aborted"
    assert (await store.games.get_game(game_id)).status == "finished", "kept through the grace"
    assert await store.servers.purge_servers(NOW - DAY) == []
    await store.servers.server_back(GUILD)
    assert await store.servers.purge_servers(NOW + 60 * DAY) == [], "back in time: nothing dropped"
    await store.servers.server_gone(GUILD, NOW)
    assert await store.servers.purge_servers(NOW + DAY) == [GUILD]
    assert not (await tables.queries.about(ALICE))["results"] or all(
        r["server_id"] != GUILD for r in (await tables.queries.about(ALICE))["results"])
    assert await store.games.games_in_channel(CHANNEL) == []
    assert (await store.games.get_game(other)).status == "finished", "other servers keep theirs"


# --------------------------------------------------------------------------- deleted means deleted

AL, ALICE_TOO, DEE = 364000000000000001, 364000000000000002, 364000000000000003


async def al_and_alice(tables: Tables, channel: int = CHANNEL) -> int:
    """Al (who hosts) and Alice race to 3; Alice wins."""
    lobby = await tables.lobbies.open_lobby(channel_id=channel, guild_id=GUILD, game="candy-race",
                                            creator_id=AL, creator_name="Al", options={"target": 3})
    await tables.lobbies.join(lobby.record.id, ALICE_TOO, "Alice")
    await tables.lobbies.start(lobby.record.id, AL)
    for user in (AL, ALICE_TOO, AL, ALICE_TOO, AL, ALICE_TOO):
        record = await tables.store.games.get_game(lobby.record.id)
        if record.status != "active":
            break
        await tables.moves.play(channel_id=channel, user_id=user, text="step")
    return lobby.record.id


async def test_deleting_renames_a_seat_not_every_name_that_contains_its_name(
        tables: Tables) -> None:
    game_id = await al_and_alice(tables)
    before = await tables.store.moves.actions(game_id)
    await tables.queries.forget(AL)
    after = await tables.store.moves.actions(game_id)
    assert [a.n for a in after] == [a.n for a in before]
    for was, now in zip(before, after, strict=True):
        if was.narration.startswith("Al "):
            assert now.narration == FORMER_PLAYER + was.narration[2:]
        else:
            assert now.narration == was.narration, "Alice's words stay hers"
    assert not any("playerice" in a.narration for a in after)
    assert any(a.narration.startswith("Alice steps") for a in after)


async def test_after_deleting_no_row_of_an_ended_game_holds_the_id(tables: Tables) -> None:
    from tests.support.kept_anywhere import rows_holding

    await al_and_alice(tables)
    await tables.reminders.set_notify(AL, "dm")
    # A lobby whose host removed Al, played without him to its end.
    lobby = await tables.lobbies.open_lobby(
        channel_id=CHANNEL + 1, guild_id=GUILD, game="candy-race",
        creator_id=DEE, creator_name="Dee", options={"target": 3})
    await tables.lobbies.join(lobby.record.id, AL, "Al")
    await tables.lobbies.remove_from_lobby(lobby.record.id, DEE, f"u{AL}")
    await tables.lobbies.join(lobby.record.id, ALICE_TOO, "Alice")
    await tables.lobbies.start(lobby.record.id, DEE)
    for _ in range(6):
        if (await tables.store.games.get_game(lobby.record.id)).status != "active":
            break
        for user in (DEE, ALICE_TOO):
            if (await tables.store.games.get_game(lobby.record.id)).status == "active":
                await tables.moves.play(channel_id=CHANNEL + 1, user_id=user, text="step")
    assert await rows_holding(tables.store, AL), "kept before"
    await tables.queries.forget(AL)
    assert await rows_holding(tables.store, AL) == []
    for said in ('"Al"', "Al steps", "Al reached"):
        assert await rows_holding(tables.store, said) == [], said


def test_a_log_the_bot_cannot_replay_loses_the_name_where_it_stands_as_a_word() -> None:
    from bot.store import ActionRecord, GameRecord, SeatRecord
    from bot.tables.retold import renamed_log

    def game_of(first: str) -> GameRecord:
        seats = (SeatRecord(0, AL, first, False), SeatRecord(1, ALICE_TOO, "Alice", False))
        summary = f"Alice beat {first}."
        return GameRecord(1, CHANNEL, GUILD, "a-game-this-bot-lacks", "finished", AL, {}, {},
                          7, None, 3, seats, NOW, NOW, None, 0, None, None, None,
                          json.dumps({"ranking": [[1], [0]], "scores": {}, "summary": summary}))

    said = ActionRecord(1, 0, AL, "step", "Al steps; Alice watches Al's move.", NOW, True,
                        private={1: ("Al, Alice and Alf.",)})
    retold = renamed_log(None, game_of("Al"), [said], [0], FORMER_PLAYER)
    assert retold.actions == ((1, f"{FORMER_PLAYER} steps; Alice watches {FORMER_PLAYER}'s "
                                  f"move.", "", {1: (f"{FORMER_PLAYER}, Alice and Alf.",)}),)
    assert retold.summary == f"Alice beat {FORMER_PLAYER}."
    # A one-letter name stays in the words: it would rename "A" wherever it stands alone.
    one = ActionRecord(1, 0, AL, "step", "A steps. A is for Alice.", NOW, True)
    assert renamed_log(None, game_of("A"), [one], [0], FORMER_PLAYER).actions == ()
