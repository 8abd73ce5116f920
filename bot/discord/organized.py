"""Tournaments in Discord: ``/tournament``, the sign-up buttons, each round's games opened
in threads, and the standings the outbox posts.

The tournament service (:class:`bot.tournaments.Organizer`) decides; this module shows.
A round is formed and announced in one write (the announcement, kind ``standings``, is
delivered by :func:`show_standings` until Discord takes it); its tables' games are then
opened as a lobby is (:mod:`bot.discord.opening`: the card, the thread, the lobby stored
as the opening's, noted step by step) and started at once, their players seated and
pinged. Whatever stops the bot midway, the reminder pass (:func:`advance`) finds the
tables still without a game, or with a game not started, and finishes them; a card
left without a game is taken back by :func:`bot.discord.opening.settle`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from collections.abc import Sequence

import discord

from bot.discord import components, messages, pacing, threads, weblinks
from bot.discord.errors import announce, guarded, in_time, tell
from bot.discord.host import Host, host
from bot.discord.surfaces import acknowledge, quietly, saved_shown
from bot.refusals import (
    BadTournament,
    ElsewhereButton,
    NoGameHere,
    NoSuchTournament,
    NotAGamesChannel,
    NotEntered,
    NotOpened,
)
from bot.store import GameRecord, NotFoundError, OutboxRecord
from bot.tables import Conceded, lobby_owner
from bot.tournaments import Members, Organizer, ToOpen, Withdrawal, game_seats, table_clock, tag
from renderers import standings as standings_picture

log = logging.getLogger(__name__)


def members(bot: Host) -> Members:
    """Which of a server's users are still its members, asked of Discord one by one (Get
    Guild Member; Unknown Member: they left). A user Discord cannot tell about now
    (its trouble) counts as present: nobody is withdrawn by an outage."""

    async def present(guild_id: int, user_ids: Sequence[int]) -> set[int]:
        found = set()
        for user in user_ids:
            try:
                await bot.http.get_member(guild_id, user)
            except discord.NotFound:
                log.info("user %s left server %s: withdrawn from its tournaments", user,
                         guild_id)
                continue
            except (discord.HTTPException, OSError):
                pass
            found.add(user)
        return found

    return present


def _organizer(interaction: discord.Interaction) -> Organizer:
    return host(interaction).organizer


def _name(user: discord.abc.User) -> str:
    return getattr(user, "display_name", None) or user.name


async def _title(bot: Host, slug: str) -> str:
    game = bot.tables.games.get(slug)
    return game.title if game is not None else slug


# --------------------------------------------------------------------------- commands


async def new(interaction: discord.Interaction, *, game: str, format: str, rounds: int,
              seats: int | None, reminder_hours: float | None,
              deadline_hours: float | None, clock: str | None = None) -> None:
    """``/tournament new``: the sign-up message, with Join, Leave and Start."""
    async with guarded(interaction):
        bot = host(interaction)
        if interaction.guild_id is None or interaction.channel_id is None:
            raise NoGameHere()
        if getattr(interaction.channel, "parent_id", None) is not None:
            raise BadTournament(reason="channel")
        if threads.no_thread(interaction, {}):
            raise BadTournament(reason="threads")
        refused = threads.cannot_show(interaction, True)
        if refused is not None:
            raise refused
        defaults = await bot.tables.lobbies.server_defaults(interaction.guild_id)
        allowed = tuple(int(c) for c in defaults.get("channels") or ())
        if allowed and interaction.channel_id not in allowed:
            raise NotAGamesChannel(channels=allowed)
        chosen = bot.tables.game(game)
        bot.cooldowns.check(interaction.user.id, "tournament")
        hours = reminder_hours if reminder_hours is not None \
            else float(defaults.get("reminder_hours", 24.0))
        record = await in_time(bot.organizer.new(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            host_id=interaction.user.id, game=chosen, format=format, rounds=rounds,
            seats=seats, reminder_hours=hours, deadline_hours=deadline_hours,
            clock=clock if clock is not None else defaults.get("clock")),
            lambda: acknowledge(interaction))
        text = messages.signup_text(record, chosen.title, [], bot.tables.limits
                                    .players_per_tournament)
        message_id = await announce(interaction, text,
                                    view=components.tournament_view(record.id),
                                    allowed_mentions=messages.NOBODY)
        await bot.organizer.set_message(record.id, message_id)


async def _which(interaction: discord.Interaction, number: int | None, *,
                 mine: bool) -> int:
    """The tournament a command names, or the one of this server (the caller plays in,
    with ``mine``) when there is just one."""
    if interaction.guild_id is None:
        raise NoGameHere()
    if number is not None:
        return (await _organizer(interaction).get(number, interaction.guild_id)).id
    found = await _organizer(interaction).current(
        interaction.guild_id, interaction.user.id if mine else None)
    if not found:
        raise NotEntered() if mine else NoSuchTournament()
    if len(found) > 1:
        raise BadTournament(reason="which")
    return found[0].id


async def leave(interaction: discord.Interaction, number: int | None) -> None:
    """``/tournament leave``: withdraw, conceding the game under way."""
    async with guarded(interaction):
        tournament_id = await _which(interaction, number, mine=True)
        await _withdraw(interaction, tournament_id)


async def start(interaction: discord.Interaction, number: int | None) -> None:
    """``/tournament start``: the host starts the tournament named (or the server's one)."""
    async with guarded(interaction):
        tournament_id = await _which(interaction, number, mine=False)
        await _start(interaction, tournament_id)


async def cancel(interaction: discord.Interaction, number: int | None) -> None:
    """``/tournament cancel``: the host calls off a tournament still signing up."""
    async with guarded(interaction):
        tournament_id = await _which(interaction, number, mine=False)
        bot = host(interaction)
        record = await bot.organizer.cancel(tournament_id, interaction.user.id,
                                            bool(interaction.permissions.manage_guild),
                                            interaction.guild_id)
        bot.cooldowns.spend(interaction.user.id, "tournament")  # opened and called off
        await acknowledge(interaction)
        await refresh_signup(bot, record.id)
        await tell(interaction, messages.tournament_cancelled_text(record))


async def show(interaction: discord.Interaction, number: int | None) -> None:
    """``/tournament standings``: the standings and the current round, to the asker."""
    async with guarded(interaction):
        tournament_id = await _which(interaction, number, mine=False)
        bot = host(interaction)
        record = await bot.organizer.get(tournament_id)
        await acknowledge(interaction)
        standings = await bot.organizer.standings(record)
        board = messages.standings_board(standings)
        png = await asyncio.to_thread(standings_picture.render, board)
        text = messages.round_text(standings, "final" if standings.final else "round",
                                   record.round, await _threads(bot, record.id, record.round))
        await interaction.followup.send(
            text, ephemeral=True, allowed_mentions=messages.NOBODY,
            file=discord.File(io.BytesIO(png), filename="standings.png",
                              description=messages.standings_alt(board)),
            **await weblinks.tournament_button(bot, record))


# --------------------------------------------------------------------------- buttons


@components.handles("tournament")
async def click(interaction: discord.Interaction, tournament_id: int, op: str) -> None:
    """Join, Leave or Start on a sign-up message."""
    async with guarded(interaction):
        bot = host(interaction)
        if interaction.guild_id is None:
            raise NoSuchTournament()
        record = await bot.organizer.get(tournament_id, interaction.guild_id)
        if interaction.channel_id != record.channel_id:
            raise ElsewhereButton(channel_id=record.channel_id)
        if op == "start":
            await _start(interaction, record.id)
            return
        if op == "leave":
            await _withdraw(interaction, record.id)
            return
        record = await in_time(bot.organizer.join(record.id, interaction.user.id,
                                                  _name(interaction.user),
                                                  interaction.guild_id),
                               interaction.response.defer)
        players = await bot.organizer.players(record.id)
        title = await _title(bot, record.game)
        text = messages.signup_text(record, title, players,
                                    bot.tables.limits.players_per_tournament)
        view = components.tournament_view(record.id)
        if interaction.response.is_done():
            await interaction.edit_original_response(content=text, view=view,
                                                     allowed_mentions=messages.NOBODY)
        else:
            await interaction.response.edit_message(content=text, view=view,
                                                    allowed_mentions=messages.NOBODY)
        await quietly(interaction.followup.send(
            messages.tournament_joined_text(record, title, len(players)), ephemeral=True),
            "answer the player who joined")


async def _start(interaction: discord.Interaction, tournament_id: int) -> None:
    bot = host(interaction)
    await acknowledge(interaction)
    record = await bot.organizer.start(tournament_id, interaction.user.id,
                                       bool(interaction.permissions.manage_guild),
                                       members(bot), interaction.guild_id)
    await refresh_signup(bot, record.id)
    await advance(bot, record.id)
    await bot.outbox.deliver()


async def _withdraw(interaction: discord.Interaction, tournament_id: int) -> None:
    bot = host(interaction)
    await acknowledge(interaction)
    withdrawal = await bot.organizer.leave(tournament_id, interaction.user.id,
                                           interaction.guild_id)
    conceded = await _concede(bot, withdrawal, interaction.user.id)
    await refresh_signup(bot, withdrawal.record.id)
    await tell(interaction, messages.tournament_left_text(withdrawal.record, conceded))


async def _concede(bot: Host, withdrawal: Withdrawal, user_id: int) -> bool:
    """The withdrawn player's game under way, conceded as ``game leave`` does."""
    if withdrawal.game is None:
        return False
    result = await bot.tables.leaving.concede(withdrawal.game.channel_id, user_id)
    if isinstance(result, Conceded):
        await saved_shown(bot, result.board)
        return True
    return False


async def refresh_signup(bot: Host, tournament_id: int) -> None:
    """Show the sign-up message as the tournament stands (its buttons while it signs up)."""
    record = await bot.organizer.get(tournament_id)
    if record.message_id is None:
        return
    players = await bot.organizer.players(record.id)
    text = messages.signup_text(record, await _title(bot, record.game), players,
                                bot.tables.limits.players_per_tournament)
    view = components.tournament_view(record.id) if record.status == "signup" else None
    message = bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id) \
        .get_partial_message(record.message_id)
    await quietly(message.edit(content=text, view=view, allowed_mentions=messages.NOBODY),
                  "show the tournament's sign-up")


