"""Candy Duel through Discord: secret bids told by their public form, private lines only
to their reader, one edited message per round, a several-at-once menu, zoom and GIFs."""

from __future__ import annotations

import io
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.games.engine import Engine
from tests.support.discord_harness import EPHEMERAL, Sent, Session, fake_render
from tests.support.race_game import CandyDuel

ALICE, BOB = 330000000000000001, 330000000000000002


class Drawn:
    """A fake renderer that remembers the views it drew."""

    def __init__(self) -> None:
        self.views: list[dict[str, Any]] = []

    def __call__(self, view: dict[str, Any]) -> bytes:
        self.views.append(view)
        return fake_render(view)


def tiny_gif() -> bytes:
    out = io.BytesIO()
    Image.new("P", (4, 4)).save(out, "GIF")
    return out.getvalue()


@pytest.fixture
def animated(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Give Candy Duel a renderer module whose ``animate`` draws a GIF of each move."""
    asked: list[dict[str, Any]] = []
    module = types.ModuleType("renderers.candy_duel")

    def animate(view: dict[str, Any]) -> bytes | None:
        asked.append(view)
        return tiny_gif()

    module.animate = animate  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "renderers.candy_duel", module)
    return asked


@pytest.fixture
async def duel(tmp_path: Path) -> Any:
    drawn = Drawn()
    session = await Session.open(tmp_path, {"candy-duel": Engine(CandyDuel())}, renderer=drawn)
    session.drawn = drawn  # type: ignore[attr-defined]
    yield session
    await session.close()


def posted(session: Session) -> list[Sent]:
    """New public messages (not edits)."""
    return [s for s in session.rec.public() if not s.edit]


async def test_one_round_is_one_message_edited_as_the_bids_come_in(
        duel: Session, animated: list[dict[str, Any]]) -> None:
    board = await duel.start("candy-duel", humans=(ALICE, BOB))
    assert board.pngs and not board.gifs, "the board is shown without waiting for the GIF"
    first = board.message_id
    (movement,) = duel.rec.movements()
    assert movement.path.endswith(f"/messages/{first}") and movement.gifs
    assert [a["filename"] for a in duel.rec.message(first or 0)["attachments"]] == \
        ["board.png", "move.gif"], "the GIF is added beside the picture, which stays"

    # A secret bid: the board message is edited, nothing new is posted, nobody is pinged.
    await duel.play(ALICE, "bid 2")
    assert duel.rec.sent[0].kind == 5 and int(duel.rec.sent[0].payload["data"]["flags"]) \
        & EPHEMERAL, "the mover's placeholder is private: the change is an edit"
    (told,) = duel.rec.private()
    assert told.content.startswith("You played `bid 2`.")
    assert posted(duel) == []
    (edit,) = [s for s in duel.rec.public() if s.edit and not s.media_only]
    assert edit.path.endswith(f"/messages/{first}") and edit.pngs
    (movement,) = duel.rec.movements()
    assert movement.path.endswith(f"/messages/{first}")
    assert "\n🟦● **Player1** has decided.\nStill deciding, in secret: 🟧■ " \
        f"<@{BOB}>." in edit.content
    assert "bid 2" not in edit.content
    assert f"<@{ALICE}>" not in edit.content.split("Still deciding")[1]

    # The last bid reveals them; the winner now decides, so (only) she is pinged.
    await duel.play(BOB, "bid 1")
    (told,) = duel.rec.private()
    assert "> You have 5 coins left." in told.content and "4 coins" not in told.content
    (ping,) = posted(duel)
    assert ping.content.startswith(f"🟦● <@{ALICE}>: your turn in **Candy Duel**: https://")
    assert str(first) in ping.content and ping.body["allowed_mentions"]["parse"] == []
    assert ping.body["allowed_mentions"]["users"] == [ALICE]
    message = duel.rec.message(first or 0)
    assert ("🟦● **Player1** has decided.\n🟧■ **Player2** placed a bid. Bids: Player1 2, "
            "Player2 1. Player1 wins the round.\n") in message["content"]
    assert "coins left" not in message["content"]

    # Her choice of candies is on the same message: the several-at-once menu composes the
    # notation from the candies picked, and is the one control for them (its fifteen
    # ways are not offered again as a menu of their own).
    offered = [c for row in message["components"] for c in row["components"]]
    assert not [c for c in offered if c["custom_id"].startswith(("cb:s:", "cb:m:", "cb:b"))]
    (menu,) = [c for c in offered if c["custom_id"].startswith("cb:ms:")]
    assert (menu["min_values"], menu["max_values"], len(menu["options"])) == (1, 2, 5)
    await duel.click(ALICE, first or 0, menu["custom_id"], values=["e", "c"])
    # A new round is a new message; the old one keeps its story but loses its buttons.
    # Bob, newly asked to bid, is pinged by that message; Alice, still deciding, is not.
    (round_two,) = posted(duel)
    assert round_two.notifies() == {BOB}
    assert round_two.content.startswith(f"🟧■ <@{BOB}>: your turn in **Candy Duel** (move 3).\n")
    assert "🟦● **Player1** takes c and e." in round_two.content
    assert duel.rec.message(first or 0)["components"] == []
    state = await duel.state()
    assert state is not None and state["totals"] == [8, 0] and state["round"] == 2
    assert animated, "the game's animate(view) was asked for each board"


async def test_private_lines_reach_only_their_reader(duel: Session) -> None:
    await duel.start("candy-duel", humans=(ALICE, BOB))
    await duel.play(ALICE, "bid 3")
    await duel.play(BOB, "bid 1")
    hand = await duel.command(ALICE, "game", "hand")
    assert hand.ephemeral
    assert hand.content.startswith("Since your last turn:\n🟧■ **Player2** placed a bid.")
    assert "> You have 3 coins left." in hand.content and "5 coins" not in hand.content
    log = await duel.command(BOB, "game", "log", {"n": 5})
    assert "1. Player1: placed a bid" in log.content and "bid 3" not in log.content
    record = await duel.bot.tables.store.games.open_game(duel.channel_id)
    assert record is not None
    for action in await duel.bot.tables.store.moves.actions(record.id):
        assert "coins left" not in action.narration
    for sent in duel.rec.public():
        assert "coins left" not in sent.content


async def test_a_secret_decision_offers_its_choices_only_privately(duel: Session) -> None:
    board = await duel.start("candy-duel", humans=(ALICE, BOB))
    assert board.custom_ids == ["cb:d:1"]
    hand = await duel.click(BOB, board, "cb:d:1")
    assert hand.ephemeral and hand.kind is None
    assert [c.rsplit(":", 1)[1] for c in hand.custom_ids] == ["bid 0", "bid 1", "bid 2",
                                                               "bid 3"]
    assert all(c.startswith("cb:m:1:0:d1.0:") for c in hand.custom_ids)


async def test_zoom_shows_a_place_large_and_refuses_an_unknown_one(duel: Session) -> None:
    await duel.start("candy-duel", humans=(ALICE, BOB))
    duel.rec.clear()
    await duel.gw.send(duel.gw.command(BOB, "game", "board", {"zoom": "se"}, focused="zoom"))
    choices = duel.rec.sent[-1].payload["data"]["choices"]  # type: ignore[index]
    assert [c["value"] for c in choices] == ["seat-1", "seat-2"]
    zoomed = await duel.command(BOB, "game", "board", {"zoom": "Pool"})
    assert not zoomed.ephemeral and zoomed.pngs
    assert duel.drawn.views[-1]["zoom"] == "pool"  # type: ignore[attr-defined]
    refused = await duel.command(BOB, "game", "board", {"zoom": "moon"})
    assert refused.ephemeral and refused.kind == 4
    assert "`moon` is not a place on this board" in refused.content
    assert "`pool`" in refused.content
