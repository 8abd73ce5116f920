"""Every registered game, through the real bot: at each hand-over the humans newly to act
are notified by a newly created message, once, and nobody else is (the mover only when
the turn comes back to them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games import GAMES
from bot.games.engine import loads
from tests.support.discord_harness import Session

ALICE, BOB = 350000000000000001, 350000000000000002
SEATS = {0: ALICE, 1: BOB}  # seat 2 is an AI
MOVES = 40


async def humans_to_act(session: Session, slug: str) -> list[int] | None:
    """The users who must act now, in seat order (``None`` once the game is over)."""
    record = await session.bot.tables.store.games.open_game(session.channel_id)
    if record is None or record.state_json is None:
        return None
    state = loads(record.state_json, GAMES[slug])
    return [SEATS[s] for s in sorted(GAMES[slug].to_act(state)) if s in SEATS]


@pytest.mark.parametrize("slug", sorted(GAMES))
async def test_each_hand_over_notifies_the_humans_newly_to_act_once(tmp_path: Path,
                                                                    slug: str) -> None:
    session = await Session.open(tmp_path, GAMES)
    try:
        await session.start(slug, humans=(ALICE, BOB), ai=1)
        hand_overs = 0
        for _ in range(MOVES):
            before = await humans_to_act(session, slug)
            if not before:
                break
            mover = before[0]
            offered = await session.suggest(mover)
            assert offered, f"{slug}: no move offered to a player who must act"
            played = (await session.state() or {})["move"]
            await session.play(mover, offered[0])
            state = await session.state()
            assert state is None or state["move"] > played, f"{slug}: {offered[0]} refused"
            after = await humans_to_act(session, slug) or []
            notified = session.rec.notified_users()
            assert len(notified) == len(set(notified)), f"{slug}: pinged twice: {notified}"
            assert set(notified) <= set(after), (slug, offered[0], notified, after)
            if mover in notified:
                # The turn came back to the mover: others acted after them (the AI), or a
                # joint decision they shared closed and a new one opened.
                assert state is not None
                assert state["move"] - played > 1 or len(before) > 1, (slug, offered[0])
            newly = set(after) - set(before) - {mover}
            assert newly <= set(notified), (slug, offered[0], newly, notified)
            hand_overs += bool(newly)
            for notice in session.rec.notified():
                assert notice.sent.created and not notice.sent.ephemeral
        assert hand_overs, f"{slug}: no move handed the turn to the other human"
    finally:
        await session.close()
