"""bot/games holds pure rules: no discord, no PIL."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.support.paths import ROOT

GAMES_DIR = ROOT / "bot" / "games"
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


def test_organized_play_is_pure_rules_too():
    # Seasons, tournaments and clocks are arithmetic over stored facts: no Discord, no
    # pictures, no database, no clock of their own (time is an argument).
    for path in (GAMES_DIR.parent / "organized").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            for name in names:
                assert name.split(".")[0] not in (*FORBIDDEN, "asyncio", "time", "bot"
                                                  ) or name.startswith("bot.organized"), \
                    f"{path} imports {name}"


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


ROOT = GAMES_DIR.parents[1]
#: Everything below the Discord layer: the rules, the tables, the store, the pictures.
BELOW_DISCORD = ("bot/games", "bot/organized", "bot/tables", "bot/store", "renderers")
#: Discord's own syntax, which only the Discord layer writes: mentions, channel links,
#: timestamps, the bot's slash commands and markdown's code spans (a game quotes a move
#: as “swap c3 d3”; the Discord layer shows it as code).
DISCORD_SYNTAX = ("<@", "<#", "<t:", "/game ", "/play ", "/notify ", "/settings ", "`", "**")


def _modules_below_discord() -> list[Path]:
    return [path for folder in BELOW_DISCORD for path in (ROOT / folder).rglob("*.py")]


def test_nothing_below_the_discord_layer_imports_it():
    for path in _modules_below_discord():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            for name in names:
                assert name.split(".")[0] != "discord" and not name.startswith("bot.discord"), \
                    f"{path.relative_to(ROOT)} imports {name}"


def test_nothing_below_the_discord_layer_writes_discord_syntax():
    # Docstrings and comments may talk about Discord; strings a player could be shown
    # may not carry its syntax (the Discord layer words refusals and events).
    for path in _modules_below_discord():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # A string standing alone as a statement is a docstring (of a module, class,
        # function or attribute): read by developers, never shown to a player.
        docstrings = {id(node.value) for node in ast.walk(tree)
                      if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docstrings):
                found = [mark for mark in DISCORD_SYNTAX if mark in node.value]
                assert not found, (f"{path.relative_to(ROOT)}:{node.lineno} writes "
                                   f"{found[0]!r}: {node.value[:60]!r}")
