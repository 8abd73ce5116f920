"""The engine around one game's rules: the object the rest of the bot knows a game by.

``Engine(rules)`` offers the engine's services over the rules it is given; they are final
(the class cannot be subclassed, and :func:`~bot.games.engine.contract.check_contract`
refuses rules that write one), so every game is started, played, shown and replayed by
the same code. The game's declarations read through (``game.slug``), and the game's own
answers (its score, its summary, how its choices are offered) are asked of
``game.rules``; every other hook is the engine's to call.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar, cast, final, overload

from bot.games.engine import acting, ai, decisions, hidden, moves, notation, tokens, versions
from bot.games.engine.contract import Rules
from bot.games.engine.values import (
    Action,
    Decision,
    Event,
    OptionSpec,
    Outcome,
    Result,
    SeatInfo,
    State,
    View,
)
from bot.games.rng import Rng

_T = TypeVar("_T")


class _Declared(Generic[_T]):
    """One of the rules' declarations, read through the engine (``game.slug`` is
    ``game.rules.slug``): the engine neither keeps nor changes it."""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    @overload
    def __get__(self, engine: None, owner: type) -> _Declared[_T]: ...
    @overload
    def __get__(self, engine: Engine, owner: type | None = None) -> _T: ...

    def __get__(self, engine: Engine | None,
                owner: type | None = None) -> _T | _Declared[_T]:
        if engine is None:  # read on the class: the declaration itself
            return self
        return cast(_T, getattr(engine.rules, self._name))


@final
class Engine:
    """One game: its rules, and the engine's services over them."""

    def __init__(self, rules: Rules) -> None:
        self._rules = rules

    def __init_subclass__(cls, **kwargs: Any) -> None:
        raise TypeError("the engine's services are final: a game writes its rules "
                        "(a BaseRules subclass) and is played by Engine(rules)")

    def __repr__(self) -> str:
        return f"Engine({type(self._rules).__name__}())"

    @property
    def rules(self) -> Rules:
        """The game's rules: its declarations, its hooks and its own answers."""
        return self._rules

    # ----------------------------------------------------------------- declarations
    # The names and types of :class:`~bot.games.engine.contract.Rules`' declarations
    # (tests/bot/games/engine holds the two lists equal).

    slug = _Declared[str]()
    title = _Declared[str]()
    min_seats = _Declared[int]()
    max_seats = _Declared[int]()
    options = _Declared[tuple[OptionSpec, ...]]()
    has_hidden_information = _Declared[bool]()
    private_choices = _Declared[bool]()
    has_joint_decisions = _Declared[bool]()
    has_chance = _Declared[bool]()
    skips = _Declared[tuple[str, ...]]()
    has_content_files = _Declared[bool]()
    rules_version = _Declared[int]()
    older_rules = _Declared[tuple[int, ...]]()
    phases = _Declared[tuple[str, ...]]()
    notation_help = _Declared[str]()
    rules_summary = _Declared[str]()
    seat_colours = _Declared[tuple[str, ...]]()
    ai_easy_slips = _Declared[float]()
    step_joiners = _Declared[frozenset[str]]()

    # ----------------------------------------------------------------- starting, replaying

    def new(self, seats: Sequence[SeatInfo], seed: int,
            options: Mapping[str, Any] | None = None, rules: int | None = None) -> State:
        """A new game for ``seats`` (in turn order) from ``seed`` and ``options``.

        ``rules`` rebuilds a game of a kept older rules version (``older_rules``); new
        games are always made under the current one.
        """
        return versions.begin(self._rules, seats, seed, options, rules)[0]

    def begin(self, seats: Sequence[SeatInfo], seed: int,
              options: Mapping[str, Any] | None = None,
              rules: int | None = None) -> tuple[State, list[Event]]:
        """:meth:`new`, with what the game's set-up narrated (the bot posts the public
        lines)."""
        return versions.begin(self._rules, seats, seed, options, rules)

    def validate_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Lobby options checked against the game's ``options``, defaults filled in."""
        return notation.validate_options(self._rules, raw)

    def replay(self, seats: Sequence[SeatInfo], seed: int, options: Mapping[str, Any] | None,
               log: Iterable[tuple[int, str]], rules: int | None = None) -> State:
        """Rebuild a game from its seed and its ``(seat, notation)`` log (under ``rules``)."""
        return versions.replay(self._rules, seats, seed, options, log, rules)

    def check_replayable(self, state: State) -> None:
        """Refuse (``RulesVersionError``) a game made under rules this bot does not play."""
        versions.check_replayable(self._rules, state)

    def plays_rules(self, version: int) -> bool:
        """Does this bot play games of rules ``version``?"""
        return versions.plays_rules(self._rules, version)

    # ----------------------------------------------------------------- acting

    def to_act(self, state: State) -> frozenset[int]:
        """Seats that may act now (an open decision's first); empty once it is over."""
        return acting.to_act(self._rules, state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Legal actions of ``seat``; empty when it may not act."""
        return acting.legal_actions(self._rules, state, seat)

    def standing(self, state: State, seat: int) -> list[Action]:
        """``seat``'s standing actions, whether or not it may act (none once over)."""
        return acting.standing(self._rules, state, seat)

    def parse(self, state: State, seat: int, text: str, *, exact: bool = False) -> Action:
        """Typed text as a legal action, or a clear ``GameError`` (three kinds)."""
        return notation.parse(self._rules, state, seat, text, exact=exact)

    def apply(self, state: State, seat: int, action: Action | str,
              expected: str | int | None = None) -> Outcome:
        """``action`` for ``seat`` carried out on a copy of ``state``; ``expected`` is the
        token the client saw (a stale one is refused)."""
        return moves.apply(self._rules, state, seat, action, expected)

    def token(self, state: State, seat: int) -> str:
        """What a button for ``seat`` carries now."""
        return tokens.token(state, seat)

    def check_token(self, state: State, seat: int, expected: str | int | None) -> None:
        """Refuse (``StaleActionError``) a token that is no longer ``seat``'s."""
        tokens.check_token(state, seat, expected)

    # ----------------------------------------------------------------- seeing

    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` (``None``: a spectator) may see, with the engine's ``table``."""
        return hidden.view(self._rules, state, seat)

    def known_to(self, state: State, viewer: int | None) -> State:
        """``state`` as ``viewer`` may know it."""
        return hidden.known_to(self._rules, state, viewer)

    def resample(self, state: State, viewer: int | None, rng: Rng) -> State:
        """Another state ``viewer`` cannot tell from ``state``."""
        return hidden.resample(self._rules, state, viewer, rng)

    def result(self, state: State) -> Result | None:
        """The final ranking with the rulebook's tie-breaks, or ``None`` while the game goes
        on."""
        return self._rules._result(state)

    def top(self, state: State) -> Decision | None:
        """The decision being made now, or ``None``."""
        return decisions.top(state)

    def answer_of(self, state: State, seat: int) -> list[str]:
        """``seat``'s answer (or draft) to the open decision so far: its own eyes only."""
        return decisions.answer_of(state, seat)

    def seat_name(self, state: State, seat: int) -> str:
        """A seat as the narration names it."""
        return decisions.seat_name(state, seat)

    # ----------------------------------------------------------------- the AI

    def ai_action(self, state: State, seat: int, level: str = "normal") -> Action:
        """The AI's move for ``seat`` at ``level``, from the seat's view only."""
        return ai.ai_action(self, state, seat, level)

    def reason_for(self, before: State, outcome: Outcome, seat: int) -> str | None:
        """Why the stand-in for ``seat`` made the move of ``outcome``, for everybody."""
        return ai.reason_for(self._rules, before, outcome, seat)
