"""The one contract every game implements.

A game is a stateless object (a subclass of :class:`Game`); a *state* is a plain
JSON-compatible ``dict`` that the game reads and, inside :meth:`Game.play`,
mutates. Every public entry point that changes a game works on a deep copy, so a
rejected action never touches the caller's state.

The envelope every state carries::

    format  int   state format version (FORMAT_VERSION)
    game    str   the game's slug
    seed    int   the seed the game was created with
    options dict  validated options
    seats   list  [{"name": str, "ai": bool}, ...]
    move    int   number of actions applied so far (stale-button check)
    rng     int   the generator state (see :mod:`bot.games.rng`)

Everything else in the dict belongs to the game.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bot.games.rng import Rng

FORMAT_VERSION = 1

State = dict[str, Any]
View = dict[str, Any]


# --------------------------------------------------------------------------- errors


class GameError(Exception):
    """An error a player can cause; ``str(err)`` is safe to show them."""


class NotationError(GameError):
    """The text is not an action in this game's notation at all."""


class IllegalActionError(GameError):
    """Well-formed notation for an action the rules do not allow right now."""


class AmbiguousActionError(GameError):
    """The text fits more than one legal action."""

    def __init__(self, message: str, candidates: Sequence[str]) -> None:
        super().__init__(message)
        self.candidates = list(candidates)


class NotYourTurnError(GameError):
    """The seat may not act now."""


class StaleActionError(GameError):
    """The action was chosen on an older state (a stale button)."""


class GameOverError(GameError):
    """The game has already ended."""


class OptionsError(GameError):
    """A malformed or out-of-range game option, or a bad seat count."""


class CorruptStateError(GameError):
    """A saved state that cannot be read back."""


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class SeatInfo:
    """Who sits at a seat. The engine knows names only; Discord ids live in the store."""

    name: str
    ai: bool = False


@dataclass(frozen=True)
class Action:
    """A legal action. ``notation`` is canonical, unique in its state, and parses back."""

    notation: str
    label: str = ""  # longer human description, e.g. for autocomplete

    def __str__(self) -> str:
        return self.notation


@dataclass(frozen=True)
class Event:
    """One line of narration. ``reveals`` marks hidden information made public."""

    text: str
    seat: int | None = None
    kind: str = "info"
    reveals: bool = False


@dataclass(frozen=True)
class Result:
    """The final ranking: groups of tied seats, best first, with each seat's score."""

    ranking: tuple[tuple[int, ...], ...]
    scores: dict[int, int]
    summary: str

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if self.ranking else ()

    def place_of(self, seat: int) -> int:
        """1-based place, shared by tied seats."""
        place = 1
        for group in self.ranking:
            if seat in group:
                return place
            place += len(group)
        raise KeyError(seat)

    def to_json(self) -> dict[str, Any]:
        return {
            "ranking": [list(g) for g in self.ranking],
            "scores": {str(k): v for k, v in self.scores.items()},
            "summary": self.summary,
        }


@dataclass(frozen=True)
class Outcome:
    """What :meth:`Game.apply` returns."""

    state: State
    events: list[Event]
    action: Action
    undoable: bool


@dataclass(frozen=True)
class OptionSpec:
    """A game option a lobby can set. ``kind`` is ``int``, ``choice`` or ``bool``."""

    name: str
    description: str
    kind: str
    default: Any
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


@dataclass
class Turn:
    """Scratch space handed to :meth:`Game.play`: the generator and the event sink."""

    rng: Rng
    events: list[Event] = field(default_factory=list)

    def say(self, text: str, seat: int | None = None, kind: str = "info", *,
            reveals: bool = False) -> None:
        self.events.append(Event(text, seat, kind, reveals))


