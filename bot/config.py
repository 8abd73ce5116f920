"""Bot settings, read from the environment or a ``.env`` file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bot.limits import Limits
from bot.store.base import is_postgres
from bot.store.postgres import redacted

DEFAULT_DB = "./candybot.db"
#: Requests a second the bot allows itself (:mod:`bot.discord.pacing`), one every 1/40 s,
#: well under Discord's 50: a request reaches Discord a little sooner or later than it
#: left (a new connection, a busy event loop), and Discord counts them as they arrive.
DEFAULT_PER_SECOND = 40
#: The most a setting may ask: with the pacing's burst and that jitter, still under
#: Discord's 50.
MOST_PER_SECOND = 45
#: With ``CANDYBOT_DB`` a PostgreSQL URL: the stem of this process's local files.
DEFAULT_STATE = "./candybot-postgres"
DEFAULT_LOG_LEVEL = "info"
#: The values ``CANDYBOT_LOG`` accepts, quietest last.
LOG_LEVELS = ("debug", "info", "warning", "error")
#: How often the reminder loop looks for games that are due, in seconds.
DEFAULT_REMINDER_POLL = 60.0
#: How long a stop (SIGTERM, SIGINT) waits for moves in flight, in seconds: under
#: the 10 s Docker, systemd and Kubernetes wait before they kill.
DEFAULT_STOP_SECONDS = 8.0
#: Where the metrics endpoint listens unless ``CANDYBOT_METRICS_HOST`` says otherwise.
DEFAULT_METRICS_HOST = "127.0.0.1"
#: Where the web companion listens unless ``CANDYBOT_WEB_HOST`` says otherwise: behind a
#: reverse proxy on the same machine, which serves ``CANDYBOT_PUBLIC_URL``.
DEFAULT_WEB_HOST = "127.0.0.1"
#: Seconds a lobby being opened may go without a step before the bot's next pass takes it
#: to be left behind by a bot stopped midway, and finishes it or takes it back
#: (bot/discord/opening.py): well over the few seconds an opening takes.
DEFAULT_OPENING_GRACE_SECONDS = 60.0
#: Days delivered announcements are kept (docs/privacy.md).
DEFAULT_KEEP_DAYS = 30.0
#: Days a server's games are kept after it removed the bot, in case it comes back.
DEFAULT_GRACE_DAYS = 30.0
#: The limits one person or server meets, each from its own variable (docs/reliability.md).
LIMIT_VARIABLES: dict[str, str] = {
    "CANDYBOT_MAX_LOBBIES": "lobbies_per_person",
    "CANDYBOT_MAX_GAMES": "games_per_person",
    "CANDYBOT_MAX_SERVER_GAMES": "games_per_server",
    "CANDYBOT_COOLDOWN_SECONDS": "public_cooldown",
    "CANDYBOT_REPLAY_COOLDOWN_SECONDS": "replay_cooldown",
    "CANDYBOT_HEAVY_AT_ONCE": "heavy_at_once",
    "CANDYBOT_LOBBY_DAYS": "lobby_days",
    "CANDYBOT_MAX_SEASONS": "seasons_per_server",
    "CANDYBOT_MAX_TOURNAMENTS": "tournaments_per_server",
    "CANDYBOT_MAX_TOURNAMENT_PLAYERS": "players_per_tournament",
    "CANDYBOT_MAX_TOURNAMENT_SIGNUPS": "tournaments_per_person",
}


class ConfigError(ValueError):
    """A setting has a value candybot cannot use; ``str()`` says which and what to do."""


@dataclass(frozen=True)
class Settings:
    """What the bot needs to run. ``token`` may be absent (then ``run`` refuses to start)."""

    token: str | None = field(default=None, repr=False)
    db_path: Path = Path(DEFAULT_DB)
    #: ``CANDYBOT_DB`` when it is a ``postgresql://`` URL; ``db_path`` then only names the
    #: local files (the health status) of this process.
    db_url: str | None = field(default=None, repr=False)
    reminder_poll_seconds: float = DEFAULT_REMINDER_POLL
    log_level: str = DEFAULT_LOG_LEVEL
    #: The port of the Prometheus endpoint; ``None``: no endpoint.
    metrics_port: int | None = None
    #: The address the metrics endpoint listens on (loopback unless told otherwise).
    metrics_host: str = DEFAULT_METRICS_HOST
    #: What one person or one server may ask (see :mod:`bot.limits`).
    limits: Limits = field(default_factory=Limits)
    #: Days delivered announcements are kept, and a removed server's games.
    keep_days: float = DEFAULT_KEEP_DAYS
    grace_days: float = DEFAULT_GRACE_DAYS
    stop_seconds: float = DEFAULT_STOP_SECONDS
    #: Seconds without a step after which a lobby being opened was left behind.
    opening_grace_seconds: float = DEFAULT_OPENING_GRACE_SECONDS
    #: Shards across all processes (``--shard-count``); ``None``: one unsharded connection.
    shard_count: int | None = None
    #: The shards this process runs (``--shard-ids``); ``None``: all of ``shard_count``.
    shard_ids: tuple[int, ...] | None = None
    #: Requests a second this process sends to Discord outside interaction answers
    #: (:mod:`bot.discord.pacing`); 0 turns the pacing off.
    requests_per_second: int = DEFAULT_PER_SECOND
    #: The web companion (bot/web, docs/web.md): the address people reach its pages at
    #: (``None``: no pages, no links), and the port this process serves them on (``None``:
    #: another process, ``candybot web``, serves them; a port needs the address).
    web_port: int | None = None
    web_host: str = DEFAULT_WEB_HOST
    public_url: str | None = None

    @property
    def web(self) -> bool:
        """Whether the operator runs the web companion (so Discord links to its pages)."""
        return self.public_url is not None

    def __repr__(self) -> str:
        # The token never appears in logs or tracebacks, only whether it is set.
        shown = "set" if self.token else "missing"
        return (f"Settings(token=<{shown}>, database={self.database_shown!r}, "
                f"reminder_poll_seconds={self.reminder_poll_seconds}, "
                f"log_level={self.log_level!r}, metrics_port={self.metrics_port}, "
                f"metrics_host={self.metrics_host!r}, limits={self.limits}, "
                f"keep_days={self.keep_days:g}, grace_days={self.grace_days:g}, "
                f"stop_seconds={self.stop_seconds}, "
                f"opening_grace_seconds={self.opening_grace_seconds:g}, "
                f"shard_count={self.shard_count}, "
                f"shard_ids={self.shard_ids}, "
                f"requests_per_second={self.requests_per_second}, "
                f"web_port={self.web_port}, web_host={self.web_host!r}, "
                f"public_url={self.public_url!r})")

    @property
    def database(self) -> str:
        """Where the games are kept: the PostgreSQL URL, or the SQLite file."""
        return self.db_url or str(self.db_path)

    @property
    def database_shown(self) -> str:
        """:attr:`database` fit for logs (a URL's password left out)."""
        if self.db_url is None:
            return str(self.db_path)
        return redacted(self.db_url)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None,
                 dotenv: Path | str | None = ".env") -> Settings:
        """Read ``DISCORD_TOKEN``, ``CANDYBOT_DB`` (a SQLite file, or a ``postgresql://`` URL
        with ``CANDYBOT_STATE`` naming this process's local files), ``CANDYBOT_LOG``,
        ``CANDYBOT_METRICS_PORT``, ``CANDYBOT_STOP_SECONDS``,
        ``CANDYBOT_OPENING_GRACE_SECONDS``, ``CANDYBOT_REQUESTS_PER_SECOND`` and the web
        companion's ``CANDYBOT_WEB_PORT``, ``CANDYBOT_WEB_HOST`` and ``CANDYBOT_PUBLIC_URL``;
        the environment wins over ``.env``. Raises :class:`ConfigError` for a value it
        cannot use."""
        values: dict[str, str] = {}
        if dotenv is not None:
            values.update(read_dotenv(Path(dotenv)))
        values.update(os.environ if environ is None else environ)
        token = values.get("DISCORD_TOKEN", "").strip() or None
        db = values.get("CANDYBOT_DB", "").strip() or DEFAULT_DB
        url = db if is_postgres(db) else None
        if url is not None:
            # Local files of a process on PostgreSQL (its health status) go here.
            db = values.get("CANDYBOT_STATE", "").strip() or DEFAULT_STATE
        level = parse_log_level(values.get("CANDYBOT_LOG", ""))
        port = parse_port(values.get("CANDYBOT_METRICS_PORT", ""))
        stop = parse_seconds("CANDYBOT_STOP_SECONDS", values.get("CANDYBOT_STOP_SECONDS", ""),
                             DEFAULT_STOP_SECONDS)
        opening_grace = parse_seconds("CANDYBOT_OPENING_GRACE_SECONDS",
                                      values.get("CANDYBOT_OPENING_GRACE_SECONDS", ""),
                                      DEFAULT_OPENING_GRACE_SECONDS)
        host = values.get("CANDYBOT_METRICS_HOST", "").strip() or DEFAULT_METRICS_HOST
        keep = parse_seconds("CANDYBOT_KEEP_DAYS", values.get("CANDYBOT_KEEP_DAYS", ""),
                             DEFAULT_KEEP_DAYS)
        grace = parse_seconds("CANDYBOT_GRACE_DAYS", values.get("CANDYBOT_GRACE_DAYS", ""),
                              DEFAULT_GRACE_DAYS)
        pace = parse_pace(values.get("CANDYBOT_REQUESTS_PER_SECOND", ""))
        web_port, public_url = parse_web(values.get("CANDYBOT_WEB_PORT", ""),
                                         values.get("CANDYBOT_PUBLIC_URL", ""))
        web_host = values.get("CANDYBOT_WEB_HOST", "").strip() or DEFAULT_WEB_HOST
        return cls(token=token, db_path=Path(db), db_url=url, log_level=level,
                   metrics_port=port, metrics_host=host, limits=parse_limits(values),
                   keep_days=keep, grace_days=grace, stop_seconds=stop,
                   opening_grace_seconds=opening_grace,
                   requests_per_second=pace, web_port=web_port, web_host=web_host,
                   public_url=public_url)


