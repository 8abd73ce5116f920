"""Requests the bot turns down, as values.

Below the Discord layer a refusal carries data (which limit, until when, whose
move), never words: :mod:`bot.discord.words` writes what the person reads. A
refusal changes nothing; it is raised before anything is stored or posted.

Every refusal is a :class:`~bot.games.engine.GameError`, so code that lets a
player's mistake pass quietly (autocomplete, for one) treats them alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.engine import GameError


@dataclass(eq=False)
class Refused(GameError):
    """A request turned down. Subclasses carry what the words need, keyword-only."""

    def __post_init__(self) -> None:
        # The class name stands in for a message in logs; players read the words.
        super().__init__(type(self).__name__)


@dataclass(eq=False, kw_only=True)
class LimitReached(Refused):
    """A bound of :class:`~bot.limits.Limits` is reached: ``limit`` names it
    (``lobbies``, ``games``, ``server_games``), ``allowed`` is its figure."""

    limit: str
    allowed: int


@dataclass(eq=False, kw_only=True)
class CoolingDown(Refused):
    """The person made a request of kind ``what`` too recently; again from ``until``."""

    what: str
    until: float


@dataclass(eq=False, kw_only=True)
class Busy(Refused):
    """Too many heavy pictures wait in line; try again from ``retry_at``."""

    retry_at: float


@dataclass(eq=False, kw_only=True)
class HostOnly(Refused):
    """Only the lobby's host (``host``, a user id, or none) may do ``what``:
    ``start``, ``add_ai`` or ``remove``."""

    what: str
    host: int | None


@dataclass(eq=False, kw_only=True)
class RemovedFromLobby(Refused):
    """The host removed this person from the lobby; they cannot join it again."""


@dataclass(eq=False, kw_only=True)
class NotInLobby(Refused):
    """The seat the host asked to remove is no longer in the lobby."""


@dataclass(eq=False, kw_only=True)
class HostCannotRemoveSelf(Refused):
    """The host asked to remove their own seat (they leave instead)."""


@dataclass(eq=False, kw_only=True)
class MayNotEnd(Refused):
    """Ending the game takes its host or Manage Channels (``host``: a user id or none;
    ``started``: the game is under way, where only a host still seated may end it)."""

    host: int | None
    started: bool


@dataclass(eq=False, kw_only=True)
class OthersStillPlaying(Refused):
    """The host may not end a game under way while other people still play it: the
    game is theirs too. ``players`` counts them."""

    players: int


@dataclass(eq=False, kw_only=True)
class OutOfRange(Refused):
    """An option's value lies outside what the bot can use: ``option`` names it,
    ``reason`` is ``too_far`` (a date too far ahead) or ``too_large`` (a number or id)."""

    option: str
    reason: str
