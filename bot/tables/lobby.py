"""Lobbies: opening one, taking and leaving seats, AI seats, starting and cancelling.

The lobby belongs to whoever opened it while they stay seated; when they leave,
the next seated player takes it over, and a lobby everyone left closes.
"""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
from collections.abc import Callable, Collection, Mapping
from typing import Any

from bot.games.engine import AI_LEVELS, Engine, SeatInfo, State, dumps
from bot.refusals import (
    AlreadyJoined,
    AlreadyMade,
    BadReminderHours,
    BadSeats,
    ChannelTaken,
    HostCannotRemoveSelf,
    HostOnly,
    LimitReached,
    LobbyClosed,
    LobbyFull,
    MayNotEnd,
    NeedMorePlayers,
    NotAPlayer,
    NotInLobby,
    NotJoined,
    NotOver,
    OthersStillPlaying,
    RematchOpened,
    RematchOpening,
    RemovedFromLobby,
)
from bot.store import (
    Announcement,
    ChannelBusyError,
    ConflictError,
    GameRecord,
    NotFoundError,
    OpeningRecord,
    RematchTakenError,
    SeatRecord,
    WrongStatusError,
)
from bot.tables.core import (
    DEFAULT_REMINDER_HOURS,
    MAX_REMINDER_HOURS,
    Board,
    Lobby,
    Pipeline,
    Plan,
    check_shown,
    clip_name,
    lobby_owner,
    renumber,
    seat_label,
    seats_of,
    showing,
)
from bot.tables.news import Begins
from bot.tables.timed import TableClock, settled

#: A change of seats: the new seats, and the new owner if the lobby changes hands; a
#: change may also return new settings as a third item.
SeatChange = Callable[[GameRecord, Engine], tuple[tuple[SeatRecord, ...], int | None]
                      | tuple[tuple[SeatRecord, ...], int | None, dict[str, Any]]]


