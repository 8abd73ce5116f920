"""The words of refusals, and text others wrote made safe to show.

Refusals arrive as values (:mod:`bot.refusals`); :func:`refusal` says each one to the
person who asked, privately. Names and other text that users wrote pass through
:func:`escaped` before any message shows them, as do sentences from below the
Discord layer that may contain names (narration, headlines): a display name can then
neither format the message, nor hide a link, nor look like a mention.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from functools import singledispatch
from typing import Any

from bot import refusals as r
from bot.games.engine import (
    AmbiguousActionError,
    Engine,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    RulesVersionError,
)
from bot.games.words import listing, plural
from bot.organized.clock import short
from bot.store import (
    AlreadyDoneError,
    ChannelBusyError,
    ConflictError,
    CorruptRowError,
    NotFoundError,
    NotSavedError,
    StoreBusyError,
    StoreClosedError,
    WrongStatusError,
)
from bot.tables import news as n
from bot.tables.timed import TableClock

#: The marks Discord's markdown acts on: bold, italics, strike-through, spoilers, quotes,
#: headings, masked links, mentions, channels, emoji and timestamps (``<…>``), code spans,
#: and a colon where it would start a bare link (``https://``). Discord reads a backslash
#: before any of them as "this mark, literally"; the games' sentences use none of them,
#: so escaping them changes nothing a player reads, while a display name inside can
#: neither format, nor link, nor mention.
_ACTIVE = re.compile(r"([\\*_~|>\[\]<@#`/]|:(?=//))")


def escaped(text: str) -> str:
    """``text`` that users wrote (a display name) or that may contain it (narration, a
    summary) safe to show: it reads as typed, and formats, links and mentions nothing."""
    return _ACTIVE.sub(r"\\\1", text)


# --------------------------------------------------------------------------- plain lines

#: A command that needs a server's channel, asked in a direct message.
OUTSIDE_SERVER = "Games live in server channels; run this command in one."
#: A replay asked of a bot that draws no pictures, or whose drawing failed.
NO_REPLAY_HERE = "The replay cannot be drawn by this bot; try `/game log`."
REPLAY_FAILED = "The replay cannot be drawn right now; try `/game log`."
#: ``/away`` with a start date but no length.
SAY_HOW_LONG = "Say how long: `vacation_days` (1 to 21)."
#: The alt text of the file ``/privacy`` sends.
PRIVACY_FILE = "Everything candybot keeps about you, as JSON."

#: The link buttons to the web companion's pages (docs/web.md).
WATCH_ON_THE_WEB = "Watch on the web"
STEP_ON_THE_WEB = "Step through it on the web"
BOARDS_ON_THE_WEB = "Leaderboards on the web"
STANDINGS_ON_THE_WEB = "Standings on the web"
#: A game's card once the game ended early.
ENDED_WITHOUT_RESULT = "This game ended without a result."
#: A command Discord itself refused to run as asked (a failed check or conversion).
CANNOT_USE_HERE = "That command cannot be used like that here."
#: Said when a command's options do not match the command as registered (a stale or
#: forged request: Discord itself sends every required option with its declared type).
MISMATCHED = ("That command's options do not match this bot's version of it (a required "
              "option is missing or has the wrong type). Nothing changed; type the command "
              "again from Discord's list.")
#: The private answer to ``/game leave`` in a lobby (its message shows the seats).
LEFT_LOBBY = "You left the lobby; its message shows who is still seated."
#: A lobby stored whose message Discord did not take as the answer to its command.
LOBBY_SHOWN_LATER = ("Your lobby is open, but Discord did not take its message just now: it "
                     "is posted in this channel within a minute or two.")
#: Said when the bot does not know whether a move was saved, so it claims neither.
SOMETHING_WRONG = ("Something went wrong on my side; nothing you did. `/game board` shows "
                   "what was saved: if your move is not there, try it again in a moment.")


def pick_a_game(titles: list[str]) -> str:
    """``/game rules`` asked where no game is open."""
    return f"Pick a game: `/game rules game:<name>`. Games: {', '.join(titles)}."


#: A masked link's middle, and the start of a bare link.
_LINKING = re.compile(r"(\]\(|:(?=//))")


def unlinked(text: str) -> str:
    """A message that may quote a name between the bot's own formatting (a refusal): no
    name in it can make a link, masked or bare; code spans and mentions stay."""
    return _LINKING.sub(lambda m: "".join("\\" + c for c in m.group(0)), text)


#: A move a game quotes in its own words: games write plain text, quoting a move as
#: “swap c3 d3” (no Discord markup below the Discord layer).
_QUOTED_MOVE = re.compile(r"“([^“”\n]{1,80})”")


def quoted_moves(text: str) -> str:
    """A game's sentence with each move it quotes shown as code, as a typed move reads."""
    return _QUOTED_MOVE.sub(lambda m: code(m.group(1)), text)


