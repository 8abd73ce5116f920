"""Seasons as a service beside the tables: a server's managers set them, ``/stats`` and the
leaderboards read them, and each season's final standings are kept and announced once it
is over.

One job, composed (not a part of :class:`~bot.tables.Tables`): it shares the store, the
game registry, the clock and the limits. The arithmetic (which season a moment falls in,
what overlaps) is :mod:`bot.organized.seasons`; a season's own ratings are written by the
store in the transaction that finishes a game (docs/organized-play.md, "Seasons").
"""

from __future__ import annotations

from typing import Any

from bot.limits import Limits
from bot.organized.seasons import (
    Season,
    SeasonError,
    clashing,
    clean_name,
    named,
    same_name,
    season_at,
    span,
)
from bot.refusals import BadSeason, LimitReached, NoSuchSeason, SeasonOver, SeasonsOverlap
from bot.store import Announcement
from bot.tables.core import Pipeline
from bot.tables.queries import LEADERS

#: What ``/stats season`` takes for every game ever played here, seasons or not.
ALL_TIME = "all time"
#: The server setting (``/settings season_ratings``) and its values: a season's ratings
#: carry over from the player's all-time rating here, or start afresh.
SETTING = "season_ratings"
CARRY, FRESH = "carry", "fresh"


class Seasons:
    """A server's seasons over the tables' store: set, ended, read, and closed when over;
    given the tables' :class:`~bot.tables.core.Pipeline` like every service of theirs (its
    store, games, clock and limits)."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline
        self.store = pipeline.store
        self.clock = pipeline.clock

    @property
    def limits(self) -> Limits:
        return self.pipeline.limits

    def _title(self, slug: str) -> str:
        game = self.pipeline.games.get(slug)
        return game.title if game is not None else slug

    # ----------------------------------------------------------------- managers

    async def create(self, guild_id: int, *, name: str, start: str, end: str,
                     channel_id: int) -> Season:
        """A new season of the server, from its first to its last day (``YYYY-MM-DD``,
        UTC), its final standings posted in ``channel_id``; its ratings start as the
        server's setting says. Refused: a bad name or date, a name taken, days another
        season has, or more seasons ahead than the limits allow."""
        now = self.clock()
        try:
            kept = clean_name(name)
            starts_at, ends_at = span(start, end, now)
        except SeasonError as exc:
            raise BadSeason(reason=exc.reason, text=exc.text) from None
        settings = await self.store.servers.server_settings(guild_id)
        fresh = settings.get(SETTING) == FRESH

        def check(seasons: list[Season]) -> None:
            if named(seasons, kept) is not None or same_name(kept, ALL_TIME):
                raise BadSeason(reason="taken", text=kept)
            other = clashing(seasons, starts_at, ends_at)
            if other is not None:
                raise SeasonsOverlap(other=other.name, starts_at=other.starts_at,
                                     ends_at=other.ends_at)
            ahead = [s for s in seasons if s.ends_at > now]
            if len(ahead) >= self.limits.seasons_per_server:
                raise LimitReached(limit="seasons", allowed=self.limits.seasons_per_server)

        return await self.store.ratings.add_season(guild_id, name=kept, starts_at=starts_at,
                                                   ends_at=ends_at, channel_id=channel_id,
                                                   fresh=fresh, now=now, check=check)

    async def end(self, guild_id: int, name: str) -> Season | None:
        """End the season ``name`` now (its standings are posted by the next
        :meth:`close_due`), or remove it if it has not begun (``None``)."""
        season = await self.find(guild_id, name)
        if season.closed or season.ends_at <= self.clock():
            raise SeasonOver(name=season.name)
        return await self.store.ratings.end_season(season, self.clock())

    async def listed(self, guild_id: int) -> list[Season]:
        """The server's seasons, in start order."""
        return await self.store.ratings.seasons(guild_id)

    # ----------------------------------------------------------------- reading

    async def find(self, guild_id: int, name: str) -> Season:
        """The server's season called ``name`` (case and spacing aside)."""
        season = named(await self.store.ratings.seasons(guild_id), name)
        if season is None:
            raise NoSuchSeason(name=name)
        return season

    async def current(self, guild_id: int | None) -> Season | None:
        """The season under way in the server now, if any."""
        if guild_id is None:
            return None
        return season_at(await self.store.ratings.seasons(guild_id), self.clock())

    async def chosen(self, guild_id: int | None, name: str | None) -> Season | None:
        """The season ``/stats`` reads: the one called ``name``, the current one when no
        name is given, or none (all time) for :data:`ALL_TIME` or between seasons."""
        if guild_id is None or (name is not None and same_name(name, ALL_TIME)):
            return None
        if name is None:
            return await self.current(guild_id)
        return await self.find(guild_id, name)

    async def final(self, season: Season, limit: int | None = LEADERS) -> list[dict[str, Any]]:
        """A closed season's final standings as kept: per game rated in it (by title), its
        title and best ``limit`` players (the picture's and the words' input)."""
        kept = await self.store.ratings.season_standings(season, limit)
        return [{"game": self._title(slug), "rows": [
                    {"name": name, "rating": rating, "games": games, "provisional": prov}
                    for name, rating, games, prov in rows]}
                for slug, rows in sorted(kept.items(), key=lambda kv: self._title(kv[0]))]

    async def suggest(self, guild_id: int | None, typed: str, *,
                      ending: bool = False) -> list[str]:
        """Autocomplete of a season's name: the server's seasons containing ``typed``,
        newest first; those begun, and :data:`ALL_TIME` (what ``/stats`` reads), or with
        ``ending`` those not over (what ``/season end`` takes)."""
        if guild_id is None:
            return []
        now = self.clock()
        seasons = list(reversed(await self.store.ratings.seasons(guild_id)))
        names = ([s.name for s in seasons if s.ends_at > now] if ending else
                 [s.name for s in seasons if s.starts_at <= now] + [ALL_TIME])
        needle = " ".join(typed.split()).casefold()
        return [n for n in names if needle in n.casefold()][:25]

    # ----------------------------------------------------------------- the end

    async def close_due(self) -> list[Season]:
        """Keep the final standings of every season that is over and queue their post in
        the channel its managers chose, each once, in the same transaction (a bot that
        was down catches up every season that ended meanwhile); the seasons closed."""
        now = self.clock()
        closed = []
        for season in await self.store.ratings.seasons_due(now):
            post = Announcement(channel_id=int(season.channel_id or 0),
                                guild_id=season.guild_id, game_id=None, kind="season",
                                data={"season": season.id})
            if await self.store.ratings.close_season(season, now, (post,)):
                closed.append(season)
        return closed

    async def season_of(self, guild_id: int, season_id: int) -> Season | None:
        """The server's season ``season_id`` (``None`` when it is gone)."""
        return next((s for s in await self.store.ratings.seasons(guild_id) if s.id == season_id),
                    None)