class Lobbies:
    """The lobby part of :class:`~bot.tables.Tables`."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline
        self.store = pipeline.store
        self.clock = pipeline.clock

    async def check_lobby(self, *, guild_id: int | None, game: str, creator_id: int,
                          seats: int | None = None, reminder_hours: float | None = None,
                          ai_takeover: bool = True,
                          options: Mapping[str, Any] | None = None,
                          clock: TableClock | None = None,
                          ) -> tuple[Engine, dict[str, Any], dict[str, Any]]:
        """Refuse a lobby that cannot open (a wrong option, seats or reminder interval; a
        limit reached), before anything is posted; the game, its checked options and the
        table's settings."""
        table = self._table(game=game, seats=seats, reminder_hours=reminder_hours,
                            ai_takeover=ai_takeover, options=options, clock=clock)
        hosting, seated, in_server = await self.store.games.open_counts(creator_id, guild_id)
        if hosting >= self.pipeline.limits.lobbies_per_person:
            raise LimitReached(limit="lobbies", allowed=self.pipeline.limits.lobbies_per_person)
        if seated >= self.pipeline.limits.games_per_person:
            raise LimitReached(limit="games", allowed=self.pipeline.limits.games_per_person)
        if in_server >= self.pipeline.limits.games_per_server:
            raise LimitReached(limit="server_games", allowed=self.pipeline.limits.games_per_server)
        return table

    def _table(self, *, game: str, seats: int | None, reminder_hours: float | None,
               ai_takeover: bool, options: Mapping[str, Any] | None,
               clock: TableClock | None = None,
               ) -> tuple[Engine, dict[str, Any], dict[str, Any]]:
        """The game, its checked options and the table's settings of a lobby asked for;
        refuses a wrong option, seats or reminder interval. A table with a clock keeps it
        in its settings, and its clock's rule takes the place of the AI take-over after
        the last reminder."""
        chosen = self.pipeline.game(game)
        checked = chosen.validate_options(dict(options or {}))
        max_seats = chosen.max_seats if seats is None else seats
        # Discord checks option types; a forged request may still carry any JSON value.
        if (not isinstance(max_seats, int) or isinstance(max_seats, bool)
                or not chosen.min_seats <= max_seats <= chosen.max_seats):
            raise BadSeats(title=chosen.title, low=chosen.min_seats, high=chosen.max_seats)
        hours = DEFAULT_REMINDER_HOURS if reminder_hours is None else reminder_hours
        if (not isinstance(hours, int | float) or isinstance(hours, bool)
                or not 0 < hours <= MAX_REMINDER_HOURS):
            raise BadReminderHours(most=MAX_REMINDER_HOURS)
        settings = {"max_seats": max_seats, "reminder_hours": float(hours),
                    "ai_takeover": bool(ai_takeover)}
        if clock is not None and clock.rule.timed:
            settings.update(clock.settings(), ai_takeover=False)
        return chosen, checked, settings

    async def begin_lobby(self, *, channel_id: int, guild_id: int | None, game: str,
                          creator_id: int, seats: int | None = None,
                          reminder_hours: float | None = None, ai_takeover: bool = True,
                          options: Mapping[str, Any] | None = None,
                          in_channel: bool = False, no_thread: str = "",
                          rematch_of: int | None = None,
                          clock: TableClock | None = None) -> OpeningRecord:
        """Count a lobby about to open from ``channel_id`` (its card's channel, or with
        ``in_channel`` the channel it is played in) against its host's and its server's
        limits, before anything is posted: the opening, which :meth:`open_lobby` turns into
        the lobby and :meth:`end_opening` ends once it is shown (or taken back). A rematch
        names the game it follows: one per game."""
        async with self.pipeline.seating:
            chosen, _checked, _settings = await self.check_lobby(
                guild_id=guild_id, game=game, creator_id=creator_id, seats=seats,
                reminder_hours=reminder_hours, ai_takeover=ai_takeover, options=options,
                clock=clock)
            if in_channel:
                busy = await self.store.games.open_game(channel_id)
                if busy is not None:
                    raise self._taken(busy, no_thread)
            try:
                return await self.store.openings.begin_opening(
                    guild_id=guild_id, channel_id=channel_id, creator_id=creator_id,
                    game=chosen.slug, now=self.clock(), threaded=not in_channel,
                    rematch_of=rematch_of)
            except RematchTakenError as taken:
                raise _rematch_refusal(taken) from None

    async def end_opening(self, opening: OpeningRecord) -> None:
        """The lobby of ``opening`` is shown (or what it made is taken back): it no longer
        needs finishing."""
        await self.store.openings.end_opening(opening.id)

    def _taken(self, busy: GameRecord | None, no_thread: str) -> ChannelTaken:
        known = busy is not None and busy.game in self.pipeline.games
        return ChannelTaken(title=self.pipeline.game(busy.game).title if known and busy else None,
                            lobby=busy is not None and busy.status == "lobby",
                            no_thread=no_thread)

    async def open_lobby(self, *, channel_id: int, guild_id: int | None, game: str,
                         creator_id: int, creator_name: str, seats: int | None = None,
                         reminder_hours: float | None = None, ai_takeover: bool = True,
                         options: Mapping[str, Any] | None = None,
                         parent_id: int | None = None, no_thread: str = "",
                         seated: tuple[SeatRecord, ...] = (),
                         opening: OpeningRecord | None = None,
                         lobby_message_id: int | None = None,
                         clock: TableClock | None = None,
                         tournament: Mapping[str, int] | None = None) -> Lobby:
        """Open a lobby in the channel (a thread of ``parent_id``, the game's own) with its
        creator in the first seat (``seated``: the seats a rematch carries over instead).

        The AI takes over a seat whose player let every reminder pass unless the host
        turns ``ai_takeover`` off: a table is never held up for good by one silent seat.
        ``no_thread`` says why the game has no thread of its own, for the refusal should
        the channel already hold a game. An ``opening`` (:meth:`begin_lobby`) was counted
        already, and becomes this lobby in the same write; its card, when posted, is
        ``lobby_message_id``. ``clock`` times the table (:class:`TableClock`: none by
        default). A tournament's table names itself in ``tournament``
        (:func:`bot.tournaments.tag`), kept in the game's settings.
        """
        asked: dict[str, Any] = {"game": game, "seats": seats,
                                 "reminder_hours": reminder_hours, "ai_takeover": ai_takeover,
                                 "options": options, "clock": clock}
        async with self.pipeline.seating:
            if opening is None:
                chosen, checked, settings = await self.check_lobby(
                    guild_id=guild_id, creator_id=creator_id, **asked)
            else:
                chosen, checked, settings = self._table(**asked)
            if tournament is not None:
                settings["tournament"] = dict(tournament)
            first = seated or (SeatRecord(0, creator_id, clip_name(creator_name), False),)
            try:
                record = await self.store.games.create_lobby(
                    channel_id=channel_id, guild_id=guild_id, game=chosen.slug,
                    creator_id=creator_id, options=checked, settings=settings,
                    now=self.clock(), parent_id=parent_id, seats=first,
                    opening=opening.id if opening is not None else None,
                    lobby_message_id=lobby_message_id,
                    rematch_of=opening.rematch_of if opening is not None else None)
            except ChannelBusyError:
                raise self._taken(await self.store.games.open_game(channel_id), no_thread) from None
            except RematchTakenError as taken:
                raise _rematch_refusal(taken) from None
        return Lobby(record=record, game=chosen)

    async def claim_rematch(self, game_id: int, user_id: int, channel_id: int | None = None,
                            ) -> tuple[GameRecord, Engine, OpeningRecord]:
        """Begin opening ``game_id``'s rematch for ``user_id``, who finished it at its
        table (counted against their limits as any lobby of theirs): refused for a game not
        over, someone else, a rematch already open, or one another player is opening at
        this moment (two presses at once: one opens it). The ended game, its rules and
        the opening (:meth:`open_rematch`)."""
        record = await self.pipeline.by_id(game_id, channel_id)
        game = self.pipeline.game(record.game)
        if record.status != "finished":
            raise NotOver()
        if not any(s.user_id == user_id and not s.ai for s in record.seats):
            raise NotAPlayer()
        opened = record.settings.get("rematch")
        if opened:  # a rematch kept the older way, on the ended game (0: none after all)
            await self._opened_rematch(opened)
        settings = record.settings
        opening = await self.begin_lobby(
            channel_id=record.card_channel_id, guild_id=record.guild_id, game=record.game,
            creator_id=user_id, seats=int(settings.get("max_seats", len(record.seats))),
            reminder_hours=settings.get("reminder_hours"),
            ai_takeover=bool(settings.get("ai_takeover", True)), options=record.options,
            in_channel=record.parent_id is None, rematch_of=record.id,
            clock=TableClock.of(settings))
        return record, game, opening

    async def _opened_rematch(self, opened: Any) -> None:
        """Refuse a second rematch, pointing to the first."""
        try:
            lobby = await self.store.games.get_game(int(opened))
        except (NotFoundError, TypeError, ValueError):
            return
        raise RematchOpened(game_id=lobby.id, channel_id=lobby.channel_id)

    async def open_rematch(self, ended: GameRecord, host_id: int, host_name: str, *,
                           channel_id: int, guild_id: int | None, opening: OpeningRecord,
                           parent_id: int | None = None,
                           lobby_message_id: int | None = None) -> Lobby:
        """The rematch lobby of ``opening`` (:meth:`claim_rematch`): the same game, options
        and table settings, the humans who finished seated (each may leave), the AI seats
        kept, ``host_id`` hosting. It names the game it follows, so it opens once."""
        kept = [s for s in ended.seats if s.ai or (s.user_id is not None and s.left is None)]
        seated = tuple(SeatRecord(i, s.user_id if not s.ai else None,
                                  host_name if s.user_id == host_id else s.name, s.ai)
                       for i, s in enumerate(kept))
        settings = ended.settings
        return await self.open_lobby(
            channel_id=channel_id, guild_id=guild_id, game=ended.game, creator_id=host_id,
            creator_name=host_name, seats=int(settings.get("max_seats", len(seated))),
            reminder_hours=settings.get("reminder_hours"),
            ai_takeover=bool(settings.get("ai_takeover", True)), options=ended.options,
            parent_id=parent_id, seated=seated, opening=opening,
            lobby_message_id=lobby_message_id, clock=TableClock.of(settings))

    async def server_defaults(self, guild_id: int | None) -> dict[str, Any]:
        """A server's defaults for new games (none for a direct message)."""
        return {} if guild_id is None else await self.store.servers.server_settings(guild_id)

    async def set_server_defaults(self, guild_id: int, **changes: Any) -> dict[str, Any]:
        """Change a server's defaults (``None`` leaves one as it is): ``threads`` (a game
        in a thread of its own), ``reminder_hours``, ``ai_takeover``, ``channels`` (the
        channels games may open in; empty: any), ``web`` (links to the web companion's
        pages; turned off, every page of the server's is revoked), ``season_ratings``
        (``carry`` or ``fresh``: how new seasons' ratings begin), ``clock`` and
        ``on_timeout`` (a new table's clock, see :class:`TableClock`). The defaults as
        they are now."""
        if changes.get("clock") is not None or changes.get("on_timeout") is not None:
            TableClock.chosen(changes.get("clock"), changes.get("on_timeout"))
        hours = changes.get("reminder_hours")
        if hours is not None and (not isinstance(hours, int | float) or isinstance(hours, bool)
                                  or not 0 < hours <= MAX_REMINDER_HOURS):
            raise BadReminderHours(most=MAX_REMINDER_HOURS)
        current = await self.store.servers.server_settings(guild_id)
        for key in ("threads", "reminder_hours", "ai_takeover", "channels", "web",
                    "season_ratings", "clock", "on_timeout"):
            value = changes.get(key)
            if value is None:
                continue
            if key == "channels":
                value = sorted({int(c) for c in value})
                current.pop("lapsed", None)  # the managers chose again
            current[key] = value
        await self.store.servers.set_server_settings(guild_id, current, self.clock())
        if changes.get("web") is False:
            await self.store.web.revoke_web_links(self.clock(), guild_id=guild_id)
        return current

    async def lapse_channels(self, guild_id: int, gone: Collection[int]) -> dict[str, Any]:
        """The channels ``gone`` were deleted: those the server let games open in no
        longer limit where games open (with none left, any channel will do). They are
        kept as ``lapsed`` until the managers choose again, so that ``/settings`` tells
        them. The defaults as they are now."""
        current = await self.store.servers.server_settings(guild_id)
        channels = [int(c) for c in current.get("channels") or ()]
        lapsed = [c for c in channels if c in gone]
        if not lapsed:
            return current
        current["channels"] = [c for c in channels if c not in gone]
        current["lapsed"] = sorted({*(int(c) for c in current.get("lapsed") or ()), *lapsed})
        await self.store.servers.set_server_settings(guild_id, current, self.clock())
        return current

    async def lobby(self, game_id: int, channel_id: int | None = None) -> Lobby:
        """The lobby ``game_id`` as it stands."""
        record = await self.pipeline.by_id(game_id, channel_id)
        return Lobby(record=record, game=self.pipeline.game(record.game),
                     closed="" if record.status == "lobby" else "closed")

    async def _edit_lobby(self, game_id: int, channel_id: int | None,
                          change: SeatChange) -> Lobby:
        # Two clicks at once on a lobby button: the loser re-reads and tries again.
        for _ in range(5):
            record = await self.pipeline.by_id(game_id, channel_id)
            if record.status != "lobby":
                raise LobbyClosed()
            game = self.pipeline.game(record.game)
            seats, owner, *rest = change(record, game)
            try:
                record = await self.store.games.set_seats(record.id, record.version, seats,
                                                          self.clock(), creator_id=owner,
                                                          settings=rest[0] if rest else None)
            except ConflictError:
                continue
            return Lobby(record=record, game=game)
        raise AlreadyMade(reason="lobby_busy")

    async def join(self, game_id: int, user_id: int, name: str,
                   channel_id: int | None = None) -> Lobby:
        """Take the next free seat (not for someone the host removed, nor past the
        number of games one person may sit in)."""
        async with self.pipeline.seating:
            return await self._join(game_id, user_id, name, channel_id)

    async def _join(self, game_id: int, user_id: int, name: str,
                    channel_id: int | None) -> Lobby:
        _hosting, seated, _server = await self.store.games.open_counts(user_id, None)

        def change(record: GameRecord, game: Engine) -> tuple[tuple[SeatRecord, ...], None]:
            if seats_of(record, user_id):
                raise AlreadyJoined()
            if user_id in record.settings.get("removed", ()):
                raise RemovedFromLobby()
            if len(record.seats) >= int(record.settings.get("max_seats", game.max_seats)):
                raise LobbyFull()
            if seated >= self.pipeline.limits.games_per_person:
                raise LimitReached(limit="games", allowed=self.pipeline.limits.games_per_person)
            seat = SeatRecord(len(record.seats), user_id, clip_name(name), False)
            return (*record.seats, seat), None

        return await self._edit_lobby(game_id, channel_id, change)

    async def remove_from_lobby(self, game_id: int, host_id: int, target: str,
                                channel_id: int | None = None) -> Lobby:
        """The host removes a seat from the lobby: ``u<user id>`` a player (who may not
        join this lobby again) or ``s<seat>`` an AI seat."""
        def change(record: GameRecord, game: Engine,
                   ) -> tuple[tuple[SeatRecord, ...], None, dict[str, Any]]:
            owner = lobby_owner(record)
            if host_id != owner:
                raise HostOnly(what="remove", host=owner)
            kind, number = target[:1], target[1:]
            if not number.isdigit():
                raise NotInLobby()
            if kind == "u":
                if int(number) == host_id:
                    raise HostCannotRemoveSelf()
                kept = [s for s in record.seats if s.ai or s.user_id != int(number)]
                barred = sorted({*record.settings.get("removed", ()), int(number)})
            elif kind == "s":
                kept = [s for s in record.seats if not (s.ai and s.seat == int(number))]
                barred = list(record.settings.get("removed", ()))
            else:
                raise NotInLobby()
            if len(kept) == len(record.seats):
                raise NotInLobby()
            return renumber(kept), None, {**record.settings, "removed": barred}

        return await self._edit_lobby(game_id, channel_id, change)

    async def leave_lobby(self, game_id: int, user_id: int,
                          channel_id: int | None = None) -> Lobby:
        """Give up a seat before the game starts; the lobby's host hands it on when leaving,
        and a lobby without players closes."""

        def change(record: GameRecord, game: Engine) -> tuple[tuple[SeatRecord, ...], int | None]:
            if not seats_of(record, user_id):
                raise NotJoined()
            kept = renumber([s for s in record.seats if s.user_id != user_id or s.ai])
            heir = None
            if lobby_owner(record) == user_id:
                heir = next((s.user_id for s in kept if not s.ai), None)
            return kept, heir

        lobby = await self._edit_lobby(game_id, channel_id, change)
        if lobby_owner(lobby.record) is None:
            await self.store.games.abort(lobby.record.id, self.clock())
            return Lobby(record=await self.pipeline.by_id(game_id), game=lobby.game, closed="empty")
        return lobby

    async def add_ai(self, game_id: int, user_id: int, channel_id: int | None = None) -> Lobby:
        """Fill the next free seat with an AI player; the host does (a guest filling every
        seat with AIs would take the table from the players invited)."""

        def change(record: GameRecord, game: Engine) -> tuple[tuple[SeatRecord, ...], None]:
            owner = lobby_owner(record)
            if user_id != owner:
                raise HostOnly(what="add_ai", host=owner)
            if len(record.seats) >= int(record.settings.get("max_seats", game.max_seats)):
                raise LobbyFull()
            number = sum(1 for s in record.seats if s.ai) + 1
            return (*record.seats, SeatRecord(len(record.seats), None, f"AI {number}", True)), None

        return await self._edit_lobby(game_id, channel_id, change)

    async def set_ai_level(self, game_id: int, user_id: int, target: str,
                           channel_id: int | None = None) -> Lobby:
        """Set how an AI seat plays: ``target`` is ``s<seat>:<level>``; the host does."""
        seat_text, _, level = target.partition(":")

        def change(record: GameRecord, game: Engine) -> tuple[tuple[SeatRecord, ...], None]:
            owner = lobby_owner(record)
            if user_id != owner:
                raise HostOnly(what="level", host=owner)
            chosen = next((s for s in record.seats if s.ai and f"s{s.seat}" == seat_text), None)
            if chosen is None or level not in AI_LEVELS:
                raise NotInLobby()
            return tuple(dataclasses.replace(s, level=level) if s is chosen else s
                         for s in record.seats), None

        return await self._edit_lobby(game_id, channel_id, change)

    async def cancel_lobby(self, game_id: int, user_id: int, can_manage: bool,
                           channel_id: int | None = None) -> Lobby:
        """Close a lobby: its host, or anyone with Manage Channels."""
        record = await self.pipeline.by_id(game_id, channel_id)
        if record.status != "lobby":
            raise LobbyClosed()
        self.check_may_end(record, user_id, can_manage)
        await self.store.games.abort(record.id, self.clock())
        return Lobby(record=await self.pipeline.by_id(game_id),
                     game=self.pipeline.game(record.game), closed="cancelled")

    async def expire_lobbies(self) -> list[Lobby]:
        """Close the lobbies nobody changed for ``limits.lobby_days``, each with a notice
        to its players queued in the same write (in the channel of its lobby message: a
        thread of its own is archived); the lobbies closed."""
        now = self.clock()
        days = self.pipeline.limits.lobby_days
        closed = []
        for record in await self.store.games.stale_lobbies(now - days * 24 * 3600):
            users = tuple(dict.fromkeys(s.user_id for s in record.seats
                                        if not s.ai and s.user_id is not None))
            notice = Announcement(
                channel_id=record.card_channel_id, guild_id=record.guild_id,
                game_id=record.id, kind="notice", mentions=users,
                data={"about": "expired", "game": record.game, "users": list(users),
                      "days": days, "lobby": record.lobby_message_id})
            try:
                record = await self.store.games.close_lobby(record.id, record.version, now,
                                                            (notice,))
            except (ConflictError, WrongStatusError):
                continue  # someone joined, started or cancelled it meanwhile
            if record.game in self.pipeline.games:
                closed.append(Lobby(record=record, game=self.pipeline.game(record.game),
                                    closed="expired"))
        return closed

    def check_may_end(self, record: GameRecord, user_id: int, can_manage: bool) -> None:
        """Who may end a game without a result (docs/reliability.md, "Ending a game"):
        someone with Manage Channels always; a lobby's host; once the game is under way,
        only its host while still seated, and only while nobody else plays it, so that a
        host who is losing cannot take the others' game from them."""
        if can_manage:
            return
        if record.status == "lobby":
            owner = lobby_owner(record)
            if user_id != owner:
                raise MayNotEnd(host=owner, started=False)
            return
        seated = any(s.user_id == user_id and not s.ai for s in record.seats)
        if user_id != record.creator_id or not seated:
            raise MayNotEnd(host=record.creator_id, started=True)
        others = {s.user_id for s in record.seats
                  if not s.ai and s.user_id is not None and s.user_id != user_id}
        if others:
            raise OthersStillPlaying(players=len(others))

    async def check_start(self, game_id: int, user_id: int,
                          channel_id: int | None = None) -> None:
        """Refuse a start that cannot happen, before anything is posted."""
        record = await self.pipeline.by_id(game_id, channel_id)
        self._startable(record, self.pipeline.game(record.game), user_id)

    def _startable(self, record: GameRecord, game: Engine, user_id: int) -> None:
        if record.status != "lobby":
            raise LobbyClosed()
        check_shown(record)
        owner = lobby_owner(record)
        if user_id != owner:
            raise HostOnly(what="start", host=owner)
        if len(record.seats) < game.min_seats:
            raise NeedMorePlayers(title=game.title, needed=game.min_seats,
                                  joined=len(record.seats))

    async def start(self, game_id: int, user_id: int,
                    channel_id: int | None = None) -> tuple[Lobby, Board]:
        """Deal the game; the lobby's host starts it once enough players have joined."""
        record = await self.pipeline.by_id(game_id, channel_id)
        game = self.pipeline.game(record.game)
        self._startable(record, game, user_id)
        # A level shows wherever the seat's name does, the pictures and narration too.
        seats = tuple(dataclasses.replace(s, name=seat_label(s))
                      for s in renumber(record.seats))
        seed = secrets.randbits(53)

        dealt = dataclasses.replace(record, seats=seats)

        def deal() -> tuple[State, str, tuple[str, ...], tuple[int, ...]]:
            state, events = game.begin([SeatInfo(s.name, s.ai) for s in seats], seed,
                                       record.options)
            said = tuple(e.text for e in events if e.public and e.text)
            # Whoever acts first is pinged, the host who pressed Start included: the
            # first turn is handed to them like any other.
            first = tuple(dict.fromkeys(
                s.user_id for s in self.pipeline.humans_to_act(dealt, game, state)
                if s.user_id is not None))
            return state, dumps(state), said, first

        state, state_json, said, first = await asyncio.to_thread(deal)
        now = self.clock()
        ping, later = self.pipeline.turn_announcement(dealt, game, state, first, None,
                                              *await self.pipeline.reach(first, now))
        begins = Begins(title=game.title, setup=said)
        announce = (*later, *showing(dealt, game, int(state["move"]), news=(begins,),
                                     ping=ping))
        try:
            # Scheduled even when AI seats open the game: should their first moves fail to
            # save, the reminder pass moves them on.
            started = await self.store.games.start(
                record.id, record.version, seed=seed, state_json=state_json, seats=seats,
                now=now, next_reminder_at=now + self.pipeline.interval(record), announce=announce,
                clock=settled(dataclasses.replace(dealt, status="active"), game, state, now,
                              {}))
        except ConflictError:
            raise AlreadyMade(reason="lobby_changed") from None
        # Players to act at the deal are announced with the start; the AI turns that
        # follow announce whoever they hand the turn to.
        ready = await self.pipeline.settled(
            started, game, lambda: self.pipeline.ai_chain(started, game, Plan(state=state)))
        board = await self.pipeline.commit(started, game, ready, news=(begins,))
        board = dataclasses.replace(board, handed=tuple(dict.fromkeys(first + board.handed)))
        return Lobby(record=board.record, game=game, closed="started"), board


def _rematch_refusal(taken: RematchTakenError) -> RematchOpened | RematchOpening:
    """The refusal of a rematch asked when the game has one, or one being opened."""
    if taken.game_id is None:
        return RematchOpening()
    return RematchOpened(game_id=taken.game_id, channel_id=taken.channel_id)
