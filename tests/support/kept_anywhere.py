"""Where a value is still kept: every row of every table of a store's database, on
either backend, that holds it (as a number, or inside a text such as JSON)."""

from __future__ import annotations

from typing import Any

from bot.store import PostgresConnector, Store


async def rows_holding(store: Store, value: int | str) -> list[tuple[str, tuple[Any, ...]]]:
    """``(table, row)`` for each row that holds ``value`` in any column."""
    wanted = str(value)
    listing = ("SELECT table_name FROM information_schema.tables WHERE table_schema = "
               "current_schema()" if isinstance(store.connector, PostgresConnector)
               else "SELECT name FROM sqlite_master WHERE type = 'table'")
    found = []
    async with store.connector.reading() as db:
        tables = [str(row[0]) for row in await db.execute_fetchall(listing, ())]
        for table in tables:
            for row in await db.execute_fetchall(f"SELECT * FROM {table}", ()):
                if any(cell is not None and wanted in str(cell) for cell in row):
                    found.append((table, tuple(row)))
    return found
