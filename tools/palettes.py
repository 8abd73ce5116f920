"""Write the palettes kept beside the renderers (``renderers/palettes.json``): each game's
palette as its pictures make it (:meth:`renderers.common.Pictures.made_palette`), so that a
freshly started bot draws its first picture without making one. Run it after a change that
changes a game's palette (``tests/renderers/test_frame.py`` says so)::

    python -m tools.palettes
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import renderers
from renderers.common import PALETTES, Pictures

#: Where the palettes are kept.
KEPT = Path(renderers.__file__).with_name(PALETTES)


def made() -> dict[str, str]:
    """Every registered renderer's palette made from its pictures, by game, as hex."""
    from bot.games import GAMES, package_of

    out: dict[str, str] = {}
    for slug in sorted(GAMES):
        module = importlib.import_module(f"renderers.{package_of(slug)}")
        pictures = getattr(module, "PICTURES", None)
        if isinstance(pictures, Pictures) and pictures.slug == slug:
            out[slug] = bytes(pictures.made_palette().getpalette() or ()).hex()
    return out


def write(path: Path = KEPT) -> None:
    path.write_text(json.dumps(made(), indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else KEPT)
