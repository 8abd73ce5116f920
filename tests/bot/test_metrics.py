"""The Prometheus endpoint answers, with what operators alert on."""

from __future__ import annotations

import logging
import math
import urllib.request

from bot.metrics import Metrics


def scrape(metrics: Metrics) -> str:
    assert metrics.port is not None
    with urllib.request.urlopen(f"http://127.0.0.1:{metrics.port}/metrics", timeout=10) as r:
        return r.read().decode()


def test_the_endpoint_answers_with_moves_answers_gateway_games_and_announcements():
    metrics = Metrics()
    metrics.serve(0, addr="127.0.0.1")
    try:
        metrics.moved("sugar-blast", 1, 2)
        metrics.answered("command", 0.3)
        metrics.answered("command", 1.7)
        metrics.follow_latency(lambda: 0.042)
        metrics.reconnects.inc()
        metrics.set_open_games({("sugar-blast", "active"): 2, ("sugarworks", "lobby"): 1})
        metrics.announcements_waiting.set(3)
        text = scrape(metrics)
    finally:
        metrics.close()
    assert 'candybot_moves_total{by="player",game="sugar-blast"} 1.0' in text
    assert 'candybot_moves_total{by="ai",game="sugar-blast"} 2.0' in text
    assert 'candybot_answer_seconds_bucket{kind="command",le="1.0"} 1.0' in text
    assert 'candybot_answer_seconds_count{kind="command"} 2.0' in text
    assert "candybot_gateway_latency_seconds 0.042" in text
    assert "candybot_gateway_reconnects_total 1.0" in text
    assert 'candybot_open_games{game="sugar-blast",status="active"} 2.0' in text
    assert 'candybot_open_games{game="sugarworks",status="lobby"} 1.0' in text
    assert "candybot_announcements_waiting 3.0" in text
    assert metrics.port is None


def test_open_games_drop_a_game_that_has_none_left():
    metrics = Metrics()
    metrics.set_open_games({("sugar-blast", "active"): 2})
    metrics.set_open_games({})
    assert metrics.registry.get_sample_value(
        "candybot_open_games", {"game": "sugar-blast", "status": "active"}) is None


def test_gateway_latency_is_nan_while_not_connected():
    metrics = Metrics()
    metrics.follow_latency(lambda: math.inf)
    value = metrics.registry.get_sample_value("candybot_gateway_latency_seconds")
    assert value is not None and math.isnan(value)


def test_every_error_logged_is_counted_by_its_exception_class():
    metrics = Metrics()
    logger = logging.getLogger("test_metrics.errors")
    logger.addHandler(metrics.error_counter())
    logger.propagate = False
    try:
        try:
            raise TimeoutError("slow")
        except TimeoutError:
            logger.exception("the reminder pass failed")
        logger.error("no handler registered")
        logger.warning("only a warning")
    finally:
        logger.handlers.clear()
        logger.propagate = True
    count = metrics.registry.get_sample_value
    assert count("candybot_errors_total", {"kind": "TimeoutError"}) == 1
    assert count("candybot_errors_total", {"kind": "logged"}) == 1
