"""Offline play: a whole AI game through the engine, the store and the renderer.

``candybot demo`` writes, into one folder, the SQLite file, one PNG per move,
the action log and an animated GIF; ``candybot replay`` re-applies the stored
log from the seed and fails loudly if the result differs from the stored state.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.games import get_game
from bot.games.engine import Engine, GameError, SeatInfo, State, dumps, loads, playing
from bot.ops import Exit
from bot.store import FinishRecord, SeatRecord, Store

DEMO_CHANNEL = 0
"""The demo's games live in channel 0 of their own database file."""

AI_NAMES = ("Ana", "Bo", "Cy", "Di", "Eli", "Flo")


class DemoError(Exception):
    """A problem with the demo's options or folder; the message is for the user."""


@dataclass(frozen=True)
class DemoReport:
    folder: Path
    moves: int
    ranking: list[str]


def _prepare_folder(out: Path) -> None:
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DemoError(f"Cannot create the output folder {out}: {exc.strerror}.") from None
    if not os.access(out, os.W_OK):
        raise DemoError(f"The output folder {out} is not writable.")
    if (out / "candybot.db").exists():
        raise DemoError(f"{out} already holds a demo; choose an empty folder.")


def _write(path: Path, data: bytes | str) -> None:
    try:
        if isinstance(data, str):
            path.write_text(data, encoding="utf-8")
        else:
            path.write_bytes(data)
    except OSError as exc:
        raise DemoError(f"Cannot write {path}: {exc.strerror}.") from None


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``["power=random 2", ...]`` as a dict; a pair without ``=`` is a clear error."""
    options: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise DemoError(f"--option takes NAME=VALUE, e.g. --option power=\"random 2\"; "
                            f"got {pair!r}.")
        options[name.strip()] = value.strip()
    return options


async def run_demo(game_slug: str, players: int, seed: int, out: Path,
                   say: Callable[[str], None] = print,
                   options: dict[str, str] | None = None) -> DemoReport:
    """Play one AI game to the end, persisting and rendering every move.

    ``options`` are the game's options by name (``candybot demo --option``);
    an unknown name or a bad value is refused with the valid ones named.
    """
    from renderers import render
    from renderers.gif import animate

    try:
        game = get_game(game_slug)
        seats = [SeatInfo(AI_NAMES[i] if i < len(AI_NAMES) else f"AI {i + 1}", ai=True)
                 for i in range(players)]
        state = game.new(seats, seed, options)
    except GameError as exc:
        raise DemoError(str(exc)) from None
    _prepare_folder(out)
    frames = out / "moves"
    frames.mkdir(exist_ok=True)

    store = await Store.open(out / "candybot.db")
    try:
        now = time.time()
        record = await store.games.create_lobby(
            channel_id=DEMO_CHANNEL, guild_id=None, game=game.slug,
            creator_id=0, options=state["options"], settings={},
            now=now)
        seat_rows = [SeatRecord(i, None, s.name, True) for i, s in enumerate(seats)]
        record = await store.games.set_seats(record.id, record.version, seat_rows, now)
        record = await store.games.start(
            record.id, record.version, seed=seed, state_json=dumps(state),
            seats=seat_rows, now=now, next_reminder_at=None)
        pngs = [render(game.view(state, None))]
        _write(frames / "move-000.png", pngs[0])
        chosen = ", ".join(f"{k}={v}" for k, v in state["options"].items())
        say(f"{game.title}: {players} AI players, seed {seed}"
            f"{f', options {chosen}' if chosen else ''}. {game.rules.summary(state)}")
        log_lines = []
        for seat, outcome in playing(game, state):
            action, state = outcome.action, outcome.state
            # Only what everybody may read: a hidden move by its public form, no private line.
            narration = " ".join(outcome.narration())
            result = game.result(state)
            finish = _finish_record(game, state) if result else None
            record = await store.moves.commit_move(
                record.id, record.version, state_json=dumps(state), seat=seat, user_id=None,
                notation=action.notation, narration=narration, undoable=outcome.undoable,
                now=time.time(), turn_changed=True, next_reminder_at=None, finish=finish)
            png = render(game.view(state, None))
            pngs.append(png)
            _write(frames / f"move-{state['move']:03d}.png", png)
            log_lines.append(f"{state['move']}\t{seat}\t{action.notation}")
            say(f"{state['move']:>3}. {outcome.public or action.notation:<24} {narration}")
        _write(out / "log.tsv", "move\tseat\taction\n" + "\n".join(log_lines) + "\n")
        _write(out / "game.gif", animate(pngs))
    finally:
        await store.close()

    result = game.result(state)
    assert result is not None
    ranking = []
    for place_group in result.ranking:
        place = result.place_of(place_group[0])
        names = ", ".join(game.seat_name(state, s) for s in place_group)
        ranking.append(f"{place}. {names} ({result.scores[place_group[0]]})")
    say(result.summary)
    for line in ranking:
        say(line)
    say(f"Wrote {len(pngs)} pictures to {frames}, and log.tsv, game.gif and candybot.db to "
        f"{out}")
    return DemoReport(out, state["move"], ranking)


def _finish_record(game: Engine, state: State) -> FinishRecord:
    result = game.result(state)
    assert result is not None
    placements = [(None, seat, result.place_of(seat), seat in result.winners)
                  for seat in range(len(state["seats"]))]
    return FinishRecord(dumps(result.to_json()), placements)


async def replay_folder(folder: Path, say: Callable[[str], None] = print) -> State:
    """Rebuild the demo game in ``folder`` from seed + log and compare with the stored state."""
    db = folder / "candybot.db"
    if not db.exists():
        raise DemoError(f"{folder} holds no candybot.db: run `candybot demo` into it first.")
    store = await Store.open(db)
    try:
        games = await store.games.games_in_channel(DEMO_CHANNEL)
        if not games:
            raise DemoError(f"{db} holds no game.")
        record = games[-1]
        actions = await store.moves.actions(record.id)
    finally:
        await store.close()
    try:
        game = get_game(record.game)
    except GameError as exc:
        raise DemoError(str(exc)) from None
    if record.seed is None or record.state_json is None:
        raise DemoError("The stored game never started.")
    seats = [SeatInfo(s.name, s.ai) for s in record.seats]
    try:
        # The version it was played under, before loading carries an old state over.
        game.check_replayable(json.loads(record.state_json))
        stored = loads(record.state_json, game)
    except (GameError, ValueError) as exc:
        raise DemoError(str(exc)) from None
    rebuilt = game.replay(seats, record.seed, record.options,
                          [(a.seat, a.notation) for a in actions], stored["rules"])
    if dumps(rebuilt) != dumps(stored):
        raise DemoError(f"Replay MISMATCH: {len(actions)} actions from seed {record.seed} do not "
                        "reproduce the stored state.")
    say(f"Replayed {len(actions)} actions of {game.title} from seed {record.seed}: "
        "the final state matches the stored one exactly.")
    return rebuilt


def demo(game_slug: str, players: int, seed: int, out: Path,
         options: Sequence[str] = ()) -> int:
    try:
        asyncio.run(run_demo(game_slug, players, seed, out, options=parse_options(options)))
    except DemoError as exc:
        print(f"error: {exc}")
        return Exit.CONFIG
    return Exit.OK


def replay(folder: Path) -> int:
    try:
        asyncio.run(replay_folder(folder))
    except DemoError as exc:
        print(f"error: {exc}")
        return Exit.FAILED
    return Exit.OK
