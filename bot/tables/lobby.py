"""Lobbies: opening one, taking and leaving seats, AI seats, starting and cancelling.

The lobby belongs to whoever opened it while they stay seated; when they leave,
the next seated player takes it over, and a lobby everyone left closes.
"""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
from collections.abc import Callable, Mapping
from typing import Any

from bot.games.engine import Game, SeatInfo, StaleActionError, State, dumps
from bot.store import ChannelBusyError, ConflictError, GameRecord, SeatRecord
from bot.tables.core import (
    DEFAULT_REMINDER_HOURS,
    MAX_REMINDER_HOURS,
    AlreadyMadeError,
    Board,
    Lobby,
    TableError,
    TablesBase,
    _Plan,
    clip_name,
    lobby_owner,
    renumber,
)

#: A change of seats: the new seats, and the new owner if the lobby changes hands.
SeatChange = Callable[[GameRecord, Game], tuple[tuple[SeatRecord, ...], int | None]]


class Lobbies(TablesBase):
    """The lobby part of :class:`~bot.tables.Tables`."""

    async def open_lobby(self, *, channel_id: int, guild_id: int | None, game: str,
                         creator_id: int, creator_name: str, seats: int | None = None,
                         reminder_hours: float | None = None, ai_takeover: bool = False,
                         options: Mapping[str, Any] | None = None) -> Lobby:
        """Open a lobby in the channel with its creator in the first seat."""
        chosen = self.game(game)
        checked = chosen.validate_options(dict(options or {}))
        max_seats = chosen.max_seats if seats is None else seats
        # Discord checks option types; a forged request may still carry any JSON value.
        if (not isinstance(max_seats, int) or isinstance(max_seats, bool)
                or not chosen.min_seats <= max_seats <= chosen.max_seats):
            raise TableError(f"{chosen.title} is for {chosen.min_seats} to {chosen.max_seats} "
                             f"players; `seats` must be in that range.")
        hours = DEFAULT_REMINDER_HOURS if reminder_hours is None else reminder_hours
        if (not isinstance(hours, int | float) or isinstance(hours, bool)
                or not 0 < hours <= MAX_REMINDER_HOURS):
            raise TableError(f"`reminder_hours` must be more than 0 and at most "
                             f"{MAX_REMINDER_HOURS:g}.")
        settings = {"max_seats": max_seats, "reminder_hours": float(hours),
                    "ai_takeover": bool(ai_takeover)}
        now = self.clock()
        try:
            record = await self.store.create_lobby(
                channel_id=channel_id, guild_id=guild_id, game=chosen.slug,
                creator_id=creator_id, options=checked, settings=settings, now=now)
        except ChannelBusyError:
            busy = await self.store.open_game(channel_id)
            raise TableError(self._busy_message(busy)) from None
        seat = SeatRecord(0, creator_id, clip_name(creator_name), False)
        record = await self.store.set_seats(record.id, record.version, (seat,), now)
        return Lobby(record, chosen)

    def _busy_message(self, busy: GameRecord | None) -> str:
        if busy is None:
            return "This channel already has a game. Try again in a moment."
        title = self.game(busy.game).title if busy.game in self._games else busy.game
        stage = "a lobby for" if busy.status == "lobby" else "a game of"
        return (f"This channel already has {stage} {title}: one game per channel. Finish it, "
                f"leave it with `/game leave`, or end it with `/game abort` (its host or "
                f"anyone with Manage Channels). Or start yours in another channel.")

    async def lobby(self, game_id: int, channel_id: int | None = None) -> Lobby:
        """The lobby ``game_id`` as it stands."""
        record = await self._by_id(game_id, channel_id)
        return Lobby(record, self.game(record.game), "" if record.status == "lobby" else "closed")

    async def _edit_lobby(self, game_id: int, channel_id: int | None,
                          change: SeatChange) -> Lobby:
        # Two clicks at once on a lobby button: the loser re-reads and tries again.
        for _ in range(5):
            record = await self._by_id(game_id, channel_id)
            if record.status != "lobby":
                raise StaleActionError("That lobby has closed.")
            game = self.game(record.game)
            seats, owner = change(record, game)
            try:
                record = await self.store.set_seats(record.id, record.version, seats,
                                                    self.clock(), creator_id=owner)
            except ConflictError:
                continue
            return Lobby(record, game)
        raise AlreadyMadeError("The lobby is busy right now; try again.")

    async def join(self, game_id: int, user_id: int, name: str,
                   channel_id: int | None = None) -> Lobby:
        """Take the next free seat."""

        def change(record: GameRecord, game: Game) -> tuple[tuple[SeatRecord, ...], None]:
            if self._seats_of(record, user_id):
                raise TableError("You have already joined this game.")
            if len(record.seats) >= int(record.settings.get("max_seats", game.max_seats)):
                raise TableError("This game is full.")
            seat = SeatRecord(len(record.seats), user_id, clip_name(name), False)
            return (*record.seats, seat), None

        return await self._edit_lobby(game_id, channel_id, change)

    async def leave_lobby(self, game_id: int, user_id: int,
                          channel_id: int | None = None) -> Lobby:
        """Give up a seat before the game starts; the lobby's host hands it on when leaving,
        and a lobby without players closes."""

        def change(record: GameRecord, game: Game) -> tuple[tuple[SeatRecord, ...], int | None]:
            if not self._seats_of(record, user_id):
                raise TableError("You have not joined this game.")
            kept = renumber([s for s in record.seats if s.user_id != user_id or s.ai])
            heir = None
            if lobby_owner(record) == user_id:
                heir = next((s.user_id for s in kept if not s.ai), None)
            return kept, heir

        lobby = await self._edit_lobby(game_id, channel_id, change)
        if lobby_owner(lobby.record) is None:
            await self.store.abort(lobby.record.id, self.clock())
            return Lobby(await self._by_id(game_id), lobby.game, "empty")
        return lobby

    async def add_ai(self, game_id: int, user_id: int, channel_id: int | None = None) -> Lobby:
        """Fill the next free seat with an AI player; any seated player may."""

        def change(record: GameRecord, game: Game) -> tuple[tuple[SeatRecord, ...], None]:
            if not self._seats_of(record, user_id):
                raise TableError("Join the game first; then you can add AI players.")
            if len(record.seats) >= int(record.settings.get("max_seats", game.max_seats)):
                raise TableError("This game is full.")
            number = sum(1 for s in record.seats if s.ai) + 1
            return (*record.seats, SeatRecord(len(record.seats), None, f"AI {number}", True)), None

        return await self._edit_lobby(game_id, channel_id, change)

    async def cancel_lobby(self, game_id: int, user_id: int, can_manage: bool,
                           channel_id: int | None = None) -> Lobby:
        """Close a lobby: its host, or anyone with Manage Channels."""
        record = await self._by_id(game_id, channel_id)
        if record.status != "lobby":
            raise StaleActionError("That lobby has closed.")
        self._check_may_end(record, user_id, can_manage)
        await self.store.abort(record.id, self.clock())
        return Lobby(await self._by_id(game_id), self.game(record.game), "cancelled")

    def _check_may_end(self, record: GameRecord, user_id: int, can_manage: bool) -> None:
        owner = lobby_owner(record) if record.status == "lobby" else record.creator_id
        if user_id != owner and not can_manage:
            host = f"<@{owner}>" if owner else "its host"
            raise TableError(f"Only the game's host ({host}) or someone with the Manage "
                             f"Channels permission can end it.")

    async def check_start(self, game_id: int, user_id: int,
                          channel_id: int | None = None) -> None:
        """Refuse a start that cannot happen, before anything is posted."""
        record = await self._by_id(game_id, channel_id)
        self._startable(record, self.game(record.game), user_id)

    def _startable(self, record: GameRecord, game: Game, user_id: int) -> None:
        if record.status != "lobby":
            raise StaleActionError("That lobby has closed.")
        owner = lobby_owner(record)
        if user_id != owner:
            raise TableError(f"Only <@{owner}>, who hosts this lobby, can start the game.")
        if len(record.seats) < game.min_seats:
            raise TableError(f"{game.title} needs at least {game.min_seats} players; "
                             f"{len(record.seats)} joined. Invite someone or add an AI seat.")

    async def start(self, game_id: int, user_id: int,
                    channel_id: int | None = None) -> tuple[Lobby, Board]:
        """Deal the game; the lobby's host starts it once enough players have joined."""
        record = await self._by_id(game_id, channel_id)
        game = self.game(record.game)
        self._startable(record, game, user_id)
        seats = renumber(record.seats)
        seed = secrets.randbits(53)

        dealt = dataclasses.replace(record, seats=seats)

        def deal() -> tuple[State, str, str, tuple[int, ...]]:
            state, events = game.begin([SeatInfo(s.name, s.ai) for s in seats], seed,
                                       record.options)
            said = " ".join(e.text for e in events if e.public and e.text)
            # Whoever acts first is pinged, the host who pressed Start included: the
            # first turn is handed to them like any other.
            first = tuple(dict.fromkeys(s.user_id for s in self._humans_to_act(dealt, game, state)
                                        if s.user_id is not None))
            return state, dumps(state), said, first

        state, state_json, said, first = await asyncio.to_thread(deal)
        now = self.clock()
        announce = self._turn_announcement(dealt, game, state, first, None,
                                           *await self.reach(first, now))
        try:
            # Scheduled even when AI seats open the game: should their first moves fail to
            # save, the reminder pass moves them on.
            started = await self.store.start(
                record.id, record.version, seed=seed, state_json=state_json, seats=seats,
                now=now, next_reminder_at=now + self._interval(record), announce=announce)
        except ConflictError:
            raise AlreadyMadeError("The lobby changed while you clicked; try again.") from None
        # Players to act at the deal are announced with the start; the AI turns that
        # follow announce whoever they hand the turn to.
        ready = await self._settled(started, game,
                                    lambda: self._ai_chain(started, game,
                                                           _Plan(state)))
        board = await self._commit(started, game, ready,
                                   headline=f"{game.title} begins! {said}".strip())
        board = dataclasses.replace(board, handed=tuple(dict.fromkeys(first + board.handed)))
        return Lobby(board.record, game, "started"), board
