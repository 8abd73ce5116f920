"""Message text and images: turning table reports into what Discord shows.

Everything here stays inside Discord's limits by construction: message text is
cut to :data:`MAX_CONTENT` characters, keeping the line that says who acts next.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import discord

from bot.games.engine import Game, View
from bot.store import ActionRecord, GameRecord, StatLine
from bot.tables import Board, Hand, Lobby, Reminder, Status

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
Renderer = Callable[[View], bytes]
Animator = Callable[[Sequence[bytes]], bytes]

#: Mentions only ever ping the users named; never roles or @everyone.
USERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True,
                                     replied_user=False)
NOBODY = discord.AllowedMentions.none()


@dataclass
class Outgoing:
    """One message to send: text, optional PNG/GIF and components."""

    content: str
    image: bytes | None = None
    filename: str = "board.png"
    view: discord.ui.View | None = None
    mentions: discord.AllowedMentions = field(default_factory=lambda: NOBODY)

    def kwargs(self, *, with_view: bool = True) -> dict[str, object]:
        """Keyword arguments for ``send``/``followup.send``."""
        out: dict[str, object] = {"content": self.content, "allowed_mentions": self.mentions}
        if self.image is not None:
            out["file"] = discord.File(io.BytesIO(self.image), filename=self.filename)
        if with_view and self.view is not None:
            out["view"] = self.view
        return out


def fit(lines: Sequence[str], *, keep_last: int = 1, limit: int = MAX_CONTENT) -> str:
    """Join ``lines``; if too long, drop lines from the middle, keeping the last ``keep_last``."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    tail = list(lines[-keep_last:]) if keep_last else []
    head = list(lines[: len(lines) - len(tail)])
    while head:
        dropped = len(lines) - len(head) - len(tail)
        note = f"… ({dropped} more lines: see `/game log`)" if dropped else ""
        text = "\n".join([*head, *([note] if note else []), *tail])
        if len(text) <= limit:
            return text
        head.pop()
    text = "\n".join(tail)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def stamp(unix: float | None) -> str:
    """A Discord relative timestamp, e.g. ``<t:1700000000:R>``."""
    return f"<t:{int(unix)}:R>" if unix else "some time ago"


async def render(renderer: Renderer | None, view: View, *,
                 game_id: int | None = None) -> bytes | None:
    """Render ``view`` to PNG in a worker thread; ``None`` (and a log line) if it fails."""
    if renderer is None:
        return None
    try:
        return await asyncio.to_thread(renderer, view)
    except Exception:
        log.exception("rendering failed for game %s", game_id)
        return None


# --------------------------------------------------------------------------- boards


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def board_text(board: Board) -> str:
    """The narration of a move message: headline, steps, and who must act next."""
    game = board.game
    lines = [f"**{game.title}** · move {board.move}"]
    if board.headline:
        lines.append(board.headline)
    for step in board.steps:
        who = f"**{step.name}**"
        said = " ".join(step.events)
        lines.append(clip(f"{who} played `{step.notation}`." + (f" {said}" if said else ""), 600))
    if board.result is not None or board.record.status == "finished":
        lines.append("**Game over.**" + (f" {board.result.summary}" if board.result else ""))
        for name, place, score in board.ranking:
            lines.append(f"{place}. {name}: {score}")
        return fit(lines, keep_last=len(board.ranking) + 1)
    lines.append(next_line(board))
    return fit(lines)


def next_line(board: Board) -> str:
    """Who must act next, with a mention for each human."""
    seats = {s.seat: s for s in board.record.seats}
    names = []
    for seat in board.to_act:
        record = seats.get(seat)
        if record is None:
            continue
        names.append(mention(record.user_id) if record.user_id and not record.ai else record.name)
    if not names:
        return "Waiting for the game to go on."
    if board.choices:
        return f"Your turn, {' and '.join(names)}: pick below or use `/play`."
    return f"Your turn, {' and '.join(names)}: use `/play`."


async def board_message(board: Board, renderer: Renderer | None,
                        view: discord.ui.View | None) -> Outgoing:
    """The public move message for ``board``: image, narration, mention, choices."""
    image = await render(renderer, board.view, game_id=board.record.id)
    return Outgoing(board_text(board), image, "board.png", view, USERS_ONLY)


