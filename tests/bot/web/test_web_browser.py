"""The web companion in a real browser (Debian's chromium, headless, at a phone's width):
a game's page follows a move made through the bot within 2 s, and a replay steps by
button, slider and arrow key through whole games, each position's picture and words those
of the stored log."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import pytest

from bot.alt_text import plain_step
from bot.games import GAMES
from bot.games.engine import Engine, loads
from bot.web.service import public_step
from tests.bot.web.browser import phone
from tests.bot.web.test_web_site import ALICE, BOB, in_a_thread, tournament, watch_links
from tests.bot.web.web_harness import URL, Site
from tests.support.race_game import CandyRace
from tests.support.whole_games import play_to_the_end

try:
    from playwright.async_api import expect
except ImportError:  # the tests skip with a note (tests/bot/web/browser.py)
    expect = None


async def test_a_games_page_shows_a_move_made_through_the_bot_within_two_seconds(
        tmp_path: Path) -> None:
    site = await Site.open(tmp_path, {"candy-race": Engine(CandyRace())})
    try:
        await site.allow()
        await in_a_thread(site)
        await site.session.play(ALICE, "step")
        (url,) = watch_links(site)
        async with phone() as page:
            asked: list[str] = []
            page.on("request", lambda request: asked.append(request.url))
            await page.goto(site.base + url.removeprefix(URL))
            assert await page.inner_text("#turn") == "Move 1: waiting for Player2."
            assert await page.locator("#moves li").count() == 1
            began = time.monotonic()
            table = site.session
            # The move as Discord delivers it; the page is not reloaded.
            table.gw.dispatch(table.gw.command(BOB, "play", None, {"action": "step"},
                                               channel_id=table.channel_id))
            # The page's strict policy refuses evaluated strings: Playwright's own polling.
            await expect(page.locator("#turn")).to_contain_text("Player1", timeout=2000)
            assert time.monotonic() - began < 2.0
            assert await page.locator("#moves li").count() == 2
            alt = await page.get_attribute("#board", "alt")
            assert alt is not None and alt.startswith("Candy Race board, move 2")
            assert all(a.startswith(site.base) for a in asked), "a request left the site"
    finally:
        await site.close()


def replay_params() -> list[object]:
    return [pytest.param(slug, marks=pytest.mark.slow) for slug in sorted(GAMES)]


@pytest.mark.parametrize("slug", replay_params())
async def test_a_replay_steps_through_a_whole_game_by_key_button_and_slider(
        tmp_path: Path, slug: str) -> None:
    game = GAMES[slug]
    site = await Site.open(tmp_path, GAMES)
    try:
        await site.allow()
        game_id, _sent = await play_to_the_end(site.session, game, ALICE)
        store = site.session.bot.tables.store
        record = await store.games.get_game(game_id)
        url = await site.server.service.link(record)
        assert url is not None
        actions = await store.moves.actions(game_id)
        told = ["The game begins: the deal."] + [plain_step(public_step(a, record))
                                                 for a in actions]
        async with phone() as page:
            await page.goto(site.base + url.removeprefix(URL) + "/replay")
            last = len(actions)

            async def at(n: int) -> None:
                await expect(page.locator("#where")).to_have_text(f"Move {n} of {last}",
                                                                  timeout=5000)
                assert await page.inner_text("#told") == told[n]
                src = await page.get_attribute("#board", "src")
                assert src is not None and src.endswith(f"/move/{n}.png")
                words = json.loads((await site.get(f"{url}/move/{n}.json")).text)
                assert await page.get_attribute("#board", "alt") == words["alt"]

            await at(0)
            for n in range(1, last + 1):
                await page.keyboard.press("ArrowRight")
                await at(n)
            for n in (last - 1, last - 2):
                if n >= 0:
                    await page.click("[data-step=back]")
                    await at(n)
            await page.keyboard.press("Home")
            await at(0)
            await page.click("[data-step=last]")
            await at(last)
            middle = last // 2
            await page.locator("#slider").fill(str(middle))
            await at(middle)
            assert page.url.endswith(f"?move={middle}")
    finally:
        await site.close()


async def test_a_tournaments_page_reads_on_a_phone(tmp_path: Path) -> None:
    """A tournament's page in the browser: its standings as a table, a heading per round,
    nothing wider than the phone, nothing asked of another site, nothing it asks for
    missing. Its screenshot is kept beside the others'
    (docs/web.md) when CANDYBOT_WEB_SCREENSHOTS names their folder."""
    site = await Site.open(tmp_path, {"candy-race": Engine(CandyRace())})
    try:
        url = await tournament(site)
        async with phone() as page:
            asked: list[str] = []
            failed: list[str] = []
            page.on("request", lambda request: asked.append(request.url))
            page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
            await page.goto(site.base + url.removeprefix(URL))
            await page.wait_for_load_state("networkidle")
            assert await page.locator("h1").inner_text() == "Candy Race tournament #1"
            assert await page.locator("tbody tr").count() == 3
            assert await page.locator("h2").all_inner_texts() == ["Round 1", "Round 2"]
            assert await page.locator("caption").inner_text() == "Final standings"
            width = await page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the page is {width} px wide"
            assert all(a.startswith(site.base) for a in asked), "a request left the site"
            # Only the browser's own guess at an icon is not found.
            assert [u for u in failed if not u.endswith("/favicon.ico")] == [], failed
            shots = os.environ.get("CANDYBOT_WEB_SCREENSHOTS")
            if shots:
                await page.screenshot(path=str(Path(shots) / "tournament.png"),
                                      full_page=True, scale="css")
    finally:
        await site.close()


@pytest.mark.slow
async def test_every_page_reads_at_a_phones_width(tmp_path: Path) -> None:
    """Screenshots of each page at 390 px (kept in docs/web/ when CANDYBOT_WEB_SCREENSHOTS
    names that folder): nothing wider than the screen, every picture with its alt text."""
    from renderers import render

    out = Path(os.environ.get("CANDYBOT_WEB_SCREENSHOTS") or tmp_path / "shots")
    out.mkdir(parents=True, exist_ok=True)
    site = await Site.open(tmp_path, GAMES, renderer=render)
    try:
        await site.allow()
        game = GAMES["sugar-blast"]
        table = site.session
        await table.start(game.slug, humans=(ALICE, BOB), ai=1)
        store = table.bot.tables.store
        record = await store.games.open_game(table.channel_id)
        assert record is not None
        users = {s.seat: s.user_id for s in record.seats if not s.ai}
        while (record := await store.games.get_game(record.id)).status == "active":
            state = loads(record.state_json or "", game)
            seat = next(s for s in sorted(game.to_act(state)) if s in users)
            await table.play(users[seat], game.ai_action(state, seat).notation)
        url = await site.server.service.link(record)
        server = await site.server.service.server_link(record.guild_id)
        assert url is not None and server is not None
        async with phone() as page:
            for name, path in (("game", url), ("replay", url + "/replay?move=5"),
                               ("leaderboards", server), ("not-found", "/g/" + "x" * 22)):
                await page.goto(site.base + path.removeprefix(URL))
                await page.wait_for_load_state("networkidle")
                width = await page.evaluate("document.documentElement.scrollWidth")
                assert width <= 390, f"{name} is {width} px wide"
                for image in await page.locator("img").all():
                    assert await image.get_attribute("alt"), f"{name}: a picture without alt"
                assert await page.locator("h1").count() == 1
                await page.screenshot(path=str(out / f"{name}.png"), full_page=True,
                                      scale="css")
    finally:
        await site.close()
    await asyncio.sleep(0)
