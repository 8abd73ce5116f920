"""Message text and images: turning table reports into what Discord shows.

Everything here stays inside Discord's limits by construction: a message keeps the
line that says who acts next and drops whole lines from the middle when it would
pass :data:`MAX_CONTENT` characters. Narration is never cut mid-sentence: a long
step is summarised by its first whole sentences with a pointer to ``/game log``,
which shows every step whole, over several messages when needed (:func:`log_pages`).
The final message states the result once, in its "Game over" block.
Each step of a game reads once ("**Alice** swapped d3 and d4."), names the AI
when the AI chose ("The AI, for **Alice**, swapped ..."), and every count agrees
with its noun. Every player is shown with their seat's mark (:func:`seat_mark`), the same
colour and shape the pictures draw them in.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import discord

import renderers
from bot.alt_text import MAX_ALT, board_alt, plain_step
from bot.away import DAY, QuietHours, Vacation
from bot.discord import words
from bot.discord.words import escaped, quoted_moves
from bot.games.colours import text_mark
from bot.games.engine import ALERT, Engine, Result, View
from bot.games.words import STANDING_IN, listing
from bot.organized.clock import ClockRule
from bot.organized.seasons import Season, day_of
from bot.organized.standings import said
from bot.store import ActionRecord, Announcement, GameRecord, SeatRecord, StatLine
from bot.store.tournaments import EntryRecord, TournamentRecord
from bot.tables import (
    FORMER_PLAYER,
    MAX_REMINDERS,
    STAND_IN_LEVEL,
    Board,
    CardsShown,
    Forgotten,
    Hand,
    Lobby,
    MyGame,
    SeatVote,
    Status,
    Step,
    TableClock,
    plural,
    seat_label,
    step_of,
    stored_result,
)
from bot.tournaments import Standings

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
#: How long one step's narration may be in a board message before it is summarised.
STEP_BUDGET = 600
#: What a summarised step ends with.
FULL_IN_LOG = "(The full account is in `/game log`.)"
#: At most this many messages answer one ``/game log``.
LOG_PAGES = 5
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+")
Renderer = Callable[[View], bytes]

NOBODY = discord.AllowedMentions.none()


def only(users: Sequence[int]) -> discord.AllowedMentions:
    """Mentions that ping exactly ``users``: never anyone else, a role or @everyone."""
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(u) for u in users])


@dataclass
class Outgoing:
    """One message to send: text, optional PNG/GIF files and components."""

    content: str
    image: bytes | None = None
    filename: str = "board.png"
    view: discord.ui.View | None = None
    mentions: discord.AllowedMentions = field(default_factory=lambda: NOBODY)
    #: An animation of the latest move, attached beside the picture.
    gif: bytes | None = None
    #: The picture in words, for a screen reader (Discord's attachment description).
    alt: str = ""

    def files(self) -> list[discord.File]:
        out = []
        if self.image is not None:
            out.append(discord.File(io.BytesIO(self.image), filename=self.filename,
                                    description=clip(self.alt, MAX_ALT) or None))
        if self.gif is not None:
            out.append(discord.File(io.BytesIO(self.gif), filename="move.gif",
                                    description=clip(self.alt, MAX_ALT) or None))
        return out

    def kwargs(self, *, with_view: bool = True) -> dict[str, object]:
        """Keyword arguments for ``send``/``followup.send``."""
        out: dict[str, object] = {"content": self.content, "allowed_mentions": self.mentions}
        files = self.files()
        if files:
            out["files"] = files
        if with_view and self.view is not None:
            out["view"] = self.view
        return out

    def edit_kwargs(self) -> dict[str, object]:
        """Keyword arguments for ``PartialMessage.edit``: new text, pictures and buttons."""
        return {"content": self.content, "attachments": self.files(), "view": self.view,
                "allowed_mentions": NOBODY}


def fit(lines: Sequence[str], *, keep_last: int = 1, keep_first: int = 0,
        limit: int = MAX_CONTENT) -> str:
    """Join ``lines``; if too long, drop lines from the middle, keeping the first
    ``keep_first`` and the last ``keep_last``."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    tail = list(lines[-keep_last:]) if keep_last else []
    first = list(lines[:keep_first])
    head = list(lines[keep_first: len(lines) - len(tail)])
    while head:
        dropped = len(lines) - len(first) - len(head) - len(tail)
        note = f"({plural(dropped, 'more line')}: see `/game log`)" if dropped else ""
        text = "\n".join([*first, *head, *([note] if note else []), *tail])
        if len(text) <= limit:
            return text
        head.pop()
    text = "\n".join([*first, *tail])
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters with an ellipsis (labels, never narration)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def sentences(text: str) -> list[str]:
    """``text`` split after each full stop, question or exclamation mark."""
    return [part for part in _SENTENCE_BREAK.split(text.strip()) if part]


def summarised(text: str, budget: int = STEP_BUDGET) -> str:
    """``text`` whole if it fits ``budget``, else its first whole sentences that fit and
    :data:`FULL_IN_LOG` (at least the first sentence, however long)."""
    if len(text) <= budget:
        return text
    kept: list[str] = []
    size = len(FULL_IN_LOG)
    for sentence in sentences(text):
        if kept and size + 1 + len(sentence) > budget:
            break
        kept.append(sentence)
        size += 1 + len(sentence)
    return " ".join([*kept, FULL_IN_LOG])