def code(text: str) -> str:
    """``text`` as a code span, as a typed move reads; a backtick in it (a player's
    text) cannot end the span."""
    return "`" + text.replace("`", "ˋ") + "`"


def stamp(unix: float | None, style: str = "R") -> str:
    """A Discord timestamp, e.g. ``<t:1700000000:R>`` ("in 3 hours")."""
    return f"<t:{int(unix)}:{style}>" if unix else "some time ago"


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def only_you(what: str, until: float) -> str:
    """The note on an answer given privately because its asker posted ``what`` (a kind
    of :data:`bot.limits.COOLDOWNS`) in public a moment ago."""
    doing = _KINDS.get(what, "post it in public")
    return (f"(Only you see this: you can {doing} again {stamp(until)}, so that the channel "
            f"stays readable.)")


# --------------------------------------------------------------------------- refusals

#: What each kind of cooldown is called in a refusal.
_KINDS = {"board": "post the board in public", "log": "post the log in public",
          "leaderboard": "post a leaderboard", "replay": "ask for a replay",
          "status": "post the game's status in public",
          "history": "post the channel's past games in public",
          "stats": "post stats in public", "vote": "post your vote in public",
          "lobby": "open a new lobby (you closed a few unstarted just now)",
          "tournament": "open a new tournament (you called a few off just now)"}
_LIMITS = {
    "lobbies": "You already host {n}: that is as many as one person may host at once. "
               "Start or cancel one first.",
    "games": "You already sit in {n} (lobbies and games under way): that is as many as one "
             "person may hold at once. Finish or leave one first.",
    "server_games": "This server already has {n} open: that is as many as one server may "
                    "have at once. Finish or end one first.",
    "seasons": "This server already has {n} under way or to come: that is as many as one "
               "server may set ahead. Wait for one to end, or end one with `/season end`.",
    "tournaments": "This server already runs {n} (signing up or under way): that is as many "
                   "as one server may run at once. Wait for one to end.",
    "tournament_players": "This tournament is full: it takes {n}.",
    "tournament_signups": "You are already in {n} (signing up or under way): that is as many "
                          "as one person may play at once. Leave one first.",
}


@singledispatch
def refusal(refused: Exception) -> str:
    """What the person who asked reads when ``refused`` turned their request down: a
    refusal of the bot's (:mod:`bot.refusals`), an engine error of a game's rules (whose
    own explanations are the game's words, quoted), or the store's."""
    if isinstance(refused, r.Refused):
        raise TypeError(f"no words for {type(refused).__name__}")
    # A game's explanation may quote a player's name: no name in it may make a link.
    return unlinked(quoted_moves(str(refused)))


@refusal.register
def _(refused: NotFoundError) -> str:
    if refused.what == "undo":
        return "There is nothing to undo yet."
    if refused.what == "seat" and refused.seat is not None:
        return f"This game has no seat {refused.seat + 1}."
    return "That game no longer exists."


#: What a game in each status no longer (or not yet) allows, as the refusal begins.
_STATUS = {"lobby": "This game has not started yet", "active": "This game has already started",
           "finished": "This game is over"}
#: What the person tried, as the refusal says it.
_DOING = {"abort": "abort it"}


@refusal.register
def _(refused: WrongStatusError) -> str:
    state = _STATUS.get(refused.status, "This game was ended early")
    return f"{state}, so you cannot {_DOING.get(refused.doing, refused.doing)} now."


