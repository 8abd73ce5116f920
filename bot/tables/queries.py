"""Looking at a game: the board, a player's private hand, status, log, replay, history,
stats, autocomplete of moves and of places to zoom to.

A finished game stays readable: until the next game in the channel starts, the board,
status, log and replay answer about the channel's last ended game (finished, or
aborted after it started). Its views stay public views: what the game's rules keep
hidden at the end stays hidden. ``game history`` lists the ended games by number,
and the log and replay take that number to show an older one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.games.engine import (
    Action,
    Engine,
    GameError,
    IllegalActionError,
    Result,
    State,
    normalise,
)
from bot.organized.seasons import Season
from bot.refusals import (
    EndedDamaged,
    NeverStarted,
    NoGameHere,
    NoGameNumbered,
    NoHand,
    NotAPlace,
    NothingToDecide,
    NotStarted,
)
from bot.replays import ReplayJob
from bot.store import ActionRecord, GameRecord, NotFoundError, Retold, StatLine
from bot.tables.core import (
    LOG_LIMIT,
    MAX_SUGGESTIONS,
    Board,
    CardsShown,
    DamagedStateError,
    Hand,
    Pipeline,
    Status,
    Step,
    TableError,
    clip,
    marked_stand_ins,
    seats_of,
    showing,
    stored_result,
    wire_token,
)
from bot.tables.news import from_data as news_from
from bot.tables.retold import renamed_log
from bot.tables.timed import shown

#: How many ended games ``game history`` lists.
HISTORY_LIMIT = 15
#: The name an ended game gives a player who asked to be forgotten.
FORMER_PLAYER = "a former player"
#: How many players a leaderboard shows.
LEADERS = 10


@dataclass(frozen=True, kw_only=True)
class Forgotten:
    """What ``privacy delete`` removed (counts by kind) and how many games under way (or
    lobbies) still hold the person's seat."""

    deleted: dict[str, int]
    kept_games: int

#: How long finished games stay in ``games``.
RECENT_SECONDS = 7 * 24 * 3600.0


@dataclass(frozen=True, kw_only=True)
class MyGame:
    """One game in a player's ``games`` list, as it stands for them."""

    record: GameRecord
    title: str
    #: Whether the game waits on this player now.
    your_turn: bool = False
    #: The names of the seats to act (an active game).
    waiting_for: tuple[str, ...] = ()
    #: This player's place (1 is best, shared when tied) of ``players``, once finished.
    place: int | None = None
    players: int = 0
    won: bool = False
    summary: str = ""
    #: Whether this player left the game (an AI finished it for them).
    left: bool = False
    #: Why the game cannot be read (a damaged state), if it cannot.
    damaged: str = ""
    #: Seconds left on the clock the game waits on: this player's when it is their turn,
    #: else the least of those to act (a table with a clock).
    clock: float | None = None


