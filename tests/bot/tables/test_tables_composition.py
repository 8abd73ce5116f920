"""The tables are services composed around one commit pipeline, not a tower of mixins.

Every service is given the same :class:`~bot.tables.core.Pipeline`; none inherits another's
methods, and none grows past :data:`MOST_PUBLIC_METHODS` public methods.
"""

from __future__ import annotations

import ast
from pathlib import Path

from bot.store import Store
from bot.tables import Tables
from tests.support.paths import ROOT

TABLES = ROOT / "bot" / "tables"
#: A room small enough to read whole.
MOST_PUBLIC_METHODS = 30


def classes() -> dict[str, tuple[Path, ast.ClassDef]]:
    found = {}
    for path in sorted(TABLES.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                found[node.name] = (path, node)
    return found


def methods(node: ast.ClassDef) -> list[str]:
    return [f.name for f in node.body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)]


def test_no_class_of_the_tables_inherits_the_methods_of_another():
    found = classes()
    inherited = sorted(f"{name}({ast.unparse(base)})"
                       for name, (_, node) in found.items() for base in node.bases
                       if ast.unparse(base) in found and methods(found[ast.unparse(base)][1]))
    assert not inherited, "a mixin chain: " + ", ".join(inherited)


def public_methods(name: str, found: dict[str, tuple[Path, ast.ClassDef]]) -> set[str]:
    """A class's public methods, its own and those it inherits from the tables' classes."""
    node = found[name][1]
    own = {m for m in methods(node) if not m.startswith("_")}
    return own.union(*(public_methods(ast.unparse(base), found) for base in node.bases
                       if ast.unparse(base) in found))


def test_no_class_of_the_tables_has_more_than_thirty_public_methods():
    found = classes()
    big = {name: len(public) for name in found
           if len(public := public_methods(name, found)) > MOST_PUBLIC_METHODS}
    assert not big, big


async def test_every_service_is_given_the_one_pipeline(tmp_path: Path):
    store = await Store.open(tmp_path / "tables.db")
    try:
        tables = Tables(store)
        services = [value for name, value in vars(tables).items() if name != "pipeline"]
        # lobbies, moves, leaving, reminders, seats, queries, clocks, seasons, places,
        # upkeep, announcements
        assert len(services) >= 11
        assert all(service.pipeline is tables.pipeline for service in services)
        assert tables.pipeline.clocks is tables.clocks, "every change charges the clocks"
        assert tables.pipeline.store is store
    finally:
        await store.close()


def test_the_discord_layer_reaches_the_store_only_through_the_tables_services():
    """No ``.store`` and no store class in ``bot/discord``: its records and errors are
    values it may read, the database is the tables' own."""
    touched = []
    for path in sorted((ROOT / "bot" / "discord").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "store":
                touched.append(f"{path.name}:{node.lineno} .store")
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.store"):
                touched += [f"{path.name}:{node.lineno} imports {alias.name}"
                            for alias in node.names if alias.name.endswith("Store")]
    assert not touched, "; ".join(touched)


async def test_no_service_hands_the_discord_layer_the_database(tmp_path: Path):
    """What the Discord layer is given (the tables, their services, the organizer of
    tournaments) hands it no aggregate of the store under another name: the services'
    own ``store`` is theirs, and the scan above keeps ``.store`` out of ``bot/discord``."""
    from bot.tournaments import Organizer

    store = await Store.open(tmp_path / "tables.db")
    try:
        tables = Tables(store)
        database = {id(store), *(id(part) for part in vars(store).values())}
        given = [tables, Organizer.over(tables),
                 *(value for name, value in vars(tables).items() if name != "pipeline")]
        handed = [f"{type(owner).__name__}.{name}"
                  for owner in given for name, value in vars(owner).items()
                  if not name.startswith("_") and name != "store" and id(value) in database]
        assert not handed, handed
    finally:
        await store.close()
