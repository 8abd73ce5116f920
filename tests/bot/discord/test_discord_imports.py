"""Every bot module imports on its own, and no two modules import each other in a ring.

The graph is read from the source: imports at module level (not those inside
functions, which run late, nor those under ``TYPE_CHECKING``, which never run).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

PACKAGES = ("bot",)


def module_names() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def module_level_imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The bot modules ``name`` imports while it is being imported."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.If) and not _is_type_checking(node):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)

    visit(tree.body)
    return {m for m in found if m in known and m != name and not name.startswith(m + ".")}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A ring of imports, if the graph has one."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = walk(node)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_ring() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_bot_module_imports_one_that_imports_it_back() -> None:
    modules = module_names()
    known = set(modules)
    graph = {name: module_level_imports(name, path, known) for name, path in modules.items()}
    assert "bot.discord.components" not in graph["bot.discord.flows"] or \
        "bot.discord.flows" not in graph["bot.discord.components"]
    cycle = find_cycle(graph)
    assert cycle is None, " -> ".join(cycle or [])


@pytest.mark.slow  # a fresh interpreter per module
def test_every_module_of_the_discord_layer_and_the_tables_imports_on_its_own() -> None:
    # The layers that once had a ring are imported for real, each first, with the game
    # catalogue kept loaded (it costs a tenth of a second a time); the graph above
    # covers the rest.
    names = sorted(n for n in module_names()
                   if n.startswith(("bot.discord", "bot.tables")) or n == "bot.store")
    script = (
        "import importlib, sys\n"
        "import bot.games\n"
        "failed = []\n"
        f"for name in {names!r}:\n"
        "    for loaded in [m for m in sys.modules if m.startswith(('bot.discord', "
        "'bot.tables', 'bot.store', 'bot.app', 'bot.ops', 'bot.config'))]:\n"
        "        del sys.modules[loaded]\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except Exception as exc:\n"
        "        failed.append(f'{name}: {exc!r}')\n"
        "print('\\n'.join(failed))\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", done.stdout


def test_the_running_bot_never_loads_the_tools() -> None:
    # The tools (the offline Discord reaches into discord.py's internals, the bench, the
    # arena) are for the tests and the developers, never `candybot run`.
    script = ("import sys, pkgutil\n"
              "import bot\n"
              "for info in pkgutil.walk_packages(bot.__path__, 'bot.'):\n"
              "    __import__(info.name)\n"
              "loaded = [m for m in sys.modules if m == 'tools' or m.startswith('tools.')]\n"
              "assert not loaded, loaded\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
