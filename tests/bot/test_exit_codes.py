"""Every exit code any ``candybot`` command can return is in docs/discord.md's table, with
the commands that return it.

The codes are found in the code itself: every ``Exit.NAME`` in the functions a command
can reach (its entry function, and by name every function of the command modules it
calls, transitively), plus what every command shares (``2`` for a command line argparse
refuses and for settings it cannot read, ``1`` for an unexpected error). No command
returns a bare number, so nothing escapes the enumeration.
"""

from __future__ import annotations

import argparse
import ast
import re
from collections.abc import Iterator

import pytest

from bot import cli
from bot.ops import Exit
from tests.support.paths import ROOT

#: Where the commands and everything they call to decide an exit code live.
MODULES = [ROOT / "bot" / "cli.py", ROOT / "bot" / "app.py", ROOT / "bot" / "health.py",
           ROOT / "bot" / "demo.py", ROOT / "tools" / "bench.py", ROOT / "tools" / "burst.py",
           ROOT / "tools" / "pictures.py", ROOT / "bot" / "web" / "run.py",
           *sorted((ROOT / "bot" / "ops").glob("*.py"))]
#: Each command's entry function, as ``bot.cli.main`` calls it.
ENTRIES = {"run": "run_bot", "web": "run_web", "sync": "sync_commands", "check": "check",
           "backup": "backup",
           "restore": "restore", "health": "_health", "demo": "demo", "replay": "replay",
           "bench": "bench", "pictures": "pictures"}
Function = ast.FunctionDef | ast.AsyncFunctionDef


def functions() -> dict[str, list[Function]]:
    found: dict[str, list[Function]] = {}
    for module in MODULES:
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found.setdefault(node.name, []).append(node)
    return found


def _called(node: ast.AST) -> Iterator[str]:
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            func = call.func
            if isinstance(func, ast.Name):
                yield func.id
            elif isinstance(func, ast.Attribute):
                yield func.attr


def _exits(node: ast.AST) -> set[str]:
    return {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name) and n.value.id == "Exit"}


def codes_of(command: str) -> set[int]:
    """The codes ``candybot COMMAND`` can end with."""
    defs = functions()
    names: set[str] = set()
    seen: set[str] = set()
    todo = [ENTRIES[command]]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for node in defs.get(name, []):
            names |= _exits(node)
            todo += [called for called in _called(node) if called in defs]
    # Done; an unexpected error; a command line argparse refuses (or, for the commands
    # that read them first, settings it cannot use: bot.cli._operate).
    shared = {Exit.OK, Exit.FAILED, Exit.CONFIG}
    return {int(Exit[name]) for name in names} | {int(code) for code in shared}


def table() -> dict[int, set[str]]:
    """docs/discord.md's exit codes: code -> the commands that return it (or ``any``)."""
    text = (ROOT / "docs" / "discord.md").read_text()
    rows = re.findall(r"^\| (\d+) \| .*? \| (.*?) \| .*\|$", text, re.MULTILINE)
    out: dict[int, set[str]] = {}
    for code, commands in rows:
        assert int(code) not in out, f"code {code} is in the table twice"
        named = {"any"} if commands == "any" else set(re.findall(r"`(\w+)`", commands))
        assert named, f"the row for {code} names no command"
        out[int(code)] = named
    return out


def test_every_command_is_enumerated() -> None:
    parser = cli.build_parser()
    assert set(parser._subparsers._group_actions[0].choices) == set(ENTRIES)  # type: ignore[union-attr]


def test_the_table_lists_every_exit_code_once_and_no_other() -> None:
    values = [int(code) for code in Exit]
    assert len(set(values)) == len(values)
    assert set(table()) == set(values)


@pytest.mark.parametrize("command", ENTRIES)
def test_every_code_a_command_can_return_names_that_command_in_the_table(
        command: str) -> None:
    rows = table()
    for code in codes_of(command):
        commands = rows[code]
        assert command in commands or commands == {"any"}, (
            f"`candybot {command}` can exit {code} ({Exit(code).name}), but the table's row "
            f"for {code} names only {sorted(commands)}")


def test_the_table_names_no_command_that_cannot_return_the_code() -> None:
    for code, commands in table().items():
        for command in (ENTRIES if commands == {"any"} else commands):
            assert code in codes_of(command), f"`{command}` never exits {code}"


def test_no_command_returns_a_bare_number() -> None:
    """Each command's own returns are ``Exit`` members (or another command's, or
    :func:`bot.ops.logs.fail`'s, which is one), so the enumeration above sees them all."""
    defs = functions()
    for name in [*ENTRIES.values(), "main", "_operate", "alone", "burst", "fail"]:
        for node in defs[name]:
            for inner in ast.walk(node):
                if isinstance(inner, ast.Return) and inner.value is not None:
                    assert not _bare(inner.value), f"{name} returns a bare number (line " \
                                                   f"{inner.lineno})"


def _bare(value: ast.expr) -> bool:
    """Whether ``value`` can be a number written out (``0``, ``x if y else 1``)."""
    if isinstance(value, ast.Constant):
        return type(value.value) is int
    if isinstance(value, ast.IfExp):
        return _bare(value.body) or _bare(value.orelse)
    if isinstance(value, ast.BoolOp):
        return any(_bare(v) for v in value.values)
    return False


def test_a_command_line_argparse_refuses_exits_2_the_settings_code(
        capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["fly"], ["backup"], ["bench", "--samples", "many"], []):
        with pytest.raises(SystemExit) as ended:
            cli.main(argv)
        assert ended.value.code == Exit.CONFIG == 2
    assert "usage: candybot" in capsys.readouterr().err
    # argparse's own code, not one candybot chose: checked against the library.
    with pytest.raises(SystemExit) as ended:
        argparse.ArgumentParser().parse_args(["--no-such-flag"])
    assert ended.value.code == Exit.CONFIG
