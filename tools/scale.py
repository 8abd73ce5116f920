"""``python -m tools.scale --db postgresql://...``: candybot on a database of 100,000 games.

Fills a new schema of the PostgreSQL database ``--db`` with ``--games`` games (100,000) of
every registered game, ``--active`` of them (10,000) under way and the rest finished, as
the bot stores them, then measures, through the real bot on the offline Discord
(:mod:`tools.offline`), what a player and the reminder loop wait for on it:

- **a move**: a whole ``/play`` (the interaction to the board, pictures drawn in-process)
  in games of every game, moves made alternately on the filled schema and on an empty one
  (new, in the same database and the same run) with the same deals, so that both see the
  same machine; their p95 and the store's wall time per move on each;
- **a reminder pass with nothing due**: the reminder loop's pass (``send_due``: the due
  reminders and take-overs, then the outbox), on both;
- **``/games``** for the player who sits in ``--player-games`` (50) games, from the
  interaction to the list: the first (every state read afresh) and the p95 of the others.

The filled games are copies of real ones: a few games of each kind are first played
through the tables service (every seat a human typing the AI's choice, a seat in four an
AI), on a SQLite store in a temporary folder; an active game is one of them stopped part
way. Their rows (the game, its action log, results, announcements) are then copied with
new ids, channels, servers, players and times into the schema, which
:meth:`bot.store.Store.open` created through the migrations: games, results and
announcements by ``COPY``, the action logs by one ``INSERT ... SELECT`` from the
templates. The triggers of migration 4 fill ``seat_users`` as they do for the bot.

Players are spread so that the typical one sits in about ten games; the test player
(:data:`PLAYER`) sits in exactly ``--player-games``, a fifth of them under way and a fifth
finished in the last week, so ``/games`` lists two fifths. Finished games end over the
last two years; the games under way are due a reminder in one to 24 hours, so none is
due while this runs. The schemas are dropped afterwards unless ``--keep``; ``--reuse``
measures on a schema kept earlier instead of filling one.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import contextvars
import gc
import itertools
import json
import os
import platform
import random
import secrets
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.games import GAMES
from bot.games.engine import Engine, SeatInfo, State, dumps, loads

#: The player who sits in ``--player-games`` games (a Discord-sized id no filler uses).
PLAYER = 299_000_000_000_000_001
#: Other players of the filled games: this plus 1, 2, 3...
PLAYERS_FROM = 300_000_000_000_000_000
#: Channels and threads of the filled games, and their servers (the first server is the
#: offline Discord's own, where the measured games are played).
CHANNELS_FROM = 400_000_000_000_000_000
THREADS_FROM = 410_000_000_000_000_000
GUILDS_FROM = 420_000_000_000_000_000
MESSAGES_FROM = 430_000_000_000_000_000
#: Interaction ids of the filled actions: this plus game id x 1000 plus action number.
INTERACTIONS_FROM = 440_000_000_000_000_000
#: Users of the games whose moves are measured (this plus the seat number).
MOVER = 320_000_000_000_000_000
#: Template users (seat ``n`` of template game ``t`` is this plus ``t`` x 10 plus ``n``).
TEMPLATE_USERS = 9_100_000_000

#: The targets docs/scale.md reads the figures against.
TARGET_MOVE_RATIO = 1.2
TARGET_PASS_MS = 50.0
TARGET_GAMES_MS = 100.0

DAY = 24 * 3600.0
#: A template game longer than this many /plays is cut short (none comes near).
MAX_PLAYS = 2000
#: Games a typical player sits in; a share of games in threads of their channel; how
#: many games a channel holds over time.
GAMES_PER_PLAYER = 10
THREAD_SHARE = 0.3
GAMES_PER_CHANNEL = 5
#: Finished games end over this many days; announcements are kept this long.
HISTORY_DAYS = 730.0
KEEP_DAYS = 30.0


def log(message: str) -> None:
    print(f"[scale {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- templates


@dataclass
class Template:
    """One game as the bot stored it, to be copied: its ``games`` row, action log,
    results, announcements, and the users of its seats."""

    slug: str
    status: str
    game: dict[str, Any]
    actions: list[dict[str, Any]]
    results: list[dict[str, Any]]
    outbox: list[dict[str, Any]]
    #: The user of each human seat, by seat number.
    users: dict[int, int]
    #: When it happened (its last change): copies are moved in time from here.
    at: float = 0.0


class _Clock:
    """A clock the templates' games run on: an hour passes with every move."""

    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


