"""The game tables: everything a game does, without Discord.

One service, :class:`Tables`, split by what it does: :mod:`~bot.tables.moves` (the one
move pipeline: a request prepared, then committed; undo), :mod:`~bot.tables.lobby`
(seats and starting), :mod:`~bot.tables.leave` (leaving, ending),
:mod:`~bot.tables.reminders` (reminders, the AI take-over, away time and notification
choices), :mod:`~bot.tables.seats` (the table's votes on a seat) and
:mod:`~bot.tables.queries` (board, hand, status, log, replay, autocomplete, privacy), on
the shared :mod:`~bot.tables.core`. What the tables refuse is a value of
:mod:`bot.refusals`, what a change did besides its moves one of :mod:`bot.tables.news`;
the Discord layer words both.
"""

from __future__ import annotations

from typing import Any

from bot.tables.clocks import Clocks, Forfeit
from bot.tables.core import (
    DEFAULT_REMINDER_HOURS,
    HOLDING,
    LOG_LIMIT,
    MAX_AI_STEPS,
    MAX_REMINDER_HOURS,
    MAX_REMINDERS,
    MAX_SUGGESTIONS,
    STAND_IN_LEVEL,
    AlreadyMadeError,
    Board,
    CardsShown,
    Clock,
    Conceded,
    DamagedStateError,
    Hand,
    Lobby,
    Reminder,
    Status,
    Step,
    TableError,
    Think,
    dumps_result,
    lobby_owner,
    plural,
    seat_label,
    step_of,
    stored_result,
    think_here,
)
from bot.tables.leave import Leaving
from bot.tables.moves import Choosing, MoveRequest, Prepared
from bot.tables.queries import FORMER_PLAYER, Forgotten, MyGame, Queries
from bot.tables.reminders import Reminders
from bot.tables.seats import SeatVote, SeatVotes
from bot.tables.timed import TableClock


class Tables(Leaving, Reminders, Queries, SeatVotes):
    """The service layer over a :class:`~bot.store.Store` and the game registry."""

    clocks: Clocks

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clocks = Clocks(self)


__all__ = [
    "DEFAULT_REMINDER_HOURS",
    "FORMER_PLAYER",
    "HOLDING",
    "LOG_LIMIT",
    "MAX_AI_STEPS",
    "MAX_REMINDERS",
    "MAX_REMINDER_HOURS",
    "MAX_SUGGESTIONS",
    "STAND_IN_LEVEL",
    "AlreadyMadeError",
    "Board",
    "CardsShown",
    "Choosing",
    "Clock",
    "Clocks",
    "Conceded",
    "DamagedStateError",
    "Forfeit",
    "Forgotten",
    "Hand",
    "Lobby",
    "MoveRequest",
    "MyGame",
    "Prepared",
    "Reminder",
    "SeatVote",
    "Status",
    "Step",
    "TableClock",
    "TableError",
    "Tables",
    "Think",
    "dumps_result",
    "lobby_owner",
    "plural",
    "seat_label",
    "step_of",
    "stored_result",
    "think_here",
]