def chunks(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, broken between sentences (or,
    for a sentence longer than ``limit``, between words)."""
    pieces: list[str] = []
    current = ""
    for sentence in sentences(text):
        words = [sentence] if len(sentence) <= limit else sentence.split(" ")
        for word in words:
            joined = f"{current} {word}" if current else word
            if len(joined) <= limit:
                current = joined
                continue
            if current:
                pieces.append(current)
            while len(word) > limit:  # one unbroken "word" longer than a message
                pieces.append(word[:limit])
                word = word[limit:]
            current = word
    if current:
        pieces.append(current)
    return pieces


def stamp(unix: float | None, style: str = "R") -> str:
    """A Discord timestamp, e.g. ``<t:1700000000:R>`` ("in 3 hours")."""
    return f"<t:{int(unix)}:{style}>" if unix else "some time ago"


async def render(renderer: Renderer | None, view: View, *,
                 game_id: int | None = None) -> bytes | None:
    """Render ``view`` to PNG; ``None`` (and a log line) if it fails.

    A render pool is awaited on the event loop (``render_async``): a thread blocked on
    the pool would hold one of the few worker threads the moves' rules need. Any other
    renderer draws in a worker thread.
    """
    if renderer is None:
        return None
    pooled = getattr(renderer, "render_async", None)
    try:
        if callable(pooled):
            return await pooled(view, key=game_id)  # the game's worker has its sprites
        return await asyncio.to_thread(renderer, view)
    except Exception:
        log.exception("rendering failed for game %s", game_id)
        return None


class Pictures:
    """Public board pictures kept by game, version and zoom for showing again: someone
    asking again and again for the private board of a game that has not moved gets the
    same picture, drawn once (a request while it is drawn waits for that drawing). At
    most :attr:`limit` bytes are kept, the least recently asked dropped first."""

    def __init__(self, limit: int = 16 * 1024 * 1024) -> None:
        self.limit = limit
        self._kept: OrderedDict[tuple[int, int, str | None], bytes] = OrderedDict()
        self._drawing: dict[tuple[int, int, str | None], asyncio.Future[bytes | None]] = {}
        self._bytes = 0

    async def board(self, renderer: Renderer | None, board: Board,
                    zoom: str | None = None) -> bytes | None:
        """``board``'s picture (``None`` when none can be drawn)."""
        key = (board.record.id, board.record.version, zoom)
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        drawing = self._drawing.get(key)
        if drawing is None:
            drawing = asyncio.ensure_future(render(renderer, board.view,
                                                   game_id=board.record.id))
            self._drawing[key] = drawing
            drawing.add_done_callback(lambda _done: self._drawing.pop(key, None))
        image = await asyncio.shield(drawing)
        if image is not None and key not in self._kept and len(image) <= self.limit:
            self._kept[key] = image
            self._bytes += len(image)
            while self._bytes > self.limit:
                _key, dropped = self._kept.popitem(last=False)
                self._bytes -= len(dropped)
        return image


class EarlyPicture:
    """A move's board picture, begun just before the move is committed: the tables call it
    with the board's view (a :data:`~bot.tables.core.Sketch`), so that the render pool's
    processes draw it while the store commits and the message is put together.

    Only a renderer that draws in other processes (``render_async``, the pool) begins
    early: a picture drawn in a thread of this process would hold the interpreter lock
    that the commit needs, and the move would be no sooner (docs/benchmarks.md). The
    picture is used only for a board that shows that very view; one drawn for a move
    that lost its race to another is dropped (:meth:`cancel`), never shown.
    """

    def __init__(self, renderer: Renderer | None, game_id: int | None = None) -> None:
        self.renderer = renderer
        self.game_id = game_id
        self._view: View | None = None
        self._drawing: asyncio.Task[bytes | None] | None = None

    def __call__(self, view: View) -> None:
        if not callable(getattr(self.renderer, "render_async", None)):
            return
        self.cancel()  # a view from an earlier try at the same move
        self._view = view
        self._drawing = asyncio.create_task(render(self.renderer, view, game_id=self.game_id),
                                            name=f"picture-{self.game_id}")

    def drawing(self, view: View) -> asyncio.Task[bytes | None] | None:
        """The picture of ``view`` if it is the one begun (the very object), else ``None``."""
        return self._drawing if view is self._view else None

    def cancel(self) -> None:
        """Stop drawing a picture nobody will show."""
        if self._drawing is not None and not self._drawing.done():
            self._drawing.cancel()
        self._drawing = self._view = None


def animates(game: Engine) -> bool:
    """Whether the game's renderer draws a GIF of each move."""
    return renderers.animator_for(game.slug) is not None


async def animate(renderer: Renderer | None, view: View, *,
                  game_id: int | None = None) -> bytes | None:
    """The GIF of the latest move, when the game's renderer draws one: awaited from the
    render pool's workers when ``renderer`` is a pool, else drawn in a worker thread
    (by the renderer's own ``animate`` when it has one)."""
    if renderer is None:
        return None
    try:
        pooled = getattr(renderer, "animate_async", None)
        if callable(pooled):
            return await pooled(view)
        maker = getattr(renderer, "animate", None)
        return await asyncio.to_thread(maker if callable(maker) else renderers.animate, view)
    except Exception:
        log.exception("animating failed for game %s", game_id)
        return None


# --------------------------------------------------------------------------- players


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def seat_mark(game: Engine, seat: int) -> str:
    """The seat's coloured square and shape in ``game``, as its pictures draw the seat."""
    return text_mark(seat, game.seat_colours)


def marked(game: Engine, seat: int, name: str) -> str:
    """A player's name in bold after their seat's mark (escaped: a name shows as typed)."""
    return f"{seat_mark(game, seat)} **{escaped(name)}**"


def who(game: Engine, seat: SeatRecord) -> str:
    """A seat to address: its mark and a mention for a human, its name for an AI."""
    if seat.user_id and not seat.ai:
        return f"{seat_mark(game, seat.seat)} {mention(seat.user_id)}"
    return marked(game, seat.seat, seat.name)


def players_line(game: Engine, seats: Sequence[SeatRecord]) -> str:
    return "Players: " + " · ".join(
        marked(game, s.seat, s.name) + (STANDING_IN if s.standing_in else "")
        for s in seats)


def standing_in_line(game: Engine, seats: Sequence[SeatRecord]) -> str:
    """Who an AI plays for until they are back, and how they come back."""
    names = [marked(game, s.seat, s.name) for s in seats if s.standing_in]
    if not names:
        return ""
    return (f"🤖 An AI plays for {listing(names)} until they are back: **I'm back** below, "
            f"`/game back` or any move hands the seat back.")


# --------------------------------------------------------------------------- steps


def step_line(game: Engine, step: Step, you: int | None = None) -> str:
    """One step, read once: the game's own narration with the mover in bold. A move
    an AI made for a human's seat is told as the AI's, for that player ("for you"
    when told privately to ``you``, the seat's own player)."""
    name = marked(game, step.seat, step.name)
    if step.for_human:
        subject = "The AI, for you," if step.seat == you else f"The AI, for {name},"
    else:
        subject = name
    said = " ".join(step.events)
    if said.startswith(step.name + " "):
        return f"{subject}{escaped(said[len(step.name):])}"
    said = escaped(said)
    head = (f"{subject} {escaped(step.notation)}." if step.hidden
            else f"{subject} played `{step.notation}`.")
    return f"{head} {said}" if said else head


def step_lines(game: Engine, steps: Sequence[Step], seat: int | None = None, *,
               budget: int = STEP_BUDGET) -> list[str]:
    """The steps as lines, each summarised to ``budget``; with ``seat`` (told privately
    to its player), that seat's private lines follow each step.

    Repeated lines (a player still drafting a secret answer) are told once.
    """
    lines: list[str] = []
    for step in steps:
        line = summarised(step_line(game, step, seat), budget)
        if not lines or lines[-1] != line:
            lines.append(line)
        if seat is not None:  # lines that hit the seat are told apart (see since_lines)
            lines.extend(f"> {clip(escaped(p), 300)}" for p in step.private.get(seat, ())
                         if not p.startswith(ALERT))
    return lines


# --------------------------------------------------------------------------- boards


def board_text(board: Board) -> str:
    """The narration of a move message: title, players, headline, steps, who acts next."""
    game = board.game
    lines = [f"**{game.title}** · move {board.move}", players_line(game, board.record.seats)]
    lines.extend(words.news(item) for item in board.news)
    if board.result is not None or board.record.status == "finished":
        summary = board.result.summary if board.result else ""
        # The final scoring is what everybody wants to read: give it more room.
        lines.extend(step_lines(game, [without(step, summary) for step in board.steps],
                                budget=2 * STEP_BUDGET))
        lines.append("**Game over.**" + (f" {escaped(summary)}" if summary else ""))
        marks = {s.name: s.seat for s in board.record.seats}
        for name, place, score in board.ranking:
            lines.append(f"{place}. {marked(game, marks.get(name, 0), name)}: {score}")
        return fit(lines, keep_last=len(board.ranking) + 1, keep_first=2)
    lines.extend(step_lines(game, board.steps))
    if board.record.status == "aborted":
        lines.append(ended_line(board.record))
        return fit(lines, keep_first=2)
    lines.append(next_line(board))
    extra = [line for line in (clocks_line(game, board.record.seats, board.clocks),
                               away_line(game, board.record.seats, board.away),
                               standing_in_line(game, board.record.seats)) if line]
    lines.extend(extra)
    return fit(lines, keep_first=2, keep_last=1 + len(extra))


def clocks_line(game: Engine, seats: Sequence[SeatRecord],
                clocks: Sequence[tuple[int, float]]) -> str:
    """The running clocks of a table with a clock: "⏱ Ana: 2 d 4 h left"."""
    names = {s.seat: marked(game, s.seat, s.name) for s in seats}
    parts = [f"{names.get(seat, 'a player')}: {words.time_left(left)}" for seat, left in clocks]
    return f"⏱ {', '.join(parts)}." if parts else ""


def away_line(game: Engine, seats: Sequence[SeatRecord],
              away: Sequence[tuple[int, float]]) -> str:
    """Who of those awaited is away, and until when (each reader sees their own time)."""
    names = {s.user_id: marked(game, s.seat, s.name) for s in seats if s.user_id}
    parts = [f"{names.get(user, 'a player')} until {stamp(until)}" for user, until in away]
    if not parts:
        return ""
    return (f"🌙 Away: {listing(parts)}. Their ping waits until then, and so do reminders "
            f"and the AI take-over.")


def without(step: Step, said: str) -> Step:
    """``step`` without the sentences of its narration that ``said`` already tells (the
    result, stated once in the final message's "Game over" line)."""
    told = [t.rstrip(".!") for t in sentences(said)]
    if not told:
        return step

    def repeats(sentence: str) -> bool:
        bare = sentence.rstrip(".!")
        return any(bare == t or bare.startswith(t + " and ") for t in told)

    events = tuple(" ".join(s for s in sentences(event) if not repeats(s))
                   for event in step.events)
    return replace(step, events=tuple(e for e in events if e))


def next_line(board: Board) -> str:
    """Who must act next, with a mention for each human, and how."""
    seats = {s.seat: s for s in board.record.seats}
    acting = [seats[s] for s in board.to_act if s in seats]
    if not acting:
        return "Waiting for the game to go on."
    names = listing([who(board.game, s) for s in acting])
    if board.joint:
        told = {step.seat for step in board.steps}
        done = [marked(board.game, s, seats[s].name)
                for s in board.decided if s in seats and s not in told]
        already = f"{listing(done)} {'has' if len(done) == 1 else 'have'} decided. " if done else ""
        return (f"{already}Still deciding, in secret: {names}. Press **Decide** (only you see "
                f"your choices) or use `/play`.")
    if board.choices or board.multi:
        return f"Your turn, {names}: pick below or use `/play`."
    if board.private_choices:
        return f"Your turn, {names}: press **Decide** to see your choices, or use `/play`."
    return f"Your turn, {names}: use `/play`."


def message_link(guild_id: int | None, channel_id: int, message_id: int | None) -> str:
    """A link that jumps to a message (or to the channel, without one)."""
    tail = f"/{message_id}" if message_id else ""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}{tail}"


