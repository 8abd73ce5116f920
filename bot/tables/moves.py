"""The one move pipeline: a move request is prepared, then committed; the Discord layer
publishes what was committed.

Every surface makes a :class:`MoveRequest` (a typed ``play``, a button, a menu, the
move builder, a click in a thread or a direct message) and hands it to
:meth:`Moves.prepare`, which reads the game, checks the request (the seat, the
decision the button was made for, the notation) and works out the move with the AI
replies it triggers and everything their commit stores, changing nothing; then to
:meth:`Moves.commit`, which stores all of it in one transaction with what it must
announce, and returns the :class:`~bot.tables.core.Board` to show. A refusal is a
:class:`~bot.refusals.Refused` raised by ``prepare`` before anything is stored.

A move carries the token of the decision it was made for (see
:meth:`~bot.tables.core.Pipeline.wire_token`). When another seat's move is saved
first (two players answering a joint decision at once), the move is worked out again
on the new state and saved, as long as its decision is still open for its seat; only a
move made for a situation that is gone is refused.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, cast

from bot.games.engine import Action, Engine, GameError, MultiSelect, State, View, dumps, loads
from bot.organized.clock import Span
from bot.refusals import (
    AlreadyMade,
    CannotUndo,
    NothingToUndo,
    NotPlaying,
    NotYourLastMove,
    NotYourTurn,
    PickCount,
)
from bot.store import ActionRecord, AlreadyDoneError, ConflictError, GameRecord, Lease, Store
from bot.tables.core import (
    COMMIT_ATTEMPTS,
    LOG_LIMIT,
    Board,
    Pipeline,
    Plan,
    Ready,
    StaleToken,
    check_shown,
    seats_of,
    showing,
    wire_token,
)
from bot.tables.news import Undone


@dataclass(frozen=True, kw_only=True)
class MoveRequest:
    """A player asks for a move, from any surface.

    ``text`` is the notation (typed, or carried by a button); a several-at-once menu
    gives ``values`` instead. A button names its game (``game_id``) and the decision it
    was made for (``token``, at move ``offered_at``); a typed move is for the game of
    ``channel_id`` and the decision open when it arrives. ``channel_id`` is where the
    request came from (a channel or a thread): a button of another channel's game is
    refused; ``None`` is a direct message, where only the button's own game counts.
    ``interaction_id`` is saved with the move, so a request delivered twice (here or to
    another process) plays once.
    """

    user_id: int
    text: str = ""
    values: tuple[str, ...] = ()
    game_id: int | None = None
    channel_id: int | None = None
    token: str | int | None = None
    offered_at: int | None = None
    interaction_id: int | None = None


@dataclass(frozen=True, kw_only=True)
class Prepared:
    """A move worked out and not yet stored: the game as it was read, the player's seat,
    the move with the AI replies it triggers and everything their commit stores."""

    request: MoveRequest
    record: GameRecord
    game: Engine
    #: The token the move is tied to (the button's, or the one open when it was typed).
    token: str | int | None
    ready: Ready

    @property
    def view(self) -> View | None:
        """The public view the board will show once the move is committed (a picture of
        it may be begun before the commit: the board shows this very object)."""
        return self.ready.view

    @property
    def edits(self) -> bool:
        """The moves go on with the episode of the board on show: that message is edited
        instead of a new one posted (so the mover's own answer can stay private)."""
        return self.ready.episode is not None and self.record.board_message_id is not None

    @property
    def played(self) -> str:
        """The notation the player played."""
        return self.ready.played


@dataclass(frozen=True, kw_only=True)
class Choosing:
    """A player part-way through choosing a move by clicks: their legal moves now.

    Only ever shown to that player (the move builder's private steps).
    """

    record: GameRecord
    game: Engine
    state: State
    seat: int
    legal: tuple[Action, ...]
    #: The token buttons for ``seat`` carry now.
    token: str
    multi: MultiSelect | None = None
    #: Which of ``legal`` another does as well for less (offered only on asking).
    dominated: frozenset[str] = frozenset()

    @property
    def move(self) -> int:
        return int(self.state["move"])


class Moves:
    """The move pipeline of :class:`~bot.tables.Tables`, and undo."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline
        self.store = pipeline.store
        self.clock = pipeline.clock

    async def prepare(self, request: MoveRequest) -> Prepared:
        """Check ``request`` and work out its move, the AI replies and their commit (in a
        worker thread), storing nothing; refuses what cannot be played.

        A player an AI stands in for is back: the seat is handed back first (that is
        stored at once, as their return). The reads are made in the move's slot too: in a
        burst, the store's reads are taken in turn, and a move's reads queued behind every
        move of the burst would hold its board up as long as their work would.
        """
        async with self.pipeline.working.held():
            record, game = await self._playable(request, first=True)
            if any(s.standing_in for s in seats_of(record, request.user_id)):
                record = (await self.pipeline.hand_back(record, request.user_id)).record
            return await self._prepared(request, record, game, request.token, early=True)

    async def _prepared(self, request: MoveRequest, record: GameRecord, game: Engine,
                        token: str | int | None, early: bool = False) -> Prepared:
        """Work the move out (in the caller's slot): in a worker process when the tables
        have somewhere to offload it and the workers know the game, else in a thread.
        ``early``: its board's picture is begun there as soon as it is worked out (the
        caller shows it: :attr:`Prepared.view`)."""
        from bot.games import GAMES  # the registry the workers have

        now = self.clock()
        pauses = await self.pipeline.clocks.pauses(record, now)
        try:
            if self.pipeline.offload is not None and GAMES.get(game.slug) is game:
                vouched = self.pipeline.vouched(record)
                job = Job(request=request, record=record, token=token, now=now,
                          vouched=vouched, pauses=pauses)
                pinned, ready = await self.pipeline.offload(
                    work_out, job, record.id, draws=board_view if early else None)
                if not vouched:  # the worker found it sound
                    self.pipeline.vouch((record.id, record.version, hash(record.state_json)))
            else:
                pinned, ready = await asyncio.to_thread(self._work, request, record, game,
                                                        token, now, pauses)
        except StaleToken:
            raise await self.pipeline.expired(record, request.offered_at) from None
        return Prepared(request=request, record=record, game=game, token=pinned, ready=ready)

    async def commit(self, prepared: Prepared, lease: Lease | None = None) -> Board:
        """Store the prepared move, its AI replies and what they announce in one
        transaction; the board to show (with ``lease``, its announcement leased to the
        caller in that transaction: see :class:`~bot.store.Lease`).

        If another move was stored first, the move is worked out again on the game as it
        is now (its decision still open for the seat), up to a few times; a move whose
        situation is gone is refused as made by someone else first.
        """
        request, current = prepared.request, prepared
        async with self.pipeline.working.held(finishing=True):
            for attempt in range(COMMIT_ATTEMPTS):
                try:
                    return await self.pipeline.save(current.record, current.game, current.ready,
                                                    episodes=True, mover=request.user_id,
                                                    interaction_id=request.interaction_id,
                                                    lease=lease)
                except AlreadyDoneError:
                    raise AlreadyMade(reason="twice") from None
                except ConflictError:
                    if attempt == COMMIT_ATTEMPTS - 1:
                        break
                try:
                    record, game = await self._playable(request)
                    current = await self._prepared(request, record, game, prepared.token)
                except GameError:
                    # Someone else's move, stored first, settled what this one was for.
                    raise AlreadyMade(reason="raced") from None
        raise AlreadyMade(reason="busy")

    async def play(self, *, user_id: int, text: str = "", channel_id: int | None = None,
                   game_id: int | None = None, expected: str | int | None = None,
                   offered_at: int | None = None, values: Sequence[str] = (),
                   interaction_id: int | None = None) -> Board:
        """:meth:`prepare` then :meth:`commit`, for those who have nothing to do between
        (tools, tests, the AI of another process)."""
        request = MoveRequest(user_id=user_id, text=text, values=tuple(values),
                              game_id=game_id, channel_id=channel_id, token=expected,
                              offered_at=offered_at, interaction_id=interaction_id)
        return await self.commit(await self.prepare(request))

    # ----------------------------------------------------------------- working it out

    async def _playable(self, request: MoveRequest,
                        first: bool = False) -> tuple[GameRecord, Engine]:
        """The game a request is for: the button's, if still on (in the request's channel,
        unless it comes from a direct message), or the channel's. ``first``: the request's
        first reading, which refuses, in the same read, an interaction that already made
        its move (Discord delivered it twice)."""
        made_by = request.interaction_id if first else None
        if request.game_id is None:
            if request.channel_id is None:
                raise NotPlaying()
            record = await self.pipeline.current(request.channel_id, made_by=made_by)
        else:
            record = await self.pipeline.by_id(request.game_id, request.channel_id,
                                               made_by=made_by)
            if record.status != "active":
                raise StaleToken()
        check_shown(record)
        return record, self.pipeline.game(record.game)

    def worked_out(self, job: Job) -> tuple[str | int | None, Ready]:
        """``job``'s move worked out here (see :func:`work_out`): its state taken as sound
        when the bot that sent it already found it so."""
        record = job.record
        if job.vouched:
            self.pipeline.vouch((record.id, record.version, hash(record.state_json)))
        return self._work(job.request, record, self.pipeline.game(record.game), job.token,
                          job.now, job.pauses)

    def _seated(self, record: GameRecord, game: Engine, user_id: int) -> tuple[State, int]:
        """The stored state and the caller's seat that acts in it (runs in a worker thread)."""
        state = self.pipeline.state(record)[1]
        return state, self.pipeline.acting_seat(record, game, state, user_id)

    def _work(self, request: MoveRequest, record: GameRecord, game: Engine,
              token: str | int | None, now: float,
              pauses: Mapping[int, Sequence[Span]] | None = None,
              ) -> tuple[str | int | None, Ready]:
        """Everything of a move that is computation (runs in a worker thread): read the
        state, check the token, the player's move, the AI seats' answers, the commit."""
        state, seat = self._seated(record, game, request.user_id)
        pinned = wire_token(game, state, seat) if token is None else token
        checked = self.pipeline.token_for(game, state, seat, pinned)
        text = (self._picked(game, state, seat, request.values) if request.values
                else request.text)
        plan = Plan(state=state)
        with self.pipeline.watch("engine"):
            outcome = game.apply(state, seat, text, checked)
        self.pipeline.record(plan, record, game, seat, request.user_id, outcome)
        return pinned, self.pipeline.ready(record, game,
                                           self.pipeline.ai_chain(record, game, plan), now,
                                           pauses)

    @staticmethod
    def _picked(game: Engine, state: State, seat: int, values: Sequence[str]) -> str:
        """The notation a several-at-once pick makes; a pick means exactly what was
        picked (no abbreviation may widen it)."""
        menu = game.rules.multi_select(state, seat)
        if menu is None:
            raise StaleToken()
        known = {value for value, _label in menu.options}
        chosen = list(dict.fromkeys(values))
        if any(v not in known for v in chosen):
            raise StaleToken()
        if not menu.min_values <= len(chosen) <= menu.max_values:
            raise PickCount(low=menu.min_values, high=menu.max_values)
        text = menu.notation(chosen)
        game.parse(state, seat, text, exact=True)
        return text

    async def choosing(self, *, user_id: int, game_id: int, channel_id: int | None = None,
                       expected: str | int | None = None,
                       offered_at: int | None = None) -> Choosing:
        """The caller's legal moves in the game ``game_id``, for choosing one by clicks;
        refuses a stale token (saying what happened since ``offered_at``) and a player
        who may not act."""
        request = MoveRequest(user_id=user_id, game_id=game_id, channel_id=channel_id)
        record, game = await self._playable(request)

        def compute() -> Choosing:
            state, seat = self._seated(record, game, user_id)
            self.pipeline.token_for(game, state, seat, expected)
            legal = tuple(game.legal_actions(state, seat))
            if not legal:
                raise NotYourTurn(waiting=self.pipeline.waiting_for(record, game, state))
            return Choosing(record=record, game=game, state=state, seat=seat, legal=legal,
                            token=wire_token(game, state, seat),
                            multi=game.rules.multi_select(state, seat),
                            dominated=game.rules.dominated(state, seat, legal))

        try:
            return await asyncio.to_thread(compute)
        except StaleToken:
            raise await self.pipeline.expired(record, offered_at) from None

    # ----------------------------------------------------------------- undo

    async def check_undo(self, channel_id: int, user_id: int,
                         ) -> tuple[GameRecord, Engine, ActionRecord, list[ActionRecord]]:
        """What ``game undo`` would take back: the caller's last move and the AI moves
        after it. Refuses unless nobody else acted since and nothing was revealed or drawn."""
        record = await self.pipeline.current(channel_id)
        game, _state = await asyncio.to_thread(self.pipeline.state, record)
        if not seats_of(record, user_id):
            raise NotPlaying()
        check_shown(record)
        actions = await self.store.moves.actions(record.id, last=LOG_LIMIT)
        humans = [a for a in actions if a.user_id is not None]
        if not humans:
            raise NothingToUndo()
        last = humans[-1]
        names = {s.seat: s.name for s in record.seats}
        if last.user_id != user_id:
            raise NotYourLastMove(name=names.get(last.seat, ""), shown=last.shown)
        taken = [a for a in actions if a.n >= last.n]
        for action in taken:
            if not action.undoable:
                if action is last:
                    raise CannotUndo(shown=last.shown)
                raise CannotUndo(shown=last.shown,
                                 after=(names.get(action.seat, ""), action.shown))
        if not last.snapshot:
            raise CannotUndo(shown=last.shown, unkept=True)
        return record, game, last, taken

    async def undo(self, channel_id: int, user_id: int) -> Board:
        """Take back the caller's last move and the AI moves that answered it, by restoring
        the state saved before it."""
        record, game, last, taken = await self.check_undo(channel_id, user_id)
        before = await self.store.moves.snapshot(record.id, last.n)
        if before is None:
            raise AlreadyMade(reason="undo")
        state, state_json = await asyncio.to_thread(_restored, before, game)
        name = next((s.name for s in record.seats if s.seat == last.seat), "")
        news = Undone(name=name, shown=last.shown, ai_moves=len(taken) - 1)
        try:
            record = await self.store.moves.undo_to(
                record.id, record.version, n=last.n, state_json=state_json, now=self.clock(),
                announce=showing(record, game, int(state["move"]), news=(news,)))
        except ConflictError:
            raise AlreadyMade(reason="undo") from None
        return await asyncio.to_thread(self.pipeline.board_of, record, game, state, news=(news,))


