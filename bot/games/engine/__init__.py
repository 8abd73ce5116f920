"""The one contract every game keeps, and the engine that plays it.

A game writes its *rules* (a subclass of :class:`BaseRules`, which keeps the
:class:`Rules` protocol): its declarations and hooks. The engine wraps them in an
:class:`Engine`, the one object the rest of the bot knows the game by, whose services
are final. A *state* is a plain JSON-compatible ``dict`` that the game's hooks read and,
inside ``play``, mutate; every service that changes a game works on a copy, so a
refused action never touches the caller's state.

The envelope every state carries::

    format  int   state format version (FORMAT_VERSION)
    game    str   the game's slug
    seed    int   the seed the game was created with
    options dict  validated options
    seats   list  [{"name": str, "ai": bool}, ...]
    move    int   number of actions applied so far
    rng     int   the generator state (see :mod:`bot.games.rng`)
    rules   int   the game's rules version the state was made with
    decisions list the stack of open decisions, top last (see :class:`Decision`)
    decision_counter int  the last decision id handed out
    aside   dict  {seat: int} standing actions each seat has taken, once one was
    flow    dict  {"round": int, "phase": str} for games that declare phases

Everything else in the dict belongs to the game.

The engine's modules, one idea each: :mod:`~bot.games.engine.values` (what passes
between a game and the bot), :mod:`~bot.games.engine.errors`,
:mod:`~bot.games.engine.contract` (the protocol and the lists of hooks and services),
:mod:`~bot.games.engine.base` (the hooks' defaults), :mod:`~bot.games.engine.decisions`
(the decision stack and phases), :mod:`~bot.games.engine.acting` (who acts, what is
legal), :mod:`~bot.games.engine.notation` (text to actions, options),
:mod:`~bot.games.engine.tokens`, :mod:`~bot.games.engine.moves` (a move carried out),
:mod:`~bot.games.engine.hidden` (who may know what; the view),
:mod:`~bot.games.engine.versions` (new games, replays, rules versions, saved states),
:mod:`~bot.games.engine.ai`, :mod:`~bot.games.engine.services` (the :class:`Engine`) and
:mod:`~bot.games.engine.playing`.

A game's own code calls the services it needs as the functions this package exports
(``seat_name(state, seat)``, ``ask(state, ...)``, ``legal_actions(self, state, seat)``);
the bot calls them on the game's :class:`Engine`.
"""

from bot.games.engine.acting import legal_actions, standing, to_act
from bot.games.engine.base import REQUIRED_HOOKS, BaseRules
from bot.games.engine.contract import (
    AI_LEVELS,
    ANSWERS,
    CONTRACT,
    HOOKS,
    SERVICES,
    ContractError,
    Lookahead,
    Playable,
    Requirement,
    Ruled,
    Rules,
    check_contract,
)
from bot.games.engine.decisions import (
    answer_of,
    ask,
    decision_view,
    next_phase,
    open_decisions,
    phase_of,
    round_of,
    seat_name,
    start_phases,
    top,
)
from bot.games.engine.errors import (
    AmbiguousActionError,
    CorruptStateError,
    GameError,
    GameOverError,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    OptionsError,
    RulesVersionError,
    StaleActionError,
)
from bot.games.engine.hidden import VEIL_SEED, known_to, resample, table, view
from bot.games.engine.playing import Chooser, play_out, playing
from bot.games.engine.services import Engine
from bot.games.engine.tokens import check_token, token
from bot.games.engine.values import (
    ALERT,
    Action,
    CardText,
    Decision,
    Event,
    Hidden,
    Json,
    MultiSelect,
    OptionSpec,
    Outcome,
    Result,
    SeatInfo,
    State,
    Turn,
    View,
    copied,
    normalise,
)
from bot.games.engine.versions import FORMAT_VERSION, dumps, loads

__all__ = [
    "AI_LEVELS", "ALERT", "ANSWERS", "CONTRACT", "FORMAT_VERSION", "HOOKS", "REQUIRED_HOOKS",
    "SERVICES", "VEIL_SEED", "Action", "AmbiguousActionError", "BaseRules", "CardText",
    "Chooser", "ContractError", "CorruptStateError", "Decision", "Engine", "Event",
    "GameError", "GameOverError", "Hidden", "IllegalActionError", "Json", "Lookahead",
    "MultiSelect", "NotYourTurnError", "NotationError", "OptionSpec", "OptionsError",
    "Outcome", "Playable", "Requirement", "Result", "Ruled", "Rules", "RulesVersionError",
    "SeatInfo", "StaleActionError", "State", "Turn", "View", "answer_of", "ask",
    "check_contract", "check_token", "copied", "decision_view", "dumps", "known_to",
    "legal_actions", "loads", "next_phase", "normalise", "open_decisions", "phase_of",
    "play_out", "playing", "resample", "round_of", "seat_name", "standing",
    "start_phases", "table", "to_act", "token", "top", "view",
]
