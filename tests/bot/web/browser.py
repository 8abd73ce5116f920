"""A real headless browser for the web companion's tests: Debian's chromium driven by
Playwright (its own browsers are never downloaded). Where chromium or Playwright is
missing the browser tests are skipped with a note, unless ``CANDYBOT_REQUIRE_BROWSER`` is
set (CI sets it: there a missing browser is a failure)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]
#: A phone's viewport (CSS pixels).
PHONE = {"width": 390, "height": 844}


def _missing() -> str | None:
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install '.[test]')"
    if not os.path.exists(CHROMIUM):
        return "chromium is not installed (apt-get install chromium)"
    return None


@asynccontextmanager
async def phone() -> AsyncIterator[Any]:
    """A new page in a fresh chromium profile, at a phone's width."""
    missing = _missing()
    if missing is not None:
        if os.environ.get("CANDYBOT_REQUIRE_BROWSER"):
            pytest.fail(f"CANDYBOT_REQUIRE_BROWSER is set but {missing}")
        pytest.skip(missing)
    from playwright.async_api import async_playwright

    profile = tempfile.mkdtemp(prefix="candybot-chromium-")
    try:
        async with async_playwright() as driver:
            context = await driver.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True, args=FLAGS,
                viewport=PHONE, device_scale_factor=2)
            try:
                yield await context.new_page()
            finally:
                await context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
