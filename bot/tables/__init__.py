"""The game tables: everything a channel's game does, without Discord.

The service is split by what it does: :mod:`~bot.tables.lobby` (seats and
starting), :mod:`~bot.tables.play` (moves, undo, leaving),
:mod:`~bot.tables.reminders`, :mod:`~bot.tables.seats` (the table's votes on a stood-in
seat) and :mod:`~bot.tables.queries` (board, hand,
status, log, replay, autocomplete), on the shared :mod:`~bot.tables.core`.
"""

from __future__ import annotations

from bot.tables.core import (
    DEFAULT_REMINDER_HOURS,
    LOG_LIMIT,
    MAX_AI_STEPS,
    MAX_REMINDER_HOURS,
    MAX_REMINDERS,
    MAX_SUGGESTIONS,
    AlreadyMadeError,
    Announcer,
    Board,
    Checked,
    Clock,
    Conceded,
    DamagedStateError,
    Hand,
    Handover,
    Lobby,
    Reminder,
    Status,
    Step,
    TableError,
    dumps_result,
    lobby_owner,
    plural,
)
from bot.tables.play import Plays
from bot.tables.queries import FORMER_PLAYER, Forgotten, MyGame, Queries
from bot.tables.reminders import Reminders
from bot.tables.seats import SeatVote, SeatVotes


class Tables(Plays, Reminders, Queries, SeatVotes):
    """The service layer over a :class:`~bot.store.Store` and the game registry."""


__all__ = [
    "DEFAULT_REMINDER_HOURS", "FORMER_PLAYER", "LOG_LIMIT", "MAX_AI_STEPS", "MAX_REMINDERS",
    "MAX_REMINDER_HOURS", "MAX_SUGGESTIONS", "AlreadyMadeError", "Announcer", "Board", "Checked",
    "Clock", "Conceded", "DamagedStateError", "Forgotten", "Hand", "Handover", "Lobby", "MyGame",
    "Reminder", "SeatVote", "Status", "Step", "TableError", "Tables", "dumps_result",
    "lobby_owner", "plural",
]