def parse_pace(text: str) -> int:
    """``CANDYBOT_REQUESTS_PER_SECOND``: a whole number from 0 (no pacing) to
    :data:`MOST_PER_SECOND` (under Discord's global limit of 50 with
    the pacing's burst); empty means the default. Processes sharing one bot token share
    Discord's limit, so each takes its part of it."""
    text = text.strip()
    if not text:
        return DEFAULT_PER_SECOND
    if not text.isdigit() or int(text) > MOST_PER_SECOND:
        raise ConfigError(f"CANDYBOT_REQUESTS_PER_SECOND={text!r} is not a pace: use a whole "
                          f"number from 1 to {MOST_PER_SECOND} (e.g. {DEFAULT_PER_SECOND}; "
                          f"processes on one bot token share {DEFAULT_PER_SECOND} between "
                          "them), or 0 for no pacing (not advised).")
    return int(text)


def parse_limits(values: Mapping[str, str]) -> Limits:
    """The :class:`~bot.limits.Limits` the ``CANDYBOT_MAX_*``/``*_SECONDS`` variables set
    (each a positive number; unset: the default)."""
    limits = Limits()
    changes: dict[str, Any] = {}
    for variable, name in LIMIT_VARIABLES.items():
        text = values.get(variable, "").strip()
        if not text:
            continue
        default = getattr(limits, name)
        if isinstance(default, int):
            if not text.isdigit() or not 1 <= int(text) <= 1_000_000:
                raise ConfigError(f"{variable}={text!r} is not a count: use a whole number "
                                  f"from 1 (e.g. {default}), or leave it unset for {default}.")
            changes[name] = int(text)
        else:
            changes[name] = parse_seconds(variable, text, default)
    return replace(limits, **changes)