# --------------------------------------------------------------------------- rounds


async def advance(bot: Host, only: int | None = None) -> int:
    """The reminder pass's part (or, with ``only``, one tournament's just started):
    :meth:`Organizer.advance`, opening every table it leaves to open; how many."""
    with pacing.background():
        return await bot.organizer.advance(
            members(bot), lambda to_open: open_tables(bot, to_open), only)


async def open_tables(bot: Host, to_open: Sequence[ToOpen]) -> int:
    """Open (or finish opening) each table's game; one that fails is tried again by the
    next pass. How many were opened."""
    opened = 0
    for item in to_open:
        try:
            await open_table(bot, item)
            opened += 1
        except NotOpened:  # Discord's refusal, logged as it came
            log.warning("could not open table %s of round %s of tournament %s; the next "
                        "pass tries again", item.table.number, item.table.round, item.record.id)
        except Exception:
            log.exception("could not open table %s of round %s of tournament %s; the next "
                          "pass tries again", item.table.number, item.table.round,
                          item.record.id)
    return opened


async def _made_for(bot: Host, item: ToOpen) -> GameRecord | None:
    """The game made for ``item``'s table before a stop, if any."""
    if item.table.game_id is not None:
        try:
            return await bot.tables.places.game(item.table.game_id)
        except NotFoundError:
            return None
    wanted = tag(item.record, item.table)
    for record in await bot.tables.places.open_games_in(item.record.channel_id):
        if record.settings.get("tournament") == wanted:
            return record
    return None


