"""The errors a player can cause: each says, in words safe to show them, why nothing
changed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class GameError(Exception):
    """An error a player can cause; ``str(err)`` is safe to show them.

    It crosses to another process whole (a move worked out in a worker process): pickled
    as its class, message and attributes, whatever its constructor takes."""

    def __reduce__(self) -> tuple[Any, ...]:
        return _error_again, (type(self), self.args, self.__dict__)


def _error_again(kind: type[GameError], args: tuple[Any, ...],
                 attributes: dict[str, Any]) -> GameError:
    """A :class:`GameError` unpickled: built without its constructor, then given its
    message and attributes back."""
    error = kind.__new__(kind)
    Exception.__init__(error, *args)
    error.__dict__.update(attributes)
    return error


class NotationError(GameError):
    """The text is not an action in ``game``'s notation at all: ``typed`` (empty: nothing
    was typed) and the game's ``help``."""

    def __init__(self, game: str, typed: str, help: str) -> None:
        super().__init__(f"not a move of {game}: {typed!r}")
        self.game = game
        self.typed = typed
        self.help = help


class IllegalActionError(GameError):
    """Well-formed notation for an action the rules do not allow right now, or a known
    move with arguments it cannot take (``typed``: what was typed, when it says more than
    the explanation alone)."""

    def __init__(self, message: str, typed: str = "") -> None:
        super().__init__(message)
        self.typed = typed


class AmbiguousActionError(GameError):
    """The text ``typed`` fits more than one legal action: the ``candidates``."""

    def __init__(self, typed: str, candidates: Sequence[str]) -> None:
        super().__init__(f"{typed!r} could mean any of {len(candidates)} moves")
        self.candidates = list(candidates)
        self.typed = typed


class NotYourTurnError(GameError):
    """The seat may not act now: ``waiting`` names the seats the game waits for, and
    ``decided`` says the seat has already given its answer to a joint decision."""

    def __init__(self, message: str, *, waiting: Sequence[str] = (),
                 decided: bool = False) -> None:
        super().__init__(message)
        self.waiting = tuple(waiting)
        self.decided = decided


class StaleActionError(GameError):
    """The action was chosen on an older state (a stale button)."""


class GameOverError(GameError):
    """The game has already ended."""


class OptionsError(GameError):
    """A malformed or out-of-range game option, or a bad seat count."""


class CorruptStateError(GameError):
    """A saved state that cannot be read back."""


class RulesVersionError(GameError):
    """A saved game made under other rules than this bot plays, with no way to carry it over:
    ``made`` is its rules version, ``plays`` this bot's, for the game ``title``."""

    def __init__(self, message: str, *, title: str = "", made: int = 0, plays: int = 0,
                 replaying: bool = False) -> None:
        super().__init__(message)
        self.title, self.made, self.plays = title, made, plays
        #: Only a replay of the game is refused; the game itself plays on.
        self.replaying = replaying
