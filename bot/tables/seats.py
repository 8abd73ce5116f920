"""The table's say over a seat an AI stands in for: give it to the AI for good, or open it
for a new player, by a majority of the other players; and a newcomer taking an open seat.

A vote only concerns a seat an AI is standing in for (its player was away past the
take-over deadline). Each other human at the table has one vote, their latest; the choice
that more than half of them make carries at once. The player's own return (a move, "I'm
back", ``game back``) ends the vote. A seat given to the AI is an AI seat from then on,
and its player counts as having left (a loss for them alone when the game is rated). An
opened seat is played by the AI until someone not at the table takes it with ``game sit``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace

from bot.refusals import (
    AlreadySeated,
    LimitReached,
    NoOpenSeat,
    NotUpForVote,
    OthersVote,
    VoteWhat,
)
from bot.store import GameRecord, SeatRecord
from bot.tables.core import (
    MAX_REMINDERS,
    Board,
    Pipeline,
    Plan,
    check_shown,
    clip_name,
    seats_of,
)
from bot.tables.news import News, SeatGiven, SeatTaken

#: What a vote may give a seat to: the AI for good, or a new player.
GIVE = ("ai", "newcomer")


@dataclass(frozen=True, kw_only=True)
class SeatVote:
    """Where a vote stands after a player voted: ``board`` is set when it carried."""

    player: str
    give: str
    votes: int
    needed: int
    board: Board | None = None


class SeatVotes:
    """Votes on stood-in seats and newcomers taking opened ones."""

    def __init__(self, pipeline: Pipeline) -> None:
        self.pipeline = pipeline
        self.store = pipeline.store
        self.clock = pipeline.clock

    async def check_vote(self, channel_id: int, voter_id: int, player_id: int,
                         give: str) -> tuple[GameRecord, SeatRecord, set[int]]:
        """Refuse a vote that cannot be cast, changing nothing; the game, the seat voted
        on and who may vote on it."""
        if give not in GIVE:
            raise VoteWhat()
        record = await self.pipeline.current(channel_id)
        seat = next((s for s in record.seats if s.user_id == player_id and s.standing_in),
                    None) or await self._silent_seat(record, player_id)
        if seat is None:
            raise NotUpForVote()
        voters = {s.user_id for s in record.seats
                  if s.user_id is not None and not s.ai and s.user_id != player_id}
        if voter_id not in voters:
            raise OthersVote()
        check_shown(record)
        return record, seat, voters

    async def vote_seat(self, channel_id: int, voter_id: int, player_id: int,
                        give: str) -> SeatVote:
        """``voter_id`` votes to ``give`` the seat of ``player_id`` (an AI stands in for
        them) to the AI for good or to a newcomer; carried at a majority of the others."""
        record, seat, voters = await self.check_vote(channel_id, voter_id, player_id, give)
        tally = await self.store.games.vote_seat(record.id, player_id, voter_id, give, self.clock())
        votes = sum(1 for voter, said in tally.items() if voter in voters and said == give)
        needed = len(voters) // 2 + 1
        if votes < needed:
            return SeatVote(player=seat.name, give=give, votes=votes, needed=needed)
        given = SeatRecord(seat.seat, None, seat.name, True, open=give == "newcomer",
                           left=player_id)
        board = await self._reseat(record, given, SeatGiven(name=seat.name, to=give,
                                                            votes=votes, voters=len(voters)))
        await self.store.games.clear_seat_votes(record.id, player_id)
        return SeatVote(player=seat.name, give=give, votes=votes, needed=needed, board=board)

    async def check_sit(self, channel_id: int, user_id: int) -> tuple[GameRecord, SeatRecord]:
        """Refuse ``game sit`` when there is no seat for the caller, changing nothing;
        the game and its open seat."""
        record = await self.pipeline.current(channel_id)
        if seats_of(record, user_id):
            raise AlreadySeated()
        seat = next((s for s in record.seats if s.open), None)
        if seat is None:
            raise NoOpenSeat()
        check_shown(record)
        _hosting, seated, _server = await self.store.games.open_counts(user_id, None)
        if seated >= self.pipeline.limits.games_per_person:
            raise LimitReached(limit="games", allowed=self.pipeline.limits.games_per_person)
        return record, seat

    async def sit(self, channel_id: int, user_id: int, name: str) -> Board:
        """``game sit``: a player not at the table takes a seat the table opened (not past
        the number of games one person may sit in)."""
        async with self.pipeline.seating:
            record, seat = await self.check_sit(channel_id, user_id)
            taken = SeatRecord(seat.seat, user_id, clip_name(name), False)
            return await self._reseat(record, taken,
                                      SeatTaken(name=taken.name, previous=seat.name))

    async def _silent_seat(self, record: GameRecord, player_id: int) -> SeatRecord | None:
        """The seat of ``player_id`` if the game waits on them and every reminder has gone
        unanswered (a table whose host turned the AI take-over off is not stuck for good:
        the others can vote)."""
        if record.reminders_sent < MAX_REMINDERS:
            return None
        game, state = await asyncio.to_thread(self.pipeline.state, record)
        return next((s for s in self.pipeline.humans_to_act(record, game, state)
                     if s.user_id == player_id), None)

    async def _reseat(self, record: GameRecord, seat: SeatRecord, news: News) -> Board:
        """Save ``seat`` in place of the one with its number, telling ``news``; an AI that
        now plays a seat whose turn it is moves at once."""
        seats = tuple(seat if s.seat == seat.seat else s for s in record.seats)
        game = self.pipeline.game(record.game)
        state = (await asyncio.to_thread(self.pipeline.state, record))[1]
        reseated = replace(record, seats=seats)
        ready = await self.pipeline.settled(
            reseated, game, lambda: self.pipeline.ai_chain(reseated, game, Plan(state=state)))
        return await self.pipeline.commit(record, game, ready, seats=seats, news=(news,))