@refusal.register
def _(refused: NotationError) -> str:
    if not refused.typed:
        return f"Type a move. {quoted_moves(refused.help)}"
    return f"{code(refused.typed)} is not a {refused.game} move. {quoted_moves(refused.help)}"


@refusal.register
def _(refused: IllegalActionError) -> str:
    # A known move with words it cannot take says what was typed, then why.
    why = unlinked(quoted_moves(str(refused)))
    return f"{code(refused.typed)}: {why}" if refused.typed else why


@refusal.register
def _(refused: AmbiguousActionError) -> str:
    shown = ", ".join(code(c) for c in refused.candidates[:8])
    more = f" and {len(refused.candidates) - 8} more" if len(refused.candidates) > 8 else ""
    return f"{code(refused.typed)} could mean {shown}{more}. Type the whole move."


@refusal.register
def _(refused: NotYourTurnError) -> str:
    if not refused.waiting:
        return unlinked(quoted_moves(str(refused)))
    if refused.decided:
        return f"You have already decided; waiting for {_names(refused.waiting, ' and ')}."
    return f"It is not your turn: waiting for {_names(refused.waiting, ' and ')}."


@refusal.register
def _(refused: RulesVersionError) -> str:
    if refused.replaying or refused.made >= refused.plays:
        return unlinked(str(refused))
    return f"{unlinked(str(refused))} End it with `/game abort` and start a new one."


@refusal.register
def _(refused: r.LimitReached) -> str:
    counted = (plural(refused.allowed, "lobby", "lobbies") if refused.limit == "lobbies"
               else plural(refused.allowed, "season") if refused.limit == "seasons"
               else plural(refused.allowed, "player") if refused.limit == "tournament_players"
               else plural(refused.allowed, "tournament") if refused.limit.startswith("tourn")
               else plural(refused.allowed, "game"))
    return "Nothing changed. " + _LIMITS[refused.limit].format(n=counted)


#: What is wrong with a season asked for (:class:`bot.refusals.BadSeason`); ``{text}``
#: is what was typed, escaped.
_BAD_SEASON = {
    "name": "A season's name is 1 to 40 letters, digits, spaces and simple marks "
            "(. , ' & ! # ( ) + -); `{text}` is not one.",
    "taken": "This server already has a season called `{text}`: choose another name.",
    "date": "`{text}` is not a date I can read: write it as YYYY-MM-DD, e.g. 2027-03-01.",
    "order": "The season would end ({text}) before it starts: give its last day after its "
             "first.",
    "past": "A season cannot start in the past ({text}): start it today or later.",
    "too_long": "A season lasts at most 366 days ({text} is too late).",
    "too_far": "A season starts at most 366 days from today ({text} is too far).",
}


@refusal.register
def _(refused: r.BadSeason) -> str:
    text = escaped(refused.text.replace("`", "'"))[:60]
    return f"{_BAD_SEASON[refused.reason].format(text=text)} Nothing changed."


@refusal.register
def _(refused: r.SeasonsOverlap) -> str:
    dates = f"{stamp(refused.starts_at, 'D')} to {stamp(refused.ends_at, 'D')}"
    return (f"That season would overlap the season **{escaped(refused.other)}** ({dates}): "
            f"a server's seasons may not share a day. Choose other dates, or end that season "
            f"with `/season end`. Nothing changed.")


@refusal.register
def _(refused: r.NoSuchSeason) -> str:
    return (f"This server has no season called **{escaped(refused.name)[:60]}**. "
            f"`/season list` shows its seasons.")


@refusal.register
def _(refused: r.CoolingDown) -> str:
    doing = _KINDS.get(refused.what, "do that")
    return (f"You can {doing} again {stamp(refused.until)}: one person may do it once in a "
            f"while, so a channel stays readable. Nothing changed."
            + (" `/game hand` shows you the board privately at any time."
               if refused.what == "board" else ""))


@refusal.register
def _(refused: r.Busy) -> str:
    return (f"Many pictures are being drawn right now; ask again {stamp(refused.retry_at)}. "
            f"Nothing changed.")


