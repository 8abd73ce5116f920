"""The benchmark script runs and reports sane figures (it is not a timed test)."""

from __future__ import annotations

from bot.bench import ai_win_rate, bench_move, bench_render


def test_bench_reports_render_and_move_figures():
    render = bench_render(3)
    assert render["width_px"] >= 1000 and render["png_kb"]["median"] > 0
    assert bench_move(3)["move_ms"]["median"] > 0


def test_ai_win_rate_is_a_fraction_of_the_games():
    rate = ai_win_rate(games=4)
    assert rate in (0.0, 0.25, 0.5, 0.75, 1.0)
