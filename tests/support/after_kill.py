"""A real ``candybot run`` killed at chosen requests, and what players see once it is back.

:class:`KilledBot` drives one bot process on the offline Discord over sockets
(:mod:`tools.offline_http`, :mod:`tools.offline_process`): interactions go to it over
the gateway, and :meth:`KilledBot.kill_everywhere` does one step (opening a game, a
move...) once unkilled, counting its requests, then again and again on fresh games with a
SIGKILL at its first request, its second, and so on to its last, before Discord carries
the request out or after (the answer lost), starting the bot again on the same database
after each kill. A step's requests are those not about another game, so that a game
killed earlier and put right late does not shift the count.

After each restart :func:`unshown` compares the store with what the offline Discord
holds, and at the end :func:`orphaned` looks for what was left behind; together, what
issue 42 promises players ("Done when"):

- **every saved move shown**: the last board posted in each game's place shows the move
  the store is at (its picture's alt text says "<game> board, move N.");
- **one live board per game**: exactly one message there has the game's move buttons
  (none once it is over), and they are for the move the store is at;
- **the card current** (thread mode): the card in the channel reads as the bot would
  write it for the stored game (whose turn at which move, or the result with Rematch);
- **each hand-over pinged once**: the player whose turn it is was notified for it, by one
  message (the outbox's promise, docs/reliability.md);
- **nothing orphaned**: no active thread without a lobby or game under way in it, no
  message in a games channel that is no game's card and still says a lobby is opening or
  has buttons (a card "A lobby... is opening..." left behind), no lobby that cannot be
  used (its card not its lobby with buttons, its thread gone or archived: a lobby nobody
  can join, start or cancel that counts against its host), and no rematch left "being
  opened".

:meth:`KilledBot.settled` waits up to :data:`SHOWN_WITHIN` seconds after the restarted bot
identified for all but the last to hold. What is left behind is looked for once the last
kill is older than the openings' grace and the bot was started again (docs/reliability.md,
"Nothing left stuck": a lobby left half-opened is finished or taken back by the bot's
first pass after that long), within the same 15 s, and told with the kill whose step made
it. The bot under test is given a grace of :data:`OPENING_GRACE` seconds
(``CANDYBOT_OPENING_GRACE_SECONDS``) instead of a minute, so that nothing waits for long.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.discord import messages, threads
from bot.games import GAMES
from bot.store import GameRecord, Store
from bot.tables import Lobby, Tables
from tools.offline import EPHEMERAL, Recorder, Sent
from tools.offline_http import OfflineServer
from tools.offline_process import BotProcess

#: Seconds after the restarted bot identified within which everything must be shown.
SHOWN_WITHIN = 15.0
#: Seconds without a request after which the bot is taken to be idle; and done with the
#: step it was sent (its pictures may wait for the render workers to start).
QUIET = 1.0
DONE = 5.0
#: Seconds a kill waits for the step to reach its request.
REACHED_WITHIN = 60.0
#: The openings' grace the bot under test is given (``CANDYBOT_OPENING_GRACE_SECONDS``):
#: well over the steps of an opening, even on a busy machine, and a few seconds' wait.
OPENING_GRACE = 5.0
#: A board picture's alt text: the game and the move it shows (``messages.board_alt``).
BOARD_ALT = re.compile(r"^(?P<title>.+) board, move (?P<move>\d+)\.")
#: Components of a board: moves, the move builder, Decide, the stand-in's "I'm back".
BOARD_KINDS = ("m", "s", "ms", "b", "bs", "move", "pick", "d", "k")
LOBBY_OPS = ("join", "leave", "ai", "start", "cancel")
#: A card between its post and its lobby (``messages.opening_text``).
OPENING = re.compile(re.escape(messages.opening_text("TITLE")).replace("TITLE", ".+"))


# --------------------------------------------------------------------------- what is promised


@dataclass(frozen=True)
class Stored:
    """One game as the store has it, and what it must therefore show."""

    record: GameRecord
    title: str
    #: The move its last board must show (``None``: a lobby, no board yet).
    move: int | None = None
    #: Whether its board carries buttons (someone may act on it).
    buttons: bool = False
    #: The card's text as the bot writes it for this game (thread mode), else ``None``.
    card: str | None = None
    #: The player whose turn it is and the move their turn began at (the ping that handed
    #: it to them names that move), when one person is to act.
    turn: tuple[int, int] | None = None


async def stored_games(db: Path, tables: Tables) -> list[Stored]:
    """Every game in the database at ``db`` and what it must show."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as reading:
        ids = [row[0] for row in reading.execute("SELECT id FROM games ORDER BY id")]
    out = []
    for game_id in ids:
        record = await tables.store.games.get_game(game_id)
        title = GAMES[record.game].title
        if record.status == "lobby":
            card = messages.lobby_text(Lobby(record=record, game=GAMES[record.game]))
            out.append(Stored(record, title, card=card))
            continue
        if record.status == "aborted":
            out.append(Stored(record, title))
            continue
        board = await tables.queries.board_of_game(record)
        card = threads.card_text(title, record, turn=threads.turn_of(board), move=board.move,
                                 ranking=board.ranking)
        turn = None
        acting = [s for s in record.seats if s.seat in board.to_act and not s.machine]
        if len(acting) == 1 and len(board.to_act) == 1 and acting[0].user_id is not None:
            actions = await tables.store.moves.actions(record.id)
            began = max((a.n for a in actions if a.seat != acting[0].seat), default=0)
            turn = (acting[0].user_id, began)
        out.append(Stored(record, title, board.move,
                          bool(board.choices) or board.private_choices, card, turn))
    return out


