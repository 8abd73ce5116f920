"""Logging: one line per record on standard error, and one-line error summaries."""

from __future__ import annotations

import logging
import re
import sys
from datetime import UTC, datetime
from typing import Any

from bot.ops import Exit, OpsError

#: Operators see "bot.ops" on the error lines, whichever module found the problem.
log = logging.getLogger("bot.ops")

_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING,
           "error": logging.ERROR}


def _one_line(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")


def summarise(exc: BaseException) -> str:
    """``Type: message`` of an exception, on one line."""
    text = _one_line(str(exc).strip())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class OneLineFormatter(logging.Formatter):
    """``2026-11-23T10:00:00Z INFO bot.app: message``: one line per record, UTC.

    An exception is summarised on the same line, unless ``tracebacks`` is set: then its
    full traceback follows on the lines after.
    """

    def __init__(self, *, tracebacks: bool = False) -> None:
        super().__init__()
        self.tracebacks = tracebacks

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return datetime.fromtimestamp(record.created, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    def format(self, record: logging.LogRecord) -> str:
        line = (f"{self.formatTime(record)} {record.levelname} {record.name}: "
                f"{_one_line(record.getMessage())}")
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None and record.exc_info is not None:
            if self.tracebacks:
                return f"{line}\n{self.formatException(record.exc_info).rstrip()}"
            line += f" [{summarise(exc)}]"
        if record.stack_info and self.tracebacks:
            line += f"\n{self.formatStack(record.stack_info)}"
        return line


#: What a log line must never carry, and what stands in its place: interaction and webhook
#: tokens in URLs and payloads (each answers for its interaction for 15 minutes), and
#: the text of messages and options (what players wrote or were told, hidden moves too).
_SECRETS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(/(?:webhooks|interactions)/\d+/)[A-Za-z0-9_.\-]{8,}"), r"\1<token>"),
    (re.compile(r"""(['"]token['"]\s*:\s*)(['"])(?:\\.|(?!\2).)*\2"""), r"\1\2<token>\2"),
    (re.compile(r"""(['"](?:content|value|values|description|label|placeholder|custom_id)"""
                r"""['"]\s*:\s*)(['"])(?:\\.|(?!\2).)*\2"""), r"\1\2<text>\2"),
)


class Redacted(logging.Filter):
    """Takes interaction tokens and message text out of every log line (discord.py's
    DEBUG lines print whole requests and gateway events)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


def redact(text: str) -> str:
    """``text`` without interaction tokens or message text (see :data:`_SECRETS`)."""
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is when a record arrives."""

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def setup_logging(level: str = "info", *, debug: bool = False) -> None:
    """Log to standard error, one line per record, at ``level`` (``debug`` forces DEBUG).

    Full tracebacks only at DEBUG; discord.py's own INFO lines too. Calling it again
    replaces the previous set-up.
    """
    name = "debug" if debug else level
    root = logging.getLogger()
    for handler in [h for h in root.handlers if isinstance(h, _StderrHandler)]:
        root.removeHandler(handler)
    handler = _StderrHandler()
    handler.setFormatter(OneLineFormatter(tracebacks=name == "debug"))
    handler.addFilter(Redacted())
    root.addHandler(handler)
    root.setLevel(_LEVELS[name])
    # aiosqlite's DEBUG lines name every query: noise even when debugging the bot.
    logging.getLogger("aiosqlite").setLevel(logging.INFO)
    # discord.py's routine INFO lines (logging in, gateway sessions) only when debugging,
    # so a normal start logs one line: the bot's own "ready".
    logging.getLogger("discord").setLevel(logging.NOTSET if name == "debug" else
                                          max(logging.WARNING, _LEVELS[name]))


def silence_voice_warnings() -> None:
    """The bot uses no voice: stop discord.py warning that voice libraries are missing."""
    from discord.voice_client import VoiceClient

    for flag in ("warn_nacl", "warn_dave"):
        if hasattr(VoiceClient, flag):
            setattr(VoiceClient, flag, False)


def fail(problem: BaseException, *, debug: bool = False) -> int:
    """Log ``problem`` as one ERROR line, after its traceback with ``debug``; its exit code."""
    if isinstance(problem, OpsError):
        code, message = problem.code, str(problem)
        cause = problem.__cause__ or problem
    else:
        code, cause = Exit.FAILED, problem
        message = (f"Unexpected error: {summarise(problem)}. Run again with --debug for the "
                   f"full traceback.")
    if debug:
        log.debug("the traceback of what follows:", exc_info=cause)
    log.error("%s", message)
    return int(code)
