"""Read card lists and board layouts from ``candybot_data/``.

Content is the ``candybot_data`` package (the repository's ``candybot_data/``
folder, shipped in the wheel beside ``bot`` and ``renderers``); when the project
runs from a source tree that is not installed, that folder is read directly.
Files are read once and cached.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

_SOURCE_DATA = Path(__file__).resolve().parents[2] / "candybot_data"


def data_path(*parts: str) -> Path:
    """Path of a file under ``candybot_data/`` (installed package first, then the source tree)."""
    try:
        root = resources.files("candybot_data")
        candidate = Path(str(root.joinpath(*parts)))
        if candidate.exists():
            return candidate
    except ModuleNotFoundError:
        pass
    return _SOURCE_DATA.joinpath(*parts)


@cache
def load_json(*parts: str) -> Any:
    """Parsed JSON of ``candybot_data/<parts>``; cached, so treat the result as read-only."""
    with data_path(*parts).open(encoding="utf-8") as handle:
        return json.load(handle)
