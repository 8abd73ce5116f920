"""Tournaments that run themselves: sign-ups, rounds formed and ended, standings.

One service, :class:`Organizer`, beside the tables service (:class:`~bot.tables.Tables`),
over the store's tournament aggregate (:mod:`bot.store.tournaments`) and the pure rules
of :mod:`bot.organized`. It knows nothing of Discord: the Discord layer
(:mod:`bot.discord.organized`) opens each table's game in its thread, and calls
:meth:`Organizer.advance` from the reminder pass, which ends the tables whose games ended,
forms the next round once every table of the round has ended (with the standings it
announces, in the same write), and closes the tournament after its last round.

A table's game is an ordinary game (rated as any other); what it gives the tournament is
its players' places. A seat its player no longer plays at the end (they left the game or
the tournament, the table gave their seat to the AI, the clock forfeited them, or the AI
still stood in for them) is placed last, below every seat its player played; a game
ended without a result ties everyone at its table. docs/organized-play.md says it all.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from bot.games.engine import Engine
from bot.limits import Limits
from bot.organized import pairings
from bot.organized.standings import Round, Table, standings
from bot.refusals import (
    AlreadyEntered,
    BadTournament,
    LimitReached,
    NoSuchTournament,
    NotEntered,
    NotSigningUp,
    TooFewPlayers,
    TournamentHostOnly,
)
from bot.store import (
    Announcement,
    ConflictError,
    GameRecord,
    NotFoundError,
    SeatRecord,
    Store,
)
from bot.store.tournaments import EntryRecord, TableRecord, TournamentRecord
from bot.tables.core import clip_name, stored_result
from bot.tables.timed import TableClock

if TYPE_CHECKING:
    from bot.tables import Tables

#: The formats, and how many seats a table of each has.
FORMATS = ("swiss", "round-robin", "pods")
MAX_ROUNDS = 12
#: How far ahead a sign-up deadline may be, in hours.
MAX_DEADLINE_HOURS = 24 * 14
#: How long a process may work on one tournament (form a round, open its games) before
#: another may take it over.
LEASE_SECONDS = 300.0
#: Tells which of a server's users (by id) are still its members.
Members = Callable[[int, Sequence[int]], Awaitable[set[int]]]
#: Opens the games of a round's tables (the Discord layer).
Opener = Callable[[Sequence["ToOpen"]], Awaitable[object]]


#: A tournament's player out of time forfeits: a no-show must not hold up a round, and an
#: AI standing in would play their games for them.
FORFEIT = "forfeit"


def table_clock(record: TournamentRecord) -> TableClock | None:
    """The clock every table of the tournament plays with (``None``: no clock, the
    reminders and the AI's take-over see the round through)."""
    code = record.settings.get("clock")
    return TableClock.chosen(str(code), FORFEIT) if code else None


@dataclass(frozen=True)
class Line:
    """A player's line in the standings; ``name`` is ``None`` for a former player (one
    who asked to be forgotten)."""

    rank: int
    entry: int
    user_id: int | None
    name: str | None
    points: Fraction
    buchholz: Fraction
    sonneborn: Fraction
    games: int
    byes: int
    withdrawn: bool


@dataclass(frozen=True)
class Seated:
    """A table of a round as the standings show it: its players (entries) and, once its
    game ended, their places; a bye is a table of one."""

    number: int
    entries: tuple[int, ...]
    game_id: int | None
    places: Mapping[int, int] | None


@dataclass(frozen=True)
class Standings:
    """A tournament after ``played`` rounds: its lines, best first, and every round's
    tables; ``final`` once it is over."""

    record: TournamentRecord
    title: str
    played: int
    lines: tuple[Line, ...]
    rounds: tuple[tuple[Seated, ...], ...]
    final: bool

    def name_of(self, entry: int) -> str | None:
        return next((line.name for line in self.lines if line.entry == entry), None)


@dataclass(frozen=True)
class ToOpen:
    """A table whose game the Discord layer opens (or, made before a stop, starts)."""

    record: TournamentRecord
    table: TableRecord
    players: tuple[EntryRecord, ...]


@dataclass(frozen=True)
class Withdrawal:
    """A player left the tournament; ``game`` is their game under way, if any, which they
    concede as ``game leave`` does."""

    record: TournamentRecord
    entry: EntryRecord
    game: GameRecord | None


def tag(record: TournamentRecord, table: TableRecord) -> dict[str, int]:
    """What a table's game keeps in its settings to say which table it is."""
    return {"id": record.id, "round": table.round, "table": table.number}


def least_players(record: TournamentRecord) -> int:
    """How many players a tournament needs to start: two, or a full pod."""
    return record.seats if record.format == "pods" else 2


class Organizer:
    """Tournaments over ``store``, with the games of ``games``."""

    def __init__(self, store: Store, games: Mapping[str, Engine], clock: Callable[[], float],
                 limits: Limits) -> None:
        self._store = store
        self._tournaments = store.tournaments
        self.games = games
        self.clock = clock
        self.limits = limits

    @classmethod
    def over(cls, tables: Tables) -> Organizer:
        """The organizer beside ``tables``: their database, games, clock and limits."""
        return cls(tables.pipeline.store, tables.games, tables.clock, tables.limits)

    async def players(self, tournament_id: int) -> list[EntryRecord]:
        """A tournament's players in sign-up order, withdrawn ones included."""
        return await self._tournaments.players(tournament_id)

    async def tables(self, tournament_id: int) -> list[TableRecord]:
        """Every table of a tournament's rounds so far."""
        return await self._tournaments.tables(tournament_id)

    async def set_message(self, tournament_id: int, message_id: int | None) -> None:
        """Remember the message that shows a tournament's sign-up and standings."""
        await self._tournaments.set_message(tournament_id, message_id)

    # ----------------------------------------------------------------- signing up

    async def new(self, *, guild_id: int, channel_id: int, host_id: int, game: Engine,
                  format: str, rounds: int, seats: int | None, reminder_hours: float,
                  deadline_hours: float | None, clock: str | None = None,
                  ) -> TournamentRecord:
        """Open a tournament's sign-up, refused when it could not run as asked or the
        server runs as many as it may. ``clock`` (a code of
        :data:`bot.organized.clock.CHOICES`) times every table; a player out of time
        forfeits (:func:`table_clock`)."""
        timed = TableClock.chosen(clock, FORFEIT).rule
        if format not in FORMATS:
            raise BadTournament(reason="format")
        if format == "pods":
            low = max(3, game.min_seats)
            chosen = game.max_seats if seats is None else seats
            if game.max_seats < 3 or not low <= chosen <= game.max_seats:
                raise BadTournament(reason="pod_seats", title=game.title, low=low,
                                    high=game.max_seats)
        else:
            chosen = 2
            if not game.min_seats <= 2 <= game.max_seats:
                raise BadTournament(reason="two_seats", title=game.title)
            if seats not in (None, 2):
                raise BadTournament(reason="pairs")
        if not 1 <= rounds <= MAX_ROUNDS:
            raise BadTournament(reason="rounds", low=1, high=MAX_ROUNDS)
        deadline = None
        if deadline_hours is not None:
            if not 0 < deadline_hours <= MAX_DEADLINE_HOURS:
                raise BadTournament(reason="deadline", low=1, high=MAX_DEADLINE_HOURS)
            deadline = self.clock() + deadline_hours * 3600
        running = await self._tournaments.open_in(guild_id)
        if len(running) >= self.limits.tournaments_per_server:
            raise LimitReached(limit="tournaments", allowed=self.limits.tournaments_per_server)
        return await self._tournaments.create(
            guild_id=guild_id, channel_id=channel_id, host_id=host_id, game=game.slug,
            format=format, rounds=rounds, seats=chosen,
            settings={"reminder_hours": float(reminder_hours),
                      **({"clock": timed.code} if timed.timed else {})},
            deadline=deadline,
            token=secrets.token_urlsafe(16), now=self.clock())

    async def get(self, tournament_id: int, guild_id: int | None = None) -> TournamentRecord:
        """The tournament a button or command names (in ``guild_id``, when given)."""
        try:
            record = await self._tournaments.get(tournament_id)
        except NotFoundError:
            raise NoSuchTournament() from None
        if guild_id is not None and record.guild_id != guild_id:
            raise NoSuchTournament()
        return record

    async def join(self, tournament_id: int, user_id: int, name: str,
                   guild_id: int | None = None) -> TournamentRecord:
        """Sign ``user_id`` up."""
        record = await self.get(tournament_id, guild_id)
        joined = await self._tournaments.join(
            record.id, user_id, clip_name(name), self.clock(),
            most_players=self.limits.players_per_tournament,
            most_signups=self.limits.tournaments_per_person)
        if joined == "closed":
            raise NotSigningUp()
        if joined == "already":
            raise AlreadyEntered()
        if joined == "full":
            raise LimitReached(limit="tournament_players",
                               allowed=self.limits.players_per_tournament)
        if joined == "signups":
            raise LimitReached(limit="tournament_signups",
                               allowed=self.limits.tournaments_per_person)
        return await self.get(record.id)

    async def leave(self, tournament_id: int, user_id: int,
                    guild_id: int | None = None) -> Withdrawal:
        """Take ``user_id`` out of the tournament: off the list while it signs up, else
        withdrawn from the next rounds, with their game under way to concede."""
        record = await self.get(tournament_id, guild_id)
        entry = await self._tournaments.leave(record.id, user_id, self.clock())
        if entry is None:
            raise NotEntered()
        game = None
        if record.status == "running":
            for table in await self._tournaments.tables(record.id):
                if table.round == record.round and entry.entry in table.entries \
                        and table.game_id is not None and table.places is None:
                    found = await self._store.games.get_game(table.game_id)
                    game = found if found.status == "active" else None
        return Withdrawal(await self.get(record.id), entry, game)

    async def current(self, guild_id: int, user_id: int | None = None,
                      ) -> list[TournamentRecord]:
        """The server's tournaments signing up or under way (those ``user_id`` plays in)."""
        found = await self._tournaments.open_in(guild_id)
        if user_id is None:
            return found
        mine = []
        for record in found:
            players = await self._tournaments.players(record.id)
            if any(p.user_id == user_id and p.withdrawn is None for p in players):
                mine.append(record)
        return mine

    async def start(self, tournament_id: int, user_id: int, can_manage: bool,
                    members: Members, guild_id: int | None = None) -> TournamentRecord:
        """The host (or someone with Manage Server) starts the tournament: its first round
        is formed, announced and its tables left to open."""
        record = await self.get(tournament_id, guild_id)
        if record.status != "signup":
            raise NotSigningUp()
        if user_id != record.host_id and not can_manage:
            raise TournamentHostOnly(host=record.host_id)
        players = await self._tournaments.players(record.id)
        if len(players) < least_players(record):
            raise TooFewPlayers(needed=least_players(record), joined=len(players))
        if not await self._tournaments.claim(record.id, self.clock(), LEASE_SECONDS):
            raise NotSigningUp()  # the deadline's pass is starting it this moment
        try:
            return await self._next_round(record, members)
        finally:
            await self._tournaments.release(record.id)

    async def cancel(self, tournament_id: int, user_id: int, can_manage: bool,
                     guild_id: int | None = None) -> TournamentRecord:
        """The host (or someone with Manage Server) calls off a tournament still signing up."""
        record = await self.get(tournament_id, guild_id)
        if record.status != "signup":
            raise NotSigningUp()
        if user_id != record.host_id and not can_manage:
            raise TournamentHostOnly(host=record.host_id)
        try:
            return await self._tournaments.close(record, "cancelled", self.clock())
        except ConflictError:
            return await self.get(record.id)

    # ----------------------------------------------------------------- rounds

    async def advance(self, members: Members, opener: Opener,
                      only: int | None = None) -> int:
        """The pass (over every tournament, or the one numbered ``only``): start those
        whose sign-up deadline came, end the tables whose games ended, form the next rounds
        and close finished tournaments; ``opener`` opens the games of the tables left
        without one, under the tournament's lease (so that two processes never open one
        table twice). How many tables were handed to ``opener``."""
        now = self.clock()
        handed = 0
        for record in await self._tournaments.in_play(now):
            if only is not None and record.id != only:
                continue
            if not await self._tournaments.claim(record.id, now, LEASE_SECONDS):
                continue
            try:
                to_open = await self._advance(record, members)
                if to_open:
                    await opener(to_open)
                    handed += len(to_open)
            finally:
                await self._tournaments.release(record.id)
        return handed

    async def _advance(self, record: TournamentRecord, members: Members) -> list[ToOpen]:
        if record.status == "signup":
            players = await self._tournaments.players(record.id)
            if len(players) < least_players(record):
                notice = self._announce(record, "cancelled", len(players))
                await self._tournaments.close(record, "cancelled", self.clock(), (notice,))
                return []
            record = await self._next_round(record, members)
            return await self.waiting(record)
        pending = False
        for table in await self._tournaments.tables(record.id):
            if table.round != record.round or table.places is not None:
                continue
            if table.game_id is None:
                pending = True
                continue
            try:
                game = await self._store.games.get_game(table.game_id)
            except NotFoundError:
                game = None
            if game is not None and game.status in ("lobby", "active"):
                pending = True
                continue
            players = await self._tournaments.players(record.id)
            places = table_places(table, game, {p.entry: p.user_id for p in players})
            await self._tournaments.end_table(record.id, table.round, table.number, places)
        if pending:
            return await self.waiting(record)
        players = await self._tournaments.players(record.id)
        active = [p for p in players if p.withdrawn is None]
        if record.round >= record.rounds or len(active) < 2:
            notice = self._announce(record, "final", record.round)
            await self._tournaments.close(record, "finished", self.clock(), (notice,))
            return []
        record = await self._next_round(record, members)
        return await self.waiting(record)

    async def waiting(self, record: TournamentRecord) -> list[ToOpen]:
        """The tables of the current round whose games are not open yet (nor ended)."""
        if record.status != "running":
            return []
        players = {p.entry: p for p in await self._tournaments.players(record.id)}
        out = []
        for table in await self._tournaments.tables(record.id):
            if table.round == record.round and table.places is None:
                if table.game_id is None:
                    out.append(ToOpen(record, table, tuple(players[e] for e in table.entries)))
                    continue
                try:
                    game = await self._store.games.get_game(table.game_id)
                except NotFoundError:
                    continue
                if game.status == "lobby":
                    out.append(ToOpen(record, table, tuple(players[e] for e in table.entries)))
        return out

    async def _next_round(self, record: TournamentRecord, members: Members,
                          ) -> TournamentRecord:
        """Form round ``record.round + 1`` from the standings (players who left the server
        withdrawn first) and write it, with its announcement, in one write."""
        players = await self._tournaments.players(record.id)
        ids = [p.user_id for p in players if p.withdrawn is None and p.user_id is not None]
        present = await members(record.guild_id, ids)
        gone = [p.entry for p in players if p.withdrawn is None
                and (p.user_id is None or p.user_id not in present)]
        await self._tournaments.withdraw_entries(record.id, gone, record.round)
        players = await self._tournaments.players(record.id)
        number = record.round + 1
        tables = await self._tournaments.tables(record.id)
        seating, rounds = self._seating(record, players, tables, number)
        played = record.round
        kind = "round" if played else "first"
        notice = self._announce(record, kind, played)
        try:
            return await self._tournaments.begin_round(
                record, number, (*seating.tables, *((b,) for b in seating.byes)),
                self.clock(), (notice,), rounds=rounds)
        except ConflictError:
            return await self.get(record.id)

    def _seating(self, record: TournamentRecord, players: Sequence[EntryRecord],
                 tables: Sequence[TableRecord], number: int,
                 ) -> tuple[pairings.Seating, int | None]:
        """Round ``number``'s seating, and the number of rounds when it is settled now (a
        round-robin's, at its first round)."""
        active = [p.entry for p in players if p.withdrawn is None]
        if record.format == "round-robin":
            entries = [p.entry for p in players if p.withdrawn != 0]
            rounds = pairings.round_robin_rounds(len(entries)) if number == 1 else None
            planned = pairings.round_robin(entries, number - 1)
            kept, byes = [], list(planned.byes)
            for table in planned.tables:
                still = [e for e in table if e in active]
                if len(still) == len(table):
                    kept.append(table)
                else:
                    byes += still  # their opponent withdrew: a bye
            return pairings.Seating(tuple(kept), tuple(e for e in byes if e in active)), rounds
        order = [s.entry for s in standings([p.entry for p in players], ended_rounds(tables))
                 if s.entry in active]
        met = pairings.met_pairs(t.entries for t in tables if not t.bye)
        had = {t.entries[0] for t in tables if t.bye}
        if record.format == "swiss":
            return pairings.swiss(order, met=met, byes=had), None
        game = self.games.get(record.game)
        least = game.min_seats if game is not None else 2
        played = {frozenset(t.entries) for t in tables if not t.bye}
        return pairings.pods(order, size=record.seats, least=least, met=met, byes=had,
                             tables=played), None

    def _announce(self, record: TournamentRecord, about: str, played: int) -> Announcement:
        """The standings (or the news) a tournament posts in its channel."""
        return Announcement(channel_id=record.channel_id, guild_id=record.guild_id,
                            game_id=None, kind="standings",
                            data={"tournament": record.id, "about": about, "played": played})

    async def opened(self, record: TournamentRecord, table: TableRecord, game_id: int) -> None:
        """The game of ``table`` is open (as a lobby about to start, or started)."""
        await self._tournaments.set_game(record.id, table.round, table.number, game_id)

    # ----------------------------------------------------------------- reading

    async def standings(self, record: TournamentRecord, played: int | None = None,
                        ) -> Standings:
        """The standings after ``played`` rounds (by default every round ended so far)."""
        players = await self._tournaments.players(record.id)
        tables = await self._tournaments.tables(record.id)
        if played is None:
            complete = [r for r in range(1, record.round + 1)
                        if all(t.places is not None for t in tables if t.round == r)]
            played = max(complete, default=0)
        counted = [t for t in tables if t.round <= played]
        lines = standings([p.entry for p in players], ended_rounds(counted))
        by_entry = {p.entry: p for p in players}
        out = tuple(Line(s.rank, s.entry, by_entry[s.entry].user_id,
                         by_entry[s.entry].name or None, s.points, s.buchholz, s.sonneborn,
                         s.games, s.byes, by_entry[s.entry].withdrawn is not None)
                    for s in lines if s.entry in by_entry)
        shown = tuple(tuple(Seated(t.number, t.entries, t.game_id, t.places)
                            for t in tables if t.round == r)
                      for r in range(1, record.round + 1))
        game = self.games.get(record.game)
        return Standings(record, game.title if game is not None else record.game, played,
                         out, shown, record.status == "finished")

    async def by_token(self, token: str) -> TournamentRecord | None:
        """The tournament whose web page is ``token``."""
        return await self._tournaments.by_token(token)



def ended_rounds(tables: Collection[TableRecord]) -> list[Round]:
    """The rounds of ``tables`` as :mod:`bot.organized.standings` reads them: the tables
    that ended, and the byes."""
    numbers = sorted({t.round for t in tables})
    return [Round(tuple(Table(dict(t.places)) for t in tables
                        if t.round == r and not t.bye and t.places is not None),
                  tuple(t.entries[0] for t in tables if t.round == r and t.bye))
            for r in numbers]


def table_places(table: TableRecord, game: GameRecord | None,
                 users: Mapping[int, int | None]) -> dict[int, int]:
    """Each entry's place at ``table`` from its ended ``game``: the game's ranking, with
    every seat its player no longer played at the end placed last (tied); a game ended
    without a result (or gone) ties everyone."""
    entries = table.entries
    result = stored_result(game) if game is not None else None
    if game is None or result is None:
        return dict.fromkeys(entries, 1)
    played = set()
    for seat in game.seats:
        if seat.seat < len(entries):
            user = users.get(entries[seat.seat])
            if user is not None and seat.user_id == user and not seat.machine:
                played.add(seat.seat)
    groups: list[list[int]] = []
    for ranked in result.ranking:
        kept = [s for s in ranked if s in played and s < len(entries)]
        if kept:
            groups.append(kept)
    absent = [s for s in range(len(entries)) if s not in played]
    if absent:
        groups.append(absent)
    places: dict[int, int] = {}
    place = 1
    for group in groups:
        for index in group:
            places[entries[index]] = place
        place += len(group)
    for entry in entries:  # a seat the result forgot: last with the absent
        places.setdefault(entry, place)
    return places


def game_seats(players: Sequence[EntryRecord]) -> tuple[SeatRecord, ...]:
    """The seats of a table's game, in the table's order."""
    return tuple(SeatRecord(i, p.user_id, clip_name(p.name or "Player"), False)
                 for i, p in enumerate(players))