def _ids(message: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for row in message.get("components") or []
            for c in row.get("components", []) if "custom_id" in c]


def _board_move(message: dict[str, Any], title: str) -> int | None:
    """The move a board message's picture shows, or ``None`` for another message."""
    for attachment in message.get("attachments") or []:
        found = BOARD_ALT.match(str(attachment.get("description") or ""))
        if found and found["title"] == title:
            return int(found["move"])
    return None


def _board_ids(message: dict[str, Any], game_id: int) -> list[list[str]]:
    """The custom ids of ``game_id``'s board components on a message, split at ``:``."""
    parts = [i.split(":") for i in _ids(message)]
    return [p for p in parts if len(p) > 2 and p[1] in BOARD_KINDS and p[2] == str(game_id)]


def _shown(rec: Recorder) -> dict[int, list[dict[str, Any]]]:
    """The messages everybody can see, by channel."""
    by_channel: dict[int, list[dict[str, Any]]] = {}
    for message in rec.messages.values():
        if not message.get("deleted") and not int(message.get("flags") or 0) & EPHEMERAL:
            by_channel.setdefault(int(message["channel_id"]), []).append(message)
    return by_channel


def unshown(rec: Recorder, games: Sequence[Stored]) -> list[str]:
    """Every way what ``rec`` holds fails to show ``games`` as stored: boards, live
    buttons, cards of games under way or over, pings (run it on the server's thread:
    :meth:`OfflineServer.call`); empty when all is shown."""
    by_channel = _shown(rec)
    problems: list[str] = []
    for game in games:
        problems += _board_problems(game, by_channel.get(game.record.channel_id, []))
        if game.record.status != "lobby":
            problems += _card_problems(rec, game)
        problems += _ping_problems(rec, game)
    return problems


def orphaned(rec: Recorder, games: Sequence[Stored]) -> list[str]:
    """Everything left behind that belongs to no usable game: threads, cards, lobbies
    nobody can use, rematches left being opened (run it on the server's thread)."""
    problems = _orphans(rec, games, _shown(rec))
    for game in games:
        if game.record.status == "lobby":
            problems += _card_problems(rec, game)
    return problems


def _board_problems(game: Stored, here: list[dict[str, Any]]) -> list[str]:
    record = game.record
    name = f"game {record.id} ({record.status})"
    live = [m for m in here if _board_ids(m, record.id)]
    if game.move is None:
        return [f"{name}: {len(live)} messages with move buttons"] if live else []
    boards = [(int(m["id"]), _board_move(m, game.title)) for m in here]
    posted = [(at, move) for at, move in boards if move is not None]
    if not posted:
        return [f"{name}: no board in its channel (move {game.move} saved)"]
    problems = []
    last = max(posted)[1]
    if last != game.move:
        problems.append(f"{name}: move {game.move} saved, the last board shows move {last}")
    if record.status != "active" or not game.buttons:
        if live:
            problems.append(f"{name}: {len(live)} messages still have move buttons")
        return problems
    if len(live) != 1:
        problems.append(f"{name}: {len(live)} messages with move buttons, one expected")
    moves = {p[3] for m in live for p in _board_ids(m, record.id) if len(p) > 3}
    if moves - {str(game.move)}:
        problems.append(f"{name}: buttons for moves {sorted(moves)}, the game is at move "
                        f"{game.move}")
    return problems


