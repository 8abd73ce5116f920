"""The web companion's one way to the database: a small read service.

Every page and picture the web companion serves comes through :class:`WebService`, and
everything it reads is public by construction:

* a game's board is the channel's (``Tables.board_of_game``: the spectators' view,
  ``game.view(state, None)``, with the same alt text, :func:`bot.alt_text.board_alt`);
* a replay re-runs the stored log from the seed and keeps, for each move, the spectators'
  view only (:func:`replay_boards`);
* the moves are told by their public form and public narration: a logged action's private
  lines are dropped where it is read (:func:`public_step`), so no page can reach them.

Links are unguessable tokens kept in ``web_links`` (migration 18); a revoked one names
nothing. Heavy work is bounded and shared as replays are (:class:`bot.replays.Replays`):
each picture is drawn once per game and move, a few at a time, in the render pool's later
lane when there is one; a game's replay is re-run once per game and log.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Mapping
from dataclasses import dataclass, replace
from typing import Any, cast

from bot.alt_text import board_alt, plain_step
from bot.games.engine import Engine, SeatInfo, View
from bot.limits import Limits
from bot.organized.seasons import Season, season_at
from bot.refusals import Refused
from bot.replays import ReplayJob, Replays
from bot.store import ActionRecord, GameRecord, Store, StoreError, WebTarget
from bot.store.tournaments import TournamentRecord
from bot.tables import Pipeline, Step, Tables, stored_result
from bot.tournaments import Organizer
from bot.tournaments import Standings as TournamentStandings

#: An unguessable token: 128 random bits, URL-safe (22 characters).
TOKEN_BYTES = 16
TOKEN = re.compile(r"[A-Za-z0-9_-]{22}")
#: How long a read of a link (and what its game looks like) answers every viewer, in
#: seconds: a live game watched by hundreds costs the database two reads a second.
FRESH_SECONDS = 0.5
#: How many of a game's latest moves its page lists (the replay lists them all).
RECENT_MOVES = 30
#: How many seasons over a server's page shows, newest first (the page stays small).
PAST_SEASONS = 6
#: Pictures drawn at once, waiting at most, and kept (bytes).
PICTURES_AT_ONCE, PICTURES_WAITING, PICTURE_BYTES = 2, 32, 64 * 1024 * 1024
#: Replays (every move's public view and alt text) re-run at once, waiting, and kept.
REPLAYS_AT_ONCE, REPLAYS_WAITING, REPLAY_BYTES = 1, 16, 32 * 1024 * 1024
#: Replays kept decoded as well, for the viewers stepping through them now.
POSITIONS_READ = 4

Renderer = Callable[[View], bytes]


class NotFound(Exception):
    """The token names nothing: never given, revoked, or its game or server is gone."""


@dataclass(frozen=True)
class Player:
    """A seat as a page shows it."""

    seat: int
    name: str
    ai: bool
    score: int
    acting: bool = False
    place: int | None = None


@dataclass(frozen=True)
class Line:
    """One logged move as everybody may read it: its number, who and what in short (for a
    list of moves), and the whole public account."""

    n: int
    short: str
    text: str


@dataclass(frozen=True)
class GamePage:
    """A game as its page shows it now (public only)."""

    token: str
    game_id: int
    version: int
    slug: str
    title: str
    status: str
    #: The game's own move counter (the channel's "move 12") and the moves logged.
    move: int
    logged: int
    players: tuple[Player, ...]
    summary: str
    alt: str
    #: When the players to act were handed the turn (UNIX seconds), while it is on.
    since: float | None
    #: The latest moves, oldest first (at most :data:`RECENT_MOVES`).
    recent: tuple[Line, ...]
    #: Whether its log replays under this bot's rules.
    replayable: bool
    #: The game's result in words, once finished.
    result: str = ""


@dataclass(frozen=True)
class Replay:
    """A game's every move with the picture's alt text of each position: ``alts[0]`` is
    the deal, ``alts[n]`` the board after move ``n`` (``lines[n - 1]``)."""

    page: GamePage
    lines: tuple[Line, ...]
    alts: tuple[str, ...]


@dataclass(frozen=True)
class Board:
    """One game's leaderboard in a server: ``(name, rating, rated games, provisional)``."""

    title: str
    rows: tuple[tuple[str, int, int, bool], ...]