async def open_table(bot: Host, item: ToOpen) -> None:
    """Open the game of one table in a thread of the tournament's channel and start it:
    the card and the thread, the lobby (noted in the opening), the game dealt with its
    first player pinged, and every player added to the thread."""
    tables, record, table = bot.tables, item.record, item.table
    made = await _made_for(bot, item)
    opening = None
    if made is None:
        first = next((p for p in item.players if p.user_id is not None), item.players[0])
        assert first.user_id is not None
        opening = await tables.places.begin_opening(
            guild_id=record.guild_id, channel_id=record.channel_id, creator_id=first.user_id,
            game=record.game)
        title = await _title(bot, record.game)
        try:
            thread_id, card_id = await threads.start_thread(
                bot, opening, title, f"round {table.round}, table {table.number}")
        except Exception:
            await tables.lobbies.end_opening(opening)
            raise
        try:
            lobby = await tables.lobbies.open_lobby(
                channel_id=thread_id, guild_id=record.guild_id, game=record.game,
                creator_id=first.user_id, creator_name=first.name,
                seats=len(item.players),
                reminder_hours=float(record.settings.get("reminder_hours", 24.0)),
                ai_takeover=True, parent_id=record.channel_id,
                seated=game_seats(item.players), opening=opening, lobby_message_id=card_id,
                tournament=tag(record, table), clock=table_clock(record))
        except Exception:
            await threads.abandon(bot, record.channel_id, record.guild_id, card_id, thread_id)
            await tables.lobbies.end_opening(opening)
            raise
        made = lobby.record
    if table.game_id is None:
        await bot.organizer.opened(record, table, made.id)
    if made.status == "lobby":
        owner = lobby_owner(made)
        assert owner is not None
        _lobby, board = await tables.lobbies.start(made.id, owner)
        for player in item.players:
            if player.user_id is not None:
                await threads.seat_in_thread(bot, board.record, player.user_id)
        await saved_shown(bot, board)
    if opening is not None:
        await tables.lobbies.end_opening(opening)


