"""Among strangers: every public answer a non-player or a loop can trigger posts once in
a while (or goes private), a private board asked again and again is drawn once per
version, and an abandoned lobby expires, its players told."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.games
from bot.games.engine import Engine, View
from tests.support.discord_harness import CHANNEL_ID, Session, UserOption, fake_render, user_payload
from tests.support.race_game import CandyDash
from tools.offline import INVITED

ALICE, BOB, CAROL, DAN = (380000000000000001, 380000000000000002, 380000000000000003,
                          380000000000000004)
STRANGER = 380000000000000099


class Drawn:
    """A renderer that counts how often it drew each view."""

    def __init__(self) -> None:
        self.views: Counter[str] = Counter()

    def __call__(self, view: View) -> bytes:
        self.views[json.dumps(view, sort_keys=True)] += 1
        return fake_render(view)


@pytest.fixture
def drawn() -> Drawn:
    return Drawn()


@pytest.fixture
async def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                drawn: Drawn) -> AsyncIterator[Session]:
    monkeypatch.setitem(bot.games.GAMES, "candy-dash", Engine(CandyDash()))
    opened = await Session.open(tmp_path, bot.games.GAMES, renderer=drawn)
    yield opened
    await opened.close()


def created_public(table: Session) -> list[Any]:
    return [s for s in table.rec.sent if s.created and not s.ephemeral]


@pytest.mark.parametrize(("asker", "asked"), [(ALICE, ("game", "status")),
                                              (STRANGER, ("game", "history")),
                                              (STRANGER, ("stats", None))])
async def test_a_stranger_asking_again_and_again_posts_once_in_a_while(
        table: Session, asker: int, asked: tuple[str, str | None]) -> None:
    # (A watcher's `/game status` is always theirs alone: test_discord_no_dead_air.py.)
    await table.start("candy-dash", humans=(ALICE, BOB))
    posted = []
    for _ in range(5):
        table.rec.clear()
        await table.gw.send(table.gw.command(asker, *asked))
        posted += created_public(table)
    assert len(posted) == 1, "the first answer is public, the next ones private"
    said = table.answer()
    assert said.ephemeral and "Only you see this" in said.content
    table.clock.advance(31 / 3600)
    table.rec.clear()
    await table.gw.send(table.gw.command(asker, *asked))
    assert len(created_public(table)) == 1, "a while later it is public again"


async def test_joining_and_leaving_a_lobby_again_and_again_posts_nothing(
        table: Session) -> None:
    lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    posted = []
    for _ in range(10):
        await table.click(BOB, lobby, ":join")
        posted += created_public(table)
        await table.command(BOB, "game", "leave")
        posted += created_public(table)
        assert "You left the lobby" in table.answer().content
        await table.click(BOB, lobby, ":join")
        posted += created_public(table)
        await table.click(BOB, lobby, ":leave")
        posted += created_public(table)
    assert posted == [], "the lobby message shows who sits: nothing new is posted"


async def test_joining_and_leaving_a_lobby_in_its_thread_posts_nothing(
        table: Session) -> None:
    table.rec.room(CHANNEL_ID).permissions = INVITED
    await table.gw.send(table.gw.command(ALICE, "game", "new", {"game": "candy-dash"}))
    (thread,) = [t.id for t in table.rec.threads()]
    posted = []
    for _ in range(5):
        await table.click(BOB, thread, ":join")
        posted += created_public(table)
        await table.click(BOB, thread, ":leave")
        posted += created_public(table)
    assert posted == []


async def test_opening_and_cancelling_a_lobby_again_and_again_posts_a_few_messages(
        table: Session) -> None:
    posted = []
    for _ in range(20):
        lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash"})
        posted += created_public(table)
        if not lobby.ephemeral:
            await table.click(ALICE, lobby, ":cancel")
    assert len(posted) == 3
    assert "closed a few unstarted" in table.rec.last().content
    table.clock.advance(301 / 3600)
    lobby = await table.command(ALICE, "game", "new", {"game": "candy-dash"})
    assert not lobby.ephemeral, "a while later a lobby opens again"


async def test_a_vote_changed_again_and_again_is_said_in_public_once_in_a_while(
        table: Session) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB, CAROL, DAN), reminder_hours=1.0,
                      ai_takeover=True)
    for _ in range(4):
        table.clock.advance(1.01)
        await table.bot.send_due()
    posted = []
    for give in ("ai", "newcomer") * 3:
        table.rec.clear()
        await table.gw.send(table.gw.command(
            BOB, "game", "vote", {"player": UserOption(ALICE), "give": give},
            resolved={"users": {str(ALICE): user_payload(ALICE)}}))
        posted += created_public(table)
    assert len(posted) == 1
    said = table.answer()
    assert said.ephemeral and "1 of the 2 votes" in said.content


async def test_a_strangers_private_board_is_drawn_once_per_version(
        table: Session, drawn: Drawn) -> None:
    await table.start("candy-dash", humans=(ALICE, BOB))
    drawn.views.clear()
    for _ in range(5):
        shown = await table.command(STRANGER, "game", "board")
        assert shown.ephemeral and shown.pngs
    assert sum(drawn.views.values()) == 1, "five asks, one drawing"
    await table.play(ALICE, "step")
    drawn.views.clear()
    for _ in range(3):
        await table.command(STRANGER, "game", "board")
    assert sum(drawn.views.values()) == 0 or all(n == 1 for n in drawn.views.values())
    assert max(drawn.views.values(), default=1) == 1


# --------------------------------------------------------------------------- expiry


async def test_a_lobby_nobody_starts_for_a_week_closes_and_its_players_are_told(
        table: Session) -> None:
    table.rec.room(CHANNEL_ID).permissions = INVITED
    await table.gw.send(table.gw.command(ALICE, "game", "new", {"game": "candy-dash"}))
    (thread,) = [t.id for t in table.rec.threads()]
    await table.click(BOB, thread, ":join")
    table.clock.advance(6 * 24)
    await table.gw.send(table.gw.command(CAROL, "game", "new", {"game": "candy-dash"}))
    (fresh,) = [t.id for t in table.rec.threads() if t.id != thread]
    table.clock.advance(24 + 0.1)
    table.rec.clear()
    await table.bot.send_due()
    assert await table.bot.tables.store.games.open_game(thread) is None
    assert await table.bot.tables.store.games.open_game(fresh) is not None, "changed a day ago"
    (told,) = [s for s in table.rec.notified()]
    assert told.users == {ALICE, BOB} and told.sent.channel_id == CHANNEL_ID
    assert "nobody started it in 7 days" in told.sent.content
    card = table.rec.message(thread)
    assert "closed" in card["content"] and card["components"] == []
    assert table.rec.room(thread).archived
    assert (await table.bot.tables.store.games.open_counts(ALICE, None))[0] == 0
