"""The slash commands, built from the game registry.

``/game new`` has fixed parameters (game, seats, reminder_hours, ai_takeover, clock,
on_timeout)
and one text parameter per distinct option name declared by any registered
game, autocompleted with the selected game's values. Nothing here knows a game.

Only discord.py's public API: the option names come from the registry, so the
callback's signature is built with :mod:`inspect` (Python's own way to declare
one), and descriptions, choices and autocomplete are given with
``app_commands.describe``, ``app_commands.choices`` and ``Command.autocomplete``.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Optional

import discord
from discord import app_commands

from bot.away import VACATION_DAYS
from bot.discord import flows, organized, seasons
from bot.discord.words import TIMEOUT_CHOICES
from bot.games.engine import Engine
from bot.organized.clock import CHOICES as CLOCKS

FIXED_NEW_PARAMS = ("game", "seats", "reminder_hours", "ai_takeover", "clock", "on_timeout")
MAX_PARAMS = 25
_NAME = re.compile(r"^[-_a-z0-9]{1,32}$")


def _clip(text: str, limit: int = 100) -> str:
    text = " ".join(text.split()) or "…"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _optional(annotation: Any) -> Any:
    """``Optional[annotation]`` built at run time: ranges are not types, so ``| None`` fails."""
    return Optional[annotation]  # noqa: UP045


def option_params(games: Mapping[str, Engine]) -> dict[str, str]:
    """Distinct option names across games (valid Discord names only), each described by
    every game that has it, in its own words."""
    meanings: dict[str, list[str]] = {}
    for game in games.values():
        for spec in game.options:
            if spec.name in FIXED_NEW_PARAMS or not _NAME.match(spec.name):
                continue
            if spec.name not in meanings and len(meanings) + len(FIXED_NEW_PARAMS) >= MAX_PARAMS:
                continue
            meanings.setdefault(spec.name, []).append(f"{game.title}: {spec.description}")
    return {name: _clip(" ".join(said)) for name, said in meanings.items()}


def clock_choices() -> list[app_commands.Choice[str]]:
    """The clocks a table may choose, in words."""
    return [app_commands.Choice(name=_clip(rule.said), value=rule.code) for rule in CLOCKS]


def worded(said: Mapping[str, str]) -> list[app_commands.Choice[str]]:
    """A fixed choice's values, each with the words a player picks it by."""
    return [app_commands.Choice(name=_clip(words), value=value)
            for value, words in said.items()]


def timeout_choices() -> list[app_commands.Choice[str]]:
    """What may happen to a player out of time, in words."""
    return worded(TIMEOUT_CHOICES)


def game_choices(games: Mapping[str, Engine]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=_clip(g.title), value=slug)
            for slug, g in list(games.items())[:25]]


def build_new_command(games: Mapping[str, Engine]) -> app_commands.Command[Any, ..., None]:
    """``/game new`` with a parameter per game option name."""
    extra = option_params(games)
    max_seats = max((g.max_seats for g in games.values()), default=8)
    min_seats = min((g.min_seats for g in games.values()), default=1)

    async def new(interaction: discord.Interaction, **values: Any) -> None:
        options = {name: values[name] for name in extra if values.get(name) is not None}
        await flows.new_game(interaction, game=values["game"], seats=values.get("seats"),
                             reminder_hours=values.get("reminder_hours"),
                             ai_takeover=values.get("ai_takeover"), options=options,
                             clock=values.get("clock"), on_timeout=values.get("on_timeout"))

    many = len(games) > 25
    params = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                          annotation=discord.Interaction),
        inspect.Parameter("game", inspect.Parameter.KEYWORD_ONLY, annotation=str),
        inspect.Parameter("seats", inspect.Parameter.KEYWORD_ONLY, default=None,
                          annotation=_optional(app_commands.Range[int, min_seats, max_seats])),
        inspect.Parameter("reminder_hours", inspect.Parameter.KEYWORD_ONLY, default=None,
                          annotation=_optional(app_commands.Range[float, 0.25, 336.0])),
        inspect.Parameter("ai_takeover", inspect.Parameter.KEYWORD_ONLY, default=None,
                          annotation=bool | None),
        inspect.Parameter("clock", inspect.Parameter.KEYWORD_ONLY, default=None,
                          annotation=str | None),
        inspect.Parameter("on_timeout", inspect.Parameter.KEYWORD_ONLY, default=None,
                          annotation=str | None),
    ]
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                 annotation=str | None) for name in extra]
    new.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    app_commands.describe(
        game="Which game to play.",
        seats="Most players who may join (the game's maximum if left out).",
        reminder_hours="Hours before a slow player is reminded (default 24).",
        ai_takeover="After the third reminder an AI plays for a silent player until they "
                    "are back (default: yes).",
        clock="Time each player has to move, in days (default: the server's, else none).",
        on_timeout="What happens when a player's clock runs out (default: an AI stands in).",
        **extra,
    )(new)
    app_commands.choices(clock=clock_choices(), on_timeout=timeout_choices())(new)
    if not many:
        app_commands.choices(game=game_choices(games))(new)
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="new", description="Open a lobby for a new game here.", callback=new)
    if many:
        command.autocomplete("game")(_game_autocomplete)
    for name in extra:
        command.autocomplete(name)(_option_autocomplete(name))
    return command


