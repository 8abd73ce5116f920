"""A backup taken while the bot writes, then a SIGKILL: no confirmed move is lost; and the
bot opens its database file only through SQLite.

The bot is a real process (tests/support/crash_bot.py) that also inspects its own database as
the ready message does; ``candybot backup`` runs from a second process meanwhile.
"""

from __future__ import annotations

import asyncio
import builtins
import io
import os
from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.config import Settings
from bot.ops.database import inspect_database
from tests.support.crashes import CrashBot, backup, logged, missing, replay_all

pytestmark = pytest.mark.slow  # backups and a kill of a running bot


def test_every_confirmed_move_survives_backups_and_a_kill(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    bot = CrashBot(db, ["sugar-blast", "sugar-heist"])
    copies: list[tuple[Path, dict[int, int]]] = []
    try:
        for n, moves in enumerate((3, 4, 3)):
            bot.wait_for(moves)
            before = bot.snapshot()
            target = tmp_path / f"copy-{n}.db"
            assert backup(db, target).startswith("Backed up")
            copies.append((target, before))
        bot.wait_for(3)
    finally:
        acked = bot.kill()
    assert sum(acked.values()) >= 13
    assert missing(acked, logged(db)) == {}
    for target, before in copies:
        assert not Path(f"{target}-wal").exists()
        assert missing(before, logged(target)) == {}, target
        assert replay_all(target) >= 1
    assert replay_all(db) >= 2


async def test_the_bot_opens_its_database_only_through_sqlite(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "live.db"
    bot = create_bot(Settings(db_path=db), renderer=lambda v: b"")
    await bot._async_setup_hook()
    await bot.setup_hook()
    names = {str(db), f"{db}-wal", f"{db}-shm"}
    opened: list[str] = []

    def guard(real: Any) -> Any:
        def opening(file: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(file, str | os.PathLike) and os.path.abspath(file) in names:
                opened.append(str(file))
            return real(file, *args, **kwargs)
        return opening

    monkeypatch.setattr(builtins, "open", guard(builtins.open))
    monkeypatch.setattr(io, "open", guard(io.open))
    monkeypatch.setattr(os, "open", guard(os.open))
    try:
        await bot.tables.lobbies.open_lobby(
            channel_id=1, guild_id=2, game="sugar-blast", creator_id=3,
            creator_name="Ann")
        assert "1 server" not in await bot.ready_message()
        assert (await asyncio.to_thread(inspect_database, db, probe=False)).schema >= 1
    finally:
        await bot.close()
    assert opened == []
