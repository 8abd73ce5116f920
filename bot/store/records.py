"""What the store reads and writes: its errors, records and their encoding as row values.

Shared by every backend (see :mod:`bot.store`); nothing here talks to a database.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.ratings import Rating
from bot.store.connection import Row

log = logging.getLogger("bot.store")

#: Both backends store signed 64-bit integers.
_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1
OPEN_STATUSES = ("lobby", "active")


# --------------------------------------------------------------------------- errors


class StoreError(Exception):
    """Base class of storage errors. Those a person can meet carry what happened as data,
    and the Discord layer words them (``bot.discord.words.refusal``); ``str()`` is for
    logs."""


class StoreBusyError(StoreError):
    """Another process held the database's write lock past the busy timeout; nothing
    changed, and the same request may succeed a moment later."""

    def __init__(self) -> None:
        super().__init__("the game database is busy")


class StoreClosedError(StoreError):
    """The store was closed (the bot is shutting down)."""

    def __init__(self) -> None:
        super().__init__("the game store is closed")


class ChannelBusyError(StoreError):
    """The channel already has a lobby or an active game."""

    def __init__(self, message: str = "the channel already has a lobby or a game") -> None:
        super().__init__(message)


class ConflictError(StoreError):
    """The row moved on since the caller read it: someone else wrote first."""

    def __init__(self, message: str = "the game moved on since it was read") -> None:
        super().__init__(message)


class AlreadyDoneError(ConflictError):
    """The Discord interaction asking for this move has already made it (a delivery seen
    twice); nothing changed the second time."""

    def __init__(self, message: str = "this interaction's move was already stored") -> None:
        super().__init__(message)


class RematchTakenError(StoreError):
    """The game has its rematch (``game_id``, played in ``channel_id``), or one is being
    opened (both ``None``)."""

    def __init__(self, game_id: int | None, channel_id: int | None) -> None:
        super().__init__("the game's rematch is open or being opened")
        self.game_id = game_id
        self.channel_id = channel_id


class NotFoundError(StoreError):
    """The game (or the thing asked for in it) does not exist: ``what`` is ``game``,
    ``undo`` (no move to take back) or ``seat`` (``seat``, numbered from 0)."""

    def __init__(self, what: str = "game", seat: int | None = None) -> None:
        super().__init__(f"no {what}" + ("" if seat is None else f" {seat}"))
        self.what = what
        self.seat = seat


class WrongStatusError(StoreError):
    """The operation ``doing`` (``play``, ``start``, ``undo``, ``finish``, ``change
    seats``, ``abort``) does not fit the game's ``status``, e.g. a move in a finished
    game."""

    def __init__(self, status: str, doing: str) -> None:
        super().__init__(f"a game {status} cannot {doing}")
        self.status = status
        self.doing = doing


class NotSavedError(StoreError):
    """A write failed inside the database (disk full, I/O error) and was rolled back."""

    def __init__(self, message: str = "a write failed and was rolled back") -> None:
        super().__init__(message)


class CorruptRowError(StoreError):
    """A stored row cannot be read back; ``game_id`` says which game (so it can be aborted),
    ``what`` what is wrong with it."""

    def __init__(self, game_id: int, what: str) -> None:
        super().__init__(f"The saved game #{game_id} is damaged ({what}) and cannot be loaded.")
        self.game_id = game_id
        self.what = what


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Reach:
    """What decides whether and how some players are reached now, read in one go."""

    #: ``(timezone, start hour, end hour)`` of each player who keeps quiet hours.
    quiet_hours: dict[int, tuple[str, int, int]]
    #: Each player's vacations still to end, in order.
    vacations: dict[int, list[tuple[float, float]]]
    #: How each player who chose is reached (see :meth:`~bot.store.people.People.notify_modes`).
    modes: dict[int, str]


@dataclass(frozen=True)
class SeatRecord:
    """A seat at the table: a Discord user (``user_id``) or an AI (``ai``, no user)."""

    seat: int
    user_id: int | None
    name: str
    ai: bool
    #: An AI plays this player's seat until they are back (see ``game back``).
    standing_in: bool = False
    #: The table opened this seat for a new player (``game sit``); an AI plays it meanwhile.
    open: bool = False
    #: The user who played this seat before it became an AI's (they left, or the table
    #: gave it to the AI): so that what is kept about them can still be found and removed.
    left: int | None = None
    #: How well an AI seat plays (``easy``, ``normal`` or ``strong``).
    level: str = "normal"

    @property
    def machine(self) -> bool:
        """Whether an AI plays this seat now (an AI seat, or one standing in)."""
        return self.ai or self.standing_in


@dataclass(frozen=True)
class GameRecord:
    """One row of ``games`` with its seats, as read at ``version``."""

    id: int
    channel_id: int
    guild_id: int | None
    game: str
    status: str  # 'lobby' | 'active' | 'finished' | 'aborted'
    creator_id: int
    options: dict[str, Any]
    settings: dict[str, Any]
    seed: int | None
    state_json: str | None  # engine state text, None in the lobby; never parsed here
    version: int
    seats: tuple[SeatRecord, ...]
    created_at: float
    updated_at: float
    turn_started_at: float | None
    reminders_sent: int
    next_reminder_at: float | None
    lobby_message_id: int | None
    board_message_id: int | None
    result_json: str | None
    #: The channel whose thread the game is played in (``channel_id``); ``None`` when the
    #: game is played in its channel itself. The lobby message, then the game's card,
    #: is in this channel.
    parent_id: int | None = None
    #: The ended game this lobby is the rematch of.
    rematch_of: int | None = None
    #: Why the place the game is shown in refuses the bot (``locked``: its thread locked by
    #: a moderator; ``threads_full``: the server's active threads at Discord's cap;
    #: ``permissions``: the bot may no longer post there), ``None`` when it does not; and
    #: when to look again.
    held: str | None = None
    held_until: float | None = None
    #: Each seat's clock, as :func:`bot.organized.clock.dump` stored it (``None``: the table
    #: has no clock, or it has not started), and when the clock loop next looks at it.
    clock: dict[str, Any] | None = None
    clock_due_at: float | None = None

    @property
    def card_channel_id(self) -> int:
        """Where the lobby message (in thread mode: the game's card) is."""
        return self.parent_id if self.parent_id is not None else self.channel_id


@dataclass(frozen=True)
class OpeningRecord:
    """A lobby being opened (see migration 16): counted from the start; each step done so
    far noted (its card posted, its thread started, its game stored) until it is shown."""

    id: int
    guild_id: int | None
    #: Where the lobby's message goes: the channel (in thread mode, the card's channel).
    channel_id: int
    creator_id: int
    game: str
    #: Whether the lobby gets a thread of its own (started from its card).
    threaded: bool
    #: The ended game whose rematch this is.
    rematch_of: int | None
    card_id: int | None
    thread_id: int | None
    game_id: int | None
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class ActionRecord:
    """One logged action: ``n`` counts from 1 within its game.

    ``notation`` is what was really played (the replay needs it); ``public`` is how
    everybody else saw it ("" in rows logged before hidden actions existed: then the
    notation itself was public). ``narration`` is public; ``private`` holds the lines
    only some seats may read, by seat. ``user_id`` is None when an AI chose the action.
    """

    n: int
    seat: int
    user_id: int | None
    notation: str
    narration: str
    at: float
    undoable: bool
    public: str = ""
    private: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    #: The game's episode key after this action (see ``Rules.episode``), if any.
    episode: str | None = None
    #: Whether the state before this action was kept, so undo can restore it.
    snapshot: bool = False

    @property
    def shown(self) -> str:
        """The action as everybody may see it."""
        return self.public or self.notation

    @property
    def by_ai(self) -> bool:
        return self.user_id is None

    def lines_for(self, seat: int | None) -> tuple[str, ...]:
        """The narration ``seat`` may read: the public lines, then its private ones."""
        public = (self.narration,) if self.narration else ()
        return public + (tuple(self.private.get(seat, ())) if seat is not None else ())


@dataclass(frozen=True)
class MoveRecord:
    """An action to log with :meth:`~bot.store.moves.Moves.commit_moves` (``user_id`` None
    for an AI).

    ``before`` is the state text before the action, kept so that undo can restore it
    (None for actions that cannot or need not be undone).
    """

    seat: int
    user_id: int | None
    notation: str
    narration: str
    undoable: bool
    public: str = ""
    private: Mapping[int, Sequence[str]] = field(default_factory=dict)
    before: str | None = None
    episode: str | None = None


@dataclass(frozen=True)
class Retold:
    """An ended game told again with a player's name replaced (``privacy delete``): each
    action whose words change, as ``(n, narration, public form, private lines by seat)``,
    and the summary of its result (``None``: unchanged)."""

    actions: tuple[tuple[int, str, str, Mapping[int, Sequence[str]]], ...] = ()
    summary: str | None = None


@dataclass(frozen=True)
class ClockWrite:
    """A table's clocks to store with a change (see :attr:`GameRecord.clock`): each
    seat's clock as data, and when the clock loop must next look (``None``: none runs)."""

    clock: Mapping[str, Any]
    due_at: float | None


@dataclass(frozen=True)
class FinishRecord:
    """How a game ended: the result text and ``(user_id, seat, place, won)`` per seat."""

    result_json: str
    placements: Sequence[tuple[int | None, int, int, bool]]


@dataclass(frozen=True, kw_only=True)
class Announcement:
    """A message to post in a channel because of a committed change (see the outbox).

    ``mentions`` are the only users it may ping; ``kind`` says what it is: what a change
    shows ("board": its board, carrying the ping of the players it hands the turn to;
    "card": its card; "strip": the buttons taken off an older board; "archive": a finished
    game's thread archived), or words ("turn", a ping that waits for a player away;
    "reminder", "dm", "notice"). What it says is ``data`` (JSON), worded by the Discord
    layer when it is sent; ``content`` is the text of announcements queued before they
    were data.
    """

    channel_id: int
    guild_id: int | None
    game_id: int | None
    kind: str
    content: str = ""
    mentions: tuple[int, ...] = ()
    #: When to post it (UNIX seconds), if not at once: a ping waits for a player away.
    due_at: float | None = None
    data: Mapping[str, Any] | None = None

    @property
    def lane(self) -> str:
        """The queue it waits in: a lane's announcements go out one at a time, in order.
        A direct message waits in its reader's lane, a card in its game's card lane, what
        follows a new board (its strip, the thread archived) in its game's lane, and the
        rest in its channel's lane, so that nothing failing in one holds up another."""
        if self.kind == "dm" and len(self.mentions) == 1:
            return f"user:{int(self.mentions[0])}"
        if self.kind == "card" and self.game_id is not None:
            return f"card:{int(self.game_id)}"
        if self.kind in ("strip", "archive") and self.game_id is not None:
            return f"game:{int(self.game_id)}"
        return channel_lane(self.channel_id)


def channel_lane(channel_id: int) -> str:
    """The lane of what is posted in ``channel_id`` (see :attr:`Announcement.lane`)."""
    return f"channel:{int(channel_id)}"


@dataclass(frozen=True)
class OutboxRecord:
    """A queued announcement, as claimed by a sender.

    ``nonce`` goes with every attempt to post it, so Discord creates it only once;
    ``attempts`` counts the claims so far (this one included); ``more`` says whether
    later announcements of its lane were waiting behind it when it was claimed, and
    ``superseded`` whether a later board (or card) of the same game was among them: only
    the latest is shown. ``version`` is the game's version when it was claimed, and
    ``shown`` its board message on show then.
    """

    id: int
    announcement: Announcement
    nonce: str
    created_at: float
    attempts: int
    more: bool = False
    lane: str = ""
    superseded: bool = False
    version: int | None = None
    shown: int | None = None


@dataclass
class Lease:
    """A sender's lease on the board a change queues, taken in the change's own
    transaction, so that the change's handler delivers it without claiming it: ``owner``'s
    for ``seconds`` from the change. The transaction leases the first announcement due at
    once in the game's channel lane when nothing waits ahead of it there (else the handler
    claims the lane's head as any sender does), and ``claimed`` is that row, as claimed.
    Should the handler die with it, the lease ends as any sender's does (see
    :meth:`~bot.store.outbox.Outbox.claim_announcements`)."""

    owner: str
    seconds: float
    claimed: OutboxRecord | None = None


@dataclass(frozen=True)
class StatLine:
    """A player's record in one game: finished games played and won."""

    game: str
    played: int
    won: int
    #: The player's skill rating in this game here, once a game of theirs was rated
    #: (left out of comparisons: a line compares by its counts).
    rating: Rating | None = field(default=None, compare=False)

# --------------------------------------------------------------------------- encoding

GAME_COLUMNS = (
    "id, channel_id, guild_id, game, status, creator_id, options, settings, seats, seed, "
    "state_json, version, created_at, updated_at, turn_started_at, reminders_sent, "
    "next_reminder_at, lobby_message_id, board_message_id, result_json, parent_id, "
    "rematch_of, held, held_until, clock, clock_due_at"
)
OPENING_COLUMNS = ("id, guild_id, channel_id, creator_id, game, threaded, rematch_of, card_id, "
                   "thread_id, game_id, created_at, updated_at")
#: The columns :func:`action_records` reads, in its order (the episode key is the tenth).
ACTION_COLUMNS = ("n, seat, user_id, notation, narration, at, undoable, public, private, "
                  "episode, before IS NOT NULL")


def dump_object(value: Mapping[str, Any], what: str) -> str:
    try:
        return json.dumps(dict(value), sort_keys=True)
    except (TypeError, ValueError):
        raise StoreError(f"The game {what} could not be saved: they must be plain "
                         f"text, numbers, true/false, lists or mappings.") from None


def dump_seats(seats: Sequence[SeatRecord]) -> str:
    numbers = [s.seat for s in seats]
    if len(set(numbers)) != len(numbers):
        raise StoreError("Two players cannot share one seat.")
    return json.dumps([{"seat": int(s.seat), "user_id": s.user_id, "name": str(s.name),
                        "ai": bool(s.ai), **({"standing_in": True} if s.standing_in else {}),
                        **({"open": True} if s.open else {}),
                        **({"left": int(s.left)} if s.left is not None else {}),
                        **({"level": str(s.level)} if s.level != "normal" else {})}
                       for s in seats])


def _load_object(game_id: int, text: str, what: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        raise CorruptRowError(game_id, f"unreadable {what}") from None
    if not isinstance(value, dict):
        raise CorruptRowError(game_id, f"{what} are not a mapping")
    return value


def load_seats(game_id: int, text: str) -> tuple[SeatRecord, ...]:
    try:
        raw = json.loads(text)
        seats = tuple(
            SeatRecord(int(s["seat"]), None if s["user_id"] is None else int(s["user_id"]),
                       str(s["name"]), bool(s["ai"]), bool(s.get("standing_in", False)),
                       bool(s.get("open", False)),
                       None if s.get("left") is None else int(s["left"]),
                       str(s.get("level", "normal")))
            for s in raw)
    except (TypeError, ValueError, KeyError):
        raise CorruptRowError(game_id, "unreadable seats") from None
    return seats


def dump_private(private: Mapping[int, Sequence[str]]) -> str:
    return json.dumps({str(int(seat)): [str(line) for line in lines]
                       for seat, lines in private.items() if lines}, sort_keys=True)


def load_private(game_id: int, text: str | None) -> dict[int, tuple[str, ...]]:
    try:
        raw = json.loads(text or "{}")
        return {int(seat): tuple(str(line) for line in lines) for seat, lines in raw.items()}
    except (TypeError, ValueError, AttributeError):
        raise CorruptRowError(game_id, "unreadable private narration") from None


def action_records(game_id: int, rows: Iterable[Row]) -> list[ActionRecord]:
    """The actions of rows read as :data:`ACTION_COLUMNS`."""
    return [ActionRecord(n, seat, user_id, notation, narration, at, bool(undoable), public,
                         load_private(game_id, private), episode, bool(snapshot))
            for (n, seat, user_id, notation, narration, at, undoable, public, private,
                 episode, snapshot) in rows]


def game_record(row: Row) -> GameRecord:
    (game_id, channel_id, guild_id, game, status, creator_id, options, settings, seats, seed,
     state_json, version, created_at, updated_at, turn_started_at, reminders_sent,
     next_reminder_at, lobby_message_id, board_message_id, result_json, parent_id,
     rematch_of, held, held_until, clock, clock_due_at) = row
    return GameRecord(
        id=game_id, channel_id=channel_id, guild_id=guild_id, game=game, status=status,
        creator_id=creator_id, options=_load_object(game_id, options, "options"),
        settings=_load_object(game_id, settings, "settings"), seed=seed,
        state_json=state_json, version=version, seats=load_seats(game_id, seats),
        created_at=created_at, updated_at=updated_at, turn_started_at=turn_started_at,
        reminders_sent=reminders_sent, next_reminder_at=next_reminder_at,
        lobby_message_id=lobby_message_id, board_message_id=board_message_id,
        result_json=result_json, parent_id=parent_id, rematch_of=rematch_of, held=held,
        held_until=held_until,
        clock=None if clock is None else _load_object(game_id, clock, "clock"),
        clock_due_at=clock_due_at)


def opening_record(row: Row) -> OpeningRecord:
    """An opening read as :data:`OPENING_COLUMNS`."""
    (opening_id, guild_id, channel_id, creator_id, game, threaded, rematch_of, card_id,
     thread_id, game_id, created_at, updated_at) = row
    return OpeningRecord(opening_id, guild_id, channel_id, creator_id, game, bool(threaded),
                         rematch_of, card_id, thread_id, game_id, created_at, updated_at)


def readable(rows: Sequence[Row], warning: str) -> list[GameRecord]:
    """The records of ``rows`` that can be read; each damaged one is logged with
    ``warning`` (game id, error) and left out, so it cannot hold up the others."""
    records = []
    for row in rows:
        try:
            records.append(game_record(row))
        except CorruptRowError as exc:
            log.warning(warning, exc.game_id, exc)
    return records


def same_as(column: str, value: int | None) -> tuple[str, tuple[int, ...]]:
    """``column`` equal to ``value``, NULL included, as SQL that an index serves on both
    backends (PostgreSQL's ``IS NOT DISTINCT FROM`` reads every row), and its parameters."""
    if value is None:
        return f"{column} IS NULL", ()
    return f"{column} = ?", (value,)


def check_int(value: int | None, what: str) -> int | None:
    if value is not None and not _INT_MIN <= int(value) <= _INT_MAX:
        raise StoreError(f"The {what} {value} is too large to save.")
    return value


@contextlib.contextmanager
def owner_only() -> Iterator[None]:
    """Files created meanwhile (a database, its log, a backup) are readable and writable by
    this user only: games hold names and private narration. (The process's umask; files
    that exist keep their permissions.)"""
    before = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(before)


@dataclass(frozen=True)
class WebTarget:
    """What a live web link names: a game (``kind`` ``game``, with its row) or a server's
    page (``server``, ``record`` ``None``); ``guild_id`` is the server either belongs to."""

    kind: str
    guild_id: int | None
    record: GameRecord | None = None