def addressed(game: Engine, users: Sequence[Sequence[int]]) -> str:
    """``[[user, seat], ...]`` as an announcement addresses them: each seat's mark and a
    mention."""
    return listing([f"{seat_mark(game, int(seat))} {mention(int(user))}" for user, seat in users])


def ping_text(item: Announcement, game: Engine) -> str:
    """The words of a hand-over (an announcement about ``turn``) for the players it hands
    the turn to; with a board to point to (an episode's edited board), a link to it."""
    data = item.data or {}
    names = addressed(game, data.get("users", ()))
    if data.get("board"):
        link = message_link(item.guild_id, item.channel_id, int(data["board"]))
        return f"{names}: your turn in **{game.title}**: {link}"
    return f"{names}: your turn in **{game.title}** (move {int(data.get('move', 0))})."


def announcement(item: Announcement, game_of: Callable[[str], Engine]) -> str:
    """The text of an announcement the outbox delivers, worded from its data (an older
    announcement queued as text is sent as it was)."""
    data = item.data
    if data is None:
        return item.content
    if item.kind == "notice" and data.get("about") == "expired":
        return expired_text(item, game_of(str(data.get("game", ""))))
    if item.kind == "notice":
        return dm_closed_text(int(data["dm_closed"]))
    game = game_of(str(data.get("game", "")))
    about = data.get("about")
    if about == "alert":
        text = f"{clip(escaped(str(data.get('line', ''))), 1800)} ({game.title})"
    elif about == "reminder":
        text = reminder_text(item, game)
    elif about == "clock":
        text = clock_reminder_text(data, game)
    else:
        text = ping_text(item, game)
    return f"{text} · <#{item.channel_id}>" if item.kind == "dm" else text


async def board_message(board: Board, renderer: Renderer | None,
                        view: discord.ui.View | None,
                        early: EarlyPicture | None = None,
                        pictures: Pictures | None = None) -> Outgoing:
    """The public move message for ``board``: image, narration, mention, choices
    (the picture ``early`` began, when it is of this board's view; else the one
    ``pictures`` keeps for it, when given)."""
    drawing = early.drawing(board.view) if early is not None else None
    if drawing is not None:
        image = await drawing
    elif pictures is not None:
        image = await pictures.board(renderer, board, board.view.get("zoom"))
    else:
        image = await render(renderer, board.view, game_id=board.record.id)
    return Outgoing(board_text(board), image, "board.png", view, NOBODY, alt=board_alt(board))


def movement_alt(board: Board) -> str:
    """The movement GIF in words."""
    last = f": {plain_step(board.steps[-1])}" if board.steps else ""
    return clip(f"An animation of the last move of {board.game.title}{last}", MAX_ALT)


def mover_text(board: Board, user_id: int, played: str) -> str:
    """The private answer to the player who moved: their move and what only they learn."""
    lines = [f"You played `{played}`."]
    lines.extend(f"> {clip(escaped(line), 300)}" for line in board.private_lines(user_id))
    if board.edits:
        lines.append("The board message above shows the rest.")
    return fit(lines, keep_last=0)


def dm_answer_text(board: Board, user_id: int, played: str, *, others: bool) -> str:
    """A move's answer in the direct message it was made from: the move and what only
    the mover learns of it; with ``others``, also what the moves that answered it told
    them (an AI's raid, marked ⚠), unless a catch-up that follows says it."""
    lines = [f"You played `{played}`."]
    lines.extend(f"> {clip(escaped(line), 300)}"
                 for line in board.private_lines(user_id, others=others))
    return fit(lines, keep_first=1, keep_last=0)


def saved_not_shown(board: Board) -> str:
    """The private answer when a saved change could not be shown: the truth, no alarm."""
    told = " The players whose turn it is are pinged as soon as Discord takes the message." \
        if board.handed else ""
    lead = "Your move counts: it is saved" if board.played else "Done, and saved"
    return (f"{lead} (move {board.move}). Discord would not take the board just now; it "
            f"is posted as soon as Discord takes it, and `/game board` shows it.{told}")


def since_lines(game: Engine, since: Sequence[Step], more: int, seat: int | None) -> list[str]:
    """"Since your last turn:" and the moves others made (``seat``'s private lines too),
    led by what hit ``seat`` (a raid on its hideout, say)."""
    if not since:
        return []
    earlier = f" ({plural(more, 'earlier move')} in `/game log`)" if more else ""
    hits = [clip(escaped(line), 300) for step in since for line in step.private.get(seat, ())
            if line.startswith(ALERT)] if seat is not None else []
    return [f"Since your last turn{earlier}:", *hits, *step_lines(game, since, seat)]


