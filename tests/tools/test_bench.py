"""``candybot bench`` measures what it says (tiny sample counts: these are not timed tests)."""

from __future__ import annotations

import json
import time
from collections import Counter

import pytest

from renderers import render
from tools import bench as bench_module
from tools.bench import bench, bench_load, bench_play, bench_render

pytestmark = pytest.mark.slow  # runs the bench from the shell

SLUG = "sugartopia"


def test_render_figures_come_from_real_pictures():
    figures = bench_render(SLUG, 3)
    assert figures["width_px"] == 800 and figures["height_px"] == 1280
    for key in ("render_ms", "png_kb"):
        assert 0 < figures[key]["median"] <= figures[key]["p95"] <= figures[key]["max"]


def test_a_play_is_a_players_slash_command_through_the_real_bot(monkeypatch):
    import bot.discord.flows

    drawn: list[int] = []
    handled: list[str] = []

    def counting(view):
        drawn.append(view["move"])
        return render(view)

    handler = bot.discord.flows.play

    async def play(interaction, text):
        handled.append(text)
        await handler(interaction, text)

    monkeypatch.setattr("renderers.render", counting)
    monkeypatch.setattr(bot.discord.flows, "play", play)
    figures = bench_play(SLUG, 2)
    assert len(handled) == 3  # one untimed warm-up move, then the two timed ones
    # Player 1 moves, then Player 2, whose board comes after the AI seat's reply.
    assert drawn == [1, 3, 4]
    # The player hears the interaction acknowledged before the board arrives.
    assert 0 < figures["ack_ms"]["max"] < figures["play_ms"]["max"]


def test_the_timed_tables_are_two_humans_and_an_ai_seat_whose_reply_is_timed(monkeypatch):
    """What players have: the board a /play is timed to is the one after the AI's reply,
    and the AI's choosing is a stage of its own."""
    boards: list[dict] = []

    def keeping(view):
        boards.append(view["table"])
        return render(view)

    monkeypatch.setattr("renderers.render", keeping)
    figures = bench_play(SLUG, 4)
    for table in boards:
        assert [s["ai"] for s in table["seats"]] == [False, False, True]
        # Every board shown waits for a human: the AI seat has already answered.
        assert table["acting"] and 2 not in table["acting"]
    assert figures["play_cpu_ms"]["AI"] > 0
    assert figures["ai_moves_per_play"] > 0
    answered = figures["with_ai"]
    assert 1 <= answered["plays"] <= 4
    assert answered["ai_cpu_ms"]["median"] > 0


def test_the_bench_tables_ai_seat_plays_at_the_normal_level(monkeypatch):
    from bot.tables.core import Pipeline

    levels: list[str] = []
    level_of = Pipeline._level

    def level(record, seat):
        levels.append(level_of(record, seat))
        return levels[-1]

    monkeypatch.setattr(Pipeline, "_level", staticmethod(level))
    bench_play(SLUG, 2)
    assert levels and set(levels) == {"normal"}


def test_a_movement_gif_is_timed_after_the_board_it_is_added_to(monkeypatch):
    import io

    from PIL import Image

    def movement(view):
        out = io.BytesIO()
        Image.new("P", (4, 4)).save(out, "GIF")
        return out.getvalue()

    monkeypatch.setattr("renderers.animate", movement)
    figures = bench_play("sugarworks", 2)
    assert figures["movement_ms"]["median"] > figures["play_ms"]["median"]
    assert figures["play_cpu_ms"]["animation"] > 0


def test_the_load_test_moves_every_channel_once_per_round():
    seen: list[int] = []
    waiting: set[int] = set()

    def counting(view):
        seen.append(view["move"])
        waiting.update(view["table"]["acting"])
        return render(view)

    figures = bench_load(SLUG, channels=3, rounds=2, renderer=counting)
    # Each channel's first move warms up; then every channel moves once per round, at a
    # table of two humans and an AI seat: every board shown waits for a human, the AI's
    # reply made before it (so some boards skip a move number).
    assert len(seen) == 9 and Counter(seen)[1] == 3
    assert waiting <= {0, 1} and max(seen) > 3
    assert figures["latency_ms"]["median"] > 0
    assert figures["stall_ms"]["max"] >= 0
    # Every interaction is acknowledged before its board arrives, and each burst's first
    # board comes no later than its others.
    assert 0 < figures["acknowledged_ms"]["max"] < figures["latency_ms"]["max"]
    assert 0 < figures["first_ms"]["max"] <= figures["latency_ms"]["max"]
    assert figures["moves_per_s"] > 0 and figures["bot_cpu_ms_per_move"] > 0


