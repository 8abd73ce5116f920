"""The offline demo and replay commands, as a user runs them."""

from __future__ import annotations

import io
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.cli import main


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], capture_output=True,
                          text=True, cwd=Path(__file__).resolve().parents[1])


@pytest.fixture(scope="module")
def demo_folder(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("demo") / "game"
    assert main(["demo", "sugar-blast", "--players", "3", "--seed", "7", "--out", str(out)]) == 0
    return out


def test_demo_writes_a_png_per_move_the_log_a_gif_and_the_database(demo_folder: Path):
    log_lines = (demo_folder / "log.tsv").read_text().splitlines()[1:]
    frames = sorted((demo_folder / "moves").glob("move-*.png"))
    assert len(frames) == len(log_lines) + 1  # the opening board plus one per move
    assert Image.open(io.BytesIO(frames[-1].read_bytes())).format == "PNG"
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
