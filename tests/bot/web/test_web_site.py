"""The web companion's site: a game's page, its replay and a server's leaderboards, from
links Discord gives only where a server allowed them; the headers and limits of a site
strangers open; pages that go when their game, server or a player's name goes."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace

import pytest

import tools.offline
from bot.discord import words
from bot.games.engine import Engine
from bot.organized.standings import said
from bot.web.server import CSP, ClientLimiter
from tests.bot.web.web_harness import URL, Site, link_buttons
from tests.support.discord_harness import CHANNEL_ID, GUILD_ID
from tests.support.race_game import CandyRace
from tools.offline import ALL_PERMISSIONS

ALICE, BOB = 340000000000000001, 340000000000000002
HOSTILE = 340000000000000003
NAMES = {HOSTILE: '<script>alert("x")</script>'}


def named(user_id: int) -> dict[str, object]:
    return {"id": str(user_id), "username": f"user{user_id}", "discriminator": "0",
            "global_name": NAMES.get(user_id, f"Player{user_id % 1000}"), "avatar": None}

GAMES = {"candy-race": Engine(CandyRace())}
TOKEN = re.compile(re.escape(URL) + r"/g/([A-Za-z0-9_-]{22})")


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    site = await Site.open(tmp_path, GAMES)
    yield site
    await site.close()


def watch_links(site: Site) -> list[str]:
    """Every Watch on the web address on the messages Discord holds now."""
    return [url for message in site.session.rec.messages.values()
            if (url := link_buttons(message).get(words.WATCH_ON_THE_WEB))]


async def in_a_thread(site: Site) -> int:
    """Alice opens a race to 3 in a thread of its own, Bob joins, Alice starts it; the
    session plays in the thread from then on."""
    table = site.session
    table.rec.room(CHANNEL_ID).permissions = ALL_PERMISSIONS
    before = {t.id for t in table.rec.threads()}
    await table.gw.send(table.gw.command(ALICE, "game", "new",
                                         {"game": "candy-race", "target": 3},
                                         channel_id=CHANNEL_ID))
    (thread,) = [t.id for t in table.rec.threads() if t.id not in before]
    await table.click(BOB, thread, ":join")
    await table.click(ALICE, thread, ":start")
    table.channel_id = thread
    return thread


async def server_page(site: Site, user: int) -> str:
    """``/stats board:candy-race`` in the channel: its Leaderboards on the web address."""
    table, thread = site.session, site.session.channel_id
    table.channel_id = CHANNEL_ID
    try:
        answer = await table.command(user, "stats", options={"board": "candy-race"})
    finally:
        table.channel_id = thread
    return link_buttons(table.rec.message(answer.message_id))[words.BOARDS_ON_THE_WEB]


async def race(site: Site, *, allow: bool = True) -> str | None:
    """Alice and Bob race to 3 (Alice wins with three steps); the game's address, if
    Discord was given one."""
    if allow:
        await site.allow()
    await in_a_thread(site)
    for user in (ALICE, BOB, ALICE, BOB):
        await site.session.play(user, "step")
    links = watch_links(site)
    return links[0] if links else None


async def test_no_link_until_a_manager_allows_them_then_settings_gives_the_servers(
        site: Site) -> None:
    assert await race(site, allow=False) is None
    site.session.channel_id = CHANNEL_ID
    refused = await site.session.command(ALICE, "settings", None, {"web": True})
    assert refused.ephemeral and "Manage Server" in refused.content
    assert await site.server.service.link(await site.session.bot.tables.store.games.get_game(1)) \
        is None
    answer = await site.session.command(ALICE, "settings", None, {"web": True},
                                        permissions=1 << 5)
    assert "Web pages of games: allowed" in answer.content
    server = link_buttons(answer.payload["data"])[words.BOARDS_ON_THE_WEB]
    assert server.startswith(URL + "/s/") and (await site.get(server)).status == 200


async def test_a_games_page_shows_its_board_players_moves_and_turn(site: Site) -> None:
    url = await race(site)
    assert url is not None and TOKEN.fullmatch(url), url
    page = await site.get(url)
    assert page.status == 200 and page.headers["Content-Type"].startswith("text/html")
    text = page.text
    assert "<h1>Candy Race" in text and "Player1" in text and "Player2" in text
    assert "Move " in text and "waiting for Player1" in text
    assert '<ol id="moves" start="1">' in text and text.count("<li>") == 4
    board = re.search(r'<img id="board" src="([^"]+)" alt="([^"]+)"', text)
    assert board is not None and board[2].startswith("Candy Race board, move")
    picture = await site.get(board[1])
    assert picture.status == 200 and picture.body.startswith(b"\x89PNG")
    live = (await site.get(url + "/live")).json()
    assert live["turn"].endswith("waiting for Player1.") and len(live["moves"]) == 4


async def test_the_page_follows_the_game_and_ends_with_its_result(site: Site) -> None:
    url = await race(site)
    assert url is not None
    before = (await site.get(url + "/live")).json()
    await site.session.play(ALICE, "step")  # Alice reaches 3
    import asyncio

    await asyncio.sleep(0.6)  # what a link names is read again at most every 0.5 s
    after = (await site.get(url + "/live")).json()
    assert after["version"] != before["version"] and after["status"] == "finished"
    assert after["turn"].startswith("Game over.") and len(after["moves"]) == 5
    over = [m for m in site.session.rec.messages.values()
            if "Game over" in (m.get("content") or "")]
    assert over and link_buttons(over[-1]).get(words.WATCH_ON_THE_WEB) == url


async def test_every_answer_carries_the_headers_of_a_site_strangers_open(site: Site) -> None:
    url = await race(site)
    assert url is not None
    for path in (url, url + "/live", url + "/board.png", url + "/replay", url + "/move/1.png",
                 url + "/move/1.json", "/static/web.js", "/static/web.css", "/", "/robots.txt",
                 "/g/nothing", "/g/" + "A" * 22, "/t/" + "A" * 22, "/s/" + "A" * 22, "/x"):
        answer = await site.get(path)
        assert answer.status in (200, 404), (path, answer.status)
        headers = answer.headers
        assert headers["Content-Security-Policy"] == CSP, path
        assert "unsafe-inline" not in CSP and "default-src 'none'" in CSP
        assert headers["X-Robots-Tag"] == "noindex, nofollow"
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"
        assert headers["X-Frame-Options"] == "DENY"
        assert "Set-Cookie" not in headers, path
    page = (await site.get(url)).text
    assert "<script>" not in page and "<style" not in page and " style=" not in page
    assert "http" not in re.sub(r'href="/[^"]*"|src="/[^"]*"', "", page)  # no other site
    assert (await site.get("/robots.txt")).text == "User-agent: *\nDisallow: /\n"
    refused = await site.get(url, method="POST")
    assert refused.status == 405 and refused.headers["Allow"] == "GET, HEAD"


async def test_a_client_address_is_limited_and_another_is_not(tmp_path: Path) -> None:
    limited = ClientLimiter(rate=1, burst=3)
    site = await Site.open(tmp_path, GAMES, limiter=limited)
    try:
        answers = [await site.get("/robots.txt") for _ in range(4)]
        assert [a.status for a in answers] == [200, 200, 200, 429]
        assert int(answers[-1].headers["Retry-After"]) >= 1
        assert answers[-1].headers["X-Robots-Tag"] == "noindex, nofollow"
        # Behind a reverse proxy on this machine, the address it forwards is the client.
        other = await site.get("/robots.txt", headers={"X-Forwarded-For": "203.0.113.9"})
        assert other.status == 200
    finally:
        await site.close()
    clock = [0.0]
    bucket = ClientLimiter(rate=2, burst=2, clock=lambda: clock[0])
    assert [bucket.wait("a") for _ in range(3)] == [0, 0, 0.5]
    clock[0] += 0.5
    assert bucket.wait("a") == 0 and bucket.wait("b") == 0


async def test_a_hostile_name_is_escaped_wherever_a_page_writes_it(site: Site) -> None:
    url = await race(site)
    assert url is not None
    store = site.session.bot.tables.store
    assert store is not None
    record = await store.games.get_game(int(re.sub(r"\D", "", "1")))
    hostile = '<script>alert("x")</script>&<img src=x onerror=y>'
    async with store.connector.transaction() as db:  # a name Discord would never allow, stored
        await db.execute("UPDATE games SET seats = REPLACE(seats, 'Player1', ?), "
                         "version = version + 1 WHERE id = ?",
                         (json.dumps(hostile)[1:-1], record.id))
    import asyncio

    await asyncio.sleep(0.6)
    for path in (url, url + "/replay"):
        text = (await site.get(path)).text
        assert "<script>alert" not in text and "<img src=x" not in text
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;" in text


async def test_pages_of_a_server_that_turned_links_off_left_or_deleted_the_thread_go(
        site: Site) -> None:
    url = await race(site)
    assert url is not None and (await site.get(url)).status == 200
    import asyncio

    await site.allow(False)
    await asyncio.sleep(0.6)
    gone = await site.get(url)
    assert gone.status == 404 and "No such page" in gone.text
    assert (await site.get(url + "/board.png")).status == 404
    assert (await site.get(url + "/replay")).status == 404
    await site.allow(True)
    bot = site.session.bot
    record = await bot.tables.store.games.get_game(1)
    again = await bot.web.link(record)
    assert again is not None and again != url and (await site.get(again)).status == 200
    await bot.on_guild_channel_delete(SimpleNamespace(id=record.parent_id or CHANNEL_ID,
                                                      guild=SimpleNamespace(id=GUILD_ID)))
    await asyncio.sleep(0.6)
    assert (await site.get(again)).status == 404
    third = await bot.web.link(record)
    assert third is not None
    await bot.on_guild_remove(SimpleNamespace(id=GUILD_ID))
    await asyncio.sleep(0.6)
    assert (await site.get(third)).status == 404


async def test_a_replay_lists_every_move_and_each_position_has_its_words_and_picture(
        site: Site) -> None:
    url = await race(site)
    assert url is not None
    page = await site.get(url + "/replay?move=2")
    assert page.status == 200
    assert page.text.count('<li><a href="?move=') == 4 and 'aria-current="step"' in page.text
    assert 'data-move="2" data-last="4"' in page.text
    store = site.session.bot.tables.store
    actions = await store.moves.actions(1)
    for n in range(5):
        words_of = (await site.get(f"{url}/move/{n}.json")).json()
        assert words_of["move"] == n and words_of["alt"].startswith("Candy Race board")
        if n:
            assert words_of["told"].startswith("Player")
            assert actions[n - 1].narration in words_of["told"]
        assert (await site.get(f"{url}/move/{n}.png")).body.startswith(b"\x89PNG")
    assert (await site.get(f"{url}/move/5.png")).status == 404
    assert (await site.get(f"{url}/move/9999999.json")).status == 404


async def test_pictures_are_drawn_once_per_game_and_position(site: Site) -> None:
    url = await race(site)
    assert url is not None
    web = site.server.service
    for _ in range(3):
        for n in range(5):
            await site.get(f"{url}/move/{n}.png")
        await site.get(f"{url}/board.png")
    assert web.pictures.drawn == 6 and web.replays.drawn == 1


async def test_stepping_through_a_replay_reads_its_positions_once(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    url = await race(site)
    assert url is not None
    read: list[int] = []

    def counted(data: str | bytes) -> object:
        read.append(len(data))
        return json.loads(data)

    monkeypatch.setattr("bot.web.service.json", SimpleNamespace(loads=counted, dumps=json.dumps))
    for n in range(5):  # a viewer's steps: each move's words and picture
        assert (await site.get(f"{url}/move/{n}.json")).status == 200
        assert (await site.get(f"{url}/move/{n}.png")).status == 200
    assert len(read) == 1, "a whole game's positions decoded once a step"


async def tournament(site: Site) -> str:
    """A Swiss tournament of two rounds of races among Alice, Bob and a player with a
    hostile name, played to its end in threads of the channel; the address its final
    standings link to."""
    table = site.session
    table.rec.room(CHANNEL_ID).permissions = ALL_PERMISSIONS
    table.channel_id = CHANNEL_ID
    await site.allow()
    signup = await table.command(ALICE, "tournament", "new",
                                 {"game": "candy-race", "format": "swiss", "rounds": 2})
    for user in (ALICE, BOB, HOSTILE):
        await table.click(user, signup, ":join")
    await table.click(ALICE, signup, ":start")
    store = table.bot.tables.store
    for _ in range(2):
        while games := [g for g in await store.games.open_games_in(CHANNEL_ID)
                        if g.status == "active"]:
            for record in games:
                state = json.loads(record.state_json or "{}")
                seat = record.seats[state["turn"]]
                await table.gw.send(table.gw.command(seat.user_id or 0, "play",
                                                     options={"action": "step"},
                                                     channel_id=record.channel_id))
        await table.bot.send_due()
    final = next(m for m in table.rec.messages.values() if "is over after" in m["content"])
    return link_buttons(final)[words.STANDINGS_ON_THE_WEB]


async def test_a_tournaments_page_shows_its_standings_rounds_and_tables(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tools.offline, "user_payload", named)
    url = await tournament(site)
    assert url.startswith(URL + "/t/")
    answer = await site.get(url)
    assert answer.status == 200 and answer.headers["Content-Security-Policy"] == CSP
    page = answer.text
    assert len(answer.body) < 100_000
    assert "<h1>Candy Race tournament #1</h1>" in page and "Final standings" in page
    assert "<h2>Round 1</h2>" in page and "<h2>Round 2</h2>" in page and "Bye: " in page
    # The standings as the bot keeps them, in its order, and a hostile name escaped.
    bot = site.session.bot
    kept = await bot.organizer.standings(await bot.organizer.get(1))
    rows = re.findall(r"<tr><td>(\d+)</td><td>([^<]*)</td><td>([^<]*)</td>", page)
    assert [(int(rank), points) for rank, _, points in rows] == [
        (line.rank, said(line.points)) for line in kept.lines]
    assert "<script>" not in page and "&lt;script&gt;" in page
    # Links turned off: the page goes; a wrong token names nothing.
    await site.allow(False)
    await asyncio.sleep(0.6)
    assert (await site.get(url)).status == 404
    assert (await site.get("/t/" + "A" * 22)).status == 404
    await site.allow(True)
    await asyncio.sleep(0.6)
    assert (await site.get(url)).status == 200
    # A deleted player reads as a former player; the others' standings stay.
    table = site.session
    table.channel_id = CHANNEL_ID
    await table.command(HOSTILE, "privacy", options={"delete": True})
    await asyncio.sleep(0.6)
    page = (await site.get(url)).text
    assert "alert" not in page and "a former player" in page
    assert [(int(rank), points) for rank, _, points in re.findall(
        r"<tr><td>(\d+)</td><td>([^<]*)</td><td>([^<]*)</td>", page)] == [
        (line.rank, said(line.points)) for line in kept.lines]
    # A server that removed the bot shows nothing.
    await bot.on_guild_remove(SimpleNamespace(id=GUILD_ID))
    await asyncio.sleep(0.6)
    assert (await site.get(url)).status == 404


async def test_a_servers_page_shows_its_leaderboards(site: Site) -> None:
    await race(site)
    await site.session.play(ALICE, "step")
    server = await server_page(site, BOB)
    assert server.startswith(URL + "/s/")
    page = (await site.get(server)).text
    assert "<h2>Candy Race</h2>" in page and page.index("Player1") < page.index("Player2")


async def test_privacy_delete_takes_a_name_off_every_page(site: Site) -> None:
    url = await race(site)
    assert url is not None
    await site.session.play(ALICE, "step")
    server = await server_page(site, ALICE)
    seen = [(await site.get(p)).text for p in (url, url + "/replay", url + "/live", server,
                                                url + "/move/5.json")]
    assert all("Player1" in text for text in seen)
    site.session.channel_id = CHANNEL_ID
    await site.session.command(ALICE, "privacy", options={"delete": True})
    import asyncio

    await asyncio.sleep(0.6)
    for path in (url, url + "/replay", url + "/live", url + "/move/5.json",
                 url + "/move/3.json", server):
        text = (await site.get(path)).text
        assert "Player1" not in text, path
    assert "a former player" in (await site.get(url)).text
