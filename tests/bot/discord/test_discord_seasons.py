"""Seasons through the bot offline: managers set them with ``/season``, games played in
them count in them, ``/stats`` and the leaderboard read them, and when one is over its
final standings are posted (a picture, alt text, the same in words) and kept as they were,
whatever is played or reset afterwards. Time moves by the test's clock, never by sleeping.
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PIL import Image

import tools.offline
from bot.games.engine import Engine
from renderers import common
from tests.support.discord_harness import (
    CHANNEL_ID,
    GUILD_ID,
    Clock,
    Recorder,
    Sent,
    Session,
    start_bot,
)
from tests.support.race_game import CandyRace

ALICE, BOB, CAROL = 350000000000000001, 350000000000000002, 350000000000000003
MANAGE_GUILD = 1 << 5
DAY = 86_400.0


def day(offset: int, clock: Clock) -> str:
    """The UTC day ``offset`` days from the clock's, as a manager types it."""
    return datetime.fromtimestamp(clock.now + offset * DAY, UTC).strftime("%Y-%m-%d")


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Session]:
    session = await Session.open(tmp_path, {"candy-race": Engine(CandyRace())})
    yield session
    await session.close()


async def won_by(table: Session, winner: int, loser: int) -> None:
    """A two-player race the ``winner`` wins (they move first and step every turn)."""
    await table.start("candy-race", humans=(winner, loser), target=3)
    for user in (winner, loser, winner, loser, winner):
        await table.play(user, "step")
    assert await table.state() is None


async def new_season(table: Session, name: str, start: str, end: str, *,
                     permissions: int = MANAGE_GUILD) -> Sent:
    return await table.command(ALICE, "season", "new",
                               {"name": name, "start": start, "end": end},
                               permissions=permissions)


async def standings_now(table: Session, season: str | None = None) -> Sent:
    options = {"board": "candy-race"} | ({"season": season} if season else {})
    table.clock.advance(0.05)  # past the leaderboard's cooldown of the last asker
    return await table.command(CAROL, "stats", options=options)


def season_posts(table: Session) -> list[Sent]:
    return [s for s in table.rec.public() if "Final standings" in s.content and not s.failed]


async def test_a_season_counts_its_games_shows_them_and_keeps_its_final_standings(
        table: Session) -> None:
    # Bob wins a game before any season: all time only.
    await won_by(table, BOB, ALICE)
    refused = await new_season(table, "Autumn", day(0, table.clock), day(6, table.clock),
                               permissions=0)
    assert refused.ephemeral and "Manage Server" in refused.content
    assert await table.bot.seasons.listed(GUILD_ID) == []

    table.clock.advance(0.1)
    made = await new_season(table, "Autumn", day(0, table.clock), day(6, table.clock))
    assert made.ephemeral and "**Autumn**" in made.content, made.content
    overlap = await new_season(table, "Late autumn", day(5, table.clock), day(9, table.clock))
    assert overlap.ephemeral and "overlap the season **Autumn**" in overlap.content
    assert [s.name for s in await table.bot.seasons.listed(GUILD_ID)] == ["Autumn"]

    await won_by(table, ALICE, BOB)
    await won_by(table, ALICE, BOB)
    mine = await table.command(ALICE, "stats")
    assert "in the season **Autumn**" in mine.content
    assert "Candy Race: 2 played, 2 won." in mine.content, mine.content
    table.clock.advance(1)
    all_time = await table.command(ALICE, "stats", options={"season": "all time"})
    assert "Candy Race: 3 played, 2 won." in all_time.content, all_time.content
    board = await standings_now(table)
    assert "best ratings of Autumn" in board.content and board.pngs
    during = await table.bot.tables.queries.leaderboard(GUILD_ID, "candy-race",
                                                await table.bot.seasons.current(GUILD_ID))
    assert [r["name"] for r in during["rows"]] == ["Player1", "Player2"]
    assert all(r["games"] == 2 for r in during["rows"])

    # The season's last day passes: its standings are posted in this channel, once.
    table.clock.advance(24 * 7)
    await table.bot.send_due()
    (post,) = season_posts(table)
    assert post.channel_id == CHANNEL_ID and not post.ephemeral
    assert "The season **Autumn** is over" in post.content
    assert "**Candy Race**: 1. Player1" in post.content
    (png,) = post.pngs
    assert Image.open(io.BytesIO(png)).width == common.FRAME_W
    assert post.alt_texts[0].startswith("Final standings of the season Autumn")
    await table.bot.send_due()
    assert len(season_posts(table)) == 1
    autumn = await table.bot.seasons.find(GUILD_ID, "autumn")
    kept = await table.bot.tables.queries.leaderboard(GUILD_ID, "candy-race", autumn)
    assert kept["rows"] == during["rows"]

    # Later games, and a new season whose ratings start afresh, change nothing of it.
    said = await table.command(ALICE, "settings", None, {"season_ratings": "fresh"},
                               permissions=MANAGE_GUILD)
    assert "start afresh" in said.content
    await new_season(table, "Winter", day(0, table.clock), day(30, table.clock))
    for _ in range(3):
        await won_by(table, BOB, ALICE)
    assert (await table.bot.tables.queries.leaderboard(GUILD_ID, "candy-race", autumn))["rows"] \
        == during["rows"]
    past = await standings_now(table, "Autumn")
    assert "best ratings of Autumn" in past.content
    table.clock.advance(1)
    then = await table.command(ALICE, "stats", options={"season": "Autumn"})
    assert "Candy Race: 2 played, 2 won." in then.content, then.content
    winter = await table.bot.tables.queries.leaderboard(GUILD_ID, "candy-race",
                                                await table.bot.seasons.current(GUILD_ID))
    assert winter["season"] == "Winter"
    assert [r["name"] for r in winter["rows"]] == ["Player2", "Player1"]
    assert all(r["games"] == 3 for r in winter["rows"])
    # Afresh: Winter's ratings are what three games alone give, not Autumn's carried on.
    alltime = await table.bot.tables.queries.leaderboard(GUILD_ID, "candy-race")
    assert {r["rating"] for r in winter["rows"]} != {r["rating"] for r in alltime["rows"]}


