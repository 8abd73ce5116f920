"""Read card lists and board layouts from ``data/``.

The content is the repository's ``data/`` folder, shipped in the wheel as the
``candybot_data`` package beside ``bot`` and ``renderers``. Running from a source
tree (a checkout, with its ``pyproject.toml``), ``data/`` is read directly, so an
edit there counts at once; an installed bot reads the package. Files are read once
and cached.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

_CHECKOUT = Path(__file__).resolve().parents[2]
_SOURCE_DATA = _CHECKOUT / "data"


def data_root() -> Path:
    """The content folder: the checkout's ``data/``, else the installed package."""
    if (_CHECKOUT / "pyproject.toml").is_file() and _SOURCE_DATA.is_dir():
        return _SOURCE_DATA
    return Path(str(resources.files("candybot_data")))


def data_path(*parts: str) -> Path:
    """Path of a file of the content (``data/<parts>``)."""
    return data_root().joinpath(*parts)


@cache
def load_json(*parts: str) -> Any:
    """Parsed JSON of ``data/<parts>``; cached, so treat the result as read-only."""
    with data_path(*parts).open(encoding="utf-8") as handle:
        return json.load(handle)


def by_id(entries: Iterable[dict[str, Any]], wanted: str) -> dict[str, Any]:
    """The entry of a content list whose ``id`` is ``wanted``; ``KeyError`` if none is."""
    for entry in entries:
        if entry["id"] == wanted:
            return entry
    raise KeyError(wanted)