def parse_shards(count: int | None, ids: str | None) -> tuple[int | None, tuple[int, ...] | None]:
    """``--shard-count N`` and ``--shard-ids 0,1`` checked together: every id below ``N``,
    none twice; ids need a count."""
    if count is None:
        if ids is not None:
            raise ConfigError("--shard-ids needs --shard-count: say how many shards there are "
                              "in all, e.g. --shard-count 4 --shard-ids 0,1.")
        return None, None
    if count < 1:
        raise ConfigError(f"--shard-count {count} is not a number of shards: use 1 or more.")
    if ids is None:
        return count, None
    parts = [part.strip() for part in ids.split(",")]
    if not all(part.isdigit() for part in parts):
        raise ConfigError(f"--shard-ids {ids!r} is not a list of shard numbers: use e.g. 0,1.")
    numbers = tuple(int(part) for part in parts)
    outside = [n for n in numbers if n >= count]
    if outside:
        raise ConfigError(f"--shard-ids {ids!r}: shard {outside[0]} does not exist; with "
                          f"--shard-count {count} the shards are 0 to {count - 1}.")
    if len(set(numbers)) != len(numbers):
        raise ConfigError(f"--shard-ids {ids!r} names a shard twice.")
    return count, numbers


def parse_log_level(text: str) -> str:
    """``CANDYBOT_LOG`` as one of :data:`LOG_LEVELS`; empty means the default."""
    level = text.strip().lower() or DEFAULT_LOG_LEVEL
    if level not in LOG_LEVELS:
        raise ConfigError(f"CANDYBOT_LOG={text.strip()!r} is not a log level: use one of "
                          f"{', '.join(LOG_LEVELS)} (or leave it unset for {DEFAULT_LOG_LEVEL}).")
    return level


