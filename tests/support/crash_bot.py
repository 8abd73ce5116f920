"""A bot process to kill: it plays games through the tables and store until stopped.

``python -m tests.support.crash_bot DB SLUG [SLUG...]`` (DB a SQLite file or a PostgreSQL URL)
opens one game per slug, each in its own channel (numbered from ``$CRASH_BOT_CHANNELS``,
100 by default, so that two of them can share a database), with one human seat (played
with the AI's choices) and AI seats for the rest, and then moves on every channel in
turn, starting a new game where one ended. After every move the store confirmed it prints
``ack GAME_ID ACTIONS`` (the number of actions the game's log holds) and flushes, so a
test that kills it knows what was promised.

Like the bot at its ready message, it also inspects the database from its own process
after every few moves, which must not disturb the store's locks. Started again on the
same database it carries on with the games it finds.
"""

from __future__ import annotations

import asyncio
import os
import sys

from bot.games import GAMES
from bot.ops.database import inspect_target
from bot.store import Store
from bot.tables import Tables

HUMAN = 4242
GUILD = 1


class Clock:
    """Seven seconds pass at every look; :meth:`skip` jumps ahead."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 7
        return self.now

    def skip(self, days: float) -> None:
        self.now += days * 86_400


async def main(db: str, slugs: list[str]) -> None:
    clock = Clock()
    store = await Store.open(db)
    tables = Tables(store, GAMES, clock)
    first = int(os.environ.get("CRASH_BOT_CHANNELS", "100"))
    channels = {first + n: slug for n, slug in enumerate(slugs)}
    moves = 0
    while True:
        for channel, slug in channels.items():
            record = await store.games.open_game(channel)
            if record is None:
                game = GAMES[slug]
                lobby = await tables.lobbies.open_lobby(
                    channel_id=channel, guild_id=GUILD, game=slug,
                    creator_id=HUMAN, creator_name="Human")
                for _ in range(game.min_seats - 1):
                    await tables.lobbies.add_ai(lobby.record.id, HUMAN)
                await tables.lobbies.start(lobby.record.id, HUMAN)
                continue
            game, state = tables.pipeline.state(record)
            seat = next(s.seat for s in record.seats if not s.ai)
            if seat not in game.to_act(state):
                # Killed before the opening AI moves were saved: the reminder pass,
                # a few days on, moves them.
                clock.skip(3)
                await tables.reminders.due()
                continue
            action = game.ai_action(state, seat)
            await tables.moves.play(channel_id=channel, user_id=HUMAN, text=action.notation)
            count = len(await store.moves.actions(record.id))
            print(f"ack {record.id} {count}", flush=True)
            moves += 1
            if moves % 5 == 0:
                inspect_target(db, probe=False)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2:]))
