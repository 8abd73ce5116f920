"""One live prompt per decision (issue 43, point 3): every game played whole from direct
messages leaves one DM message per decision. A move made from a DM leaves that prompt,
answered and without buttons, or going on with the next choice and its picture when the
turn stays with the player; no other DM says the same thing again, and an alert is said
once by what a move makes."""

from __future__ import annotations

from pathlib import Path

import pytest
from clicking import components_of
from discord_harness import Session
from test_discord_dm_every_game import OPTIONS, FromDirectMessages

from bot.games import GAMES
from bot.games.engine import ALERT, loads

ALICE, BOB = 390000000000000001, 390000000000000002


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


@pytest.mark.parametrize("slug", list(GAMES))
async def test_a_whole_game_from_direct_messages_leaves_one_dm_message_per_decision(
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
        decisions = {user: 0 for user in users.values()}
        went_on = 0
        await session.bot.outbox.deliver()
        for _ in range(800):
            record = await session.bot.tables.store.get_game(record.id)
            state = loads(record.state_json, game)
            if game.result(state) is not None:
                break
            seat = min(s for s in game.to_act(state) if s in users)
            user = player.user = users[seat]
            prompt = player.latest_board()
            assert prompt is not None
            before = {u: set(dms_of(session, u)) for u in users.values()}
            texts = {m: session.rec.message(m)["content"] for u in users.values()
                     for m in dms_of(session, u)}
            await player.move(user, seat)
            await session.bot.outbox.deliver()
            after = loads((await session.bot.tables.store.get_game(record.id)).state_json, game)
            new = [m for m in dms_of(session, user) if m not in before[user]]
            # At most one new DM message for the mover: the prompt of a new decision.
            assert len(new) <= 1, [session.rec.message(m)["content"][:80] for m in new]
            for other in users.values():
                prompts = [m for m in dms_of(session, other) if live(session, m)]
                # One live prompt at most; the answered ones keep no buttons.
                assert len(prompts) <= 1, (slug, state["move"], other, prompts)
                decisions[other] += len([m for m in prompts if m not in before[other]])
            acts = game.result(after) is None and any(users[s] == user
                                                      for s in game.to_act(after))
            if acts and not new:
                # The turn stays with the player: the same message goes on, with a picture.
                went_on += 1
                shown = session.rec.message(prompt)
                assert live(session, prompt) and shown.get("attachments"), shown["content"]
            elif not acts:
                assert not live(session, prompt), session.rec.message(prompt)["content"]
            for other in users.values():
                # What hit a player is said once, in one of the DMs this move made or
                # changed (a later turn's catch-up recaps it in its place).
                changed = [m for m in dms_of(session, other)
                           if texts.get(m) != session.rec.message(m)["content"]]
                said = [line for m in changed for line in alerts(session, m)]
                assert len(said) == len(set(said)), said
        else:
            raise AssertionError("the game did not end")
        assert sum(decisions.values()) >= 4
        print(f"\n{slug}: DM prompts {decisions}, turns that stayed {went_on}")
    finally:
        await session.close()
