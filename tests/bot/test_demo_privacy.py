"""`candybot demo` prints only what everybody at the table may read."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import renderers
import renderers.gif
from bot.demo import AI_NAMES, run_demo
from bot.games import GAMES
from bot.games.engine import SeatInfo, playing


def test_the_demo_never_prints_a_private_line_or_a_hidden_move(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch):
    # Pictures are not what this test is about: draw none, to keep it quick.
    monkeypatch.setattr(renderers, "render", lambda view: b"png")
    monkeypatch.setattr(renderers.gif, "animate", lambda frames: b"gif")
    printed: list[str] = []
    game, players, seed = GAMES["sugar-heist"], 3, 4
    asyncio.run(run_demo(game.slug, players, seed, tmp_path / "demo", say=printed.append))

    # The same game again, collecting what only one seat may read.
    state = game.new([SeatInfo(AI_NAMES[i], ai=True) for i in range(players)], seed)
    private: set[str] = set()
    for _seat, outcome in playing(game, state):
        private |= {e.text for e in outcome.events if not e.public and e.text}
        if outcome.action.hidden:
            private.add(outcome.action.notation)
    assert private, "the game played had no private line to keep out"
    text = "\n".join(printed)
    leaked = sorted(line for line in private if line in text)
    assert not leaked, f"the demo printed {leaked[:3]}"