@dataclass(frozen=True)
class SeasonTable:
    """A season on a server's page: its name, first moment and end, and a board per game
    (while it runs, its own ratings; once over, its final standings as kept)."""

    name: str
    starts_at: float
    ends_at: float
    boards: tuple[Board, ...]


@dataclass(frozen=True)
class Standings:
    """A server's page: the leaderboard of each game played there, the season under way
    (if any) and the final standings of the latest seasons over."""

    token: str
    boards: tuple[Board, ...]
    season: SeasonTable | None = None
    past: tuple[SeasonTable, ...] = ()


def public_step(action: ActionRecord, record: GameRecord) -> Step:
    """A logged action as the channel tells it, its private lines dropped here."""
    return replace(Step.of(action, record), private={})


def _line(action: ActionRecord, record: GameRecord) -> Line:
    step = public_step(action, record)
    who = f"The AI for {step.name}" if step.for_human else step.name
    return Line(action.n, f"{who}: {step.notation}", plain_step(step))


@dataclass(frozen=True)
class BoardsJob:
    """What re-running a game for its replay needs, small and picklable: the table, the
    log (:class:`~bot.replays.ReplayJob`) and each move's public step."""

    record: GameRecord
    replay: ReplayJob
    steps: tuple[Step, ...]


def replay_boards(job: BoardsJob, game: Engine | None = None) -> bytes:
    """Every position of ``job``'s game, re-run from its seed: the spectators' view and the
    board's alt text, as JSON ``[[view, alt], ...]`` (position 0 is the deal). Runs in a
    render worker (``game`` from the registry) or a thread.

    Each position is described as the channel described it then: the game goes on until
    its last move, which shows how it ended."""
    if game is None:
        from bot.games import GAMES

        game = GAMES[job.replay.slug]
    describe = Pipeline(cast(Store, None), {game.slug: game})
    record, replay = job.record, job.replay
    going_on = replace(record, status="active", result_json=None)
    state = game.new([SeatInfo(n, ai) for n, ai in replay.seats], replay.seed,
                     replay.options, replay.rules)
    out: list[tuple[View, str]] = []
    for n in range(len(replay.log) + 1):
        if n:
            seat, notation = replay.log[n - 1]
            state = game.apply(state, seat, notation).state
        view = game.view(state, None)
        shown = record if n == len(replay.log) else going_on
        board = describe.board_of(shown, game, state, steps=job.steps[n - 1:n] if n else (),
                                  view=view)
        out.append((view, board_alt(board)))
    return json.dumps(out, separators=(",", ":")).encode()


