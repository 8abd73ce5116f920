"""Each rules page's content list is what the data makes, printed by the command the
page names."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.paths import ROOT
from tools.rules_pages import PAGES


@pytest.mark.parametrize("slug", sorted(PAGES))
def test_the_page_holds_what_its_command_prints(slug: str) -> None:
    page = (ROOT / "docs" / "rules" / f"{slug}.md").read_text(encoding="utf-8")
    printed = subprocess.run([sys.executable, "-m", "tools.rules_pages", slug],
                             capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert printed == PAGES[slug]()
    assert printed.strip() in page


def test_an_unknown_page_is_refused_with_the_choices() -> None:
    done = subprocess.run([sys.executable, "-m", "tools.rules_pages", "chess"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 2 and "sugar-heist" in done.stderr