async def hand_message(hand: Hand, renderer: Renderer | None,
                       view: discord.ui.View | None) -> Outgoing:
    """The ephemeral private view for one player: catch-up, secrets, choices."""
    image = await render(renderer, hand.view, game_id=hand.record.id)
    seat_name = next((s.name for s in hand.record.seats if s.seat == hand.seat), "you")
    lines = since_lines(hand.game, hand.since, hand.since_more, hand.seat)
    lines.append(f"**{hand.game.title}**: what {marked(hand.game, hand.seat, seat_name)} sees "
                 f"(only you can see this).")
    if hand.answer:
        shown = ", ".join(f"`{n}`" for n in hand.answer)
        lines.append(f"Your secret answer so far: {shown}.")
    if hand.record.status != "active":
        lines.append("This game is over: this is how it ended for you.")
    elif hand.legal:
        shown = ", ".join(f"`{a.notation}`" for a in hand.legal[:20])
        more = f" and {len(hand.legal) - 20} more" if len(hand.legal) > 20 else ""
        lines.append(f"Your {'move' if len(hand.legal) == 1 else 'moves'}: {shown}{more}.")
    elif hand.waiting:
        names = {s.seat: s.name for s in hand.record.seats}
        lines.append("You have decided; still deciding: "
                     f"{listing([marked(hand.game, s, names.get(s, '?')) for s in hand.waiting])}.")
    else:
        lines.append("It is not your turn.")
    seen = (f"{hand.game.title}: what {seat_name} sees, move {hand.move}. "
            + (f"Your moves: {', '.join(a.notation for a in hand.legal[:30])}." if hand.legal
               else "Nothing to do now."))
    return Outgoing(fit(lines, keep_last=2), image, "hand.png", view, NOBODY, alt=seen)


# --------------------------------------------------------------------------- lobby and info


def lobby_text(lobby: Lobby) -> str:
    """The lobby message: game, host, options, who has joined."""
    record, game = lobby.record, lobby.game
    max_seats = int(record.settings.get("max_seats", game.max_seats))
    owner = lobby.owner
    host = f", hosted by {mention(owner)}" if owner else ""
    lines = [f"**{game.title}** lobby{host}."]
    if record.options:
        specs = {spec.name: spec for spec in game.options}
        shown = [specs[name].words(value) if name in specs else f"{name} {value}"
                 for name, value in record.options.items()]
        lines.append(f"Playing with {listing([escaped(str(s)) for s in shown])}.")
    hours = float(record.settings.get("reminder_hours", 24))
    if record.settings.get("ai_takeover"):
        level = record.settings.get("stand_in_level", STAND_IN_LEVEL)
        takeover = (f", then an AI plays for a silent player, at its {level} level, until "
                    f"they are back (the table can vote to give the seat to the AI for good)")
    else:
        takeover = (", then the others can vote to give a silent player's seat to the AI "
                    "(`/game vote`)")
    lines.append(f"Reminders every {hours:g} h (at most {MAX_REMINDERS}){takeover}.")
    clock = words.clock_words(record.settings, game)
    if clock:
        lines.append(clock)
    lines.append(f"Seats ({len(record.seats)}/{max_seats}, {game.min_seats} needed to start):")
    for seat in record.seats:
        name = f"{marked(game, seat.seat, seat_label(seat))} (AI)" if seat.ai else who(game, seat)
        lines.append(f"{seat.seat + 1}. {name}")
    if lobby.closed == "cancelled":
        lines.append("This lobby was cancelled.")
    elif lobby.closed == "empty":
        lines.append("Everyone left, so this lobby closed.")
    elif lobby.closed == "expired":
        lines.append("Nobody started this lobby for days, so it closed.")
    elif lobby.closed:
        lines.append("The game has started.")
    else:
        lines.append("Join, add AI seats, then the host presses Start.")
    return fit(lines, keep_last=0)


def cards_pages(shown: CardsShown) -> list[str]:
    """``/game cards``: every card on the table in full words, one line a card with where
    it lies, over as many messages as it takes (only the one who asked sees them)."""
    title = shown.game.title
    if not shown.texts:
        return [f"**{title}** has no cards on the table to spell out: `/game rules` says "
                "how it plays."]
    whose = "as you may see them" if shown.seat is not None else "as everybody may see them"
    head = f"**{title}**: every card on the table, {whose} (only you can see this)."
    lines = [f"**{escaped(card.name)}** ({card.kind}) · "
             f"{quoted_moves(escaped('; '.join(card.places)))}: {escaped(card.text)}"
             for card in shown.texts]
    return _pack(head, [clip(line, MAX_CONTENT) for line in lines], MAX_CONTENT)


def status_text(status: Status) -> str:
    """``/game status``: whose turn, since when, scores, next reminder and AI take-over."""
    record = status.record
    lines = [f"**{status.game.title}**: {escaped(status.summary)}"]
    if record.status in ("finished", "aborted"):
        lines.append(ended_line(record))
        lines.append(scores_line(status))
        return fit(lines)
    waiting = ", ".join(mention(u) if u else escaped(name)
                        for name, u in status.to_act) or "nobody"
    lines.append(f"Waiting for {waiting} since {stamp(record.turn_started_at)}.")
    clocks = clocks_line(status.game, record.seats, status.clocks)
    if clocks:
        lines.append(clocks)
    away = away_line(status.game, record.seats, status.away)
    if away:
        lines.append(away)
    if status.next_reminder_at and record.reminders_sent < MAX_REMINDERS:
        lines.append(f"Next reminder {stamp(status.next_reminder_at)} "
                     f"({record.reminders_sent} of {MAX_REMINDERS} sent).")
    if status.takeover_at:
        lines.append(f"The AI moves for them {stamp(status.takeover_at)} "
                     f"({stamp(status.takeover_at, 'f')}) if they have not moved by then.")
    lines.append(scores_line(status))
    return fit(lines)


def scores_line(status: Status) -> str:
    return "Scores: " + ", ".join(f"{escaped(n)} {s}" for n, s in status.scores) + "."


def clock_setting(settings: Mapping[str, Any]) -> str:
    """A server's default clock, as ``/settings`` says it."""
    clock = TableClock.of(settings)
    if not clock.rule.timed:
        return "none"
    return f"{clock.rule.said}; out of time, {words.TIMEOUT_WORDS[clock.timeout]}"


def settings_text(settings: dict[str, Any]) -> str:
    """The server's defaults for new games, as ``/settings`` says them."""
    threads = ("each game gets a thread of its own where I may create threads"
               if settings.get("threads", True) else "one game per channel, no threads")
    hours = settings.get("reminder_hours")
    takeover = settings.get("ai_takeover", True)
    channels = settings.get("channels") or []
    where = ", ".join(f"<#{int(c)}>" for c in channels) if channels else "any channel"
    text = ("This server's defaults for new games:\n"
            f"- Threads: {threads}.\n"
            f"- Reminders every {hours if hours is not None else 24:g} h.\n"
            f"- AI take-over of a silent seat: {'on' if takeover else 'off'}.\n"
            f"- Clock: {clock_setting(settings)}.\n"
            f"- Games may open in: {where}.\n"
            f"- Web pages of games: {'allowed' if settings.get('web') else 'off'} "
            "(a **Watch on the web** link where the bot's operator runs its web pages).\n"
            f"- New seasons' ratings: "
            f"{'start afresh' if settings.get('season_ratings') == 'fresh' else 'carry over'}"
            " (`/season new`).\n"
            "A lobby's own options still win over these.")
    lapsed = settings.get("lapsed") or []
    if lapsed:
        named = ", ".join(f"`{int(c)}`" for c in lapsed)
        text += (f"\nNote: the games channel {named} was deleted, so it no longer limits "
                 f"where games open. Choose again with `games_channel` (or `any_channel`).")
    return text


