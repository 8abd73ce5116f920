"""Settings, building the bot without the network, and the run/sync entry points."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.app import create_bot, run_bot, sync_commands
from bot.config import Settings
from bot.discord.client import CandyBot

SECRET = "MTIzNDU2Nzg5.secret-token-value"


def test_settings_read_the_environment_before_the_dotenv_file(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("# comment\nexport DISCORD_TOKEN='from-file'\nCANDYBOT_DB=file.db\n")
    settings = Settings.from_env({"CANDYBOT_DB": "env.db"}, dotenv)
    assert settings.token == "from-file" and settings.db_path == Path("env.db")
    assert Settings.from_env({}, tmp_path / "missing").db_path == Path("./candybot.db")
    assert Settings.from_env({}, tmp_path / "missing").token is None


def test_settings_never_show_the_token() -> None:
    settings = Settings(token=SECRET)
    assert SECRET not in repr(settings) and SECRET not in str(settings)
    assert "set" in repr(settings)


def test_create_bot_touches_neither_network_nor_database(tmp_path: Path) -> None:
    client = create_bot(Settings(db_path=tmp_path / "never.db"))
    assert isinstance(client, CandyBot)
    assert not (tmp_path / "never.db").exists()
    assert client._tables is None
    intents = client.intents
    assert not (intents.members or intents.presences or intents.message_content)


def test_run_without_a_token_explains_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_bot(Settings(token=None)) != 0
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "discord.com/developers" in err
    assert sync_commands(Settings(token=None), None) != 0


def test_a_rejected_token_is_reported_without_printing_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    async def refuse(self: CandyBot, token: str, **kwargs: object) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(CandyBot, "start", refuse)
    assert run_bot(Settings(token=SECRET, db_path=tmp_path / "b.db")) == 3
    out = capsys.readouterr()
    assert "rejected" in out.err and SECRET not in out.err + out.out


async def test_setup_hook_opens_the_database_and_close_releases_it(tmp_path: Path) -> None:
    first = create_bot(Settings(db_path=tmp_path / "b.db"), renderer=None)
    await first._async_setup_hook()
    await first.setup_hook()
    assert first._tables is not None and (tmp_path / "b.db").exists()
    await first.close()
    assert first._tables is None
    second = create_bot(Settings(db_path=tmp_path / "b.db"), renderer=None)
    await second._async_setup_hook()
    await second.setup_hook()
    assert await second.tables.store.games.open_game(1) is None
    await second.close()
