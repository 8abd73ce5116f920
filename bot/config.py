"""Bot settings, read from the environment or a ``.env`` file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_DB = "./candybot.db"
DEFAULT_LOG_LEVEL = "info"
#: The values ``CANDYBOT_LOG`` accepts, quietest last.
LOG_LEVELS = ("debug", "info", "warning", "error")
#: How often the reminder loop looks for games that are due, in seconds.
DEFAULT_REMINDER_POLL = 60.0


class ConfigError(ValueError):
    """A setting has a value candybot cannot use; ``str()`` says which and what to do."""


@dataclass(frozen=True)
class Settings:
    """What the bot needs to run. ``token`` may be absent (then ``run`` refuses to start)."""

    token: str | None = field(default=None, repr=False)
    db_path: Path = Path(DEFAULT_DB)
    reminder_poll_seconds: float = DEFAULT_REMINDER_POLL
    log_level: str = DEFAULT_LOG_LEVEL

    def __repr__(self) -> str:
        # The token never appears in logs or tracebacks, only whether it is set.
        shown = "set" if self.token else "missing"
        return (f"Settings(token=<{shown}>, db_path={str(self.db_path)!r}, "
                f"reminder_poll_seconds={self.reminder_poll_seconds}, "
                f"log_level={self.log_level!r})")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None,
                 dotenv: Path | str | None = ".env") -> Settings:
        """Read ``DISCORD_TOKEN``, ``CANDYBOT_DB`` and ``CANDYBOT_LOG``; the environment wins
        over ``.env``. Raises :class:`ConfigError` for a log level it does not know."""
        values: dict[str, str] = {}
        if dotenv is not None:
            values.update(read_dotenv(Path(dotenv)))
        values.update(os.environ if environ is None else environ)
        token = values.get("DISCORD_TOKEN", "").strip() or None
        db = values.get("CANDYBOT_DB", "").strip() or DEFAULT_DB
        level = parse_log_level(values.get("CANDYBOT_LOG", ""))
        return cls(token=token, db_path=Path(db), log_level=level)


def parse_log_level(text: str) -> str:
    """``CANDYBOT_LOG`` as one of :data:`LOG_LEVELS`; empty means the default."""
    level = text.strip().lower() or DEFAULT_LOG_LEVEL
    if level not in LOG_LEVELS:
        raise ConfigError(f"CANDYBOT_LOG={text.strip()!r} is not a log level: use one of "
                          f"{', '.join(LOG_LEVELS)} (or leave it unset for {DEFAULT_LOG_LEVEL}).")
    return level


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
