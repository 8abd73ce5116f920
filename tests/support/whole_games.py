"""Play whole games of the registered games through the offline bot: one human whose moves
the AI chooses (typed with ``/play``), the other seats AI players."""

from __future__ import annotations

from bot.games.engine import Engine, loads
from tests.support.discord_harness import Sent, Session

MOVE_BOUND = 2000


async def play_to_the_end(session: Session, game: Engine, user: int, *, ai: int = 0,
                          **options: object) -> tuple[int, list[Sent]]:
    """Start ``game`` with ``user`` and ``ai`` AI seats, play until it ends; the game's id and
    every message the bot sent or edited on the way (``ai=0``: as few AI seats as the game
    needs)."""
    sent: list[Sent] = []
    ai = ai or max(1, game.min_seats - 1)
    await session.start(game.slug, humans=(user,), ai=ai, **options)
    sent.extend(session.rec.messages_sent())
    record = await session.bot.tables.store.games.open_game(session.channel_id)
    assert record is not None
    game_id = record.id
    for _ in range(MOVE_BOUND):
        record = await session.bot.tables.store.games.get_game(game_id)
        if record.status != "active":
            return game_id, sent
        state = loads(record.state_json or "", game)
        (seat,) = [s.seat for s in record.seats if not s.ai]
        assert seat in game.to_act(state), "the AI seats never handed the turn back"
        action = game.ai_action(state, seat)
        await session.play(user, action.notation)
        sent.extend(session.rec.messages_sent())
    raise AssertionError(f"{game.slug} did not end within {MOVE_BOUND} moves")
