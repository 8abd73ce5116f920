"""What a change did besides its moves, as values: told above the moves on the board.

The tables report news as data; the Discord layer words it (:mod:`bot.discord.words`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, kw_only=True)
class News:
    """Something a change did besides the moves it made."""


@dataclass(frozen=True, kw_only=True)
class Begins(News):
    """The game ``title`` begins; ``setup`` is what its set-up told everybody."""

    title: str
    setup: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Left(News):
    """``name`` left the game: an AI took the seat, or (``last``) no player remains and
    the game is over."""

    name: str
    last: bool = False


@dataclass(frozen=True, kw_only=True)
class StoodIn(News):
    """After ``reminders`` unanswered reminders, an AI stands in for ``names``."""

    names: tuple[str, ...]
    reminders: int


@dataclass(frozen=True, kw_only=True)
class OutOfTime(News):
    """The clock of ``names`` ran out, and the table's ``rule`` applied: an AI stands in
    (``stand_in``), their turn was skipped (``skip``) or they forfeited (``forfeit``)."""

    names: tuple[str, ...]
    rule: str


@dataclass(frozen=True, kw_only=True)
class Back(News):
    """``name`` is back: the AI standing in hands the seat back."""

    name: str


@dataclass(frozen=True, kw_only=True)
class MovedOn(News):
    """AI seats (``names``) had not played yet (a save that failed, a stop); now they have."""

    names: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Undone(News):
    """``name`` took back ``shown`` and the ``ai_moves`` AI moves that answered it."""

    name: str
    shown: str
    ai_moves: int = 0


@dataclass(frozen=True, kw_only=True)
class SeatGiven(News):
    """The table gave ``name``'s seat ``to`` the AI for good (``ai``) or opened it for a new
    player (``newcomer``), by ``votes`` of ``voters`` votes."""

    name: str
    to: str
    votes: int
    voters: int


@dataclass(frozen=True, kw_only=True)
class SeatTaken(News):
    """``name`` took the open seat that was ``previous``'s."""

    name: str
    previous: str


@dataclass(frozen=True, kw_only=True)
class Resumed(News):
    """The game's place takes the bot's posts again after refusing them (``why``: see
    :class:`~bot.refusals.Held`): the game goes on from where it was saved."""

    why: str


def as_data(items: Sequence[News]) -> list[dict[str, Any]]:
    """``items`` as JSON data (a queued board keeps the news of its change)."""
    return [{"news": type(item).__name__,
             **{f.name: getattr(item, f.name) for f in fields(item)}} for item in items]


def from_data(data: Any) -> tuple[News, ...]:
    """The news :func:`as_data` wrote (whatever it cannot read is left out: a board is
    still shown without it)."""
    kinds = {kind.__name__: kind for kind in News.__subclasses__()}
    out: list[News] = []
    for entry in data if isinstance(data, list) else ():
        try:
            fields = dict(entry)
            kind = kinds[fields.pop("news")]
            out.append(kind(**{name: tuple(value) if isinstance(value, list) else value
                               for name, value in fields.items()}))
        except (KeyError, TypeError, ValueError):
            continue
    return tuple(out)