def parse_port(text: str, name: str = "CANDYBOT_METRICS_PORT", example: int = 9108,
               unset: str = "no metrics endpoint") -> int | None:
    """``CANDYBOT_METRICS_PORT`` (or ``name``): a TCP port, or empty for none."""
    text = text.strip()
    if not text:
        return None
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise ConfigError(f"{name}={text!r} is not a port: use a number from 1 "
                          f"to 65535 (e.g. {example}), or leave it unset for {unset}.")
    return int(text)


def parse_web(port_text: str, url_text: str) -> tuple[int | None, str | None]:
    """``CANDYBOT_WEB_PORT`` and ``CANDYBOT_PUBLIC_URL``: the port this process serves the web
    companion on, and the ``http(s)://`` address people reach it at (no query, no fragment;
    a trailing slash is dropped). The address alone gives links to pages another process
    serves (``candybot web``); a port needs the address."""
    port = parse_port(port_text, "CANDYBOT_WEB_PORT", 8080, "no web companion")
    url = url_text.strip().rstrip("/") or None
    if url is not None:
        scheme, _, rest = url.partition("://")
        host = rest.split("/", 1)[0]
        if (scheme not in ("http", "https") or not host or any(c in url for c in "?#\"\' <>")
                or any(ord(c) < 33 for c in url)):
            raise ConfigError(f"CANDYBOT_PUBLIC_URL={url_text.strip()!r} is not an address "
                              "people can open: use http:// or https://, a host and at most a "
                              "path, e.g. https://candybot.example.org (no query, no spaces).")
    if port is not None and url is None:
        raise ConfigError("CANDYBOT_WEB_PORT is set but CANDYBOT_PUBLIC_URL is not: the web "
                          "companion needs the address people reach its pages at (docs/web.md), "
                          "or leave both unset to keep it off.")
    return port, url


def parse_seconds(name: str, text: str, default: float) -> float:
    """A positive number of seconds; empty means ``default``."""
    text = text.strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise ConfigError(f"{name}={text!r} is not a number of seconds: use e.g. {default:g}, "
                          f"or leave it unset for {default:g}.")
    return value


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=VALUE`` lines of a ``.env`` file; comments, blanks and ``export`` are allowed."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return {}
    out: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        out[key] = value
    return out