def opening_text(title: str) -> str:
    """The card for the moment between its post and its lobby."""
    return f"A lobby for **{title}** is opening…"


def lobby_opened_text(lobby: Lobby) -> str:
    """The host's private answer: where their lobby is (thread mode)."""
    return (f"Your lobby for **{lobby.game.title}** is open: <#{lobby.record.channel_id}>. "
            f"Players join with the buttons on its card; the game is played in its thread.")


def joined_text(lobby: Lobby, user_id: int) -> str:
    """The private answer to Join: the seat taken and where the game is played."""
    seat = next((s.seat + 1 for s in lobby.record.seats if s.user_id == user_id), None)
    taken = f"You took seat {seat} in" if seat else "You joined"
    where = (f" It is played in its thread, <#{lobby.record.channel_id}>, which you are "
             f"added to." if lobby.record.parent_id else " It is played in this channel.")
    return f"{taken} the **{lobby.game.title}** lobby.{where}"


def gone_text(what: str) -> str:
    """Said where it can still be said when a moderator deleted a game's ``thread``,
    ``channel`` or ``card``."""
    return f"This game ended without a result: its {what} was deleted."


def ended_line(record: GameRecord) -> str:
    """How and when an ended game ended, and that a new one can start."""
    if record.status == "aborted":
        how = f"was ended without a result {stamp(record.updated_at)}"
    else:
        how = f"ended {stamp(record.updated_at)}"
    return (f"This game (number {record.id}) {how}; `/game new` starts the next one, and "
            f"`/game history` lists the channel's past games.")


def history_text(game_of: Callable[[str], Engine],
                 games: Sequence[tuple[GameRecord, Result | None]]) -> str:
    """``/game history``: the channel's ended games, newest first, with their results."""
    if not games:
        return "No game has ended in this channel yet."
    lines = ["**Past games in this channel**, newest first:"]
    for record, result in games:
        game = game_of(record.game)
        marks = {s.seat: s for s in record.seats}
        head = f"`{record.id}` **{game.title}**, {stamp(record.updated_at, 'd')}"
        if result is None:
            lines.append(f"{head}: ended without a result.")
            continue
        places = [f"{result.place_of(seat)}. {marked(game, seat, marks[seat].name)} "
                  f"{int(result.scores.get(seat, 0))}"
                  for group in result.ranking for seat in group if seat in marks]
        lines.append(f"{head}: {' · '.join(places)}")
    lines.append("See one again with `/game replay game:<number>` (an animation) or "
                 "`/game log game:<number>` (its moves).")
    return fit(lines, keep_first=1)


def log_line(record: GameRecord, action: ActionRecord) -> str:
    """One logged action as everybody may read it: who, the move, its whole narration."""
    seat = next((s for s in record.seats if s.seat == action.seat), None)
    name = escaped(seat.name) if seat is not None else f"Seat {action.seat + 1}"
    if action.by_ai and seat is not None and not seat.ai:
        name = f"the AI for {name}"
    shown = escaped(action.shown) if action.public else f"`{action.notation}`"
    said = f" · {escaped(action.narration)}" if action.narration else ""
    return f"{action.n}. {name}: {shown}{said}"


def log_pages(record: GameRecord, game: Engine, actions: Sequence[ActionRecord], *,
              start: int | None = None, pages: int = LOG_PAGES,
              limit: int = MAX_CONTENT) -> list[str]:
    """``/game log``: the moves with their whole narration, in at most ``pages`` messages.

    A move too long for one message continues in the next. When the moves asked for
    need more than ``pages`` messages, whole moves are left out: the oldest, or with
    ``start`` (the moves from that number on) the newest.
    """
    if not actions:
        return [f"**{game.title}**: no moves yet."]
    ended = "" if record.status == "active" else f" (game {record.id}, ended)"
    order = list(actions) if start is not None else list(reversed(actions))
    kept: list[ActionRecord] = []
    out: list[str] = []
    for action in order:
        trial = sorted([*kept, action], key=lambda a: a.n)
        packed = _pack(_log_head(game, ended, trial, len(actions), start), [
            piece for a in trial for piece in chunks(log_line(record, a), limit - 200)], limit)
        if kept and len(packed) > pages:
            break
        kept, out = trial, packed
    return out


def _log_head(game: Engine, ended: str, shown: Sequence[ActionRecord], asked: int,
              start: int | None) -> str:
    which = (f"the last {plural(len(shown), 'move')}" if start is None
             else f"{plural(len(shown), 'move')} from move {shown[0].n}")
    head = f"**{game.title}**{ended}: {which}."
    if len(shown) < asked:
        left = "older" if start is None else "later"
        head += (f" ({plural(asked - len(shown), f'{left} move')} did not fit: "
                 f"ask for fewer, or use `start`.)")
    return head


def _pack(head: str, pieces: Sequence[str], limit: int) -> list[str]:
    """``head`` and ``pieces`` joined by lines into as few messages as fit ``limit``."""
    out = [head]
    for piece in pieces:
        if len(out[-1]) + 1 + len(piece) <= limit:
            out[-1] = f"{out[-1]}\n{piece}"
        else:
            out.append(piece)
    return out


def rules_text(game: Engine) -> str:
    """``/game rules``: a concise summary taken from the game itself."""
    lines = [f"**{game.title}**, for {game.min_seats} to {plural(game.max_seats, 'player')}."]
    if game.rules_summary:
        lines.append(quoted_moves(game.rules_summary))
    if game.notation_help:
        lines.append(quoted_moves(game.notation_help))
    for spec in game.options:
        choices = f" ({', '.join(spec.choices)})" if spec.choices else ""
        lines.append(f"Option `{spec.name}`{choices}: {quoted_moves(spec.description)}")
    lines.append("Play with `/play`; `/game hand` shows what only you may see; "
                 "`/game cards` spells out every card on the table; "
                 "`/game undo` takes back your last move (and the AI replies to it) if "
                 "nothing new was revealed.")
    return fit(lines, keep_last=0)


def rating_text(line: StatLine) -> str:
    """A rating as ``/stats`` shows it: a question mark while still provisional."""
    rating = line.rating
    if rating is None:
        return ""
    games = plural(rating.games, "rated game")
    if rating.provisional:
        return f" Rating {rating.shown}? (provisional: {games})."
    return f" Rating {rating.shown} ({games})."


def stats_text(user_id: int, lines: Sequence[tuple[str, StatLine]],
               season: Season | None = None) -> str:
    """``/stats``: games played and won per game in this server, with ratings: all time,
    or in ``season`` (with its own ratings)."""
    where = "in this server" if season is None else f"in the season {season_named(season)}"
    if not lines:
        return f"{mention(user_id)} has not finished a game {where} yet."
    out = [f"Games of {mention(user_id)} {where}:"]
    for title, line in lines:
        out.append(f"{title}: {line.played} played, {line.won} won.{rating_text(line)}")
    return fit(out, keep_last=0)


def replay_alt(game: Engine, record: GameRecord, moves: int) -> str:
    """A replay GIF in words, for a screen reader: the game, how long, and how it ended
    (or that it goes on)."""
    result = stored_result(record)
    ending = (f" {result.summary}" if result is not None and result.summary else
              " The game goes on." if record.status == "active" else
              " The game ended without a result." if record.status == "aborted" else "")
    return clip(f"An animated replay of {game.title}: {plural(moves, 'move')}.{ending}",
                MAX_ALT)


