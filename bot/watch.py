"""Where a move spends its time: marks the bot makes for a tool that measures it.

The tables mark the rules' work (``engine``), the views (``views``) and the state's
JSON (``state JSON``); the store marks every call (``store``). ``candybot bench``
passes a :class:`Watch` that times each mark; by default nobody watches and a mark
costs one call.

>>> with unwatched("engine"):
...     pass
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from typing import Protocol


class Watch(Protocol):
    """Times the work done inside ``with watch(stage):``."""

    def __call__(self, stage: str) -> AbstractContextManager[object]: ...


def unwatched(stage: str) -> AbstractContextManager[object]:
    """The watch of a bot nobody measures."""
    return nullcontext()
