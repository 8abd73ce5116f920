"""Requests the bot turns down, as values.

Below the Discord layer a refusal carries data (which limit, until when, whose
move), never words: :mod:`bot.discord.words` writes what the person reads. A
refusal changes nothing; it is raised before anything is stored or posted.

Every refusal is a :class:`~bot.games.engine.GameError`, so code that lets a
player's mistake pass quietly (autocomplete, for one) treats them alike. Its
``str()`` is its class name and data, for logs.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, dataclass_transform

from bot.games.engine import GameError


@dataclass_transform(eq_default=False, kw_only_default=True)
@dataclass(eq=False)
class Refused(GameError):
    """A request turned down. Subclasses carry what the words need, keyword-only: each is
    a dataclass of its fields (made so here, once for all)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclass(eq=False, kw_only=True)(cls)

    def __post_init__(self) -> None:
        super().__init__(str(self))

    def __str__(self) -> str:
        data = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self))
        return f"{type(self).__name__}({data})"


# --------------------------------------------------------------------------- limits


class LimitReached(Refused):
    """A bound of :class:`~bot.limits.Limits` is reached: ``limit`` names it
    (``lobbies``, ``games``, ``server_games``), ``allowed`` is its figure."""

    limit: str
    allowed: int


class CoolingDown(Refused):
    """The person made a request of kind ``what`` too recently; again from ``until``."""

    what: str
    until: float


class Busy(Refused):
    """Too many heavy pictures wait in line; try again from ``retry_at``."""

    retry_at: float


class OutOfRange(Refused):
    """An option's value lies outside what the bot can use: ``option`` names it,
    ``reason`` is ``too_far`` (a date too far ahead) or ``too_large`` (a number or id)."""

    option: str
    reason: str


# --------------------------------------------------------------------------- finding the game


class NoSuchGame(Refused):
    """No registered game is called ``slug``; ``known`` are the slugs there are."""

    slug: str
    known: tuple[str, ...]


class NoGameHere(Refused):
    """The channel (or thread) holds no game."""


class NotStarted(Refused):
    """The game is still a lobby."""


class GameGone(Refused):
    """The game a button names no longer exists."""


class GameEnded(Refused):
    """A choice made for a game that is over."""


class ElsewhereButton(Refused):
    """A button of a game in another channel (``channel_id``) clicked here."""

    channel_id: int


class NotPlaying(Refused):
    """The person has no seat in the game; ``waiting`` names those it waits for."""

    waiting: tuple[str, ...] = ()


class NotYourTurn(Refused):
    """The person may not act now; ``waiting`` names those the game waits for."""

    waiting: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Said:
    """A move as it may be told to anybody: who, and what (its public form when hidden)."""

    name: str
    shown: str
    hidden: bool = False
    #: An AI chose it for the player of this seat (a stand-in).
    for_player: bool = False


class Expired(Refused):
    """The decision a button was made for is no longer open for the clicker; ``since``
    tells the moves made since it was offered (the last few), ``earlier`` how many
    before those."""

    since: tuple[Said, ...] = ()
    earlier: int = 0


class AlreadyMade(Refused):
    """Another change reached the game first, so this one was not made. ``reason``:
    ``raced`` (a move was made first), ``twice`` (the request arrived twice, and made
    its move once), ``busy`` (it lost every race), ``lobby_busy``, ``lobby_changed``,
    ``undo`` or ``leave`` (the game moved on before it)."""

    reason: str


class Damaged(Refused):
    """The saved game ``game_id`` cannot be read (``what`` is wrong with it): only an
    abort clears it, and ``manage`` says that takes Manage Channels."""

    game_id: int
    what: str
    manage: bool = False


# --------------------------------------------------------------------------- lobbies


class BadSeats(Refused):
    """``seats`` outside what the game ``title`` allows."""

    title: str
    low: int
    high: int


class BadReminderHours(Refused):
    """``reminder_hours`` not more than 0 and at most ``most``."""

    most: float