_SPACES = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Lower-case, trim and collapse white space: the form notation is compared in."""
    return _SPACES.sub(" ", text.strip().lower())


# --------------------------------------------------------------------------- the contract


class Game(ABC):
    """Base class of every game. Subclasses implement the abstract hooks."""

    slug: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options: ClassVar[tuple[OptionSpec, ...]] = ()
    has_hidden_information: ClassVar[bool] = False
    #: One line per notation form, shown in help and parse errors.
    notation_help: ClassVar[str] = ""
    #: A few sentences on how to play, for ``/game rules``.
    rules_summary: ClassVar[str] = ""

    # ----------------------------------------------------------------- hooks

    @abstractmethod
    def setup(self, state: State, turn: Turn) -> None:
        """Fill in the game's own fields of a freshly enveloped state."""

    @abstractmethod
    def actors(self, state: State) -> frozenset[int]:
        """Seats that may act now (ignores whether the game is over)."""

    @abstractmethod
    def legal(self, state: State, seat: int) -> list[Action]:
        """Every legal action for ``seat`` (empty if it may not act)."""

    @abstractmethod
    def play(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        """Mutate ``state`` by a legal ``action``; narrate through ``turn``."""

    @abstractmethod
    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` (or a spectator, ``None``) may see. JSON-compatible."""

    @abstractmethod
    def result(self, state: State) -> Result | None:
        """The final result, or ``None`` while the game goes on."""

    @abstractmethod
    def ai(self, view: View, legal: list[Action], rng: Rng) -> Action:
        """The AI policy: choose from ``legal`` seeing only ``view``."""

    @abstractmethod
    def canonical(self, text: str) -> str | None:
        """Rewrite normalised text into canonical notation, or ``None`` if it is not notation.

        The result may be a legal action's notation or a prefix of several
        (for example ``swap c3``); anything well-formed but illegal is explained
        by :meth:`explain`.
        """

    def explain(self, state: State, seat: int, notation: str) -> str:
        """Why a well-formed ``notation`` is not legal now. Games override for detail."""
        return f"`{notation}` is not a legal move right now."

    def summary(self, state: State) -> str:
        """One line on where the game stands (for status messages)."""
        return f"Move {state['move']}."

    def scores(self, state: State) -> dict[int, int]:
        """Current score (or progress) per seat, for status messages."""
        return {i: 0 for i in range(len(state["seats"]))}

    def secrets(self, state: State, seat: int) -> list[str]:
        """Strings only ``seat`` may see (e.g. its hand's card ids).

        The invariant suite checks that no other seat's view and no spectator
        view contains any of them. Games without hidden information return [].
        """
        return []

    def quick_choices(self, state: State, seat: int) -> list[Action]:
        """Actions worth offering as buttons or a select menu (a *common choice*).

        Empty when the choice is open-ended and best typed or autocompleted
        (for example any swap on the board). At most 25 are ever shown.
        """
        return []

    def rank_actions(self, state: State, seat: int, actions: list[Action]) -> list[Action]:
        """Order actions most useful first, for autocomplete. Default: as given."""
        return actions

    # ----------------------------------------------------------------- provided

    def new(self, seats: Sequence[SeatInfo], seed: int,
            options: dict[str, Any] | None = None) -> State:
        """A new game for ``seats`` (in turn order) from ``seed`` and ``options``."""
        if not self.min_seats <= len(seats) <= self.max_seats:
            raise OptionsError(
                f"{self.title} is for {self.min_seats} to {self.max_seats} players, "
                f"not {len(seats)}."
            )
        state: State = {
            "format": FORMAT_VERSION,
            "game": self.slug,
            "seed": int(seed),
            "options": self.validate_options(options or {}),
            "seats": [{"name": s.name, "ai": bool(s.ai)} for s in seats],
            "move": 0,
            "rng": Rng.from_seed(int(seed)).state,
        }
        turn = Turn(Rng(state["rng"]))
        self.setup(state, turn)
        state["rng"] = turn.rng.state
        return state

    def validate_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Check options against :attr:`options`; fill defaults. Raises :class:`OptionsError`."""
        specs = {o.name: o for o in self.options}
        unknown = sorted(set(raw) - set(specs))
        if unknown:
            known = ", ".join(specs) or "none"
            raise OptionsError(f"Unknown option {unknown[0]!r} for {self.title} (known: {known}).")
        out: dict[str, Any] = {}
        for spec in self.options:
            value = raw.get(spec.name, spec.default)
            out[spec.name] = _check_option(spec, value)
        return out

    def seat_name(self, state: State, seat: int) -> str:
        return str(state["seats"][seat]["name"])

    def to_act(self, state: State) -> frozenset[int]:
        """Seats that may act now; empty once the game is over."""
        if self.result(state) is not None:
            return frozenset()
        return self.actors(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Legal actions of ``seat``; empty when it may not act."""
        if seat not in self.to_act(state):
            return []
        return self.legal(state, seat)

    def parse(self, state: State, seat: int, text: str) -> Action:
        """Turn typed text into a legal action, or raise a clear :class:`GameError`.

        Three different errors: text that is not notation (:class:`NotationError`),
        a well-formed action that is not legal (:class:`IllegalActionError`), and
        an abbreviation that fits several legal actions (:class:`AmbiguousActionError`).
        A unique abbreviation is accepted: it names exactly one action.
        """
        norm = normalise(text)
        if not norm:
            raise NotationError(f"Type a move. {self.notation_help}")
        canon = self.canonical(norm)
        if canon is None:
            raise NotationError(
                f"`{text.strip()}` is not a {self.title} move. {self.notation_help}"
            )
        self._check_can_act(state, seat)
        legal = self.legal(state, seat)
        for action in legal:
            if action.notation == canon:
                return action
        prefixed = [a for a in legal if a.notation.startswith(canon + " ")]
        if len(prefixed) == 1:
            return prefixed[0]
        if prefixed:
            shown = ", ".join(f"`{a.notation}`" for a in prefixed[:8])
            more = f" and {len(prefixed) - 8} more" if len(prefixed) > 8 else ""
            raise AmbiguousActionError(
                f"`{canon}` could mean {shown}{more}. Type the whole move.",
                [a.notation for a in prefixed],
            )
        raise IllegalActionError(self.explain(state, seat, canon))

    def apply(self, state: State, seat: int, action: Action | str,
              expected_move: int | None = None) -> Outcome:
        """Apply ``action`` for ``seat``; the input state is never modified.

        ``expected_move`` is the move counter the client saw; if the game has
        moved on since, :class:`StaleActionError` is raised.
        """
        if expected_move is not None and expected_move != state["move"]:
            raise StaleActionError("That choice has expired: the game has moved on since.")
        self._check_can_act(state, seat)
        if isinstance(action, str):
            chosen = self.parse(state, seat, action)
        else:
            chosen = next((a for a in self.legal(state, seat) if a.notation == action.notation),
                          None)
            if chosen is None:
                raise IllegalActionError(self.explain(state, seat, action.notation))
        new = copy.deepcopy(state)
        turn = Turn(Rng(new["rng"]))
        self.play(new, seat, chosen, turn)
        new["rng"] = turn.rng.state
        new["move"] = state["move"] + 1
        undoable = new["rng"] == state["rng"] and not any(e.reveals for e in turn.events)
        return Outcome(new, turn.events, chosen, undoable)

    def ai_action(self, state: State, seat: int) -> Action:
        """The AI's choice for ``seat``. The policy sees only that seat's view."""
        legal = self.legal_actions(state, seat)
        if not legal:
            raise NotYourTurnError(f"{self.seat_name(state, seat)} has nothing to do now.")
        # The AI draws from its own generator so that its choices never shift the
        # game's randomness: replaying the log alone reproduces the game.
        digest = hashlib.sha256(f"{state['seed']}:{state['move']}:{seat}".encode()).digest()
        rng = Rng.from_seed(int.from_bytes(digest[:8], "big"))
        return self.ai(self.view(state, seat), legal, rng)

    def replay(self, seats: Sequence[SeatInfo], seed: int, options: dict[str, Any] | None,
               log: Iterable[tuple[int, str]]) -> State:
        """Rebuild a game from its seed and its ``(seat, notation)`` log."""
        state = self.new(seats, seed, options)
        for seat, notation in log:
            state = self.apply(state, seat, notation).state
        return state

    def _check_can_act(self, state: State, seat: int) -> None:
        if self.result(state) is not None:
            raise GameOverError("This game is over.")
        actors = self.actors(state)
        if seat not in actors:
            names = " or ".join(self.seat_name(state, s) for s in sorted(actors)) or "nobody"
            raise NotYourTurnError(f"It is not your turn: waiting for {names}.")


def _check_option(spec: OptionSpec, value: Any) -> Any:
    if spec.kind == "int":
        if isinstance(value, bool):
            raise OptionsError(f"Option {spec.name!r} must be a whole number.")
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise OptionsError(f"Option {spec.name!r} must be a whole number.") from None
        if spec.minimum is not None and number < spec.minimum:
            raise OptionsError(f"Option {spec.name!r} must be at least {spec.minimum}.")
        if spec.maximum is not None and number > spec.maximum:
            raise OptionsError(f"Option {spec.name!r} must be at most {spec.maximum}.")
        return number
    if spec.kind == "choice":
        text = normalise(str(value))
        if text not in spec.choices:
            raise OptionsError(
                f"Option {spec.name!r} must be one of: {', '.join(spec.choices)}."
            )
        return text
    if spec.kind == "bool":
        if isinstance(value, bool):
            return value
        text = normalise(str(value))
        if text in ("yes", "true", "on", "1"):
            return True
        if text in ("no", "false", "off", "0"):
            return False
        raise OptionsError(f"Option {spec.name!r} must be yes or no.")
    raise OptionsError(f"Option {spec.name!r} has an unknown kind {spec.kind!r}.")


# --------------------------------------------------------------------------- JSON


def dumps(state: State) -> str:
    """Serialise a state: compact, key-sorted, so equal states give equal text."""
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


def loads(text: str, game: Game | None = None) -> State:
    """Read a state back; a wrong format version or game raises :class:`CorruptStateError`."""
    try:
        state = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise CorruptStateError("This game's saved state cannot be read.") from exc
    if not isinstance(state, dict) or state.get("format") != FORMAT_VERSION:
        raise CorruptStateError("This game was saved in a format this bot cannot read.")
    if game is not None and state.get("game") != game.slug:
        raise CorruptStateError("This saved state belongs to a different game.")
    for key in ("seed", "seats", "move", "rng", "options"):
        if key not in state:
            raise CorruptStateError(f"This game's saved state is missing {key!r}.")
    return state