def _host(host: int | None) -> str:
    """The host of a lobby or game, as a refusal names them."""
    return mention(host) if host else "its host"


@refusal.register
def _(refused: r.HostOnly) -> str:
    host = _host(refused.host)
    doing = {"start": "start the game", "add_ai": "add AI seats",
             "remove": "remove someone from the lobby",
             "level": "set how an AI seat plays"}.get(refused.what, "do that")
    return f"Only the lobby's host ({host}) can {doing}."


@refusal.register
def _(refused: r.MayNotEnd) -> str:
    host = _host(refused.host)
    if refused.started:
        return (f"Only the game's host ({host}), while still seated, or someone with the "
                f"Manage Channels permission can end a game under way.")
    return (f"Only the game's host ({host}) or someone with the Manage Channels permission can "
            f"end it.")


@refusal.register
def _(refused: r.OthersStillPlaying) -> str:
    return (f"{plural(refused.players, 'other player')} still "
            f"{'plays' if refused.players == 1 else 'play'} this game, so it is not yours alone "
            f"to end. `/game leave` gives your seat to an AI and the game goes on; someone with "
            f"the Manage Channels permission can end it for everyone.")


@refusal.register
def _(refused: r.OutOfRange) -> str:
    if refused.reason == "too_far":
        return f"`{refused.option}` is too far ahead: pick a day within the next year."
    return f"`{refused.option}` is out of range. Nothing changed."


#: The end of a refusal that points to the board.
SEE_BOARD = "See the newest board, or `/game board`."


def _names(names: tuple[str, ...], joiner: str = " or ") -> str:
    return joiner.join(escaped(n) for n in names) or "nobody"


@refusal.register
def _(refused: r.NoSuchGame) -> str:
    return (f"There is no game called {escaped(repr(refused.slug))}. Games: "
            f"{', '.join(refused.known) or 'none'}.")


@refusal.register
def _(refused: r.NotPlaying) -> str:
    if refused.waiting:
        return (f"You are not playing in this game. It is {_names(refused.waiting)}'s "
                f"turn.")
    return "You are not playing in this game."


@refusal.register
def _(refused: r.NotYourTurn) -> str:
    return f"It is not your turn: waiting for {_names(refused.waiting)}."


def said(move: r.Said) -> str:
    """A move in a few plain words."""
    who = f"the AI for {escaped(move.name)}" if move.for_player else escaped(move.name)
    return f"{who} {escaped(move.shown)}" if move.hidden else f"{who} played `{move.shown}`"


@refusal.register
def _(refused: r.Expired) -> str:
    if not refused.since:
        return f"That choice has expired: the game has moved on since it was offered. {SEE_BOARD}"
    earlier = (f" (after {plural(refused.earlier, 'earlier move')})" if refused.earlier
               else "")
    return (f"That choice has expired. Since it was offered{earlier}: "
            f"{'; '.join(said(m) for m in refused.since)}. {SEE_BOARD}")


_ALREADY = {
    "raced": "That move was already made: another action reached the game first, so yours "
             "was not applied. See `/game board`.",
    "twice": "That move was already made: the request reached the bot twice, and it was "
             "played once.",
    "busy": "The game is busy right now; your move was not applied. Try again in a moment.",
    "lobby_busy": "The lobby is busy right now; try again.",
    "lobby_changed": "The lobby changed while you clicked; try again.",
    "undo": "The game moved on before your undo arrived; nothing was taken back.",
    "leave": "The game changed while you were leaving; try again.",
}


@refusal.register
def _(refused: r.AlreadyMade) -> str:
    return _ALREADY.get(refused.reason, _ALREADY["raced"])


