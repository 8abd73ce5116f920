"""Whole tournaments of the real games through the offline Discord, every player a new
user driven by the sign-up's buttons, ``/tournament`` and ``/play`` (moves picked from the
legal list): a Swiss tournament of 9 players of Sugar Blast over 4 rounds and a pod
tournament of 10 players of Kingdom's Candy Monsters at 3 a table over 3 rounds, run to
their final standings, with byes, a withdrawal, a no-show whose clock ran out, a player who
left the server and a bot killed in the middle of opening a round.

Every round's seating is checked against a brute force written here (every way to seat
the players, the first in standing order that meets no pair again), the standings against
the textbook definitions worked out from the games' stored results
(:func:`tournament_play.calculate`)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

import bot.games
from bot.games.engine import loads
from bot.store.tournaments import EntryRecord, TableRecord
from tests.bot.organized.test_pairings import partitions
from tests.support.discord_harness import CHANNEL_ID
from tests.support.tournament_play import Calculated, League, calculate, stored_rounds
from tools.offline import Died, Sent

pytestmark = pytest.mark.slow

Seated = list[tuple[tuple[int, ...], dict[int, int]]]


def order_of(calculated: Calculated, entries: Sequence[int]) -> list[int]:
    return sorted(entries, key=lambda e: (-calculated.points[e], -calculated.buchholz[e],
                                          -calculated.sonneborn[e], e))


def expected_round(active: list[int], size: int, before: list[Seated], entries: list[int],
                   ) -> list[tuple[int, ...]]:
    """The round the rules of docs/organized-play.md give: players in standing order
    (points, Buchholz, Sonneborn-Berger, sign-up), tables never above ``size`` and as even
    as can be, byes to the lowest-placed without one, the first seating in standing order
    in which nobody meets anyone again."""
    order = [e for e in order_of(calculate(entries, before), entries) if e in active]
    count = -(-len(order) // size)
    base, extra = divmod(len(order), count)
    sizes = [base + 1] * extra + [base] * (count - extra)
    out = 0
    if min(sizes) < 2:  # two-seat tables and an odd number: one bye
        sizes = [2] * (len(order) // 2)
        out = 1
    met = {frozenset(p) for r in before for seated, _ in r for p in combinations(seated, 2)}
    had = {seated[0] for r in before for seated, _ in r if len(seated) == 1}
    candidates = [p for p in reversed(order) if p not in had] if out else [None]
    for bye in candidates:
        rest = [p for p in order if p != bye]
        valid = [w for w in partitions(rest, sizes)
                 if not any(frozenset(p) in met for t in w for p in combinations(t, 2))]
        if valid:
            best = min(valid, key=lambda w: [(-len(t), *map(order.index, t)) for t in w])
            return [*best, *([(bye,)] if bye is not None else [])]
    raise AssertionError("every seating meets a pair again: the test needs other results")


async def check_rounds(league: League, tournament_id: int, size: int) -> tuple[
        list[int], list[Seated], list[EntryRecord]]:
    """Every round as stored equals the brute force's, and the standings the bot keeps
    equal the ones worked out here."""
    entries, rounds = await stored_rounds(league, tournament_id)
    players = await league.bot.organizer.players(tournament_id)
    tables: list[TableRecord] = await league.bot.organizer.tables(tournament_id)
    for number in range(1, len(rounds) + 1):
        active = [p.entry for p in players if p.withdrawn is None or p.withdrawn >= number]
        stored = [t.entries for t in tables if t.round == number]
        assert stored == expected_round(active, size, rounds[:number - 1], entries), number
    calculated = calculate(entries, rounds)
    record = await league.bot.organizer.get(tournament_id)
    kept = await league.bot.organizer.standings(record)
    assert [line.entry for line in kept.lines] == order_of(calculated, entries)
    for line in kept.lines:
        assert (line.points, line.buchholz, line.sonneborn) == (
            calculated.points[line.entry], calculated.buchholz[line.entry],
            calculated.sonneborn[line.entry]), line
    return entries, rounds, players


def user_of(players: Sequence[EntryRecord], entry: int) -> int:
    user = next(p.user_id for p in players if p.entry == entry)
    assert user is not None
    return user


async def current_tables(league: League, tournament_id: int) -> list[TableRecord]:
    record = await league.bot.organizer.get(tournament_id)
    return [t for t in await league.bot.organizer.tables(tournament_id)
            if t.round == record.round]


def posted(league: League, words: str) -> list[Sent]:
    return [s for s in league.rec.messages_sent() if words in s.content]


async def test_a_swiss_tournament_of_sugar_blast_runs_itself_to_its_final_standings(
        tmp_path: Path) -> None:
    players = [430000000000000001 + i for i in range(9)]
    host = players[0]
    league = League(tmp_path / "bot.db", bot.games.GAMES, seed=3)
    await league.boot()
    try:
        sent = await league.command(host, "tournament", "new",
                                    {"game": "sugar-blast", "format": "swiss", "rounds": 4,
                                     "clock": "1d"})
        signup = sent.message_id
        assert signup is not None
        for player in players:
            await league.click(player, signup, ":join")
        await league.click(host, signup, ":start")
        first = await current_tables(league, 1)
        assert sum(t.bye for t in first) == 1 and len(await league.open_games()) == 4
        await league.play_round()

        # The bot dies in the middle of opening round 2: its second thread was started but
        # the answer never came. The next process finishes the round's opening.
        starts = iter(range(100))
        league.rec.die_when(lambda s: s.path.endswith("/threads") and next(starts) == 1,
                            carried_out=True)
        with pytest.raises(Died):
            await league.bot.send_due()
        await league.restart()
        league.clock.advance(0.2)  # past the dead process's lease and its opening's grace
        league.rec.clear()
        await league.bot.send_due()
        second = await current_tables(league, 1)
        games = await league.open_games()
        assert len(games) == 4 == sum(not t.bye for t in second)
        assert {g.id for g in games} == {t.game_id for t in second if not t.bye}
        assert len(posted(league, "standings after round 1")) == 1  # queued, then sent once

        # A player withdraws in the middle of round 2: their game is conceded.
        leaver_table = next(t for t in second if not t.bye)
        roster = await league.bot.organizer.players(1)
        leaver = user_of(roster, leaver_table.entries[0])
        await league.command(leaver, "tournament", "leave")
        assert "You withdrew" in league.answers()[-1].content
        await league.play_round()
        await league.bot.send_due()

        # Round 3: one player never moves; their clock runs out, they forfeit, and count
        # last at their table. The bot restarts while the games are played.
        third = await current_tables(league, 1)
        absent_table = next(t for t in third if not t.bye)
        absent = user_of(roster, absent_table.entries[1])
        # Meanwhile a player leaves the server: withdrawn when round 4 is formed (the pass
        # that sees round 3 end, whichever pass that is).
        departed = user_of(roster, next(t for t in third if not t.bye and
                                        absent_table is not t).entries[0])
        league.rec.departed.add(departed)
        await league.restart()
        await league.play_round(skip={absent})
        ended = await league.bot.tables.store.games.get_game(absent_table.game_id or 0)
        assert ended.status == "finished"
        # Cut short by the forfeit: the rules themselves never ended the game.
        sugar_blast = bot.games.GAMES["sugar-blast"]
        assert sugar_blast.result(loads(ended.state_json or "", sugar_blast)) is None

        await league.bot.send_due()
        await league.play_round()
        league.rec.clear()
        await league.bot.send_due()
        (final,) = posted(league, "is over after 4 rounds")
        assert final.pngs and final.alt_texts and "Final standings" in final.alt_texts[0]

        entries, rounds, kept = await check_rounds(league, 1, size=2)
        assert len(entries) == 9 and len(rounds) == 4
        withdrawn = {p.user_id: p.withdrawn for p in kept if p.withdrawn is not None}
        assert withdrawn == {leaver: 2, departed: 3}
        leaver_entry = next(p.entry for p in kept if p.user_id == leaver)
        places = dict(next(s for s in rounds[1] if leaver_entry in s[0])[1])
        assert places[leaver_entry] == 2
        absent_entry = next(p.entry for p in kept if p.user_id == absent)
        assert dict(next(s for s in rounds[2] if absent_entry in s[0])[1])[absent_entry] == 2
        byes = [seated[0] for r in rounds for seated, _ in r if len(seated) == 1]
        assert len(byes) >= 3 and len(set(byes)) == len(byes)
        assert all(leaver_entry not in seated for r in rounds[2:] for seated, _ in r)
        departed_entry = next(p.entry for p in kept if p.user_id == departed)
        assert all(departed_entry not in seated for seated, _ in rounds[3])
        assert "This tournament is over." in league.rec.message(signup)["content"]
    finally:
        await league.bot.close()


async def test_a_pod_tournament_of_candy_monsters_runs_itself_to_its_final_standings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    players = [440000000000000001 + i for i in range(11)]
    host = players[0]
    league = League(tmp_path / "bot.db", bot.games.GAMES, seed=5)
    await league.boot()
    try:
        sent = await league.command(host, "tournament", "new", {
            "game": "kingdoms-candy-monsters", "format": "pods", "rounds": 3, "seats": 3,
            "clock": "1d"})
        signup = sent.message_id
        assert signup is not None and "pods, 3 rounds, tables of 3" in sent.content
        for player in players:
            await league.click(player, signup, ":join")
        await league.click(players[-1], signup, ":leave")  # changed their mind
        assert "off the list" in league.answers()[-1].content

        # The bot dies between storing the second table's game and dealing it.
        lobbies = league.bot.tables.lobbies
        real_start = lobbies.start
        calls: list[Any] = []

        async def dies_once(*args: Any, **kwargs: Any) -> Any:
            calls.append(args)
            if len(calls) == 2:
                raise Died("killed before the deal")
            return await real_start(*args, **kwargs)

        monkeypatch.setattr(lobbies, "start", dies_once)
        await league.command(host, "tournament", "start")
        assert len(calls) == 2  # killed at the second table
        stored = {t.number: t.game_id for t in await current_tables(league, 1)}
        assert stored[2] is not None and stored[3] is None
        await league.restart()
        league.clock.advance(0.2)
        await league.bot.send_due()
        first = await current_tables(league, 1)
        assert [len(t.entries) for t in first] == [3, 3, 2, 2]
        games = await league.open_games()
        assert {g.id for g in games} == {t.game_id for t in first}
        assert first[1].game_id == stored[2]  # the game stored before the kill, dealt now
        await league.play_round()
        await league.bot.send_due()

        roster = await league.bot.organizer.players(1)
        second = await current_tables(league, 1)
        leaver = user_of(roster, second[0].entries[2])
        await league.command(leaver, "tournament", "leave")
        await league.play_round()
        await league.bot.send_due()

        third = await current_tables(league, 1)
        assert [len(t.entries) for t in third] == [3, 3, 3]
        absent = user_of(roster, third[1].entries[0])
        await league.play_round(skip={absent})
        league.rec.clear()
        await league.bot.send_due()
        (final,) = posted(league, "is over after 3 rounds")
        assert final.pngs

        entries, rounds, kept = await check_rounds(league, 1, size=3)
        assert len(entries) == 10 and len(rounds) == 3
        leaver_entry = next(p.entry for p in kept if p.user_id == leaver)
        table = dict(next(s for s in rounds[1] if leaver_entry in s[0])[1])
        assert table[leaver_entry] == len(table)
        absent_entry = next(p.entry for p in kept if p.user_id == absent)
        table = dict(next(s for s in rounds[2] if absent_entry in s[0])[1])
        assert table[absent_entry] == len(table)
        games_in_channel = await league.bot.tables.store.games.open_games_in(CHANNEL_ID)
        assert not games_in_channel  # every game ended, no lobby left behind
    finally:
        await league.bot.close()