def _ping_problems(rec: Recorder, game: Stored) -> list[str]:
    """Each hand-over pings its player once; the player whose turn it is was pinged."""
    record = game.record
    ping = re.compile(rf"your turn in \*\*{re.escape(game.title)}\*\* \(move (\d+)\)")
    pinged: dict[tuple[int, int], int] = {}
    for sent in rec.sent:
        found = ping.search(sent.content) if sent.channel_id == record.channel_id else None
        if found:
            for user in sent.notifies():
                key = (user, int(found[1]))
                pinged[key] = pinged.get(key, 0) + 1
    name = f"game {record.id} ({record.status})"
    problems = [f"{name}: <@{user}> pinged {count} times for move {move}"
                for (user, move), count in sorted(pinged.items()) if count > 1]
    if record.status == "active" and game.turn is not None and game.turn not in pinged:
        user, move = game.turn
        problems.append(f"{name}: <@{user}> never pinged for their turn (move {move})")
    return problems


def _card_problems(rec: Recorder, game: Stored) -> list[str]:
    record = game.record
    if record.parent_id is None or game.card is None:
        return []
    name = f"game {record.id} ({record.status}, in {record.channel_id})"
    card = rec.messages.get(record.lobby_message_id or 0)
    if card is None or card.get("deleted"):
        return [f"{name}: its card is gone"]
    problems = []
    if card["content"] != game.card:
        problems.append(f"{name}: the card reads {card['content']!r}, not {game.card!r}")
    ids = _ids(card)
    if record.status == "lobby":
        ops = {i.rsplit(":", 1)[-1] for i in ids if i.startswith(f"cb:lobby:{record.id}:")}
        if not set(LOBBY_OPS) <= ops:
            problems.append(f"{name}: the card's lobby buttons are {sorted(ops)}")
    elif record.status == "finished" and ids != [f"cb:rm:{record.id}"]:
        problems.append(f"{name}: the card's buttons are {ids}, not Rematch")
    elif record.status == "active" and ids:
        problems.append(f"{name}: the card has buttons {ids}")
    return problems


def _orphans(rec: Recorder, games: Sequence[Stored],
             by_channel: dict[int, list[dict[str, Any]]]) -> list[str]:
    problems = []
    open_places = {g.record.channel_id for g in games if g.record.status in ("lobby", "active")}
    for thread in rec.threads():
        if not thread.archived and thread.id not in rec.gone and thread.id not in open_places:
            problems.append(f"thread {thread.id} is active with no game in it")
    # In a channel that holds no game itself, the bot's messages are games' cards; one that
    # is no game's card may stay only if it neither says a lobby is opening nor has buttons.
    places = {g.record.channel_id for g in games}
    cards = {g.record.lobby_message_id for g in games}
    for channel, posted in sorted(by_channel.items()):
        room = rec.rooms.get(channel)
        if channel in places or (room is not None and (room.thread or room.guild_id is None)):
            continue
        for message in posted:
            opening = OPENING.fullmatch(message["content"])
            if int(message["id"]) not in cards and (opening or _ids(message)):
                problems.append(f"message {message['id']} in channel {channel} is no game's "
                                f"card: {message['content'][:60]!r}")
    for game in games:
        record = game.record
        name = f"{'lobby' if record.status == 'lobby' else 'game'} {record.id} " \
            f"(in {record.channel_id})"
        if record.status == "lobby" and record.parent_id is not None:
            room = rec.rooms.get(record.channel_id)
            if room is None or record.channel_id in rec.gone:
                problems.append(f"{name}: its thread is gone")
            elif room.archived:
                problems.append(f"{name}: its thread is archived")
        if record.status == "lobby" and not record.lobby_message_id:
            problems.append(f"{name}: no lobby message")
        if record.settings.get("rematch") == 0:
            problems.append(f"{name}: its rematch is left being opened")
    return problems


# --------------------------------------------------------------------------- the process


