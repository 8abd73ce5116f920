"""Leaving a game (``game leave``: an AI takes the seat) and ending one without a result
(``game abort``)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.games.engine import Result, dumps
from bot.refusals import AlreadyMade, Damaged, NotJoined
from bot.store import ConflictError, CorruptRowError, GameRecord, SeatRecord
from bot.tables.core import (
    Conceded,
    Lobby,
    Pipeline,
    Plan,
    check_shown,
    clip_name,
    dumps_result,
    seats_of,
    showing,
)
from bot.tables.lobby import Lobbies
from bot.tables.news import Left


class Leaving:
    """Leaving and ending games, for :class:`~bot.tables.Tables`."""

    def __init__(self, pipeline: Pipeline, lobbies: Lobbies) -> None:
        self.pipeline = pipeline
        self.store = pipeline.store
        self.clock = pipeline.clock
        self.lobbies = lobbies

    async def check_concede(self, channel_id: int, user_id: int) -> GameRecord:
        """Refuse ``game leave`` from someone without a seat, before anything is posted."""
        record = await self.pipeline.current(channel_id, active=False)
        if not seats_of(record, user_id):
            raise NotJoined(started=record.status == "active")
        if record.status == "active":
            check_shown(record)
        return record

    async def concede(self, channel_id: int, user_id: int) -> Conceded | Lobby:
        """``game leave``: leave a lobby, or hand your seat to an AI (the game ends if no
        humans remain)."""
        record = await self.check_concede(channel_id, user_id)
        if record.status == "lobby":
            return await self.lobbies.leave_lobby(record.id, user_id)
        game, state = await asyncio.to_thread(self.pipeline.state, record)
        mine = seats_of(record, user_id)
        name = mine[0].name
        leavers = tuple(m.seat for m in mine)
        # The seats handed over and the AI's replies are saved in one transaction: both
        # happen or neither does.
        seats = tuple(SeatRecord(s.seat, None, clip_name(f"{s.name} (AI)"), True,
                                 left=user_id)
                      if s.seat in leavers else s for s in record.seats)
        handed = replace(record, seats=seats)
        try:
            if any(not s.ai for s in seats):
                ready = await self.pipeline.settled(
                    handed, game, lambda: self.pipeline.ai_chain(handed, game, Plan(state=state)))
                board = await self.pipeline.save(record, game, ready, seats=seats,
                                                 news=(Left(name=name),))
                return Conceded(name=name, board=board)
            # Nobody human is left: the game ends, with the leaver placed last.
            others = tuple(s.seat for s in record.seats if s.seat not in leavers)
            ranking = (others, leavers) if others else (leavers,)

            def ended() -> tuple[Result, str, str]:
                result = Result(ranking, game.rules.scores(state), "")
                return result, dumps(state), dumps_result(result)

            result, state_json, result_json = await asyncio.to_thread(ended)
            placements = [(user_id if s.seat in leavers else None, s.seat,
                           result.place_of(s.seat), s.seat in result.winners and bool(others))
                          for s in record.seats]
            last = Left(name=name, last=True)
            record = await self.store.games.finish(
                record.id, record.version, state_json=state_json, result_json=result_json,
                placements=placements, now=self.clock(), seats=seats,
                announce=showing(record, game, int(state["move"]), news=(last,)))
        except ConflictError:
            raise AlreadyMade(reason="leave") from None
        board = await asyncio.to_thread(self.pipeline.board_of, record, game, state, news=(last,))
        return Conceded(name=name, board=board)

    async def abort(self, channel_id: int, user_id: int, can_manage: bool) -> GameRecord | None:
        """End the channel's game without a result (see :meth:`Lobbies.check_may_end`).

        A game whose row is damaged cannot name its host, so only someone with
        Manage Channels may end it; ``None`` is returned for such a game.
        """
        try:
            record = await self.pipeline.current(channel_id, active=False)
        except CorruptRowError as err:
            if not can_manage:
                raise Damaged(game_id=err.game_id, what=err.what, manage=True) from None
            await self.store.games.abort(err.game_id, self.clock())
            return None
        self.lobbies.check_may_end(record, user_id, can_manage)
        await self.store.games.abort(record.id, self.clock())
        return record