class ChannelTaken(Refused):
    """The channel already holds a game (``title``, or none when it is unknown; ``lobby``
    when it is still a lobby); one game per channel."""

    title: str | None
    lobby: bool
    #: Why the game could not have a thread of its own here ("" when nobody asked:
    #: ``off`` the server turned threads off, ``type`` a channel without threads,
    #: ``permissions`` the bot may not create or post in threads here).
    no_thread: str = ""


class BadSeason(Refused):
    """A season cannot be set as asked: ``reason`` is ``name`` (not a name a season may
    have), ``taken`` (another season of the server has it), ``date`` (not a day as
    YYYY-MM-DD), ``order`` (it ends before it starts), ``past`` (it starts before today),
    ``too_long`` or ``too_far``; ``text`` is what was typed."""

    reason: str
    text: str


class SeasonsOverlap(Refused):
    """A new season would share days with the server's season ``other``, which runs from
    ``starts_at`` to ``ends_at``."""

    other: str
    starts_at: float
    ends_at: float


class NoSuchSeason(Refused):
    """The server has no season called ``name``."""

    name: str


class SeasonOver(Refused):
    """The season ``name`` is over already: its final standings are kept."""

    name: str


class ManageServerOnly(Refused):
    """A server's settings are changed by people with Manage Server only."""


class ThreadsFull(Refused):
    """Discord's cap on a server's active threads is reached (its error 160006)."""


class NotOpened(Refused):
    """Discord refused a step of opening a lobby, so nothing was opened: ``why`` is
    ``discord`` (Discord failed on its side: a moment later may work) or ``permissions``
    (the bot may not post in the channel: ``thread`` when it may start a game's thread
    there but not post in the channel itself)."""

    why: str
    thread: bool = False


class Held(Refused):
    """The thread a game is played in refuses the bot, so no change to it is made until
    it takes the bot's posts again: ``why`` is ``locked`` (a moderator locked it) or
    ``threads_full`` (it is archived and the server is at Discord's cap on active
    threads)."""

    why: str


class NotAGamesChannel(Refused):
    """The server lets games open only in ``channels``."""

    channels: tuple[int, ...]


class NotOver(Refused):
    """A rematch of a game that has not ended with a result."""


class NotAPlayer(Refused):
    """A rematch asked by someone who did not finish the game at its table."""


class RematchOpened(Refused):
    """The game's rematch is already open (game ``game_id``, played in ``channel_id``)."""

    game_id: int
    channel_id: int | None


class RematchOpening(Refused):
    """Another player is opening the game's rematch at this very moment."""


class LobbyClosed(Refused):
    """The lobby has started or closed."""


class AlreadyJoined(Refused):
    """The person already has a seat."""


class LobbyFull(Refused):
    """Every seat is taken."""


class NotJoined(Refused):
    """The person has no seat to leave (``started``: in a game under way)."""

    started: bool = False


class NeedMorePlayers(Refused):
    """``title`` needs ``needed`` players; ``joined`` have."""

    title: str
    needed: int
    joined: int


class HostOnly(Refused):
    """Only the lobby's host (``host``, a user id, or none) may do ``what``:
    ``start``, ``add_ai`` or ``remove``."""

    what: str
    host: int | None


class RemovedFromLobby(Refused):
    """The host removed this person from the lobby; they cannot join it again."""


class NotInLobby(Refused):
    """The seat the host asked to remove is no longer in the lobby."""


class HostCannotRemoveSelf(Refused):
    """The host asked to remove their own seat (they leave instead)."""


class MayNotEnd(Refused):
    """Ending the game takes its host or Manage Channels (``host``: a user id or none;
    ``started``: the game is under way, where only a host still seated may end it)."""

    host: int | None
    started: bool


class OthersStillPlaying(Refused):
    """The host may not end a game under way while other people still play it: the
    game is theirs too. ``players`` counts them."""

    players: int


# --------------------------------------------------------------------------- moves