#: Refusals that are always said the same way.
_FIXED: dict[type[Exception], str] = {
    ChannelBusyError: "This channel already has a game.",
    ConflictError: "That move was already made by someone else; the board has moved on.",
    AlreadyDoneError: _ALREADY["twice"],
    NotSavedError:
        "The game database could not save that (the disk may be full or failing), so "
        "it was NOT saved and nothing changed. Try again in a moment.",
    StoreClosedError: "The game store is closed.",
    StoreBusyError: "The game database is busy; try again in a moment.",
    r.RemovedFromLobby: "The host removed you from this lobby, so you cannot join it again.",
    r.NotInLobby: "That seat is no longer in the lobby; nothing changed.",
    r.HostCannotRemoveSelf:
        "You host this lobby: to give up your seat, press Leave (the next player hosts).",
    r.NoGameHere: "There is no game in this channel. Start one with `/game new`.",
    r.NotStarted: "This game has not started yet: use the lobby's Start button.",
    r.GameGone: "That choice has expired: this game no longer exists.",
    r.GameEnded: "That choice has expired: this game is over. `/game new` starts another.",
    r.ManageServerOnly:
        "Only people with the Manage Server permission can change this server's settings.",
    r.ThreadsFull:
        "This server has as many active threads as Discord allows, so I cannot open a "
        "thread for a new game. Finish or archive some threads and try again.",
    r.NotOver: "A rematch can be asked for once the game has ended with a result.",
    r.NotAPlayer: "Only the players who finished this game can ask for its rematch.",
    r.LobbyClosed: "That lobby has closed.",
    r.AlreadyJoined: "You have already joined this game.",
    r.LobbyFull: "This game is full.",
    r.NothingToUndo: "There is nothing of yours to undo yet.",
    r.NoStandIn: "No AI is standing in for you in this game: your seat is yours.",
    r.NothingToDecide: "This game is over: there is nothing left to decide.",
    r.VoteWhat: "Vote to give the seat to `ai` (for good) or to a `newcomer`.",
    r.NotUpForVote:
        "That player's seat is not up for a vote: the table votes only on a seat an AI "
        "stands in for, or one whose player let every reminder pass.",
    r.OthersVote: "Only the other players at this table vote on a seat.",
    r.AlreadySeated: "You already have a seat in this game.",
    r.NoOpenSeat:
        "No seat is open in this game: the table opens one by vote (`/game vote`) when an "
        "AI has been standing in for someone.",
    r.QuietHoursIncomplete:
        "Give all three: `timezone`, `quiet_from` and `quiet_to` (or none of them to turn "
        "quiet hours off).",
    r.RematchOpening:
        "Another player is opening this game's rematch right now: it shows in the channel in a "
        "moment.",
    r.NoSuchTournament: "That tournament no longer exists here.",
    r.NotSigningUp: "This tournament's sign-up is closed: it has started or ended.",
    r.AlreadyEntered: "You are already in this tournament.",
    r.NotEntered: "You are not playing in this tournament (or you withdrew already).",
}
for _kind, _words in _FIXED.items():
    refusal.register(_kind, lambda refused, words=_words: words)


class _Filler(string.Formatter):
    """Fills a refusal's sentence in: ``{low}`` is the refusal's field ``low``, and
    ``{name!e}`` a field people wrote (:func:`escaped`)."""

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        return getattr(args[0], str(key))

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        return escaped(value) if conversion == "e" else super().convert_field(value, conversion)


_FILLER = _Filler()
#: The refusals whose words are one sentence with their fields filled in.
_FILLED: dict[type[Exception], str] = {
    CorruptRowError:
        "The saved game #{game_id} is damaged ({what!e}) and cannot be loaded. Use /game abort to "
        "clear it and start a new one.",
    r.SeasonOver:
        "The season **{name!e}** is over already: its final standings are kept. Nothing changed.",
    r.ElsewhereButton:
        "That button belongs to a game in <#{channel_id}>, not this channel, so it does nothing "
        "here.",
    r.BadSeats: "{title} is for {low} to {high} players; `seats` must be in that range.",
    r.BadReminderHours: "`reminder_hours` must be more than 0 and at most {most:g}.",
    r.NeedMorePlayers:
        "{title} needs at least {needed} players; {joined} joined. Invite someone or add an AI "
        "seat.",
    r.NotYourLastMove:
        "You can only undo your own last move, before another player acts. The last player's move "
        "was {name!e}'s `{shown}`.",
    r.NoGameNumbered:
        "There is no game {game_id} in this channel: `/game history` lists its games by number.",
    r.NeverStarted: "Game {game_id} never started, so there is nothing to see.",
    r.EndedDamaged:
        "Game {game_id} has ended, but its saved state is damaged, so it cannot be shown. "
        "`/game new` starts the next one.",
}
for _kind, _sentence in _FILLED.items():
    refusal.register(_kind, lambda refused, sentence=_sentence: _FILLER.format(sentence, refused))


