"""The PostgreSQL store's pool lends a connection in use just now as it is, and pings one
that sat idle first, so that a server restart or an idle timeout between them costs no
player a move."""

from __future__ import annotations

import psycopg
import pytest
from psycopg_pool import AsyncConnectionPool

import bot.store.postgres as postgres
from bot.store import Store


@pytest.fixture
def pings(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    seen: list[object] = []
    ping = AsyncConnectionPool.check_connection

    async def counted(conn: psycopg.AsyncConnection[object]) -> None:
        seen.append(conn)
        await ping(conn)

    monkeypatch.setattr(AsyncConnectionPool, "check_connection", staticmethod(counted))
    return seen


async def test_a_connection_in_use_just_now_is_lent_again_without_a_ping(
        postgres_url: str, pings: list[object]) -> None:
    store = await Store.open(postgres_url)
    try:
        await store.games.open_game(1)
        before = len(pings)
        for _ in range(5):  # a move's reads, one after another
            await store.games.open_game(1)
        assert len(pings) == before
    finally:
        await store.close()


async def test_connections_the_server_dropped_while_idle_are_replaced_unseen(
        postgres_url: str, pings: list[object], monkeypatch: pytest.MonkeyPatch) -> None:
    store = await Store.open(postgres_url)
    try:
        await store.games.open_game(1)
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            dropped = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall()
        assert dropped  # the store's idle connection is gone
        monkeypatch.setattr(postgres, "FRESH_S", 0.0)  # as after a quiet spell
        before = len(pings)
        assert await store.games.open_game(1) is None  # no error: a new connection answered
        assert len(pings) > before
    finally:
        await store.close()
