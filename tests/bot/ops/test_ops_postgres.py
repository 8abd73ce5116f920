"""The operator's commands with ``CANDYBOT_DB`` a PostgreSQL URL, run as the operator runs
them: ``candybot check`` reads the database (and meets the offline Discord with the
token), ``candybot backup`` runs pg_dump (or says how to), and ``candybot restore`` says to
use pg_restore."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from bot.games import GAMES
from bot.ops import Exit
from bot.store import MIGRATIONS, Store
from bot.tables import Tables
from tests.support.crashes import ROOT
from tools.offline import Recorder
from tools.offline_http import TOKEN, OfflineServer
from tools.offline_process import COMMAND, pointed

#: Where the offline Discord of this module's processes answers.
DISCORD: dict[str, str] = {}


@pytest.fixture(autouse=True, scope="module")
def discord() -> Iterator[None]:
    """The offline Discord for the processes these tests start."""
    with OfflineServer(Recorder()) as server:
        DISCORD["url"] = server.url
        yield


def candybot(url: str, *args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "CANDYBOT_DB")}
    env.update(CANDYBOT_DB=url, DISCORD_TOKEN=TOKEN, **pointed(DISCORD["url"], str(ROOT)))
    if path is not None:
        env["PATH"] = path
    return subprocess.run([sys.executable, *COMMAND, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


async def two_games(url: str) -> None:
    """A lobby and an active game of Sugar Blast."""
    store = await Store.open(url)
    try:
        tables = Tables(store, GAMES, lambda: 1_700_000_000.0)
        for channel in (1, 2):
            lobby = await tables.lobbies.open_lobby(
                channel_id=channel, guild_id=9, game="sugar-blast",
                creator_id=101, creator_name="Alice")
            if channel == 2:
                await tables.lobbies.add_ai(lobby.record.id, 101)
                await tables.lobbies.start(lobby.record.id, 101)
    finally:
        await store.close()


def test_check_on_postgresql_reports_its_schema_and_games(postgres_url: str) -> None:
    asyncio.run(two_games(postgres_url))
    done = candybot(postgres_url, "check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"schema {len(MIGRATIONS)} (current), integrity ok." in done.stdout
    assert "1 lobby, 1 active, 0 finished, 0 aborted" in done.stdout
    assert "All is well." in done.stdout


def test_check_of_an_unreachable_postgresql_says_so_in_one_line(tmp_path: Path) -> None:
    url = f"postgresql://candybot:secret@/nowhere?host={tmp_path}"
    done = candybot(url, "check")
    assert done.returncode == Exit.DATABASE_PATH
    assert "cannot be reached" in done.stdout + done.stderr
    assert "secret" not in done.stdout + done.stderr


def test_backup_runs_pg_dump_and_pg_restore_brings_the_games_back(
        postgres_url: str, postgres_server, tmp_path: Path) -> None:
    asyncio.run(two_games(postgres_url))
    done = candybot(postgres_url, "backup", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "with pg_dump" in done.stdout and "2 games" in done.stdout
    [dump] = tmp_path.glob("candybot-*.dump")
    copy = postgres_server.database()
    restored = subprocess.run([shutil.which("pg_restore") or "pg_restore", "--no-owner",
                               f"--dbname={copy}", str(dump)], capture_output=True, text=True,
                              check=False)
    assert restored.returncode == 0, restored.stderr
    with psycopg.connect(copy) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone() == (2,)
    assert candybot(copy, "check").returncode == 0


def test_backup_without_pg_dump_says_how_to_back_up(postgres_url: str, tmp_path: Path) -> None:
    asyncio.run(two_games(postgres_url))
    done = candybot(postgres_url, "backup", str(tmp_path), path=str(tmp_path))
    assert done.returncode == Exit.CONFIG
    assert "pg_dump --format=custom" in done.stderr + done.stdout


def test_restore_on_postgresql_points_to_pg_restore(postgres_url: str, tmp_path: Path) -> None:
    done = candybot(postgres_url, "restore", str(tmp_path / "x.dump"))
    assert done.returncode == Exit.CONFIG
    assert "pg_restore" in done.stderr + done.stdout
