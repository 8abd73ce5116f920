"""A server's page (``/s/<token>``) with its seasons: the season under way ranked by its
own ratings, then each season over with its final standings as kept; names escaped; a
deleted player's name gone; readable at a phone's width in a real browser."""

from __future__ import annotations

import asyncio
import os
import time
from datetime import UTC, datetime
from pathlib import Path

from tests.bot.web.browser import phone
from tests.bot.web.test_web_site import ALICE, GAMES, race
from tests.bot.web.web_harness import MANAGE_GUILD, URL, Site
from tests.support.discord_harness import CHANNEL_ID, GUILD_ID

NAME = "Tom & Jerry's cup"


def today(site: Site, offset: int = 0) -> str:
    at = site.session.clock.now + offset * 86_400
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d")


async def test_a_servers_page_shows_its_season_then_its_final_standings(
        tmp_path: Path) -> None:
    site = await Site.open(tmp_path, GAMES)
    try:
        # The page reads the season under way by the time of day, as the bot does.
        site.session.clock.now = time.time()
        made = await site.session.command(ALICE, "season", "new",
                                          {"name": NAME, "start": today(site),
                                           "end": today(site, 6)}, permissions=MANAGE_GUILD)
        assert made.ephemeral and "Jerry" in made.content, made.content
        await race(site)
        await site.session.play(ALICE, "step")  # Alice wins the race, in the season
        server = await site.server.service.server_link(GUILD_ID)
        assert server is not None and server.startswith(URL + "/s/")
        page = (await site.get(server)).text
        escaped = "Tom &amp; Jerry&#x27;s cup"
        assert f"<h2>Season {escaped}: under way</h2>" in page, page
        season = page[page.index(f"Season {escaped}"):]
        assert season.index("Player1") < season.index("Player2")
        assert NAME not in page

        site.session.clock.advance(24 * 8)
        await site.session.bot.send_due()
        await asyncio.sleep(0.6)  # the page reads what it names again after 0.5 s
        page = (await site.get(server)).text
        assert "under way" not in page
        assert f"<h2>Season {escaped}: final standings</h2>" in page
        final = page[page.index(f"Season {escaped}: final"):]
        assert final.index("Player1") < final.index("Player2")
        assert len(page.encode()) < 100_000

        async with phone() as browser:
            await browser.goto(site.base + server.removeprefix(URL))
            await browser.wait_for_load_state("networkidle")
            width = await browser.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, f"the page is {width} px wide"
            heading = browser.get_by_role("heading", name=f"Season {NAME}: final standings")
            assert await heading.is_visible()
            shots = os.environ.get("CANDYBOT_WEB_SCREENSHOTS")
            if shots:
                await browser.screenshot(path=str(Path(shots) / "season.png"), full_page=True,
                                         scale="css")

        site.session.channel_id = CHANNEL_ID  # the game's thread is archived: not there
        await site.session.command(ALICE, "privacy", options={"delete": True})
        await asyncio.sleep(0.6)
        page = (await site.get(server)).text
        final = page[page.index(f"Season {escaped}: final"):]
        assert "Player1" not in page and "a former player" in final
    finally:
        await site.close()
