"""What one person or one server may ask of a bot that strangers share.

A public bot sits among people who never agreed to play nicely, so every kind of
request that costs the host something has a bound: lobbies a person hosts, seats a
person holds, open games in one server, and a cooldown between a person's own posts
in public (a board, a log, a leaderboard) and their own replays. The bounds are
settings (:class:`Limits`, read from the environment by :mod:`bot.config`) with
defaults a small server never meets; docs/reliability.md lists them.

A refused request changes nothing: it raises a :class:`~bot.refusals.Refused` value
that says which bound and, for a cooldown, when to try again. A request that would
only post something in public again too soon (a board, a log, a leaderboard) is not
refused: its answer comes privately, with when it may be posted for everyone again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.refusals import CoolingDown

#: The kinds of request with a cooldown, and the default seconds between a person's own.
COOLDOWNS: dict[str, float] = {
    "board": 30.0,        # /game board posted in public
    "log": 30.0,          # /game log in public
    "status": 30.0,       # /game status in public
    "history": 30.0,      # /game history in public
    "stats": 30.0,        # /stats (a player's lines) in public
    "vote": 30.0,         # /game vote said in public
    "lobby": 300.0,       # a new lobby after closing three unstarted (open, cancel, again)
    "leaderboard": 60.0,  # /stats board: a picture in public
    "replay": 120.0,      # /game replay: a heavy picture
    "tournament": 300.0,  # a new sign-up after calling off three (open, cancel, again)
}
#: Kinds a person may do a few times within their cooldown before waiting: how many.
BURSTS: dict[str, int] = {"lobby": 3, "tournament": 3}


@dataclass(frozen=True)
class Limits:
    """The bounds of one bot (see the module text); every figure is at least 1."""

    #: Lobbies one person hosts at once.
    lobbies_per_person: int = 3
    #: Seats one person holds at once, in lobbies and games under way, on every server.
    games_per_person: int = 25
    #: Lobbies and games under way in one server.
    games_per_server: int = 100
    #: Seconds between a person's own public board, log and leaderboard posts.
    public_cooldown: float = COOLDOWNS["board"]
    #: Seconds between a person's own replays.
    replay_cooldown: float = COOLDOWNS["replay"]
    #: Replays (and other heavy pictures) drawn at once; the rest wait in line.
    heavy_at_once: int = 1
    #: Heavy pictures that may wait in line; past that a request is refused as busy.
    heavy_queue: int = 20
    #: Days a lobby stays open without a change (a join, a seat, an option) before it
    #: closes, its players told: an abandoned lobby holds no channel for good.
    lobby_days: float = 7.0
    #: Seasons one server has set that are not over yet (under way or to come); past
    #: seasons are kept with their standings and do not count.
    seasons_per_server: int = 12
    #: Tournaments signing up or under way in one server at once.
    tournaments_per_server: int = 2
    #: Players one tournament takes (its games count against no other limit).
    players_per_tournament: int = 32
    #: Tournaments one person is signed up for (or still plays in) at once.
    tournaments_per_person: int = 3

    def cooldown(self, kind: str) -> float:
        """Seconds between a person's own requests of ``kind`` (see :data:`COOLDOWNS`)."""
        if kind == "replay":
            return self.replay_cooldown
        if kind == "leaderboard":
            return 2 * self.public_cooldown
        if kind in ("lobby", "tournament"):
            return 10 * self.public_cooldown
        return self.public_cooldown


#: How many people's cooldowns one process remembers; the oldest are forgotten first
#: (their cooldowns are long over by then).
REMEMBERED = 50_000


class Cooldowns:
    """When each person may next make each kind of request (in this process's memory).

    A request is checked with :meth:`check` before any work and counted with
    :meth:`spend` once it is accepted, so a refused request does not restart the wait.
    """

    def __init__(self, limits: Limits, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.clock = clock
        self._until: OrderedDict[tuple[int, str], float] = OrderedDict()
        #: For the kinds of :data:`BURSTS`: when each of the person's last few was made.
        self._made: OrderedDict[tuple[int, str], tuple[float, ...]] = OrderedDict()

    def waiting(self, user_id: int, kind: str) -> float | None:
        """Until when ``user_id`` must wait before their next request of ``kind`` (``None``:
        they may go ahead now)."""
        if kind in BURSTS:
            made = self._recent(user_id, kind)
            if len(made) < BURSTS[kind]:
                return None
            return made[0] + self.limits.cooldown(kind)
        until = self._until.get((user_id, kind))
        return until if until is not None and until > self.clock() else None

    def _recent(self, user_id: int, kind: str) -> tuple[float, ...]:
        """The times of ``user_id``'s requests of ``kind`` still within its cooldown."""
        since = self.clock() - self.limits.cooldown(kind)
        return tuple(t for t in self._made.get((user_id, kind), ()) if t > since)

    def check(self, user_id: int, kind: str) -> None:
        """Raise :class:`~bot.refusals.CoolingDown` if ``user_id`` must still wait."""
        until = self.waiting(user_id, kind)
        if until is not None:
            raise CoolingDown(what=kind, until=until)

    def spend(self, user_id: int, kind: str) -> None:
        """Start ``user_id``'s wait before their next request of ``kind`` (of a kind of
        :data:`BURSTS`, count one more of their few)."""
        key = (user_id, kind)
        if kind in BURSTS:
            self._made[key] = (*self._recent(user_id, kind), self.clock())[-BURSTS[kind]:]
            self._made.move_to_end(key)
            while len(self._made) > REMEMBERED:
                self._made.popitem(last=False)
            return
        self._until[key] = self.clock() + self.limits.cooldown(kind)
        self._until.move_to_end(key)
        while len(self._until) > REMEMBERED:
            self._until.popitem(last=False)

    def give_back(self, user_id: int, kind: str) -> None:
        """Undo :meth:`spend` for a request that was refused after all (the heavy pictures'
        line was full): the person may ask again as soon as that refusal says."""
        self._until.pop((user_id, kind), None)

    def take(self, user_id: int, kind: str) -> None:
        """:meth:`check`, then :meth:`spend`: the request goes ahead now."""
        self.check(user_id, kind)
        self.spend(user_id, kind)
