"""The ratings aggregate: players' stats and ratings, leaders, and seasons with their
own ratings and kept standings. A finish rates its players inside its own transaction
(:func:`rate_finished`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import cast

from bot.organized.seasons import Season, season_at
from bot.ratings import Rating, rate
from bot.store.connection import Aggregate, Connection, Params
from bot.store.outbox import queue
from bot.store.records import (
    Announcement,
    CorruptRowError,
    StatLine,
    check_int,
    load_seats,
    log,
    same_as,
)


def _rated_in(guild_id: int | None, season: Season | None) -> tuple[str, int]:
    """Where ratings are read: the server's all-time ratings, or ``season``'s own (a
    table and its condition, with the condition's value)."""
    if season is None:
        return "ratings WHERE guild_id = ?", guild_id or 0
    return "season_ratings WHERE season_id = ?", season.id


async def seasons_where(db: Connection, where: str, params: Params) -> list[Season]:
    """The seasons matching ``where`` (with ``params``), read on ``db``, in start order."""
    rows = await db.execute_fetchall(
        "SELECT id, name, starts_at, ends_at, fresh, closed_at, channel_id, guild_id "
        f"FROM seasons WHERE {where} ORDER BY starts_at, id", tuple(params))
    return [Season(int(i), str(name), float(a), float(b), bool(fresh), closed is not None,
                   int(channel), int(guild))
            for i, name, a, b, fresh, closed, channel, guild in rows]


async def leaders_in(db: Connection, guild_id: int | None, game: str, limit: int | None,
                     season: Season | None) -> list[tuple[int, str, Rating]]:
    """:meth:`Ratings.leaders` read on ``db`` (``limit`` ``None``: every player)."""
    where, key = _rated_in(guild_id, season)
    async with db.execute(f"SELECT user_id, mu, sigma, games FROM {where} AND game = ?",
                          (key, game)) as cursor:
        rated = [(int(u), Rating(mu, sigma, n))
                 for u, mu, sigma, n in await cursor.fetchall()]
    rated.sort(key=lambda item: (-item[1].shown, item[0]))
    rated = rated[:limit]
    names: dict[int, str] = {}
    server, given = same_as("g.guild_id", guild_id)
    for user, _rating in rated:
        async with db.execute(
                "SELECT g.seats FROM seat_users s JOIN games g ON g.id = s.game_id "
                f"WHERE s.user_id = ? AND {server} ORDER BY g.id DESC LIMIT 1",
                (user, *given)) as cursor:
            row = await cursor.fetchone()
        try:
            seats = load_seats(0, row[0]) if row else ()
        except CorruptRowError:
            seats = ()
        names[user] = next((s.name for s in seats if s.user_id == user), f"Player {user}")
    return [(user, names[user], rating) for user, rating in rated]


async def rate_finished(db: Connection, game_id: int, now: float) -> None:
    """Update the ratings of the finished game's human players, inside the caller's
    transaction: each seated player at their place, and every player who left it
    before the end (their seat went to an AI) below everyone, as a loss for them
    only. AI seats are not rated; a game with fewer than two rated players rates
    nobody."""
    async with db.execute(
            "SELECT COALESCE(guild_id, 0), game FROM games WHERE id = ?",
            (game_id,)) as cursor:
        row = await cursor.fetchone()
    assert row is not None
    guild, slug = row
    async with db.execute(
            "SELECT user_id, MIN(place) FROM results WHERE game_id = ? "
            "AND user_id IS NOT NULL GROUP BY user_id", (game_id,)) as cursor:
        placed = {int(user): int(place) for user, place in await cursor.fetchall()}
    async with db.execute(
            "SELECT COUNT(*) FROM results WHERE game_id = ?", (game_id,)) as cursor:
        seats = await cursor.fetchone()
    last = int(seats[0]) if seats else 0
    async with db.execute(
            "SELECT user_id FROM seat_users WHERE game_id = ? AND gone = 1",
            (game_id,)) as cursor:
        for (user,) in await cursor.fetchall():
            placed.setdefault(int(user), last + 1)
    if len(placed) < 2:
        return
    users = sorted(placed)
    marks = ", ".join("?" for _ in users)
    async with db.execute(
            f"SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? "
            f"AND game = ? AND user_id IN ({marks})", (guild, slug, *users)) as cursor:
        known = {int(u): Rating(mu, sigma, games)
                 for u, mu, sigma, games in await cursor.fetchall()}
    try:
        new = rate([(known.get(u, Rating()), placed[u]) for u in users])
    except ImportError:
        # A missing dependency must not cost the game its ending: it is saved unrated.
        log.error("openskill is not installed: game %s finished without rating", game_id)
        return
    await db.executemany(
        "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, games, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE "
        "SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
        "updated_at = excluded.updated_at",
        [(guild, slug, u, r.mu, r.sigma, r.games, now) for u, r in zip(users, new,
                                                                      strict=True)])
    if guild:
        await _rate_season(db, int(guild), slug, users, placed, known, now)


async def _rate_season(db: Connection, guild: int, slug: str, users: Sequence[int],
                      placed: Mapping[int, int], known: Mapping[int, Rating],
                      now: float) -> None:
    """Rate the game again in the season it ended in, if any, with the season's own
    ratings: a player's first game of a season starts from their all-time rating here
    before this game (ratings carry over) or a newcomer's (``fresh``). The all-time
    ratings are never touched by seasons."""
    season = season_at(await seasons_where(
        db, "guild_id = ? AND starts_at <= ? AND ends_at > ?", (guild, now, now)), now)
    if season is None:
        return
    marks = ", ".join("?" for _ in users)
    async with db.execute(
            f"SELECT user_id, mu, sigma, games FROM season_ratings WHERE season_id = ? "
            f"AND game = ? AND user_id IN ({marks})", (season.id, slug, *users)) as cursor:
        mine = {int(u): Rating(mu, sigma, games)
                for u, mu, sigma, games in await cursor.fetchall()}
    before = [mine.get(u) or (Rating() if season.fresh else
                              replace(known.get(u, Rating()), games=0)) for u in users]
    new = rate([(rating, placed[u]) for rating, u in zip(before, users, strict=True)])
    await db.executemany(
        "INSERT INTO season_ratings (season_id, game, user_id, mu, sigma, games, "
        "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (season_id, game, user_id) "
        "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = excluded.games, "
        "updated_at = excluded.updated_at",
        [(season.id, slug, u, r.mu, r.sigma, r.games, now)
         for u, r in zip(users, new, strict=True)])


class Ratings(Aggregate):
    """Stats, leaders and seasons."""

    async def stats(self, guild_id: int | None, user_id: int,
                    season: Season | None = None) -> list[StatLine]:
        """Finished games played and won by ``user_id`` in this server, per game, with
        their ratings: all time, or in ``season`` (the games that ended in it, and its
        own ratings)."""
        async with self.connector.reading() as db:
            # A game the player left before its end counts as played and lost.
            server, given = same_as("guild_id", guild_id)
            game_server, _ = same_as("g.guild_id", guild_id)
            within, between = "", cast(tuple[float, ...], ())
            if season is not None:
                within, between = " AND finished_at >= ? AND finished_at < ?", (
                    season.starts_at, season.ends_at)
            async with db.execute(
                    "SELECT game, COUNT(DISTINCT game_id), "
                    "COUNT(DISTINCT CASE WHEN won = 1 THEN game_id END) FROM ("
                    f"SELECT game, game_id, won FROM results WHERE {server} "
                    f"AND user_id = ?{within} UNION ALL SELECT g.game, g.id, 0 FROM seat_users s "
                    "JOIN games g ON g.id = s.game_id WHERE s.user_id = ? AND s.gone = 1 "
                    f"AND g.status = 'finished' AND {game_server}"
                    f"{within.replace('finished_at', 'g.finished_at')}) x "
                    "GROUP BY game ORDER BY game",
                    (*given, user_id, *between, user_id, *given, *between)) as cursor:
                rows = await cursor.fetchall()
            where, key = _rated_in(guild_id, season)
            async with db.execute(f"SELECT game, mu, sigma, games FROM {where} AND user_id = ?",
                                  (key, user_id)) as cursor:
                rated = {game: Rating(mu, sigma, games)
                         for game, mu, sigma, games in await cursor.fetchall()}
        return [StatLine(game, played, won, rated.get(game)) for game, played, won in rows]

    async def leaders(self, guild_id: int | None, game: str, limit: int = 10,
                      season: Season | None = None) -> list[tuple[int, str, Rating]]:
        """The best-rated players of ``game`` in this server, all time or in ``season``
        (its own ratings) (``(user, name, rating)``, best shown rating first), each named
        as in the last game of theirs here."""
        async with self.connector.reading() as db:
            return await leaders_in(db, guild_id, game, limit, season)

    async def seasons(self, guild_id: int) -> list[Season]:
        """A server's seasons, in start order."""
        async with self.connector.reading() as db:
            return await seasons_where(db, "guild_id = ?", (guild_id,))

    async def add_season(self, guild_id: int, *, name: str, starts_at: float, ends_at: float,
                         channel_id: int, fresh: bool, now: float,
                         check: Callable[[list[Season]], None]) -> Season:
        """Add a season to a server. ``check`` sees the server's seasons first, in the same
        transaction (one server's seasons are added one at a time), and raises to refuse."""
        check_int(guild_id, "server id")
        check_int(channel_id, "channel id")
        async with self.connector.transaction() as db:
            # Taking the server's settings row in hand queues a second manager's season
            # behind this one, on both backends, so two cannot overlap.
            await db.execute(
                "INSERT INTO server_settings (guild_id, settings, updated_at) VALUES (?, '{}', ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET updated_at = server_settings.updated_at",
                (guild_id, now))
            check(await seasons_where(db, "guild_id = ?", (guild_id,)))
            await db.execute(
                "INSERT INTO seasons (guild_id, name, starts_at, ends_at, channel_id, fresh, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (guild_id, name, starts_at, ends_at, channel_id, int(fresh), now))
            (added,) = await seasons_where(
                db, "guild_id = ? AND starts_at = ?", (guild_id, starts_at))
        return added

    async def end_season(self, season: Season, now: float) -> Season | None:
        """End ``season`` at ``now`` if it is under way (its standings are then due), or
        remove it if it has not begun; the season as it stands, ``None`` if removed."""
        async with self.connector.transaction() as db:
            if now < season.starts_at:
                await db.execute("DELETE FROM seasons WHERE id = ? AND closed_at IS NULL "
                                 "AND starts_at > ?", (season.id, now))
            else:
                await db.execute("UPDATE seasons SET ends_at = ? WHERE id = ? AND ends_at > ? "
                                 "AND closed_at IS NULL", (now, season.id, now))
            found = await seasons_where(db, "id = ?", (season.id,))
        return found[0] if found else None

    async def seasons_due(self, now: float) -> list[Season]:
        """Every server's seasons over at ``now`` whose standings are not kept yet."""
        async with self.connector.reading() as db:
            return await seasons_where(db, "closed_at IS NULL AND ends_at <= ?", (now,))

    async def close_season(self, season: Season, now: float,
                           announce: Sequence[Announcement]) -> bool:
        """Keep ``season``'s final standings (each game rated in it, every player ranked)
        and queue ``announce``, once; whether this call did."""
        async with self.connector.transaction() as db:
            cursor = await db.execute(
                "UPDATE seasons SET closed_at = ? WHERE id = ? AND closed_at IS NULL "
                "AND ends_at <= ?", (now, season.id, now))
            if cursor.rowcount != 1:
                return False
            games = await db.execute_fetchall(
                "SELECT DISTINCT game FROM season_ratings WHERE season_id = ? ORDER BY game",
                (season.id,))
            for (game,) in games:
                table = await leaders_in(db, season.guild_id, game, None, season)
                await db.executemany(
                    "INSERT INTO season_standings (season_id, game, place, user_id, name, "
                    "rating, games, provisional) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [(season.id, game, place, user, name, rating.shown, rating.games,
                      int(rating.provisional))
                     for place, (user, name, rating) in enumerate(table, start=1)])
            await queue(db, announce, now)
        return True

    async def season_games(self, season: Season) -> list[str]:
        """The games rated in ``season``, by slug."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                "SELECT DISTINCT game FROM season_ratings WHERE season_id = ? ORDER BY game",
                (season.id,))
        return [str(row[0]) for row in rows]

    async def season_standings(self, season: Season, limit: int | None = None,
                               ) -> dict[str, list[tuple[str, int, int, bool]]]:
        """A closed season's final standings as kept: per game, ``(name, rating, rated
        games, provisional)`` by place (a player who deleted their data under the name
        :meth:`~bot.store.people.People.forget` gave them)."""
        async with self.connector.reading() as db:
            rows = await db.execute_fetchall(
                "SELECT game, place, name, rating, games, provisional FROM season_standings "
                "WHERE season_id = ? AND place <= ? ORDER BY game, place",
                (season.id, limit if limit is not None else 1 << 62))
        out: dict[str, list[tuple[str, int, int, bool]]] = {}
        for game, _place, name, rating, games, provisional in rows:
            out.setdefault(str(game), []).append((str(name), int(rating), int(games),
                                                  bool(provisional)))
        return out
