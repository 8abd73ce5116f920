"""Tournaments through the offline Discord, as new users meet them: ``/tournament new``, the
sign-up's Join, Leave and Start, every round's games in threads, the standings after each
round and at the end; refusals private and changing nothing; limits; escaped names;
``/privacy``. (Whole Swiss and pod tournaments of the real games: the slow
test_discord_tournaments_whole.py.)"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import tools.offline
from bot.games.engine import Engine, loads
from bot.organized.standings import said
from renderers import standings as standings_picture
from tests.bot.discord.test_discord_hostile_names import disarmed
from tests.support.discord_harness import CHANNEL_ID, GUILD_ID
from tests.support.race_game import CandyDash
from tests.support.tournament_play import League, calculate, stored_rounds

PLAYERS = [420000000000000001 + i for i in range(6)]
HOST, *OTHERS = PLAYERS
ELSEWHERE = 700000000000000099


@pytest.fixture
async def league(tmp_path: Path) -> AsyncIterator[League]:
    played = League(tmp_path / "bot.db", {"candy-dash": Engine(CandyDash())})
    await played.boot()
    yield played
    await played.bot.close()


async def open_signup(league: League, **options: Any) -> int:
    sent = await league.command(HOST, "tournament", "new",
                                {"game": "candy-dash", "format": "swiss", "rounds": 2, **options})
    assert not sent.ephemeral, sent.content
    assert sent.message_id is not None
    return sent.message_id


def private(league: League) -> str:
    answers = league.answers()
    assert answers, "no private answer"
    return answers[-1].content


async def test_a_swiss_tournament_signs_up_plays_its_rounds_and_posts_its_standings(
        league: League) -> None:
    signup = await open_signup(league)
    assert "Swiss, 2 rounds, two players a table" in league.rec.message(signup)["content"]
    for player in PLAYERS[:5]:
        await league.click(player, signup, ":join")
        assert "You are in" in private(league)
    await league.click(HOST, signup, ":start")
    begun = next(s for s in league.rec.messages_sent() if "has begun" in s.content)
    # Every player of the round is pinged where the round is announced, the bye named.
    assert begun.notifies() == set(PLAYERS[:5])
    assert "Bye: " in begun.content
    # Each table's game is in a thread of the tournament's channel, its players in it.
    games = await league.open_games()
    assert len(games) == 2 and all(g.parent_id == CHANNEL_ID for g in games)
    for game in games:
        members = league.rec.room(game.channel_id).members
        assert {s.user_id for s in game.seats} <= members
    assert "under way" in league.rec.message(signup)["content"]
    assert not league.rec.message(signup)["components"]  # no sign-up buttons once it runs
    await league.play_round()
    await league.bot.send_due()
    after = next(s for s in league.rec.messages_sent() if "standings after round 1" in s.content)
    (png,) = after.pngs
    assert Image.open(io.BytesIO(png)).width == standings_picture.WIDTH
    assert after.alt_texts and "points, Buchholz" in after.alt_texts[0]
    assert "Round 2 is open" in after.content
    await league.play_round()
    await league.bot.send_due()
    final = next(s for s in league.rec.messages_sent() if "is over after 2 rounds" in s.content)
    assert final.pngs and "Won by" in final.content
    assert "This tournament is over." in league.rec.message(signup)["content"]
    # Its games are rated as any other: four games, each of its two players rated.
    rated = await league.bot.tables.store.ratings.leaders(tools.offline.GUILD_ID, "candy-dash")
    assert sorted(r.games for _, _, r in rated) == [1, 1, 2, 2, 2]
    # The final standings are the ones worked out here from the games' stored results.
    entries, rounds = await stored_rounds(league, 1)
    calculated = calculate(entries, rounds)
    standings = await league.bot.organizer.standings(await league.bot.organizer.get(1))
    for line in standings.lines:
        assert (line.points, line.buchholz, line.sonneborn) == (
            calculated.points[line.entry], calculated.buchholz[line.entry],
            calculated.sonneborn[line.entry])
        assert f"{said(line.points)} point" in final.content


async def test_sign_up_refusals_are_private_and_change_nothing(league: League) -> None:
    signup = await open_signup(league)
    await league.click(OTHERS[0], signup, ":join")
    await league.click(OTHERS[0], signup, ":join")
    assert "already in this tournament" in private(league)
    await league.click(OTHERS[1], signup, ":start")
    assert "Only the tournament's host" in private(league)
    await league.click(HOST, signup, ":start")  # the host never joined: one player
    assert "needs 2 players to start; 1 player signed up" in private(league)
    await league.click(OTHERS[1], signup, ":leave")
    assert "not playing in this tournament" in private(league)
    # A forged button (a tournament that does not exist) and one clicked from elsewhere.
    message = league.rec.message(signup)
    forged = {**message, "components": [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "Join", "custom_id": "cb:t:99999:join"}]}]}
    league.rec.clear()
    await league.gw.send(league.gw.click(OTHERS[1], forged, "cb:t:99999:join"))
    assert "no longer exists" in private(league)
    moved = {**message, "channel_id": str(ELSEWHERE)}
    league.rec.clear()
    await league.gw.send(league.gw.click(OTHERS[1], moved, "cb:t:1:join"))
    assert f"<#{CHANNEL_ID}>" in private(league)
    players = await league.bot.organizer.players(1)
    assert [p.user_id for p in players] == [OTHERS[0]]
    # A Join kept from before the start (a message not yet refreshed) finds it closed.
    await league.click(OTHERS[1], signup, ":join")
    await league.click(HOST, signup, ":start")
    await league.gw.send(league.gw.click(OTHERS[2], message, "cb:t:1:join"))
    assert "sign-up is closed" in private(league)
    assert len(await league.bot.organizer.players(1)) == 2
    # Swiss seats two a table; a channel where the bot may start no thread takes none.
    sent = await league.command(HOST, "tournament", "new",
                                {"game": "candy-dash", "format": "swiss", "seats": 3})
    assert sent.ephemeral and "seat two players a table: leave seats out" in sent.content
    sent = await league.command(HOST, "tournament", "new",
                                {"game": "candy-dash", "format": "swiss"}, channel_id=ELSEWHERE)
    assert sent.ephemeral and "I may not start threads here" in sent.content
    assert len(await league.bot.organizer.current(league.rec.guild()["id"] and
                                                  tools.offline.GUILD_ID)) == 1


async def test_calling_off_sign_ups_again_and_again_waits(league: League) -> None:
    for _ in range(3):
        await open_signup(league)
        await league.command(HOST, "tournament", "cancel")
        assert "called off" in private(league)
    sent = await league.command(HOST, "tournament", "new",
                                {"game": "candy-dash", "format": "swiss"})
    assert sent.ephemeral and "open a new tournament (you called a few off" in sent.content
    league.clock.advance(0.1)
    await open_signup(league)


async def test_limits_bound_tournaments_players_and_sign_ups(league: League) -> None:
    organizer = league.bot.organizer
    organizer.limits = dataclasses.replace(organizer.limits, tournaments_per_server=1,
                                           players_per_tournament=2, tournaments_per_person=1)
    signup = await open_signup(league)
    sent = await league.command(HOST, "tournament", "new",
                                {"game": "candy-dash", "format": "swiss"})
    assert sent.ephemeral and "runs 1 tournament" in sent.content
    for player in OTHERS[:2]:
        await league.click(player, signup, ":join")
    await league.click(OTHERS[2], signup, ":join")
    assert "This tournament is full: it takes 2 players." in private(league)
    organizer.limits = dataclasses.replace(organizer.limits, tournaments_per_server=2,
                                           players_per_tournament=9)
    second = await open_signup(league)
    await league.click(OTHERS[0], second, ":join")
    assert "already in 1 tournament" in private(league)


async def test_a_withdrawal_concedes_the_game_and_plays_no_more_rounds(league: League) -> None:
    signup = await open_signup(league, format="round-robin")
    for player in PLAYERS[:4]:
        await league.click(player, signup, ":join")
    await league.click(HOST, signup, ":start")
    leaver = OTHERS[1]
    await league.command(leaver, "tournament", "leave")
    assert "You withdrew from tournament #1" in private(league)
    assert "conceded" in private(league)
    await league.play_round()
    await league.bot.send_due()
    tables = await league.bot.organizer.tables(1)
    first = [t for t in tables if t.round == 1]
    leaver_entry = PLAYERS.index(leaver) + 1
    mine = next(t for t in first if leaver_entry in t.entries)
    assert mine.places is not None and mine.places[leaver_entry] == 2  # last, though an AI played
    second = [t for t in tables if t.round == 2]
    # Round 2: the withdrawn player's scheduled opponent has a bye instead.
    assert all(leaver_entry not in t.entries for t in second)
    assert any(t.bye for t in second)
    await league.command(leaver, "tournament", "leave")
    assert "not playing in this tournament" in private(league)


async def test_a_sign_up_deadline_starts_the_tournament_or_calls_it_off(league: League) -> None:
    signup = await open_signup(league, deadline_hours=2.0)
    await league.click(OTHERS[0], signup, ":join")
    league.clock.advance(3)
    league.rec.clear()
    await league.bot.send_due()
    assert any("did not start: 1 player signed up" in s.content
               for s in league.rec.messages_sent())
    assert "called off" in league.rec.message(signup)["content"]
    again = await open_signup(league, deadline_hours=1.0)
    for player in OTHERS[:2]:
        await league.click(player, again, ":join")
    league.clock.advance(2)
    await league.bot.send_due()
    assert len(await league.open_games()) == 1


NAMES = {PLAYERS[1]: "[Free nitro](https://ev.il/x)", PLAYERS[2]: "@everyone **Mod**"}


def hostile(user_id: int) -> dict[str, Any]:
    return {"id": str(user_id), "username": f"user{user_id}", "discriminator": "0",
            "global_name": NAMES.get(user_id, "Someone"), "avatar": None}


async def test_names_are_escaped_and_a_forgotten_player_reads_as_a_former_player(
        league: League, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tools.offline, "user_payload", hostile)
    signup = await open_signup(league, rounds=1)
    for player in PLAYERS[:3]:
        await league.click(player, signup, ":join")
    shown = disarmed(league.rec.message(signup)["content"])
    assert "Free nitro" in shown and "](" not in shown and "@everyone" not in shown
    await league.click(HOST, signup, ":start")
    await league.play_round()
    await league.bot.send_due()
    final = next(s for s in league.rec.messages_sent() if "is over" in s.content)
    assert "](" not in disarmed(final.content) and "**Mod**" not in disarmed(final.content)
    assert final.notifies() == set()
    before = await league.bot.organizer.standings(await league.bot.organizer.get(1))
    # /privacy shows the entry, and deleting it keeps everyone's standings as they were.
    shown = await league.command(PLAYERS[1], "privacy")
    assert "1 tournament you signed up for" in shown.content
    await league.command(PLAYERS[1], "privacy", options={"delete": True})
    assert "you are now \"a former player\"" in private(league).split("Tournaments:")[1]
    after = await league.bot.organizer.standings(await league.bot.organizer.get(1))
    assert [(x.entry, x.points, x.buchholz, x.sonneborn) for x in after.lines] == \
        [(x.entry, x.points, x.buchholz, x.sonneborn) for x in before.lines]
    gone = next(x for x in after.lines if x.entry == 2)
    assert gone.name is None and gone.user_id is None
    assert (await league.bot.tables.store.people.about(PLAYERS[1]))["tournaments"] == []
    answer = await league.command(HOST, "tournament", "standings", {"tournament": 1})
    assert "**a former player**" in answer.content and "nitro" not in answer.content


async def test_a_no_show_on_a_clock_forfeits_and_the_round_goes_on(league: League) -> None:
    """A tournament's games play on its clock; a player who never moves runs out of time,
    forfeits (placed last, their opponent first) and the next round opens without waiting."""
    signup = await open_signup(league, clock="1d")
    assert "clock (1 day a move)" in league.rec.message(signup)["content"]
    for player in PLAYERS[:4]:
        await league.click(player, signup, ":join")
    await league.click(HOST, signup, ":start")
    no_show = OTHERS[0]
    games = await league.open_games()
    assert all(g.settings.get("clock") == "1d" and g.settings.get("on_timeout") == "forfeit"
               for g in games)
    await league.play_round(skip=[no_show])
    await league.bot.send_due()
    tables = await league.bot.organizer.tables(1)
    entry = PLAYERS.index(no_show) + 1
    mine = next(t for t in tables if t.round == 1 and entry in t.entries)
    ended = await league.bot.tables.store.games.get_game(mine.game_id or 0)
    dash = league.games["candy-dash"]
    # Cut short by the forfeit: the rules themselves never ended the game.
    assert ended.status == "finished" and dash.result(loads(ended.state_json or "", dash)) is None
    assert mine.places is not None
    assert mine.places[entry] == 2 and sorted(mine.places.values()) == [1, 2]
    assert any(t.round == 2 for t in tables)


async def test_a_tournament_refuses_a_clock_it_does_not_know(league: League) -> None:
    sent = await league.command(HOST, "tournament", "new", {
        "game": "candy-dash", "format": "swiss", "rounds": 2, "clock": "9d"})
    assert sent.ephemeral and "clock" in sent.content.lower()
    assert not await league.bot.organizer.current(GUILD_ID)