@dataclass
class Outcome:
    """One kill: where it fired and, after the restart, what was not as promised."""

    nth: int
    after: bool
    request: str
    problems: list[str] = field(default_factory=list)
    #: Seconds from the restarted bot's identify until every promise held (``None``: never).
    shown_in: float | None = None
    #: Seconds the whole round took: the step, the kill, the restart and the checks.
    seconds: float = 0.0
    #: The threads and messages its step and restart made, and its game's thread: what
    #: is left behind is told with the kill that left it.
    made: set[int] = field(default_factory=set)
    #: What it left behind, once every opening had its grace and the bot a restart.
    left: list[str] = field(default_factory=list)
    #: When the kill fired (``time.monotonic``).
    killed_at: float = 0.0

    @property
    def broken(self) -> bool:
        return bool(self.problems or self.left)

    def __str__(self) -> str:
        when = "after" if self.after else "before"
        head = f"kill {when} request {self.nth} ({self.request})" if self.nth else \
            self.request
        head += f" [{self.seconds:.0f} s]"
        lines = [*self.problems, *(f"left behind: {line}" for line in self.left)]
        if lines:
            return head + ":\n    " + "\n    ".join(lines)
        if self.shown_in is None:
            return head
        return f"{head}: all shown in {self.shown_in:.1f} s"


def describe(sent: Sent | None) -> str:
    """A request in a few words: method, path with ids shortened, and its text."""
    if sent is None:
        return "?"
    path = re.sub(r"\d{15,}", "#", sent.path)
    path = re.sub(r"token-#", "<token>", path)
    said = f" {sent.content[:40]!r}" if sent.content else ""
    kind = f" type {sent.kind}" if sent.kind is not None else ""
    return f"{sent.method} {path}{kind}{said}"


