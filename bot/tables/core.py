"""The game tables: everything a channel's game does, without Discord.

The Discord layer turns slash commands and button clicks into calls on
:class:`Tables` and turns the reports it returns into messages. Every change is
committed to the store before anything is reported, so whatever happens to the
message afterwards, the game is saved.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.engine import (
    Action,
    Game,
    GameError,
    Outcome,
    Result,
    SeatInfo,
    StaleActionError,
    State,
    View,
    dumps,
    loads,
    normalise,
)
from bot.store import (
    ChannelBusyError,
    ConflictError,
    CorruptRowError,
    FinishRecord,
    GameRecord,
    MoveRecord,
    SeatRecord,
    StatLine,
    Store,
)

log = logging.getLogger(__name__)

DEFAULT_REMINDER_HOURS = 24.0
MAX_REMINDER_HOURS = 24.0 * 14
MAX_REMINDERS = 3
#: A safety net against a game whose AI seats never hand the turn back.
MAX_AI_STEPS = 500
#: Discord shows at most 25 autocomplete suggestions and 25 select options.
MAX_SUGGESTIONS = 25
LOG_LIMIT = 50

Clock = Callable[[], float]


class TableError(GameError):
    """Something a player did that the table refuses; ``str()`` is safe to show them."""


class AlreadyMadeError(TableError):
    """Another move was committed first; this one was not applied."""


# --------------------------------------------------------------------------- reports


@dataclass(frozen=True)
class Step:
    """One applied action, as the channel should hear about it."""

    seat: int
    name: str
    notation: str
    events: tuple[str, ...]
    by_ai: bool


@dataclass(frozen=True)
class Board:
    """The public picture of a game after a change: what the channel is shown."""

    record: GameRecord
    game: Game
    state: State
    view: View
    headline: str = ""
    steps: tuple[Step, ...] = ()
    #: Seats that must act next, and the Discord users among them.
    to_act: tuple[int, ...] = ()
    mentions: tuple[int, ...] = ()
    #: Buttons for a common choice of the single human who acts next (public games only).
    choices: tuple[Action, ...] = ()
    result: Result | None = None
    #: ``(seat name, place, score)`` in ranking order once the game is over.
    ranking: tuple[tuple[str, int, int], ...] = ()

    @property
    def move(self) -> int:
        return int(self.state["move"])

    @property
    def finished(self) -> bool:
        return self.record.status in ("finished", "aborted")


@dataclass(frozen=True)
class Lobby:
    """A lobby as the channel sees it."""

    record: GameRecord
    game: Game
    closed: str = ""  # why the lobby message no longer takes clicks ("" while open)


@dataclass(frozen=True)
class Hand:
    """A player's private view: only ever sent ephemerally to ``user_id``."""

    record: GameRecord
    game: Game
    seat: int
    view: View
    legal: tuple[Action, ...]
    choices: tuple[Action, ...]
    move: int


@dataclass(frozen=True)
class Status:
    """Where a game stands, for ``/game status``."""

    record: GameRecord
    game: Game
    summary: str
    to_act: tuple[tuple[str, int | None], ...]  # (seat name, user id)
    scores: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Reminder:
    """A ping for the players who have not acted."""

    record: GameRecord
    game: Game
    mentions: tuple[int, ...]
    number: int
    last: bool
    takeover_at: float | None


@dataclass(frozen=True)
class Conceded:
    """What ``/game leave`` did: either the game goes on (``board``) or it ended."""

    name: str
    board: Board


@dataclass
class _Plan:
    """Moves computed but not yet committed."""

    state: State
    moves: list[MoveRecord] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)


# --------------------------------------------------------------------------- the service


