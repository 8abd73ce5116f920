"""Every game can be played whole from direct messages: a player on ``/notify how:dm``
makes each of their moves by clicks in their DMs, including the moves after which the
turn stays with them (a swap and then its Blast, a card placed and then a bear fed, a
monster bought and then paid for), where no new turn message comes."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from clicking import Clicker, components_of
from discord_harness import Session

from bot.games import GAMES
from bot.games.engine import Game, loads

ALICE, BOB = 370000000000000001, 370000000000000002
#: Sugarworks' shortest game, so that the whole suite stays quick.
OPTIONS = {"sugarworks": {"rounds": 4}}
#: The custom ids of a message that offers a move's next step.
STEPS = ("cb:b", "cb:d:", "cb:m:", "cb:s:")


class FromDirectMessages(Clicker):
    """Clicks only in the acting player's own direct messages."""

    def __init__(self, session: Session, game: Game) -> None:
        super().__init__(session, game)
        self.user: int | None = None

    def latest_board(self) -> int | None:
        """The newest message in the player's DMs that offers a step of a move."""
        rec = self.session.rec
        theirs = {channel for channel, user in rec.dm_channels.items() if user == self.user}
        offers = [int(m["id"]) for m in rec.messages.values()
                  if int(m["channel_id"]) in theirs
                  and any(c.get("custom_id", "").startswith(STEPS) for c in components_of(m))]
        return max(offers) if offers else None

    def next_message(self, clicked: int, new: Sequence[int]) -> int:
        return clicked  # a DM's next step replaces the one clicked


@pytest.mark.parametrize("slug", list(GAMES))
async def test_every_move_of_a_whole_game_can_be_made_from_direct_messages(
        tmp_path: Path, slug: str) -> None:
    game = GAMES[slug]
    session = await Session.open(tmp_path, GAMES)
    try:
        for user in (ALICE, BOB):
            await session.command(user, "notify", options={"how": "dm"})
        await session.start(slug, humans=[ALICE, BOB], ai=1, **OPTIONS.get(slug, {}))
        record = await session.bot.tables.store.open_game(session.channel_id)
        assert record is not None
        users = {s.seat: s.user_id for s in record.seats if s.user_id}
        player = FromDirectMessages(session, game)
        moves = kept = 0
        last_mover = None
        while True:
            record = await session.bot.tables.store.get_game(record.id)
            assert record is not None and record.state_json is not None
            state = loads(record.state_json, game)
            if game.result(state) is not None:
                break
            seat = min(s for s in game.to_act(state) if s in users)
            await session.bot.outbox.deliver()  # turn DMs go out through the outbox
            player.user = users[seat]
            assert player.latest_board() is not None, \
                f"{slug}, move {state['move']}: nothing to click in the DMs of seat {seat}"
            kept += last_mover == seat
            await player.move(users[seat], seat)
            last_mover = seat
            moves += 1
            assert moves < 800
        assert moves >= 8
    finally:
        await session.close()