class KilledBot:
    """A bot process on ``db`` against ``server``, the store read beside it."""

    def __init__(self, server: OfflineServer, db: Path, tables: Tables) -> None:
        self.server = server
        self.db = db
        self.tables = tables
        self.bot = BotProcess(server, db, env={
            "CANDYBOT_OPENING_GRACE_SECONDS": f"{OPENING_GRACE:g}"})
        self.gateway = server.gateway

    @classmethod
    async def open(cls, server: OfflineServer, db: Path) -> KilledBot:
        store = await Store.open(db)
        return cls(server, db, Tables(store, GAMES, time.time))

    async def close(self) -> None:
        self.bot.stop()
        await self.tables.store.close()

    def start(self) -> None:
        self.bot.start()
        self.bot.wait_ready()
        self.quiet()

    def restart(self, timeout: float = 60.0) -> float:
        """Start the bot again; when it identified (``time.monotonic``)."""
        identified = len(self.server.readies)
        self.bot.start()
        deadline = time.monotonic() + timeout
        while len(self.server.readies) == identified:
            ended = self.bot.process is not None and self.bot.process.poll() is not None
            if ended or time.monotonic() > deadline:
                raise AssertionError(f"the bot never identified:\n{self.bot.tail()}")
            time.sleep(0.02)
        return self.server.readies[-1]

    # ----------------------------------------------------------------- driving

    def command(self, user: int, name: str, sub: str | None = None,
                options: dict[str, Any] | None = None, *, channel_id: int) -> None:
        """Send a slash command to the bot over the gateway."""
        payload = self.server.call(self.gateway.command, user, name, sub, options,
                                   channel_id=channel_id)
        self.server.call(self.gateway.dispatch, payload)

    def click(self, user: int, message_id: int, start: str) -> None:
        """Click the component of a message whose custom id starts with ``start``."""
        message = self.server.call(lambda: dict(self.server.recorder.messages[message_id]))
        chosen = next((i for i in _ids(message) if i.startswith(start)), None)
        assert chosen is not None, f"no component {start!r} in {_ids(message)}"
        payload = self.server.call(self.gateway.click, user, message, chosen)
        self.server.call(self.gateway.dispatch, payload)

    def quiet(self, seconds: float = QUIET, timeout: float = 60.0) -> None:
        """Wait until the bot has made no request for ``seconds`` (counted from now at
        the earliest)."""
        began = time.monotonic()
        deadline = began + timeout
        while time.monotonic() < deadline:
            last = self.server.call(lambda: self.server.last_request)
            if time.monotonic() - max(last, began) >= seconds:
                return
            time.sleep(0.1)
        raise AssertionError(f"the bot never went quiet:\n{self.bot.tail()}")

    # ----------------------------------------------------------------- checking

    async def problems(self) -> list[str]:
        """What is not shown as the store says it must be (see :func:`unshown`)."""
        games = await stored_games(self.db, self.tables)
        return self.server.call(unshown, self.server.recorder, games)

    async def orphans(self) -> list[str]:
        """What is left behind (see :func:`orphaned`)."""
        games = await stored_games(self.db, self.tables)
        return self.server.call(orphaned, self.server.recorder, games)

    async def settled(self, since: float, known: Iterable[str] = (), *,
                      orphans: bool = False) -> tuple[list[str], float | None]:
        """Wait until everything is shown (or, with ``orphans``, nothing is left behind),
        but what was broken already (``known``), at most :data:`SHOWN_WITHIN` seconds after
        ``since``; what is newly broken then (empty: nothing), and how long it took."""
        known = set(known)
        while True:
            found = await self.orphans() if orphans else await self.problems()
            problems = [p for p in found if p not in known]
            if not problems:
                return [], time.monotonic() - since
            if time.monotonic() - since > SHOWN_WITHIN:
                return problems, None
            await asyncio.sleep(0.25)

    # ----------------------------------------------------------------- killing

    def _others(self, mine: int | None) -> set[int]:
        """What a step that is about the game of thread ``mine`` (``None``: a game still to
        open) is not about: every thread and message there is, but that thread, its
        messages and its card (which has the thread's id)."""
        rec = self.server.recorder
        return self.server.call(lambda: (
            {t.id for t in rec.threads()}
            | {int(m["id"]) for m in rec.messages.values() if int(m["channel_id"]) != mine}
        ) - {mine or 0})

    def _made(self, before: set[int]) -> set[int]:
        """The threads and messages there are that are not in ``before``."""
        return self._others(None) - before

    async def kill_everywhere(self, steps: Iterator[Step], *,
                              after: Iterable[bool] = (False, True),
                              warm: Callable[[], None] | None = None) -> list[Outcome]:
        """Do a step once unkilled, counting its requests, then each next step with a
        SIGKILL at its 1st, 2nd, ... request (before Discord carries it out, or
        ``after``), starting the bot again after each kill and checking what players see.
        A step's requests are those not about another game (a game killed earlier may
        still be put right meanwhile). ``warm`` runs after the first start (the render
        workers start with the first picture, slowly)."""
        if warm is not None:
            warm()
            self.quiet()
        before_all = set(await self.orphans())
        step = next(steps)
        others = self._others(step.thread)
        known = await self.problems()
        first = self.server.call(lambda: len(self.server.recorder.sent))
        step.run(self)
        self.quiet(DONE)
        made = self.server.call(lambda: [
            describe(sent) for sent in self.server.recorder.sent[first:]
            if not about(sent, others)])
        problems, took = await self.settled(time.monotonic(), known)
        outcomes = [Outcome(0, False, f"the step unkilled, {len(made)} requests: "
                            + "; ".join(made), problems, took,
                            made=self._made(others) | {step.thread or 0})]
        for late in after:
            for nth in range(1, len(made) + 1):
                began = time.monotonic()
                step = next(steps)
                others = self._others(step.thread)
                known = await self.problems()
                kill = self.server.kill_at(self.bot.pid, nth=nth, after=late,
                                           test=lambda sent, o=others: not about(sent, o))
                step.run(self)
                if not kill.fired.wait(REACHED_WITHIN):
                    self.server.disarm()
                    self.quiet()
                    outcomes.append(Outcome(nth, late, "the step never reached it this time",
                                            seconds=time.monotonic() - began))
                    continue
                killed_at = time.monotonic()
                self.bot.wait()
                problems, took = await self.settled(self.restart(), known)
                # The bot's first pass (at "ready") is over before the next step is counted.
                self.bot.wait_ready()
                self.quiet()
                outcomes.append(Outcome(nth, late, describe(kill.request), problems, took,
                                        time.monotonic() - began,
                                        self._made(others) | {step.thread or 0},
                                        killed_at=killed_at))
        await self.left_behind(outcomes, before_all)
        return outcomes

    async def left_behind(self, outcomes: list[Outcome], before: set[str]) -> None:
        """Tell each outcome what it left behind. Should anything be, wait until the
        kills that left it are :data:`OPENING_GRACE` seconds old (a lobby left
        half-opened is then finished or taken back by the bot's next pass), start the bot
        again and look within :data:`SHOWN_WITHIN` seconds."""
        left = [line for line in await self.orphans() if line not in before]
        if left:
            owners = [_owner(outcomes, line) for line in left]
            time.sleep(max(0.0, max(o.killed_at for o in owners) + OPENING_GRACE
                           - time.monotonic()))
            self.bot.stop()
            left, _ = await self.settled(self.restart(), before, orphans=True)
            self.bot.wait_ready()
        for line in left:
            _owner(outcomes, line).left.append(line)