def test_the_chess_board_is_timed_after_every_play_and_divides_the_play_p95(monkeypatch):
    boards: list[int] = []
    monkeypatch.setattr(bench_module, "chess_board",
                        lambda width: lambda: boards.append(width) or b"")
    figures = bench_module.bench_game(SLUG, 3, channels=0, rounds=0, ai_games=0, pool=None)
    assert boards == [800] * 4  # the picture's width; after the warm-up move too, untimed
    assert figures["play_vs_chess_p95"] == pytest.approx(
        figures["play_ms"]["p95"] / figures["chess_ms"]["p95"])
    assert "load_in_process" not in figures and "ai" not in figures


def test_the_play_players_wait_for_is_timed_with_the_worker_processes_of_candybot_run(
        monkeypatch):
    """The ratio the target is set on is the /play as `candybot run` has it: pictures and
    the AI seat's choices in the render pool's workers; the in-process run is beside it."""
    work: Counter[str] = Counter()

    class Workers:  # stands for the render pool: what the bot hands to its processes
        def __call__(self, view):
            work["drawn"] += 1
            return render(view)

        async def render_async(self, view, key=None):
            return self(view)

        def run_now(self, job_of, job):
            work[job_of.__name__] += 1
            return job_of(job)

        async def run_now_async(self, job_of, job, key=None):
            work[job_of.__name__] += 1
            return job_of(job)

        async def offload(self, job_of, job, key, draws=None):
            work[job_of.__name__] += 1
            return job_of(job)

    monkeypatch.setattr(bench_module, "chess_board", lambda width: lambda: b"")
    figures = bench_module.bench_game(SLUG, 3, channels=0, rounds=0, ai_games=0,
                                      pool=Workers())
    run = figures["as_run"]
    # The warm-up move and three timed; the AI seat's choices in the workers too.
    assert work["drawn"] == 4 and work["ai_choice"] + work["work_out"] >= 1
    assert "play_cpu_ms" not in run and run["ai_moves_per_play"] > 0
    assert figures["play_vs_chess_p95"] == pytest.approx(
        run["play_ms"]["p95"] / run["chess_ms"]["p95"])
    assert figures["in_process_vs_chess_p95"] == pytest.approx(
        figures["play_ms"]["p95"] / figures["chess_ms"]["p95"])


def test_without_the_bench_extra_the_chess_figure_is_skipped_with_a_note(monkeypatch, capsys):
    monkeypatch.setattr(bench_module, "chess_board", lambda width: None)
    assert bench(samples=2, games=[SLUG], channels=2, rounds=1, ai_games=0,
                 first_boards=0) == 0
    out = capsys.readouterr().out
    assert "Sugartopia" in out and "render pool" in out
    assert "Chess comparison skipped: install the `bench` extra" in out


def test_json_gives_one_line_with_every_figure_per_game(monkeypatch, capsys):
    monkeypatch.setattr(bench_module, "chess_board", lambda width: None)
    assert bench(as_json=True, samples=2, games=[SLUG], channels=0, ai_games=2,
                 first_boards=0) == 0
    line = capsys.readouterr().out.strip()
    figures = json.loads(line)["games"][SLUG]
    assert {"render_ms", "png_kb", "play_ms", "ai"} <= set(figures)


def test_an_unknown_game_is_refused_before_measuring(capsys):
    assert bench(games=["no-such-game"]) == 2
    assert "no game called 'no-such-game'" in capsys.readouterr().err


def test_a_play_is_split_by_stage():
    figures = bench_play(SLUG, 3)
    stages = figures["play_cpu_ms"]
    assert list(stages) == [*bench_module.STAGES, "store wait", "offline Discord"]
    for stage in ("engine", "views", "store", "pictures", "Discord layer", "store wait",
                  "offline Discord"):
        assert stages[stage] > 0, stage
    assert stages["animation"] == 0  # Sugartopia draws no movement