async def _threads(bot: Host, tournament_id: int, number: int) -> dict[int, int]:
    """The thread of each table's game in round ``number``, by table number."""
    out = {}
    for table in await bot.organizer.tables(tournament_id):
        if table.round == number and table.game_id is not None:
            try:
                out[table.number] = (await bot.tables.places.game(table.game_id)).channel_id
            except NotFoundError:
                continue
    return out


async def show_standings(bot: Host, row: OutboxRecord) -> bool:
    """Deliver a tournament's announcement: the standings picture with the same in words,
    and the next round's tables pinging their players (or, for a sign-up that closed with
    too few players, why it did not start); the sign-up message shown as it stands."""
    item = row.announcement
    data = item.data or {}
    try:
        record = await bot.organizer.get(int(data.get("tournament", 0)))
    except NoSuchTournament:
        await bot.outbox.delivered(row, None)
        return True
    about, played = str(data.get("about", "round")), int(data.get("played", 0))
    channel = bot.get_partial_messageable(item.channel_id, guild_id=item.guild_id)
    files: list[discord.File] = []
    users: list[int] = []
    if about == "cancelled":
        text = messages.cancelled_text(record, await _title(bot, record.game), played)
    else:
        standings = dataclasses.replace(await bot.organizer.standings(record, played),
                                        final=about == "final")
        number = played + 1
        text = messages.round_text(standings, about, number,
                                   await _threads(bot, record.id, number))
        if about != "final" and number <= len(standings.rounds):
            seated = {e for t in standings.rounds[number - 1] for e in t.entries}
            users = [line.user_id for line in standings.lines
                     if line.entry in seated and line.user_id is not None]
        if about != "first":
            board = messages.standings_board(standings)
            png = await asyncio.to_thread(standings_picture.render, board)
            files.append(discord.File(io.BytesIO(png), filename="standings.png",
                                      description=messages.standings_alt(board)))
    sent = await channel.send(text, files=files, nonce=row.nonce,
                              allowed_mentions=messages.only(users),
                              **await weblinks.tournament_button(bot, record))
    if about in ("first", "final", "cancelled"):
        await refresh_signup(bot, record.id)
    await bot.outbox.delivered(row, sent.id)
    return True
