"""The contract between a game and the engine: :class:`Rules`, what a game writes (its
declarations and hooks), and the names of the engine's services, which it never writes.

A game's rules are one object that keeps :class:`Rules` (in practice a subclass of
:class:`bot.games.engine.base.BaseRules`, which gives every optional hook its default).
The engine wraps it in an :class:`bot.games.engine.services.Engine`, the one object the
rest of the bot knows a game by: the engine's services are final, and the hooks they
wrap are called by the engine only. :func:`check_contract` holds every registered game's
rules to this contract.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from bot.games.engine.values import (
    Action,
    CardText,
    Decision,
    Hidden,
    MultiSelect,
    OptionSpec,
    Outcome,
    Result,
    State,
    Turn,
    View,
)
from bot.games.rng import Rng

#: The levels an AI seat can play at, weakest first.
AI_LEVELS: tuple[str, ...] = ("easy", "normal", "strong")


class Rules(Protocol):
    """What a game writes: its declarations and the hooks the engine calls (docs/engine.md
    explains each). Everything outside the game is typed against this protocol or the
    :class:`~bot.games.engine.services.Engine` around it."""

    # Declarations (CONTRACT names those a game must declare in its own class): a game
    # declares each as a class attribute. The tuples are read-only properties here, so
    # that a game's literal tuple (of a fixed length, to a type checker) keeps them.
    slug: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    @property
    def options(self) -> tuple[OptionSpec, ...]: ...
    has_hidden_information: ClassVar[bool]
    private_choices: ClassVar[bool]
    has_joint_decisions: ClassVar[bool]
    has_chance: ClassVar[bool]
    @property
    def skips(self) -> tuple[str, ...]: ...
    has_content_files: ClassVar[bool]
    rules_version: ClassVar[int]
    @property
    def older_rules(self) -> tuple[int, ...]: ...
    @property
    def phases(self) -> tuple[str, ...]: ...
    step_joiners: ClassVar[frozenset[str]]
    notation_help: ClassVar[str]
    rules_summary: ClassVar[str]
    @property
    def seat_colours(self) -> tuple[str, ...]: ...
    ai_easy_slips: ClassVar[float]

    def __hash__(self) -> int:
        """Rules are kept as keys (the engine caches what ``_back_of`` says of an item)."""

    # The game's own answers: the bot, the renderers and the tools ask them of
    # ``game.rules`` (ANSWERS).
    def scores(self, state: State) -> dict[int, int]:
        """Each seat's score so far."""
    def summary(self, state: State) -> str:
        """One line on where the game stands."""
    def secrets(self, state: State, seat: int) -> list[str]:
        """Strings only ``seat`` may see (default: its hidden items)."""
    def card_texts(self, view: View) -> list[CardText]:
        """Every card a view shows, in full words (default: none)."""
    def quick_choices(self, state: State, seat: int) -> list[Action]:
        """Actions worth offering as buttons (default: a decision's answers, up to 25)."""
    def choices_are_public(self, state: State) -> bool:
        """Whether the choices may be buttons in the channel."""
    def multi_select(self, state: State, seat: int) -> MultiSelect | None:
        """A several-at-once menu to offer now (default: none)."""
    def rank_actions(self, state: State, seat: int, actions: list[Action]) -> list[Action]:
        """Actions the likeliest first, for autocomplete (default: as given)."""
    def dominated(self, state: State, seat: int, actions: Sequence[Action]) -> frozenset[str]:
        """Actions another does as well for less: offered only on asking (default: none)."""
    def move_steps(self, notation: str) -> tuple[str, ...]:
        """A notation cut into the steps a player clicks through."""
    def option_suggestions(self, name: str, current: str) -> list[str] | None:
        """Autocomplete values of a lobby option (default: its own choices)."""
    def zoom_spots(self, state: State) -> list[str]:
        """Places a player may ask to see large (default: none)."""
    def episode(self, state: State) -> str | None:
        """A key shared by moves that read as one story (default: none)."""

    # The engine's hooks: only the engine calls them, each behind the service that wraps
    # it (as OpenSpiel keeps ``_apply_action`` behind ``apply_action``).
    # Required.
    def _setup(self, state: State, turn: Turn) -> None:
        """Fill in the game's own fields of a new state; deal with ``turn.rng``."""
    def _turn_actors(self, state: State) -> frozenset[int]:
        """The seats that act when no decision is open."""
    def _turn_actions(self, state: State, seat: int) -> list[Action]:
        """``seat``'s legal actions when no decision is open."""
    def _play(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        """Carry out a turn action on ``state``; narrate with ``turn.say``."""
    def _show(self, state: State, seat: int | None) -> View:
        """What ``seat`` sees, from the state as it may know it (spectators: ``None``)."""
    def _ai(self, view: View, legal: list[Action], rng: Rng) -> Action:
        """The normal AI: a choice from ``legal`` seeing only ``view``."""
    def _canonical(self, text: str) -> str | None:
        """Normalised text as canonical notation (or a prefix of some), else ``None``."""
    def _result(self, state: State) -> Result | None:
        """The final ranking with the rulebook's tie-breaks, or ``None`` while the game goes
        on."""
    # Decisions, phases and standing actions, for games that have them.
    def _decision_actions(self, state: State, decision: Decision, seat: int) -> list[Action]:
        """``seat``'s answers to an open ``decision``."""
    def _resolve(self, state: State, decision: Decision, answers: dict[int, Action],
                 turn: Turn) -> None:
        """Carry on once ``decision`` is answered."""
    def _answer_complete(self, state: State, decision: Decision, seat: int,
                         steps: Sequence[str]) -> bool:
        """Whether a joint answer is whole after ``steps`` (default: one step)."""
    def _begin_phase(self, state: State, phase: str, turn: Turn) -> None:
        """Begin one of the game's :attr:`phases`."""
    def _standing_actions(self, state: State, seat: int) -> list[Action]:
        """What ``seat`` may do at any time, out of turn too (default: nothing)."""
    def _play_standing(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        """Carry out a standing action."""
    # Who may know what.
    def _hidden(self, state: State) -> list[Hidden]:
        """Every place only one seat, or nobody, knows (default: none)."""
    def _back_of(self, pool: str, item: Any) -> Any:
        """What anybody can tell of a hidden item (default: nothing)."""
    # Words.
    def _expand(self, state: State, seat: int, text: str) -> str:
        """A typed shorthand written out in full notation (default: as typed)."""
    def _explain(self, state: State, seat: int, notation: str) -> str:
        """Why well-formed ``notation`` is not legal now."""
    def _option_value(self, spec: OptionSpec, value: Any) -> Any:
        """A lobby option's value as the game keeps it (default: checked by its kind)."""
    # AI and rules versions.
    def _ai_strong(self, view: View, legal: list[Action], rng: Rng,
                   look: Lookahead) -> Action:
        """The strong AI, which may search worlds the seat cannot tell apart."""
    def _stand_in_reason(self, before: View, after: View, seat: int,
                         move: str) -> str | None:
        """Why the stand-in AI chose its move, in one public sentence, from spectators'
        views only (default: points)."""
    def _upgrade(self, state: State) -> State:
        """Carry a state of an older rules version over (default: refuse)."""


#: Every hook a game may write (:class:`Rules`).
HOOKS: tuple[str, ...] = tuple(name for name, value in vars(Rules).items()
                               if not name.startswith("__") and callable(value))

#: The hooks that are the game's own answers, asked of ``game.rules`` by the bot, the
#: renderers and the tools. The others (their names begin with ``_``) are the engine's to
#: call, each behind the service that wraps it.
ANSWERS: tuple[str, ...] = tuple(name for name in HOOKS if not name.startswith("_"))

#: The engine's services, each with the hook a game writes instead ("": none). The bot,
#: the renderers and the tools call them on a game's
#: :class:`~bot.games.engine.services.Engine`; a game's own code calls those it needs as
#: functions of :mod:`bot.games.engine`. :func:`check_contract` refuses rules that write
#: one, naming it and the hook to write instead.
SERVICES: dict[str, str] = {
    "new": "_setup", "begin": "_setup", "validate_options": "_option_value",
    "view": "_show", "table": "_show", "known_to": "_hidden", "resample": "_hidden",
    "to_act": "_turn_actors", "legal_actions": "_turn_actions or _decision_actions",
    "standing": "_standing_actions", "parse": "_expand (for a shorthand) or _canonical",
    "check_token": "", "apply": "_play or _resolve", "ai_action": "_ai or _ai_strong",
    "result": "_result", "replay": "", "check_replayable": "_upgrade", "plays_rules": "older_rules",
    "ask": "", "top": "", "open_decisions": "", "answer_of": "", "decision_view": "",
    "token": "", "start_phases": "_begin_phase", "next_phase": "_begin_phase",
    "round_of": "", "phase_of": "", "seat_name": "", "reason_for": "_stand_in_reason",
}


# --------------------------------------------------------------------------- engines


class Ruled(Protocol):
    """Anything that carries one game's rules: an
    :class:`~bot.games.engine.services.Engine`."""

    @property
    def rules(self) -> Rules: ...


class Playable(Ruled, Protocol):
    """What a searching AI plays worlds forward with: the engine's services over one
    game's rules (an :class:`~bot.games.engine.services.Engine` keeps it)."""

    def apply(self, state: State, seat: int, action: Action | str,
              expected: str | int | None = None) -> Outcome: ...
    def to_act(self, state: State) -> frozenset[int]: ...
    def legal_actions(self, state: State, seat: int) -> list[Action]: ...
    def view(self, state: State, seat: int | None) -> View: ...
    def result(self, state: State) -> Result | None: ...
    def top(self, state: State) -> Decision | None: ...
    def resample(self, state: State, viewer: int | None, rng: Rng) -> State: ...


@dataclass(frozen=True)
class Lookahead:
    """What a searching AI may use besides its view: the state as its seat may know it
    (the engine's ``known_to``), worlds it cannot tell from the real one, and the rules to
    play them forward. Nothing here holds what the seat does not know."""

    game: Playable
    seat: int
    known: State

    def world(self, rng: Rng) -> State:
        """A state the seat cannot tell from the real one (hidden items dealt afresh)."""
        return self.game.resample(self.known, self.seat, rng)


# --------------------------------------------------------------------------- the declarations


@dataclass(frozen=True)
class Requirement:
    """One attribute every registered game declares in its own class."""

    name: str
    kind: type | tuple[type, ...]
    meaning: str


#: What a game must declare itself; :func:`check_contract` holds every registered game to it.
#: The hooks a game must write are ``BaseRules``' abstract methods
#: (:data:`bot.games.engine.base.REQUIRED_HOOKS`).
CONTRACT: tuple[Requirement, ...] = (
    Requirement("slug", str, "its name in commands, lower-case words joined by hyphens"),
    Requirement("title", str, "its name as players read it"),
    Requirement("min_seats", int, "the fewest players"),
    Requirement("max_seats", int, "the most players"),
    Requirement("notation_help", str, "one line per notation form"),
    Requirement("rules_summary", str, "a few sentences on how to play"),
    Requirement("has_hidden_information", bool,
                "whether one seat knows something others do not"),
    Requirement("private_choices", bool,
                "whether its own turn's choices are offered privately"),
    Requirement("has_joint_decisions", bool, "whether several seats answer in secret at once"),
    Requirement("has_chance", bool, "whether play draws from the generator"),
    Requirement("has_content_files", bool, "whether it reads data/<package>/"),
)
_SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
#: The package whose classes are the engine's own (a declaration inherited from one of them
#: is not the game's).
_ENGINE = __name__.rpartition(".")[0]


class ContractError(TypeError):
    """A game that does not declare what the engine contract requires."""


def check_contract(rules: Rules) -> None:
    """Raise :class:`ContractError` naming everything ``rules`` fails to declare, and every
    service it writes."""
    own = [k for k in type(rules).__mro__
           if k is not object and not k.__module__.startswith(_ENGINE)]
    problems = []
    for need in CONTRACT:
        if not any(need.name in vars(k) for k in own):
            problems.append(f"{need.name} is missing ({need.meaning})")
        elif not isinstance(getattr(rules, need.name), need.kind) or (
                need.kind is int and isinstance(getattr(rules, need.name), bool)):
            kind = getattr(need.kind, "__name__", need.kind)
            problems.append(f"{need.name} must be of type {kind} ({need.meaning})")
    if not problems:
        if not _SLUG.match(rules.slug):
            problems.append(f"slug {rules.slug!r} must be lower-case words joined by hyphens")
        if not 1 <= rules.min_seats <= rules.max_seats:
            problems.append("min_seats must be at least 1 and at most max_seats")
        for name, hook in SERVICES.items():
            if any(name in vars(k) for k in own):
                instead = f": write {hook} instead" if hook else ""
                problems.append(f"{name} is the engine's own service and may not be "
                                f"written by a game{instead}")
        for hook in HOOKS:
            public = hook.lstrip("_")
            if hook != public and any(public in vars(k) for k in own):
                problems.append(f"{public} would never be called: the engine's hook is "
                                f"named {hook}")
        if rules.private_choices and not rules.has_hidden_information:
            problems.append("private_choices needs has_hidden_information: with nothing "
                            "hidden, nothing makes a choice private")
    if problems:
        raise ContractError(f"{type(rules).__name__} does not keep the engine contract: "
                            + "; ".join(problems) + ".")
