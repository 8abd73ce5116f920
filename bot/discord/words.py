"""The words of refusals, and text others wrote made safe to show.

Refusals arrive as values (:mod:`bot.refusals`); :func:`refusal` says each one to the
person who asked, privately. Names and other text that users wrote pass through
:func:`escaped` before any message shows them, as do sentences from below the
Discord layer that may contain names (narration, headlines): a display name can then
neither format the message, nor hide a link, nor look like a mention.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import singledispatch

from bot import refusals as r
from bot.games.words import plural

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


def names_escaped(text: str, names: Iterable[str]) -> str:
    """A sentence with the bot's own formatting (a headline quoting a move in backticks)
    that names players: each of ``names`` in it :func:`escaped`, in one pass (an escaped
    name is never escaped again), and no link anywhere in it."""
    wanted = sorted({n for n in names if n and n != escaped(n)}, key=len, reverse=True)
    if wanted:
        pattern = re.compile("|".join(re.escape(n) for n in wanted))
        text = pattern.sub(lambda m: escaped(m.group(0)), text)
    return unlinked(text)


#: A masked link's middle, and the start of a bare link.
_LINKING = re.compile(r"(\]\(|:(?=//))")


def unlinked(text: str) -> str:
    """A message that may quote a name between the bot's own formatting (a refusal): no
    name in it can make a link, masked or bare; code spans and mentions stay."""
    return _LINKING.sub(lambda m: "".join("\\" + c for c in m.group(0)), text)


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
          "leaderboard": "post a leaderboard", "replay": "ask for a replay"}
_LIMITS = {
    "lobbies": "You already host {n}: that is as many as one person may host at once. "
               "Start or cancel one first.",
    "games": "You already sit in {n} (lobbies and games under way): that is as many as one "
             "person may hold at once. Finish or leave one first.",
    "server_games": "This server already has {n} open: that is as many as one server may "
                    "have at once. Finish or end one first.",
}


@singledispatch
def refusal(refused: r.Refused) -> str:
    """What the person who asked reads when ``refused`` turned their request down."""
    raise TypeError(f"no words for {type(refused).__name__}")


@refusal.register
def _(refused: r.LimitReached) -> str:
    counted = (plural(refused.allowed, "lobby", "lobbies") if refused.limit == "lobbies"
               else plural(refused.allowed, "game"))
    return "Nothing changed. " + _LIMITS[refused.limit].format(n=counted)


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


@refusal.register
def _(refused: r.HostOnly) -> str:
    host = mention(refused.host) if refused.host else "its host"
    doing = {"start": "start the game", "add_ai": "add AI seats",
             "remove": "remove someone from the lobby"}.get(refused.what, "do that")
    return f"Only the lobby's host ({host}) can {doing}."


@refusal.register
def _(refused: r.RemovedFromLobby) -> str:
    return "The host removed you from this lobby, so you cannot join it again."


@refusal.register
def _(refused: r.NotInLobby) -> str:
    return "That seat is no longer in the lobby; nothing changed."


@refusal.register
def _(refused: r.HostCannotRemoveSelf) -> str:
    return "You host this lobby: to give up your seat, press Leave (the next player hosts)."


@refusal.register
def _(refused: r.MayNotEnd) -> str:
    host = mention(refused.host) if refused.host else "its host"
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
