"""Every game, played to the end through the bot by clicks only: two humans and an AI.

Each human move is chosen through the move builder (the board's first step, the
private steps, the preview's Confirm) and never typed; the test checks Discord's
limits on everything shown, that at each hand-over the next human is mentioned in a
newly created message (a notification), and measures taps per move and messages per
action.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games import GAMES
from bot.games.engine import loads
from tests.support.clicking import MAX_LABEL, Clicker, Tally
from tests.support.discord_harness import Session

ALICE, BOB = 340000000000000001, 340000000000000002
#: Options that keep a whole game short enough for a test.
SHORT = {"sugarworks": {"rounds": 4}}


def figures(tally: Tally) -> str:
    """A row of the table in docs/discord.md ("Taps and messages, measured")."""
    moves = len(tally.taps)
    return (f"| {moves} | {sum(tally.taps) / moves:.2f}, {max(tally.taps)} | "
            f"{sum(tally.first_options) / moves:.1f}, {max(tally.most_options)} | "
            f"{len(set(tally.twice))} | {len(set(tally.dearer))} | "
            f"{sum(tally.messages) / moves:.2f} | {tally.previews} |")


@pytest.mark.parametrize("slug", list(GAMES))
async def test_every_game_can_be_played_to_the_end_by_clicks_only(tmp_path: Path, slug: str):
    game = GAMES[slug]
    session = await Session.open(tmp_path, GAMES)
    try:
        await session.start(slug, humans=[ALICE, BOB], ai=1, **SHORT.get(slug, {}))
        record = await session.bot.tables.store.games.open_game(session.channel_id)
        users = {s.seat: s.user_id for s in record.seats if s.user_id}
        clicker = Clicker(session, game)
        for _ in range(800):
            record = await session.bot.tables.store.games.get_game(record.id)
            state = loads(record.state_json, game)
            if game.result(state) is not None:
                break
            humans = [s for s in sorted(game.to_act(state)) if s in users]
            assert humans, "the AI seat never holds up the game"
            notified = await clicker.move(users[humans[0]], humans[0])
            kept = await session.bot.tables.store.games.get_game(record.id)
            after = loads(kept.state_json, game)
            if game.result(after) is None:
                # Whoever newly has to act is mentioned in a newly created message.
                awaited = {users[s] for s in game.to_act(after) if s in users}
                handed = awaited - {users[s] for s in humans}
                assert handed <= notified, (handed, notified)
        else:
            raise AssertionError("the game did not end")
        tally = clicker.tally
        assert tally.taps and all(len(label) <= MAX_LABEL for label in tally.labels)
        print(f"\n{slug}: {figures(tally)}")
        # Each option once, in one control; no dearer way unless the player asked.
        assert not tally.twice, sorted(set(tally.twice))[:10]
        assert not tally.dearer, sorted(set(tally.dearer))[:10]
    finally:
        await session.close()