def leaderboard_board(ranks: dict[str, Any]) -> dict[str, Any]:
    """The leaderboard picture's input (:mod:`renderers.leaderboard`): a server's ranks of a
    game with their title and key (in a season, the season's own ratings)."""
    season = ranks.get("season")
    title = (f"{ranks['game']}: best ratings here" if season is None
             else f"{ranks['game']}: best ratings of {season}")
    return {"title": title, "rows": ranks["rows"], "note": PROVISIONAL_NOTE}


#: The key under every table of ratings.
PROVISIONAL_NOTE = "? = provisional: fewer than 5 rated games."


def leaderboard_text(board: dict[str, object]) -> str:
    """The words beside the leaderboard picture (the picture has the figures)."""
    rows = board["rows"]
    title = escaped(str(board["title"]))
    if not rows:
        return f"**{title}**: nobody has a rated game here yet."
    return f"**{title}** (top {len(rows)})."  # type: ignore[arg-type]


def leaderboard_alt(board: dict[str, object]) -> str:
    """The leaderboard picture in words, for a screen reader (Discord's ``description``)."""
    rows = board["rows"]
    assert isinstance(rows, list)
    ranked = "; ".join(f"{n}. {row['name']}, {row['rating']}"
                       f"{' (provisional)' if row['provisional'] else ''}"
                       for n, row in enumerate(rows, start=1))
    return clip(f"{board['title']}: {ranked or 'nobody rated yet'}.", 1024)


