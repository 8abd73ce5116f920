"""The game tables: everything a game does, without Discord.

Services composed around one commit pipeline (:class:`~bot.tables.core.Pipeline`:
a change planned, made ready, saved with all it must show, and described as a board),
each given that pipeline: :mod:`~bot.tables.lobby` (seats and starting),
:mod:`~bot.tables.moves` (the one move pipeline every surface calls: a request prepared,
then committed; undo), :mod:`~bot.tables.leave` (leaving, ending),
:mod:`~bot.tables.reminders` (reminders, the AI take-over, away time and notification
choices), :mod:`~bot.tables.seats` (the table's votes on a seat),
:mod:`~bot.tables.queries` (board, hand, status, log, replay, autocomplete, privacy),
:mod:`~bot.tables.clocks` (a table's clock: charged with every change, reminded, run
out; the reminders' AI stands in for it) and :mod:`~bot.tables.seasons` (a server's
seasons).
:class:`Tables` puts them together; a new service is a class given the pipeline (and
the services it asks), made beside the others in :meth:`Tables.__init__`. What the
tables refuse is a value of :mod:`bot.refusals`, what a change did besides its moves one
of :mod:`bot.tables.news`; the Discord layer words both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.engine import Engine
from bot.limits import Limits
from bot.store import Store
from bot.tables.announcements import Announcements
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
    MovesHook,
    Offload,
    Pipeline,
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
from bot.tables.lobby import Lobbies
from bot.tables.moves import Choosing, MoveRequest, Moves, Prepared
from bot.tables.places import Places
from bot.tables.queries import FORMER_PLAYER, Forgotten, MyGame, Queries
from bot.tables.reminders import Reminders
from bot.tables.seasons import Seasons
from bot.tables.seats import SeatVote, SeatVotes
from bot.tables.timed import TableClock
from bot.tables.upkeep import Upkeep
from bot.watch import Watch, unwatched


class Tables:
    """The tables' services over a :class:`~bot.store.Store` and the game registry, all
    given one :class:`~bot.tables.core.Pipeline` (the arguments are the pipeline's)."""

    def __init__(self, store: Store, games: Mapping[str, Engine] | None = None,
                 clock: Clock | None = None, *, on_moves: MovesHook | None = None,
                 limits: Limits | None = None, watch: Watch = unwatched,
                 think: Think = think_here, offload: Offload | None = None) -> None:
        self.pipeline = Pipeline(store, games, clock, on_moves=on_moves, limits=limits,
                                 watch=watch, think=think, offload=offload)
        self.lobbies = Lobbies(self.pipeline)
        self.moves = Moves(self.pipeline)
        self.leaving = Leaving(self.pipeline, self.lobbies)
        self.reminders = Reminders(self.pipeline)
        self.seats = SeatVotes(self.pipeline)
        self.queries = Queries(self.pipeline)
        self.clocks = Clocks(self.pipeline, self.reminders)
        self.seasons = Seasons(self.pipeline)
        self.places = Places(self.pipeline)
        self.upkeep = Upkeep(self.pipeline)
        self.announcements = Announcements(self.pipeline)
        # Every change the pipeline saves charges the running clocks, less their pauses.
        self.pipeline.clocks = self.clocks

    @classmethod
    async def open(cls, target: str, games: Mapping[str, Engine] | None = None,
                   clock: Clock | None = None, *, watch: Watch = unwatched,
                   **options: Any) -> Tables:
        """The tables over the database ``target`` (a SQLite path or a PostgreSQL URL),
        opened now; ``options`` are the pipeline's."""
        store = await Store.open(target)
        store.watch = watch
        return cls(store, games, clock, watch=watch, **options)

    async def close(self) -> None:
        """Close the database."""
        await self.pipeline.store.close()

    @property
    def store(self) -> Store:
        return self.pipeline.store

    @property
    def games(self) -> Mapping[str, Engine]:
        return self.pipeline.games

    @property
    def clock(self) -> Clock:
        return self.pipeline.clock

    @property
    def limits(self) -> Limits:
        return self.pipeline.limits

    def game(self, slug: str) -> Engine:
        """The registered game called ``slug``."""
        return self.pipeline.game(slug)


__all__ = [
    "DEFAULT_REMINDER_HOURS", "FORMER_PLAYER", "HOLDING", "LOG_LIMIT", "MAX_AI_STEPS",
    "MAX_REMINDERS",
    "MAX_REMINDER_HOURS", "MAX_SUGGESTIONS", "STAND_IN_LEVEL", "AlreadyMadeError", "Board",
    "CardsShown", "Choosing", "Clock", "Clocks",
    "Conceded", "DamagedStateError", "Forfeit", "Forgotten", "Hand", "Lobby", "MoveRequest",
    "MyGame", "Pipeline", "Prepared", "Reminder", "SeatVote", "Status", "Step", "TableClock",
    "TableError", "Tables", "Think",
    "dumps_result", "lobby_owner", "plural", "seat_label", "step_of", "stored_result",
    "think_here",
]
