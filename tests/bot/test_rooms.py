"""No class in ``bot/`` is a room too large to read whole.

A class's public methods are counted from the source, by AST: every ``def`` and ``async
def`` in its body whose name does not start with ``_`` (so dunder and private methods are
left out), class and static methods included, properties (``@property`` and their
``.setter``/``.deleter``) left out, plus those it inherits from other classes of ``bot/``
(by name). At most :data:`MOST_PUBLIC_METHODS` each.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.paths import ROOT

#: A room small enough to read whole.
MOST_PUBLIC_METHODS = 30


def classes(root: Path) -> dict[str, list[ast.ClassDef]]:
    """Every class of the package ``root``, by name (names may repeat across modules)."""
    found: dict[str, list[ast.ClassDef]] = {}
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                found.setdefault(f"{path.relative_to(root)}:{node.name}", []).append(node)
    return found


def is_property(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in function.decorator_list:
        said = ast.unparse(decorator)
        if said in ("property", "functools.cached_property", "cached_property") or \
                said.endswith((".setter", ".deleter")):
            return True
    return False


def own_public_methods(node: ast.ClassDef) -> set[str]:
    return {f.name for f in node.body
            if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
            and not f.name.startswith("_") and not is_property(f)}


def public_methods(node: ast.ClassDef, by_name: dict[str, ast.ClassDef],
                   seen: frozenset[str] = frozenset()) -> set[str]:
    """``node``'s public methods, its own and those of its bases defined in ``bot/``."""
    names = own_public_methods(node)
    for base in node.bases:
        parent = by_name.get(ast.unparse(base).split(".")[-1])
        if parent is not None and parent.name not in seen and parent is not node:
            names |= public_methods(parent, by_name, seen | {node.name})
    return names


def sizes(root: Path) -> dict[str, int]:
    found = classes(root)
    by_name = {node.name: node for nodes in found.values() for node in nodes}
    return {key: len(public_methods(node, by_name))
            for key, nodes in found.items() for node in nodes}


def test_no_class_in_bot_has_more_than_thirty_public_methods():
    big = {key: count for key, count in sizes(ROOT / "bot").items()
           if count > MOST_PUBLIC_METHODS}
    assert not big, big


def test_the_count_sees_a_big_class_its_inherited_methods_and_not_its_properties(
        tmp_path: Path):
    """The rule's own check: a class of 31 methods is seen, so is one that gets most of
    them from its base, and properties, private and dunder methods are not counted."""
    package = tmp_path / "package"
    package.mkdir()
    methods = "".join(f"    def m{i}(self): ...\n" for i in range(31))
    (package / "rooms.py").write_text(
        "class Big:\n" + methods
        + "class Small:\n    def a(self): ...\n"
        + "class Heir(Small):\n" + "".join(f"    def n{i}(self): ...\n" for i in range(30))
        + "class Propped:\n" + "".join(f"    @property\n    def p{i}(self): ...\n"
                                       for i in range(40))
        + "    def _hidden(self): ...\n    def __len__(self): ...\n", encoding="utf-8")
    found = {key.split(":")[1]: count for key, count in sizes(package).items()}
    assert found == {"Big": 31, "Small": 1, "Heir": 31, "Propped": 0}

