"""Narration is complete and short: over whole games of every game played through the bot,
no public line is cut, every move's whole narration can be read with `/game log` after the
end, and the final message states the result once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.discord import messages
from bot.games import GAMES
from bot.games.engine import Engine
from bot.store import ActionRecord
from bot.tables import LOG_LIMIT
from bot.tables.core import stored_result
from tests.support.discord_harness import Session
from tests.support.whole_games import play_to_the_end

ALICE = 360000000000000001


def squeezed(text: str) -> str:
    return " ".join(text.split())


async def whole_log(table: Session, game_id: int, count: int) -> str:
    """Every page `/game log` gives for the game, read from move 1 on, each time from the
    first move the last answer left out."""
    text = []
    start = 1
    while start <= count:
        table.clock.advance(1)  # read at a reader's pace: each page goes public
        table.rec.clear()
        await table.gw.send(table.gw.command(
            ALICE, "game", "log", {"game": game_id, "start": start, "n": LOG_LIMIT},
            channel_id=table.channel_id))
        pages = table.rec.messages_sent()
        assert pages and not any(p.ephemeral for p in pages), pages[-1].content
        assert all(len(p.content) <= messages.MAX_CONTENT for p in pages)
        shown = re.search(r": (\d+) moves? from move (\d+)\.", pages[0].content)
        assert shown is not None and int(shown.group(2)) == start, pages[0].content
        start += int(shown.group(1))
        text.extend(p.content for p in pages)
    return squeezed("\n".join(text))


@pytest.mark.parametrize("slug", sorted(GAMES))
async def test_whole_games_are_told_without_a_cut_line_and_read_whole_afterwards(
        tmp_path: Path, slug: str) -> None:
    table = await Session.open(tmp_path, GAMES)
    try:
        game_id, sent = await play_to_the_end(table, GAMES[slug], ALICE)
        public = [s for s in sent if not s.ephemeral]
        for message in public:
            for line in message.content.splitlines():
                assert not line.rstrip().endswith("…"), line

        store = table.bot.tables.store
        actions: list[ActionRecord] = await store.moves.actions(game_id)
        log = await whole_log(table, game_id, len(actions))
        for action in actions:
            if action.narration:
                assert squeezed(action.narration) in log, action.narration

        record = await store.games.get_game(game_id)
        result = stored_result(record)
        assert result is not None
        final = [s for s in public if not s.media_only][-1].content
        assert "**Game over.**" in final
        said = messages.sentences(result.summary)[0]
        assert final.count(said) == 1, final
    finally:
        await table.close()


def test_a_long_step_is_summarised_by_whole_sentences_and_points_to_the_log() -> None:
    text = " ".join(f"Meadow {n} scores {n} sugar." for n in range(1, 60))
    short = messages.summarised(text, 200)
    assert len(short) <= 200 and short.endswith(messages.FULL_IN_LOG)
    kept = short.removesuffix(messages.FULL_IN_LOG).strip()
    assert text.startswith(kept) and kept.endswith("sugar.")


def test_a_move_longer_than_a_message_continues_in_the_next() -> None:
    text = " ".join(f"Candy {n} moves along the belt to the crate." for n in range(200))
    pieces = messages.chunks(text, 1800)
    assert len(pieces) > 1 and all(len(p) <= 1800 for p in pieces)
    assert " ".join(pieces) == text
    assert all(p.endswith(".") for p in pieces)


def test_a_log_that_needs_too_many_messages_leaves_out_whole_moves() -> None:
    from bot.store import GameRecord, SeatRecord
    from tests.support.race_game import CandyRace

    record = GameRecord(1, 2, None, "candy-race", "active", 3, {}, {}, 1, "{}", 1,
                        (SeatRecord(0, 3, "Ann", False),), 0.0, 0.0, None, 0, None, None,
                        None, None)
    said = "Ann walks on. " * 60
    actions = [ActionRecord(n, 0, 3, "step", said.strip(), 0.0, False) for n in range(1, 9)]
    latest = messages.log_pages(record, Engine(CandyRace()), actions, pages=2)
    assert len(latest) == 2 and "did not fit" in latest[0]
    assert "8. Ann: `step`" in latest[-1] and "1. Ann: `step`" not in "".join(latest)
    first = messages.log_pages(record, Engine(CandyRace()), actions, start=1, pages=2)
    assert first[0].startswith("**Candy Race**: 4 moves from move 1.")
    assert "later moves did not fit" in first[0] and "8. Ann" not in "".join(first)
