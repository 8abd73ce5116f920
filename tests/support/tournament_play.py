"""Tournaments driven through the offline Discord as new users drive them: ``/tournament``
commands, the sign-up buttons, and each player's moves typed with ``/play`` in their game's
thread, picked from the legal list.

Also an independent calculation of a tournament's standings from what the store kept:
every table's places, read from the games' own results, and the points, Buchholz and
Sonneborn-Berger worked out here from their textbook definitions."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from bot.discord.client import CandyBot
from bot.games.engine import Engine, loads
from bot.store import GameRecord
from bot.store.tournaments import TableRecord
from tests.support.discord_harness import CHANNEL_ID, Clock, Gateway, Recorder, Sent, start_bot
from tools.offline import INVITED


class League:
    """A bot on a database file, restartable like a real process, and its players."""

    def __init__(self, db: Path, games: Mapping[str, Engine], seed: int = 1) -> None:
        self.db = db
        self.games = games
        self.clock = Clock()
        self.rec = Recorder()
        self.bot: CandyBot
        self.gw: Gateway
        self.rng = random.Random(seed)

    async def boot(self) -> None:
        """Start a bot process; Discord (the recorder: its channels, threads and messages)
        outlives it."""
        self.rec.room(CHANNEL_ID).permissions = INVITED
        self.bot, self.gw = await start_bot(self.db, self.clock, self.games, self.rec)
        # play_round steps a day at a time while only no-shows are to act: passes that far
        # apart read as a bot that stayed up, so the no-show's clock runs (not an outage).
        self.bot.tables.clocks.outage = 30 * 3600

    async def restart(self) -> None:
        await self.bot.close()
        await self.boot()

    async def command(self, user: int, name: str, sub: str | None = None,
                      options: Mapping[str, Any] | None = None, *,
                      channel_id: int = CHANNEL_ID, **kw: Any) -> Sent:
        self.rec.clear()
        await self.gw.send(self.gw.command(user, name, sub, options, channel_id=channel_id,
                                           **kw))
        return self.rec.last()

    async def click(self, user: int, message_id: int, ending: str, **kw: Any) -> Sent:
        message = self.rec.message(message_id)
        ids = [c["custom_id"] for row in message["components"] for c in row["components"]
               if "custom_id" in c]
        chosen = next(c for c in ids if c.endswith(ending))
        self.rec.clear()
        await self.gw.send(self.gw.click(user, message, chosen, **kw))
        return self.rec.last()

    def answers(self) -> list[Sent]:
        """The private answers since the last command or click."""
        return [s for s in self.rec.sent if s.ephemeral]

    async def open_games(self) -> list[GameRecord]:
        return [g for g in await self.bot.tables.store.games.open_games_in(CHANNEL_ID)
                if g.status == "active"]

    async def move(self, record: GameRecord, skip: Iterable[int] = ()) -> bool:
        """Each player to act in ``record`` (but ``skip``'s) plays a legal move with
        ``/play`` in the game's thread; whether anyone moved."""
        game = self.games[record.game]
        state = loads(record.state_json or "", game)
        moved = False
        for seat in sorted(game.to_act(state)):
            player = record.seats[seat]
            if player.machine or player.user_id is None or player.user_id in skip:
                continue
            legal = game.legal_actions(state, seat)
            if not legal:
                continue
            action = self.rng.choice(legal)
            sent = await self.command(player.user_id, "play",
                                      options={"action": action.notation},
                                      channel_id=record.channel_id)
            refused = [s.content for s in self.answers() if "not" in s.content.lower()
                       and "turn" in s.content.lower()]
            assert not refused, refused
            moved = moved or sent is not None
            break
        return moved

    async def play_round(self, skip: Iterable[int] = (), most: int = 4000) -> None:
        """Play every game under way to its end (``skip``: players who never move; the
        reminder pass lets an AI stand in for them)."""
        away = set(skip)
        # The round's own games: a pass that ends the round may open the next one.
        round_games = {g.id for g in await self.open_games()}
        for _ in range(most):
            games = [g for g in await self.open_games() if g.id in round_games]
            if not games:
                return
            moved = False
            for record in games:
                moved = await self.move(record, away) or moved
            if not moved:
                # Only absent players are to act: time passes, reminders, the AI stands in.
                self.clock.advance(25)
                await self.bot.send_due()
        raise AssertionError("the round never ended")


@dataclass(frozen=True)
class Calculated:
    points: dict[int, Fraction]
    buchholz: dict[int, Fraction]
    sonneborn: dict[int, Fraction]


def places_from_game(record: GameRecord, entries: Sequence[int],
                     users: Mapping[int, int | None]) -> dict[int, int]:
    """Each entry's place read from its game's stored result: players no longer in their
    seat at the end come last, tied."""
    result = json.loads(record.result_json or "null")
    if record.status != "finished" or result is None:
        return dict.fromkeys(entries, 1)
    present = {s.seat for s in record.seats
               if not s.ai and not s.standing_in and s.user_id == users[entries[s.seat]]}
    order: list[list[int]] = [[s for s in group if s in present] for group in result["ranking"]]
    order = [g for g in order if g] + [[s for s in range(len(entries)) if s not in present]]
    places, place = {}, 1
    for group in order:
        if not group:
            continue
        for seat in group:
            places[entries[seat]] = place
        place += len(group)
    return places


def calculate(entries: Sequence[int], rounds: Sequence[Sequence[tuple[tuple[int, ...],
                                                                      dict[int, int]]]],
              ) -> Calculated:
    """Points (a table of k: 1 for first down to 0 for last in equal steps, shared by
    ties; a bye 1), Buchholz (the opponents' points summed, each meeting) and
    Sonneborn-Berger (each opponent's points times the score against them), from the
    tables of every round (a table of one is a bye)."""
    points = {e: Fraction(0) for e in entries}
    for tables in rounds:
        for seated, places in tables:
            if len(seated) == 1:
                points[seated[0]] += 1
                continue
            k = len(seated)
            for entry in seated:
                tied = [e for e in seated if places[e] == places[entry]]
                spots = range(places[entry], places[entry] + len(tied))
                points[entry] += sum(Fraction(k - q, k - 1) for q in spots) / len(tied)
    buchholz = {e: Fraction(0) for e in entries}
    sonneborn = {e: Fraction(0) for e in entries}
    for tables in rounds:
        for seated, places in tables:
            for entry in seated:
                for other in seated:
                    if other == entry:
                        continue
                    buchholz[entry] += points[other]
                    if places[entry] < places[other]:
                        sonneborn[entry] += points[other]
                    elif places[entry] == places[other]:
                        sonneborn[entry] += points[other] / 2
    return Calculated(points, buchholz, sonneborn)


async def stored_rounds(league: League, tournament_id: int,
                        ) -> tuple[list[int], list[list[tuple[tuple[int, ...], dict[int, int]]]]]:
    """The entries and every round's tables with places read from the games themselves."""
    players = await league.bot.organizer.players(tournament_id)
    users = {p.entry: p.user_id for p in players}
    tables: list[TableRecord] = await league.bot.organizer.tables(tournament_id)
    rounds: list[list[tuple[tuple[int, ...], dict[int, int]]]] = []
    for number in sorted({t.round for t in tables}):
        current = []
        for table in (t for t in tables if t.round == number):
            if table.bye:
                current.append((table.entries, {table.entries[0]: 1}))
                continue
            assert table.game_id is not None
            game = await league.bot.tables.store.games.get_game(table.game_id)
            current.append((table.entries, places_from_game(game, table.entries, users)))
        rounds.append(current)
    return [p.entry for p in players], rounds