class Tables:
    """The service layer over a :class:`~bot.store.Store` and the game registry."""

    def __init__(self, store: Store, games: Mapping[str, Game] | None = None,
                 clock: Clock = time.time) -> None:
        if games is None:
            from bot.games import GAMES

            games = GAMES
        self.store = store
        self._games = games
        self.clock = clock

    # ----------------------------------------------------------------- helpers

    def game(self, slug: str) -> Game:
        """The registered game called ``slug``."""
        try:
            return self._games[slug]
        except KeyError:
            known = ", ".join(sorted(self._games)) or "none"
            raise TableError(f"There is no game called {slug!r}. Games: {known}.") from None

    @property
    def games(self) -> Mapping[str, Game]:
        return self._games

    async def _current(self, channel_id: int, *, active: bool = True) -> GameRecord:
        record = await self.store.open_game(channel_id)
        if record is None:
            raise TableError("There is no game in this channel. Start one with `/game new`.")
        if active and record.status != "active":
            raise TableError("This game has not started yet: use the lobby's Start button.")
        return record

    async def _by_id(self, game_id: int) -> GameRecord:
        record = await self.store.get_game(game_id)
        if record is None:
            raise StaleActionError("That choice has expired: this game no longer exists.")
        return record

    def _state(self, record: GameRecord) -> tuple[Game, State]:
        game = self.game(record.game)
        return game, loads(record.state_json or "", game)

    def _interval(self, record: GameRecord) -> float:
        hours = float(record.settings.get("reminder_hours", DEFAULT_REMINDER_HOURS))
        return hours * 3600.0

    def _humans_to_act(self, record: GameRecord, game: Game, state: State) -> list[SeatRecord]:
        acting = game.to_act(state)
        return [s for s in record.seats if s.seat in acting and not s.ai]

    def _next_reminder(self, record: GameRecord, game: Game, state: State,
                       now: float) -> float | None:
        if not self._humans_to_act(record, game, state):
            return None
        return now + self._interval(record)

    @staticmethod
    def _seats_of(record: GameRecord, user_id: int) -> list[SeatRecord]:
        return [s for s in record.seats if s.user_id == user_id and not s.ai]

    def _waiting_for(self, record: GameRecord, game: Game, state: State) -> str:
        acting = sorted(game.to_act(state))
        names = [s.name for s in record.seats if s.seat in acting]
        return " or ".join(names) or "nobody"

    # ----------------------------------------------------------------- lobby

    async def open_lobby(self, *, channel_id: int, guild_id: int | None, game: str,
                         creator_id: int, creator_name: str, seats: int | None = None,
                         reminder_hours: float | None = None, ai_takeover: bool = False,
                         options: Mapping[str, Any] | None = None) -> Lobby:
        """Open a lobby in the channel with its creator in the first seat."""
        chosen = self.game(game)
        checked = chosen.validate_options(dict(options or {}))
        max_seats = chosen.max_seats if seats is None else int(seats)
        if not chosen.min_seats <= max_seats <= chosen.max_seats:
            raise TableError(f"{chosen.title} is for {chosen.min_seats} to {chosen.max_seats} "
                             f"players; `seats` must be in that range.")
        hours = DEFAULT_REMINDER_HOURS if reminder_hours is None else float(reminder_hours)
        if not 0 < hours <= MAX_REMINDER_HOURS:
            raise TableError(f"`reminder_hours` must be more than 0 and at most "
                             f"{MAX_REMINDER_HOURS:g}.")
        settings = {"max_seats": max_seats, "reminder_hours": hours,
                    "ai_takeover": bool(ai_takeover)}
        now = self.clock()
        try:
            record = await self.store.create_lobby(
                channel_id=channel_id, guild_id=guild_id, game=chosen.slug,
                creator_id=creator_id, options=checked, settings=settings, now=now)
        except ChannelBusyError:
            busy = await self.store.open_game(channel_id)
            raise TableError(self._busy_message(busy)) from None
        seat = SeatRecord(0, creator_id, _clip_name(creator_name), False)
        record = await self.store.set_seats(record.id, record.version, (seat,), now)
        return Lobby(record, chosen)

    def _busy_message(self, busy: GameRecord | None) -> str:
        if busy is None:
            return "This channel already has a game. Try again in a moment."
        title = self.game(busy.game).title if busy.game in self._games else busy.game
        stage = "a lobby for" if busy.status == "lobby" else "a game of"
        return (f"This channel already has {stage} {title}: one game per channel. Finish it, "
                f"leave it with `/game leave`, or end it with `/game abort` (its creator or "
                f"anyone with Manage Channels). Or start yours in another channel.")

    async def lobby(self, game_id: int) -> Lobby:
        """The lobby ``game_id`` as it stands."""
        record = await self._by_id(game_id)
        return Lobby(record, self.game(record.game), "" if record.status == "lobby" else "closed")

    async def _edit_lobby(self, game_id: int,
                          change: Callable[[GameRecord, Game], tuple[SeatRecord, ...]]) -> Lobby:
        # Two clicks at once on a lobby button: the loser re-reads and tries again.
        for _ in range(5):
            record = await self._by_id(game_id)
            if record.status != "lobby":
                raise StaleActionError("That lobby has closed.")
            game = self.game(record.game)
            seats = change(record, game)
            try:
                record = await self.store.set_seats(record.id, record.version, seats, self.clock())
            except ConflictError:
                continue
            return Lobby(record, game)
        raise AlreadyMadeError("The lobby is busy right now; try again.")

    async def join(self, game_id: int, user_id: int, name: str) -> Lobby:
        """Take the next free seat."""

        def change(record: GameRecord, game: Game) -> tuple[SeatRecord, ...]:
            if self._seats_of(record, user_id):
                raise TableError("You have already joined this game.")
            if len(record.seats) >= int(record.settings.get("max_seats", game.max_seats)):
                raise TableError("This game is full.")
            return (*record.seats, SeatRecord(len(record.seats), user_id, _clip_name(name), False))

        return await self._edit_lobby(game_id, change)

    async def leave_lobby(self, game_id: int, user_id: int) -> Lobby:
        """Give up a seat before the game starts."""

        def change(record: GameRecord, game: Game) -> tuple[SeatRecord, ...]:
            if not self._seats_of(record, user_id):
                raise TableError("You have not joined this game.")
            kept = [s for s in record.seats if s.user_id != user_id or s.ai]
            return _renumber(kept)

        return await self._edit_lobby(game_id, change)

    async def add_ai(self, game_id: int, user_id: int) -> Lobby:
        """Fill the next free seat with an AI player; any seated player may."""

        def change(record: GameRecord, game: Game) -> tuple[SeatRecord, ...]:
            if not self._seats_of(record, user_id) and user_id != record.creator_id:
                raise TableError("Join the game first; then you can add AI players.")
            if len(record.seats) >= int(record.settings.get("max_seats", game.max_seats)):
                raise TableError("This game is full.")
            number = sum(1 for s in record.seats if s.ai) + 1
            return (*record.seats, SeatRecord(len(record.seats), None, f"AI {number}", True))

        return await self._edit_lobby(game_id, change)

    async def cancel_lobby(self, game_id: int, user_id: int, can_manage: bool) -> Lobby:
        """Close a lobby: its creator, or anyone with Manage Channels."""
        record = await self._by_id(game_id)
        if record.status != "lobby":
            raise StaleActionError("That lobby has closed.")
        self._check_may_end(record, user_id, can_manage)
        await self.store.abort(record.id, self.clock())
        return Lobby(await self._by_id(game_id), self.game(record.game), "cancelled")

    async def start(self, game_id: int, user_id: int) -> tuple[Lobby, Board]:
        """Deal the game; the creator starts it once enough players have joined."""
        record = await self._by_id(game_id)
        if record.status != "lobby":
            raise StaleActionError("That lobby has closed.")
        game = self.game(record.game)
        if user_id != record.creator_id:
            raise TableError("Only the player who opened the lobby can start the game.")
        if len(record.seats) < game.min_seats:
            raise TableError(f"{game.title} needs at least {game.min_seats} players; "
                             f"{len(record.seats)} joined. Invite someone or add an AI seat.")
        seats = _renumber(record.seats)
        seed = secrets.randbits(53)
        state = game.new([SeatInfo(s.name, s.ai) for s in seats], seed, record.options)
        now = self.clock()
        humans_first = any(not s.ai and s.seat in game.to_act(state) for s in seats)
        try:
            started = await self.store.start(
                record.id, record.version, seed=seed, state_json=dumps(state), seats=seats,
                now=now, next_reminder_at=now + self._interval(record) if humans_first else None)
        except ConflictError:
            raise AlreadyMadeError("The lobby changed while you clicked; try again.") from None
        plan = await asyncio.to_thread(self._ai_chain, started, game, _Plan(state))
        board = await self._commit(started, game, plan, headline=f"{game.title} begins!")
        return Lobby(board.record, game, "started"), board

    # ----------------------------------------------------------------- playing

    async def play(self, *, channel_id: int, user_id: int, text: str,
                   game_id: int | None = None, expected_move: int | None = None) -> Board:
        """Apply a typed or clicked action, then any AI turns that follow; commit them at once."""
        if game_id is None:
            record = await self._current(channel_id)
        else:
            record = await self._by_id(game_id)
            if record.status != "active":
                raise StaleActionError("That choice has expired: this game is over.")
        game, state = self._state(record)
        mine = self._seats_of(record, user_id)
        if not mine:
            raise TableError(f"You are not playing in this game. It is "
                             f"{self._waiting_for(record, game, state)}'s turn.")
        if expected_move is not None and expected_move != state["move"]:
            raise StaleActionError("That choice has expired: a move was already made since it "
                                   "was offered.")
        acting = game.to_act(state)
        seat = next((s.seat for s in mine if s.seat in acting), mine[0].seat)

        def work() -> _Plan:
            outcome = game.apply(state, seat, text, expected_move)
            plan = _Plan(outcome.state)
            self._record(plan, record, seat, user_id, outcome)
            return self._ai_chain(record, game, plan)

        plan = await asyncio.to_thread(work)
        return await self._commit(record, game, plan)

    def _record(self, plan: _Plan, record: GameRecord, seat: int, user_id: int | None,
                outcome: Outcome) -> None:
        seat_record = next(s for s in record.seats if s.seat == seat)
        events = tuple(e.text for e in outcome.events)
        narration = " ".join(events)
        plan.state = outcome.state
        plan.moves.append(MoveRecord(seat, user_id, outcome.action.notation, narration,
                                     outcome.undoable))
        plan.steps.append(Step(seat, seat_record.name, outcome.action.notation, events,
                               user_id is None))

    def _ai_chain(self, record: GameRecord, game: Game, plan: _Plan) -> _Plan:
        """Let AI seats act until a human must (runs in a worker thread)."""
        ai_seats = {s.seat for s in record.seats if s.ai}
        for _ in range(MAX_AI_STEPS):
            acting = sorted(game.to_act(plan.state) & ai_seats)
            if not acting:
                break
            seat = acting[0]
            action = game.ai_action(plan.state, seat)
            self._record(plan, record, seat, None, game.apply(plan.state, seat, action))
        return plan

    async def _commit(self, record: GameRecord, game: Game, plan: _Plan, *,
                      headline: str = "") -> Board:
        """Commit the planned moves in one transaction and describe the result."""
        now = self.clock()
        if plan.moves:
            before = loads(record.state_json, game)
            turn_changed = game.to_act(before) != game.to_act(plan.state)
            result = game.result(plan.state)
            finish = None
            if result is not None:
                finish = FinishRecord(dumps_result(result), _placements(record, result))
            try:
                record = await self.store.commit_moves(
                    record.id, record.version, plan.moves, state_json=dumps(plan.state),
                    now=now, turn_changed=turn_changed,
                    next_reminder_at=self._next_reminder(record, game, plan.state, now),
                    finish=finish)
            except ConflictError:
                raise AlreadyMadeError(
                    "That move was already made: another action reached the game first, so "
                    "yours was not applied. See `/game board`.") from None
        return self.board_of(record, game, plan.state, headline=headline, steps=plan.steps)

    def board_of(self, record: GameRecord, game: Game, state: State, *, headline: str = "",
                 steps: Sequence[Step] = ()) -> Board:
        """Describe ``state`` publicly: the view, who acts next, their quick choices."""
        result = game.result(state)
        acting = tuple(sorted(game.to_act(state))) if record.status == "active" else ()
        humans = [s for s in record.seats if s.seat in acting and not s.ai]
        mentions = tuple(dict.fromkeys(s.user_id for s in humans if s.user_id is not None))
        choices: tuple[Action, ...] = ()
        if len(humans) == 1 and not game.has_hidden_information:
            choices = tuple(game.quick_choices(state, humans[0].seat)[:MAX_SUGGESTIONS])
        ranking: tuple[tuple[str, int, int], ...] = ()
        if result is not None:
            ranking = _ranking(record, result)
        return Board(record, game, state, game.view(state, None), headline, tuple(steps),
                     acting, mentions, choices, result, ranking)

    def suggestions(self, record: GameRecord | None, user_id: int,
                    typed: str) -> list[tuple[str, str]]:
        """Autocomplete for ``/play``: ``(label, notation)`` pairs, most useful first."""
        if record is None or record.status != "active":
            return []
        game, state = self._state(record)
        acting = game.to_act(state)
        seats = [s.seat for s in self._seats_of(record, user_id) if s.seat in acting]
        if not seats:
            return []
        needle = normalise(typed)
        ranked: list[Action] = []
        for seat in seats:
            ranked.extend(game.rank_actions(state, seat, game.legal_actions(state, seat)))
        starts = [a for a in ranked if a.notation.startswith(needle)]
        contains = [a for a in ranked if a not in starts
                    and (needle in a.notation or needle in normalise(a.label))]
        out: list[tuple[str, str]] = []
        for action in starts + contains:
            if len(action.notation) > 100:
                continue
            label = action.label or action.notation
            if action.label and action.notation not in action.label:
                label = f"{action.notation}: {action.label}"
            out.append((_clip(label, 100), action.notation))
            if len(out) == MAX_SUGGESTIONS:
                break
        return out

    async def suggest(self, channel_id: int, user_id: int, typed: str) -> list[tuple[str, str]]:
        """Autocomplete for the game in ``channel_id``."""
        record = await self.store.open_game(channel_id)
        return await asyncio.to_thread(self.suggestions, record, user_id, typed)

    # ----------------------------------------------------------------- undo, leave, abort

    async def undo(self, channel_id: int, user_id: int) -> Board:
        """Take back the caller's last action if nobody acted since and it revealed nothing."""
        record = await self._current(channel_id)
        game, _state = self._state(record)
        if not self._seats_of(record, user_id):
            raise TableError("You are not playing in this game.")
        actions = await self.store.actions(record.id)
        if not actions:
            raise TableError("There is nothing to undo yet.")
        last = actions[-1]
        if last.user_id != user_id:
            mover = next((s.name for s in record.seats if s.seat == last.seat), "another seat")
            raise TableError(f"You can only undo your own last action, and only before anyone "
                             f"else acts. The last action was {mover}'s `{last.notation}`.")
        if not last.undoable:
            raise TableError(f"`{last.notation}` cannot be taken back: it revealed something "
                             f"new (a random draw or hidden information).")
        seats = [SeatInfo(s["name"], bool(s["ai"])) for s in _state["seats"]]
        log = [(a.seat, a.notation) for a in actions[:-1]]
        state = await asyncio.to_thread(game.replay, seats, record.seed, record.options, log)
        try:
            record = await self.store.undo_last(record.id, record.version,
                                                state_json=dumps(state), now=self.clock())
        except ConflictError:
            raise AlreadyMadeError("The game moved on before your undo arrived; nothing was "
                                   "taken back.") from None
        name = next((s.name for s in record.seats if s.seat == last.seat), "")
        return self.board_of(record, game, state,
                             headline=f"{name} took back `{last.notation}`.")

    async def concede(self, channel_id: int, user_id: int) -> Conceded | Lobby:
        """``/game leave``: leave a lobby, or hand your seat to an AI (the game ends if no
        humans remain)."""
        record = await self._current(channel_id, active=False)
        if record.status == "lobby":
            return await self.leave_lobby(record.id, user_id)
        game, state = self._state(record)
        mine = self._seats_of(record, user_id)
        if not mine:
            raise TableError("You are not playing in this game.")
        name = mine[0].name
        now = self.clock()
        try:
            for seat in mine:
                replaced = SeatRecord(seat.seat, None, _clip_name(f"{seat.name} (AI)"), True)
                record = await self.store.replace_seat(record.id, record.version, replaced, now)
        except ConflictError:
            raise AlreadyMadeError("The game changed while you were leaving; try again.") from None
        if any(not s.ai for s in record.seats):
            plan = await asyncio.to_thread(self._ai_chain, record, game, _Plan(state))
            board = await self._commit(record, game, plan,
                                       headline=f"{name} left the game; an AI took their seat.")
            return Conceded(name, board)
        # Nobody human is left: the game ends, with the leaver placed last.
        leavers = tuple(m.seat for m in mine)
        others = tuple(s.seat for s in record.seats if s.seat not in leavers)
        ranking = (others, leavers) if others else (leavers,)
        result = Result(ranking, game.scores(state), f"{name} conceded.")
        placements = [(user_id if s.seat in leavers else None, s.seat,
                       result.place_of(s.seat), s.seat in result.winners and bool(others))
                      for s in record.seats]
        record = await self.store.finish(record.id, record.version, state_json=dumps(state),
                                         result_json=dumps_result(result),
                                         placements=placements, now=now)
        board = self.board_of(record, game, state, headline=f"{name} left the game, and no "
                              "players remain: the game is over.")
        return Conceded(name, board)

    async def abort(self, channel_id: int, user_id: int, can_manage: bool) -> GameRecord | None:
        """End the channel's game without a result: its creator, or Manage Channels.

        A game whose row is damaged cannot name its creator, so only someone with
        Manage Channels may end it; ``None`` is returned for such a game.
        """
        try:
            record = await self._current(channel_id, active=False)
        except CorruptRowError as err:
            if not can_manage:
                raise TableError(f"{err} Ending it takes the Manage Channels permission.") from None
            await self.store.abort(err.game_id, self.clock())
            return None
        self._check_may_end(record, user_id, can_manage)
        await self.store.abort(record.id, self.clock())
        return record

    def _check_may_end(self, record: GameRecord, user_id: int, can_manage: bool) -> None:
        if user_id != record.creator_id and not can_manage:
            raise TableError(f"Only the game's creator (<@{record.creator_id}>) or someone with "
                             f"the Manage Channels permission can end it.")

    # ----------------------------------------------------------------- looking

    async def board(self, channel_id: int) -> Board:
        """The current public board of the channel's game."""
        record = await self._current(channel_id)
        game, state = self._state(record)
        return self.board_of(record, game, state)

    async def hand(self, channel_id: int, user_id: int) -> Hand:
        """The caller's private view: only for their own eyes."""
        record = await self._current(channel_id)
        game, state = self._state(record)
        mine = self._seats_of(record, user_id)
        if not mine:
            raise TableError("You are not playing in this game, so you have no hand to see.")
        acting = game.to_act(state)
        seat = next((s.seat for s in mine if s.seat in acting), mine[0].seat)
        legal = tuple(game.legal_actions(state, seat))
        choices = tuple(game.quick_choices(state, seat)[:MAX_SUGGESTIONS]) if legal else ()
        return Hand(record, game, seat, game.view(state, seat), legal, choices,
                    int(state["move"]))

    async def status(self, channel_id: int) -> Status:
        """Whose turn, since when, and the scores."""
        record = await self._current(channel_id)
        game, state = self._state(record)
        acting = game.to_act(state)
        to_act = tuple((s.name, s.user_id) for s in record.seats if s.seat in acting)
        scores = game.scores(state)
        named = tuple((s.name, int(scores.get(s.seat, 0))) for s in record.seats)
        return Status(record, game, game.summary(state), to_act, named)

    async def log(self, channel_id: int, last: int = 10) -> tuple[GameRecord, list[Any]]:
        """The last ``last`` actions, oldest first."""
        record = await self._current(channel_id, active=False)
        if record.status == "lobby":
            raise TableError("This game has not started yet, so nothing has been played.")
        last = max(1, min(LOG_LIMIT, int(last)))
        return record, await self.store.actions(record.id, last=last)

    async def replay_views(self, channel_id: int, max_frames: int = 80) -> tuple[Game, list[View]]:
        """Public views of every position so far (thinned to ``max_frames``), for the GIF."""
        record = await self._current(channel_id)
        game, state = self._state(record)
        actions = await self.store.actions(record.id)
        seats = [SeatInfo(s["name"], bool(s["ai"])) for s in state["seats"]]

        def build() -> list[View]:
            current = game.new(seats, record.seed, record.options)
            views = [game.view(current, None)]
            for action in actions:
                current = game.apply(current, action.seat, action.notation).state
                views.append(game.view(current, None))
            if len(views) > max_frames:
                step = len(views) / max_frames
                views = [views[int(i * step)] for i in range(max_frames - 1)] + [views[-1]]
            return views

        return game, await asyncio.to_thread(build)

    async def stats(self, guild_id: int | None, user_id: int) -> list[tuple[str, StatLine]]:
        """``(game title, line)`` per game the user played in this server."""
        lines = await self.store.stats(guild_id, user_id)
        return [(self._games[s.game].title if s.game in self._games else s.game, s)
                for s in lines]

    # ----------------------------------------------------------------- reminders

    async def due(self) -> list[Reminder | Board]:
        """Send what is due: reminders, and AI moves after the last one where enabled.

        Every reminder is marked in the store before it is reported, so a restart
        or a second bot never sends the same one twice.
        """
        now = self.clock()
        out: list[Reminder | Board] = []
        for record in await self.store.due_reminders(now):
            try:
                item = await self._due_one(record, now)
            except Exception:
                # One broken game must not hold up every other channel's reminders.
                log.exception("reminder for game %s in channel %s failed", record.id,
                              record.channel_id)
                continue
            if item is not None:
                out.append(item)
        return out

    async def _due_one(self, record: GameRecord, now: float) -> Reminder | Board | None:
        if record.status != "active":
            return None
        game, state = self._state(record)
        humans = self._humans_to_act(record, game, state)
        takeover = bool(record.settings.get("ai_takeover", False))
        if not humans:
            await self.store.mark_reminded(record.id, record.version,
                                           reminders_sent=record.reminders_sent,
                                           next_reminder_at=None)
            return None
        if record.reminders_sent < MAX_REMINDERS:
            number = record.reminders_sent + 1
            last = number >= MAX_REMINDERS
            nxt = now + self._interval(record) if (not last or takeover) else None
            if not await self.store.mark_reminded(record.id, record.version,
                                                  reminders_sent=number, next_reminder_at=nxt):
                return None
            mentions = tuple(dict.fromkeys(s.user_id for s in humans if s.user_id is not None))
            return Reminder(record, game, mentions, number, last,
                            nxt if last and takeover else None)
        if not takeover:
            await self.store.mark_reminded(record.id, record.version,
                                           reminders_sent=record.reminders_sent,
                                           next_reminder_at=None)
            return None
        return await self._take_over(record, game, state, humans)

    async def _take_over(self, record: GameRecord, game: Game, state: State,
                         humans: list[SeatRecord]) -> Board | None:
        def work() -> _Plan:
            plan = _Plan(state)
            for seat in humans:
                if seat.seat in game.to_act(plan.state):
                    action = game.ai_action(plan.state, seat.seat)
                    self._record(plan, record, seat.seat, None,
                                 game.apply(plan.state, seat.seat, action))
            return self._ai_chain(record, game, plan)

        plan = await asyncio.to_thread(work)
        names = ", ".join(s.name for s in humans)
        try:
            return await self._commit(record, game, plan, headline=(
                f"No move from {names} after {MAX_REMINDERS} reminders: the AI played for them."))
        except AlreadyMadeError:
            return None


# --------------------------------------------------------------------------- small helpers


def dumps_result(result: Result) -> str:
    """The stored form of a result."""
    import json

    return json.dumps(result.to_json(), sort_keys=True)


def _placements(record: GameRecord, result: Result) -> list[tuple[int | None, int, int, bool]]:
    return [(s.user_id, s.seat, result.place_of(s.seat), s.seat in result.winners)
            for s in record.seats]


def _ranking(record: GameRecord, result: Result) -> tuple[tuple[str, int, int], ...]:
    names = {s.seat: s.name for s in record.seats}
    rows = []
    for group in result.ranking:
        for seat in group:
            rows.append((names.get(seat, f"Seat {seat + 1}"), result.place_of(seat),
                         int(result.scores.get(seat, 0))))
    return tuple(rows)


def _renumber(seats: Sequence[SeatRecord]) -> tuple[SeatRecord, ...]:
    return tuple(SeatRecord(i, s.user_id, s.name, s.ai) for i, s in enumerate(seats))


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _clip_name(name: str) -> str:
    return _clip(" ".join(name.split()) or "Player", 32)
