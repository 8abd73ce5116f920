"""bot/games holds pure rules: no discord, no PIL."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parents[1] / "bot" / "games"
FORBIDDEN = ("discord", "PIL", "aiosqlite", "sqlite3", "renderers")


def test_no_rules_module_imports_discord_or_pil():
    for path in GAMES_DIR.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path} imports {name}"


def test_loading_every_game_pulls_in_neither_discord_nor_pil():
    code = (
        "import sys, pkgutil, importlib, bot.games\n"
        "for m in pkgutil.walk_packages(bot.games.__path__, 'bot.games.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = [n for n in sys.modules if n.split('.')[0] in ('discord', 'PIL')]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=GAMES_DIR.parents[1])
    assert out.stdout.strip() == ""
