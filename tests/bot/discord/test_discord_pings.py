"""Every hand-over is heard: whoever must act next is notified by a newly created message.

The harness copies Discord's rule that a mention notifies only in a newly created,
non-ephemeral message (never in an edit, nor in the followup that replaces a
"thinking" placeholder), and only the users ``allowed_mentions`` lets through.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.games.engine import Engine
from tests.support.discord_harness import EPHEMERAL, Sent, Session
from tests.support.race_game import CandyDash, CandyDuel, CandyRace

ALICE, BOB, CAROL = 320000000000000001, 320000000000000002, 320000000000000003


@pytest.fixture
async def session(tmp_path: Path) -> AsyncIterator[Session]:
    games = {g.slug: g for g in (Engine(CandyRace()), Engine(CandyDash()), Engine(CandyDuel()))}
    opened = await Session.open(tmp_path, games)
    yield opened
    await opened.close()


# --------------------------------------------------------------------------- the harness


async def test_the_harness_notifies_only_for_newly_created_public_messages(
        session: Session) -> None:
    """Discord's rule, checked on the harness itself with discord.py's own calls."""
    channel = session.bot.get_partial_messageable(session.channel_id)
    everyone = discord.AllowedMentions(users=True)
    session.rec.clear()
    sent = await channel.send(f"<@{ALICE}> <@{BOB}>", allowed_mentions=everyone)
    await channel.get_partial_message(sent.id).edit(content=f"<@{CAROL}>",
                                                    allowed_mentions=everyone)
    await channel.send(f"<@{ALICE}> <@{BOB}>",
                       allowed_mentions=discord.AllowedMentions(users=[discord.Object(BOB)]))
    await channel.send(f"<@{CAROL}>", allowed_mentions=discord.AllowedMentions.none())
    assert [sorted(n.users) for n in session.rec.notified()] == [[ALICE, BOB], [BOB]]


def test_an_ephemeral_message_notifies_nobody() -> None:
    def followup(flags: int) -> Sent:
        return Sent("webhook", "POST", "/webhooks/1/token", {
            "content": f"<@{ALICE}>", "flags": flags, "allowed_mentions": {"parse": ["users"]}})

    assert followup(0).notifies() == {ALICE}
    assert followup(EPHEMERAL).notifies() == frozenset()


async def test_a_typed_move_thinks_privately_and_its_board_is_the_message_that_pings(
        session: Session) -> None:
    await session.start("candy-dash", humans=(ALICE, BOB))
    state = await session.state()
    assert state is not None
    first = ALICE if state["turn"] == 0 else BOB
    await session.play(first, "step")
    # The "thinking" note only the mover sees is replaced by their answer...
    (placeholder,) = [s for s in session.rec.sent if s.kind == 5]
    assert int(placeholder.payload["data"]["flags"]) & EPHEMERAL
    assert session.answer().ephemeral and session.answer().notifies() == frozenset()
    # ...and the board is a new message: the one that tells the next player it is theirs.
    (board,) = [s for s in session.rec.public() if s.pngs]
    nxt = BOB if first == ALICE else ALICE
    assert board.created and not board.edit and board.notifies() == {nxt}
    assert board.content.startswith(f"🟧■ <@{nxt}>: your turn" if nxt == BOB
                                    else f"🟦● <@{nxt}>: your turn")


async def test_a_repeated_nonce_creates_one_message(session: Session) -> None:
    channel = session.bot.get_partial_messageable(session.channel_id)
    session.rec.clear()
    session.rec.fail_when(lambda s: s.method == "POST", status=503, accepted=True)
    with pytest.raises(discord.DiscordServerError):
        await channel.send(f"<@{BOB}>", nonce="n-1",
                           allowed_mentions=discord.AllowedMentions(users=True))
    again = await channel.send(f"<@{BOB}>", nonce="n-1",
                               allowed_mentions=discord.AllowedMentions(users=True))
    assert session.rec.notified_users() == [BOB]
    assert again.id == session.rec.sent[0].message_id


# --------------------------------------------------------------------------- pings


def turn_of(state: dict[str, Any], *users: int) -> int:
    return users[state["turn"]]


async def test_after_a_typed_move_the_next_player_is_notified(session: Session) -> None:
    await session.start("candy-dash", humans=(ALICE, BOB))
    state = await session.state()
    assert state is not None
    mover = turn_of(state, ALICE, BOB)
    other = BOB if mover == ALICE else ALICE
    await session.play(mover, "step")
    assert session.rec.notified_users() == [other]


async def test_after_a_button_the_next_player_is_notified_once(session: Session) -> None:
    board = await session.start("candy-dash", humans=(ALICE, BOB))
    state = await session.state()
    assert state is not None
    mover = turn_of(state, ALICE, BOB)
    await session.click(mover, board, ":step")
    assert session.rec.notified_users() == [BOB if mover == ALICE else ALICE]


async def test_a_lobby_start_notifies_whoever_acts_first_the_host_included(
        session: Session) -> None:
    # Everybody bids at once at the start of Candy Duel: all three are handed a turn.
    lobby = await session.command(ALICE, "game", "new", {"game": "candy-duel"})
    await session.click(BOB, lobby, ":join")
    await session.click(CAROL, lobby, ":join")
    await session.click(ALICE, lobby, ":start")
    assert session.rec.notified_users() == [ALICE, BOB, CAROL]
    (ping,) = session.rec.notified()
    assert ping.sent.created and ping.sent.content.startswith(
        f"🟦● <@{ALICE}>, 🟧■ <@{BOB}> and 🟩▲ <@{CAROL}>")


async def test_a_move_inside_your_own_turn_pings_nobody(session: Session) -> None:
    await session.start("candy-duel", humans=(ALICE, BOB, CAROL))
    await session.play(BOB, "bid 3")
    assert session.rec.notified_users() == []  # Bob answered; Alice and Carol still decide


async def test_the_turn_coming_back_after_the_ai_pings_the_mover(session: Session) -> None:
    await session.start("candy-dash", humans=(ALICE,), ai=1)
    for _ in range(3):
        state = await session.state()
        assert state is not None and state["turn"] == 0
        await session.play(ALICE, "step")
        # The AI answered and handed the turn back: Alice hears it on a newly created message.
        assert session.rec.notified_users() == [ALICE]


async def test_a_joint_decision_pings_once_and_its_resolution_pings_the_winner(
        session: Session) -> None:
    await session.start("candy-duel", humans=(ALICE, BOB, CAROL))
    await session.play(BOB, "bid 3")
    await session.play(ALICE, "bid 1")
    assert session.rec.notified_users() == []  # Carol still waits: no second ping
    await session.play(CAROL, "bid 0")
    assert session.rec.notified_users() == [BOB]  # Bob won the round and takes


async def test_the_end_of_an_ai_chain_notifies_the_human_it_hands_to(session: Session) -> None:
    await session.start("candy-dash", humans=(ALICE, BOB), ai=1)
    for _ in range(6):
        state = await session.state()
        assert state is not None
        seats = (ALICE, BOB, None)
        mover = seats[state["turn"]]
        assert mover is not None  # the AI never keeps the turn
        await session.play(mover, "step")
        after = await session.state()
        assert after is not None
        assert session.rec.notified_users() == [seats[after["turn"]]]


async def test_mentions_in_pings_are_limited_to_the_players_handed_the_turn(
        session: Session) -> None:
    await session.start("candy-dash", humans=(ALICE, BOB))
    state = await session.state()
    assert state is not None
    await session.play(turn_of(state, ALICE, BOB), "step")
    for notice in session.rec.notified():
        allowed = notice.sent.body["allowed_mentions"]
        assert allowed.get("parse") == [] and allowed.get("roles", []) == []
        assert {int(u) for u in allowed["users"]} == set(notice.users)
    assert not any(int(s.body.get("flags") or 0) & EPHEMERAL for s in
                   (n.sent for n in session.rec.notified()))


async def test_a_reminder_notifies_the_sleeper(session: Session) -> None:
    await session.start("candy-dash", humans=(ALICE, BOB), reminder_hours=1.0)
    state = await session.state()
    assert state is not None
    session.rec.clear()
    session.clock.advance(1.5)
    await session.bot.send_due()
    assert session.rec.notified_users() == [turn_of(state, ALICE, BOB)]


async def test_an_ai_take_over_notifies_the_next_human(session: Session) -> None:
    await session.start("candy-dash", humans=(ALICE, BOB), reminder_hours=1.0,
                        ai_takeover=True)
    state = await session.state()
    assert state is not None
    sleeper = turn_of(state, ALICE, BOB)
    for _ in range(4):
        session.rec.clear()
        session.clock.advance(1.5)
        await session.bot.send_due()
    after = await session.state()
    assert after is not None and turn_of(after, ALICE, BOB) != sleeper
    assert session.rec.notified_users() == [turn_of(after, ALICE, BOB)]


async def test_leaving_hands_the_turn_on_with_a_ping(session: Session) -> None:
    await session.start("candy-dash", humans=(ALICE, BOB, CAROL))
    state = await session.state()
    assert state is not None
    seats = (ALICE, BOB, CAROL)
    leaver = seats[state["turn"]]
    await session.command(leaver, "game", "leave")
    after = await session.state()
    assert after is not None
    assert session.rec.notified_users() == [seats[after["turn"]]]


async def test_undo_and_a_reposted_board_ping_nobody(session: Session) -> None:
    await session.start("candy-dash", humans=(ALICE, BOB))
    state = await session.state()
    assert state is not None
    mover = turn_of(state, ALICE, BOB)
    await session.play(mover, "step")
    await session.command(mover, "game", "undo")
    assert session.rec.notified_users() == []
    await session.command(BOB, "game", "board")
    assert session.rec.notified_users() == []


async def test_messages_per_action_are_as_docs_discord_md_says(session: Session) -> None:
    """A hand-over costs one public message (the board, carrying the ping), one
    notification, whether the move was typed or clicked."""
    def public() -> tuple[int, int]:
        shown = [s for s in session.rec.sent if not s.ephemeral and (s.content or s.files)]
        return (len([s for s in shown if s.created]),
                len([s for s in shown if s.replaced]))

    board = await session.start("candy-dash", humans=(ALICE, BOB))
    state = await session.state()
    assert state is not None
    first = turn_of(state, ALICE, BOB)
    await session.play(first, "step")
    assert public() == (1, 0) and len(session.rec.notified_users()) == 1
    board = next(s for s in session.rec.public() if s.custom_ids)
    await session.click(BOB if first == ALICE else ALICE, board, ":step")
    assert public() == (1, 0) and len(session.rec.notified_users()) == 1


async def test_a_refused_board_still_pings_and_tells_the_player_the_truth(
        session: Session) -> None:
    lobby = await session.command(ALICE, "game", "new", {"game": "candy-duel"})
    await session.click(BOB, lobby, ":join")
    session.rec.fail_when(lambda s: bool(s.pngs), status=503)
    await session.click(ALICE, lobby, ":start")
    told = session.answer()
    assert told.content.startswith("Done, and saved (move 0).")
    assert "`/game board` shows it" in told.content and "went wrong" not in told.content
    assert session.rec.notified_users() == [ALICE, BOB]  # both bid at once
    assert await session.state() is not None
