"""What every part of the tables service shares: reports, errors, loading and committing.

The Discord layer turns slash commands and button clicks into calls on
:class:`~bot.tables.Tables` and turns the reports defined here into messages.
Every change is committed to the store before anything is reported, so whatever
happens to the message afterwards, the game is saved.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from bot.away import AwayError, QuietHours, Vacation, away_until
from bot.games.engine import (
    AI_LEVELS,
    ALERT,
    Action,
    CardText,
    CorruptStateError,
    Engine,
    GameError,
    MultiSelect,
    Outcome,
    Result,
    RulesVersionError,
    SeatInfo,
    StaleActionError,
    State,
    View,
    dumps,
    loads,
)
from bot.games.words import plural, standing_in
from bot.limits import Limits
from bot.refusals import (
    AlreadyMade,
    Damaged,
    ElsewhereButton,
    Expired,
    GameGone,
    Held,
    NoGameHere,
    NoSuchGame,
    NotPlaying,
    NotStarted,
    Refused,
    Said,
)
from bot.store import (
    ActionRecord,
    Announcement,
    ClockWrite,
    ConflictError,
    FinishRecord,
    GameRecord,
    Lease,
    MoveRecord,
    NotFoundError,
    SeatRecord,
    Store,
)
from bot.tables.news import Back, News, as_data
from bot.tables.timed import settled, shown
from bot.watch import Watch, unwatched

if TYPE_CHECKING:
    from bot.organized.clock import Span

log = logging.getLogger(__name__)

DEFAULT_REMINDER_HOURS = 24.0
MAX_REMINDER_HOURS = 24.0 * 14
MAX_REMINDERS = 3
#: A safety net against a game whose AI seats never hand the turn back.
MAX_AI_STEPS = 500
#: How the AI plays for an absent player unless the table says otherwise: at its best,
#: so that the player comes back to a position worth having.
STAND_IN_LEVEL = "strong"
#: Discord shows at most 25 autocomplete suggestions and 25 select options.
MAX_SUGGESTIONS = 25
LOG_LIMIT = 50
#: How often a move is re-applied when another seat's move was saved first.
COMMIT_ATTEMPTS = 5
#: Moves worked out and committed at the same time; the next wait their turn. The work
#: is the interpreter's (one lock), so running fifty at once finishes them all late
#: together; in turn, the first player of a burst sees their board first.
MOVES_AT_ONCE = 4
#: How many moves "Since your last turn" lists before pointing at ``game log``.
SINCE_LIMIT = 12
#: How many games' states a process remembers as checked (200 bytes each): more than
#: the games under way of a large bot, so that the check of :meth:`Pipeline.state`
#: runs once per game and process rather than once per move when moves of thousands of
#: games take turns (a set of 4,096 states, emptied when full, checked nearly every move).
SOUND_GAMES = 50_000

Clock = Callable[[], float]
T = TypeVar("T")
#: Told of moves just committed: the game's slug, how many players and AI seats made.
MovesHook = Callable[[str, int, int], None]
#: How an AI seat's move is chosen: ``think(game, state, seat, level)``, by default
#: :meth:`Engine.ai_action` in the calling thread (the bot hands it to its worker processes).
Think = Callable[[Engine, State, int, str], Action]


class Offload(Protocol):
    """Where a move is worked out: ``offload(work, job, key)`` runs ``work(job)`` (a
    module's function and a job it can pickle) in another process and awaits what it
    returns or raises; ``key`` (the game's id) sends a game's work where its caches are
    warm. With ``draws`` (a module's function giving the view to draw from what ``work``
    gives, or ``None``), the picture of that view may be begun there at once (the render
    pool's). Without one, moves are worked out in a thread of the bot's own process."""

    def __call__(self, work: Callable[[Any], Any], job: Any, key: int, /,
                 draws: Callable[[Any], Any] | None = None) -> Awaitable[Any]: ...


class Slots:
    """At most ``size`` moves worked on at once (:data:`MOVES_AT_ONCE`), the others waiting
    in turn; a move already worked out that waits to be committed goes before the moves not
    yet begun.

    Without that order a burst is answered all at once at its end: the first move, worked
    out, would wait to commit behind every move of the burst that arrived after it.
    """

    def __init__(self, size: int) -> None:
        self._free = size
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._arrived = itertools.count()

    @asynccontextmanager
    async def held(self, *, finishing: bool = False) -> AsyncIterator[None]:
        """A slot for the block; ``finishing`` moves (committing) are let in first."""
        await self._take(0 if finishing else 1)
        try:
            yield
        finally:
            self._give()

    async def _take(self, rank: int) -> None:
        if self._free and not self._waiting:
            self._free -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (rank, next(self._arrived), turn))
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._give()  # handed a slot just as the wait was called off: pass it on
            raise

    def _give(self) -> None:
        """Hand the slot to the first waiting move still waiting, or free it."""
        while self._waiting:
            turn = heapq.heappop(self._waiting)[2]
            if not turn.done():
                turn.set_result(None)
                return
        self._free += 1


def think_here(game: Engine, state: State, seat: int, level: str) -> Action:
    """An AI seat's move, chosen in the calling thread."""
    return game.ai_action(state, seat, level)

#: Refusals of the tables, by the names the rest of the bot knows them by: every refusal
#: is a :class:`~bot.refusals.Refused`; a damaged state and a lost race are two of them.
TableError = Refused
DamagedStateError = Damaged
AlreadyMadeError = AlreadyMade


# --------------------------------------------------------------------------- reports


@dataclass(frozen=True, kw_only=True)
class Step:
    """One applied action, as the channel may hear about it.

    ``notation`` is what everybody may see: for a hidden action its public form
    (a phrase such as "placed a card face down", with ``hidden`` set). ``events``
    are the public narration; ``private`` the lines only some seats may read.
    """

    seat: int
    name: str
    notation: str
    events: tuple[str, ...]
    by_ai: bool
    hidden: bool = False
    private: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    #: The action's number in the game's log (0 before it is saved).
    n: int = 0
    #: The seat itself is an AI player (so ``by_ai`` needs no "for").
    ai_seat: bool = False

    @property
    def for_human(self) -> bool:
        """An AI chose this for a human's seat (a reminder take-over)."""
        return self.by_ai and not self.ai_seat

    @property
    def said(self) -> Said:
        """The step as a refusal may tell it (who, what)."""
        return Said(name=self.name, shown=self.notation, hidden=self.hidden,
                    for_player=self.for_human)

    @classmethod
    def of(cls, action: ActionRecord, record: GameRecord) -> Step:
        """The step a logged action was, named after the seats of ``record``."""
        seat = next((s for s in record.seats if s.seat == action.seat), None)
        name = seat.name if seat is not None else f"Seat {action.seat + 1}"
        events = (action.narration,) if action.narration else ()
        hidden = bool(action.public) and action.public != action.notation
        return cls(seat=action.seat, name=name, notation=action.shown, events=events,
                   by_ai=action.by_ai, hidden=hidden, private=dict(action.private),
                   n=action.n, ai_seat=seat is not None and seat.ai)


@dataclass(frozen=True, kw_only=True)
class Board:
    """The public picture of a game after a change: what the channel is shown."""

    record: GameRecord
    game: Engine
    state: State
    view: View
    #: What the change did besides its moves (a player left, the game begins).
    news: tuple[News, ...] = ()
    steps: tuple[Step, ...] = ()
    #: Seats that must act next, and the Discord users the board names as acting (an
    #: episode's edited board: those who newly have to decide).
    to_act: tuple[int, ...] = ()
    mentions: tuple[int, ...] = ()
    #: The legal moves of the single human who acts next, when the game allows them to
    #: be offered publicly (the move builder's first step goes on the board).
    choices: tuple[Action, ...] = ()
    result: Result | None = None
    #: ``(seat name, place, score)`` in ranking order once the game is over.
    ranking: tuple[tuple[str, int, int], ...] = ()
    #: The seat ``choices`` and ``multi`` are for, and the token its buttons carry.
    chooser: int | None = None
    token: str = ""
    multi: MultiSelect | None = None
    #: Which of ``choices`` another does as well for less (offered only on asking).
    dominated: frozenset[str] = frozenset()
    #: An open joint decision: the seats that have already decided (in secret).
    joint: bool = False
    decided: tuple[int, ...] = ()
    #: Some human decides privately (``game hand`` or the Decide button).
    private_choices: bool = False
    #: The episode goes on: edit the board message ``record.board_message_id``.
    edits: bool = False
    #: The steps of the change just saved (``steps`` may tell a whole episode).
    batch: tuple[Step, ...] = ()
    #: The notation a player just played (theirs to see, even when hidden from others).
    played: str = ""
    #: The users the change just handed the turn to: its queued ping names them.
    handed: tuple[int, ...] = ()
    #: The awaited players who are away (quiet hours, vacation): ``(user, until)``.
    away: tuple[tuple[int, float], ...] = ()
    #: The running clocks of a table with a clock: ``(seat, seconds left)``.
    clocks: tuple[tuple[int, float], ...] = ()
    #: The rules' summary of a game going on and its scores by seat (what the alt text
    #: says), worked out with the board, off the event loop.
    summary: str = ""
    scores: tuple[tuple[int, int], ...] = ()

    @property
    def move(self) -> int:
        return int(self.state["move"])

    @property
    def finished(self) -> bool:
        return self.record.status in ("finished", "aborted")

    @property
    def awaited(self) -> frozenset[int]:
        """The players the game waits for now (a seat an AI plays for them waits for no
        one): whom a ping for this turn may still reach."""
        acting = set(self.to_act)
        return frozenset(s.user_id for s in self.record.seats
                         if s.seat in acting and not s.machine and s.user_id is not None)

    def private_lines(self, user_id: int, *, others: bool = True) -> list[str]:
        """What ``user_id``'s seats alone may read of the change just saved (without
        ``others``: of their own moves only)."""
        seats = {s.seat for s in self.record.seats if s.user_id == user_id and not s.ai}
        return [line for step in (self.batch or self.steps) for seat in sorted(seats)
                if others or step.seat in seats for line in step.private.get(seat, ())]

    @property
    def hidden_for_mover(self) -> bool:
        """The player's move was hidden from the others (so they are told it privately)."""
        return bool(self.batch) and self.batch[0].hidden and bool(self.played)


@dataclass(frozen=True, kw_only=True)
class Lobby:
    """A lobby as the channel sees it."""

    record: GameRecord
    game: Engine
    closed: str = ""  # why the lobby message no longer takes clicks ("" while open)

    @property
    def owner(self) -> int | None:
        """Who may start the game: its creator while seated, else the first seated player."""
        return lobby_owner(self.record)


@dataclass(frozen=True, kw_only=True)
class Hand:
    """A player's private view: only ever sent ephemerally to ``user_id``."""

    record: GameRecord
    game: Engine
    seat: int
    view: View
    legal: tuple[Action, ...]
    choices: tuple[Action, ...]
    move: int
    token: str = ""
    multi: MultiSelect | None = None
    #: Which of ``legal`` another does as well for less (offered only on asking).
    dominated: frozenset[str] = frozenset()
    #: What others did since this seat last acted (with this seat's private lines).
    since: tuple[Step, ...] = ()
    #: How many earlier moves ``since`` leaves out.
    since_more: int = 0
    #: This seat's secret answer (or draft) to the open joint decision so far.
    answer: tuple[str, ...] = ()
    #: Seats still deciding the open joint decision.
    waiting: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class CardsShown:
    """Every card on the table in words, as ``seat`` may know them (``None``: as anybody
    may), for ``game cards``: only ever sent privately to the one who asked."""

    record: GameRecord
    game: Engine
    seat: int | None
    texts: tuple[CardText, ...]


@dataclass(frozen=True, kw_only=True)
class Status:
    """Where a game stands, for ``game status``."""

    record: GameRecord
    game: Engine
    summary: str
    to_act: tuple[tuple[str, int | None], ...]  # (seat name, user id)
    scores: tuple[tuple[str, int], ...]
    next_reminder_at: float | None = None
    #: When an AI moves for the sleeper, if the lobby asked for it and someone is awaited.
    takeover_at: float | None = None
    #: The awaited players who are away (quiet hours, vacation): ``(user, until)``.
    away: tuple[tuple[int, float], ...] = ()
    #: The running clocks of a table with a clock: ``(seat, seconds left)``.
    clocks: tuple[tuple[int, float], ...] = ()


@dataclass(frozen=True, kw_only=True)
class Reminder:
    """A ping for the players who have not acted."""

    record: GameRecord
    game: Engine
    mentions: tuple[int, ...]
    number: int
    last: bool
    takeover_at: float | None
    #: The moves made since the reminded players last acted (public lines only).
    since: tuple[Step, ...] = ()
    since_more: int = 0


@dataclass(frozen=True, kw_only=True)
class Conceded:
    """What ``game leave`` did: either the game goes on (``board``) or it ended."""

    name: str
    board: Board


@dataclass(kw_only=True)
class Plan:
    """Moves computed but not yet committed."""

    state: State
    moves: list[MoveRecord] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    #: The state the moves start from (the one stored now).
    before: State = field(init=False)
    #: Users who were not awaited at some moment of the plan (its start included).
    away: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.before = self.state


@dataclass(frozen=True, kw_only=True)
class Ready:
    """A plan with everything its commit needs worked out (in a worker thread), so that
    the event loop only awaits the store."""

    plan: Plan
    now: float
    state_json: str = ""
    turn_changed: bool = False
    finish: FinishRecord | None = None
    next_reminder_at: float | None = None
    played: str = ""
    #: The episode the moves continue (the board message on show may be edited).
    episode: str | None = None
    #: Users the moves hand the turn to (see :meth:`Pipeline._handed`).
    handed: tuple[int, ...] = ()
    #: The human players who must act once the moves are made.
    awaited: tuple[int, ...] = ()
    #: What the board will show once the moves are made (the public view).
    view: View | None = None
    #: The table's clocks once the moves are made (``None``: the table has no clock).
    clock: ClockWrite | None = None


class Paused(Protocol):
    """What the move pipeline asks of the tables' clocks: what a game's running clocks
    are not charged for (see :meth:`bot.tables.clocks.Clocks.pauses`)."""

    async def pauses(self, record: GameRecord, now: float) -> dict[int, list[Span]]: ...


class _NoPauses:
    """The clocks of a pipeline without them (a worker process's): nothing paused."""

    async def pauses(self, record: GameRecord, now: float) -> dict[int, list[Span]]:
        return {}


class StaleToken(StaleActionError):
    """A button's token no longer fits; the caller says what happened since (it reads the
    log: :meth:`Pipeline.expired`)."""

    def __init__(self) -> None:
        super().__init__("expired")


# --------------------------------------------------------------------------- the base


#: Why a game's place refuses the bot (:attr:`~bot.store.GameRecord.held`) that keeps
#: every change to the game waiting.
HOLDING = ("locked", "threads_full")


class Pipeline:
    """The one commit pipeline of the tables, and what it reads games with.

    A change is planned (the player's move and the AI seats' answers, :meth:`record`,
    :meth:`ai_chain`), made ready (everything it must show, :meth:`ready`), saved with all
    of that in one transaction (:meth:`save`, :meth:`commit`) and described as the board
    players are shown (:meth:`board_of`). Every service of the tables (:class:`Tables`) is
    given the same pipeline: the lobby, the moves, leaving, reminders, seats and queries.
    """

    def __init__(self, store: Store, games: Mapping[str, Engine] | None = None,
                 clock: Clock | None = None, *, on_moves: MovesHook | None = None,
                 limits: Limits | None = None, watch: Watch = unwatched,
                 think: Think = think_here, offload: Offload | None = None) -> None:
        """``on_moves`` is told of every move stored (the metrics count them). ``limits``
        bound what one person or server may open (:mod:`bot.limits`; the defaults when
        not given). ``watch`` times the rules, views and state JSON (:mod:`bot.watch`).
        ``think`` chooses AI seats' moves (:data:`Think`); ``offload`` works moves out
        away from the bot's process (:data:`Offload`)."""
        if games is None:
            from bot.games import GAMES

            games = GAMES
        if clock is None:
            import time

            clock = time.time
        self.store = store
        self.games: Mapping[str, Engine] = games
        self.clock = clock
        self._on_moves = on_moves
        self.watch = watch
        self._think = think
        self.offload = offload
        #: The tables' clocks (:class:`~bot.tables.clocks.Clocks`), given by :class:`Tables`
        #: once it has made them: what a change's running clocks are not charged for.
        self.clocks: Paused = _NoPauses()
        self.working = Slots(MOVES_AT_ONCE)
        #: Held while a lobby opens or a seat is taken, from counting what the person and
        #: the server hold to storing the new seat: requests sent all at once are counted
        #: one after another, so a flood cannot pass the limits together.
        self.seating = asyncio.Lock()
        #: The stored state of each game already found sound, as its version and the hash
        #: of its text (see :meth:`state`), the games vouched for longest ago first.
        self._sound: dict[int, tuple[int, int]] = {}
        #: The JSON kind of each key a game started with (see :func:`_shape`), by game id,
        #: slug and seed: a worker process that works moves out may serve tables of more
        #: than one database.
        self._shapes: dict[tuple[int, str, int | None], dict[str, str | None]] = {}
        self.limits = limits or Limits()

    # ----------------------------------------------------------------- looking games up

    def game(self, slug: str) -> Engine:
        """The registered game called ``slug``."""
        try:
            return self.games[slug]
        except KeyError:
            raise NoSuchGame(slug=slug, known=tuple(sorted(self.games))) from None

    async def current(self, channel_id: int, *, active: bool = True,
                      made_by: int | None = None) -> GameRecord:
        """The game under way in ``channel_id`` (see :meth:`by_id` for ``made_by``)."""
        if made_by is None:
            record = await self.store.games.open_game(channel_id)
        else:
            record = await self._for_move(made_by, channel_id=channel_id)
        if record is None:
            raise NoGameHere()
        if active and record.status != "active":
            raise NotStarted()
        return record

    async def by_id(self, game_id: int, channel_id: int | None = None, *,
                    made_by: int | None = None) -> GameRecord:
        """The game a button names; it must live in the channel the button was clicked in
        (its thread, or the channel holding its card). With ``made_by``, an interaction
        that already made its move (delivered twice) is refused, read with the game."""
        if made_by is None:
            try:
                record: GameRecord | None = await self.store.games.get_game(game_id)
            except NotFoundError:
                record = None
        else:
            record = await self._for_move(made_by, game_id=game_id)
        if record is None:
            raise GameGone()
        if channel_id is not None and channel_id not in (record.channel_id, record.parent_id):
            raise ElsewhereButton(channel_id=record.channel_id)
        return record

    async def _for_move(self, made_by: int, *, channel_id: int | None = None,
                        game_id: int | None = None) -> GameRecord | None:
        """The game a move names, read with whether its interaction ``made_by`` already
        made a move (Discord delivered it twice: refused)."""
        record, made = await self.store.moves.game_for_move(made_by, channel_id=channel_id,
                                                            game_id=game_id)
        if made:
            raise AlreadyMade(reason="twice")
        return record

    def vouched(self, record: GameRecord) -> bool:
        """Whether the state stored in ``record`` is already known to be sound."""
        return self._sound.get(record.id) == (record.version, hash(record.state_json))

    def vouch(self, key: tuple[int, int, int]) -> None:
        """Remember that the state stored under ``key`` (id, version, JSON hash) is sound:
        the latest of each game, for the :data:`SOUND_GAMES` games seen last."""
        game_id, version, text = key
        self._sound.pop(game_id, None)
        if len(self._sound) >= SOUND_GAMES:
            del self._sound[next(iter(self._sound))]  # the game vouched for longest ago
        self._sound[game_id] = (version, text)

    def loaded(self, record: GameRecord) -> tuple[Engine, State]:
        """The game and its stored state as the engine reads it, not yet checked (see
        :meth:`state`); :class:`DamagedStateError` if the engine cannot read it."""
        game = self.game(record.game)
        try:
            with self.watch("state JSON"):
                return game, loads(record.state_json or "", game)
        except RulesVersionError:
            raise
        except CorruptStateError as exc:
            raise Damaged(game_id=record.id, what=str(exc).rstrip(".").lower()) from exc

    def state(self, record: GameRecord) -> tuple[Engine, State]:
        """The game and its stored state, loaded and validated.

        A state is sound when the engine reads it (:func:`loads`) and the game can work
        with it: its seats match the table's, it has every key a new game of the table
        starts with (each of the same JSON kind), and who acts, the result, the summary,
        scores, the public view, every seat's view, the open decision and the legal
        actions of the seats to act all compute without error. Anything else raises
        :class:`DamagedStateError`, which points to ``game abort``. The check runs once
        per stored state (the latest of each game the process has seen, up to
        :data:`SOUND_GAMES` games).
        """
        game, state = self.loaded(record)
        key = (record.id, record.version, hash(record.state_json))
        if self._sound.get(record.id) != key[1:]:
            try:
                which = (record.id, record.game, record.seed)
                shape = self._shapes.get(which)
                if shape is None:
                    shape = _shape(game, record)
                    if len(self._shapes) >= 4096:
                        self._shapes.clear()
                    self._shapes[which] = shape
                _exercise(game, state, record, shape)
            except _Unsound as exc:
                raise Damaged(game_id=record.id, what=str(exc)) from exc
            except Exception as exc:
                log.warning("game %s has a damaged state", record.id, exc_info=exc)
                raise Damaged(game_id=record.id, what="its rules cannot read it") from exc
            self.vouch(key)
        return game, state

    def interval(self, record: GameRecord) -> float:
        hours = float(record.settings.get("reminder_hours", DEFAULT_REMINDER_HOURS))
        return hours * 3600.0

    def takeover_at(self, record: GameRecord) -> float | None:
        """When an AI will move for the players awaited now, if the lobby asked for that."""
        if not record.settings.get("ai_takeover") or record.next_reminder_at is None:
            return None
        remaining = max(0, MAX_REMINDERS - record.reminders_sent)
        return record.next_reminder_at + remaining * self.interval(record)

    def humans_to_act(self, record: GameRecord, game: Engine, state: State) -> list[SeatRecord]:
        acting = game.to_act(state)
        return [s for s in record.seats if s.seat in acting and not s.machine]

    def _awaited(self, record: GameRecord, game: Engine, state: State) -> set[int]:
        """The users of the human seats that must act in ``state``."""
        return {s.user_id for s in self.humans_to_act(record, game, state)
                if s.user_id is not None}

    def _handed(self, record: GameRecord, game: Engine, plan: Plan) -> tuple[int, ...]:
        """The users the plan hands the turn to, to be pinged once.

        A user is handed the turn when they must act at the end of the plan and were
        not awaited at some moment of it: at its start, or after one of its moves. So a
        follow-up decision inside a player's own turn, or a joint decision still waiting
        for others, pings nobody again. The mover is pinged only when the turn comes back
        to them after others (the AI) acted, or a new round opens for everyone: that is a
        hand-over like any other, and the host pressing Start is handed the first turn.
        """
        humans = {s.user_id for s in record.seats if not s.ai and s.user_id is not None}
        away = plan.away | (humans - self._awaited(record, game, plan.before))
        order = [s.user_id for s in self.humans_to_act(record, game, plan.state)]
        return tuple(u for u in dict.fromkeys(order) if u is not None and u in away)

    def turn_announcement(self, record: GameRecord, game: Engine, state: State,
                          users: Sequence[int], board_message_id: int | None = None,
                          away: Mapping[int, float] | None = None,
                          modes: Mapping[int, str] | None = None,
                          ) -> tuple[Announcement | None, tuple[Announcement, ...]]:
        """The ping for ``users``, just handed the turn, to queue with the change: the one
        for those who can be reached at once (which the change's board carries, see
        :func:`showing`), and the rest: a ping for each player ``away`` when they are back
        (kind ``turn``), and a DM for those who asked (``modes``, see :meth:`reach`)."""
        if not users:
            return None, ()
        away, modes = away or {}, modes or {}
        groups: dict[float | None, list[int]] = {}
        for user in users:
            groups.setdefault(away.get(user), []).append(user)
        now: Announcement | None = None
        later = []
        for due, group in sorted(groups.items(), key=lambda item: item[0] or 0.0):
            data = handover(record, game, int(state["move"]), group, board_message_id)
            ping = reaching(record, "turn", data, group, due, modes)
            if due is None:
                now = ping
            else:
                later.append(ping)
            later.extend(direct(record, handover(record, game, int(state["move"]),
                                                 (user,), board_message_id), user, due)
                         for user in group if modes.get(user) == "dm")
        return now, tuple(later)

    @staticmethod
    def _hit(record: GameRecord, plan: Plan) -> dict[int, list[str]]:
        """The lines telling players that the plan's moves hit them, by user (a DM
        subscriber gets each as one line)."""
        users = {s.seat: s.user_id for s in record.seats
                 if s.user_id is not None and not s.machine}
        out: dict[int, list[str]] = {}
        for step in plan.steps:
            for seat, lines in step.private.items():
                user = users.get(seat)
                if user is not None:
                    out.setdefault(user, []).extend(x for x in lines if x.startswith(ALERT))
        return {user: lines for user, lines in out.items() if lines}

    async def reach(self, users: Iterable[int], now: float | None = None,
                    ) -> tuple[dict[int, float], dict[int, str]]:
        """For ``users``: who is away until when, and how each chose to be reached (one
        read of the store)."""
        wanted = list(dict.fromkeys(u for u in users if u is not None))
        if not wanted:
            return {}, {}
        now = self.clock() if now is None else now
        read = await self.store.people.reach(wanted, ending_after=now)
        return _away(wanted, now, read.quiet_hours, read.vacations), read.modes

    async def away_until(self, users: Iterable[int], now: float | None = None,
                         ) -> dict[int, float]:
        """The players among ``users`` who are away now (quiet hours or vacation), with
        when each can be reached again."""
        return (await self.reach(users, now))[0]

    async def with_away(self, board: Board, asked: Iterable[int] = (),
                        known: Mapping[int, float] | None = None) -> Board:
        """``board`` with the awaited players who are away now, for the channel to see.

        ``known`` answers for the users in ``asked`` (read just before, for the same move),
        so that only the others are read from the store.
        """
        users = _awaited_users(board.record, board.to_act)
        done = set(asked)
        read = await self.away_until([u for u in users if u not in done])
        found = {**(known or {}), **read}
        away = [(u, found[u]) for u in users if u in found]
        return replace(board, away=tuple(away)) if away else board

    def _next_reminder(self, record: GameRecord, game: Engine, state: State,
                       now: float) -> float | None:
        """When the reminder pass next looks at the game: while anyone is to act (an AI
        seat left to act is moved on by that pass, see :mod:`~bot.tables.reminders`)."""
        if not game.to_act(state):
            return None
        return now + self.interval(record)

    def waiting_for(self, record: GameRecord, game: Engine, state: State) -> tuple[str, ...]:
        """The names of the seats the game waits for, in seat order."""
        acting = game.to_act(state)
        return tuple(s.name for s in record.seats if s.seat in acting)

    def acting_seat(self, record: GameRecord, game: Engine, state: State, user_id: int) -> int:
        """The caller's seat that acts now (or their first seat); refuses strangers."""
        mine = seats_of(record, user_id)
        if not mine:
            raise NotPlaying(waiting=self.waiting_for(record, game, state))
        acting = game.to_act(state)
        return next((s.seat for s in mine if s.seat in acting), mine[0].seat)

    # ----------------------------------------------------------------- tokens

    def token_for(self, game: Engine, state: State, seat: int,
                   wire: str | int | None) -> str | int | None:
        """Check a button's token for ``seat``; the engine's part of it for ``apply``.

        A token of a decision that is no longer open for the seat raises
        :class:`StaleToken`; :meth:`expired` then says what happened since.
        """
        if wire is None:
            return None
        if isinstance(wire, int):
            if wire == state["move"]:
                return wire
        elif wire == game.token(state, seat):
            return wire
        raise StaleToken()

    async def expired(self, record: GameRecord, offered_at: int | None) -> Expired:
        """The refusal of a button whose decision is no longer open: with what happened
        since it was offered (at move ``offered_at``), the last few moves."""
        if offered_at is None:
            return Expired()
        since = await self.store.moves.actions(record.id, after=offered_at)
        shown = [Step.of(a, record).said for a in since[-6:]]
        return Expired(since=tuple(shown), earlier=len(since) - len(shown))

    # ----------------------------------------------------------------- playing and saving

    def record(self, plan: Plan, record: GameRecord, game: Engine, seat: int,
               user_id: int | None, outcome: Outcome) -> None:
        """Add ``outcome`` (applied to ``plan.state``) to the plan."""
        seat_record = next(s for s in record.seats if s.seat == seat)
        # The player who comes back learns why the AI played for them as it did.
        standing = user_id is None and (seat_record.standing_in or seat_record.open)
        events, private = narrated(game, plan.state, outcome, (s.seat for s in record.seats),
                                   reason_of=seat if standing else None)
        shown = outcome.public or outcome.action.notation
        hidden = shown != outcome.action.notation
        # Undo restores the state a human's own move was made from; AI moves need none.
        before = None
        if outcome.undoable and user_id is not None:
            with self.watch("state JSON"):
                before = dumps(plan.state)
        plan.moves.append(MoveRecord(seat, user_id, outcome.action.notation, " ".join(events),
                                     outcome.undoable, shown if hidden else "", private, before,
                                     game.rules.episode(outcome.state)))
        plan.steps.append(Step(seat=seat, name=seat_record.name, notation=shown, events=events,
                               by_ai=user_id is None, hidden=hidden,
                               private=private, n=0, ai_seat=seat_record.ai))
        plan.state = outcome.state
        humans = {s.user_id for s in record.seats if not s.ai and s.user_id is not None}
        plan.away |= humans - self._awaited(record, game, plan.state)

    def ai_chain(self, record: GameRecord, game: Engine, plan: Plan) -> Plan:
        """Let AI seats act until a human must (runs in a worker thread)."""
        levels = {s.seat: self._level(record, s) for s in record.seats if s.machine}
        for _ in range(MAX_AI_STEPS):
            acting = sorted(game.to_act(plan.state) & levels.keys())
            if not acting:
                break
            seat = acting[0]
            with self.watch("AI"):
                action = self.think(game, plan.state, seat, levels[seat])
            with self.watch("engine"):
                outcome = game.apply(plan.state, seat, action)
            self.record(plan, record, game, seat, None, outcome)
        return plan

    def think(self, game: Engine, state: State, seat: int, level: str) -> Action:
        """An AI seat's move at ``level``, chosen as the tables were told to (:data:`Think`)."""
        return self._think(game, state, seat, level)

    def _public_view(self, record: GameRecord, game: Engine, state: State,
                     clock: ClockWrite | None = None, now: float | None = None) -> View:
        """The public view, with the table's clock in its envelope (``clock``: as a change
        leaves it, else as stored) for the picture's header."""
        with self.watch("views"):
            view = public_view(record, game, state)
        timed = record if clock is None else replace(record, clock=dict(clock.clock))
        return clocked(view, shown(timed, self.clock() if now is None else now))

    @staticmethod
    def _level(record: GameRecord, seat: SeatRecord) -> str:
        """How an AI plays a seat: an AI seat at its own level; the stand-in for an absent
        player (and a seat the table opened) at the table's stand-in level."""
        if seat.standing_in or seat.open:
            return str(record.settings.get("stand_in_level", STAND_IN_LEVEL))
        return seat.level if seat.level in AI_LEVELS else "normal"

    def ready(self, record: GameRecord, game: Engine, plan: Plan, now: float,
              pauses: Mapping[int, Sequence[Span]] | None = None) -> Ready:
        """Work out what committing ``plan`` stores (runs in a worker thread); ``pauses``
        are what the table's running clocks are not charged for."""
        handed = self._handed(record, game, plan)
        clock = settled(record, game, plan.state, now, pauses or {})
        if not plan.moves:
            return Ready(plan=plan, now=now, handed=handed, clock=clock)
        before, after = plan.before, plan.state
        result = game.result(after)
        finish = None
        if result is not None:
            finish = FinishRecord(dumps_result(result), _placements(record, result))
        key = game.rules.episode(before)
        goes_on = key is not None and key == game.rules.episode(after) and result is None
        with self.watch("state JSON"):
            state_json = dumps(after)
        played = plan.moves[0].notation if plan.moves[0].user_id is not None else ""
        return Ready(plan=plan, now=now, state_json=state_json,
                     turn_changed=game.to_act(before) != game.to_act(after), finish=finish,
                     next_reminder_at=self._next_reminder(record, game, after, now),
                     played=played, episode=key if goes_on else None, handed=handed,
                     awaited=tuple(_awaited_users(record, game.to_act(after))),
                     view=self._public_view(record, game, after, clock, now), clock=clock)

    async def settled(self, record: GameRecord, game: Engine, work: Callable[[], Plan],
                      ) -> Ready:
        """Run ``work`` (moves and AI turns) and prepare its commit, in one worker thread."""
        now = self.clock()
        pauses = await self.clocks.pauses(record, now)
        return await asyncio.to_thread(lambda: self.ready(record, game, work(), now, pauses))

    async def save(self, record: GameRecord, game: Engine, ready: Ready, *,
                   news: Sequence[News] = (), episodes: bool = False,
                   seats: Sequence[SeatRecord] | None = None,
                   interaction_id: int | None = None, mover: int | None = None,
                   lease: Lease | None = None) -> Board:
        """Commit the planned moves in one transaction and describe the result.

        ``mover``, the player whose request it is, is told what hit them in the answer to
        their move, and a player handed the turn in their turn's catch-up: neither gets
        the alert as a direct message of its own as well.

        Raises :class:`ConflictError` if the game moved on since ``record`` was read.
        With ``episodes``, moves that continue the episode of the board message on show
        are told by editing that message. ``seats`` (``record``'s seats, some handed
        over) are saved in the same transaction as the moves, or alone if there are none.
        The board shows ``ready.view`` itself (the very object), so a picture begun from
        it before the commit is the board's. ``lease``: the board's announcement is leased
        to the caller, who delivers it, in the same transaction (see :class:`Lease`).
        """
        plan = ready.plan
        if not plan.moves:
            if seats is not None:
                record = await self.store.games.replace_seats(
                    record.id, record.version, seats, ready.now,
                    announce=showing(record, game, int(plan.state["move"]), news=news),
                    clock=ready.clock)
            return await self.with_away(await asyncio.to_thread(
                self.board_of, record, game, plan.state, news=news, steps=plan.steps,
                handed=ready.handed))
        edits = episodes and ready.episode is not None and record.board_message_id is not None
        hit = self._hit(record, plan)
        told = [u for u in dict.fromkeys([*ready.handed, *hit]) if u is not None]
        # Whether the told and the awaited players are away, read once for the move.
        asked = list(dict.fromkeys([*told, *ready.awaited]))
        known, chosen = await self.reach(asked, ready.now)
        away = {u: t for u, t in known.items() if u in told}
        modes = {u: m for u, m in chosen.items() if u in told}
        # A few dicts (0.03 ms): less than the hand-over to a thread and back would cost.
        ping, later = self.turn_announcement(record, game, plan.state, ready.handed,
                                             record.board_message_id if edits else None,
                                             away, modes)
        announce = (*later, *showing(record, game, int(plan.state["move"]), edits=edits,
                                     moves=len(plan.moves), news=news, ping=ping))
        told_else = {mover, *ready.handed}
        announce += tuple(direct(record, {"about": "alert", "game": game.slug,
                                          "line": line}, user, away.get(user))
                          for user, lines in hit.items()
                          if modes.get(user) == "dm" and user not in told_else
                          for line in lines)
        # Seats saved with the moves may change who is marked as stood in for.
        view = ready.view if seats is None else None
        saved = await self.store.moves.commit_moves(
            record.id, record.version, plan.moves, state_json=ready.state_json,
            now=ready.now, turn_changed=ready.turn_changed,
            next_reminder_at=ready.next_reminder_at, finish=ready.finish, seats=seats,
            announce=announce, interaction_id=interaction_id, clock=ready.clock, lease=lease)
        # The engine just made this state from a sound one: the next move need not check
        # it again (a row changed behind the bot's back has another hash, and is checked).
        self.vouch((saved.id, saved.version, hash(ready.state_json)))
        if self._on_moves is not None:
            by_ai = sum(move.user_id is None for move in plan.moves)
            self._on_moves(game.slug, len(plan.moves) - by_ai, by_ai)
        if edits and saved.board_message_id is not None and ready.episode is not None:
            steps = await self.episode_steps(saved, ready.episode)

            return await self.with_away(await asyncio.to_thread(
                self.board_of, saved, game, plan.state, news=news, steps=steps,
                edits=True, mentions=ready.handed, batch=plan.steps, played=ready.played,
                handed=ready.handed, view=view), asked, known)
        return await self.with_away(await asyncio.to_thread(
            self.board_of, saved, game, plan.state, news=news, steps=plan.steps,
            batch=plan.steps, played=ready.played, handed=ready.handed, view=view), asked, known)

    async def commit(self, record: GameRecord, game: Engine, ready: Ready, *,
                     news: Sequence[News] = (),
                     seats: Sequence[SeatRecord] | None = None) -> Board:
        """:meth:`save`, telling the player plainly when someone else was first."""
        try:
            return await self.save(record, game, ready, news=news, seats=seats)
        except ConflictError:
            raise AlreadyMade(reason="raced") from None

    async def hand_back(self, record: GameRecord, user_id: int) -> Board:
        """The AI standing in for ``user_id`` hands their seat back (saved at once)."""
        seats = tuple(replace(s, standing_in=False) if s.user_id == user_id else s
                      for s in record.seats)
        back = replace(record, seats=seats)
        game = self.game(record.game)
        state = (await asyncio.to_thread(self.state, record))[1]
        ready = await self.settled(back, game, lambda: Plan(state=state))
        name = next((s.name for s in seats if s.user_id == user_id), "")
        board = await self.commit(record, game, ready, seats=seats, news=(Back(name=name),))
        # A vote on their seat ends with their return.
        await self.store.games.clear_seat_votes(record.id, user_id)
        return board

    async def episode_steps(self, record: GameRecord, key: str) -> list[Step]:
        """The steps of the episode ``key`` so far: the trailing run of the log in it."""
        return [Step.of(a, record)
                for a in await self.store.moves.trailing_run(record.id, key, LOG_LIMIT)]

    async def since(self, record: GameRecord, seats: Iterable[int],
                    limit: int = SINCE_LIMIT) -> tuple[tuple[Step, ...], int]:
        """The moves made since the player of ``seats`` last acted, and how many older
        ones were left out: other seats' moves, and the moves an AI made for the player
        in ``seats`` (standing in for them), which are not their own turns."""
        wanted = set(seats)
        actions = await self.store.moves.actions(record.id, last=LOG_LIMIT)
        start = 0
        for index, action in enumerate(actions):
            if action.seat in wanted and not action.by_ai:
                start = index + 1
        others = [Step.of(a, record) for a in actions[start:]
                  if a.seat not in wanted or a.by_ai]
        shown = others[-limit:]
        return tuple(shown), len(others) - len(shown)

    # ----------------------------------------------------------------- describing

    def board_of(self, record: GameRecord, game: Engine, state: State, *,
                 news: Sequence[News] = (), steps: Sequence[Step] = (), edits: bool = False,
                 mentions: Sequence[int] | None = None, zoom: str | None = None,
                 batch: Sequence[Step] = (), played: str = "",
                 handed: Sequence[int] = (), view: View | None = None) -> Board:
        """Describe ``state`` publicly: the view, who acts next, their public choices.

        ``handed`` are the users the change hands the turn to (none for a board shown
        again); ``view``, when given, is ``state``'s public view worked out already.
        """
        result = stored_result(record) or game.result(state)
        acting = tuple(sorted(game.to_act(state))) if record.status == "active" else ()
        humans = [s for s in record.seats if s.seat in acting and not s.machine]
        if mentions is None:
            mentions = tuple(dict.fromkeys(s.user_id for s in humans if s.user_id is not None))
        top = game.top(state) if acting else None
        joint = top is not None and top.joint
        public = game.rules.choices_are_public(state)
        choices: tuple[Action, ...] = ()
        chooser: int | None = None
        token = ""
        multi: MultiSelect | None = None
        dominated: frozenset[str] = frozenset()
        if len(humans) == 1 and public:
            chooser = humans[0].seat
            # Every legal move: the move builder offers them step by step.
            choices = tuple(game.legal_actions(state, chooser))
            multi = game.rules.multi_select(state, chooser)
            dominated = game.rules.dominated(state, chooser, choices)
            token = wire_token(game, state, chooser)
        private_choices = bool(humans) and chooser is None
        ranking: tuple[tuple[str, int, int], ...] = ()
        summary = ""
        scores: tuple[tuple[int, int], ...] = ()
        if result is not None:
            ranking = _ranking(record, result)
        else:
            summary = game.rules.summary(state)
            scores = tuple(sorted(game.rules.scores(state).items()))
        if view is None:
            view = self._public_view(record, game, state)
        clocks = shown(record, self.clock())
        if zoom is not None:
            view = {**view, "zoom": zoom}
        return Board(record=record, game=game, state=state, view=view, news=tuple(news),
                     steps=tuple(steps), to_act=acting, mentions=tuple(mentions),
                     choices=choices, result=result, ranking=ranking, chooser=chooser,
                     token=token, multi=multi, dominated=dominated, joint=joint,
                     decided=tuple(top.answered) if joint and top is not None else (),
                     private_choices=private_choices, edits=edits, batch=tuple(batch),
                     played=played, handed=tuple(handed), clocks=clocks, summary=summary,
                     scores=scores)


def check_shown(record: GameRecord) -> None:
    """Refuse a change the game's place could not show: its thread is locked, or
    archived with the server's threads full (see :attr:`~bot.store.GameRecord.held`),
    so the change waits, and the game with it, until the thread takes posts again. (A
    place that refused for want of a permission is tried by the next change itself:
    the permission may be back, and then its board shows.)"""
    if record.held in HOLDING:
        raise Held(why=record.held)


def showing(record: GameRecord, game: Engine, move: int, *, edits: bool = False,
            moves: int = 0, news: Sequence[News] = (), ping: Announcement | None = None,
            zoom: str | None = None) -> tuple[Announcement, ...]:
    """What a change to ``record`` must show, queued in the change's own transaction
    and delivered by the outbox until Discord takes it: the game's board as it then
    stands (kind ``board``), a new message carrying ``ping`` (the hand-over's mentions
    and words) that takes the buttons off the board it replaces, or with ``edits`` the
    episode's board on show edited; and the game's card, when it has a thread of its
    own (``card``). A board posted later tells the change's last ``moves`` moves and its
    ``news``, as the board shown at once does."""
    shown = record.board_message_id
    data: dict[str, Any] = {"about": "board", "game": game.slug, "move": int(move),
                            "moves": int(moves), "news": as_data(news), "shown": shown}
    follow = []
    if edits and shown:
        data["edit"] = shown
    if zoom is not None:
        data["zoom"] = zoom
    mentions: tuple[int, ...] = ()
    if ping is not None:
        data["ping"] = dict(ping.data or {})
        mentions = ping.mentions
    if record.parent_id is not None and record.lobby_message_id:
        follow.append(Announcement(channel_id=record.parent_id, guild_id=record.guild_id,
                                   game_id=record.id, kind="card",
                                   data={"card": record.lobby_message_id}))
    board = Announcement(channel_id=record.channel_id, guild_id=record.guild_id,
                         game_id=record.id, kind="board", mentions=mentions, data=data)
    return (board, *follow)


def reaching(record: GameRecord, kind: str, data: dict[str, Any], users: Sequence[int],
             due: float | None, modes: Mapping[int, str]) -> Announcement:
    """A channel announcement naming ``users`` that pings those who did not ask to be
    left quiet (``notify``)."""
    pinged = tuple(u for u in users if modes.get(u) != "quiet")
    return Announcement(channel_id=record.channel_id, guild_id=record.guild_id,
                        game_id=record.id, kind=kind,
                        mentions=pinged, due_at=due, data=data)


def direct(record: GameRecord, data: dict[str, Any], user: int,
           due: float | None) -> Announcement:
    """The same news (``data`` of a ``turn``, ``reminder`` or ``alert``) as a direct
    message to ``user`` (kind ``dm``), pointing to the game; queued in the game's
    channel so that it keeps the channel's order."""
    return Announcement(channel_id=record.channel_id, guild_id=record.guild_id,
                        game_id=record.id, kind="dm",
                        mentions=(user,), due_at=due, data=data)


def seats_of(record: GameRecord, user_id: int) -> list[SeatRecord]:
    return [s for s in record.seats if s.user_id == user_id and not s.ai]


def wire_token(game: Engine, state: State, seat: int) -> str:
    """What a button for ``seat`` carries: the game's token (see ``Engine.token``)."""
    return game.token(state, seat)


# --------------------------------------------------------------------------- small helpers


async def each_due(records: Sequence[GameRecord],
                   look: Callable[[GameRecord], Awaitable[T | None]],
                   quiet: Callable[[GameRecord], Awaitable[None]], what: str) -> list[T]:
    """``look`` at each game due a look (reminders, the clock), in turn, and what it
    gives. A game this bot cannot load (other rules, a damaged state) is quieted
    (``quiet``) until someone ends it, instead of failing again at every pass; one broken
    game must not hold up every other channel's ``what``."""
    out: list[T] = []
    for record in records:
        try:
            item = await look(record)
        except GameError as err:
            log.warning("no %s for game %s in channel %s: %s", what, record.id,
                        record.channel_id, err)
            await quiet(record)
            continue
        except Exception:
            log.exception("%s for game %s in channel %s failed", what, record.id,
                          record.channel_id)
            continue
        if item is not None:
            out.append(item)
    return out


def narrated(game: Engine, before: State, outcome: Outcome, seats: Iterable[int], *,
             reason_of: int | None = None,
             ) -> tuple[tuple[str, ...], dict[int, tuple[str, ...]]]:
    """What the action of ``outcome`` (applied to ``before``) tells: its public lines (and
    why the AI standing in for the seat ``reason_of``, whose action it is, chose it) and
    each of ``seats``'s private lines."""
    public = outcome.narration(None)
    private: dict[int, tuple[str, ...]] = {}
    for other in seats:
        lines = tuple(line for line in outcome.narration(other) if line and line not in public)
        if lines:
            private[other] = lines
    events = tuple(line for line in public if line)
    if reason_of is not None:
        reason = game.reason_for(before, outcome, reason_of)
        events += (reason,) if reason else ()
    return events, private


def _away(users: Sequence[int], now: float, hours: Mapping[int, tuple[str, int, int]],
          vacations: Mapping[int, Sequence[tuple[float, float]]]) -> dict[int, float]:
    """Which of ``users`` are away at ``now``, given their quiet hours and vacations, and
    until when."""
    out: dict[int, float] = {}
    for user in users:
        quiet = None
        if user in hours:
            try:
                quiet = QuietHours(*hours[user])
            except AwayError:
                quiet = None  # a zone this system no longer knows: reach them as usual
        spans = [Vacation(a, b) for a, b in vacations.get(user, [])]
        until = away_until(now, quiet, spans)
        if until is not None:
            out[user] = until
    return out


def handover(record: GameRecord, game: Engine, move: int, users: Sequence[int],
             board_message_id: int | None = None) -> dict[str, Any]:
    """The data of a hand-over announcement (kind ``turn``, or a ``dm`` about one): the
    game, the move, each user with their seat, the board message to point to when an
    episode's board is edited instead of posted, and the board on show before the change
    (a ping whose new board Discord refused is carried by that board when it is retried)."""
    seats = {s.user_id: s.seat for s in record.seats if s.user_id is not None and not s.ai}
    return {"about": "turn", "game": game.slug, "move": int(move),
            "users": [[int(u), seats.get(u, 0)] for u in users], "board": board_message_id,
            "shown": record.board_message_id}


def reminded(reminder: Reminder) -> dict[str, Any]:
    """The data of a reminder announcement (kind ``reminder``, or a ``dm`` about one)."""
    record = reminder.record
    seats = {s.user_id: s.seat for s in record.seats if s.user_id is not None and not s.ai}
    return {"about": "reminder", "game": reminder.game.slug, "number": reminder.number,
            "of": MAX_REMINDERS, "last": reminder.last, "takeover_at": reminder.takeover_at,
            "waiting_since": record.turn_started_at,
            "users": [[int(u), seats.get(u, 0)] for u in reminder.mentions],
            "since": [step_data(step) for step in reminder.since],
            "since_more": reminder.since_more}


def step_data(step: Step) -> dict[str, Any]:
    """A step as announcement data (the public part: a reminder tells what others did)."""
    return {"seat": step.seat, "name": step.name, "notation": step.notation,
            "events": list(step.events), "by_ai": step.by_ai, "hidden": step.hidden,
            "n": step.n, "ai_seat": step.ai_seat}


def step_of(data: Mapping[str, Any]) -> Step:
    """The step :func:`step_data` stored."""
    return Step(seat=int(data["seat"]), name=str(data["name"]),
                notation=str(data["notation"]),
                events=tuple(str(e) for e in data.get("events", ())),
                by_ai=bool(data.get("by_ai")), hidden=bool(data.get("hidden")), private={},
                n=int(data.get("n", 0)), ai_seat=bool(data.get("ai_seat")))


def public_view(record: GameRecord, game: Engine, state: State) -> View:
    """What the channel sees of ``state``: no seat's secrets, stand-ins marked."""
    return game.view(marked_stand_ins(state, record.seats), None)


def clocked(view: View, clocks: Sequence[tuple[int, float]]) -> View:
    """``view`` with the least time left of the running clocks in its envelope
    (``table.clock``: ``{"seat", "left"}`` in seconds), for the picture's header."""
    if not clocks:
        return view
    seat, left = min(clocks, key=lambda item: item[1])
    return {**view, "table": {**view["table"], "clock": {"seat": seat, "left": left}}}


class _Unsound(ValueError):
    """What is wrong with a stored state, in words safe to show (no hidden values)."""


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    return type(value).__name__


def _shape(game: Engine, record: GameRecord) -> dict[str, str | None]:
    """The JSON kind of each key a new game of ``record``'s table starts with (None for
    a key that starts as None)."""
    fresh = game.new([SeatInfo(s.name, s.ai) for s in record.seats], record.seed or 0,
                     record.options)
    return {key: None if value is None else _json_kind(value) for key, value in fresh.items()}


def _exercise(game: Engine, state: State, record: GameRecord,
              shape: dict[str, str | None]) -> None:
    """Work out everything the bot asks of a state; raises if the state is unsound.

    The state must also hold every key of ``shape`` (the game's keys when it started),
    each of the same JSON kind (a key that is None on either side may be anything):
    games add keys as they go but never drop one.
    """
    seats = len(record.seats)
    if len(state["seats"]) != seats:
        raise _Unsound(f"it has {len(state['seats'])} seats, the table {seats}")
    for key, kind in shape.items():
        if key not in state:
            raise _Unsound(f"it is missing {key!r}")
        if kind is not None and state[key] is not None and _json_kind(state[key]) != kind:
            raise _Unsound(f"its {key!r} holds a {_json_kind(state[key])}, not a {kind}")
    acting = game.to_act(state)
    game.result(state)
    game.rules.summary(state)
    game.rules.scores(state)
    game.top(state)
    game.view(state, None)
    for seat in range(seats):
        game.view(state, seat)
    for seat in acting:
        game.legal_actions(state, seat)


def _awaited_users(record: GameRecord, to_act: Iterable[int]) -> list[int]:
    """The human players of ``record`` among the seats ``to_act``, in seat order."""
    acting = set(to_act)
    return [s.user_id for s in record.seats
            if s.seat in acting and not s.ai and s.user_id is not None]


def lobby_owner(record: GameRecord) -> int | None:
    """Who runs a lobby: its creator while seated, else the first seated player."""
    humans = [s.user_id for s in record.seats if not s.ai and s.user_id is not None]
    if record.creator_id in humans:
        return record.creator_id
    return humans[0] if humans else None


def dumps_result(result: Result) -> str:
    """The stored form of a result."""
    return json.dumps(result.to_json(), sort_keys=True)


def stored_result(record: GameRecord) -> Result | None:
    """The result saved with a finished game, if it can be read."""
    if record.status != "finished" or not record.result_json:
        return None
    try:
        raw: dict[str, Any] = json.loads(record.result_json)
        ranking = tuple(tuple(int(s) for s in group) for group in raw["ranking"])
        scores = {int(k): int(v) for k, v in raw.get("scores", {}).items()}
        return Result(ranking, scores, str(raw.get("summary", "")))
    except (TypeError, ValueError, KeyError, AttributeError):
        log.warning("game %s has an unreadable result", record.id)
        return None


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


def marked_stand_ins(state: State, seats: Sequence[SeatRecord]) -> State:
    """``state`` as its pictures show it: the name of each seat an AI stands in for
    marked ("Ana (AI standing in)"). A copy: the saved state, and so the narration,
    keep the plain names."""
    standing = {s.seat for s in seats if s.standing_in}
    if not standing:
        return state
    named = [{**info, "name": standing_in(str(info["name"]))} if i in standing else info
             for i, info in enumerate(state["seats"])]
    return {**state, "seats": named}


def renumber(seats: Sequence[SeatRecord]) -> tuple[SeatRecord, ...]:
    return tuple(replace(s, seat=i) for i, s in enumerate(seats))


def seat_label(seat: SeatRecord) -> str:
    """A seat's name as the table shows it: an AI seat's level follows its name unless
    it plays at the usual level ("AI 2 · easy")."""
    if seat.ai and seat.level != "normal" and seat.open is False and not seat.standing_in:
        return f"{seat.name} · {seat.level}"
    return seat.name


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip_name(name: str) -> str:
    return clip(" ".join(name.split()) or "Player", 32)


__all__ = [
    "COMMIT_ATTEMPTS",
    "DEFAULT_REMINDER_HOURS",
    "LOG_LIMIT",
    "MAX_AI_STEPS",
    "MAX_REMINDERS",
    "MAX_REMINDER_HOURS",
    "MAX_SUGGESTIONS",
    "STAND_IN_LEVEL",
    "AlreadyMadeError",
    "Board",
    "Clock",
    "Conceded",
    "DamagedStateError",
    "Hand",
    "Lobby",
    "Pipeline",
    "Plan",
    "Ready",
    "Reminder",
    "StaleToken",
    "Status",
    "Step",
    "TableError",
    "dumps_result",
    "handover",
    "lobby_owner",
    "marked_stand_ins",
    "plural",
    "reminded",
    "seat_label",
    "step_data",
    "step_of",
    "stored_result",
]
