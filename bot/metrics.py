"""Prometheus metrics for operators, served only when ``CANDYBOT_METRICS_PORT`` is set.

Each bot has its own registry (so tests can run several bots in one process).
What is measured, and where (docs/discord.md, "Metrics", has sample alerts):

- ``candybot_moves_total{game,by}``: moves committed (``by`` is ``player`` or ``ai``),
  counted by the tables when a move is stored;
- ``candybot_answer_seconds{kind}``: how long handling an interaction took, from the
  gate (``bot/discord/gate.py``) to its last answer; ``kind`` is ``command``,
  ``component`` or ``autocomplete``;
- ``candybot_gateway_latency_seconds`` and ``candybot_gateway_reconnects_total``;
- ``candybot_errors_total{kind}``: every error logged, by exception class (``logged``
  when none was attached);
- ``candybot_announcements_waiting`` and ``candybot_open_games{game,status}``
  (lobbies and active games): read from the database with the bot's status every 15 s.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

#: Answer times worth telling apart: Discord wants an acknowledgement within 3 s.
ANSWER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)


class Metrics:
    """The bot's metrics in their own registry; :meth:`serve` exposes them over HTTP."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.moves = Counter("candybot_moves", "Moves committed, by game and by whom.",
                             ["game", "by"], registry=self.registry)
        self.answer_seconds = Histogram(
            "candybot_answer_seconds", "Time to handle an interaction, from arrival to the "
            "last answer.", ["kind"], buckets=ANSWER_BUCKETS, registry=self.registry)
        self.gateway_latency = Gauge(
            "candybot_gateway_latency_seconds", "Discord gateway heartbeat latency "
            "(NaN while not connected).", registry=self.registry)
        self.reconnects = Counter("candybot_gateway_reconnects", "Gateway connections "
                                  "re-established (new sessions and resumes).",
                                  registry=self.registry)
        self.errors = Counter("candybot_errors", "Errors logged, by exception class.",
                              ["kind"], registry=self.registry)
        self.announcements_waiting = Gauge(
            "candybot_announcements_waiting", "Announcements in the outbox not yet accepted "
            "by Discord.", registry=self.registry)
        self.open_games = Gauge("candybot_open_games", "Open games, by game and status "
                                "(lobby, active).", ["game", "status"], registry=self.registry)
        self._server: Any = None

    # ----------------------------------------------------------------- recording

    def moved(self, game: str, players: int, ai: int) -> None:
        """Count moves just committed in ``game``."""
        if players:
            self.moves.labels(game=game, by="player").inc(players)
        if ai:
            self.moves.labels(game=game, by="ai").inc(ai)

    def answered(self, kind: str, seconds: float) -> None:
        self.answer_seconds.labels(kind=kind).observe(seconds)

    def follow_latency(self, latency: Callable[[], float]) -> None:
        """Read the gateway latency (seconds, ``inf`` when unknown) at each scrape."""
        self.gateway_latency.set_function(
            lambda: latency() if math.isfinite(latency()) else math.nan)

    def set_open_games(self, counts: Mapping[tuple[str, str], int]) -> None:
        """Replace the open-games figures with ``counts`` keyed by (game, status)."""
        self.open_games.clear()
        for (game, status), count in counts.items():
            self.open_games.labels(game=game, status=status).set(count)

    def error_counter(self) -> logging.Handler:
        """A logging handler that counts every ERROR record by its exception class."""
        return _ErrorCounter(self.errors)

    # ----------------------------------------------------------------- serving

    def serve(self, port: int, addr: str = "127.0.0.1") -> None:
        """Answer ``GET /metrics`` on ``addr:port`` from a daemon thread."""
        self._server, _thread = start_http_server(port, addr=addr, registry=self.registry)

    @property
    def port(self) -> int | None:
        """The port being served (useful when asked for port 0), or ``None``."""
        return None if self._server is None else int(self._server.server_port)

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None


class _ErrorCounter(logging.Handler):
    def __init__(self, errors: Counter) -> None:
        super().__init__(level=logging.ERROR)
        self._errors = errors

    def emit(self, record: logging.LogRecord) -> None:
        kind = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] \
            else "logged"
        self._errors.labels(kind=kind).inc()
