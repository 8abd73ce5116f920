"""No import cycles among the project's modules (the bot, its renderers and the tools),
counting every import; and no import that runs up a layer.

Imports inside functions and under ``TYPE_CHECKING`` count too: a cycle hidden
in a function is still two modules that each need the other. An import names
the most specific project module it reaches (``from bot.games.sugartopia import
tiles`` is an edge to ``tiles``, not to the package), and the implicit import of
a parent package is not an edge.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "renderers", "tools")


def project_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Every project module ``module`` imports, wherever the import statement stands."""
    found: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                     for a in node.names]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def project_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {m: imports_of(m, p, modules) for m, p in modules.items()}


def test_the_project_has_no_import_cycle_counting_every_import():
    found = cycles(project_graph())
    assert not found, "modules that import each other: " + "; ".join(
        " <-> ".join(group) for group in found)


def test_an_import_inside_a_function_or_under_type_checking_counts(tmp_path: Path):
    rules = tmp_path / "rules.py"
    rules.write_text("def ai():\n    from game import view\n", encoding="utf-8")
    view = tmp_path / "view.py"
    view.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                    "    from game.rules import Rules\n", encoding="utf-8")
    modules = {"game.rules": rules, "game.view": view, "game": tmp_path / "__init__.py"}
    graph = {m: imports_of(m, p, modules) for m, p in modules.items() if m != "game"}
    graph["game"] = set()
    assert cycles(graph) == [["game.rules", "game.view"]]


def test_the_rules_of_a_game_are_not_imported_by_its_view_or_its_ai():
    graph = project_graph()
    for module, needs in graph.items():
        if module.startswith("bot.games.") and module.rpartition(".")[2] in ("view", "ai"):
            rules = module.rpartition(".")[0] + ".rules"
            assert rules not in needs, f"{module} imports {rules}: read a Protocol instead"


#: What puts the bot together may import its Discord layer; nothing else of the bot below
#: it may (settings, tables, store, games, web, ops sit under it).
COMPOSERS = ("bot.app", "bot.cli")


def test_nothing_below_the_discord_layer_imports_it():
    upward = sorted(f"{module} imports {needed}"
                    for module, needs in project_graph().items()
                    if module.startswith("bot.") and not module.startswith("bot.discord")
                    and module not in COMPOSERS
                    for needed in needs if needed.startswith("bot.discord"))
    assert not upward, "; ".join(upward)


#: What a game decides rather than draws: an AI seat's move and a move worked out.
RULES_WORK = {"ai_action", "apply", "legal_actions", "turn_actions", "ai"}


def test_the_render_pool_draws_and_the_rules_work_is_sent_through_bot_rules_work():
    """The workers are shared, but what they are sent to decide is the bot's: the pool
    never asks a game for a move (:mod:`bot.rules_work` does)."""
    pool = ROOT / "renderers" / "pool.py"
    asked = sorted(f"pool.py:{node.lineno} .{node.func.attr}()"
                   for node in ast.walk(ast.parse(pool.read_text(encoding="utf-8")))
                   if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                   and node.func.attr in RULES_WORK)
    assert not asked, "; ".join(asked)
