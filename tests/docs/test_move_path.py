"""The move path in docs/engine.md names the code as it is, in fewer hand-offs than the 24
issue 45 counted.

Every dotted name in backticks in the section is imported and looked up (a module, then
attributes), so renaming or removing a function the page names fails here until the page
follows. Each hand-off is one numbered line naming at least the part that gives the move
and the part that takes it.
"""

from __future__ import annotations

import importlib
import re
from types import ModuleType

import pytest

from tests.support.paths import ROOT

#: The hand-offs issue 45 counted from a tap to the posted board; the page lists fewer.
COUNTED_BEFORE = 24
SECTION = "## The move path"
DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
NAMED = re.compile(r"`([^`]+)`")
STEP = re.compile(r"(\d+)\. ")
CROSSINGS = ("[thread]", "[process]", "[network]")


def section(text: str) -> str:
    """The text of the section, up to the next section of its level."""
    start = text.index(SECTION + "\n")
    end = text.find("\n## ", start + len(SECTION))
    return text[start:] if end == -1 else text[start:end]


def steps(text: str) -> list[str]:
    """The numbered lines of the section, each checked to be one line, numbered in turn."""
    lines = section(text).splitlines()
    found: list[str] = []
    for index, line in enumerate(lines):
        match = STEP.match(line)
        if match is None:
            continue
        assert int(match[1]) == len(found) + 1, f"step {match[1]} is out of turn"
        following = lines[index + 1] if index + 1 < len(lines) else ""
        assert following == "" or STEP.match(following), \
            f"step {match[1]} goes on past its line: {following!r}"
        found.append(line)
    return found


def dotted_names(text: str) -> list[str]:
    """Every name in backticks that is a dotted path (a module, a class, a method...)."""
    return [name for name in NAMED.findall(text) if DOTTED.fullmatch(name)]


def resolve(name: str) -> object:
    """What ``name`` is in the code: the longest prefix that imports as a module, then
    each following part as an attribute. Raises LookupError when it is nothing."""
    parts = name.split(".")
    module: ModuleType | None = None
    taken = 0
    for end in range(len(parts), 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:end]))
        except ModuleNotFoundError:
            continue
        taken = end
        break
    if module is None:
        raise LookupError(f"{name}: no module {parts[0]!r}")
    found: object = module
    for part in parts[taken:]:
        try:
            found = getattr(found, part)
        except AttributeError:
            raise LookupError(f"{name}: {part!r} is not in {found!r}") from None
    return found


PAGE = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")


def test_the_move_path_has_fewer_hand_offs_than_counted_before() -> None:
    assert 0 < len(steps(PAGE)) < COUNTED_BEFORE


@pytest.mark.parametrize("name", sorted(set(dotted_names(section(PAGE)))))
def test_every_name_on_the_path_is_in_the_code(name: str) -> None:
    resolve(name)


@pytest.mark.parametrize("step", steps(PAGE), ids=lambda step: step.split(".")[0])
def test_each_step_names_who_gives_and_who_takes(step: str) -> None:
    names = dotted_names(step)
    assert len(names) >= 2, f"a step names the giver and the taker in the code: {step}"
    assert all(DOTTED.fullmatch(name) or not name.isidentifier()
               for name in NAMED.findall(step)), \
        f"a name in backticks on a step is given with its module: {step}"


def test_the_path_says_where_it_crosses_a_thread_a_process_and_the_network() -> None:
    told = " ".join(steps(PAGE))
    assert all(tag in told for tag in CROSSINGS)


def test_a_name_not_in_the_code_is_found_out() -> None:
    assert resolve("bot.tables.moves.Moves.prepare") is not None
    for wrong in ("bot.tables.moves.Moves.no_such_step", "bot.tables.no_such_module.move",
                  "no_such_package.move"):
        with pytest.raises(LookupError):
            resolve(wrong)


def test_a_step_that_runs_on_past_its_line_or_out_of_turn_is_refused() -> None:
    wrapped = f"{SECTION}\n\n1. `a.b` gives\n   `c.d` the move.\n"
    with pytest.raises(AssertionError, match="goes on past its line"):
        steps(wrapped)
    skipped = f"{SECTION}\n\n1. `a.b` gives `c.d` the move.\n3. `c.d` gives `e.f` it.\n"
    with pytest.raises(AssertionError, match="out of turn"):
        steps(skipped)