def _digests(job: ReplayJob) -> list[str]:
    """A key for each position of ``job``'s game: the same for the same table, seed,
    names and moves up to it, whatever comes after (a live game's older moves keep their
    pictures; a name forgotten by ``/privacy delete`` gets new ones)."""
    head = json.dumps([job.slug, job.seats, job.seed, job.options, job.rules],
                      sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(head.encode())
    out = [digest.hexdigest()]
    for seat, notation in job.log:
        digest.update(f"\n{seat}:{notation}".encode())
        out.append(digest.hexdigest())
    return out


def _seen(task: asyncio.Task[bytes]) -> None:
    """A picture drawn ahead of its viewers: its failure (busy, say) is theirs to meet when
    they ask for it."""
    if not task.cancelled():
        task.exception()


class _Fresh:
    """What ``make(key)`` gave, for :data:`FRESH_SECONDS`, shared by everyone asking
    meanwhile (one read at a time per key); at most ``size`` keys kept."""

    def __init__(self, clock: Callable[[], float], seconds: float, size: int) -> None:
        self.clock, self._seconds, self._size = clock, seconds, size
        self._kept: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()
        self._asked: dict[Hashable, asyncio.Future[Any]] = {}

    async def get(self, key: Hashable, make: Callable[[], Awaitable[Any]]) -> Any:
        kept = self._kept.get(key)
        if kept is not None and self.clock() - kept[0] < self._seconds:
            return kept[1]
        asked = self._asked.get(key)
        if asked is not None:
            return await asyncio.shield(asked)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._asked[key] = future
        try:
            value = await make()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # seen: only those waiting for it care
            raise
        finally:
            del self._asked[key]
        future.set_result(value)
        self._kept[key] = (self.clock(), value)
        self._kept.move_to_end(key)
        while len(self._kept) > self._size:
            self._kept.popitem(last=False)
        return value


class WebService:
    """The web companion's reads (and its links), over the store and the game registry.

    ``public_url`` is where people reach the pages; ``renderer`` draws a view (the render
    pool in the bot, whose later workers then re-run replays and draw the pictures)."""

    def __init__(self, store: Store, public_url: str, *, games: Mapping[str, Engine] | None = None,
                 renderer: Renderer | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self._tables = Tables(store, games, clock)
        self._store = store
        self._games = self._tables.games
        self.public_url = public_url.rstrip("/")
        self._renderer = renderer
        self.clock = clock
        self._targets = _Fresh(clock, FRESH_SECONDS, 10_000)
        self._pages = _Fresh(clock, float("inf"), 1_000)
        self._standings = _Fresh(clock, FRESH_SECONDS, 1_000)
        self._organizer = Organizer(store, self._games, clock, Limits())
        #: Pictures by game and position, and replays by game and log: drawn once.
        self.pictures = Replays(at_once=PICTURES_AT_ONCE, queue=PICTURES_WAITING, clock=clock,
                                cache_bytes=PICTURE_BYTES)
        self.replays = Replays(at_once=REPLAYS_AT_ONCE, queue=REPLAYS_WAITING, clock=clock,
                               cache_bytes=REPLAY_BYTES)
        #: The positions of the replays read last, decoded (:meth:`_positions`).
        self._positions_read = _Fresh(clock, float("inf"), POSITIONS_READ)

    @classmethod
    def over(cls, tables: Tables, public_url: str, *, renderer: Renderer | None = None,
             ) -> WebService:
        """The web companion of the bot whose tables are ``tables``: their database, games
        and clock."""
        return cls(tables.pipeline.store, public_url, games=tables.games, renderer=renderer,
                   clock=tables.clock)

    # ----------------------------------------------------------------- links

    async def link(self, record: GameRecord) -> str | None:
        """The address of ``record``'s page, when its server's managers allowed links
        (``/settings web``) and the game has begun; ``None`` otherwise."""
        if record.guild_id is None or record.state_json is None:
            return None
        if not await self._allowed(record.guild_id):
            return None
        token = await self._store.web.web_link("game", token=secrets.token_urlsafe(TOKEN_BYTES),
                                               now=self.clock(), game_id=record.id,
                                               guild_id=record.guild_id)
        return f"{self.public_url}/g/{token}"

    async def server_link(self, guild_id: int | None) -> str | None:
        """The address of a server's page (its leaderboards), when its managers allowed
        links; ``None`` otherwise."""
        if guild_id is None or not await self._allowed(guild_id):
            return None
        token = await self._store.web.web_link("server", token=secrets.token_urlsafe(TOKEN_BYTES),
                                               now=self.clock(), guild_id=guild_id)
        return f"{self.public_url}/s/{token}"

    async def revoke(self, *, game_id: int | None = None, guild_id: int | None = None,
                     channel_id: int | None = None) -> int:
        """Revoke the links of a game, of a server and its games, or of the games of a
        channel or thread: their pages answer "not found" from the next read on (at most
        :data:`FRESH_SECONDS` later)."""
        return await self._store.web.revoke_web_links(self.clock(), game_id=game_id,
                                                      guild_id=guild_id, channel_id=channel_id)

    async def _allowed(self, guild_id: int) -> bool:
        return bool((await self._store.servers.server_settings(guild_id)).get("web"))

    # ----------------------------------------------------------------- pages

    async def _target(self, token: str, kind: str) -> WebTarget:
        if not TOKEN.fullmatch(token):
            raise NotFound()
        try:
            target = await self._targets.get(token, lambda: self._store.web.web_target(token))
        except StoreError:
            raise NotFound() from None  # a damaged row names nothing worth showing
        if target is None or target.kind != kind:
            raise NotFound()
        return cast(WebTarget, target)

    async def _record(self, token: str) -> GameRecord:
        record = (await self._target(token, "game")).record
        if record is None or record.state_json is None or record.game not in self._games:
            raise NotFound()
        return record

    async def game(self, token: str) -> GamePage:
        """The page of the game ``token`` names, as it stands (read again at most every
        :data:`FRESH_SECONDS`; worked out once per version of the game)."""
        record = await self._record(token)
        page: GamePage = await self._pages.get((record.id, record.version),
                                               lambda: self._page(token, record))
        return page if page.token == token else replace(page, token=token)

    async def _page(self, token: str, record: GameRecord) -> GamePage:
        try:
            board = await self._tables.queries.board_of_game(record)
        except Refused:
            raise NotFound() from None  # a damaged game: nothing a stranger can read
        actions = await self._store.moves.actions(record.id, last=RECENT_MOVES)
        game, state = board.game, board.state
        result = stored_result(record) if record.status == "finished" else None
        scores = game.rules.scores(state)
        places = {seat: result.place_of(seat) for seat in range(len(record.seats))} \
            if result is not None else {}
        players = tuple(Player(s.seat, s.name, s.ai, int(scores.get(s.seat, 0)),
                               s.seat in board.to_act, places.get(s.seat))
                        for s in record.seats)
        try:
            game.check_replayable(state)
            replayable = True
        except Exception:
            replayable = False
        # Its viewers ask for the new board next: it is drawn meanwhile.
        drawing = asyncio.create_task(self._drawn(("board", record.id, record.version),
                                                  board.view, now=True))
        drawing.add_done_callback(_seen)
        return GamePage(token=token, game_id=record.id, version=record.version,
                        slug=game.slug, title=game.title, status=record.status,
                        move=board.move, logged=actions[-1].n if actions else 0,
                        players=players, summary=game.rules.summary(state), alt=board_alt(board),
                        since=record.turn_started_at if board.to_act else None,
                        recent=tuple(_line(a, record) for a in actions),
                        replayable=replayable, result=result.summary if result else "")

    async def replay(self, token: str) -> Replay:
        """Every move of the game ``token`` names, with each position's alt text; raises
        :class:`NotFound` when its log does not replay under this bot's rules, and
        :class:`~bot.refusals.Busy` when too many replays wait to be re-run."""
        page = await self.game(token)
        if not page.replayable:
            raise NotFound()
        record = await self._record(token)
        actions = await self._store.moves.actions(record.id)
        positions = await self._positions(record, actions)
        return Replay(page=page, lines=tuple(_line(a, record) for a in actions),
                      alts=tuple(alt for _view, alt in positions))

    async def _positions(self, record: GameRecord, actions: list[ActionRecord],
                         ) -> list[tuple[View, str]]:
        """Every position's public view and alt text: re-run once per game and log."""
        game, job = await self._tables.queries.replay_job(record)
        job = replace(job, log=tuple((a.seat, a.notation) for a in actions),
                      frames=len(actions) + 1)
        boards = BoardsJob(record, job, tuple(public_step(a, record) for a in actions))
        key = ("replay", record.id, _digests(job)[-1], record.status)

        async def running() -> bytes:
            pooled = getattr(self._renderer, "run_async", None)
            from bot.games import GAMES

            if callable(pooled) and GAMES.get(game.slug) is game:
                return bytes(await pooled(replay_boards, boards))
            return await asyncio.to_thread(replay_boards, boards, game)

        async def read() -> list[tuple[View, str]]:
            data = await self.replays.gif(key, running)
            return [(view, str(alt)) for view, alt in json.loads(data)]

        # Stepping through a replay asks for each move in turn: its positions are read
        # once, not once a move (a whole game's views are megabytes of JSON).
        return list(await self._positions_read.get(key, read))

    async def picture(self, token: str, position: int | None = None) -> bytes:
        """The PNG of the game ``token`` names: its board now, or the board after move
        ``position`` of its log (0: the deal). Drawn once per game and position."""
        record = await self._record(token)
        if position is None:
            page = await self.game(token)
            board = await self._tables.queries.board_of_game(record)
            return await self._drawn(("board", record.id, page.version), board.view, now=True)
        actions = await self._store.moves.actions(record.id)
        if not 0 <= position <= len(actions):
            raise NotFound()
        _game, job = await self._tables.queries.replay_job(record)
        job = replace(job, log=tuple((a.seat, a.notation) for a in actions))
        key = ("move", record.id, _digests(job)[position])
        kept = self.pictures.kept
        if key in kept:
            return await self._drawn(key, {})
        positions = await self._positions(record, actions)
        return await self._drawn(key, positions[position][0])

    async def _drawn(self, key: Hashable, view: View, *, now: bool = False) -> bytes:
        """The picture of ``view`` kept as ``key``, drawn once: a live game's board by the
        render pool's workers for what players wait for (one a move, like the channel's),
        a replay's positions by its later workers."""
        async def drawing() -> bytes:
            renderer = self._renderer
            pooled = getattr(renderer, "render_async" if now else "run_async", None)
            if callable(pooled) and now:
                return bytes(await pooled(view))
            if callable(pooled):
                from renderers import render

                return bytes(await pooled(render, view))
            if renderer is None:
                from renderers import render

                renderer = render
            return await asyncio.to_thread(renderer, view)

        return await self.pictures.gif(key, drawing)

    async def tournament_link(self, record: TournamentRecord) -> str | None:
        """The address of a tournament's page, when its server's managers allowed links."""
        if not await self._allowed(record.guild_id):
            return None
        return f"{self.public_url}/t/{record.token}"

    async def tournament(self, token: str) -> TournamentStandings:
        """The page of the tournament ``token`` names: its standings, rounds and tables
        (read again at most every :data:`FRESH_SECONDS`); not found where its server's
        managers turned links off, or its server removed the bot."""
        if not TOKEN.fullmatch(token):
            raise NotFound()

        async def read() -> TournamentStandings | None:
            record = await self._organizer.by_token(token)
            if record is None or not await self._allowed(record.guild_id):
                return None
            return await self._organizer.standings(record)

        try:
            found = await self._standings.get(("tournament", token), read)
        except StoreError:
            raise NotFound() from None
        if found is None:
            raise NotFound()
        return cast(TournamentStandings, found)

    async def standings(self, token: str) -> Standings:
        """The page of the server ``token`` names: each game's leaderboard there."""
        target = await self._target(token, "server")
        guild = target.guild_id

        async def boards(season: Season | None) -> tuple[Board, ...]:
            found = []
            for slug in self._games:
                ranks = await self._tables.queries.leaderboard(guild, slug, season)
                if ranks["rows"]:
                    found.append(Board(str(ranks["game"]), tuple(
                        (str(r["name"]), int(r["rating"]), int(r["games"]),
                         bool(r["provisional"])) for r in ranks["rows"])))
            return tuple(found)

        async def read() -> Standings:
            seasons = await self._store.ratings.seasons(guild) if guild is not None else []
            now = self.clock()
            current = season_at([s for s in seasons if not s.closed], now)
            over = [s for s in reversed(seasons) if s.closed][:PAST_SEASONS]
            return Standings(
                token, await boards(None),
                None if current is None else SeasonTable(
                    current.name, current.starts_at, current.ends_at, await boards(current)),
                tuple([SeasonTable(s.name, s.starts_at, s.ends_at, await boards(s))
                       for s in over]))

        return cast(Standings, await self._standings.get(("standings", guild), read))
