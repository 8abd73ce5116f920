"""The game tables: everything a channel's game does, without Discord."""

from bot.tables.core import *  # noqa: F403
from bot.tables.core import AlreadyMadeError, Board, Clock, Tables, TableError  # noqa: F401
