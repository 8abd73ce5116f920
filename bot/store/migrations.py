"""The schema: one numbered list of migrations, applied in order by both backends.

A migration is SQL written once for both (SQLite's column types are translated for
PostgreSQL by :func:`for_postgres`), or a :class:`Migration` with a PostgreSQL script of
its own where the two really differ (triggers). Append new migrations; never edit one
that has shipped. Each backend counts how many ran (SQLite in ``PRAGMA user_version``,
PostgreSQL in ``candybot_schema``) and runs the rest under a lock, one transaction each,
so processes starting together migrate once.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass

from bot.store.records import StoreError

#: The user ids seated in ``NEW.seats`` (a damaged value reads as nobody; AI seats have none).
_SEATED = ("SELECT json_extract(CASE WHEN j.type = 'object' THEN j.value END, '$.user_id') "
           "AS u FROM json_each(CASE WHEN json_valid(NEW.seats) AND json_type(NEW.seats) = "
           "'array' THEN NEW.seats ELSE '[]' END) AS j WHERE u IS NOT NULL")
#: A trigger body keeping ``seat_users`` in step with ``NEW.seats``.
_SYNC_SEAT_USERS = (
    f"INSERT OR IGNORE INTO seat_users (user_id, game_id) SELECT u, NEW.id FROM ({_SEATED});\n"
    f"UPDATE seat_users SET gone = (user_id NOT IN ({_SEATED})) WHERE game_id = NEW.id;\n"
    "DELETE FROM seat_users WHERE game_id = NEW.id AND gone = 1 AND NEW.status = 'lobby';")



@dataclass(frozen=True)
class Migration:
    """A migration whose PostgreSQL script is not a translation of its SQLite one."""

    sqlite: str
    postgres: str


#: PostgreSQL's form of migration 4: the same table, its triggers in PL/pgSQL. A damaged
#: ``seats`` value (not a JSON array of objects with whole user ids) reads as nobody.
_SEAT_USERS_POSTGRES = """
    CREATE TABLE seat_users (
        user_id BIGINT NOT NULL,
        game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        gone    BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, game_id)
    );
    CREATE FUNCTION candybot_sync_seat_users() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        seated BIGINT[];
    BEGIN
        BEGIN
            seated := ARRAY(
                SELECT DISTINCT (j.value ->> 'user_id')::BIGINT
                FROM jsonb_array_elements(NEW.seats::jsonb) AS j
                WHERE jsonb_typeof(j.value) = 'object' AND j.value ->> 'user_id' IS NOT NULL);
        EXCEPTION WHEN others THEN
            seated := ARRAY[]::BIGINT[];
        END;
        INSERT INTO seat_users (user_id, game_id) SELECT u, NEW.id FROM unnest(seated) AS u
            ON CONFLICT DO NOTHING;
        UPDATE seat_users SET gone = CASE WHEN user_id = ANY (seated) THEN 0 ELSE 1 END
            WHERE game_id = NEW.id;
        DELETE FROM seat_users WHERE game_id = NEW.id AND gone = 1 AND NEW.status = 'lobby';
        RETURN NULL;
    END
    $$;
    CREATE TRIGGER seat_users_insert AFTER INSERT ON games
        FOR EACH ROW EXECUTE FUNCTION candybot_sync_seat_users();
    CREATE TRIGGER seat_users_update AFTER UPDATE OF seats ON games
        FOR EACH ROW EXECUTE FUNCTION candybot_sync_seat_users();
    UPDATE games SET seats = seats;
