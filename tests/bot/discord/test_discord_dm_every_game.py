"""Every game can be played whole from direct messages: a player on ``/notify how:dm``
makes each of their moves by clicks in their DMs, including the moves after which the
turn stays with them (a swap and then its Blast, a card placed and then a bear fed, a
monster bought and then paid for), where no new turn message comes.

One live prompt per decision (issue 43): a move made from a DM leaves one DM message for
it, the prompt answered without buttons, or going on with the next choice and its
picture when the turn stays with the player; no other DM says the same thing again, and
an alert is said once by what a move makes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.games import GAMES
from bot.games.engine import ALERT, Engine, loads
from tests.support.clicking import Clicker, components_of
from tests.support.discord_harness import Session

ALICE, BOB = 370000000000000001, 370000000000000002
#: Sugarworks' shortest game, so that the whole suite stays quick.
OPTIONS = {"sugarworks": {"rounds": 4}}
#: The custom ids of a message that offers a move's next step.
STEPS = ("cb:b", "cb:d:", "cb:m:", "cb:s:")


class FromDirectMessages(Clicker):
    """Clicks only in the acting player's own direct messages."""

    def __init__(self, session: Session, game: Engine) -> None:
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
        record = await session.bot.tables.store.games.open_game(session.channel_id)
        assert record is not None
        users = {s.seat: s.user_id for s in record.seats if s.user_id}
        player = FromDirectMessages(session, game)
        moves = kept = went_on = prompts = 0
        last_mover = None
        while True:
            record = await session.bot.tables.store.games.get_game(record.id)
            assert record is not None and record.state_json is not None
            state = loads(record.state_json, game)
            if game.result(state) is not None:
                break
            seat = min(s for s in game.to_act(state) if s in users)
            await session.bot.outbox.deliver()  # turn DMs go out through the outbox
            user = player.user = users[seat]
            prompt = player.latest_board()
            assert prompt is not None, \
                f"{slug}, move {state['move']}: nothing to click in the DMs of seat {seat}"
            kept += last_mover == seat
            before = {u: set(dms_of(session, u)) for u in users.values()}
            texts = {m: session.rec.message(m)["content"] for u in users.values()
                     for m in dms_of(session, u)}
            await player.move(user, seat)
            await session.bot.outbox.deliver()
            last_mover = seat
            moves += 1
            assert moves < 800
            stored = await session.bot.tables.store.games.get_game(record.id)
            after = loads(stored.state_json, game)
            new = [m for m in dms_of(session, user) if m not in before[user]]
            # At most one new DM message for the mover: the prompt of a new decision.
            assert len(new) <= 1, [session.rec.message(m)["content"][:80] for m in new]
            for other in users.values():
                live_ones = [m for m in dms_of(session, other) if live(session, m)]
                # One live prompt at most; the answered ones keep no buttons.
                assert len(live_ones) <= 1, (slug, state["move"], other, live_ones)
                prompts += len([m for m in live_ones if m not in before[other]])
                # What hit a player is said once, in one of the DMs this move made or
                # changed (a later turn's catch-up recaps it in its place).
                changed = [m for m in dms_of(session, other)
                           if texts.get(m) != session.rec.message(m)["content"]]
                said = [line for m in changed for line in alerts(session, m)]
                assert len(said) == len(set(said)), said
            acts = game.result(after) is None and any(users[s] == user
                                                      for s in game.to_act(after))
            if acts and not new:
                # The turn stays with the player: the same message goes on, with a picture.
                went_on += 1
                shown = session.rec.message(prompt)
                assert live(session, prompt) and shown.get("attachments"), shown["content"]
            elif not acts:
                assert not live(session, prompt), session.rec.message(prompt)["content"]
        assert moves >= 8 and prompts >= 4
    finally:
        await session.close()


def dms_of(session: Session, user: int) -> list[int]:
    """The messages in ``user``'s direct messages, oldest first."""
    theirs = {channel for channel, other in session.rec.dm_channels.items() if other == user}
    return sorted(int(m["id"]) for m in session.rec.messages.values()
                  if int(m["channel_id"]) in theirs)


def live(session: Session, message_id: int) -> bool:
    return any(c.get("custom_id", "").startswith("cb:") for c in
               components_of(session.rec.message(message_id)))


def alerts(session: Session, message_id: int) -> list[str]:
    return [line.lstrip("> ") for line in session.rec.message(message_id)["content"].split("\n")
            if line.lstrip("> ").startswith(ALERT)]