class PickCount(Refused):
    """A several-at-once menu takes from ``low`` to ``high`` items."""

    low: int
    high: int


class NothingToUndo(Refused):
    """The person has made no move that undo could take back."""


class NotYourLastMove(Refused):
    """Another player acted since: ``name`` played ``shown`` last."""

    name: str
    shown: str


class CannotUndo(Refused):
    """``shown`` revealed or drew something (``after``: a later move, ``(name, shown)``,
    did), or was made before undo was kept (``unkept``)."""

    shown: str
    after: tuple[str, str] | None = None
    unkept: bool = False


class NoStandIn(Refused):
    """No AI stands in for the person: their seat is theirs."""


# --------------------------------------------------------------------------- looking


class NoGameNumbered(Refused):
    """No game ``game_id`` was played in this channel."""

    game_id: int


class NeverStarted(Refused):
    """Game ``game_id`` never started: there is nothing to see."""

    game_id: int


class EndedDamaged(Refused):
    """Game ``game_id`` has ended, but its saved state cannot be read."""

    game_id: int


class NotAPlace(Refused):
    """``zoom`` is no place of the game ``title`` (``spots`` are; none: it has none)."""

    title: str
    zoom: str
    spots: tuple[str, ...] = ()


class NothingToDecide(Refused):
    """The game is over: there is no private choice left."""


class NoHand(Refused):
    """The person has no seat, so no private view (``ended``: of the last ended game)."""

    ended: bool = False


# --------------------------------------------------------------------------- seats and votes


class VoteWhat(Refused):
    """A vote gives a seat to the AI or to a newcomer, nothing else."""


class NotUpForVote(Refused):
    """The seat is neither stood in for nor silent past its last reminder."""


class OthersVote(Refused):
    """Only the other players at the table vote on a seat."""


class AlreadySeated(Refused):
    """The person already has a seat in the game."""


class NoOpenSeat(Refused):
    """No seat is open to a newcomer."""


# --------------------------------------------------------------------------- people


class QuietHoursIncomplete(Refused):
    """Quiet hours take a time zone and both hours, or none of them."""


class Away(Refused):
    """Quiet hours or a vacation that cannot be kept; ``problem`` says why
    (``hours``, ``same_hours``, ``zone``, ``short``, ``overlap``, ``allowance``,
    ``not_a_date``, ``day_over``), with what the words need in ``detail``."""

    problem: str
    detail: dict[str, object] = field(default_factory=dict)


class BadChoice(Refused):
    """An option outside its choices: ``option`` and the ``choices`` it has."""

    option: str
    choices: tuple[str, ...]


# --------------------------------------------------------------------------- tournaments


class NoSuchTournament(Refused):
    """The tournament a button or command names does not exist (or is another server's)."""


class BadTournament(Refused):
    """A tournament that cannot be run as asked: ``reason`` is ``two_seats`` (Swiss and
    round-robin seat two a table: the game ``title`` must allow two), ``pairs`` (they
    seat no other number), ``pod_seats`` (pods
    seat ``low`` to ``high``), ``rounds`` (1 to ``high``), ``format`` (unknown),
    ``deadline`` (``low`` to ``high`` hours away), ``channel`` (asked in a thread),
    ``threads`` (the bot may not start threads here) or
    ``which`` (the server has several: name one)."""

    reason: str
    title: str = ""
    low: int = 0
    high: int = 0


class NotSigningUp(Refused):
    """The tournament has started or ended: no more sign-ups, nor a start."""


class AlreadyEntered(Refused):
    """The person is signed up already."""


class NotEntered(Refused):
    """The person is not (or no longer) playing in the tournament."""


class TournamentHostOnly(Refused):
    """Only the tournament's ``host`` (or someone with Manage Server) may start or end it."""

    host: int


class TooFewPlayers(Refused):
    """The tournament needs ``needed`` players to start; ``joined`` signed up."""

    needed: int
    joined: int