async def hand_message(hand: Hand, renderer: Renderer | None,
                       view: discord.ui.View | None) -> Outgoing:
    """The ephemeral private view for one player."""
    image = await render(renderer, hand.view, game_id=hand.record.id)
    seat_name = next((s.name for s in hand.record.seats if s.seat == hand.seat), "you")
    lines = [f"**{hand.game.title}**: what {seat_name} sees (only you can see this)."]
    if hand.legal:
        shown = ", ".join(f"`{a.notation}`" for a in hand.legal[:20])
        more = f" and {len(hand.legal) - 20} more" if len(hand.legal) > 20 else ""
        lines.append(f"Your moves: {shown}{more}.")
    else:
        lines.append("It is not your turn.")
    return Outgoing(fit(lines), image, "hand.png", view, NOBODY)


# --------------------------------------------------------------------------- lobby and info


def lobby_text(lobby: Lobby) -> str:
    """The lobby message: game, options, who has joined."""
    record, game = lobby.record, lobby.game
    max_seats = int(record.settings.get("max_seats", game.max_seats))
    lines = [f"**{game.title}** lobby, opened by {mention(record.creator_id)}."]
    if record.options:
        shown = ", ".join(f"{k}: {v}" for k, v in record.options.items())
        lines.append(f"Options: {shown}.")
    hours = float(record.settings.get("reminder_hours", 24))
    takeover = " then an AI moves for them" if record.settings.get("ai_takeover") else ""
    lines.append(f"Reminders every {hours:g} h (at most 3){takeover}.")
    lines.append(f"Seats ({len(record.seats)}/{max_seats}, {game.min_seats} needed to start):")
    for seat in record.seats:
        who = f"{seat.name} (AI)" if seat.ai else f"{mention(seat.user_id or 0)}"
        lines.append(f"{seat.seat + 1}. {who}")
    if lobby.closed == "cancelled":
        lines.append("This lobby was cancelled.")
    elif lobby.closed:
        lines.append("The game has started.")
    else:
        lines.append("Join, add AI seats, then the creator presses Start.")
    return fit(lines, keep_last=0)


def status_text(status: Status) -> str:
    """``/game status``: whose turn, since when, scores, next reminder."""
    record = status.record
    waiting = ", ".join(mention(u) if u else name for name, u in status.to_act) or "nobody"
    lines = [f"**{status.game.title}**: {status.summary}",
             f"Waiting for {waiting} since {stamp(record.turn_started_at)}."]
    if record.next_reminder_at:
        lines.append(f"Next reminder {stamp(record.next_reminder_at)} "
                     f"({record.reminders_sent} of 3 sent).")
    lines.append("Scores: " + ", ".join(f"{n} {s}" for n, s in status.scores) + ".")
    return fit(lines)


def log_text(record: GameRecord, game: Game, actions: Sequence[ActionRecord]) -> str:
    """``/game log``: recent moves in notation."""
    if not actions:
        return f"**{game.title}**: no moves yet."
    names = {s.seat: s.name for s in record.seats}
    lines = [f"**{game.title}**: the last {len(actions)} moves."]
    for action in actions:
        lines.append(f"{action.n}. {names.get(action.seat, action.seat)}: `{action.notation}`")
    return fit(lines, keep_last=0)


def rules_text(game: Game) -> str:
    """``/game rules``: a concise summary taken from the game itself."""
    lines = [f"**{game.title}**, for {game.min_seats} to {game.max_seats} players."]
    if game.rules_summary:
        lines.append(game.rules_summary)
    if game.notation_help:
        lines.append(game.notation_help)
    for spec in game.options:
        choices = f" ({', '.join(spec.choices)})" if spec.choices else ""
        lines.append(f"Option `{spec.name}`{choices}: {spec.description}")
    lines.append("Play with `/play`; `/game hand` shows what only you may see; "
                 "`/game undo` takes back your last move if nothing new was revealed.")
    return fit(lines, keep_last=0)


def stats_text(user_id: int, lines: Sequence[tuple[str, StatLine]]) -> str:
    """``/stats``: games played and won per game in this server."""
    if not lines:
        return f"{mention(user_id)} has not finished a game in this server yet."
    out = [f"Games of {mention(user_id)} in this server:"]
    for title, line in lines:
        out.append(f"{title}: {line.played} played, {line.won} won.")
    return fit(out, keep_last=0)


def reminder_text(reminder: Reminder) -> str:
    """A reminder ping."""
    who = " ".join(mention(u) for u in reminder.mentions)
    record = reminder.record
    lines = [f"Reminder {reminder.number} of 3: {who}, it is your turn in "
             f"**{reminder.game.title}** (waiting since {stamp(record.turn_started_at)})."]
    if reminder.last and reminder.takeover_at:
        lines.append(f"This is the last one: if you have not moved {stamp(reminder.takeover_at)}, "
                     f"an AI plays your move.")
    elif reminder.last:
        lines.append("This is the last reminder.")
    return fit(lines)