@refusal.register
def _(refused: r.Damaged) -> str:
    if refused.manage:
        return (f"The saved game #{refused.game_id} is damaged ({escaped(refused.what)}) and "
                f"cannot be loaded. Use /game abort to clear it and start a new one. Ending "
                f"it takes the Manage Channels permission.")
    return (f"The saved game #{refused.game_id} is damaged ({escaped(refused.what)}), so it "
            f"cannot be shown or played on. Use /game abort to clear it and start a new one.")


@refusal.register
def _(refused: r.ChannelTaken) -> str:
    if refused.title is None:
        return "This channel already has a game. Try again in a moment."
    stage = "a lobby for" if refused.lobby else "a game of"
    said = (f"This channel already has {stage} {refused.title}: one game per channel. Finish "
            f"it, leave it with `/game leave`, or end it with `/game abort` (its host or anyone "
            f"with Manage Channels). Or start yours in another channel.")
    why = _NO_THREAD.get(refused.no_thread)
    return f"{said} {why}" if why else said


#: Why a game could not get a thread of its own (then a channel holds one game).
_NO_THREAD = {
    "off": "This server plays one game per channel: its admins turned game threads off "
           "(`/settings`).",
    "type": "Games get threads of their own only in a server's text channels.",
    "permissions": "Each game could have a thread of its own here if I had the **Create "
                   "Public Threads** and **Send Messages in Threads** permissions in this "
                   "channel: ask a server admin.",
}


@refusal.register
def _(refused: r.NotAGamesChannel) -> str:
    where = ", ".join(f"<#{c}>" for c in refused.channels)
    return f"Games are played in {where} on this server: start yours there."


#: Why a game's place refuses the bot, and how it ends (see :class:`bot.refusals.Held`):
#: said on its card, and to whoever tries to change the game meanwhile.
HELD = {
    "locked": "A moderator locked this game's thread, so I can show nothing there. The game "
              "waits, saved, until someone with Manage Threads unlocks the thread (or ends "
              "the game with `/game abort`).",
    "threads_full": "This server has as many active threads as Discord allows, so I cannot "
                    "reopen this game's thread. The game waits, saved, until a thread is "
                    "archived or deleted; I try again every few minutes.",
    "permissions": "I may no longer post in this game's channel (I need **Send Messages**, "
                   "**Send Messages in Threads** and **Attach Files** there). The game "
                   "waits, saved, until a server admin gives them back; I try again every "
                   "few minutes.",
}


@refusal.register
def _(refused: r.Held) -> str:
    return f"Nothing changed. {HELD.get(refused.why, HELD['permissions'])}"


@refusal.register
def _(refused: r.NotOpened) -> str:
    if refused.why == "discord":
        return ("Discord did not take the new game just now (an error on its side), so "
                "nothing was opened. Try `/game new` again in a moment.")
    if refused.thread:
        return ("I may start threads in this channel but not post in it, so I cannot put a "
                "new game's card here: a server admin can give me **Send Messages** and "
                "**Attach Files** here, or start your game in another channel. Nothing was "
                "opened.")
    return ("I may not post in this channel (I need **Send Messages** and **Attach Files** "
            "here), so a game here could not be shown: ask a server admin, or start it in "
            "another channel. Nothing was opened.")


@refusal.register
def _(refused: r.RematchOpened) -> str:
    where = f" in <#{refused.channel_id}>" if refused.channel_id else ""
    return f"This game's rematch is already open{where} (game {refused.game_id}): join it there."


@refusal.register
def _(refused: r.NotJoined) -> str:
    return "You are not playing in this game." if refused.started else \
        "You have not joined this game."


