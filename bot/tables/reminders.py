"""Reminders: pinging players who have not acted, and the AI take-over after the last one.

Every reminder is marked in the store together with its message, queued in the
outbox in the same write, so a restart or a second bot never sends the same one
twice, and a post that fails is retried until Discord takes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import replace
from datetime import date, datetime
from zoneinfo import ZoneInfo

from bot.away import AwayError, QuietHours, Vacation, plan_vacation
from bot.games.engine import Engine, State
from bot.refusals import Away, BadChoice, NoStandIn, OutOfRange, QuietHoursIncomplete
from bot.store import GameRecord, SeatRecord
from bot.tables.core import (
    HOLDING,
    MAX_REMINDERS,
    AlreadyMadeError,
    Board,
    Pipeline,
    Plan,
    Reminder,
    check_shown,
    direct,
    each_due,
    reaching,
    reminded,
    seats_of,
    showing,
)
from bot.tables.news import MovedOn, News, Resumed, StoodIn

log = logging.getLogger(__name__)

#: How far ahead a vacation may be planned, in seconds (a year).
VACATION_AHEAD = 366 * 24 * 3600.0
#: Which of a turn's reminders ping a player (``notify reminders``).
REMINDER_PINGS = ("each", "first", "none")


class Reminders:
    """The reminder part of :class:`~bot.tables.Tables`."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline
        self.store = pipeline.store
        self.clock = pipeline.clock

    async def due(self) -> list[Reminder | Board]:
        """Send what is due: reminders, and AI moves after the last one where enabled."""
        now = self.clock()

        async def quiet(record: GameRecord) -> None:
            await self.store.clocks.mark_reminded(record.id, record.version,
                                                  reminders_sent=record.reminders_sent,
                                                  next_reminder_at=None)

        return await each_due(await self.store.clocks.due_reminders(now),
                              lambda record: self._due_one(record, now), quiet, "reminders")

    async def _due_one(self, record: GameRecord, now: float) -> Reminder | Board | None:
        if record.status != "active":
            return None
        def read() -> tuple[Engine, State, list[SeatRecord]]:
            game, state = self.pipeline.state(record)
            return game, state, self.pipeline.humans_to_act(record, game, state)

        game, state, humans = await asyncio.to_thread(read)
        takeover = bool(record.settings.get("ai_takeover", False))
        if not humans and game.to_act(state):
            return await self._move_ai_on(record, game, state)
        if not humans:
            await self.store.clocks.mark_reminded(record.id, record.version,
                                                  reminders_sent=record.reminders_sent,
                                                  next_reminder_at=None)
            return None
        if record.reminders_sent < MAX_REMINDERS:
            mentions = tuple(dict.fromkeys(s.user_id for s in humans if s.user_id is not None))
            away, modes = await self.pipeline.reach(mentions, now)
            quiet = max(away.values(), default=None)
            if quiet is not None:
                await self.store.clocks.postpone_reminder(record.id, record.version,
                                                          reminders_sent=record.reminders_sent,
                                                          until=quiet)
                return None
            number = record.reminders_sent + 1
            last = number >= MAX_REMINDERS
            nxt = now + self.pipeline.interval(record) if (not last or takeover) else None
            since, more = await self.pipeline.since(record, (s.seat for s in humans))
            reminder = Reminder(record=record, game=game, mentions=mentions, number=number,
                                last=last, takeover_at=nxt if last and takeover else None,
                                since=since, since_more=more)
            data = reminded(reminder)
            pings = await self.store.people.reminder_pings(mentions)
            # A player who asked for fewer reminder pings is named but not pinged.
            modes = {**modes, **{u: "quiet" for u, how in pings.items()
                                 if how == "none" or (how == "first" and number > 1)}}
            announce = (reaching(record, "reminder", data, mentions, None, modes),
                        *(direct(record, data, user, None) for user in mentions
                    if modes.get(user) == "dm"))
            # The claim and the queued reminder are one write: it goes out exactly once.
            if not await self.store.clocks.mark_reminded(
                    record.id, record.version, reminders_sent=number, next_reminder_at=nxt,
                    announce=announce, now=now):
                return None
            return reminder
        if not takeover:
            await self.store.clocks.mark_reminded(record.id, record.version,
                                                  reminders_sent=record.reminders_sent,
                                                  next_reminder_at=None)
            return None
        return await self.take_over(record, game, state, humans)

    async def set_quiet_hours(self, user_id: int, timezone: str | None, start: int | None,
                              end: int | None) -> QuietHours | None:
        """``away``: keep the player's quiet hours (all three given), forget them (none
        given); raises :class:`TableError` for anything in between or invalid."""
        if timezone is None and start is None and end is None:
            await self.store.people.set_quiet_hours(user_id, None, self.clock())
            return None
        if timezone is None or start is None or end is None:
            raise QuietHoursIncomplete()
        hours = QuietHours(timezone.strip(), start, end)
        await self.store.people.set_quiet_hours(user_id, (hours.timezone, hours.start, hours.end),
                                                self.clock())
        return hours

    async def take_vacation(self, user_id: int, days: int, start: str | None = None,
                            ) -> Vacation:
        """``away vacation_days``: a vacation of ``days`` from now, or from the day
        ``start`` (YYYY-MM-DD, in the player's quiet-hours time zone, else UTC)."""
        now = self.clock()
        zone = ZoneInfo("UTC")
        hours = (await self.store.people.quiet_hours([user_id])).get(user_id)
        if hours is not None:
            with contextlib.suppress(AwayError):
                zone = ZoneInfo(QuietHours(*hours).timezone)
        starts = now
        if start:
            try:
                day = date.fromisoformat(start.strip())
            except ValueError:
                raise Away(problem="not_a_date", detail={"text": start}) from None
            midnight = datetime(day.year, day.month, day.day, tzinfo=zone).timestamp()
            if day < datetime.fromtimestamp(now, zone).date():
                raise Away(problem="day_over")
            if midnight - now > VACATION_AHEAD:
                raise OutOfRange(option="vacation_from", reason="too_far")
            starts = max(now, midnight)
        year_start = datetime(datetime.fromtimestamp(starts, zone).year - 1, 1, 1,
                              tzinfo=zone).timestamp()
        kept = await self.store.people.vacations([user_id], ending_after=year_start)
        taken = [Vacation(a, b) for a, b in kept.get(user_id, [])]
        vacation = plan_vacation(taken, starts, days)
        await self.store.people.add_vacation(user_id, vacation.starts, vacation.ends, now)
        return vacation

    async def set_notify(self, user_id: int, mode: str) -> str:
        """``notify``: how the player is reached (``channel``, ``dm`` or ``quiet``)."""
        if mode not in ("channel", "dm", "quiet"):
            raise BadChoice(option="how", choices=("channel", "dm", "quiet"))
        await self.store.people.set_notify(user_id, mode, self.clock())
        return mode

    async def set_reminder_pings(self, user_id: int, pings: str) -> str:
        """``notify reminders``: which of a turn's reminders ping the player (``each``,
        ``first`` or ``none``). The reminders are still posted for the table."""
        if pings not in REMINDER_PINGS:
            raise BadChoice(option="reminders", choices=REMINDER_PINGS)
        await self.store.people.set_reminder_pings(user_id, pings, self.clock())
        return pings

    async def notify_settings(self, user_id: int) -> tuple[str, str]:
        """How the player is reached and which reminders ping them."""
        mode = (await self.store.people.notify_modes([user_id])).get(user_id, "channel")
        pings = (await self.store.people.reminder_pings([user_id])).get(user_id, "each")
        return mode, pings

    async def come_back(self, user_id: int) -> bool:
        """``away back``: end the player's vacation now (and cancel those to come)."""
        return await self.store.people.end_vacations(user_id, self.clock()) > 0

    async def _move_ai_on(self, record: GameRecord, game: Engine, state: State) -> Board | None:
        """AI seats are to act but their moves were never saved (an earlier save failed,
        or the bot stopped before it): let them play now."""
        ready = await self.pipeline.settled(record, game,
                                    lambda: self.pipeline.ai_chain(record, game, Plan(state=state)))
        names = tuple(s.name for s in record.seats if s.seat in game.to_act(state))
        log.info("game %s in channel %s: moving on the AI seats left to act", record.id,
                 record.channel_id)
        try:
            return await self.pipeline.commit(record, game, ready, news=(MovedOn(names=names),))
        except AlreadyMadeError:
            return None

    async def take_over(self, record: GameRecord, game: Engine, state: State,
                        humans: list[SeatRecord], *, news: News | None = None,
                        ) -> Board | None:
        """An AI stands in for the players who let every reminder pass (or whose clock ran
        out: ``news`` says so): it plays their seats from now on, saved with its first
        moves, until they are back (their next ``play`` or ``game back``)."""
        away = {s.seat for s in humans}
        seats = tuple(replace(s, standing_in=True) if s.seat in away else s
                      for s in record.seats)
        standing = replace(record, seats=seats)

        def work() -> Plan:
            return self.pipeline.ai_chain(standing, game, Plan(state=state))

        ready = await self.pipeline.settled(standing, game, work)
        try:
            return await self.pipeline.commit(record, game, ready, seats=seats, news=(
                news or StoodIn(names=tuple(s.name for s in humans), reminders=MAX_REMINDERS),))
        except AlreadyMadeError:
            return None

    async def resume(self, record: GameRecord) -> Board | None:
        """The thread of ``record`` takes the bot's posts again (it was held: see
        :meth:`~bot.store.games.Games.hold`): released, with a ping for the players the game
        waits for queued in the same write; the board to show as the game stands (``None``
        for a lobby, or when another bot released it first). A game held for a permission
        is not released here: its board, once shown, ends the wait."""
        why = record.held or ""
        if record.status != "active":
            await self.store.games.release(record.id, self.clock())
            return None
        game, state = await asyncio.to_thread(self.pipeline.state, record)
        news = (Resumed(why=why),)
        if why not in HOLDING:
            # It went on unseen (a permission lost), its pings queued with its moves: its
            # board is queued as it stands, and once shown it ends the wait.
            await self.store.outbox.queue_announcements(
                showing(record, game, int(state["move"]), news=news), self.clock())
            return await self.pipeline.with_away(await asyncio.to_thread(
                self.pipeline.board_of, record, game, state, news=news))
        users = tuple(dict.fromkeys(
            s.user_id for s in self.pipeline.humans_to_act(record, game, state)
            if s.user_id is not None))
        now = self.clock()
        ping, later = self.pipeline.turn_announcement(record, game, state, users, None,
                                              *await self.pipeline.reach(users, now))
        if ping is not None:  # pinged again, whoever was pinged for this turn before
            ping = replace(ping, data={**(ping.data or {}), "again": True})
        announce = (*later, *showing(record, game, int(state["move"]), news=news,
                                     ping=ping))
        if not await self.store.games.release(record.id, now, announce):
            return None
        released = replace(record, held=None, held_until=None)
        return await self.pipeline.with_away(await asyncio.to_thread(
            self.pipeline.board_of, released, game, state, news=news, handed=users))

    async def come_back_to(self, channel_id: int, user_id: int,
                           game_id: int | None = None) -> Board:
        """``game back`` or the "I'm back" button: the AI standing in for the caller hands
        their seat back. Raises :class:`TableError` if no AI stands in for them."""
        record = (await self.pipeline.current(channel_id) if game_id is None
                  else await self.pipeline.by_id(game_id, channel_id))
        if not any(s.standing_in for s in seats_of(record, user_id)):
            raise NoStandIn()
        check_shown(record)
        return await self.pipeline.hand_back(record, user_id)
