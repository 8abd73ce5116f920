"""Operating the bot: exit codes and the problems an operator can fix.

Every problem an operator can fix is an :class:`OpsError`: an exit code from :class:`Exit`
and one line saying what is wrong and what to do. The jobs live in small modules:
:mod:`~bot.ops.logs` (logging and error summaries), :mod:`~bot.ops.database` (the database
pre-flight), :mod:`~bot.ops.backup` (``candybot backup``), :mod:`~bot.ops.access` (what
Discord lets the bot do) and :mod:`~bot.ops.check` (``candybot check``).
"""

from __future__ import annotations

from enum import IntEnum

PORTAL = "https://discord.com/developers/applications"


class Exit(IntEnum):
    """The exit codes of ``candybot``; docs/discord.md lists them for operators."""

    OK = 0
    #: Something unexpected (run again with --debug), or Discord refused a request.
    FAILED = 1
    #: No DISCORD_TOKEN, a bad CANDYBOT_LOG, or a backup that would replace a file.
    CONFIG = 2
    #: Discord rejected the token (or the intents).
    TOKEN_REFUSED = 3
    #: Discord could not be reached: no network, DNS, firewall, or a Discord outage.
    DISCORD_UNREACHABLE = 4
    #: The database's folder (or file) is missing or cannot be written.
    DATABASE_PATH = 5
    #: The file is not a candybot database.
    NOT_CANDYBOT = 6
    #: The database was written by a newer candybot.
    DATABASE_TOO_NEW = 7
    #: The database is damaged (fails the integrity check) or cannot be used.
    DATABASE_UNUSABLE = 8
    #: ``check``: the bot cannot view, send or attach files where a game is open.
    PERMISSIONS = 9
    #: ``restore``: the bot using the database is running (or still stopping).
    RUNNING = 10
    #: ``run``, ``web``: the web companion cannot listen on its port (another program's).
    PORT_TAKEN = 11


class OpsError(Exception):
    """A problem the operator can fix; ``str()`` is the one line to show."""

    def __init__(self, code: Exit, message: str) -> None:
        super().__init__(message)
        self.code = code
