"""A game's envelope, its rules versions and its record: a new game from a seed, a game
rebuilt from its seed and log, and a state saved as JSON and read back (carried over
from older rules where the game can).

Each game declares ``rules_version``, stored in every state. A change of rules or cards
that would play an old log differently bumps it; an older version is either still played
as it was (``older_rules``) or carried over by the game's ``upgrade`` when a saved state
is read back; anything else is refused with a clear message.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

from bot.games.engine.contract import Ruled, Rules
from bot.games.engine.errors import CorruptStateError, OptionsError, RulesVersionError
from bot.games.engine.moves import apply
from bot.games.engine.notation import validate_options
from bot.games.engine.values import Event, SeatInfo, State, Turn
from bot.games.rng import Rng

FORMAT_VERSION = 1
#: Envelope keys added after format 1 and their values in states saved before them.
_ENVELOPE_DEFAULTS: dict[str, Any] = {"rules": 1, "decisions": [], "decision_counter": 0}


def begin(rules: Rules, seats: Sequence[SeatInfo], seed: int,
          options: Mapping[str, Any] | None = None,
          version: int | None = None) -> tuple[State, list[Event]]:
    """A new game for ``seats`` (in turn order) from ``seed`` and ``options``, with what
    the game's ``setup`` narrated (the bot posts the public lines).

    ``version`` rebuilds a game of a kept older rules version (``older_rules``); new games
    are always made under the current one.
    """
    version = rules.rules_version if version is None else int(version)
    if not plays_rules(rules, version):
        raise RulesVersionError(f"This bot does not play {rules.title} rules version "
                                f"{version}.")
    if not rules.min_seats <= len(seats) <= rules.max_seats:
        raise OptionsError(
            f"{rules.title} is for {rules.min_seats} to {rules.max_seats} players, "
            f"not {len(seats)}."
        )
    state: State = {
        "format": FORMAT_VERSION,
        "game": rules.slug,
        "seed": int(seed),
        "options": validate_options(rules, options or {}),
        "seats": [{"name": s.name, "ai": bool(s.ai)} for s in seats],
        "move": 0,
        "rng": Rng.from_seed(int(seed)).state,
        "rules": version,
        "decisions": [],
        "decision_counter": 0,
    }
    turn = Turn(Rng(state["rng"]))
    rules._setup(state, turn)
    state["rng"] = turn.rng.state
    return state, turn.events


def replay(rules: Rules, seats: Sequence[SeatInfo], seed: int,
           options: Mapping[str, Any] | None, log: Iterable[tuple[int, str]],
           version: int | None = None) -> State:
    """Rebuild a game from its seed and its ``(seat, notation)`` log (under ``version``)."""
    state = begin(rules, seats, seed, options, version)[0]
    for seat, notation in log:
        state = apply(rules, state, seat, notation).state
    return state


def plays_rules(rules: Rules, version: int) -> bool:
    """Does this bot play games of rules ``version`` (the current or a kept older one)?"""
    return version == rules.rules_version or version in rules.older_rules


def check_replayable(rules: Rules, state: State) -> None:
    """Raise :class:`RulesVersionError` if ``state`` was made under rules this bot does not
    play: its log would not replay to the same game here."""
    made = state.get("rules", 1)
    if not plays_rules(rules, made):
        raise RulesVersionError(
            f"This game was played under {rules.title} rules version {made}; this bot plays "
            f"version {rules.rules_version}, so its moves cannot be replayed here.",
            title=rules.title, made=int(made), plays=rules.rules_version, replaying=True)


def refuse_upgrade(rules: Rules, state: State) -> RulesVersionError:
    """The refusal of a game that cannot carry ``state``, saved under older rules, over
    (the default of the game's ``upgrade``)."""
    return RulesVersionError(
        f"This {rules.title} game was started under rules version {state.get('rules')}, "
        f"and this bot plays version {rules.rules_version}; it cannot be carried over.",
        title=rules.title, made=int(state.get("rules", 1)), plays=rules.rules_version)


# --------------------------------------------------------------------------- JSON


def dumps(state: State) -> str:
    """Serialise a state: compact, key-sorted, so equal states give equal text."""
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


def loads(text: str, game: Ruled | None = None) -> State:
    """Read a state back; a wrong format version or game raises :class:`CorruptStateError`.

    With ``game``, a state saved under older rules it no longer plays is carried over by
    its ``upgrade`` (or refused), and one saved by a newer bot is refused.
    """
    try:
        state = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise CorruptStateError("This game's saved state cannot be read.") from exc
    if not isinstance(state, dict) or state.get("format") != FORMAT_VERSION:
        raise CorruptStateError("This game was saved in a format this bot cannot read.")
    rules = None if game is None else game.rules
    if rules is not None and state.get("game") != rules.slug:
        raise CorruptStateError("This saved state belongs to a different game.")
    for key in ("seed", "seats", "move", "rng", "options"):
        if key not in state:
            raise CorruptStateError(f"This game's saved state is missing {key!r}.")
    for key, default in _ENVELOPE_DEFAULTS.items():
        state.setdefault(key, copy.deepcopy(default))
    if rules is not None and not plays_rules(rules, state["rules"]):
        if state["rules"] > rules.rules_version:
            raise RulesVersionError(
                f"This {rules.title} game was saved by a newer candybot (rules version "
                f"{state['rules']}); this one plays version {rules.rules_version}.",
                title=rules.title, made=int(state["rules"]), plays=rules.rules_version)
        state = rules._upgrade(state)
    return cast("dict[str, Any]", state)