def waited(seconds: float) -> str:
    """How long a wait has lasted, in its largest whole unit: "2 days", "5 hours"."""
    minutes = int(max(0.0, seconds) // 60)
    if minutes >= 48 * 60:
        return plural(minutes // (24 * 60), "day")
    if minutes >= 60:
        return plural(minutes // 60, "hour")
    return plural(minutes, "minute") if minutes else "less than a minute"


def my_game_line(entry: MyGame, now: float) -> str:
    """One game of ``/games``: where it is, whose turn or how it ended, and a link."""
    record = entry.record
    link = message_link(record.guild_id, record.channel_id, record.board_message_id)
    head = f"**{entry.title}** (game #{record.id})"
    if entry.damaged:
        return f"{head}: cannot be read; `/game abort` in it clears it. {link}"
    clock = f", {words.time_left(entry.clock)}" if entry.clock is not None else ""
    if entry.your_turn:
        return (f"{head}: your turn for {waited(now - (record.turn_started_at or now))}"
                f"{clock}. {link}")
    if record.status == "finished":
        if entry.left:
            outcome = "you left it"
        elif entry.place is None:
            outcome = "finished"
        elif entry.won:
            outcome = "you won"
        else:
            outcome = f"you placed {entry.place} of {entry.players}"
        said = f" ({clip(escaped(entry.summary), 200)})" if entry.summary else ""
        return f"{head}: {outcome}{said}, ended {stamp(record.updated_at)}. {link}"
    waiting = listing([escaped(n) for n in entry.waiting_for]) or "nobody"
    return f"{head}: waiting for {waiting}{clock}. {link}"


def my_games_text(entries: Sequence[MyGame], now: float, limit: int = MAX_CONTENT) -> str:
    """``/games``: the caller's games everywhere, cut by whole entries to fit one message."""
    if not entries:
        return ("You are not playing any game right now and finished none this week. "
                "Start one with `/game new` in a server channel.")
    yours = sum(1 for e in entries if e.your_turn)
    head = (f"Your games: {plural(yours, 'game')} waiting on you." if yours
            else "Your games: none is waiting on you.")
    lines = [head]
    for done, entry in enumerate(entries):
        line = f"- {my_game_line(entry, now)}"
        left = len(entries) - done - 1
        tail = f"\n… and {left} more." if left else ""
        if len("\n".join([*lines, line])) + len(tail) > limit:
            lines.append(f"… and {len(entries) - done} more.")
            break
        lines.append(line)
    return "\n".join(lines)


def quiet_hours_text(hours: QuietHours | None) -> str:
    """The private answer to ``/away``."""
    if hours is None:
        return "Quiet hours are off: reminders reach you at any hour."
    return (f"Quiet hours set: from {hours.start}:00 to {hours.end}:00 every day "
            f"({hours.timezone}). A reminder that falls in them waits until they end. "
            f"`/away` with no options turns them off.")


def vacation_text(vacation: Vacation) -> str:
    """The private answer to ``/away vacation_days``."""
    days = round((vacation.ends - vacation.starts) / DAY)
    return (f"Vacation set: {plural(days, 'day')}, from {stamp(vacation.starts, 'f')} to "
            f"{stamp(vacation.ends, 'f')}. Nobody pings or reminds you then, and no AI takes "
            f"your turn; the boards tell your tables you are away. `/away back:True` ends it "
            f"early.")


def vote_text(vote: SeatVote, voter: str) -> str:
    """A vote on a stood-in seat that has not carried yet, as the table sees it."""
    what = "to the AI for good" if vote.give == "ai" else "to a new player"
    player = escaped(vote.player)
    return (f"{escaped(clip(voter, 40))} votes to give {player}'s seat {what}: "
            f"{vote.votes} of the {vote.needed} votes it needs. The others vote with "
            f"`/game vote`; {player} keeps the seat by coming back.")


def notify_text(mode: str, pings: str = "each") -> str:
    """The private answer to ``/notify``: how the player is reached, and which reminders
    ping them."""
    how = {
        "channel": "You are reached by a mention in the game's channel (the default).",
        "dm": "You are reached by a mention in the game's channel and a direct message as "
              "well. If your DMs are closed to me I say so once and keep to the channel.",
        "quiet": "You are no longer mentioned when it is your turn or in reminders: "
                 "`/games` lists the games waiting on you.",
    }[mode]
    if mode == "quiet":
        return how
    often = {
        "each": "Every reminder of your turn pings you.",
        "first": "Only the first reminder of each turn pings you; later ones name you "
                 "without a ping.",
        "none": "Reminders name you without a ping; only the turn itself pings you.",
    }.get(pings, "")
    return f"{how} {often}".strip()


def expired_text(item: Announcement, game: Engine) -> str:
    """Said to a lobby's players when it closed unstarted (an announcement about
    ``expired``), where its message is."""
    data = item.data or {}
    users = listing([mention(int(u)) for u in data.get("users", ())])
    lobby = data.get("lobby")
    link = (f" ({message_link(item.guild_id, item.channel_id, int(lobby))})"
            if lobby else "")
    days = float(data.get("days", 0))
    return (f"{users + ': ' if users else ''}the lobby for **{game.title}**{link} closed: "
            f"nobody started it in {days:g} days. `/game new` opens another.")


def dm_closed_text(user_id: int) -> str:
    """Said once in the channel when a player's DMs turn out to be closed."""
    return (f"I could not send {mention(user_id)} a direct message (their DMs are closed to "
            f"me), so I reach them in this channel only. `/notify` changes it.")


def back_text(ended: bool) -> str:
    """The private answer to ``/away back``."""
    if ended:
        return "Welcome back: your vacation is over, and pings and reminders reach you again."
    return "You had no vacation to end."


def reminder_text(item: Announcement, game: Engine) -> str:
    """A reminder (an announcement about ``reminder``), with what happened since the
    reminded players last acted."""
    data = item.data or {}
    since = [step_of(step) for step in data.get("since", ())]
    lines = since_lines(game, since, int(data.get("since_more", 0)), None)
    number, of = int(data.get("number", 1)), int(data.get("of", MAX_REMINDERS))
    lines.append(f"Reminder {number} of {of}: {addressed(game, data.get('users', ()))}, it is "
                 f"your turn in **{game.title}** (waiting since "
                 f"{stamp(data.get('waiting_since'))}).")
    takeover_at = data.get("takeover_at")
    if data.get("last") and takeover_at:
        lines.append(f"This is the last one: if you have not moved {stamp(takeover_at)}, "
                     f"an AI plays your move.")
    elif data.get("last"):
        lines.append("This is the last reminder: if they still do not move, the others can "
                     "give the seat to the AI with `/game vote`.")
    return fit(lines, keep_last=2)


def clock_reminder_text(data: Mapping[str, Any], game: Engine) -> str:
    """A low-time reminder (a reminder about ``clock``): how long is left, and what then."""
    then = words.TIMEOUT_WORDS.get(str(data.get("rule")), words.TIMEOUT_WORDS["stand_in"])
    return (f"⏱ {addressed(game, data.get('users', ()))}: "
            f"{words.time_left(float(data.get('left', 0)))} on your clock in "
            f"**{game.title}**. If it runs out, {then}.")


def privacy_text(kept: dict[str, object]) -> str:
    """The private answer to ``/privacy``: what the attached file holds, in a few words."""
    def count(key: str) -> int:
        value = kept.get(key)
        return len(value) if isinstance(value, list) else 0

    return (f"Everything candybot keeps about you is in the file below: "
            f"{plural(count('games'), 'game')} you sat in, "
            f"{plural(count('results'), 'result')}, {plural(count('ratings'), 'rating')}, "
            f"{plural(count('season_ratings'), 'season rating')}, "
            f"{plural(count('season_standings'), 'place')} in seasons' final standings, "
            f"{plural(count('tournaments'), 'tournament')} you signed up for, "
            f"your settings (quiet hours, vacations, notifications), table votes and "
            f"{plural(count('announcements'), 'message')} that named you. "
            f"docs/privacy.md says why each is kept and for how long. "
            f"`/privacy delete:True` deletes all of it that no game under way needs.")


def forgotten_text(forgotten: Forgotten) -> str:
    """The private answer to ``/privacy delete``."""
    deleted = forgotten.deleted
    settings = sum(deleted.get(k, 0) for k in ("quiet_hours", "vacations", "notify"))
    lines = [f"Deleted: {plural(settings, 'setting')} (quiet hours, vacations, notifications), "
             f"{plural(deleted.get('ratings', 0), 'rating')}, "
             f"{plural(deleted.get('season_ratings', 0), 'season rating')}, "
             f"{plural(deleted.get('seat_votes', 0), 'vote')} and "
             f"{plural(deleted.get('announcements', 0), 'message')} that named you. "
             f"In {plural(deleted.get('ended_games', 0), 'ended game')} you are now "
             f"\"{FORMER_PLAYER}\", and your results there count for nobody."]
    if deleted.get("season_standings"):
        lines.append(f"In seasons' final standings your "
                     f"{plural(deleted['season_standings'], 'place')} now read "
                     f"\"{FORMER_PLAYER}\"; the others keep theirs.")
    signups = deleted.get("tournament_signups", 0)
    entries = deleted.get("tournament_entries", 0)
    if signups or entries:
        lines.append(f"Tournaments: off {plural(signups, 'sign-up list')}; in "
                     f"{plural(entries, 'other tournament')} you are now \"{FORMER_PLAYER}\" "
                     f"(withdrawn where it is under way), your results kept for the others' "
                     f"standings.")
    if forgotten.kept_games:
        lines.append(f"{plural(forgotten.kept_games, 'game')} under way (or lobbies) still "
                     f"hold your seat and name, for the other players; leave with "
                     f"`/game leave`, or run this again once they have ended.")
    return fit(lines, keep_last=0)


# --------------------------------------------------------------------------- seasons


def season_named(season: Season) -> str:
    """A season's name in bold, escaped (managers type it)."""
    return f"**{escaped(season.name)}**"


def season_days(season: Season, *, stamps: bool = True) -> str:
    """A season's first and last days: Discord's dates (each reader's own format), or
    plain UTC dates for a picture and its alt text ("1 Mar 2027 to 31 Mar 2027")."""
    last = max(season.starts_at, season.ends_at - 1)
    if stamps:
        return f"{words.stamp(season.starts_at, 'D')} to {words.stamp(last, 'D')}"
    return f"{day_of(season.starts_at):%-d %b %Y} to {day_of(last):%-d %b %Y} (UTC)"


def season_made_text(season: Season) -> str:
    """``/season new``'s private answer: what was set."""
    ratings = ("start afresh (everyone at a newcomer's rating)" if season.fresh else
               "carry over (each player starts from their rating here)")
    return (f"The season {season_named(season)} runs {season_days(season)}; its ratings "
            f"{ratings}. Games that end in it count in it; its final standings will be "
            f"posted in <#{season.channel_id}> when it ends. `/stats` shows it while it "
            f"runs.")


def season_ended_text(name: str, season: Season | None) -> str:
    """``/season end``'s private answer: ended now (standings on their way) or removed."""
    if season is None:
        return (f"The season **{escaped(name)}** had not begun: it is removed, and nothing "
                f"counted in it.")
    return (f"The season {season_named(season)} has ended now; its final standings are "
            f"being posted in <#{season.channel_id}>.")


def seasons_text(seasons: Sequence[Season], now: float) -> str:
    """``/season list``: the server's seasons, newest first, each with its days and state."""
    if not seasons:
        return ("This server has no seasons yet. People with Manage Server set one with "
                "`/season new`.")
    out = ["This server's seasons:"]
    for season in reversed(seasons):
        state = ("under way" if season.holds(now) else "to come" if now < season.starts_at
                 else "over, final standings kept" if season.closed else "over")
        fresh = "ratings start afresh" if season.fresh else "ratings carry over"
        out.append(f"- {season_named(season)}: {season_days(season)}, {state}; {fresh}; "
                   f"standings in <#{season.channel_id}>.")
    return fit(out, keep_last=0)


def season_board(season: Season, games: list[dict[str, Any]]) -> dict[str, Any]:
    """The season picture's input (:mod:`renderers.season`)."""
    return {"title": f"{season.name}: final standings",
            "when": season_days(season, stamps=False), "games": games,
            "note": PROVISIONAL_NOTE}


def season_text(season: Season, games: list[dict[str, Any]]) -> str:
    """The words posted with a season's final standings: each game's best players, the
    same as the picture (names escaped; nobody pinged)."""
    out = [f"The season {season_named(season)} is over ({season_days(season)}). "
           f"Final standings:"]
    for game in games:
        ranked = ", ".join(
            f"{n}. {escaped(row['name'])} {row['rating']}{'?' if row['provisional'] else ''}"
            for n, row in enumerate(game["rows"], start=1))
        out.append(f"**{escaped(game['game'])}**: {ranked}.")
    if not games:
        out.append("No rated games were played in it.")
    return fit(out, keep_last=0)


def season_alt(season: Season, games: list[dict[str, Any]]) -> str:
    """The season picture in words, for a screen reader."""
    parts = [f"{game['game']}: " + "; ".join(
        f"{n}. {row['name']}, {row['rating']}{' (provisional)' if row['provisional'] else ''}"
        for n, row in enumerate(game["rows"], start=1)) for game in games]
    return clip(f"Final standings of the season {season.name}, "
                f"{season_days(season, stamps=False)}. "
                f"{'. '.join(parts) or 'No rated games.'}.", 1024)


# --------------------------------------------------------------------------- tournaments

#: How each format reads.
FORMAT_WORDS = {"swiss": "Swiss", "round-robin": "round-robin", "pods": "pods"}


def tournament_format(record: TournamentRecord) -> str:
    """"Swiss, 4 rounds, two players a table" and the like."""
    rounds = ("every player meets every other once" if record.format == "round-robin"
              else plural(record.rounds, "round"))
    seats = "two players a table" if record.seats == 2 else f"tables of {record.seats}"
    return f"{FORMAT_WORDS.get(record.format, record.format)}, {rounds}, {seats}"


def entry_name(name: str | None) -> str:
    """A player's name in a tournament, escaped; a deleted player reads as a former one."""
    return escaped(name) if name else FORMER_PLAYER


def signup_text(record: TournamentRecord, title: str, players: Sequence[EntryRecord],
                most: int) -> str:
    """The sign-up message: the tournament, its host, who signed up, what happens next."""
    lines = [f"**{escaped(title)} tournament** #{record.id}, hosted by {mention(record.host_id)}: "
             f"{tournament_format(record)}."]
    hours = float(record.settings.get("reminder_hours", 24))
    if record.settings.get("clock"):
        rule = ClockRule.parse(str(record.settings["clock"]))
        lines.append(f"⏱ Every game is played on a clock ({rule.said}): a player out of "
                     f"time forfeits (placed last). Reminders come every {hours:g} h and as "
                     f"the clock runs low.")
    else:
        lines.append(f"Each game reminds a silent player every {hours:g} h (at most "
                     f"{MAX_REMINDERS} times), then an AI stands in; a seat its player no "
                     f"longer plays at the end counts last.")
    shown = [p for p in players if p.withdrawn is None or record.status != "signup"]
    lines.append(f"Players ({len(shown)}/{most}):")
    lines += [f"{n}. {entry_name(p.name)}" for n, p in enumerate(shown, start=1)]
    if record.status == "signup":
        closes = (f"Sign-up closes {stamp(record.deadline)}, or when the host presses Start."
                  if record.deadline else "The host presses Start when everyone is in.")
        lines.append(f"Press Join to play, Leave to change your mind. {closes}")
    elif record.status == "running":
        lines.append("Sign-up is closed: the tournament is under way.")
    elif record.status == "finished":
        lines.append("This tournament is over.")
    else:
        lines.append("This tournament was called off.")
    return fit(lines, keep_last=1, keep_first=3)


def standings_lines(standings: Standings) -> list[str]:
    """One line a player, best first."""
    out = []
    for line in standings.lines:
        left = " (withdrew)" if line.withdrawn else ""
        points = "point" if line.points == 1 else "points"
        out.append(f"{line.rank}. **{entry_name(line.name)}**{left}: {said(line.points)} "
                   f"{points} (Buchholz {said(line.buchholz)}, "
                   f"Sonneborn-Berger {said(line.sonneborn)})")
    return out


def standings_board(standings: Standings) -> dict[str, Any]:
    """The standings picture's input (:mod:`renderers.standings`)."""
    record = standings.record
    head = "Final standings" if standings.final else f"Standings after round {standings.played}"
    rows = [{"rank": line.rank, "name": line.name or FORMER_PLAYER,
             "points": said(line.points), "buchholz": said(line.buchholz),
             "sonneborn": said(line.sonneborn), "note": "withdrew" if line.withdrawn else ""}
            for line in standings.lines]
    return {"title": f"{standings.title} tournament #{record.id}",
            "subtitle": f"{head} · {tournament_format(record)}", "rows": rows,
            "note": "Pts: points · Buch: Buchholz · S-B: Sonneborn-Berger"}


def standings_alt(board: dict[str, Any]) -> str:
    """The standings picture in words, for a screen reader."""
    rows = "; ".join(f"{row['rank']}. {row['name']}, {row['points']} points, Buchholz "
                     f"{row['buchholz']}, Sonneborn-Berger {row['sonneborn']}"
                     f"{', withdrew' if row['note'] else ''}" for row in board["rows"])
    return clip(f"{board['title']}, {board['subtitle']}: {rows or 'nobody has played yet'}.",
                MAX_ALT)


def pairing_lines(standings: Standings, number: int, threads: Mapping[int, int]) -> list[str]:
    """Round ``number``'s tables: who plays whom and where (``threads``: each table's
    game's thread, by table number), pinging the players."""
    users = {line.entry: line.user_id for line in standings.lines}
    names = {line.entry: line.name for line in standings.lines}
    out = []
    for table in standings.rounds[number - 1] if number <= len(standings.rounds) else ():
        who = []
        for entry in table.entries:
            user = users.get(entry)
            who.append(mention(user) if user is not None else entry_name(names.get(entry)))
        if len(table.entries) == 1:
            out.append(f"Bye: {who[0]} (scores as a win).")
            continue
        where = f" in <#{threads[table.number]}>" if table.number in threads else ""
        out.append(f"Table {table.number}: {' vs '.join(who)}{where}.")
    return out


def round_text(standings: Standings, about: str, number: int,
               threads: Mapping[int, int]) -> str:
    """What a tournament posts as a round ends: the standings so far and the next round's
    tables; ``about`` is ``first`` (the first round opens), ``round`` or ``final``."""
    title = f"**{escaped(standings.title)} tournament** #{standings.record.id}"
    if about == "first":
        head = [f"{title} has begun: round 1 of {standings.record.rounds}. Every game is in "
                f"its own thread; good luck!"]
        pairs = pairing_lines(standings, 1, threads)
        return fit([*head, *pairs], keep_first=1, keep_last=len(pairs))
    if about == "final":
        lines = [f"{title} is over after {plural(standings.played, 'round')}. Final standings:"]
        lines += standings_lines(standings)
        winners = [entry_name(line.name) for line in standings.lines if line.rank == 1]
        games = sum(1 for r in standings.rounds for t in r if len(t.entries) > 1)
        lines.append(f"Won by {listing(winners)}: {plural(len(standings.lines), 'player')}, "
                     f"{plural(games, 'game')}. Well played, everyone!")
        return fit(lines, keep_first=1, keep_last=1)
    pairs = pairing_lines(standings, number, threads)
    lines = [f"{title}: standings after round {standings.played} of "
             f"{standings.record.rounds}:", *standings_lines(standings),
             f"Round {number} is open:", *pairs]
    return fit(lines, keep_first=1, keep_last=len(pairs) + 1)


def cancelled_text(record: TournamentRecord, title: str, joined: int) -> str:
    """A tournament whose sign-up closed with too few players."""
    return (f"**{escaped(title)} tournament** #{record.id} did not start: "
            f"{plural(joined, 'player')} signed up by the deadline, too few to play.")


def tournament_joined_text(record: TournamentRecord, title: str, players: int) -> str:
    return (f"You are in **{escaped(title)} tournament** #{record.id} "
            f"({plural(players, 'player')} so far). Your games open in threads here, "
            f"each pinging you when it starts.")


def tournament_left_text(record: TournamentRecord, conceded: bool) -> str:
    if record.status == "signup":
        return f"You are off the list of tournament #{record.id}."
    said_game = " Your game under way was conceded: an AI plays your seat." if conceded else ""
    return (f"You withdrew from tournament #{record.id}: you play no more rounds, and your "
            f"results so far stay in the standings.{said_game}")


def tournament_cancelled_text(record: TournamentRecord) -> str:
    return f"Tournament #{record.id} is called off; its sign-up says so."
