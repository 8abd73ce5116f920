"""A bot process's senders without Discord, to kill: reminders and the outbox.

``python -m tests.support.outbox_worker DB NAME`` runs, until stopped, what the bot's two loops
run: the reminder pass (which queues each due reminder in the outbox, claimed once) and
the outbox's sender, which claims announcements with a lease. "Posting" one prints
``post NAME ID NONCE KIND CHANNEL TIME`` and flushes; it is then marked delivered. A test that
kills a worker between the two sees the other take the announcement over when the lease
runs out, with the same nonce (with which Discord creates the message only once).
"""

from __future__ import annotations

import asyncio
import sys
import time

from bot.games import GAMES
from bot.store import Store
from bot.tables import Tables

LEASE = 1.5


async def main(db: str, name: str) -> None:
    store = await Store.open(db)
    tables = Tables(store, GAMES, time.time)
    while True:
        await tables.reminders.due()
        for item in await store.outbox.claim_announcements(time.time(), lease=LEASE):
            said = item.announcement
            print(f"post {name} {item.id} {item.nonce} {said.kind} {said.channel_id} "
                  f"{time.time()!r}", flush=True)
            await asyncio.sleep(0.02)  # the window a kill may fall in
            await store.outbox.announcement_delivered(item.id, None, time.time())
        await asyncio.sleep(0.01)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
