"""Playing: moves typed or clicked, the AI turns that follow, undo, conceding, aborting.

A move carries the token of the decision it was made for (see
:meth:`~bot.tables.core.TablesBase.wire_token`). When another seat's move is
saved first (two players answering a joint decision at once), the move is
applied again to the new state and saved, as long as its decision is still
open for its seat; only a move made for a situation that is gone is refused.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.games.engine import Game, GameError, Result, StaleActionError, State, dumps, loads
from bot.store import ActionRecord, ConflictError, CorruptRowError, GameRecord, SeatRecord
from bot.tables.core import (
    ALREADY_MADE,
    COMMIT_ATTEMPTS,
    LOG_LIMIT,
    AlreadyMadeError,
    Board,
    Checked,
    Conceded,
    Lobby,
    TableError,
    _Plan,
    clip_name,
    dumps_result,
    plural,
)
from bot.tables.lobby import Lobbies


class Plays(Lobbies):
    """The playing part of :class:`~bot.tables.Tables`."""

    async def _playable(self, channel_id: int, user_id: int, game_id: int | None,
                        ) -> tuple[GameRecord, Game, State, int]:
        if game_id is None:
            record = await self._current(channel_id)
        else:
            record = await self._by_id(game_id, channel_id)
            if record.status != "active":
                raise StaleActionError("That choice has expired: this game is over. "
                                       "`/game new` starts another.")
        game, state = self._state(record)
        return record, game, state, self._acting_seat(record, game, state, user_id)

    async def check_play(self, *, channel_id: int, user_id: int, text: str,
                         game_id: int | None = None, expected: str | int | None = None,
                         offered_at: int | None = None) -> Checked:
        """Refuse a move that cannot be played, without saving anything (it is quick).

        Says whether the move only continues the episode on show, so that the answer
        to the mover can stay private while the board message is edited.
        """
        record, game, state, seat = await self._playable(channel_id, user_id, game_id)
        token = await self._expected(record, game, state, seat, expected, offered_at)
        outcome = await asyncio.to_thread(game.apply, state, seat, text, token)
        key = game.episode(state)
        quiet = (key is not None and key == game.episode(outcome.state)
                 and record.board_message_id is not None)
        return Checked(quiet)

    async def play(self, *, channel_id: int, user_id: int, text: str,
                   game_id: int | None = None, expected: str | int | None = None,
                   offered_at: int | None = None) -> Board:
        """Apply a typed or clicked action, then any AI turns that follow; commit them at once.

        ``expected`` is the token of the button (or ``None`` for a typed move, which
        is then tied to the decision open when it arrived); ``offered_at`` the move
        number the button was made at, to say what happened since if it expired.
        """
        pinned = expected
        for attempt in range(COMMIT_ATTEMPTS):
            try:
                record, game, state, seat = await self._playable(channel_id, user_id, game_id)
                if pinned is None:
                    pinned = self.wire_token(game, state, seat)
                token = await self._expected(record, game, state, seat, pinned, offered_at)
                outcome = await asyncio.to_thread(game.apply, state, seat, text, token)
            except GameError:
                if attempt == 0:
                    raise
                # Someone else's move, saved first, settled what this one was for.
                raise AlreadyMadeError(ALREADY_MADE) from None
            plan = _Plan(state)
            self._record(plan, record, game, seat, user_id, outcome)
            plan = await asyncio.to_thread(self._ai_chain, record, game, plan)
            try:
                return await self._save(record, game, plan, episodes=True)
            except ConflictError:
                continue
        raise AlreadyMadeError("The game is busy right now; your move was not applied. "
                               "Try again in a moment.")

    async def play_many(self, *, channel_id: int, user_id: int, game_id: int,
                        expected: str | int | None, offered_at: int | None,
                        values: Sequence[str], check_only: bool = False) -> Board | Checked:
        """A multi-select menu's choice: the values make the notation of one action."""
        record, game, state, seat = await self._playable(channel_id, user_id, game_id)
        await self._expected(record, game, state, seat, expected, offered_at)
        menu = game.multi_select(state, seat)
        if menu is None:
            raise StaleActionError(await self._expired(record, offered_at))
        known = {value for value, _label in menu.options}
        chosen = list(dict.fromkeys(values))
        if any(v not in known for v in chosen):
            raise StaleActionError(await self._expired(record, offered_at))
        if not menu.min_values <= len(chosen) <= menu.max_values:
            raise TableError(f"Choose from {menu.min_values} to "
                             f"{plural(menu.max_values, 'item')}.")
        text = menu.notation(chosen)
        # A pick means exactly the dice picked: no abbreviation may widen it.
        game.parse(state, seat, text, exact=True)
        if check_only:
            return await self.check_play(channel_id=channel_id, user_id=user_id, text=text,
                                         game_id=game_id, expected=expected,
                                         offered_at=offered_at)
        return await self.play(channel_id=channel_id, user_id=user_id, text=text,
                               game_id=game_id, expected=expected, offered_at=offered_at)

    # ----------------------------------------------------------------- undo

    async def check_undo(self, channel_id: int, user_id: int,
                         ) -> tuple[GameRecord, Game, ActionRecord, list[ActionRecord]]:
        """What ``/game undo`` would take back: the caller's last move and the AI moves
        after it. Refuses unless nobody else acted since and nothing was revealed or drawn."""
        record = await self._current(channel_id)
        game, _state = self._state(record)
        if not self._seats_of(record, user_id):
            raise TableError("You are not playing in this game.")
        actions = await self.store.actions(record.id, last=LOG_LIMIT)
        humans = [a for a in actions if a.user_id is not None]
        if not humans:
            raise TableError("There is nothing of yours to undo yet.")
        last = humans[-1]
        names = {s.seat: s.name for s in record.seats}
        if last.user_id != user_id:
            raise TableError(f"You can only undo your own last move, before another player "
                             f"acts. The last player's move was {names.get(last.seat)}'s "
                             f"`{last.shown}`.")
        taken = [a for a in actions if a.n >= last.n]
        for action in taken:
            if not action.undoable:
                if action is last:
                    raise TableError(f"`{last.shown}` cannot be taken back: it revealed "
                                     f"something new (a random draw or hidden information).")
                raise TableError(f"`{last.shown}` cannot be taken back any more: "
                                 f"{names.get(action.seat)}'s `{action.shown}` after it revealed "
                                 f"something new (a random draw or hidden information).")
        if not last.snapshot:
            raise TableError(f"`{last.shown}` was played before this version of the bot kept "
                             f"what undo needs, so it cannot be taken back.")
        return record, game, last, taken

    async def undo(self, channel_id: int, user_id: int) -> Board:
        """Take back the caller's last move and the AI moves that answered it, by restoring
        the state saved before it."""
        record, game, last, taken = await self.check_undo(channel_id, user_id)
        before = await self.store.snapshot(record.id, last.n)
        if before is None:
            raise AlreadyMadeError("The game moved on before your undo arrived; nothing was "
                                   "taken back.")
        state = loads(before, game)
        try:
            record = await self.store.undo_to(record.id, record.version, n=last.n,
                                              state_json=dumps(state), now=self.clock())
        except ConflictError:
            raise AlreadyMadeError("The game moved on before your undo arrived; nothing was "
                                   "taken back.") from None
        name = next((s.name for s in record.seats if s.seat == last.seat), "")
        replies = len(taken) - 1
        also = f" and the {plural(replies, 'AI move')} after it" if replies else ""
        return self.board_of(record, game, state,
                             headline=f"{name} took back `{last.shown}`{also}.")

    # ----------------------------------------------------------------- leave, abort

    async def check_concede(self, channel_id: int, user_id: int) -> GameRecord:
        """Refuse ``/game leave`` from someone without a seat, before anything is posted."""
        record = await self._current(channel_id, active=False)
        if not self._seats_of(record, user_id):
            raise TableError("You are not playing in this game."
                             if record.status == "active" else "You have not joined this game.")
        return record

    async def concede(self, channel_id: int, user_id: int) -> Conceded | Lobby:
        """``/game leave``: leave a lobby, or hand your seat to an AI (the game ends if no
        humans remain)."""
        record = await self.check_concede(channel_id, user_id)
        if record.status == "lobby":
            return await self.leave_lobby(record.id, user_id)
        game, state = self._state(record)
        mine = self._seats_of(record, user_id)
        name = mine[0].name
        now = self.clock()
        try:
            for seat in mine:
                replaced = SeatRecord(seat.seat, None, clip_name(f"{seat.name} (AI)"), True)
                record = await self.store.replace_seat(record.id, record.version, replaced, now)
        except ConflictError:
            raise AlreadyMadeError("The game changed while you were leaving; try again.") from None
        if any(not s.ai for s in record.seats):
            plan = await asyncio.to_thread(self._ai_chain, record, game, _Plan(state))
            board = await self._commit(record, game, plan,
                                       headline=f"{name} left the game; an AI took their seat.")
            return Conceded(name, board)
        # Nobody human is left: the game ends, with the leaver placed last.
        leavers = tuple(m.seat for m in mine)
        others = tuple(s.seat for s in record.seats if s.seat not in leavers)
        ranking = (others, leavers) if others else (leavers,)
        result = Result(ranking, game.scores(state), f"{name} conceded.")
        placements = [(user_id if s.seat in leavers else None, s.seat,
                       result.place_of(s.seat), s.seat in result.winners and bool(others))
                      for s in record.seats]
        record = await self.store.finish(record.id, record.version, state_json=dumps(state),
                                         result_json=dumps_result(result),
                                         placements=placements, now=now)
        board = self.board_of(record, game, state, headline=f"{name} left the game, and no "
                              "players remain: the game is over.")
        return Conceded(name, board)

    async def abort(self, channel_id: int, user_id: int, can_manage: bool) -> GameRecord | None:
        """End the channel's game without a result: its host, or Manage Channels.

        A game whose row is damaged cannot name its host, so only someone with
        Manage Channels may end it; ``None`` is returned for such a game.
        """
        try:
            record = await self._current(channel_id, active=False)
        except CorruptRowError as err:
            if not can_manage:
                raise TableError(f"{err} Ending it takes the Manage Channels permission.") from None
            await self.store.abort(err.game_id, self.clock())
            return None
        self._check_may_end(record, user_id, can_manage)
        await self.store.abort(record.id, self.clock())
        return record