def _restored(snapshot: str, game: Engine) -> tuple[State, str]:
    """The state an undo goes back to, read and written again as the store keeps states."""
    state = loads(snapshot, game)
    return state, dumps(state)


# --------------------------------------------------------------------------- in a worker


@dataclass(frozen=True, kw_only=True)
class Job:
    """A move to work out in a worker process (:func:`work_out`): the request, the game as
    it was read, the token it is tied to, the time, and whether the bot already found its
    stored state sound (else the worker checks it, as :meth:`Pipeline._state` does)."""

    request: MoveRequest
    record: GameRecord
    token: str | int | None
    now: float
    vouched: bool
    #: What the table's running clocks are not charged for (see :meth:`Clocks.pauses`).
    pauses: Mapping[int, Sequence[Span]] = field(default_factory=dict)


class _NoStore:
    """The store of the tables a worker process works moves out with: it reaches no
    database, so any use of it is a mistake."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError(f"a worker process has no game database (asked for {name})")


@cache
def _worker_moves() -> Moves:
    """This worker process's tables: the registered games, no database, AI seats thinking
    here."""
    return Moves(Pipeline(cast(Store, _NoStore())))


def board_view(worked: tuple[str | int | None, Ready]) -> View | None:
    """The public view the board of a move :func:`work_out` worked out will show."""
    return worked[1].view


def work_out(job: Job) -> tuple[str | int | None, Ready]:
    """In a worker process: what :meth:`Moves._work` gives for ``job``, or the refusal it
    raises (pickled back to the bot)."""
    return _worker_moves().worked_out(job)
