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
from dataclasses import dataclass, replace

from bot.games.engine import (
    Action,
    Game,
    GameError,
    MultiSelect,
    Result,
    StaleActionError,
    State,
    dumps,
    loads,
)
from bot.store import (
    ActionRecord,
    AlreadyDoneError,
    ConflictError,
    CorruptRowError,
    GameRecord,
    SeatRecord,
)
from bot.tables.core import (
    ALREADY_MADE,
    COMMIT_ATTEMPTS,
    LOG_LIMIT,
    AlreadyMadeError,
    Board,
    Checked,
    Conceded,
    Lobby,
    Sketch,
    TableError,
    _Expired,
    _Plan,
    _Ready,
    clip_name,
    dumps_result,
    plural,
)
from bot.tables.lobby import Lobbies


@dataclass(frozen=True)
class Choosing:
    """A player part-way through choosing a move by clicks: their legal moves now.

    Only ever shown to that player (the move builder's private steps).
    """

    record: GameRecord
    game: Game
    state: State
    seat: int
    legal: tuple[Action, ...]
    #: The token buttons for ``seat`` carry now.
    token: str
    multi: MultiSelect | None = None

    @property
    def move(self) -> int:
        return int(self.state["move"])


class Plays(Lobbies):
    """The playing part of :class:`~bot.tables.Tables`."""

    async def choosing(self, *, channel_id: int, user_id: int, game_id: int,
                       expected: str | int | None = None,
                       offered_at: int | None = None) -> Choosing:
        """The caller's legal moves, for choosing one by clicks; refuses a stale token
        (saying what happened since ``offered_at``) and a player who may not act."""
        record, game = await self._playable(channel_id, game_id)

        def compute() -> Choosing:
            state, seat = self._seated(record, game, user_id)
            self._token_for(game, state, seat, expected)
            legal = tuple(game.legal_actions(state, seat))
            if not legal:
                raise TableError(f"It is not your turn: waiting for "
                                 f"{self._waiting_for(record, game, state)}.")
            return Choosing(record, game, state, seat, legal,
                            self.wire_token(game, state, seat), game.multi_select(state, seat))

        try:
            return await asyncio.to_thread(compute)
        except _Expired:
            raise StaleActionError(await self._expired(record, offered_at)) from None

    async def _playable(self, channel_id: int, game_id: int | None) -> tuple[GameRecord, Game]:
        """The game a move is for: the channel's, or the one its button names if still on."""
        if game_id is None:
            record = await self._current(channel_id)
        else:
            record = await self._by_id(game_id, channel_id)
            if record.status != "active":
                raise StaleActionError("That choice has expired: this game is over. "
                                       "`/game new` starts another.")
        return record, self.game(record.game)

    def _seated(self, record: GameRecord, game: Game, user_id: int) -> tuple[State, int]:
        """The stored state and the caller's seat that acts in it (runs in a worker thread)."""
        state = self._state(record)[1]
        return state, self._acting_seat(record, game, state, user_id)

    def _applied(self, record: GameRecord, game: Game, user_id: int, text: str,
                 pinned: str | int | None) -> tuple[str | int | None, _Plan]:
        """Read the state, check the token and apply the player's move (runs in a worker
        thread). Returns the token the move is tied to, and the plan holding the move."""
        state, seat = self._seated(record, game, user_id)
        if pinned is None:
            pinned = self.wire_token(game, state, seat)
        token = self._token_for(game, state, seat, pinned)
        plan = _Plan(state)
        self._record(plan, record, game, seat, user_id, game.apply(state, seat, text, token))
        return pinned, plan

    def _move(self, record: GameRecord, game: Game, user_id: int, text: str,
              pinned: str | int | None, now: float) -> tuple[str | int | None, _Ready]:
        """Everything of a move that is computation, in one go (runs in a worker thread):
        the player's move, the AI seats' answers, the prepared commit."""
        pinned, plan = self._applied(record, game, user_id, text, pinned)
        return pinned, self._ready(record, game, self._ai_chain(record, game, plan), now)

    def _checked(self, record: GameRecord, game: Game, user_id: int, text: str,
                 expected: str | int | None) -> Checked:
        """:meth:`check_play`'s computation (runs in a worker thread): the move applied,
        kept for :meth:`play`. AI seats answer only in :meth:`play`, after the player's
        interaction is acknowledged."""
        pinned, plan = self._applied(record, game, user_id, text, expected)
        key = game.episode(plan.before)
        quiet = (key is not None and key == game.episode(plan.state)
                 and record.board_message_id is not None)
        return Checked(quiet, (record, pinned, plan))

    async def check_play(self, *, channel_id: int, user_id: int, text: str,
                         game_id: int | None = None, expected: str | int | None = None,
                         offered_at: int | None = None,
                         interaction_id: int | None = None) -> Checked:
        """Refuse a move that cannot be played, without saving anything (it is quick).

        Says whether the move only continues the episode on show, so that the answer
        to the mover can stay private while the board message is edited. An
        ``interaction_id`` that already made its move is refused as such.
        """
        if interaction_id is not None and await self.store.move_of(interaction_id):
            raise AlreadyMadeError(str(AlreadyDoneError()))
        record, game = await self._playable(channel_id, game_id)
        if any(s.standing_in for s in self._seats_of(record, user_id)):
            # A player who acts is back: the AI standing in for them gives the seat back.
            record = (await self._hand_back(record, user_id)).record
        try:
            return await asyncio.to_thread(self._checked, record, game, user_id, text, expected)
        except _Expired:
            raise StaleActionError(await self._expired(record, offered_at)) from None

    async def play(self, *, channel_id: int, user_id: int, text: str,
                   game_id: int | None = None, expected: str | int | None = None,
                   offered_at: int | None = None, interaction_id: int | None = None,
                   checked: Checked | None = None, sketch: Sketch | None = None) -> Board:
        """Apply a typed or clicked action, then any AI turns that follow; commit them at once.

        ``expected`` is the token of the button (or ``None`` for a typed move, which
        is then tied to the decision open when it arrived); ``offered_at`` the move
        number the button was made at, to say what happened since if it expired.
        ``interaction_id`` (the Discord interaction asking) is saved with the move, so the
        same interaction delivered again, here or to another process, plays it once.
        The computing happens in a worker thread; the event loop only awaits the store.
        ``checked`` (what :meth:`check_play` said of this very move) spares reading and
        applying the move again; if the game moved on since, the move is worked out
        afresh as after any lost race. ``sketch`` is handed the board's view before the
        commit (see :data:`~bot.tables.core.Sketch`).
        """
        async with self._working:
            return await self._play(channel_id, user_id, text, game_id, expected, offered_at,
                                    interaction_id, checked, sketch)

    async def _play(self, channel_id: int, user_id: int, text: str, game_id: int | None,
                    expected: str | int | None, offered_at: int | None,
                    interaction_id: int | None, checked: Checked | None,
                    sketch: Sketch | None) -> Board:
        first = 0
        if checked is not None and checked.prepared is not None:
            record, _token, plan = checked.prepared
            game = self.game(record.game)
            ready = await self._settled(record, game, lambda: self._ai_chain(record, game, plan))
            try:
                return await self._save(record, game, ready, episodes=True,
                                        interaction_id=interaction_id, sketch=sketch)
            except AlreadyDoneError as exc:
                raise AlreadyMadeError(str(exc)) from None
            except ConflictError:
                first = 1  # another move was saved first: the race is lost once already
        pinned = expected
        for attempt in range(first, COMMIT_ATTEMPTS):
            try:
                record, game = await self._playable(channel_id, game_id)
                pinned, ready = await asyncio.to_thread(self._move, record, game, user_id, text,
                                                        pinned, self.clock())
            except _Expired:
                if attempt == 0:
                    raise StaleActionError(await self._expired(record, offered_at)) from None
                raise AlreadyMadeError(ALREADY_MADE) from None
            except GameError:
                if attempt == 0:
                    raise
                # Someone else's move, saved first, settled what this one was for.
                raise AlreadyMadeError(ALREADY_MADE) from None
            try:
                return await self._save(record, game, ready, episodes=True,
                                        interaction_id=interaction_id, sketch=sketch)
            except AlreadyDoneError as exc:
                raise AlreadyMadeError(str(exc)) from None
            except ConflictError:
                continue
        raise AlreadyMadeError("The game is busy right now; your move was not applied. "
                               "Try again in a moment.")

    def _picked(self, record: GameRecord, game: Game, user_id: int, expected: str | int | None,
                values: Sequence[str]) -> str:
        """The notation a multi-select pick makes (runs in a worker thread)."""
        state, seat = self._seated(record, game, user_id)
        self._token_for(game, state, seat, expected)
        menu = game.multi_select(state, seat)
        if menu is None:
            raise _Expired("That choice has expired.")
        known = {value for value, _label in menu.options}
        chosen = list(dict.fromkeys(values))
        if any(v not in known for v in chosen):
            raise _Expired("That choice has expired.")
        if not menu.min_values <= len(chosen) <= menu.max_values:
            raise TableError(f"Choose from {menu.min_values} to "
                             f"{plural(menu.max_values, 'item')}.")
        text = menu.notation(chosen)
        # A pick means exactly the dice picked: no abbreviation may widen it.
        game.parse(state, seat, text, exact=True)
        return text

    async def play_many(self, *, channel_id: int, user_id: int, game_id: int,
                        expected: str | int | None, offered_at: int | None,
                        values: Sequence[str], check_only: bool = False,
                        interaction_id: int | None = None,
                        sketch: Sketch | None = None) -> Board | Checked:
        """A multi-select menu's choice: the values make the notation of one action."""
        record, game = await self._playable(channel_id, game_id)
        try:
            text = await asyncio.to_thread(self._picked, record, game, user_id, expected, values)
        except _Expired:
            raise StaleActionError(await self._expired(record, offered_at)) from None
        if check_only:
            return await self.check_play(channel_id=channel_id, user_id=user_id, text=text,
                                         game_id=game_id, expected=expected,
                                         offered_at=offered_at)
        return await self.play(channel_id=channel_id, user_id=user_id, text=text,
                               game_id=game_id, expected=expected, offered_at=offered_at,
                               interaction_id=interaction_id, sketch=sketch)

    # ----------------------------------------------------------------- undo

    async def check_undo(self, channel_id: int, user_id: int,
                         ) -> tuple[GameRecord, Game, ActionRecord, list[ActionRecord]]:
        """What ``/game undo`` would take back: the caller's last move and the AI moves
        after it. Refuses unless nobody else acted since and nothing was revealed or drawn."""
        record = await self._current(channel_id)
        game, _state = await asyncio.to_thread(self._state, record)
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
        state, state_json = await asyncio.to_thread(_restored, before, game)
        try:
            record = await self.store.undo_to(record.id, record.version, n=last.n,
                                              state_json=state_json, now=self.clock())
        except ConflictError:
            raise AlreadyMadeError("The game moved on before your undo arrived; nothing was "
                                   "taken back.") from None
        name = next((s.name for s in record.seats if s.seat == last.seat), "")
        replies = len(taken) - 1
        also = f" and the {plural(replies, 'AI move')} after it" if replies else ""
        return await asyncio.to_thread(self.board_of, record, game, state,
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
        game, state = await asyncio.to_thread(self._state, record)
        mine = self._seats_of(record, user_id)
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
                ready = await self._settled(handed, game,
                                            lambda: self._ai_chain(handed, game, _Plan(state)))
                board = await self._save(record, game, ready, seats=seats, headline=(
                    f"{name} left the game; an AI took their seat."))
                return Conceded(name, board)
            # Nobody human is left: the game ends, with the leaver placed last.
            others = tuple(s.seat for s in record.seats if s.seat not in leavers)
            ranking = (others, leavers) if others else (leavers,)

            def ended() -> tuple[Result, str, str]:
                result = Result(ranking, game.scores(state), f"{name} conceded.")
                return result, dumps(state), dumps_result(result)

            result, state_json, result_json = await asyncio.to_thread(ended)
            placements = [(user_id if s.seat in leavers else None, s.seat,
                           result.place_of(s.seat), s.seat in result.winners and bool(others))
                          for s in record.seats]
            record = await self.store.finish(record.id, record.version, state_json=state_json,
                                             result_json=result_json, placements=placements,
                                             now=self.clock(), seats=seats)
        except ConflictError:
            raise AlreadyMadeError("The game changed while you were leaving; try again.") from None
        board = await asyncio.to_thread(self.board_of, record, game, state, headline=(
            f"{name} left the game, and no players remain: the game is over."))
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


def _restored(snapshot: str, game: Game) -> tuple[State, str]:
    """The state an undo goes back to, read and written again as the store keeps states."""
    state = loads(snapshot, game)
    return state, dumps(state)
