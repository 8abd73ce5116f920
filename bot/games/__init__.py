"""Pure game rules. Nothing in this package imports discord or PIL or does I/O
beyond reading its own content files from ``data/`` once.

The catalogue: a game is one package ``bot/games/<package>/`` whose ``GAME`` is
the engine around its rules (``Engine(YourRules())``). From the package name follow its renderer
(``renderers/<package>.py``), its content (``data/<package>/``) and from its slug
its rules document (``docs/rules/<slug>.md``). Adding a game adds one line to
:data:`PACKAGES` and touches nothing else outside its own files.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from bot.games.engine import Engine, OptionsError, check_contract

#: One line per game, in the order games are listed to players.
PACKAGES: tuple[str, ...] = (
    "sugar_blast",
    "sugartopia",
    "sugar_heist",
    "sugarworks",
    "candy_monsters",
)


@dataclass(frozen=True)
class Entry:
    """Where everything of one game is found."""

    package: str
    game: Engine

    @property
    def slug(self) -> str:
        return self.game.slug

    @property
    def renderer_module(self) -> str:
        return f"renderers.{self.package}"

    @property
    def data_folder(self) -> str:
        return self.package

    @property
    def docs_page(self) -> str:
        return f"docs/rules/{self.slug}.md"


def _catalogue() -> dict[str, Entry]:
    entries: dict[str, Entry] = {}
    for package in PACKAGES:
        game = importlib.import_module(f"bot.games.{package}").GAME
        check_contract(game.rules)
        entries[game.slug] = Entry(package, game)
    return entries


CATALOGUE: dict[str, Entry] = _catalogue()
GAMES: dict[str, Engine] = {slug: entry.game for slug, entry in CATALOGUE.items()}


def get_game(slug: str) -> Engine:
    """The registered game called ``slug``; a clear error otherwise."""
    try:
        return GAMES[slug]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise OptionsError(f"There is no game called {slug!r}. Games: {known}.") from None


def package_of(slug: str) -> str:
    """The package (and renderer and data folder) name of the game ``slug``."""
    entry = CATALOGUE.get(slug)
    return entry.package if entry is not None else slug.replace("-", "_")