"""

MIGRATIONS: list[str | Migration] = [
    """
    CREATE TABLE games (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        channel_id       INTEGER NOT NULL,
        guild_id         INTEGER,
        game             TEXT    NOT NULL,
        status           TEXT    NOT NULL
                         CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
        creator_id       INTEGER NOT NULL,
        options          TEXT    NOT NULL DEFAULT '{}',
        settings         TEXT    NOT NULL DEFAULT '{}',
        seats            TEXT    NOT NULL DEFAULT '[]',
        seed             INTEGER,
        state_json       TEXT,
        version          INTEGER NOT NULL DEFAULT 1,
        created_at       REAL    NOT NULL,
        updated_at       REAL    NOT NULL,
        turn_started_at  REAL,
        reminders_sent   INTEGER NOT NULL DEFAULT 0,
        next_reminder_at REAL,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        result_json      TEXT,
        finished_at      REAL
    );
    CREATE UNIQUE INDEX games_one_open_per_channel
        ON games (channel_id) WHERE status IN ('lobby', 'active');
    CREATE INDEX games_reminders_due
        ON games (next_reminder_at) WHERE status = 'active' AND next_reminder_at IS NOT NULL;
    CREATE TABLE actions (
        game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        n         INTEGER NOT NULL,
        seat      INTEGER NOT NULL,
        user_id   INTEGER,
        notation  TEXT    NOT NULL,
        narration TEXT    NOT NULL,
        at        REAL    NOT NULL,
        undoable  INTEGER NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE results (
        game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        guild_id    INTEGER,
        channel_id  INTEGER NOT NULL,
        game        TEXT    NOT NULL,
        user_id     INTEGER,
        place       INTEGER NOT NULL,
        won         INTEGER NOT NULL,
        finished_at REAL    NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX results_by_player ON results (guild_id, user_id, game);
    """,
    # 2: hidden actions (their public form and private narration per seat), undo by
    # snapshot instead of re-running the rules, and episodes narrated in one message.
    """
    ALTER TABLE actions ADD COLUMN public TEXT NOT NULL DEFAULT '';
    ALTER TABLE actions ADD COLUMN private TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE actions ADD COLUMN before TEXT;
    ALTER TABLE actions ADD COLUMN episode TEXT;
    """,
    # 3: the announcement outbox. A row is written with the change it announces and
    # stays 'pending' until a sender posts it ('delivered') or gives it up ('dropped').
    # A sender claims the oldest pending row of a channel with a lease (leased_until),
    # so rows of one channel go out one at a time, in order.
    """
    CREATE TABLE outbox (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        channel_id   INTEGER NOT NULL,
        guild_id     INTEGER,
        game_id      INTEGER,
        kind         TEXT    NOT NULL,
        content      TEXT    NOT NULL,
        mentions     TEXT    NOT NULL DEFAULT '[]',
        nonce        TEXT    NOT NULL,
        status       TEXT    NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'delivered', 'dropped')),
        created_at   REAL    NOT NULL,
        due_at       REAL    NOT NULL,
        attempts     INTEGER NOT NULL DEFAULT 0,
        leased_until REAL,
        delivered_at REAL,
        message_id   INTEGER,
        last_error   TEXT
    );
    CREATE INDEX outbox_pending ON outbox (channel_id, id) WHERE status = 'pending';
    """,
    # 4: who sits where, by user, so /games finds a player's games without reading every
    # row. Triggers keep it in step with games.seats whoever writes them; a user who
    # leaves a running game stays listed with gone = 1 (a lobby forgets them).
    Migration(sqlite=f"""
    CREATE TABLE seat_users (
        user_id INTEGER NOT NULL,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        gone    INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, game_id)
    );
    CREATE TRIGGER seat_users_insert AFTER INSERT ON games BEGIN
        {_SYNC_SEAT_USERS}
    END;
    CREATE TRIGGER seat_users_update AFTER UPDATE OF seats ON games BEGIN
        {_SYNC_SEAT_USERS}
    END;
    -- Index the games that existed before: touching seats runs the trigger.
    UPDATE games SET seats = seats;
    """, postgres=_SEAT_USERS_POSTGRES),
    # 5: skill ratings per server (0 outside one), game and player (see bot/ratings.py),
    # written in the transaction that finishes a game.
    """
    CREATE TABLE ratings (
        guild_id   INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        user_id    INTEGER NOT NULL,
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        games      INTEGER NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    );
    """,
    # 6: quiet hours per player (see bot/away.py): reminders wait until they end.
    """
    CREATE TABLE quiet_hours (
        user_id    INTEGER PRIMARY KEY,
        timezone   TEXT    NOT NULL,
        start_hour INTEGER NOT NULL,
        end_hour   INTEGER NOT NULL,
        updated_at REAL    NOT NULL
    );
    """,
    # 7: vacations per player (see bot/away.py): no ping, reminder or AI take-over
    # reaches them from ``starts`` to ``ends``; a yearly allowance is counted from them.
    """
    CREATE TABLE vacations (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id    INTEGER NOT NULL,
        starts     REAL    NOT NULL,
        ends       REAL    NOT NULL CHECK (ends > starts),
        created_at REAL    NOT NULL
    );
    CREATE INDEX vacations_by_user ON vacations (user_id, ends);
    """,
    # 8: how each player is reached (see /notify): a mention in the channel (the
    # default, no row), a direct message as well, or quietly (no mention); dm_closed
    # notes that Discord refused a DM, so the bot stops trying until they ask again.
    """
    CREATE TABLE notify (
        user_id    INTEGER PRIMARY KEY,
        mode       TEXT    NOT NULL CHECK (mode IN ('channel', 'dm', 'quiet')),
        dm_closed  INTEGER NOT NULL DEFAULT 0,
        updated_at REAL    NOT NULL
    );
    """,
    # 9: the Discord interaction that made a move, on its first action: a delivery seen
    # twice (by one process or two) finds its move already made and changes nothing.
    """
    ALTER TABLE actions ADD COLUMN interaction_id INTEGER;
    CREATE UNIQUE INDEX actions_by_interaction ON actions (interaction_id)
        WHERE interaction_id IS NOT NULL;
    """,
    # 10: how often a player's reminders ping them (see /notify): every reminder of a
    # turn ('each', the default), only the first, or none; the table's schedule and its
    # AI take-over clock are the table's and do not change.
    """
    ALTER TABLE notify ADD COLUMN reminders TEXT NOT NULL DEFAULT 'each';
    """,
    # 11: the table's votes on the seat of a player an AI stands in for: give it to the AI
    # for good, or open it for a new player. A vote is the voter's latest; votes on a
    # player end when they are back or the vote carries.
    """
    CREATE TABLE seat_votes (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        player  INTEGER NOT NULL,
        voter   INTEGER NOT NULL,
        give    TEXT    NOT NULL,
        at      REAL    NOT NULL,
        PRIMARY KEY (game_id, player, voter)
    );
    """,
    # 12: what limits and privacy need. Open games counted by server and lobbies by host
    # (the limits of bot/limits.py); servers that removed the bot, kept until their
    # games are dropped after a grace period; announcements no longer pending, by age,
    # so that old ones are pruned (docs/privacy.md).
    """
    CREATE INDEX games_open_by_guild ON games (guild_id) WHERE status IN ('lobby', 'active');
    CREATE INDEX games_lobbies_by_creator ON games (creator_id) WHERE status = 'lobby';
    CREATE TABLE servers_gone (
        guild_id INTEGER PRIMARY KEY,
        gone_at  REAL    NOT NULL
    );
    CREATE INDEX outbox_done ON outbox (created_at) WHERE status <> 'pending';
    """,
    # 13: what an announcement says, as JSON data the Discord layer words when it sends
    # it (the tables write no words); older rows keep their text in ``content``.
    """
    ALTER TABLE outbox ADD COLUMN data TEXT;
    """,
    # 14: a game played in a thread of its own: the channel the thread hangs off (NULL: the
    # game is played in its channel itself), by which a channel finds its games; and each
    # server's defaults for new games (thread mode, reminders, where games may open).
    """
    ALTER TABLE games ADD COLUMN parent_id INTEGER;
    CREATE INDEX games_by_parent ON games (parent_id) WHERE parent_id IS NOT NULL;
    CREATE TABLE server_settings (
        guild_id   INTEGER PRIMARY KEY,
        settings   TEXT    NOT NULL DEFAULT '{}',
        updated_at REAL    NOT NULL
    );
    """,
    # 15: a database of many games (docs/scale.md). The seats of one game: the triggers of
    # migration 4 (a lobby's every join, a game's start) and the end of a game look them up
    # by game, which read every seat of every game without this; and every game of a
    # channel, newest last, for the ended games the looking commands and /game history show.
    """
    CREATE INDEX seat_users_by_game ON seat_users (game_id);
    CREATE INDEX games_by_channel ON games (channel_id, id);
    """,
    # 16: nothing left stuck (docs/reliability.md, "Nothing left stuck"). A lobby being
    # opened is an ``openings`` row from the moment it is counted against the limits until
    # its message shows its buttons: a bot killed in between finishes it or takes it back.
    # A rematch names the game it follows (one per game). ``held`` says why the place a game
    # is shown in refuses the bot (its thread locked by a moderator, the server's threads
    # full, a permission taken away), ``held_until`` when to look again. Lobbies by their
    # last change, so that abandoned ones expire.
    """
    CREATE TABLE openings (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id   INTEGER,
        channel_id INTEGER NOT NULL,
        creator_id INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        threaded   INTEGER NOT NULL DEFAULT 0,
        rematch_of INTEGER,
        card_id    INTEGER,
        thread_id  INTEGER,
        game_id    INTEGER,
        created_at REAL    NOT NULL,
        updated_at REAL    NOT NULL
    );
    CREATE UNIQUE INDEX openings_one_rematch ON openings (rematch_of)
        WHERE rematch_of IS NOT NULL;
    CREATE INDEX openings_by_creator ON openings (creator_id);
    CREATE INDEX openings_by_age ON openings (updated_at);
    ALTER TABLE games ADD COLUMN rematch_of INTEGER;
    CREATE UNIQUE INDEX games_one_rematch ON games (rematch_of) WHERE rematch_of IS NOT NULL;
    ALTER TABLE games ADD COLUMN held TEXT;
    ALTER TABLE games ADD COLUMN held_until REAL;
    CREATE INDEX games_held ON games (held_until) WHERE held IS NOT NULL;
    CREATE INDEX games_lobbies_by_age ON games (updated_at) WHERE status = 'lobby';
    """,
    # 17: what a change must show, delivered lane by lane (bot/discord/outbox.py). A lane
    # is the queue an announcement waits in: its channel's ("channel:<id>"), a player's
    # direct messages ("user:<id>"), a game's card ("card:<game>") or what follows a
    # game's new board ("game:<game>"); rows queued before are in their channel's lane. A
    # lease names the sender holding it (leased_by), and ``senders`` holds each sending
    # process with its pid, its mark (boot, process namespace, start: bot/health.py) and
    # latest heartbeat, so a dead sender's leases are taken over at once instead of when
    # they run out.
    """
    ALTER TABLE outbox ADD COLUMN lane TEXT NOT NULL DEFAULT '';
    ALTER TABLE outbox ADD COLUMN leased_by TEXT;
    UPDATE outbox SET lane = 'channel:' || channel_id;
    DROP INDEX outbox_pending;
    CREATE INDEX outbox_lanes ON outbox (lane, id) WHERE status = 'pending';
    CREATE TABLE senders (
        id      TEXT    PRIMARY KEY,
        pid     INTEGER NOT NULL,
        mark    TEXT,
        beat_at REAL    NOT NULL
    );
    """,
    # 18: the web companion's links (bot/web): an unguessable token per game page or
    # server page, live until revoked (the server removed the bot or turned the links off,
    # the game's thread or channel was deleted); a revoked token is kept so it never
    # names anything again, and a new link gets a new token. At most one live link per
    # game and per server.
    """
    CREATE TABLE web_links (
        token      TEXT    PRIMARY KEY,
        kind       TEXT    NOT NULL,
        game_id    INTEGER REFERENCES games (id) ON DELETE CASCADE,
        guild_id   INTEGER,
        created_at REAL    NOT NULL,
        revoked_at REAL
    );
    CREATE UNIQUE INDEX web_links_live_game ON web_links (game_id)
        WHERE kind = 'game' AND revoked_at IS NULL;
    CREATE UNIQUE INDEX web_links_live_server ON web_links (guild_id)
        WHERE kind = 'server' AND revoked_at IS NULL;
    CREATE INDEX web_links_by_guild ON web_links (guild_id);
    """,
    # 19: seasons (bot/organized/seasons.py, docs/organized-play.md). A server's seasons,
    # each ``[starts_at, ends_at)``, never overlapping; ``fresh``: its ratings start at a
    # newcomer's, else from the player's all-time rating here; ``closed_at`` once its final
    # standings are kept. ``season_ratings`` are a season's own ratings, written in the
    # transaction that finishes a game beside the all-time ``ratings`` (which seasons never
    # change). ``season_standings`` are a closed season's final table, kept as it was: a
    # player who deleted their data reads as a former player (``user_id`` NULL).
    """
    CREATE TABLE seasons (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id   INTEGER NOT NULL,
        name       TEXT    NOT NULL,
        starts_at  REAL    NOT NULL,
        ends_at    REAL    NOT NULL,
        channel_id INTEGER NOT NULL,
        fresh      INTEGER NOT NULL DEFAULT 0,
        created_at REAL    NOT NULL,
        closed_at  REAL
    );
    CREATE INDEX seasons_by_guild ON seasons (guild_id, starts_at);
    CREATE INDEX seasons_open ON seasons (ends_at) WHERE closed_at IS NULL;
    CREATE TABLE season_ratings (
        season_id  INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
        game       TEXT    NOT NULL,
        user_id    INTEGER NOT NULL,
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        games      INTEGER NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (season_id, game, user_id)
    );
    CREATE INDEX season_ratings_by_user ON season_ratings (user_id);
    CREATE TABLE season_standings (
        season_id   INTEGER NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
        game        TEXT    NOT NULL,
        place       INTEGER NOT NULL,
        user_id     INTEGER,
        name        TEXT    NOT NULL,
        rating      INTEGER NOT NULL,
        games       INTEGER NOT NULL,
        provisional INTEGER NOT NULL,
        PRIMARY KEY (season_id, game, place)
    );
    CREATE INDEX season_standings_by_user ON season_standings (user_id);
    """,
    # 20: clocks in days (bot/organized/clock.py). Each seat's clock as JSON (time left,
    # running since, low-time reminders sent), committed with the move that starts or
    # stops it, and when the clock loop must next look at the game. ``uptime`` keeps the
    # stretches a bot was running, beat by beat, so that time the bot was down (the gap
    # between two stretches) is never charged to a player.
    """
    ALTER TABLE games ADD COLUMN clock TEXT;
    ALTER TABLE games ADD COLUMN clock_due_at REAL;
    CREATE INDEX games_clock_due ON games (clock_due_at) WHERE clock_due_at IS NOT NULL;
    CREATE TABLE uptime (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        started_at REAL    NOT NULL,
        beat_at    REAL    NOT NULL
    );
    CREATE INDEX uptime_by_beat ON uptime (beat_at);
    """,
    # 21: tournaments (bot/tournaments.py). A tournament's players are entries numbered
    # in sign-up order (a deleted player's entry keeps its number and results, with no user
    # and no name); each round's tables list their entries in seat order, with the game
    # played there and, once it ended, each entry's place (a bye is a table of one). A
    # tournament being worked on by a process is leased (busy_until), so that two processes
    # never form or open the same round twice.
    """
    CREATE TABLE tournaments (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id   INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        host_id    INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        format     TEXT    NOT NULL,
        rounds     INTEGER NOT NULL,
        seats      INTEGER NOT NULL,
        settings   TEXT    NOT NULL DEFAULT '{}',
        status     TEXT    NOT NULL
                   CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
        round      INTEGER NOT NULL DEFAULT 0,
        deadline   REAL,
        message_id INTEGER,
        token      TEXT    NOT NULL UNIQUE,
        busy_until REAL,
        created_at REAL    NOT NULL,
        updated_at REAL    NOT NULL,
        version    INTEGER NOT NULL DEFAULT 1
    );
    CREATE INDEX tournaments_open ON tournaments (guild_id)
        WHERE status IN ('signup', 'running');
    CREATE TABLE tournament_players (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        entry         INTEGER NOT NULL,
        user_id       INTEGER,
        name          TEXT    NOT NULL,
        joined_at     REAL    NOT NULL,
        withdrawn     INTEGER,
        PRIMARY KEY (tournament_id, entry)
    );
    CREATE UNIQUE INDEX tournament_players_once ON tournament_players (tournament_id, user_id);
    CREATE INDEX tournament_players_by_user ON tournament_players (user_id);
    CREATE TABLE tournament_tables (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        round         INTEGER NOT NULL,
        number        INTEGER NOT NULL,
        entries       TEXT    NOT NULL,
        game_id       INTEGER,
        places        TEXT,
        PRIMARY KEY (tournament_id, round, number)
    );
    CREATE INDEX tournament_tables_game ON tournament_tables (game_id);
    """,
]


def for_sqlite(migration: str | Migration) -> str:
    """The SQLite script of ``migration``."""
    return migration.sqlite if isinstance(migration, Migration) else migration


_TYPES = ((re.compile(r"\bINTEGER PRIMARY KEY AUTOINCREMENT\b"),
           "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
          (re.compile(r"\bINTEGER\b"), "BIGINT"),
          (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"))


def for_postgres(migration: str | Migration) -> str:
    """The PostgreSQL script of ``migration``: its own, or the SQLite one with 64-bit
    integers, double-precision reals and identity keys (the same values SQLite keeps)."""
    if isinstance(migration, Migration):
        return migration.postgres
    for pattern, replacement in _TYPES:
        migration = pattern.sub(replacement, migration)
    return migration


def statements(script: str) -> list[str]:
    """Split a migration script into statements (``executescript`` would commit early)."""
    out: list[str] = []
    buffer = ""
    for piece in script.split(";"):
        buffer += piece + ";"
        if sqlite3.complete_statement(buffer):
            if buffer.strip(" \t\r\n;"):
                out.append(buffer.strip())
            buffer = ""
    if buffer.strip(" \t\r\n;"):
        raise StoreError("A database migration script is incomplete.")
    return out