async def test_the_event_loops_cpu_that_no_stage_claims_is_the_discord_layers():
    stages = bench_module.Stages()

    def burn(seconds: float) -> None:
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass

    engine = stages.timed("engine", burn)
    stages.start()
    engine(0.03)
    burn(0.02)  # the handlers' own work, on the loop's thread
    stages.stop()
    cpu = stages.per_move()
    assert cpu["engine"] == pytest.approx(30, abs=5)
    assert cpu["Discord layer"] == pytest.approx(20, abs=5)
    stages.start()
    stages.stop(count=False)  # a warm-up: forgets everything
    assert stages.per_move()["engine"] == 0


def test_stages_count_a_call_made_inside_another_stage_once():
    stages = bench_module.Stages()
    inner = stages.timed("views", lambda: sum(range(20000)))
    outer = stages.timed("engine", lambda: inner() + sum(range(20000)))
    outer()
    assert stages.spent["views"] == 0 and stages.spent["engine"] > 0
    inner()
    assert stages.spent["views"] > 0


def test_the_mixed_burst_gives_each_channel_the_games_in_turn():
    played: list[str] = []

    def counting(view):
        played.append(view["game"])
        return render(view)

    slugs = ["sugartopia", "sugar-blast"]
    figures = bench_load(slugs, channels=4, rounds=1, renderer=counting)
    # Four channels, two of each game, each moving twice (warm-up and one round).
    assert Counter(played) == {slug: 4 for slug in slugs}
    assert figures["moves_per_s"] > 0


def test_with_several_games_the_bench_also_runs_the_mixed_burst(monkeypatch, capsys):
    monkeypatch.setattr(bench_module, "chess_board", lambda width: None)
    assert bench(as_json=True, samples=1, games=[SLUG, "sugar-blast"], channels=2, rounds=1,
                 ai_games=0, first_boards=0) == 0
    mixed = json.loads(capsys.readouterr().out)["mixed_load"]
    assert mixed["moves_per_s"] > 0 and mixed["first_ms"]["p95"] <= mixed["latency_ms"]["max"]


def test_the_load_test_runs_on_postgresql_in_a_schema_it_drops(postgres_url: str) -> None:
    import psycopg

    seen: list[int] = []

    def counting(view):
        seen.append(view["move"])
        return render(view)

    figures = bench_load(SLUG, channels=3, rounds=1, renderer=counting, db=postgres_url)
    assert len(seen) == 6 and Counter(seen)[1] == 3
    assert figures["moves_per_s"] > 0
    with psycopg.connect(postgres_url) as conn:
        left = conn.execute("SELECT schema_name FROM information_schema.schemata "
                            "WHERE schema_name LIKE 'candybot_bench_%'").fetchall()
    assert left == []


def test_the_first_board_after_start_is_timed_on_a_freshly_started_bot():
    """Each sample is a new process that starts the bot as `candybot run` does and presses
    Start at once: its render workers are still starting then, so the board is drawn in
    the bot's own process rather than waited for."""
    figures = bench_module.bench_first_board([SLUG, "sugar-heist"], 2)
    assert figures["samples"] == 2 and set(figures["by_game_ms"]) == {SLUG, "sugar-heist"}
    assert 0 < figures["board_ms"]["median"] <= figures["board_ms"]["p95"] < 30_000
    assert figures["ready_s"]["median"] > 0
    assert figures["workers_not_up"] == 2


def test_the_documented_command_runs_from_the_shell_with_smaller_counts(tmp_path):
    """docs/benchmarks.md's ``candybot bench --game sugartopia --ai-games 0``, with the
    counts cut down so that it is quick (the figures are not checked here)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "bench", "--game", SLUG, "--ai-games", "0",
         "--samples", "2", "--channels", "2", "--rounds", "1", "--first-boards", "1"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "whole /play, as `candybot run` has it" in done.stdout
    assert "whole /play, everything in the bot's process:" in done.stdout
    assert "CPU per /play:" in done.stdout
    assert "load, render pool:" in done.stdout
    assert "The first board after Start on a freshly started bot, 1 bot:" in done.stdout
