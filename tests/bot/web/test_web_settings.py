"""The web companion is off by default; its settings are checked and reported; `candybot
web` says plainly when it is off or its port is taken."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings
from bot.ops import Exit


def test_off_unless_the_operator_sets_an_address() -> None:
    settings = Settings.from_env({}, None)
    assert not settings.web and settings.web_port is None and settings.public_url is None
    links_only = Settings.from_env({"CANDYBOT_PUBLIC_URL": "https://x.example/cb/"}, None)
    assert links_only.web and links_only.public_url == "https://x.example/cb"
    assert links_only.web_port is None
    served = Settings.from_env({"CANDYBOT_PUBLIC_URL": "http://127.0.0.1:8090",
                                "CANDYBOT_WEB_PORT": "8090"}, None)
    assert served.web_port == 8090 and served.web_host == "127.0.0.1"


@pytest.mark.parametrize("env, said", [
    ({"CANDYBOT_WEB_PORT": "8090"}, "CANDYBOT_PUBLIC_URL is not"),
    ({"CANDYBOT_PUBLIC_URL": "ftp://x.example"}, "is not an address"),
    ({"CANDYBOT_PUBLIC_URL": "https://x.example/?a=1"}, "is not an address"),
    ({"CANDYBOT_PUBLIC_URL": "https://x.example/a b"}, "is not an address"),
    ({"CANDYBOT_PUBLIC_URL": "https://x.example", "CANDYBOT_WEB_PORT": "99999"},
     "is not a port"),
])
def test_an_unusable_setting_is_refused_with_what_to_do(env: dict[str, str],
                                                        said: str) -> None:
    with pytest.raises(ConfigError, match=said):
        Settings.from_env(env, None)


def _candybot(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=cwd,
                          env={**os.environ, "CANDYBOT_DB": str(cwd / "c.db"), **env},
                          capture_output=True, text=True, timeout=120)


def test_candybot_web_off_exits_2_and_says_how_to_turn_it_on(tmp_path: Path) -> None:
    done = _candybot(["web"], {}, tmp_path)
    assert done.returncode == Exit.CONFIG
    assert "CANDYBOT_WEB_PORT" in done.stderr and "CANDYBOT_PUBLIC_URL" in done.stderr


def test_candybot_web_on_a_taken_port_exits_11(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _candybot(["web"], {"CANDYBOT_WEB_PORT": str(port),
                                   "CANDYBOT_PUBLIC_URL": "http://127.0.0.1"}, tmp_path)
    assert done.returncode == Exit.PORT_TAKEN == 11
    assert f"port 127.0.0.1:{port} is taken" in done.stderr


def test_candybot_check_reports_the_web_companion(tmp_path: Path) -> None:
    off = _candybot(["check"], {"DISCORD_TOKEN": ""}, tmp_path)
    assert "Web companion: off" in off.stdout
    on = _candybot(["check"], {"DISCORD_TOKEN": "", "CANDYBOT_WEB_PORT": "8090",
                               "CANDYBOT_PUBLIC_URL": "https://x.example"}, tmp_path)
    assert ("Web companion: pages at https://x.example, served by candybot run on "
            "127.0.0.1 port 8090") in on.stdout