def _rows(db: sqlite3.Connection, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
    cursor = db.execute(sql, params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _snapshot(path: Path, game_id: int, slug: str, users: dict[int, int]) -> Template:
    """The rows of game ``game_id`` as they stand in the SQLite file ``path``."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        (game,) = _rows(db, "SELECT * FROM games WHERE id = ?", (game_id,))
        actions = _rows(db, "SELECT * FROM actions WHERE game_id = ? ORDER BY n", (game_id,))
        results = _rows(db, "SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,))
        outbox = _rows(db, "SELECT * FROM outbox WHERE game_id = ? ORDER BY id", (game_id,))
    return Template(slug, str(game["status"]), game, actions, results, outbox, dict(users),
                    float(game["updated_at"]))


async def play_templates(per_game: int, rng: random.Random,
                         slugs: Sequence[str] = tuple(GAMES)) -> list[Template]:
    """``per_game`` finished and ``per_game`` active games of each of ``slugs``, played
    through the tables service (humans typing the AI's choices) on a temporary SQLite
    store."""
    from bot.store import Store
    from bot.tables import Tables

    out: list[Template] = []
    with tempfile.TemporaryDirectory(prefix="candybot-scale-") as folder:
        path = Path(folder) / "templates.db"
        store = await Store.open(path)
        clock = _Clock(time.time() - 30 * DAY)
        tables = Tables(store, GAMES, clock)
        interactions = iter(range(1, 10**9))
        try:
            number = 0
            for slug in slugs:
                game = GAMES[slug]
                finished = active = 0
                length = 4  # /plays of the last game: an active copy stops within them
                while finished < per_game or active < per_game:
                    number += 1
                    stop = rng.randint(1, max(1, length - 1)) if active < per_game else None
                    played, snapshots = await _play_one(tables, game, number, rng, clock,
                                                        interactions, stop, path)
                    length = max(2, played)
                    for template in snapshots:
                        if template.status == "active" and active < per_game:
                            active += 1
                            out.append(template)
                        elif template.status == "finished" and finished < per_game:
                            finished += 1
                            out.append(template)
        finally:
            await store.close()
    return out


async def _play_one(tables: Any, game: Engine, number: int, rng: random.Random, clock: _Clock,
                    interactions: Iterator[int], stop: int | None,
                    path: Path) -> tuple[int, list[Template]]:
    """Play one game to its end through ``tables``; a snapshot after ``stop`` /plays (if it
    lasts that long) and one at the end. Returns how many /plays it took."""
    humans = rng.randint(max(2, game.min_seats), min(4, game.max_seats))
    with_ai = humans < game.max_seats and rng.random() < 0.25
    channel = number
    users = {seat: TEMPLATE_USERS + number * 10 + seat for seat in range(humans)}
    lobby = await tables.lobbies.open_lobby(channel_id=channel, guild_id=1, game=game.slug,
                                            creator_id=users[0], creator_name="Player 1",
                                            reminder_hours=24.0)
    game_id = lobby.record.id
    for seat in range(1, humans):
        await tables.lobbies.join(game_id, users[seat], f"Player {seat + 1}")
    if with_ai:
        await tables.lobbies.add_ai(game_id, users[0])
    await tables.lobbies.start(game_id, users[0])
    snapshots: list[Template] = []
    played = 0
    while played < MAX_PLAYS:
        record = await tables.store.games.get_game(game_id)
        if record.status != "active":
            break
        state = loads(record.state_json or "", game)
        human = {s.seat: s.user_id for s in record.seats if s.user_id is not None}
        acting = sorted(set(game.to_act(state)) & set(human))
        if not acting:
            break
        if stop is not None and played == stop:
            snapshots.append(_snapshot(path, game_id, game.slug, users))
        seat = acting[0]
        clock.now += rng.uniform(0.2, 2.0) * 3600
        await tables.moves.play(channel_id=channel, user_id=human[seat],
                                text=game.ai_action(state, seat).notation,
                                interaction_id=next(interactions))
        played += 1
    snapshots.append(_snapshot(path, game_id, game.slug, users))
    return played, snapshots


# --------------------------------------------------------------------------- the layout


@dataclass
class Copy:
    """One filled game: which template it copies and where, when and with whom."""

    id: int
    template: int
    channel_id: int
    guild_id: int
    parent_id: int | None
    #: The user of each human seat.
    users: dict[int, int]
    #: Seconds added to every time of the template.
    shift: float
    next_reminder_at: float | None = None
    #: Whether its announcements are still kept (under way, or finished lately).
    announced: bool = False


@dataclass
class Layout:
    copies: list[Copy] = field(default_factory=list)
    players: int = 0
    guilds: int = 0
    channels: int = 0


def lay_out(templates: Sequence[Template], games: int, active: int, player_games: int,
            now: float, rng: random.Random) -> Layout:
    """Where each of ``games`` copies goes: the first ``active`` are under way, the rest
    finished; :data:`PLAYER` sits in ``player_games`` of them."""
    from tools.offline import GUILD_ID

    if not 0 <= active <= games:
        raise ValueError("--active must be between 0 and --games")
    if player_games > games:
        raise ValueError("--player-games cannot exceed --games")
    by_status: dict[str, list[int]] = {"active": [], "finished": []}
    for index, template in enumerate(templates):
        by_status[template.status].append(index)
    seats = statistics.mean(len(t.users) for t in templates)
    players = max(50, round(games * seats / GAMES_PER_PLAYER))
    guilds = max(1, games // 100)
    channels = max(active + 1, games // GAMES_PER_CHANNEL)
    # The player's games: a fifth under way, a fifth finished in the last week.
    mine_active = min(active, player_games // 5)
    mine_recent = min(games - active, player_games // 5)
    mine_old = min(games - active - mine_recent, player_games - mine_active - mine_recent)
    mine_active = min(active, player_games - mine_recent - mine_old)
    finished_ids = list(range(active, games))
    rng.shuffle(finished_ids)
    mine = {*rng.sample(range(active), mine_active), *finished_ids[:mine_recent + mine_old]}
    recent = set(finished_ids[:mine_recent])
    layout = Layout(players=players, guilds=guilds, channels=channels)
    for index in range(games):
        status = "active" if index < active else "finished"
        template_index = by_status[status][index % len(by_status[status])]
        template = templates[template_index]
        human_seats = sorted(template.users)
        chosen = rng.sample(range(1, players + 1), len(human_seats))
        users = {seat: PLAYERS_FROM + chosen[i] for i, seat in enumerate(human_seats)}
        if index in mine:
            users[human_seats[0]] = PLAYER
        if index < active:
            channel = index  # one open game per channel
            when = now - rng.uniform(0, 3 * DAY)
        else:
            channel = rng.randrange(channels)
            if index in recent:
                days = rng.uniform(0.1, 6.5)
            elif index in mine:  # the player's older games fall outside /games' week
                days = rng.uniform(7.5, max(7.5, HISTORY_DAYS))
            else:
                days = rng.uniform(0, HISTORY_DAYS)
            when = now - days * DAY
        guild_number = channel % guilds
        guild = GUILD_ID if guild_number == 0 else GUILDS_FROM + guild_number
        parent: int | None = None
        channel_id = CHANNELS_FROM + channel
        if rng.random() < THREAD_SHARE:
            parent, channel_id = channel_id, THREADS_FROM + index
        copy = Copy(index + 1, template_index, channel_id, guild, parent, users,
                    when - template.at, announced=status == "active"
                    or now - when < KEEP_DAYS * DAY)
        if status == "active" and rng.random() < 0.9:
            copy.next_reminder_at = now + rng.uniform(3600, DAY)
        layout.copies.append(copy)
    # Ids in the order the games were created, as the bot gives them.
    layout.copies.sort(key=lambda c: templates[c.template].game["created_at"] + c.shift)
    for number, copy in enumerate(layout.copies, start=1):
        copy.id = number
    return layout


# --------------------------------------------------------------------------- filling


GAME_COLUMNS = ("id", "channel_id", "guild_id", "game", "status", "creator_id", "options",
                "settings", "seats", "seed", "state_json", "version", "created_at",
                "updated_at", "turn_started_at", "reminders_sent", "next_reminder_at",
                "lobby_message_id", "board_message_id", "result_json", "finished_at",
                "parent_id")
RESULT_COLUMNS = ("game_id", "seat", "guild_id", "channel_id", "game", "user_id", "place",
                  "won", "finished_at")
OUTBOX_COLUMNS = ("id", "channel_id", "guild_id", "game_id", "kind", "content", "mentions",
                  "nonce", "status", "created_at", "due_at", "attempts", "leased_until",
                  "delivered_at", "message_id", "last_error", "data")
ACTION_COLUMNS = ("n", "seat", "user_id", "notation", "narration", "at", "undoable",
                  "public", "private", "before", "episode", "interaction_id")


def _shifted(value: Any, shift: float) -> float | None:
    return None if value is None else float(value) + shift


def _reseated(seats_json: str, users: dict[int, int]) -> str:
    seats = json.loads(seats_json)
    for seat in seats:
        if seat.get("user_id") is not None:
            seat["user_id"] = users[int(seat["seat"])]
    return json.dumps(seats)


def _renamed(text: str | None, template: Template, users: dict[int, int]) -> str | None:
    """``text`` (an announcement's mentions or data) naming the copy's users."""
    if text is None:
        return None
    for seat, user in template.users.items():
        text = text.replace(str(user), str(users[seat]))
    return text


def _game_row(copy: Copy, template: Template) -> tuple[Any, ...]:
    row = template.game
    shift = copy.shift
    return (copy.id, copy.channel_id, copy.guild_id, template.slug, template.status,
            copy.users[min(copy.users)], row["options"], row["settings"],
            _reseated(row["seats"], copy.users), row["seed"], row["state_json"],
            row["version"], row["created_at"] + shift, row["updated_at"] + shift,
            _shifted(row["turn_started_at"], shift), row["reminders_sent"],
            copy.next_reminder_at, MESSAGES_FROM + 2 * copy.id,
            MESSAGES_FROM + 2 * copy.id + 1, row["result_json"],
            _shifted(row["finished_at"], shift), copy.parent_id)


def fill(url: str, templates: Sequence[Template], layout: Layout) -> dict[str, Any]:
    """Copy ``templates`` into the schema of ``url`` (already migrated) as ``layout``
    says; returns how many rows each table got and how long it took."""
    import psycopg

    started = time.perf_counter()
    with psycopg.connect(url) as conn:
        with conn.cursor() as cur:
            names = ", ".join(GAME_COLUMNS)
            with cur.copy(f"COPY games ({names}) FROM STDIN") as copy:
                for item in layout.copies:
                    copy.write_row(_game_row(item, templates[item.template]))
            log(f"games copied ({time.perf_counter() - started:.0f} s)")
            with cur.copy(f"COPY results ({', '.join(RESULT_COLUMNS)}) FROM STDIN") as copy:
                for item in layout.copies:
                    template = templates[item.template]
                    for result in template.results:
                        seat = int(result["seat"])
                        copy.write_row((item.id, seat, item.guild_id, item.channel_id,
                                        template.slug, item.users.get(seat), result["place"],
                                        result["won"], result["finished_at"] + item.shift))
            announced = sorted(((sent["created_at"] + item.shift, item, sent)
                                for item in layout.copies if item.announced
                                for sent in templates[item.template].outbox),
                               key=lambda row: row[0])
            with cur.copy(f"COPY outbox ({', '.join(OUTBOX_COLUMNS)}) FROM STDIN") as copy:
                for number, (at, item, sent) in enumerate(announced, start=1):
                    template = templates[item.template]
                    copy.write_row((
                        number, item.channel_id, item.guild_id, item.id, sent["kind"],
                        sent["content"], _renamed(sent["mentions"], template, item.users),
                        secrets.token_hex(8), "delivered", at, at, 1, None, at + 0.3,
                        MESSAGES_FROM + 10**12 + number, None,
                        _renamed(sent["data"], template, item.users)))
            log(f"results and announcements copied ({time.perf_counter() - started:.0f} s)")
            _copy_actions(cur, templates, layout)
            log(f"action logs copied ({time.perf_counter() - started:.0f} s)")
            cur.execute("INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, "
                        "updated_at) SELECT COALESCE(guild_id, 0), game, user_id, "
                        "25 + 10 * (AVG(won) - 0.5), GREATEST(1.5, 8.3 / SQRT(COUNT(*))), "
                        "COUNT(*), MAX(finished_at) FROM results WHERE user_id IS NOT NULL "
                        "GROUP BY COALESCE(guild_id, 0), game, user_id")
            for table in ("games", "outbox"):
                cur.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                            f"GREATEST(1, (SELECT MAX(id) FROM {table})))")
        conn.commit()
        conn.autocommit = True
        tables = ("games", "actions", "results", "seat_users", "outbox", "ratings")
        conn.execute(f"VACUUM ANALYZE {', '.join(tables)}")
        counts = {table: int(_value(conn, f"SELECT COUNT(*) FROM {table}")) for table in tables}
        counts["active"] = int(_value(conn, "SELECT COUNT(*) FROM games WHERE status = 'active'"))
        counts["player_games"] = int(_value(
            conn, "SELECT COUNT(*) FROM seat_users WHERE user_id = %s", (PLAYER,)))
        size = _value(conn, "SELECT pg_size_pretty(SUM(pg_total_relation_size(c.oid))) "
                      "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                      "WHERE n.nspname = current_schema() AND c.relkind = 'r'")
    return {"rows": counts, "size": str(size), "seconds": time.perf_counter() - started}


def _value(conn: Any, sql: str, params: Sequence[Any] = ()) -> Any:
    """The one value ``sql`` reads."""
    row = conn.execute(sql, params).fetchone()
    assert row is not None
    return row[0]


def _copy_actions(cur: Any, templates: Sequence[Template], layout: Layout) -> None:
    """Every copy's action log, from the templates' logs, on the server: the actions of a
    human seat name the copy's player, a move made by an interaction gets an id of its own."""
    cur.execute("CREATE TEMP TABLE scale_copies (game_id BIGINT PRIMARY KEY, "
                "template INTEGER NOT NULL, shift DOUBLE PRECISION NOT NULL) ON COMMIT DROP")
    cur.execute("CREATE TEMP TABLE scale_seats (game_id BIGINT, seat BIGINT, user_id BIGINT, "
                "PRIMARY KEY (game_id, seat)) ON COMMIT DROP")
    cur.execute("CREATE TEMP TABLE scale_actions (template INTEGER, n BIGINT, seat BIGINT, "
                "human BOOLEAN, notation TEXT, narration TEXT, at DOUBLE PRECISION, "
                "undoable BIGINT, public TEXT, private TEXT, before TEXT, episode TEXT, "
                "interaction BOOLEAN) ON COMMIT DROP")
    with cur.copy("COPY scale_copies FROM STDIN") as copy:
        for item in layout.copies:
            copy.write_row((item.id, item.template, item.shift))
    with cur.copy("COPY scale_seats FROM STDIN") as copy:
        for item in layout.copies:
            for seat, user in item.users.items():
                copy.write_row((item.id, seat, user))
    with cur.copy("COPY scale_actions FROM STDIN") as copy:
        for index, template in enumerate(templates):
            for action in template.actions:
                if int(action["n"]) >= 1000:
                    raise ValueError("a template game has 1000 actions or more")
                copy.write_row((index, action["n"], action["seat"],
                                action["user_id"] is not None, action["notation"],
                                action["narration"], action["at"], action["undoable"],
                                action["public"], action["private"], action["before"],
                                action["episode"], action["interaction_id"] is not None))
    cur.execute("ANALYZE scale_copies; ANALYZE scale_seats; ANALYZE scale_actions")
    cur.execute("SET LOCAL work_mem = '256MB'")  # the sort below, in memory where it fits
    cur.execute(
        f"INSERT INTO actions (game_id, {', '.join(ACTION_COLUMNS)}) "
        "SELECT c.game_id, a.n, a.seat, CASE WHEN a.human THEN s.user_id END, a.notation, "
        "a.narration, a.at + c.shift, a.undoable, a.public, a.private, a.before, a.episode, "
        f"CASE WHEN a.interaction THEN {INTERACTIONS_FROM} + c.game_id * 1000 + a.n END "
        "FROM scale_copies c JOIN scale_actions a ON a.template = c.template "
        "LEFT JOIN scale_seats s ON s.game_id = c.game_id AND s.seat = a.seat "
        # In the order they were made, games interleaved, as the bot writes them.
        "ORDER BY a.at + c.shift")


# --------------------------------------------------------------------------- schemas


def scoped(url: str, schema: str) -> str:
    """``url`` with ``schema`` first on its search path (the bot's tables go there)."""
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


def create_schema(url: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")


def drop_schema(url: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


async def migrate(url: str) -> int:
    """Open the store on ``url`` (creating its tables through the migrations)."""
    from bot.store import Store

    store = await Store.open(url)
    try:
        return await store.schema_version()
    finally:
        await store.close()


# --------------------------------------------------------------------------- measuring


def _stats(samples: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"median": statistics.median(ordered), "p95": p95, "max": ordered[-1],
            "samples": len(ordered)}


class StoreClock:
    """A :class:`~bot.watch.Watch` adding up the wall time of the store's calls (the
    outermost call of each nest), in milliseconds."""

    def __init__(self) -> None:
        self.total = 0.0
        self._inside: contextvars.ContextVar[bool] = contextvars.ContextVar(
            "scale_store", default=False)

    @contextlib.contextmanager
    def __call__(self, stage: str) -> Iterator[None]:
        if stage != "store" or self._inside.get():
            yield
            return
        token = self._inside.set(True)
        start = time.perf_counter()
        try:
            yield
        finally:
            self.total += (time.perf_counter() - start) * 1000
            self._inside.reset(token)


@dataclass
class Side:
    """One bot of the run, on the filled schema or on the empty one."""

    name: str
    bot: Any
    gateway: Any
    clock: StoreClock
    #: The channel of each measured game, and how many games it opened.
    channels: dict[str, int]
    #: Interaction ids no move stored in either schema has (a reused schema keeps those of
    #: its earlier runs, which the bot would take for the same request delivered twice).
    ids: Iterator[int] = field(default_factory=lambda: iter(()))
    opened: dict[str, int] = field(default_factory=dict)
    moves: dict[str, list[float]] = field(default_factory=dict)
    store_ms: list[float] = field(default_factory=list)
    passes: list[float] = field(default_factory=list)

    @property
    def store(self) -> Any:
        return self.bot.tables.store


async def _next_move(side: Side, game: Engine) -> tuple[int, int, str]:
    """The measured channel of ``game``: its next player and move (a new game when the
    last one ended); the same deals on both sides."""
    from bot.store import SeatRecord
    from tools.offline import GUILD_ID

    channel = side.channels[game.slug]
    record = await side.store.games.open_game(channel)
    state: State | None = (loads(record.state_json, game) if record is not None
                           and record.state_json else None)
    if state is None or not game.to_act(state):
        if record is not None:
            await side.store.games.abort(record.id, time.time())
        side.opened[game.slug] = side.opened.get(game.slug, 0) + 1
        seed = 1000 * (list(GAMES).index(game.slug) + 1) + side.opened[game.slug]
        players = min(max(game.min_seats, 3), game.max_seats)
        seats = [SeatInfo(f"Player {i + 1}") for i in range(players)]
        state = game.new(seats, seed)
        lobby = await side.store.games.create_lobby(
            channel_id=channel, guild_id=GUILD_ID, game=game.slug, creator_id=MOVER,
            options={}, settings={}, now=time.time())
        rows = [SeatRecord(i, MOVER + i, s.name, False) for i, s in enumerate(seats)]
        await side.store.games.start(lobby.id, lobby.version, seed=seed, state_json=dumps(state),
                                     seats=rows, now=time.time(), next_reminder_at=None)
    seat = min(game.to_act(state))
    return channel, MOVER + seat, game.ai_action(state, seat).notation


async def _play(side: Side, recorder: Any, game: Engine) -> tuple[float, float]:
    """One /play through ``side``'s bot: milliseconds until its board reached the channel,
    and the store's wall time in it."""
    from tools.offline import settle

    channel, user, text = await _next_move(side, game)
    payload = _fresh(side, side.gateway.command(user, "play", options={"action": text},
                                                channel_id=channel))
    recorder.clear()
    store_before = side.clock.total
    start = time.perf_counter()
    side.gateway.dispatch(payload)
    await settle()
    boards = [s.at for s in recorder.sent if s.channel_id == channel and s.pngs
              and s.failed is None]
    if not boards:
        said = [s.content for s in recorder.sent if s.ephemeral] or ["nothing"]
        raise RuntimeError(f"/play {text!r} on the {side.name} database was not answered "
                           f"with a board: {said[-1]!r}")
    return (min(boards) - start) * 1000, side.clock.total - store_before


def _fresh(side: Side, payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` (an interaction) under an id of :attr:`Side.ids`."""
    number = next(side.ids)
    payload.update(id=str(number), token=f"token-{number}")
    return payload


def _unused_interactions(urls: Sequence[str]) -> Iterator[int]:
    """Interaction ids above every one stored in the schemas of ``urls``."""
    import psycopg

    highest = INTERACTIONS_FROM + 10**15  # above the filled games' own
    for url in urls:
        with psycopg.connect(url) as conn:
            stored = _value(conn, "SELECT MAX(interaction_id) FROM actions")
        highest = max(highest, int(stored or 0))
    return itertools.count(highest + 1)


async def _timed(work: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = await work()
    return (time.perf_counter() - start) * 1000, result


async def _my_games(side: Side, recorder: Any, channel: int) -> tuple[float, str]:
    """``/games`` of :data:`PLAYER`: milliseconds until the list reached them, and its text."""
    from tools.offline import settle

    payload = _fresh(side, side.gateway.command(PLAYER, "games", channel_id=channel))
    recorder.clear()
    start = time.perf_counter()
    side.gateway.dispatch(payload)
    await settle()
    answers = [s for s in recorder.sent if payload["token"] in s.path
               and not s.path.endswith("/callback") and s.failed is None]
    if not answers:
        raise RuntimeError("/games was not answered")
    return (answers[0].at - start) * 1000, answers[0].content


async def measure(full_url: str, empty_url: str, samples: int, passes: int,
                  lists: int, slugs: Sequence[str]) -> dict[str, Any]:
    """Moves, reminder passes and ``/games`` through two bots, one on each schema."""
    from bot.app import create_bot
    from bot.config import Settings
    from bot.discord.client import freeze_heap
    from renderers import render
    from tools.offline import Recorder, connect

    recorder = Recorder()
    sides: list[Side] = []
    with tempfile.TemporaryDirectory(prefix="candybot-scale-") as folder:
        try:
            for number, (name, url) in enumerate((("empty", empty_url), ("full", full_url))):
                clock = StoreClock()
                settings = Settings(token=None, db_path=Path(folder) / f"{name}-state",
                                    db_url=url)
                bot = create_bot(settings, renderer=render, clock=time.time, watch=clock)
                gateway = await connect(bot, recorder)
                channels = {slug: 100 * (number + 1) + i for i, slug in enumerate(slugs)}
                sides.append(Side(name, bot, gateway, clock, channels))
            ids = _unused_interactions((full_url, empty_url))  # once both are migrated
            for side in sides:
                side.ids = ids
            freeze_heap()  # as the live bot does once it is connected
            games = [GAMES[slug] for slug in slugs]
            for side in sides:  # a first move each, untimed: caches warm as in a live bot
                for game in games:
                    await _play(side, recorder, game)
            log(f"moving: {samples} moves of each game on each database")
            for round_number in range(samples):
                for game in games:
                    order = sides if round_number % 2 == 0 else sides[::-1]
                    for side in order:
                        ms, store_ms = await _play(side, recorder, game)
                        side.moves.setdefault(game.slug, []).append(ms)
                        side.store_ms.append(store_ms)
            log(f"reminder passes: {passes} on each database")
            for side in sides:
                await side.bot.send_due()  # the first runs the hourly housekeeping too
            due: dict[str, int] = {}
            for round_number in range(passes):
                order = sides if round_number % 2 == 0 else sides[::-1]
                for side in order:
                    ms, count = await _timed(side.bot.send_due)
                    side.passes.append(ms)
                    due[side.name] = due.get(side.name, 0) + int(count)
            log(f"/games: {lists} times on the filled database")
            full = sides[1]
            listing = [await _my_games(full, recorder, full.channels[slugs[0]])
                       for _ in range(lists + 1)]
            listed = len(await full.bot.tables.queries.my_games(PLAYER))
        finally:
            for side in sides:
                await side.bot.close()
            gc.unfreeze()
    out: dict[str, Any] = {}
    for side in sides:
        every = [ms for times in side.moves.values() for ms in times]
        out[side.name] = {
            "move_ms": _stats(every),
            "move_ms_by_game": {slug: _stats(times) for slug, times in side.moves.items()},
            "store_ms_per_move": _stats(side.store_ms),
            "reminder_pass_ms": _stats(side.passes),
            "reminders_sent": due.get(side.name, 0)}
    out["move_p95_ratio"] = out["full"]["move_ms"]["p95"] / out["empty"]["move_ms"]["p95"]
    out["games_command"] = {"first_ms": listing[0][0],
                            "ms": _stats([ms for ms, _ in listing[1:]]), "listed": listed}
    return out


# --------------------------------------------------------------------------- the machine


def machine() -> dict[str, Any]:
    """Cores, load average and Python; the PostgreSQL server's version is added later."""
    load = os.getloadavg()
    return {"cpus": os.cpu_count(), "load_average": [round(x, 2) for x in load],
            "python": platform.python_version(), "platform": platform.platform()}


def server_version(url: str) -> str:
    import psycopg

    with psycopg.connect(url) as conn:
        return str(_value(conn, "SHOW server_version"))


# --------------------------------------------------------------------------- the command


def run(db: str, games: int, active: int, player_games: int, samples: int, passes: int,
        lists: int, templates: int, seed: int, keep: bool, reuse: str | None,
        slugs: Sequence[str]) -> dict[str, Any]:
    """Fill (or reuse) a schema, measure it against an empty one, and return the figures."""
    rng = random.Random(seed)
    tag = secrets.token_hex(4)
    full_schema = reuse or f"candybot_scale_full_{tag}"
    empty_schema = f"candybot_scale_empty_{tag}"
    out: dict[str, Any] = {"machine": machine(), "server": server_version(db),
                           "schema": full_schema}
    made: list[str] = []
    try:
        if reuse is None:
            create_schema(db, full_schema)
            made.append(full_schema)
            start = time.perf_counter()
            log(f"playing {templates} finished and {templates} active games of each game")
            played = asyncio.run(play_templates(templates, rng, slugs))
            out["templates_seconds"] = time.perf_counter() - start
            out["schema_version"] = asyncio.run(migrate(scoped(db, full_schema)))
            layout = lay_out(played, games, active, player_games, time.time(), rng)
            log(f"filling {full_schema}: {games} games, {active} active, "
                f"{layout.players} players, {layout.guilds} servers")
            out["fill"] = fill(scoped(db, full_schema), played, layout)
            out["fill"].update(players=layout.players, guilds=layout.guilds,
                               channels=layout.channels)
        else:
            start = time.perf_counter()
            out["schema_version"] = asyncio.run(migrate(scoped(db, full_schema)))
            out["migrate_seconds"] = time.perf_counter() - start
        create_schema(db, empty_schema)
        made.append(empty_schema)
        out["machine"]["load_before"] = machine()["load_average"]
        out.update(asyncio.run(measure(scoped(db, full_schema), scoped(db, empty_schema),
                                       samples, passes, lists, slugs)))
        out["machine"]["load_after"] = machine()["load_average"]
    finally:
        for schema in made:
            if schema == full_schema and keep:
                continue
            drop_schema(db, schema)
    return out


def _ms(figure: dict[str, float]) -> str:
    return f"median {figure['median']:.1f} ms, p95 {figure['p95']:.1f} ms"


def report(out: dict[str, Any]) -> None:
    """The figures, as a person reads them."""
    m = out["machine"]
    print(f"Machine: {m['cpus']} cores, {m['platform']}, Python {m['python']}, PostgreSQL "
          f"{out['server']}; load average {m['load_before'][0]:.1f} before the "
          f"measurements, {m['load_after'][0]:.1f} after")
    if "fill" in out:
        f = out["fill"]
        rows = f["rows"]
        print(f"Filled {out['schema']} in {f['seconds']:.0f} s ({f['size']}): "
              f"{rows['games']} games ({rows['active']} active), {rows['actions']} actions, "
              f"{rows['results']} results, {rows['seat_users']} seats, {rows['outbox']} "
              f"announcements, {rows['ratings']} ratings; {f['players']} players, "
              f"{f['guilds']} servers; the test player sits in {rows['player_games']} games")
    elif "migrate_seconds" in out:
        print(f"Reused {out['schema']} (migrations brought up to date in "
              f"{out['migrate_seconds']:.1f} s)")
    empty, full = out["empty"], out["full"]
    ratio = out["move_p95_ratio"]
    print(f"A move (/play to its board), {full['move_ms']['samples']} on each: "
          f"empty {_ms(empty['move_ms'])}; full {_ms(full['move_ms'])}; p95 "
          f"{ratio:.2f}x (target at most {TARGET_MOVE_RATIO}x: "
          f"{'ok' if ratio <= TARGET_MOVE_RATIO else 'OVER TARGET'})")
    for slug in full["move_ms_by_game"]:
        print(f"  {slug}: empty {_ms(empty['move_ms_by_game'][slug])}; full "
              f"{_ms(full['move_ms_by_game'][slug])}")
    print(f"  the store's wall time per move: empty {_ms(empty['store_ms_per_move'])}; "
          f"full {_ms(full['store_ms_per_move'])}")
    p95 = full["reminder_pass_ms"]["p95"]
    print(f"A reminder pass with nothing due: empty {_ms(empty['reminder_pass_ms'])}; full "
          f"{_ms(full['reminder_pass_ms'])} (target under {TARGET_PASS_MS:.0f} ms: "
          f"{'ok' if p95 < TARGET_PASS_MS else 'OVER TARGET'}); reminders sent "
          f"{empty['reminders_sent']} and {full['reminders_sent']}")
    g = out["games_command"]
    seated = out.get("fill", {}).get("rows", {}).get("player_games", "their")
    print(f"/games for the player in {seated} games ({g['listed']} listed): first "
          f"{g['first_ms']:.1f} ms, then "
          f"{_ms(g['ms'])} (target under {TARGET_GAMES_MS:.0f} ms: "
          f"{'ok' if g['ms']['p95'] < TARGET_GAMES_MS else 'OVER TARGET'})")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.scale",
        description="Fill a PostgreSQL schema with many games and measure a move, a reminder "
                    "pass and /games on it against an empty one.")
    parser.add_argument("--db", required=True, help="a postgresql:// URL (schemas are made "
                        "in it and dropped afterwards)")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--active", type=int, default=10_000)
    parser.add_argument("--player-games", type=int, default=50)
    parser.add_argument("--samples", type=int, default=40,
                        help="moves of each game on each database")
    parser.add_argument("--passes", type=int, default=30, help="reminder passes on each")
    parser.add_argument("--lists", type=int, default=30, help="/games asked after the first")
    parser.add_argument("--templates", type=int, default=4,
                        help="finished and active games played per game to copy")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--game", action="append", dest="slugs", choices=list(GAMES),
                        help="fill and measure this game only (may repeat; default: all)")
    parser.add_argument("--keep", action="store_true", help="keep the filled schema")
    parser.add_argument("--reuse", metavar="SCHEMA",
                        help="measure on this schema, filled and kept earlier")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    from bot.store import is_postgres

    if not is_postgres(args.db):
        parser.error("--db must be a postgresql:// URL")
    if args.games < 1 or args.samples < 1 or args.passes < 1 or args.lists < 1:
        parser.error("--games, --samples, --passes and --lists must be at least 1")
    out = run(args.db, args.games, args.active, args.player_games, args.samples, args.passes,
              args.lists, args.templates, args.seed, args.keep, args.reuse,
              args.slugs or list(GAMES))
    if args.json:
        print(json.dumps(out, sort_keys=True))
    else:
        report(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