@refusal.register
def _(refused: r.PickCount) -> str:
    return f"Choose from {refused.low} to {plural(refused.high, 'item')}."


@refusal.register
def _(refused: r.CannotUndo) -> str:
    if refused.unkept:
        return (f"`{refused.shown}` was played before this version of the bot kept what undo "
                f"needs, so it cannot be taken back.")
    if refused.after is not None:
        name, shown = refused.after
        return (f"`{refused.shown}` cannot be taken back any more: {escaped(name)}'s "
                f"`{shown}` after it revealed something new (a random draw or hidden "
                f"information).")
    return (f"`{refused.shown}` cannot be taken back: it revealed something new (a random "
            f"draw or hidden information).")


@refusal.register
def _(refused: r.NotAPlace) -> str:
    if not refused.spots:
        return f"{refused.title} has no places to zoom to."
    shown = ", ".join(f"`{s}`" for s in refused.spots[:12])
    more = " …" if len(refused.spots) > 12 else ""
    return f"`{escaped(refused.zoom)}` is not a place on this board. Try {shown}{more}."


@refusal.register
def _(refused: r.NoHand) -> str:
    if refused.ended:
        return ("You did not play in this channel's last game, so you have no hand to see. "
                "`/game board` shows its final board.")
    return "You are not playing in this game, so you have no hand to see."


@refusal.register
def _(refused: r.Away) -> str:
    detail = refused.detail
    if refused.problem == "hours":
        return "Quiet hours are whole hours from 0 to 23."
    if refused.problem == "same_hours":
        return "Quiet hours must start and end at different hours."
    if refused.problem == "zone":
        return (f"`{escaped(str(detail.get('zone', '')))}` is not a time zone I know: use a "
                f"name such as Europe/Berlin or America/New_York.")
    if refused.problem == "short":
        return "A vacation lasts at least one day."
    if refused.problem == "overlap":
        return ("That overlaps a vacation you already have: `/away back:True` ends the current "
                "one first.")
    if refused.problem == "allowance":
        return (f"That would be {detail['total']:g} vacation days in {detail['year']}; you have "
                f"{detail['left']:g} of {detail['allowance']} left that year.")
    if refused.problem == "not_a_date":
        return f"`{escaped(str(detail.get('text', '')))}` is not a date: write it as 2026-12-24."
    return "That day is over: a vacation starts today or later."


@refusal.register
def _(refused: r.BadChoice) -> str:
    if refused.option == "how":
        return "Choose how you are reached: channel, dm or quiet."
    return "Choose which reminders ping you: each, first or none."


# --------------------------------------------------------------------------- news


@singledispatch
def news(item: n.News) -> str:
    """What the board says a change did besides its moves."""
    raise TypeError(f"no words for {type(item).__name__}")


@news.register
def _(item: n.Begins) -> str:
    return f"{item.title} begins! {escaped(' '.join(item.setup))}".strip()


@news.register
def _(item: n.Left) -> str:
    if item.last:
        return f"{escaped(item.name)} left the game, and no players remain: the game is over."
    return f"{escaped(item.name)} left the game; an AI took their seat."


@news.register
def _(item: n.StoodIn) -> str:
    return (f"No move from {_names(item.names, ' and ')} after "
            f"{plural(item.reminders, 'reminder')}: an AI stands in for them until they are "
            f"back.")


@news.register
def _(item: n.OutOfTime) -> str:
    names = _names(item.names, ' and ')
    if item.rule == "forfeit":
        return (f"⏱ {names} ran out of time and forfeit{'s' if len(item.names) == 1 else ''}"
                f": placed last, and an AI plays the seat if the game goes on.")
    if item.rule == "skip":
        return f"⏱ {names} ran out of time: the turn is skipped."
    return (f"⏱ {names} ran out of time: an AI stands in until they are back "
            f"(`/game back`).")


@news.register
def _(item: n.Back) -> str:
    return f"{escaped(item.name) or 'A player'} is back: the AI hands the seat back."


@news.register
def _(item: n.MovedOn) -> str:
    return f"{listing([escaped(m) for m in item.names])} had not played yet; the game goes on now."


