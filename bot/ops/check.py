"""``candybot check``: the database, then the bot's access on Discord (with its token)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from bot.config import Settings
from bot.games.words import plural
from bot.ops import Exit, OpsError
from bot.ops.access import DiscordAccess, discord_access, discord_problem
from bot.ops.database import OpenGame, inspect_target
from bot.ops.logs import fail, setup_logging

log = logging.getLogger(__name__)

#: How long ``candybot check`` waits for Discord before calling it unreachable, in seconds.
CHECK_TIMEOUT = 120.0


def _games_text(games: Sequence[OpenGame]) -> str:
    return ", ".join(f"game {g.id} ({g.game}, {g.status})" for g in games)


def check(settings: Settings, *, debug: bool = False) -> int:
    """``candybot check``: the database, then the bot's access on Discord (with its token).

    Prints a report; returns :data:`Exit.OK` only when all is well, otherwise the code of
    the first problem found. Without a token the Discord part cannot be checked: that is
    a problem too (:data:`Exit.CONFIG`, as ``candybot run`` would refuse to start).
    """
    setup_logging(settings.log_level, debug=debug)
    debug = debug or settings.log_level == "debug"
    problems: list[OpsError] = []
    games: tuple[OpenGame, ...] = ()
    path = settings.database_shown
    try:
        info = inspect_target(settings.database, integrity=True)
    except OpsError as exc:
        print(f"Database {path}: PROBLEM")
        problems.append(exc)
    except Exception as exc:
        return fail(exc, debug=debug)
    else:
        games = info.open_games
        if not info.exists and settings.db_url is not None:
            print(f"Database {path}: reachable, no candybot tables yet; candybot run "
                  f"creates them.")
        elif not info.exists:
            print(f"Database {path}: not created yet; candybot run creates it (the folder is "
                  f"writable).")
        else:
            print(f"Database {path}: {info.describe_schema()}, integrity {info.integrity}.")
            print(f"  Games: {info.describe_counts()}.")
            if info.integrity != "ok":
                problems.append(OpsError(
                    Exit.DATABASE_UNUSABLE,
                    f"The database {path} fails its integrity check: stop the bot and "
                    f"restore the latest backup (see docs/discord.md)."))
    if not settings.token:
        print("Discord: NOT CHECKED (no DISCORD_TOKEN): neither the token nor the servers nor "
              "the bot's permissions.")
        problems.append(OpsError(
            Exit.CONFIG,
            "There is no DISCORD_TOKEN, so the Discord part was not checked, and `candybot "
            "run` would not start: put the bot's token in DISCORD_TOKEN (the environment or "
            ".env; docs/discord.md, step 1) and run `candybot check` again."))
    else:
        try:
            access = asyncio.run(asyncio.wait_for(discord_access(settings.token, games),
                                                  CHECK_TIMEOUT))
        except Exception as exc:
            problem = discord_problem(exc)
            if problem is None:
                return fail(exc, debug=debug)
            print("Discord: PROBLEM")
            problems.append(problem)
        else:
            problems.extend(_report_access(access))
    print(_web_line(settings))
    for problem in problems:
        print(f"Problem (exit code {int(problem.code)}): {problem}")
    if not problems:
        print("All is well.")
        return Exit.OK
    if debug:
        for problem in problems:
            log.debug("%s", problem, exc_info=problem.__cause__)
    return int(problems[0].code)


def _report_access(access: DiscordAccess) -> list[OpsError]:
    print(f"Discord: the token works; logged in as {access.user} (id {access.user_id}), in "
          f"{plural(len(access.servers), 'server')}.")
    lacking = 0
    for server in access.servers:
        count = sum(len(c.games) for c in server.channels)
        print(f"  Server {server.name!r} ({server.id}): "
              f"{plural(count, 'open game') if count else 'no open games'}.")
        threaded = [name for name, lacking in server.thread_mode if not lacking]
        single = [f"{name} (lacks {' and '.join(lacking)})"
                  for name, lacking in server.thread_mode if lacking]
        if threaded:
            print(f"    A thread per game in: {', '.join(threaded)}.")
        if single:
            print(f"    One game per channel in: {'; '.join(single)}.")
        for channel in server.channels:
            where = f"    {channel.name} ({channel.channel_id}), {_games_text(channel.games)}"
            if channel.note:
                print(f"{where}: {channel.note}, so these games cannot go on (harmless).")
            elif channel.missing:
                lacking += 1
                print(f"{where}: CANNOT {', '.join(channel.missing)}.")
            else:
                print(f"{where}: can view, send and attach files.")
    if access.stranded:
        print(f"  Open games in servers the bot is no longer in: "
              f"{_games_text(access.stranded)}; they cannot go on until it is invited back.")
    if not lacking:
        return []
    return [OpsError(Exit.PERMISSIONS,
                     f"The bot lacks permissions in {plural(lacking, 'channel')} with open "
                     f"games: grant its role View Channel, Send Messages and Attach Files "
                     f"there (see docs/discord.md).")]


def _web_line(settings: Settings) -> str:
    """The web companion's settings in one line (docs/web.md)."""
    if settings.public_url is None:
        return ("Web companion: off (set CANDYBOT_PUBLIC_URL and CANDYBOT_WEB_PORT to serve "
                "games' pages; docs/web.md).")
    where = (f"served by candybot run on {settings.web_host} port {settings.web_port}"
             if settings.web_port is not None else
             "served by another process (candybot web); this one only links to it")
    return (f"Web companion: pages at {settings.public_url}, {where}; links where a "
            f"server's managers allow them (/settings web).")
