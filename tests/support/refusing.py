"""Expect a refusal, and check the words the person who asked reads."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.discord.words import refusal
from bot.games.engine import GameError


@contextmanager
def refused(pattern: str) -> Iterator[pytest.ExceptionInfo[GameError]]:
    """The block raises a refusal (or any error a player can cause) whose words, as the
    Discord layer says them, match ``pattern``; the error is kept in what it gives."""
    with pytest.raises(GameError) as caught:
        yield caught
    said = refusal(caught.value)
    assert re.search(pattern, said), said


def told(board: object) -> str:
    """What the board says its change did besides its moves, as the Discord layer words it."""
    from bot.discord.words import news

    return " ".join(news(item) for item in getattr(board, "news", ()))