def _owner(outcomes: list[Outcome], line: str) -> Outcome:
    """The outcome whose step made what ``line`` names (the last such; the first
    outcome when none did)."""
    named = {int(n) for n in re.findall(r"\d{15,}", line)}
    return ([o for o in outcomes if o.made & named] or outcomes[:1])[-1]


@dataclass(frozen=True)
class Step:
    """One instance of what a test kills the bot in: ``run`` sends it (an interaction) to
    the bot; ``thread`` is the game's thread (``None`` for a game still to open)."""

    run: Callable[[KilledBot], None]
    thread: int | None = None


def about(sent: Sent, games: set[int]) -> bool:
    """Whether a request is about one of ``games`` (their threads, or their cards, which
    have the thread's id)."""
    if sent.channel_id in games:
        return True
    parts = sent.path.strip("/").split("/")
    return len(parts) >= 4 and parts[2] == "messages" and parts[3].isdigit() \
        and int(parts[3]) in games


# --------------------------------------------------------------------------- setting up


async def in_process(db: Path, rec: Recorder, work: Callable[[Any, Any], Any]) -> None:
    """Run ``work(bot, gateway)`` with the bot in this process on ``db``, ``rec`` as its
    Discord (the same offline Discord the process meets afterwards), then close it:
    games are set up quickly this way, with deterministic deals."""
    from bot.app import create_bot
    from bot.config import Settings
    from tests.support.discord_harness import fake_render
    from tools.offline import connect

    bot = create_bot(Settings(token=None, db_path=db), renderer=fake_render, clock=time.time)
    gateway = await connect(bot, rec)
    try:
        await work(bot, gateway)
    finally:
        await bot.close()


@dataclass(frozen=True)
class Position:
    """A game in its thread where ``user`` may play ``notation``."""

    thread: int
    user: int
    notation: str


Want = Callable[[Any, Any, int, Any], bool]


async def game_in_thread(bot: Any, gateway: Any, rec: Recorder, channel: int, host: int,
                         guest: int, game: str = "sugar-blast") -> int:
    """``/game new`` in ``channel`` (thread mode), the guest joins, the host starts: the
    game's thread (its card has the same id)."""
    before = {t.id for t in rec.threads()}
    await gateway.send(gateway.command(host, "game", "new", {"game": game},
                                       channel_id=channel))
    (thread,) = [t.id for t in rec.threads() if t.id not in before]
    for user, op in ((guest, "join"), (host, "start")):
        card = rec.messages[thread]
        (button,) = [i for i in _ids(card) if i.endswith(f":{op}")]
        await gateway.send(gateway.click(user, card, button))
    return thread


async def played_until(bot: Any, gateway: Any, thread: int, players: dict[int, int],
                       want: Want | None) -> Position | None:
    """Play the AI's choices for whoever acts in ``thread`` (``players``: seat to user)
    until the player to act has a move ``want(game, state, seat, action)`` likes (that
    position), or, with no ``want``, until one move is left to end the game (its last
    move's position); ``None`` if the game ended first."""
    for _ in range(200):
        record = await bot.tables.store.games.open_game(thread)
        if record is None:
            return None
        game, state = bot.tables.pipeline.state(record)
        (seat,) = game.to_act(state)
        for action in game.legal_actions(state, seat):
            after = game.apply(state, seat, action).state
            if (want is not None and want(game, state, seat, after)) or \
                    (want is None and game.result(after) is not None):
                return Position(thread, players[seat], action.notation)
        action = game.ai_action(state, seat)
        await gateway.send(gateway.command(players[seat], "play",
                                           options={"action": action.notation},
                                           channel_id=thread))
    return None


def keeps_the_turn(game: Any, state: Any, seat: int, after: Any) -> bool:
    """A move after which the same player acts again: a swap and then which Blast first
    (or which candy to keep)."""
    return game.result(after) is None and set(game.to_act(after)) == {seat}


def hands_over(game: Any, state: Any, seat: int, after: Any) -> bool:
    """A move that ends the player's turn and hands it to another."""
    return game.result(after) is None and seat not in game.to_act(after)
