"""An ended game's log told again with a player's seats renamed, for ``privacy delete``.

A name stands in the stored narration wherever the game wrote it, and a plain text
search cannot tell it from another name that contains it ("Al" in "Alice") or from a
word that happens to be spelt the same. So the log is told again: the game is replayed
from its seed with each seat named by a token no game writes, which gives each action's
narration with a hole wherever a seat's name went; an action whose stored words come out
of that replay exactly (names filled in as they were) gets the same words with the
renamed seats' new name in their holes, and nowhere else.

An action the replay does not give back word for word (the game is not registered, its
rules changed since, or an older bot worded it otherwise) has the old name replaced
where it stands as a word of its own, and a one-letter name is left there (it would
replace that letter as a word everywhere: "a").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence

from bot.games.engine import Engine, GameError, SeatInfo, State
from bot.store import ActionRecord, GameRecord, Retold
from bot.tables.core import narrated


def _token(seat: int) -> str:
    """The name seat ``seat`` has while the log is replayed: private-use characters, so
    that no game's own words contain it."""
    return f"\ue000{seat}\ue001"


_TOKEN = re.compile("\ue000(\\d+)\ue001")


def _filled(text: str, names: Sequence[str]) -> str:
    return _TOKEN.sub(lambda m: names[int(m.group(1))], text)


def renamed_log(game: Engine | None, record: GameRecord, actions: Sequence[ActionRecord],
                seats: Iterable[int], name: str) -> Retold:
    """``record`` with ``seats`` named ``name``: its actions whose words change, and its
    result's summary, told again (see the module text); runs in a worker thread."""
    mine = set(seats)
    try:
        state = json.loads(record.state_json or "")
        infos = list(state["seats"])
        names = [str(info["name"]) for info in infos]
    except (TypeError, ValueError, KeyError):
        state, infos, names = None, [], [s.name for s in record.seats]
    renamed = [name if seat in mine else old for seat, old in enumerate(names)]
    olds = {names[s] for s in mine if s < len(names)} | {s.name for s in record.seats
                                                        if s.seat in mine}
    replayed, summary = _replayed(game, record, state, infos, actions, names, renamed)
    changed = []
    for action, again in zip(actions, replayed, strict=True):
        narration, public, private = again or (
            _words(action.narration, olds, name), _words(action.public, olds, name),
            {seat: tuple(_words(line, olds, name) for line in lines)
             for seat, lines in action.private.items()})
        if (narration, public, dict(private)) != (action.narration, action.public,
                                                 dict(action.private)):
            changed.append((action.n, narration, public, private))
    stored = _summary(record)
    if summary is None and stored is not None:
        summary = _words(stored, olds, name)
    return Retold(actions=tuple(changed),
                  summary=summary if summary is not None and summary != stored else None)


def _summary(record: GameRecord) -> str | None:
    """The summary of the result stored with ``record``, if it has one."""
    try:
        return str(json.loads(record.result_json or "")["summary"])
    except (TypeError, ValueError, KeyError):
        return None


def _replayed(game: Engine | None, record: GameRecord, state: State | None,
              infos: list[dict[str, object]], actions: Sequence[ActionRecord],
              names: Sequence[str], renamed: Sequence[str],
              ) -> tuple[list[tuple[str, str, dict[int, tuple[str, ...]]] | None], str | None]:
    """Each action's words with ``renamed`` names, where the replay gives back its stored
    words with ``names`` (``None`` for each other action); and the result's summary, so
    renamed, when the whole log replays to the stored one."""
    out: list[tuple[str, str, dict[int, tuple[str, ...]]] | None] = [None] * len(actions)
    if game is None or state is None or record.seed is None:
        return out, None
    try:
        now = game.new([SeatInfo(_token(seat), bool(info.get("ai"))) for seat, info
                        in enumerate(infos)], int(record.seed), dict(record.options),
                       int(state.get("rules", game.rules_version)))
    except (GameError, TypeError, ValueError):
        return out, None
    everyone = range(len(infos))
    for index, action in enumerate(actions):
        try:
            outcome = game.apply(now, action.seat, action.notation)
        except (GameError, TypeError, ValueError, KeyError):
            return out, None  # the rest of the log no longer replays
        public = outcome.public if outcome.public != outcome.action.notation else ""
        stored = (action.narration, action.public, dict(action.private))
        # A move the AI chose for an absent player also says why; most moves do not.
        for reason_of in (None, action.seat):
            if reason_of is not None and action.user_id is not None:
                break
            events, private = narrated(game, now, outcome, everyone, reason_of=reason_of)
            # A row logged before hidden moves had their own public form keeps none.
            template = (" ".join(events), public if action.public else "", private)
            if _told(template, names) == stored:
                out[index] = _told(template, renamed)
                break
        now = outcome.state
    result = game.result(now)
    if result is None or _filled(result.summary, names) != _summary(record):
        return out, None
    return out, _filled(result.summary, renamed)


def _told(template: tuple[str, str, dict[int, tuple[str, ...]]], names: Sequence[str],
          ) -> tuple[str, str, dict[int, tuple[str, ...]]]:
    narration, public, private = template
    return (_filled(narration, names), _filled(public, names),
            {seat: tuple(_filled(line, names) for line in lines)
             for seat, lines in private.items()})


def _words(text: str, olds: Iterable[str], name: str) -> str:
    """``text`` with each of ``olds`` replaced by ``name`` where it stands as a word of
    its own (longest first; one-letter names are left)."""
    for old in sorted(olds, key=len, reverse=True):
        if len(old) < 2:
            continue
        text = re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", lambda _m: name, text)
    return text
