"""Two bot processes on one database (as two shards would be), on SQLite and on
PostgreSQL: a game begun through one is played through either, simultaneous moves are
applied once, the same interaction delivered to both changes the game once, and the bot
never registers commands when it starts."""

from __future__ import annotations

from typing import Any

from bot.games import GAMES
from bot.games.engine import loads
from bot.store import GameRecord
from tests.support.discord_harness import Clock, Recorder, Session, settle, start_bot

ALICE = 340000000000000001


async def two_bots(db: str) -> tuple[Session, Session]:
    """Two bots on one database behind one Discord stand-in."""
    rec, clock = Recorder(), Clock()
    bots = [await start_bot(db, clock, GAMES, rec) for _ in range(2)]
    return Session(*bots[0], rec, clock), Session(*bots[1], rec, clock)


async def alices_first_move(first: Session) -> tuple[GameRecord, str]:
    """A Sugar Blast game against an AI begun through ``first``; Alice's first move."""
    game = GAMES["sugar-blast"]
    await first.start(game.slug, humans=(ALICE,), ai=1)
    record = await first.bot.tables.store.games.open_game(first.channel_id)
    assert record is not None
    (seat,) = [s.seat for s in record.seats if not s.ai]
    return record, game.ai_action(loads(record.state_json or "", game), seat).notation


def deliver(session: Session, payload: dict[str, Any]) -> None:
    """Hand ``payload`` to ``session``'s bot as its gateway would (answers recorded)."""
    session.rec.channels[payload["token"]] = int(payload["channel_id"])
    session.bot._connection.parse_interaction_create(dict(payload))  # type: ignore[arg-type]


async def test_a_game_begun_on_one_process_is_played_to_the_end_through_both(
        db_target: str) -> None:
    first, second = await two_bots(db_target)
    try:
        game = GAMES["sugar-blast"]
        await first.start(game.slug, humans=(ALICE,), ai=1)
        record = await first.bot.tables.store.games.open_game(first.channel_id)
        assert record is not None
        moves = 0
        while record.status == "active":
            state = loads(record.state_json or "", game)
            (seat,) = [s.seat for s in record.seats if not s.ai]
            action = game.ai_action(state, seat)
            through = (first, second)[moves % 2]
            answer = await through.play(ALICE, action.notation)
            assert not answer.ephemeral, answer.content
            moves += 1
            record = await first.bot.tables.store.games.get_game(record.id)
        assert moves > 2
        assert not any("/commands" in sent.path for sent in first.rec.sent)
    finally:
        await first.close()
        await second.close()


async def test_one_move_sent_to_both_processes_at_once_is_applied_once_and_the_other_told(
        db_target: str) -> None:
    first, second = await two_bots(db_target)
    try:
        record, move = await alices_first_move(first)
        first.rec.clear()
        for session in (first, second):
            deliver(session, session.gw.command(ALICE, "play", options={"action": move}))
        await settle()
        after = await first.bot.tables.store.games.get_game(record.id)
        mine = [a for a in await first.bot.tables.store.moves.actions(record.id)
                if a.user_id == ALICE]
        assert len(mine) == 1, (record.version, after.version)
        told = sorted(s.content for s in first.rec.private())
        assert len(told) == 2, told
        assert "not applied" in told[0] and told[1] == f"You played `{move}`.", told
    finally:
        await first.close()
        await second.close()


async def test_the_same_interaction_delivered_to_both_processes_changes_the_game_once(
        db_target: str) -> None:
    first, second = await two_bots(db_target)
    try:
        store = first.bot.tables.store
        record, move = await alices_first_move(first)
        payload = first.gw.command(ALICE, "play", options={"action": move})
        first.rec.clear()
        # One delivery first, the other once it is saved: Discord refuses the second's
        # answer (the interaction was answered), so it stops there, saying nothing; and
        # the move is saved under the interaction's key, which a replay would meet.
        deliver(first, payload)
        await settle()
        answered = len(first.rec.sent)
        deliver(second, payload)
        await settle()
        mine = [a for a in await store.moves.actions(record.id) if a.user_id == ALICE]
        assert len(mine) == 1
        assert await store.moves.move_of(int(payload["id"])) == (record.id, mine[0].n)
        told = [s.content for s in first.rec.private()]
        assert told == [f"You played `{move}`."], told
        refused = first.rec.sent[answered:]
        assert [s.failed for s in refused] == [400], "only the second answer, refused"
    finally:
        await first.close()
        await second.close()
