"""A table's clock, applied: charged with every change, shown, reminded, and run out.

The arithmetic is :mod:`bot.organized.clock`'s; this service feeds it what it needs from
the store (the players' vacations and the stretches the bot was down, which are never
charged), stores what it gives back with the change that starts or stops a clock, and
runs the clock loop: a low-time reminder a day and two hours before a seat's time runs
out, and the table's rule once it has (an AI stands in, the seat is skipped, or the
player forfeits). Everything the loop does is decided from stored times, so a bot that
was down catches up when it is back, charging nobody for the time it was away.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from bot.games.engine import Engine, Result, State, dumps
from bot.organized.clock import SeatClock, Span, dump, load, next_look, warnings_due
from bot.refusals import AlreadyMade
from bot.store import ClockWrite, ConflictError, GameRecord, SeatRecord
from bot.tables.core import (
    MAX_AI_STEPS,
    Board,
    Pipeline,
    Plan,
    clip_name,
    direct,
    dumps_result,
    each_due,
    reaching,
    showing,
)
from bot.tables.news import OutOfTime
from bot.tables.reminders import Reminders
from bot.tables.timed import TableClock, settled

log = logging.getLogger(__name__)

#: A bot that has not beaten for longer than this (seconds) was down: the time from its
#: last beat to the next is charged to nobody. Each reminder pass beats (every minute or
#: so: ``reminder_poll_seconds``).
OUTAGE = 10 * 60.0


@dataclass(frozen=True)
class Forfeit:
    """A player forfeited a game when their time ran out: ``ended`` when the game ended
    with it (too few players were left), else it goes on with an AI in their seat and
    they are placed last when it ends."""

    game_id: int
    user_id: int
    seats: tuple[int, ...]
    ended: bool


ForfeitListener = Callable[[Forfeit], Awaitable[None]]


class Clocks:
    """The clocks of every table of a :class:`~bot.tables.Tables`: given the tables'
    :class:`~bot.tables.core.Pipeline` like every service of theirs, and the reminders,
    whose AI stands in when a table's rule says so."""

    def __init__(self, pipeline: Pipeline, reminders: Reminders,
                 outage: float = OUTAGE) -> None:
        self.pipeline = pipeline
        self.store = pipeline.store
        self.clock = pipeline.clock
        self._reminders = reminders
        self.outage = outage
        self._listeners: list[ForfeitListener] = []

    # ----------------------------------------------------------------- with every change

    async def pauses(self, record: GameRecord, now: float) -> dict[int, list[Span]]:
        """What the running clocks of ``record`` are not charged for, by seat, up to
        ``now``: the vacations of the seat's player and the stretches no bot was up."""
        if not TableClock.of(record.settings).rule.timed:
            return {}
        # A clock that starts now needs its player's vacation under way, to show no time
        # going by while it lasts.
        users = {s.seat: s.user_id for s in record.seats
                 if s.user_id is not None and not s.machine}
        since = min((c.at for c in load(record.clock).values() if c.at is not None),
                    default=now)
        store = self.store
        down = await store.clocks.downtime(since, now, self.outage) if since < now else []
        away = await store.people.vacations(sorted(set(users.values())), ending_after=since)
        return {seat: [*down, *away.get(user, [])] for seat, user in users.items()}

    # ----------------------------------------------------------------- the clock loop

    def on_forfeit(self, listener: ForfeitListener) -> None:
        """Tell ``listener`` of every forfeit, once the game's change is saved."""
        self._listeners.append(listener)

    async def beat(self) -> None:
        """Note that the bot is up now (see :data:`OUTAGE`)."""
        await self.store.clocks.uptime_beat(self.clock(), self.outage)

    async def due(self) -> list[Board]:
        """Charge the clocks due a look, send the low-time reminders due, and apply each
        table's rule to the seats whose time ran out; the boards those changes show."""
        await self.beat()
        now = self.clock()
        store = self.store

        async def quiet(record: GameRecord) -> None:
            await store.clocks.set_clock(record.id, record.version,
                                         ClockWrite(record.clock or {}, None))

        return await each_due(await store.clocks.due_clocks(now),
                              lambda record: self._look(record, now), quiet, "the clock")

    async def _look(self, record: GameRecord, now: float) -> Board | None:
        game, state = await asyncio.to_thread(self.pipeline.state, record)
        write = settled(record, game, state, now, await self.pauses(record, now))
        if write is None:
            await self.store.clocks.set_clock(record.id, record.version,
                                              ClockWrite(record.clock or {}, None))
            return None
        clocks = load(write.clock)
        out = tuple(seat for seat, clock in clocks.items() if clock.out)
        if out:
            return await self._run_out(record, game, state, out)
        await self._remind(record, game, clocks, now)
        return None

    async def _remind(self, record: GameRecord, game: Engine, clocks: dict[int, SeatClock],
                      now: float) -> None:
        """Store the clocks as charged, with the low-time reminders now due."""
        users = {s.seat: s.user_id for s in record.seats if s.user_id is not None
                 and not s.machine}
        due = {seat: warnings_due(clock) for seat, clock in clocks.items()}
        due = {seat: level for seat, level in due.items() if level and seat in users}
        announce = []
        if due:
            away, modes = await self.pipeline.reach([users[s] for s in due], now)
            for seat, level in sorted(due.items()):
                user = users[seat]
                data = {"about": "clock", "game": game.slug, "users": [[user, seat]],
                        "left": clocks[seat].left, "level": level,
                        "rule": TableClock.of(record.settings).applied(game)}
                announce.append(reaching(record, "reminder", data, (user,), away.get(user),
                                         modes))
                if modes.get(user) == "dm":
                    announce.append(direct(record, data, user, away.get(user)))
                clocks[seat] = replace(clocks[seat], warned=level)
        await self.store.clocks.set_clock(record.id, record.version,
                                          ClockWrite(dump(clocks), next_look(clocks, now)),
                                          announce=announce, now=now)

    async def _run_out(self, record: GameRecord, game: Engine, state: State,
                       out: tuple[int, ...]) -> Board | None:
        """Apply the table's rule to the seats ``out`` of time."""
        humans = [s for s in record.seats if s.seat in out and not s.machine]
        rule = TableClock.of(record.settings).applied(game)
        news = OutOfTime(names=tuple(s.name for s in humans), rule=rule)
        try:
            if rule == "forfeit":
                return await self._forfeit(record, game, state, humans, news)
            if rule == "skip":
                return await self._skip(record, game, state, humans, news)
            return await self._reminders.take_over(record, game, state, humans, news=news)
        except AlreadyMade:
            return None  # a move was saved meanwhile: the next look charges it anew

    async def _skip(self, record: GameRecord, game: Engine, state: State,
                    humans: list[SeatRecord], news: OutOfTime) -> Board:
        """Each seat out of time passes its turn (the rules' pass where it is legal; else
        the AI makes that one decision for the player, who keeps the seat)."""
        pipeline = self.pipeline
        seats = {s.seat for s in humans}
        level = str(record.settings.get("stand_in_level", "strong"))

        def work() -> Plan:
            plan, done = Plan(state=state), set[int]()
            for _ in range(MAX_AI_STEPS):
                acting = sorted(game.to_act(plan.state) & (seats - done))
                if not acting:
                    break
                seat = acting[0]
                legal = game.legal_actions(plan.state, seat)
                action = next((a for a in legal if a.notation in game.skips), None)
                if action is None:
                    action = pipeline.think(game, plan.state, seat, level)
                pipeline.record(plan, record, game, seat, None,
                                game.apply(plan.state, seat, action))
                done |= seats - game.to_act(plan.state)
            return pipeline.ai_chain(record, game, plan)

        ready = await pipeline.settled(record, game, work)
        return await pipeline.commit(record, game, ready, news=(news,))

    async def _forfeit(self, record: GameRecord, game: Engine, state: State,
                       humans: list[SeatRecord], news: OutOfTime) -> Board:
        """The players out of time forfeit: an AI takes their seats and they are placed
        below everyone when the game ends; it ends now, the others ranked by the score as
        it stands, when fewer than two other players would be left."""
        pipeline = self.pipeline
        users = {s.user_id for s in humans if s.user_id is not None}
        gone = tuple(s.seat for s in record.seats if s.user_id in users and not s.ai)
        seats = tuple(SeatRecord(s.seat, None, clip_name(f"{s.name} (AI)"), True,
                                 left=s.user_id) if s.seat in gone else s for s in record.seats)
        players = {s.user_id for s in seats if not s.ai and s.user_id is not None}
        ended = len(players) < 2
        try:
            if not ended:
                handed = replace(record, seats=seats)
                ready = await pipeline.settled(
                    handed, game, lambda: pipeline.ai_chain(handed, game, Plan(state=state)))
                board = await pipeline.save(record, game, ready, seats=seats, news=(news,))
            else:
                board = await self._end(record, game, state, gone, seats, news)
        except ConflictError:
            raise AlreadyMade(reason="raced") from None
        for user in sorted(users):
            mine = tuple(s.seat for s in record.seats if s.user_id == user)
            for listener in self._listeners:
                try:
                    await listener(Forfeit(record.id, user, mine, board.finished))
                except Exception:
                    log.exception("a forfeit listener failed for game %s", record.id)
        return board

    async def _end(self, record: GameRecord, game: Engine, state: State, gone: tuple[int, ...],
                   seats: tuple[SeatRecord, ...], news: OutOfTime) -> Board:
        """End the game with the seats ``gone`` placed last and the others above them by
        the score as it stands (equal scores share a place)."""

        def ended() -> tuple[Result, str, str]:
            scores = game.rules.scores(state)
            others = sorted((s.seat for s in record.seats if s.seat not in gone),
                            key=lambda seat: -scores.get(seat, 0))
            groups: list[tuple[int, ...]] = []
            for seat in others:
                if groups and scores.get(groups[-1][0], 0) == scores.get(seat, 0):
                    groups[-1] += (seat,)
                else:
                    groups.append((seat,))
            result = Result((*groups, gone), scores, "")
            return result, dumps(state), dumps_result(result)

        result, state_json, result_json = await asyncio.to_thread(ended)
        left = {s.seat: s.left for s in seats}
        placements = [(left.get(s.seat) if s.seat in gone else s.user_id, s.seat,
                       result.place_of(s.seat), s.seat in result.winners)
                      for s in record.seats]
        saved = await self.store.games.finish(
            record.id, record.version, state_json=state_json, result_json=result_json,
            placements=placements, now=self.clock(), seats=seats,
            announce=showing(record, game, int(state["move"]), news=(news,)))
        return await asyncio.to_thread(self.pipeline.board_of, saved, game, state,
                                       news=(news,))


__all__ = ["OUTAGE", "Clocks", "Forfeit", "ForfeitListener"]