async def test_a_season_carries_ratings_over_by_default(table: Session) -> None:
    await won_by(table, ALICE, BOB)
    await won_by(table, ALICE, BOB)
    await new_season(table, "Spring", day(0, table.clock), day(3, table.clock))
    await won_by(table, ALICE, BOB)
    season = await table.bot.seasons.current(GUILD_ID)
    carried = await table.bot.tables.queries.leaderboard(GUILD_ID, "candy-race", season)
    alltime = await table.bot.tables.queries.leaderboard(GUILD_ID, "candy-race")
    # The same beliefs carried on (the rating players see), with the season's own count.
    assert [r["rating"] for r in carried["rows"]] == [r["rating"] for r in alltime["rows"]]
    assert [r["games"] for r in carried["rows"]] == [1, 1]


async def test_bad_dates_and_names_are_refused_privately(table: Session) -> None:
    for name, start, end, said in (
            ("Spring", "next monday", day(3, table.clock), "YYYY-MM-DD"),
            ("Spring", day(3, table.clock), day(1, table.clock), "before it starts"),
            ("Spring", day(-2, table.clock), day(3, table.clock), "in the past"),
            ("<@everyone>", day(0, table.clock), day(3, table.clock), "name"),
            ("Spring", day(0, table.clock), day(400, table.clock), "366 days")):
        answer = await new_season(table, name, start, end)
        assert answer.ephemeral and said in answer.content, answer.content
        assert "<@everyone>" not in answer.content
    assert await table.bot.seasons.listed(GUILD_ID) == []


async def test_a_manager_ends_a_season_early_and_its_standings_go_out_at_once(
        table: Session) -> None:
    await new_season(table, "Sprint", day(0, table.clock), day(20, table.clock))
    await won_by(table, ALICE, BOB)
    table.clock.advance(1)
    refused = await table.command(BOB, "season", "end", {"name": "Sprint"})
    assert refused.ephemeral and "Manage Server" in refused.content
    await table.command(ALICE, "season", "end", {"name": "sprint"}, permissions=MANAGE_GUILD)
    (post,) = season_posts(table)
    assert "**Sprint**" in post.content
    listed = await table.command(BOB, "season", "list")
    assert listed.ephemeral and "over, final standings kept" in listed.content


