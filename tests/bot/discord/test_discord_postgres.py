"""Whole games through the real bot with ``CANDYBOT_DB`` a PostgreSQL URL: every
registered game plays to its end exactly as it does on SQLite (the same deal, the same
messages, the same log and result), and two bot processes on one PostgreSQL database
share a game and its announcements."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.games import GAMES
from tests.support.discord_harness import Clock, Recorder, Session, settle, start_bot
from tests.support.whole_games import play_to_the_end

ALICE = 360000000000000001


async def whole_game(db: str, slug: str) -> tuple[list[str], list[tuple[int, str]], str | None]:
    """Play ``slug`` to its end on ``db``: the public messages, the log, the result."""
    rec, clock = Recorder(), Clock()
    session = Session(*await start_bot(db, clock, GAMES, rec), rec, clock)
    try:
        game_id, sent = await play_to_the_end(session, GAMES[slug], ALICE)
        store = session.bot.tables.store
        record = await store.games.get_game(game_id)
        log = [(a.seat, a.notation) for a in await store.moves.actions(game_id)]
        public = [s.content for s in sent if not s.ephemeral]
        assert record.status == "finished"
        return public, log, record.result_json
    finally:
        await session.close()


@pytest.mark.parametrize("slug", sorted(GAMES))
async def test_a_whole_game_on_postgresql_plays_as_it_does_on_sqlite(
        slug: str, tmp_path: Path, postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Both games are dealt from the same seed.
    monkeypatch.setattr("bot.tables.lobby.secrets", SimpleNamespace(randbits=lambda bits: 7))
    on_sqlite = await whole_game(str(tmp_path / "bot.db"), slug)
    on_postgres = await whole_game(postgres_url, slug)
    assert on_postgres[1] == on_sqlite[1]
    assert on_postgres[2] == on_sqlite[2]
    assert on_postgres[0] == on_sqlite[0]


async def test_two_processes_on_postgresql_share_the_games_and_send_each_ping_once(
        postgres_url: str) -> None:
    rec, clock = Recorder(), Clock()
    first = Session(*await start_bot(postgres_url, clock, GAMES, rec), rec, clock)
    second = Session(*await start_bot(postgres_url, clock, GAMES, rec), rec, clock)
    try:
        await first.start("sugar-blast", humans=(ALICE,), ai=1)
        store = first.bot.tables.store
        record = await store.games.open_game(first.channel_id)
        assert record is not None
        await second.bot.outbox.drain(5)
        await first.bot.outbox.drain(5)
        await settle()
        # Both senders ran over the same outbox: every announcement went out once (no
        # post was a repeat Discord had to drop), and nothing is left queued.
        posted = [s for s in rec.sent if s.method == "POST" and s.body.get("nonce")]
        assert posted and not [s for s in posted if s.duplicate]
        assert await store.outbox.pending_announcements() == (0, None)
        assert (await second.bot.tables.store.games.get_game(record.id)).version == record.version
    finally:
        await first.close()
        await second.close()