@news.register
def _(item: n.Undone) -> str:
    also = f" and the {plural(item.ai_moves, 'AI move')} after it" if item.ai_moves else ""
    return f"{escaped(item.name)} took back `{item.shown}`{also}."


@news.register
def _(item: n.SeatGiven) -> str:
    name = escaped(item.name)
    if item.to == "ai":
        return (f"The table gives {name}'s seat to the AI for good ({item.votes} of "
                f"{item.voters} votes).")
    return (f"The table opens {name}'s seat for a new player ({item.votes} of {item.voters} "
            f"votes): `/game sit` takes it, and the AI plays it meanwhile.")


@news.register
def _(item: n.SeatTaken) -> str:
    return f"{escaped(item.name)} takes the open seat ({escaped(item.previous)}'s)."


_RESUMED = {
    "locked": "This game's thread was unlocked",
    "threads_full": "This game's thread is open again",
    "permissions": "I may post here again",
}


@news.register
def _(item: n.Resumed) -> str:
    said = _RESUMED.get(item.why, "This game's place takes my posts again")
    return f"{said}: the game goes on from where it was saved."


# --------------------------------------------------------------------------- clocks


def time_left(seconds: float) -> str:
    """A clock's time left: "2 d 4 h left" (nothing left: "out of time")."""
    return f"{short(seconds)} left" if seconds > 0 else "out of time"


#: What happens to a player out of time, by the table's rule.
TIMEOUT_WORDS = {
    "stand_in": "an AI stands in until the player is back (`/game back`)",
    "skip": "the turn is skipped",
    "forfeit": "the player forfeits (placed last, rated)",
}


#: The timeout rules as ``/game new`` and ``/settings`` offer them (at most 100 characters).
TIMEOUT_CHOICES = {
    "stand_in": "An AI stands in (the player takes the seat back with /game back)",
    "skip": "The turn is skipped (a pass, where the game's rules have one)",
    "forfeit": "The player forfeits (placed last, rated)",
}


def clock_words(settings: Mapping[str, Any], game: Engine) -> str:
    """A table's clock as its lobby says it ("" without a clock)."""
    clock = TableClock.of(settings)
    if not clock.rule.timed:
        return ""
    rule = clock.applied(game)
    said = TIMEOUT_WORDS[rule]
    if rule == "skip":
        said += " (a pass where the rules allow one; else the AI makes that one decision)"
    elif clock.timeout == "skip":
        said = f"{game.title} has no pass in its rules, so {said}"
    return f"⏱ Clock: {clock.rule.said}. Out of time: {said}."


# --------------------------------------------------------------------------- tournaments

#: Why a tournament cannot run as asked.
_BAD_TOURNAMENT = {
    "two_seats": "Swiss and round-robin seat two players a table, and {title} cannot be "
                 "played by two. Choose pods for it.",
    "pairs": "Swiss and round-robin seat two players a table: leave seats out (pods seat "
             "more).",
    "pod_seats": "Pods of {title} seat {low} to {high} players a table.",
    "rounds": "A tournament plays {low} to {high} rounds.",
    "format": "Choose Swiss, round-robin or pods.",
    "deadline": "The sign-up may close {low} to {high} hours from now.",
    "channel": "Start a tournament in a text channel: its games open in threads there.",
    "threads": "A tournament's games open in threads of its channel, and I may not start "
               "threads here (I need Create Public Threads and Send Messages in Threads).",
    "which": "This server has more than one tournament: name yours by its number.",
}


@refusal.register
def _(refused: r.BadTournament) -> str:
    return "Nothing changed. " + _BAD_TOURNAMENT[refused.reason].format(
        title=escaped(refused.title), low=refused.low, high=refused.high)


@refusal.register
def _(refused: r.TournamentHostOnly) -> str:
    return (f"Only the tournament's host, {mention(refused.host)}, or someone with Manage "
            f"Server may do that.")


@refusal.register
def _(refused: r.TooFewPlayers) -> str:
    return (f"The tournament needs {plural(refused.needed, 'player')} to start; "
            f"{plural(refused.joined, 'player')} signed up so far.")
