"""Two bot processes on one database (as two shards would be): a game begun through one
is played through either, and the bot never registers commands when it starts."""

from __future__ import annotations

from pathlib import Path

from discord_harness import Clock, Recorder, Session, settle, start_bot

from bot.games import GAMES
from bot.games.engine import loads

ALICE = 340000000000000001


async def two_bots(folder: Path) -> tuple[Session, Session]:
    """Two bots on one database behind one Discord stand-in."""
    rec, clock = Recorder(), Clock()
    bots = [await start_bot(folder / "bot.db", clock, GAMES, rec) for _ in range(2)]
    return Session(*bots[0], rec, clock), Session(*bots[1], rec, clock)


async def test_a_game_begun_on_one_process_is_played_to_the_end_through_both(
        tmp_path: Path) -> None:
    first, second = await two_bots(tmp_path)
    try:
        game = GAMES["sugar-blast"]
        await first.start(game.slug, humans=(ALICE,), ai=1)
        record = await first.bot.tables.store.open_game(first.channel_id)
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
            record = await first.bot.tables.store.get_game(record.id)
        assert moves > 2
        assert not any("/commands" in sent.path for sent in first.rec.sent)
    finally:
        await first.close()
        await second.close()


async def test_one_move_sent_to_both_processes_at_once_is_applied_once_and_the_other_told(
        tmp_path: Path) -> None:
    first, second = await two_bots(tmp_path)
    try:
        game = GAMES["sugar-blast"]
        await first.start(game.slug, humans=(ALICE,), ai=1)
        record = await first.bot.tables.store.open_game(first.channel_id)
        assert record is not None
        (seat,) = [s.seat for s in record.seats if not s.ai]
        action = game.ai_action(loads(record.state_json or "", game), seat)
        first.rec.clear()
        for session in (first, second):
            payload = session.gw.command(ALICE, "play", options={"action": action.notation})
            first.rec.channels[payload["token"]] = int(payload["channel_id"])
            session.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await settle()
        after = await first.bot.tables.store.get_game(record.id)
        mine = [a for a in await first.bot.tables.store.actions(record.id) if a.user_id == ALICE]
        assert len(mine) == 1, (record.version, after.version)
        told = [s.content for s in first.rec.private()]
        assert len(told) == 1 and told[0], told
        assert "not applied" in told[0]
    finally:
        await first.close()
        await second.close()