async def _game_autocomplete(interaction: discord.Interaction,
                             current: str) -> list[app_commands.Choice[str]]:
    needle = current.strip().lower()
    games = flows.host(interaction).tables.games
    return [app_commands.Choice(name=_clip(g.title), value=slug) for slug, g in games.items()
            if needle in slug or needle in g.title.lower()][:25]


def _option_autocomplete(name: str) -> Any:
    async def complete(interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[str]]:
        chosen = getattr(interaction.namespace, "game", None)
        return flows.option_choices(flows.host(interaction).tables, chosen, name, current)

    return complete


def build_game_group(games: Mapping[str, Engine]) -> app_commands.Group:
    """``/game``: new, board, hand, cards, status, log, history, rules, replay, undo, leave,
    abort.

    After a game ends, board, status, log and replay show it until the next one starts;
    ``game:<number>`` (numbers from ``/game history``) picks an older one for log and
    replay.
    """
    group = app_commands.Group(name="game", description="Play board games in this channel.",
                               guild_only=True)
    group.add_command(build_new_command(games))
    rules_choices = game_choices(games)

    @group.command(name="board", description="Post the current board again.")
    @app_commands.describe(zoom="A place to see large (suggestions list this game's places).")
    async def board(interaction: discord.Interaction,
                    zoom: app_commands.Range[str, 1, 100] | None = None) -> None:
        await flows.board(interaction, zoom)

    @board.autocomplete("zoom")
    async def complete_zoom(interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        return await flows.autocomplete_zoom(interaction, current)

    @group.command(name="vote", description="Vote to give the seat of a player an AI stands "
                   "in for to the AI for good, or to a new player.")
    @app_commands.describe(player="The player an AI stands in for.",
                           give="Who gets the seat if most of the others agree.")
    @app_commands.choices(give=worded({"ai": "The AI, for good",
                                       "newcomer": "A new player (/game sit)"}))
    async def vote(interaction: discord.Interaction, player: discord.User, give: str) -> None:
        await flows.vote(interaction, player, give)

    _add_plain(group, "sit", "Take the seat the table opened for a new player.", flows.sit)
    _add_plain(group, "back", "Take your seat back from the AI standing in for you.",
               flows.back)
    _add_plain(group, "hand", "See your private view (only you see it).", flows.hand)
    _add_plain(group, "cards", "Every card on the table in full words (only you see it).",
               flows.cards)
    _add_plain(group, "status", "Whose turn it is, since when, and the scores.", flows.status)

    @group.command(name="log", description="The most recent moves with all they did.")
    @app_commands.describe(n="How many moves to show (1 to 50, default 10).",
                           game="An ended game's number from /game history (default: the "
                           "current or last game).",
                           start="Show moves from this move number on (default: the latest).")
    async def show_log(interaction: discord.Interaction,
                       n: app_commands.Range[int, 1, 50] = 10,
                       game: app_commands.Range[int, 1] | None = None,
                       start: app_commands.Range[int, 1] | None = None) -> None:
        await flows.show_log(interaction, n, game, start)

    _add_plain(group, "history", "This channel's past games and their results.",
               flows.history)

    @group.command(name="rules", description="A short rules summary with the move notation.")
    @app_commands.describe(game="Which game (default: this channel's).")
    @app_commands.choices(game=rules_choices)
    async def rules(interaction: discord.Interaction, game: str | None = None) -> None:
        await flows.rules(interaction, game)

    @group.command(name="replay", description="An animated replay of the game so far.")
    @app_commands.describe(game="An ended game's number from /game history (default: the "
                           "current or last game).")
    async def replay(interaction: discord.Interaction,
                     game: app_commands.Range[int, 1] | None = None) -> None:
        await flows.replay(interaction, game)

    _add_plain(group, "undo", "Take back your last move and the AI replies to it, if nothing "
               "was revealed.", flows.undo)
    _add_plain(group, "leave", "Leave the lobby, or concede: an AI takes your seat.",
               flows.leave)
    _add_plain(group, "abort", "End this channel's game without a result (host or Manage "
               "Channels).", flows.abort)
    return group


def _add_plain(group: app_commands.Group, name: str, description: str,
               answer: Callable[[discord.Interaction], Awaitable[None]]) -> None:
    """Add ``/<group> <name>``, a command without options that ``answer`` answers."""

    async def plain(interaction: discord.Interaction) -> None:
        await answer(interaction)

    group.add_command(app_commands.Command(name=name, description=description, callback=plain))


def build_play_command() -> app_commands.Command[Any, ..., None]:
    """``/play action:<text>`` with autocomplete of the caller's legal actions."""

    @app_commands.command(name="play", description="Make your move (type it or pick one).")
    @app_commands.describe(action="Your move in the game's notation; suggestions list your "
                           "legal moves.")
    @app_commands.guild_only()
    async def play(interaction: discord.Interaction,
                   action: app_commands.Range[str, 1, 100]) -> None:
        await flows.play(interaction, action)

    @play.autocomplete("action")
    async def complete(interaction: discord.Interaction,
                       current: str) -> list[app_commands.Choice[str]]:
        return await flows.autocomplete_play(interaction, current)

    return play


def build_stats_command(games: Mapping[str, Engine]) -> app_commands.Command[Any, ..., None]:
    """``/stats [user] [board] [season]``."""

    @app_commands.command(name="stats", description="Games played, won and ratings, per "
                          "game, here; or a game's leaderboard.")
    @app_commands.describe(user="Whose record (default: yours).",
                           board="Show this game's leaderboard in this server instead.",
                           season="A season of this server, or \"all time\" (default: the "
                                  "season under way, else all time).")
    async def stats(interaction: discord.Interaction, user: discord.User | None = None,
                    board: str | None = None,
                    season: app_commands.Range[str, 1, 40] | None = None) -> None:
        await flows.stats(interaction, user, board, season)

    app_commands.choices(board=game_choices(games))(stats)
    stats.autocomplete("season")(seasons.names)
    return stats


def build_season_group() -> app_commands.Group:
    """``/season``: new, end (Manage Server) and list (anyone), in a server."""
    group = app_commands.Group(name="season", description="This server's seasons: "
                               "standings of the games that end between two dates.",
                               guild_only=True)

    @group.command(name="new", description="Set a season (people with Manage Server).")
    @app_commands.describe(name="The season's name, e.g. Spring 2027.",
                           start="Its first day, as YYYY-MM-DD (UTC), today or later.",
                           end="Its last day, as YYYY-MM-DD (UTC), played in full.",
                           channel="Where its final standings are posted (default: here).")
    @app_commands.default_permissions(manage_guild=True)
    async def new(interaction: discord.Interaction, name: app_commands.Range[str, 1, 40],
                  start: app_commands.Range[str, 1, 20], end: app_commands.Range[str, 1, 20],
                  channel: discord.TextChannel | None = None) -> None:
        await seasons.new(interaction, name=name, start=start, end=end,
                          channel_id=channel.id if channel else None)

    @group.command(name="end", description="End a season now, or remove one not yet begun "
                   "(people with Manage Server).")
    @app_commands.describe(name="Which season.")
    @app_commands.default_permissions(manage_guild=True)
    async def end(interaction: discord.Interaction,
                  name: app_commands.Range[str, 1, 40]) -> None:
        await seasons.end(interaction, name)

    end.autocomplete("name")(seasons.open_names)

    @group.command(name="list", description="This server's seasons (only you see it).")
    async def listed(interaction: discord.Interaction) -> None:
        await seasons.listed(interaction)

    return group


def build_games_command() -> app_commands.Command[Any, ..., None]:
    """``/games``: allowed in servers, DMs and group DMs (where the bot is installed for
    the user), since it lists games from everywhere."""

    @app_commands.command(name="games", description="Your games on every server: yours to "
                          "move first (only you see it).")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def games(interaction: discord.Interaction) -> None:
        await flows.my_games(interaction)

    return games


def build_away_command() -> app_commands.Command[Any, ..., None]:
    """``/away``: quiet hours every day, a vacation, or back from one; anywhere."""

    @app_commands.command(name="away", description="Quiet hours or a vacation: no pings, "
                          "reminders or AI take-over then (no options: quiet hours off).")
    @app_commands.describe(timezone="Your time zone, e.g. Europe/Berlin.",
                           quiet_from="The hour quiet starts (0-23, your time).",
                           quiet_to="The hour quiet ends (0-23, your time).",
                           vacation_days="A vacation of this many days (21 a year).",
                           vacation_from="The vacation's first day, e.g. 2026-12-24 "
                                         "(default: now).",
                           back="End your vacation now.")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def away(interaction: discord.Interaction,
                   timezone: app_commands.Range[str, 1, 64] | None = None,
                   quiet_from: app_commands.Range[int, 0, 23] | None = None,
                   quiet_to: app_commands.Range[int, 0, 23] | None = None,
                   vacation_days: app_commands.Range[int, 1, VACATION_DAYS] | None = None,
                   vacation_from: app_commands.Range[str, 1, 16] | None = None,
                   back: bool | None = None) -> None:
        await flows.away(interaction, timezone, quiet_from, quiet_to, vacation_days,
                         vacation_from, bool(back))

    return away


def build_notify_command() -> app_commands.Command[Any, ..., None]:
    """``/notify how``: how the caller is told it is their turn, anywhere."""

    @app_commands.command(name="notify", description="How you hear it is your turn (channel, "
                          "DM as well, or quietly) and which reminders ping you.")
    @app_commands.describe(how="Channel mention (default), a DM as well, or no mention.",
                           reminders="Which of a turn's reminders ping you (default: each).")
    @app_commands.choices(how=worded({
        "channel": "Mention me in the game's channel",
        "dm": "Mention me and send me a direct message",
        "quiet": "Do not mention me (I check /games)"}), reminders=worded({
        "each": "Every reminder of my turn pings me",
        "first": "Only the first reminder of my turn pings me",
        "none": "Reminders never ping me (they still name me)"}))
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def notify(interaction: discord.Interaction, how: str | None = None,
                     reminders: str | None = None) -> None:
        await flows.notify(interaction, how, reminders)

    return notify


def build_privacy_command() -> app_commands.Command[Any, ..., None]:
    """``/privacy [delete]``: what the bot keeps about the caller, or deleting it; anywhere."""

    @app_commands.command(name="privacy", description="See everything candybot keeps about "
                          "you (only you see it), or delete it.")
    @app_commands.describe(delete="Delete what is kept about you (games under way keep your "
                                  "seat until they end).")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    @app_commands.allowed_installs(guilds=True, users=True)
    async def privacy(interaction: discord.Interaction, delete: bool | None = None) -> None:
        await flows.privacy(interaction, bool(delete))

    return privacy


def build_settings_command() -> app_commands.Command[Any, ..., None]:
    """``/settings``: the server's defaults for new games (Manage Server)."""

    @app_commands.command(name="settings", description="This server's defaults for new "
                          "games (people with Manage Server).")
    @app_commands.describe(
        threads="Give each game a thread of its own (where I may create threads).",
        reminder_hours="Hours between reminders to a player whose turn it is (default 24).",
        ai_takeover="An AI plays for a player who let every reminder pass.",
        games_channel="Allow games in this channel (add several one by one).",
        any_channel="Allow games in every channel again.",
        web="Link each game and this server's leaderboards to their pages on the web.",
        season_ratings="New seasons' ratings: carried over from each player's rating here, "
                       "or started afresh.",
        clock="A new table's clock, in days (a lobby may choose another).",
        on_timeout="What happens when a player's clock runs out.")
    @app_commands.choices(season_ratings=worded({"carry": "Carry over each player's rating",
                                                 "fresh": "Start afresh each season"}),
                          clock=clock_choices(), on_timeout=timeout_choices())
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(interaction: discord.Interaction, threads: bool | None = None,
                       reminder_hours: app_commands.Range[float, 0.5, 168.0] | None = None,
                       ai_takeover: bool | None = None,
                       games_channel: discord.TextChannel | None = None,
                       any_channel: bool | None = None, web: bool | None = None,
                       season_ratings: str | None = None,
                       clock: str | None = None, on_timeout: str | None = None) -> None:
        await flows.server_settings(interaction, threads=threads, reminder_hours=reminder_hours,
                                    ai_takeover=ai_takeover,
                                    games_channel=games_channel.id if games_channel else None,
                                    any_channel=bool(any_channel), web=web,
                                    season_ratings=season_ratings, clock=clock,
                                    on_timeout=on_timeout)

    return settings


def build_tournament_group(games: Mapping[str, Engine]) -> app_commands.Group:
    """``/tournament``: new, start, leave, standings, cancel."""
    group = app_commands.Group(name="tournament", description="Tournaments that run "
                               "themselves: sign up, play your rounds, see the standings.",
                               guild_only=True)
    number = "The tournament's number (default: this server's only one)."

    @group.command(name="new", description="Open a tournament's sign-up in this channel; "
                   "its games open in threads here.")
    @app_commands.describe(
        game="Which game.", format="Swiss or round-robin (two a table), or pods (three or "
        "more a table).", rounds="How many rounds (round-robin: as many as it takes).",
        seats="Players a table, for pods (default: the game's most).",
        reminder_hours="Hours between reminders to a player whose turn it is (default: "
                       "the server's).",
        deadline_hours="Sign-up closes (and the tournament starts) this many hours from now.",
        clock="Every game's clock (default: the server's); out of time, the player forfeits.")
    @app_commands.choices(game=game_choices(games), format=worded({
        "swiss": "Swiss (two a table, paired by score)",
        "round-robin": "Round-robin (two a table, everyone meets everyone)",
        "pods": "Pods (three or more a table, seated by standing)"}), clock=clock_choices())
    async def new(interaction: discord.Interaction, game: str, format: str,
                  rounds: app_commands.Range[int, 1, 12] = 3,
                  seats: app_commands.Range[int, 2, 8] | None = None,
                  reminder_hours: app_commands.Range[float, 0.5, 168.0] | None = None,
                  deadline_hours: app_commands.Range[float, 1.0, 336.0] | None = None,
                  clock: str | None = None) -> None:
        await organized.new(interaction, game=game, format=format, rounds=rounds, seats=seats,
                            reminder_hours=reminder_hours, deadline_hours=deadline_hours,
                            clock=clock)

    _add_numbered(group, "start", "Start a tournament now (its host or Manage Server).",
                  number, organized.start)
    _add_numbered(group, "leave", "Withdraw from a tournament (your game under way is "
                  "conceded).", "The tournament's number (default: the one you play).",
                  organized.leave)
    _add_numbered(group, "standings", "A tournament's standings and current round (only you "
                  "see it).", number, organized.show)
    _add_numbered(group, "cancel", "Call off a tournament still signing up (its host or "
                  "Manage Server).", number, organized.cancel)
    return group


def _add_numbered(group: app_commands.Group, name: str, description: str, number: str,
                  answer: Callable[[discord.Interaction, int | None], Awaitable[None]]) -> None:
    """Add ``/<group> <name> [tournament]``, which ``answer`` answers for the tournament of
    that number (described as ``number``), or None when none was given."""

    async def numbered(interaction: discord.Interaction,
                       tournament: app_commands.Range[int, 1] | None = None) -> None:
        await answer(interaction, tournament)

    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=name, description=description, callback=numbered)
    group.add_command(app_commands.describe(tournament=number)(command))


def install(tree: app_commands.CommandTree[Any], games: Mapping[str, Engine]) -> None:
    """Add every command to ``tree``."""
    tree.add_command(build_game_group(games))
    tree.add_command(build_play_command())
    tree.add_command(build_stats_command(games))
    tree.add_command(build_games_command())
    tree.add_command(build_away_command())
    tree.add_command(build_notify_command())
    tree.add_command(build_privacy_command())
    tree.add_command(build_settings_command())
    tree.add_command(build_season_group())
    tree.add_command(build_tournament_group(games))
