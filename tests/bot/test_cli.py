"""The offline demo and replay commands, as a user runs them."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.cli import main
from bot.games import GAMES
from bot.games.engine import loads
from renderers import render
from tests.support.paths import ROOT


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True,
                          text=True, cwd=ROOT)


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("demo") / "game"
    assert main(["demo", "sugar-blast", "--players", "3", "--seed", "7", "--out", str(out)]) == 0
    return out


def test_demo_writes_a_png_per_move_the_log_a_gif_and_the_database(demo_folder: Path):
    log_lines = (demo_folder / "log.tsv").read_text().splitlines()[1:]
    frames = sorted((demo_folder / "moves").glob("move-*.png"))
    assert len(frames) == len(log_lines) + 1  # the opening board plus one per move
    # The last picture is the finished game's own board, not just any PNG.
    with sqlite3.connect(demo_folder / "candybot.db") as db:
        (state_json,) = db.execute("SELECT state_json FROM games").fetchone()
    game = GAMES["sugar-blast"]
    final = loads(state_json, game)
    assert game.result(final) is not None
    assert frames[-1].read_bytes() == render(game.view(final, None))
    assert frames[-2].read_bytes() != frames[-1].read_bytes()
    gif = Image.open(demo_folder / "game.gif")
    assert gif.format == "GIF" and gif.n_frames == len(frames)
    with sqlite3.connect(demo_folder / "candybot.db") as db:
        (count,) = db.execute("SELECT COUNT(*) FROM actions").fetchone()
    assert count == len(log_lines)


def test_demo_prints_each_move_and_the_final_ranking(tmp_path: Path):
    out = run_cli("demo", "sugar-blast", "--players", "2", "--seed", "3", "--out",
                  str(tmp_path / "g"))
    assert out.returncode == 0, out.stderr
    assert "  1. swap " in out.stdout
    assert "1. " in out.stdout.splitlines()[-3]


def test_replay_reproduces_the_stored_game(demo_folder: Path, capsys):
    assert main(["replay", str(demo_folder)]) == 0
    assert "matches the stored one exactly" in capsys.readouterr().out


def test_replay_fails_loudly_when_the_log_does_not_match(demo_folder: Path, tmp_path: Path,
                                                           capsys):
    copy = tmp_path / "tampered"
    copy.mkdir()
    (copy / "candybot.db").write_bytes((demo_folder / "candybot.db").read_bytes())
    with sqlite3.connect(copy / "candybot.db") as db:
        db.execute("DELETE FROM actions WHERE n = (SELECT MAX(n) FROM actions)")
    assert main(["replay", str(copy)]) != 0
    assert "MISMATCH" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "message"), [
    (["demo", "chess", "--out", "{tmp}/a"], "no game called 'chess'"),
    (["demo", "sugar-blast", "--players", "7", "--out", "{tmp}/b"], "2 to 4 players"),
    (["demo", "sugar-blast", "--out", "/proc/candybot-demo"], "Cannot create the output folder"),
    (["replay", "{tmp}/nothing-here"], "holds no candybot.db"),
])
def test_bad_options_print_a_clear_error_and_exit_non_zero(args, message, tmp_path: Path):
    out = run_cli(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert out.returncode != 0
    assert message in out.stdout + out.stderr
    assert "Traceback" not in out.stderr


# --------------------------------------------------------------------------- operating


def run_ops(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``candybot`` in a clean environment: no token or settings but those given."""
    import os

    clean = {k: v for k, v in os.environ.items()
             if k not in ("DISCORD_TOKEN", "CANDYBOT_DB", "CANDYBOT_LOG")}
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True,
                          text=True, cwd=cwd, env={**clean, **env}, timeout=120)


def test_help_lists_the_operating_commands_with_debug() -> None:
    out = run_cli("--help")
    for command in ("run", "sync", "check", "backup", "demo", "replay", "bench"):
        assert command in out.stdout
    for command in ("run", "sync", "check"):
        assert "--debug" in run_cli(command, "--help").stdout
    assert "--force" in run_cli("backup", "--help").stdout


def test_existing_arguments_still_parse_with_debug_added() -> None:
    from bot.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["sync", "--guild", "5", "--debug"]).guild == 5
    assert parser.parse_args(["run"]).debug is False
    args = parser.parse_args(["backup", "copy.db", "--force"])
    assert args.path == Path("copy.db") and args.force
    args = parser.parse_args(["demo", "sugar-blast", "--out", "x"])
    assert (args.players, args.seed) == (3, 7)
    assert parser.parse_args(["bench", "--json"]).samples == 60


def test_check_on_a_new_install_without_a_token_says_what_it_could_not_check(
        tmp_path: Path) -> None:
    out = run_ops("check", cwd=tmp_path, CANDYBOT_DB=str(tmp_path / "candybot.db"))
    assert out.returncode == 2, out.stderr
    assert out.stderr == ""
    assert "not created yet" in out.stdout
    assert "Discord: NOT CHECKED (no DISCORD_TOKEN)" in out.stdout
    assert out.stdout.splitlines()[-1].startswith("Problem (exit code 2): There is no "
                                                  "DISCORD_TOKEN")


def test_version_is_the_installed_packages() -> None:
    from importlib.metadata import version

    out = run_cli("--version")
    assert out.returncode == 0
    assert out.stdout == f"candybot {version('candybot')}\n"
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert f'\nversion = "{version("candybot")}"\n' in pyproject


def test_backup_of_the_demo_database_replays_like_the_original(demo_folder: Path,
                                                                tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    copy.mkdir()
    out = run_ops("backup", str(copy / "candybot.db"), cwd=tmp_path,
                  CANDYBOT_DB=str(demo_folder / "candybot.db"))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Backed up ") and "integrity ok" in out.stdout
    again = run_ops("backup", str(copy / "candybot.db"), cwd=tmp_path,
                    CANDYBOT_DB=str(demo_folder / "candybot.db"))
    assert again.returncode == 2 and "--force" in again.stderr
    assert main(["replay", str(copy)]) == 0


def test_a_bad_log_level_is_one_line_and_exit_2(tmp_path: Path) -> None:
    out = run_ops("run", cwd=tmp_path, CANDYBOT_LOG="chatty", DISCORD_TOKEN="x")
    assert out.returncode == 2
    assert len(out.stderr.splitlines()) == 1 and "CANDYBOT_LOG" in out.stderr


def test_replay_refuses_a_game_played_under_other_rules(demo_folder: Path, tmp_path: Path,
                                                        capsys):
    copy = tmp_path / "old-rules"
    copy.mkdir()
    (copy / "candybot.db").write_bytes((demo_folder / "candybot.db").read_bytes())
    with sqlite3.connect(copy / "candybot.db") as db:
        db.execute("UPDATE games SET state_json = json_set(state_json, '$.rules', 1)")
    assert main(["replay", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "rules version 1" in out and "cannot be replayed" in out