async def test_deleting_a_players_data_leaves_a_former_player_in_the_kept_standings(
        table: Session) -> None:
    await new_season(table, "Autumn", day(0, table.clock), day(1, table.clock))
    await won_by(table, ALICE, BOB)
    table.clock.advance(24 * 3)
    await table.bot.send_due()
    autumn = await table.bot.seasons.find(GUILD_ID, "Autumn")
    before = await table.bot.tables.queries.leaderboard(GUILD_ID, "candy-race", autumn)
    kept = await table.bot.tables.queries.about(ALICE)
    assert kept["season_ratings"] and kept["season_standings"][0]["place"] == 1
    await table.command(ALICE, "privacy", options={"delete": True})
    after = await table.bot.tables.queries.leaderboard(GUILD_ID, "candy-race", autumn)
    assert [r["name"] for r in after["rows"]] == ["a former player", "Player2"]
    assert [r["rating"] for r in after["rows"]] == [r["rating"] for r in before["rows"]]
    gone = await table.bot.tables.queries.about(ALICE)
    assert gone["season_ratings"] == [] and gone["season_standings"] == []
    from tests.support.kept_anywhere import rows_holding

    assert await rows_holding(table.bot.tables.store, ALICE) == []
    bob = await table.bot.tables.queries.about(BOB)
    assert bob["season_standings"][0]["place"] == 2


async def test_a_season_that_ended_while_the_bot_was_down_is_posted_after_the_restart(
        tmp_path: Path) -> None:
    clock, rec = Clock(), Recorder()
    games = {"candy-race": Engine(CandyRace())}
    bot, gw = await start_bot(tmp_path / "bot.db", clock, games, rec)
    session = Session(bot, gw, rec, clock)
    await new_season(session, "Autumn", day(0, clock), day(2, clock))
    await won_by(session, ALICE, BOB)
    await bot.close()
    clock.advance(24 * 10)
    rec = Recorder()
    # Discord refuses the first try: the post waits in the outbox and goes out after.
    rec.fail_when(lambda sent: "Final standings" in sent.content, status=503)
    bot, gw = await start_bot(tmp_path / "bot.db", clock, games, rec)
    try:
        session = Session(bot, gw, rec, clock)
        await bot.send_due()
        assert not season_posts(session)
        clock.advance(1)
        await bot.outbox.deliver()
        (post,) = season_posts(session)
        assert "**Autumn**" in post.content and post.pngs
    finally:
        await bot.close()


async def test_kept_standings_keep_the_names_of_their_day_and_escape_hostile_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    names = {ALICE: "**Ana** @everyone", BOB: f"<@{CAROL}> _Bo_"}

    def named(user_id: int) -> dict[str, object]:
        return {"id": str(user_id), "username": f"user{user_id}", "discriminator": "0",
                "global_name": names.get(user_id, "Someone"), "avatar": None}

    monkeypatch.setattr(tools.offline, "user_payload", named)  # the names Discord sends
    table = await Session.open(tmp_path, {"candy-race": Engine(CandyRace())})
    try:
        await new_season(table, "Autumn", day(0, table.clock), day(1, table.clock))
        await won_by(table, ALICE, BOB)
        table.clock.advance(24 * 3)
        await table.bot.send_due()
        (post,) = season_posts(table)
        assert post.body["allowed_mentions"]["parse"] == []
        assert "@everyone" not in post.content.replace("\\@everyone", "")
        assert f"<@{CAROL}>" not in post.content and "\\*\\*Ana\\*\\*" in post.content
        # Ana changes her name and plays on: the season over keeps the name it had.
        names[ALICE] = "Anna"
        await won_by(table, ALICE, BOB)
        autumn = await table.bot.seasons.find(GUILD_ID, "Autumn")
        kept = await table.bot.tables.queries.leaderboard(GUILD_ID, "candy-race", autumn)
        now = await table.bot.tables.queries.leaderboard(GUILD_ID, "candy-race")
        assert kept["rows"][0]["name"] == "**Ana** @everyone"
        assert now["rows"][0]["name"] == "Anna"
    finally:
        await table.close()


async def test_stats_suggests_the_seasons_begun_and_all_time(table: Session) -> None:
    await new_season(table, "Autumn", day(0, table.clock), day(1, table.clock))
    await new_season(table, "Winter", day(10, table.clock), day(20, table.clock))
    table.rec.clear()
    await table.gw.send(table.gw.command(BOB, "stats", options={"season": ""},
                                         focused="season", channel_id=CHANNEL_ID))
    offered = [c["value"] for c in table.rec.sent[-1].payload["data"]["choices"]]
    assert offered == ["Autumn", "all time"]
    table.rec.clear()
    await table.gw.send(table.gw.command(ALICE, "season", "end", {"name": "w"},
                                         focused="name", channel_id=CHANNEL_ID,
                                         permissions=MANAGE_GUILD))
    offered = [c["value"] for c in table.rec.sent[-1].payload["data"]["choices"]]
    assert offered == ["Winter"]
