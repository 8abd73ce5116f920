"""Bake-off through Discord: two humans decide a joint secret bid at once, in either order.

Neither sees the other's choice in any public message, picture, log or autocomplete
before both have chosen; each one's button stays valid while the other acts; and the
outcome is the same whichever order the answers arrive in.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.games.engine import Engine
from tests.support.decision_game import BakeOff
from tests.support.discord_harness import Sent, Session, fake_render

ALICE, BOB = 320000000000000001, 320000000000000002
SECRET = re.compile(r"cocoa|vanilla|bid [1-3]")


class Views:
    """A fake renderer that remembers every view it drew, to check the public ones."""

    def __init__(self) -> None:
        self.public: list[dict[str, Any]] = []

    def __call__(self, view: dict[str, Any]) -> bytes:
        if view.get("viewer") is None:
            self.public.append(view)
        return fake_render(view)


@pytest.fixture
async def table(tmp_path: Path) -> Any:
    views = Views()
    session = await Session.open(tmp_path, {"bake-off": Engine(BakeOff())}, renderer=views)
    session.views = views  # type: ignore[attr-defined]
    yield session
    await session.close()


async def open_hand(table: Session, user: int, board: Sent | None = None) -> Sent:
    """Alice opens her choices with the board's Decide button, Bob with /game hand."""
    if board is not None:
        hand = await table.click(user, board, "cb:d:1")
    else:
        hand = await table.command(user, "game", "hand")
    assert hand.ephemeral
    return hand


def assert_nothing_secret_went_public(table: Session, sent: list[Sent]) -> None:
    for message in sent:
        if message.ephemeral:
            continue
        assert not SECRET.search(message.content), message.content
    for view in table.views.public:  # type: ignore[attr-defined]
        text = json.dumps(view)
        assert "cocoa" not in text and "vanilla" not in text and '"mine"' not in text


async def bid(table: Session, order: list[tuple[int, str]]) -> tuple[Sent, list[Sent]]:
    """Answer the joint bid step by step in ``order``; every step's message is kept."""
    board = await table.start("bake-off", humans=(ALICE, BOB))
    assert "cb:d:1" in board.custom_ids and not any(c.startswith("cb:m:") for c in
                                                    board.custom_ids)
    assert f"<@{ALICE}>" in board.content and f"<@{BOB}>" in board.content
    assert "Still deciding, in secret" in board.content
    seen: list[Sent] = [board]
    # Both open their private choices first; their buttons must survive the other's steps.
    hands = {ALICE: await open_hand(table, ALICE, board), BOB: await open_hand(table, BOB)}
    offered = {user: await table.suggest(user) for user in (ALICE, BOB)}
    acted: set[int] = set()
    for user, notation in order:
        hand = hands[user]
        if notation not in [c.rsplit(":", 1)[1] for c in hand.custom_ids]:
            hands[user] = hand = await open_hand(table, user)
        table.rec.clear()
        await table.click(user, hand, f":{notation}")
        assert not any("expired" in s.content or "already made" in s.content
                       for s in table.rec.messages_sent()), table.rec.messages_sent()
        seen.extend(table.rec.messages_sent())
        acted.add(user)
        for other in {ALICE, BOB} - acted:
            # The other's suggestions are their own choices, whatever was chosen.
            assert await table.suggest(other) == offered[other]
    return board, seen


ALICE_FIRST = [(ALICE, "flavour cocoa"), (BOB, "flavour vanilla"), (ALICE, "bid 3"),
               (BOB, "bid 1")]
BOB_FIRST = [(BOB, "flavour vanilla"), (BOB, "bid 1"), (ALICE, "flavour cocoa"),
             (ALICE, "bid 3")]


@pytest.mark.parametrize("order", [ALICE_FIRST, BOB_FIRST], ids=["alice-first", "bob-first"])
async def test_a_joint_secret_bid_stays_secret_until_both_have_chosen(
        table: Session, order: list[tuple[int, str]]) -> None:
    _board, seen = await bid(table, order[:-1])
    assert_nothing_secret_went_public(table, seen)
    log = await table.command(ALICE, "game", "log", {"n": 10})
    assert "chose a flavour" in log.content and not SECRET.search(log.content)
    # The one still deciding is named; the one who decided is said to have decided.
    last_user = order[-1][0]
    waiting = await table.command(ALICE, "game", "board")
    assert f"<@{last_user}>" in waiting.content and "has decided" in waiting.content

    hand = await open_hand(table, last_user)
    await table.click(last_user, hand, f":{order[-1][1]}")
    told = table.answer()
    assert told.ephemeral and told.content == f"You played `{order[-1][1]}`."
    reveal = table.rec.public()[-1]
    assert "The bids: Player1 cocoa 3, Player2 vanilla 1." in reveal.content
    state = await table.state()
    assert state is not None
    assert state["points"] == [3, 0] and state["flavours"] == ["cocoa", "vanilla"]
    # What is asked next is the same in both orders: Bob may warn before Alice steals.
    assert [d["kind"] for d in state["decisions"]] == ["steal", "warn"]


async def test_two_players_answering_at_the_same_moment_are_both_saved(
        table: Session) -> None:
    await bid(table, [(ALICE, "flavour cocoa"), (BOB, "flavour vanilla")])
    alice, bob = await open_hand(table, ALICE), await open_hand(table, BOB)
    table.rec.clear()
    await table.gw.send(
        table.gw.click(ALICE, table.rec.message(alice.message_id or 0),
                       next(c for c in alice.custom_ids if c.endswith(":bid 3"))),
        table.gw.click(BOB, table.rec.message(bob.message_id or 0),
                       next(c for c in bob.custom_ids if c.endswith(":bid 1"))))
    told = [s.content for s in table.rec.messages_sent()]
    assert not any("already made" in t or "expired" in t for t in told), told
    state = await table.state()
    assert state is not None and state["points"] == [3, 0]
    assert [d["kind"] for d in state["decisions"]] == ["steal", "warn"]


async def test_a_double_click_on_a_secret_step_counts_once(table: Session) -> None:
    board = await table.start("bake-off", humans=(ALICE, BOB))
    hand = await open_hand(table, ALICE, board)
    flavour = next(c for c in hand.custom_ids if c.endswith(":flavour cocoa"))
    message = table.rec.message(hand.message_id or 0)
    table.rec.clear()
    await table.gw.send(table.gw.click(ALICE, message, flavour),
                        table.gw.click(ALICE, message, flavour))
    state = await table.state()
    assert state is not None
    assert state["decisions"][-1]["drafts"] == {"0": ["flavour cocoa"]}
    refused = [s for s in table.rec.private() if "already made" in s.content
               or "expired" in s.content]
    assert len(refused) == 1