class Queries:
    """The looking part of :class:`~bot.tables.Tables`; none of it changes a game."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline
        self.store = pipeline.store
        self.clock = pipeline.clock

    async def _shown(self, channel_id: int, game_id: int | None = None) -> GameRecord:
        """The game the looking commands show: the game numbered ``game_id`` (one that
        started in this channel), else the active game, else the last ended one."""
        if game_id is not None:
            try:
                record = await self.store.games.get_game(game_id)
            except NotFoundError:
                record = None
            if record is None or channel_id not in (record.channel_id, record.parent_id):
                raise NoGameNumbered(game_id=game_id)
            if record.state_json is None:
                raise NeverStarted(game_id=game_id)
            return record
        current = await self.store.games.open_game(channel_id)
        if current is not None and current.status == "active":
            return current
        past = await self.store.games.past_games(channel_id, limit=1)
        if past:
            return past[0]
        return await self.pipeline.current(channel_id)

    async def board(self, channel_id: int, zoom: str | None = None) -> Board:
        """The public board of the channel's game (or its last ended one), optionally zoomed
        on a place."""
        record = await self._shown(channel_id)
        return await self.pipeline.with_away(await asyncio.to_thread(self._board, record, zoom))

    async def board_of_game(self, record: GameRecord) -> Board:
        """The public board of the game ``record`` as it stands."""
        return await self.pipeline.with_away(await asyncio.to_thread(self._board, record, None))

    async def shown_board(self, record: GameRecord, data: Mapping[str, Any]) -> Board:
        """The board a queued ``board`` announcement (``data``, see
        :func:`~bot.tables.core.showing`) shows when it is delivered: the game as it
        stands, told as the board of its change was, with the change's news and its last
        moves (an edited board: the whole episode)."""
        zoom = data.get("zoom")
        board = await self.pipeline.with_away(await asyncio.to_thread(
            self._board, record, zoom if isinstance(zoom, str) else None))
        steps: list[Step] = []
        moves = data.get("moves")
        if isinstance(moves, int) and moves > 0:
            steps = [Step.of(a, record)
                     for a in await self.store.moves.actions(record.id, last=moves)]
        edits = bool(data.get("edit")) and data.get("edit") == record.board_message_id
        key = board.game.rules.episode(board.state) if edits else None
        episode = await self.pipeline.episode_steps(record, key) if key is not None else steps
        return replace(board, news=news_from(data.get("news")), steps=tuple(episode),
                       batch=tuple(steps), edits=edits)

    async def show_again(self, board: Board) -> None:
        """Queue ``board`` to be posted again as a new message (a player's ``/game board``:
        the buttons move to it), delivered in its channel's order as every board is."""
        await self.store.outbox.queue_announcements(
            showing(board.record, board.game, board.move,
                    zoom=board.view.get("zoom") if isinstance(board.view.get("zoom"),
                                                              str) else None),
            self.clock())

    def _looked_at(self, record: GameRecord) -> tuple[Engine, State]:
        """:meth:`Pipeline.state` of a game to show; an ended game that cannot be loaded is
        simply unreadable (there is nothing left to abort)."""
        try:
            return self.pipeline.state(record)
        except DamagedStateError:
            if record.status == "active":
                raise
            raise EndedDamaged(game_id=record.id) from None

    def _board(self, record: GameRecord, zoom: str | None) -> Board:
        """:meth:`board`'s computation (runs in a worker thread)."""
        game, state = self._looked_at(record)
        if zoom is not None:
            zoom = normalise(zoom)
            spots = game.rules.zoom_spots(state)
            if zoom not in spots:
                raise NotAPlace(title=game.title, zoom=zoom, spots=tuple(spots))
        return self.pipeline.board_of(record, game, state, zoom=zoom)

    async def zoom_spots(self, channel_id: int, typed: str) -> list[str]:
        """Places of the channel's game to zoom to that match ``typed``."""
        try:
            record = await self._shown(channel_id)
        except TableError:
            return []

        def matching() -> list[str]:
            game, state = self._looked_at(record)
            needle = normalise(typed)
            spots = game.rules.zoom_spots(state)
            starts = [s for s in spots if s.startswith(needle)]
            rest = [s for s in spots if needle in s and s not in starts]
            return [s for s in starts + rest if len(s) <= 100][:MAX_SUGGESTIONS]

        return await asyncio.to_thread(matching)

    async def hand(self, channel_id: int | None, user_id: int,
                   game_id: int | None = None) -> Hand:
        """The caller's private view, choices and catch-up: only for their own eyes (in a
        direct message, ``channel_id`` is ``None`` and ``game_id`` names the game)."""
        if game_id is None:
            if channel_id is None:
                raise NoGameHere()
            record = await self._shown(channel_id)
            if record.status != "active":
                # The last ended game stays readable: its final private view, nothing to do.
                return await asyncio.to_thread(self._final_hand, record, user_id)
        else:
            record = await self.pipeline.by_id(game_id, channel_id)
            if record.status == "lobby":
                raise NotStarted()
            if record.status != "active":
                raise NothingToDecide()
        hand = await asyncio.to_thread(self._hand, record, user_id)
        since, more = await self.pipeline.since(record, (s.seat for s in seats_of(record, user_id)))
        return replace(hand, since=since, since_more=more)

    def _hand(self, record: GameRecord, user_id: int) -> Hand:
        """:meth:`hand` but the catch-up, which reads the log (runs in a worker thread)."""
        game, state = self.pipeline.state(record)
        mine = seats_of(record, user_id)
        if not mine:
            raise NoHand()
        acting = game.to_act(state)
        seat = next((s.seat for s in mine if s.seat in acting), mine[0].seat)
        legal = tuple(game.legal_actions(state, seat))
        choices = tuple(game.rules.quick_choices(state, seat)[:MAX_SUGGESTIONS]) if legal else ()
        if not legal:
            # Out of turn: what the rules let a player do at any time (standing actions).
            legal = choices = tuple(game.standing(state, seat))[:MAX_SUGGESTIONS]
        multi = game.rules.multi_select(state, seat) if legal and seat in acting else None
        dominated = game.rules.dominated(state, seat, legal) if seat in acting else frozenset()
        top = game.top(state)
        answer = tuple(game.answer_of(state, seat)) if top is not None and top.joint else ()
        waiting = tuple(top.waiting) if top is not None and top.joint else ()
        view = game.view(marked_stand_ins(state, record.seats), seat)
        return Hand(record=record, game=game, seat=seat, view=view, legal=legal, choices=choices,
                    move=int(state["move"]), token=wire_token(game, state, seat), multi=multi,
                    dominated=dominated,
                    answer=answer, waiting=waiting)

    def _final_hand(self, record: GameRecord, user_id: int) -> Hand:
        """What a player saw at the end of an ended game (no choices, no catch-up)."""
        game, state = self._looked_at(record)
        mine = seats_of(record, user_id)
        if not mine:
            raise NoHand(ended=True)
        seat = mine[0].seat
        view = game.view(marked_stand_ins(state, record.seats), seat)
        return Hand(record=record, game=game, seat=seat, view=view, legal=(), choices=(),
                    move=int(state["move"]), token=wire_token(game, state, seat))

    async def cards(self, channel_id: int, user_id: int) -> CardsShown:
        """Every card on the channel's game's table (or its last ended one's) in words, as
        the caller may know them: a player's own view (their hand and face-down cards
        too), anybody else's the public one."""
        record = await self._shown(channel_id)
        return await asyncio.to_thread(self._cards, record, user_id)

    def _cards(self, record: GameRecord, user_id: int) -> CardsShown:
        """:meth:`cards`'s computation (runs in a worker thread)."""
        game, state = self._looked_at(record)
        mine = seats_of(record, user_id)
        seat = mine[0].seat if mine else None
        texts = game.rules.card_texts(game.view(marked_stand_ins(state, record.seats), seat))
        return CardsShown(record=record, game=game, seat=seat, texts=tuple(texts))

    async def status(self, channel_id: int) -> Status:
        """Whose turn, since when, the scores, and when the next reminder and take-over come;
        for an ended game, how it ended."""
        record = await self._shown(channel_id)
        status = await asyncio.to_thread(self._status, record)
        away = await self.pipeline.away_until(u for _, u in status.to_act if u is not None)
        return replace(status, away=tuple(away.items())) if away else status

    def _status(self, record: GameRecord) -> Status:
        """:meth:`status`'s computation (runs in a worker thread)."""
        game, state = self._looked_at(record)
        acting = game.to_act(state) if record.status == "active" else set()
        to_act = tuple((s.name, s.user_id) for s in record.seats if s.seat in acting)
        scores = game.rules.scores(state)
        named = tuple((s.name, int(scores.get(s.seat, 0))) for s in record.seats)
        awaited = bool(self.pipeline.humans_to_act(record, game, state))
        reminder = record.next_reminder_at if awaited else None
        takeover = self.pipeline.takeover_at(record) if awaited else None
        result = stored_result(record)
        summary = result.summary if result is not None else game.rules.summary(state)
        return Status(record=record, game=game, summary=summary, to_act=to_act, scores=named,
                      next_reminder_at=reminder, takeover_at=takeover,
                      clocks=shown(record, self.clock()))

    async def log(self, channel_id: int, last: int = 10, game_id: int | None = None,
                  start: int | None = None) -> tuple[GameRecord, list[ActionRecord]]:
        """The last ``last`` actions, oldest first; with ``start``, the ``last`` actions
        from the one numbered ``start`` on."""
        record = await self._shown(channel_id, game_id)
        last = max(1, min(LOG_LIMIT, int(last)))
        if start is not None:
            return record, (await self.store.moves.actions(record.id, after=int(start) - 1))[:last]
        return record, await self.store.moves.actions(record.id, last=last)

    async def check_replay(self, channel_id: int, game_id: int | None = None) -> GameRecord:
        """Refuse a replay that cannot be made (another rules version), before answering."""
        record = await self._shown(channel_id, game_id)
        await asyncio.to_thread(self._replayable, record)
        return record

    def _replayable(self, record: GameRecord) -> tuple[Engine, State]:
        game, state = self._looked_at(record)
        game.check_replayable(state)
        return game, state

    async def replay_job(self, record: GameRecord) -> tuple[Engine, ReplayJob]:
        """What drawing ``record``'s replay needs (see :mod:`bot.replays`): its table and
        its log, read once."""
        game, state = await asyncio.to_thread(self._replayable, record)
        actions = await self.store.moves.actions(record.id)
        return game, ReplayJob(
            slug=game.slug, seats=tuple((str(s["name"]), bool(s["ai"])) for s in state["seats"]),
            seed=record.seed or 0, options=dict(record.options), rules=int(state["rules"]),
            log=tuple((a.seat, a.notation) for a in actions))

    async def history(self, channel_id: int,
                      limit: int = HISTORY_LIMIT) -> list[tuple[GameRecord, Result | None]]:
        """The channel's ended games, newest first, each with its result (``None`` for a
        game aborted without one)."""
        return [(record, stored_result(record))
                for record in await self.store.games.past_games(channel_id, limit=limit)]

    async def my_games(self, user_id: int) -> list[MyGame]:
        """Every game ``user_id`` sits in, on every server: first the ones waiting on them
        (longest wait first), then the other active ones, then those finished in the last
        week (newest first)."""
        records = await self.store.games.games_of(
            user_id, finished_since=self.clock() - RECENT_SECONDS)
        games = await asyncio.to_thread(lambda: [self._my_game(r, user_id) for r in records
                                                 if r.game in self.pipeline.games])
        waiting = sorted((g for g in games if g.your_turn),
                         key=lambda g: (g.record.turn_started_at or 0.0, g.record.id))
        others = [g for g in games if g.record.status == "active" and not g.your_turn]
        finished = sorted((g for g in games if g.record.status == "finished"),
                          key=lambda g: (-g.record.updated_at, -g.record.id))
        return waiting + others + finished

    def _my_game(self, record: GameRecord, user_id: int) -> MyGame:
        title = self.pipeline.games[record.game].title
        seats = {s.seat for s in seats_of(record, user_id)}
        if record.status == "finished":
            result = stored_result(record)
            if result is None:
                return MyGame(record=record, title=title)
            if not seats:
                return MyGame(record=record, title=title, left=True, summary=result.summary)
            place = min(result.place_of(s) for s in seats)
            return MyGame(record=record, title=title, place=place, players=len(record.seats),
                          won=bool(seats & set(result.winners)), summary=result.summary)
        # A list needs only who acts: the state is read, not checked whole (every seat's
        # view: 20 ms for a game of Sugar Heist). :meth:`Pipeline.state` checks it once the game is
        # played or shown, or here when who acts cannot be worked out, to say what is wrong.
        try:
            game, state = self.pipeline.loaded(record)
            try:
                acting = game.to_act(state)
            except Exception:
                game, state = self.pipeline.state(record)
                acting = game.to_act(state)
        except DamagedStateError as exc:
            return MyGame(record=record, title=title, damaged=str(exc))
        clocks = dict(shown(record, self.clock()))
        theirs = [left for seat, left in clocks.items() if seat in seats] or list(clocks.values())
        return MyGame(record=record, title=title, your_turn=bool(seats & set(acting)),
                      waiting_for=tuple(s.name for s in record.seats if s.seat in acting),
                      clock=min(theirs) if theirs else None)

    async def about(self, user_id: int) -> dict[str, Any]:
        """Everything kept about ``user_id`` (``privacy``): settings, games, results,
        ratings, votes and the announcements that named them."""
        return await self.store.people.about(user_id)

    async def forget(self, user_id: int) -> Forgotten:
        """Delete what is kept about ``user_id`` that no game under way needs (``privacy
        delete``); their ended games name their seats :data:`FORMER_PLAYER` from now on,
        their logs told again with that name (:mod:`bot.tables.retold`)."""
        renamed: dict[int, Retold] = {}
        for record in await self.store.people.ended_games_of(user_id):
            mine = [s.seat for s in record.seats if user_id in (s.user_id, s.left)]
            game = self.pipeline.games.get(record.game)
            actions = await self.store.moves.actions(record.id)
            renamed[record.id] = await asyncio.to_thread(
                renamed_log, game, record, actions, mine, FORMER_PLAYER)
        counts = await self.store.people.forget(user_id, FORMER_PLAYER, self.clock(), renamed)
        under_way = [r for r in await self.store.games.games_of(
                         user_id, finished_since=self.clock()) if r.status == "active"]
        lobbies = [g for g in (await self.store.people.about(user_id))["games"]
                   if g["status"] == "lobby"]
        return Forgotten(deleted=counts, kept_games=len(under_way) + len(lobbies))

    async def stats(self, guild_id: int | None, user_id: int,
                    season: Season | None = None) -> list[tuple[str, StatLine]]:
        """``(game title, line)`` per game the user played in this server: all time, or in
        ``season`` (the games that ended in it, with its own ratings)."""
        lines = await self.store.ratings.stats(guild_id, user_id, season)
        return [(self.pipeline.games[s.game].title if s.game in self.pipeline.games else s.game, s)
                for s in lines]

    async def leaderboard(self, guild_id: int | None, slug: str,
                          season: Season | None = None) -> dict[str, Any]:
        """The leaderboard of the game ``slug`` in this server: the game's title, the
        season's name (``None``: all time) and its rows (name, shown rating, rated games,
        provisional), best first. A closed season's rows are its final standings as kept
        (later games and ratings never change them); a season under way ranks its own
        ratings."""
        game = self.pipeline.game(slug)
        if season is not None and season.closed:
            kept = (await self.store.ratings.season_standings(season, LEADERS)).get(slug, [])
            rows = [{"name": name, "rating": rating, "games": games, "provisional": prov}
                    for name, rating, games, prov in kept]
        else:
            rows = [{"name": name, "rating": rating.shown, "games": rating.games,
                     "provisional": rating.provisional}
                    for _user, name, rating in await self.store.ratings.leaders(
                        guild_id, slug, LEADERS, season)]
        return {"game": game.title, "rows": rows,
                "season": season.name if season is not None else None}

    def suggestions(self, record: GameRecord | None, user_id: int,
                    typed: str) -> list[tuple[str, str]]:
        """Autocomplete for ``play``: ``(label, notation)`` pairs, the likeliest first
        (the game's order, dominated moves last).

        Only the caller's own legal actions: never another seat's choices. When none
        matches what they typed and it begins with a move the game knows (“pay 9”), the
        one suggestion says why (the game's :meth:`~Engine.explain`), so the player reads it
        before sending.
        """
        if record is None or record.status != "active":
            return []
        game, state = self.pipeline.state(record)
        acting = game.to_act(state)
        mine = [s.seat for s in seats_of(record, user_id)]
        seats = [s for s in mine if s in acting]
        needle = normalise(typed)
        ranked: list[Action] = []
        for seat in seats:
            legal = game.legal_actions(state, seat)
            dearer = game.rules.dominated(state, seat, legal)
            likely = game.rules.rank_actions(state, seat, legal)
            ranked.extend([a for a in likely if a.notation not in dearer]
                          + [a for a in likely if a.notation in dearer])
        if not seats:
            # Out of turn: only what the rules let a player do at any time.
            ranked = [a for seat in mine for a in game.standing(state, seat)]
        starts = [a for a in ranked if a.notation.startswith(needle)]
        contains = [a for a in ranked if a not in starts
                    and (needle in a.notation or needle in normalise(a.label))]
        out: list[tuple[str, str]] = []
        for action in starts + contains:
            if len(action.notation) > 100:
                continue
            label = action.label or action.notation
            if action.label and action.notation not in action.label:
                label = f"{action.notation}: {action.label}"
            out.append((clip(label, 100), action.notation))
            if len(out) == MAX_SUGGESTIONS:
                break
        if not out and needle and seats and len(typed) <= 100:
            try:
                game.parse(state, seats[0], typed)
            except IllegalActionError as err:
                if err.typed:
                    out.append((clip(f"{err.typed}: {err}", 100), typed))
            except GameError:
                pass
        return out

    async def suggest(self, channel_id: int, user_id: int, typed: str) -> list[tuple[str, str]]:
        """Autocomplete for the game in ``channel_id``."""
        record = await self.store.games.open_game(channel_id)
        return await asyncio.to_thread(self.suggestions, record, user_id, typed)
