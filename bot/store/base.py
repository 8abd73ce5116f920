"""The store: a backend's connector and the aggregates over it.

:class:`Store` opens a backend (a :class:`~bot.store.connection.Connector`: SQLite's or
PostgreSQL's) and holds one object per aggregate of the game database, each with one job:
``store.games`` (lobbies to finish), ``store.moves`` (the action log), ``store.openings``,
``store.clocks`` (reminders, clocks, uptime), ``store.outbox`` (announcements and their
senders), ``store.people`` (reach and privacy), ``store.ratings`` (stats, leaders,
seasons), ``store.servers``, ``store.web`` (web links) and ``store.tournaments``. Their SQL
is written once for both backends (``?`` marks parameters; the PostgreSQL connector
translates them) over the typed :class:`~bot.store.connection.Connection`. A write that
spans aggregates stays one transaction: an aggregate runs another's helper (a function
given the connection, such as :func:`bot.store.outbox.queue`) inside its own.

Concurrency rules, on both backends:

* Every write runs in one transaction; a statement or the COMMIT failing rolls the whole
  write back and raises :class:`NotSavedError`, and the store stays usable.
* ``games.version`` goes up on every write to a game row except the two message ids and
  reminder bookkeeping. A writer passes the version it read; the UPDATE is conditional on
  it, so if the row moved on (another task or process wrote first) the writer gets
  :class:`ConflictError` and nothing is written.
* At most one lobby or active game per channel, enforced by a partial unique index.
* A move made by a Discord interaction records its id under a unique key, so a delivery
  seen twice (by one process or two) makes the move once (:class:`AlreadyDoneError`).
* Announcements are claimed with a lease (and, on PostgreSQL, ``FOR UPDATE SKIP
  LOCKED``), so several senders never post the same one twice; a dead sender's lease
  runs out and another takes the row over. Reminders are claimed by a compare-and-set on
  their count, in the transaction that queues them.

Times are UNIX seconds supplied by the caller; the store never reads the clock.
"""

from __future__ import annotations

import os
from typing import ClassVar

from bot.store.clocks import Clocks
from bot.store.connection import Connector
from bot.store.games import Games
from bot.store.moves import Moves
from bot.store.openings import Openings
from bot.store.outbox import Outbox
from bot.store.people import People
from bot.store.ratings import Ratings
from bot.store.records import StoreError
from bot.store.servers import Servers
from bot.store.tournaments import Tournaments
from bot.store.web import WebLinks
from bot.watch import Watch

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str | os.PathLike[str]) -> bool:
    """Whether ``target`` (``CANDYBOT_DB``) names a PostgreSQL database rather than a file."""
    return isinstance(target, str) and target.startswith(POSTGRES_SCHEMES)


class Store:
    """The game database, by aggregate; create with :meth:`Store.open`."""

    #: The connectors by kind ("sqlite", "postgresql"), filled in by :mod:`bot.store`.
    backends: ClassVar[dict[str, type[Connector]]] = {}

    def __init__(self, connector: Connector) -> None:
        self.connector = connector
        self.games = Games(connector)
        self.moves = Moves(connector)
        self.openings = Openings(connector)
        self.clocks = Clocks(connector)
        self.outbox = Outbox(connector)
        self.people = People(connector)
        self.ratings = Ratings(connector)
        self.servers = Servers(connector)
        self.web = WebLinks(connector)
        self.tournaments = Tournaments(connector)

    @classmethod
    async def open(cls, target: str | os.PathLike[str]) -> Store:
        """Open the database ``target`` (a SQLite file, created if needed, or a
        ``postgresql://`` URL) and bring its schema up to date."""
        kind = "postgresql" if is_postgres(target) else "sqlite"
        if kind not in Store.backends:
            raise StoreError(f"This candybot has no {kind} backend.")
        return cls(await Store.backends[kind].open(target))

    @property
    def path(self) -> str:
        """Where the database is: a file path or a PostgreSQL URL (its password left out)."""
        return self.connector.path

    @property
    def watch(self) -> Watch:
        """Times every read and write (``store``) for a tool that measures them."""
        return self.connector.watch

    @watch.setter
    def watch(self, watch: Watch) -> None:
        self.connector.watch = watch

    async def close(self) -> None:
        """Close the connections once the writes under way are done; again does nothing."""
        await self.connector.close()

    async def schema_version(self) -> int:
        """How many migrations this database has run."""
        return await self.connector.schema_version()

    async def check_writable(self) -> None:
        """Take the write lock and let it go, writing nothing; raises :class:`StoreError`
        when the database cannot be written now (read-only, locked, closed)."""
        await self.connector.check_writable()
