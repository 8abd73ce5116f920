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
    move    int   number of actions applied so far
    rng     int   the generator state (see :mod:`bot.games.rng`)
    rules   int   the game's rules version the state was made with
    decisions list the stack of open decisions, top last (see :class:`Decision`)
    decision_counter int  the last decision id handed out
    aside   dict  {seat: int} standing actions each seat has taken, once one was (see below)
    flow    dict  {"round": int, "phase": str} for games that declare phases

Everything else in the dict belongs to the game.

Decisions. A game's own turn structure says who acts when no decision is open
(:meth:`Game.turn_actors`, :meth:`Game.turn_actions`, :meth:`Game.play`). Inside
a turn a game *asks* a decision (:meth:`Game.ask`): who decides, what kind, the
data to resume with. The decision goes on a stack; while it is open its seats
act, choosing among :meth:`Game.decision_actions`, and when it is answered the
engine pops it and calls :meth:`Game.resolve`, which may ask further decisions
(they nest) or let the one below resume. A *joint* decision is answered by all
its seats in any order; each answer stays secret until the last one is in, and
then the decision resolves once, with the answers by seat, so the order they
arrived in cannot matter.

Standing actions. Some rules let a player act at any time, out of turn too
(Kingdom's Candy Monsters: "convert 4 Sugar Cubes into 1 Candy").
:meth:`Game.standing_actions` lists them. They are not turns: they never change
who acts, the decision stack or the generator; a seat that may act sees them
among its legal actions, any other seat may still take them
(:meth:`Game.standing`), and :meth:`Game.play_standing` carries them out.

Each open decision has an id. A button or command made for a decision carries
its :meth:`Game.token`; it stays valid while that decision is open for that seat,
whatever other seats do meanwhile. A decision that becomes the top again after a
nested one resolved gets a fresh id, because what its seats saw has changed.
"""

from __future__ import annotations

import copy
import hashlib
import json
import pickle
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Protocol

from bot.games.colours import STANDARD_SEATS
from bot.games.rng import Rng

FORMAT_VERSION = 1
#: Envelope keys added after format 1 and their values in states saved before them.
_ENVELOPE_DEFAULTS: dict[str, Any] = {"rules": 1, "decisions": [], "decision_counter": 0}

State = dict[str, Any]
View = dict[str, Any]


# --------------------------------------------------------------------------- errors


def copied(state: State) -> State:
    """A deep copy of ``state``, as ``copy.deepcopy`` makes it (the same types, the same
    sharing) in a third of the time: pickling copies in C what deepcopy walks in Python,
    and :meth:`Game.apply` copies the whole state at every move.

    >>> state = {"seats": [{"name": "Ana"}], "at": (1, 2)}
    >>> again = copied(state)
    >>> again == state and again["seats"][0] is not state["seats"][0] and again["at"] == (1, 2)
    True
    """
    return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))


class GameError(Exception):
    """An error a player can cause; ``str(err)`` is safe to show them.

    It crosses to another process whole (a move worked out in a worker process): pickled
    as its class, message and attributes, whatever its constructor takes."""

    def __reduce__(self) -> tuple[Any, ...]:
        return _error_again, (type(self), self.args, self.__dict__)


def _error_again(kind: type[GameError], args: tuple[Any, ...],
                 attributes: dict[str, Any]) -> GameError:
    """A :class:`GameError` unpickled: built without its constructor, then given its
    message and attributes back."""
    error = kind.__new__(kind)
    Exception.__init__(error, *args)
    error.__dict__.update(attributes)
    return error


class NotationError(GameError):
    """The text is not an action in ``game``'s notation at all: ``typed`` (empty: nothing
    was typed) and the game's ``help``."""

    def __init__(self, game: str, typed: str, help: str) -> None:
        super().__init__(f"not a move of {game}: {typed!r}")
        self.game = game
        self.typed = typed
        self.help = help


class IllegalActionError(GameError):
    """Well-formed notation for an action the rules do not allow right now, or a known
    move with arguments it cannot take (``typed``: what was typed, when it says more than
    the explanation alone)."""

    def __init__(self, message: str, typed: str = "") -> None:
        super().__init__(message)
        self.typed = typed


class AmbiguousActionError(GameError):
    """The text ``typed`` fits more than one legal action: the ``candidates``."""

    def __init__(self, typed: str, candidates: Sequence[str]) -> None:
        super().__init__(f"{typed!r} could mean any of {len(candidates)} moves")
        self.candidates = list(candidates)
        self.typed = typed


class NotYourTurnError(GameError):
    """The seat may not act now: ``waiting`` names the seats the game waits for, and
    ``decided`` says the seat has already given its answer to a joint decision."""

    def __init__(self, message: str, *, waiting: Sequence[str] = (),
                 decided: bool = False) -> None:
        super().__init__(message)
        self.waiting = tuple(waiting)
        self.decided = decided


class StaleActionError(GameError):
    """The action was chosen on an older state (a stale button)."""


class GameOverError(GameError):
    """The game has already ended."""


class OptionsError(GameError):
    """A malformed or out-of-range game option, or a bad seat count."""


class CorruptStateError(GameError):
    """A saved state that cannot be read back."""


class RulesVersionError(GameError):
    """A saved game made under other rules than this bot plays, with no way to carry it over:
    ``made`` is its rules version, ``plays`` this bot's, for the game ``title``."""

    def __init__(self, message: str, *, title: str = "", made: int = 0, plays: int = 0,
                 replaying: bool = False) -> None:
        super().__init__(message)
        self.title, self.made, self.plays = title, made, plays
        #: Only a replay of the game is refused; the game itself plays on.
        self.replaying = replaying


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
    #: What everybody else may learn of it, e.g. "placed a card face down in room 2".
    #: Empty when the notation itself is public.
    public: str = ""

    def __str__(self) -> str:
        return self.notation

    @property
    def hidden(self) -> bool:
        return bool(self.public)


#: The mark of a private line telling a seat that another player's action hit it.
ALERT = "⚠ "

#: The seed of the fixed arrangement :meth:`Game.known_to` puts unknown things in, and the
#: generator state a view is drawn with (never the game's own).
VEIL_SEED = 0x5EC12E7
_VEILED_RNG = Rng.from_seed(VEIL_SEED).state


@dataclass(frozen=True)
class Event:
    """One line of narration. ``reveals`` marks hidden information made public.

    ``to`` addresses the event to some seats only (``None``: everybody). Private
    events never reach a channel message, the stored narration or a replay.
    """

    text: str
    seat: int | None = None
    kind: str = "info"
    reveals: bool = False
    to: tuple[int, ...] | None = None

    @property
    def public(self) -> bool:
        return self.to is None

    def seen_by(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)


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
class CardText:
    """A card as its words say it, for ``/game cards``: its name, what kind of card it is
    ("encounter, $3"), where it lies as the picture shows it ("Ann, room 1"), and its text
    in full (what a picture draws as icons)."""

    name: str
    kind: str
    places: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class Outcome:
    """What :meth:`Game.apply` returns."""

    state: State
    events: list[Event]
    action: Action
    undoable: bool
    #: How the action reads to everybody else (the notation unless it is hidden).
    public: str = ""

    def narration(self, seat: int | None = None) -> list[str]:
        """The event texts ``seat`` may read (``None``: the public ones)."""
        return [e.text for e in self.events if e.seen_by(seat)]


@dataclass(frozen=True)
class Decision:
    """An open decision, as read from the stack (the stack itself is JSON in the state)."""

    id: int
    kind: str
    seats: tuple[int, ...]
    data: dict[str, Any]
    joint: bool
    public: bool
    answered: tuple[int, ...]
    #: Every notation each seat gave, in order (a joint answer may take several steps,
    #: see :meth:`Game.answer_complete`); includes unfinished drafts.
    steps: dict[int, tuple[str, ...]] = field(default_factory=dict)

    @property
    def waiting(self) -> tuple[int, ...]:
        """Seats that still have to answer."""
        return tuple(s for s in self.seats if s not in self.answered)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Decision:
        steps = {int(k): tuple(v) for k, v in raw.get("drafts", {}).items()}
        steps.update({int(k): tuple(v) for k, v in raw["answers"].items()})
        return cls(int(raw["id"]), str(raw["kind"]), tuple(raw["seats"]), raw["data"],
                   bool(raw["joint"]), bool(raw["public"]),
                   tuple(sorted(int(k) for k in raw["answers"])), steps)


@dataclass(frozen=True)
class MultiSelect:
    """A choice of several items at once (e.g. which dice pay), offered as one menu.

    ``options`` are ``(value, label)`` pairs with unique values; ``words``, when
    given, is what each option contributes to the notation (two dice may both
    read ``3``). The chosen options' words, in option order, are put into
    ``template`` (``{}`` stands for them joined by spaces); the text is then
    parsed like typed notation, so a pick that is not a legal action is refused
    with the game's own explanation.
    """

    options: tuple[tuple[str, str], ...]
    template: str
    min_values: int = 1
    max_values: int = 1
    placeholder: str = "Choose…"
    words: tuple[str, ...] = ()

    def notation(self, values: Sequence[str]) -> str:
        order = [v for v, _ in self.options]
        chosen = sorted(values, key=order.index)
        if self.words:
            chosen = [self.words[order.index(v)] for v in chosen]
        return self.template.format(" ".join(chosen))

    def makes(self, notation: str) -> bool:
        """Can some pick of this menu make ``notation``? (What the menu offers need not be
        offered again elsewhere.)"""
        head, _, tail = self.template.partition("{}")
        if not notation.startswith(head) or not notation.endswith(tail) \
                or len(notation) <= len(head) + len(tail):
            return False
        chosen = notation[len(head):len(notation) - len(tail)].split()
        left = list(self.words or (value for value, _ in self.options))
        if not self.min_values <= len(chosen) <= self.max_values:
            return False
        for word in chosen:
            if word not in left:
                return False
            left.remove(word)
        return True


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
    #: How a lobby says a value: a phrase with ``{}`` for it (“{} rounds”), and the
    #: words of values the phrase does not fit (0: “one round per player”).
    said: str = ""
    meanings: tuple[tuple[Any, str], ...] = ()

    def words(self, value: Any) -> str:
        """The value as a lobby says it: “one round per player, as the rulebook says”."""
        for meant, text in self.meanings:
            if meant == value:
                return text
        return self.said.format(value) if self.said else f"{self.name} {value}"


@dataclass(frozen=True)
class Hidden:
    """A place in the state whose content not everybody may know.

    ``path`` leads from the top of the state to a list of items (a hand, a deck)
    or, with ``single``, to one item (a face-down card's id). ``owner`` is the
    one seat that knows it, or ``None`` when nobody does (the order of an
    undrawn deck). Items of the same ``pool`` with the same back
    (:meth:`Game.back_of`) cannot be told apart by anybody who does not know the
    place, so :meth:`Game.resample` may exchange them. The generator's state and
    the unrevealed answers to a joint decision are hidden by the engine itself and
    are never declared.
    """

    path: tuple[str | int, ...]
    owner: int | None
    pool: str
    single: bool = False

    def known_to(self, seat: int | None) -> bool:
        return self.owner is not None and self.owner == seat

    def slots(self, state: State) -> list[tuple[Any, str | int]]:
        """Where each item of this place sits: ``(container, key)`` pairs."""
        holder: Any = state
        for key in self.path[:-1]:
            holder = holder[key]
        last = self.path[-1]
        if self.single:
            return [] if holder[last] is None else [(holder, last)]
        items = holder[last]
        return [(items, i) for i in range(len(items))]


@dataclass
class Turn:
    """Scratch space handed to :meth:`Game.play`: the generator and the event sink."""

    rng: Rng
    events: list[Event] = field(default_factory=list)

    def say(self, text: str, seat: int | None = None, kind: str = "info", *,
            reveals: bool = False, to: Iterable[int] | None = None,
            hits: Iterable[int] = ()) -> None:
        """Narrate; ``to`` makes the line private to those seats. ``hits`` names the seats
        this event hurts (a raid on their hideout, sugar taken from them): each also gets
        the line privately, marked with :data:`ALERT`, so that their next catch-up leads
        with it."""
        self.events.append(Event(text, seat, kind, reveals,
                                 None if to is None else tuple(sorted(set(to)))))
        for victim in sorted(set(hits) - {seat}):
            self.events.append(Event(ALERT + text, seat, "alert", False, (victim,)))

    def reveal(self) -> None:
        """Mark the turn as having revealed hidden information (so it cannot be undone)."""
        self.events.append(Event("", None, "reveal", True, ()))


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
    #: Does the state hold something one seat knows and others do not (see :meth:`hidden`)?
    has_hidden_information: ClassVar[bool] = False
    #: Are the choices of the game's own turn offered to each player privately
    #: (their labels would show a hand)? Open decisions say it themselves (``ask``).
    private_choices: ClassVar[bool] = False
    #: Does the game ask joint decisions (several seats answering in secret)?
    has_joint_decisions: ClassVar[bool] = False
    #: Does play (not only set-up) draw from the generator?
    has_chance: ClassVar[bool] = False
    #: The moves by which the rules let a seat pass its turn of its own accord (a table's
    #: clock that runs out with the rule "skip" plays the first of them that is legal);
    #: empty when the rulebook has no such pass (the clock's AI stand-in applies then).
    skips: ClassVar[tuple[str, ...]] = ()
    #: Does the game read content files from ``data/<package>/``?
    has_content_files: ClassVar[bool] = False
    #: Bumped whenever a change of rules or cards would play an old log differently.
    rules_version: ClassVar[int] = 1
    #: Older rules versions this bot still plays as they were: a game stored under one
    #: goes on under it (the game reads ``state["rules"]`` where the rules differ).
    #: A stored game of any other older version is carried over by :meth:`upgrade`.
    older_rules: ClassVar[tuple[int, ...]] = ()
    #: The phases of a round, in order, for games that have them (see :meth:`next_phase`).
    phases: ClassVar[tuple[str, ...]] = ()
    #: One line per notation form, shown in help and parse errors.
    notation_help: ClassVar[str] = ""
    #: A few sentences on how to play, for ``game rules``.
    rules_summary: ClassVar[str] = ""
    #: Seat colours in seat order, names from :data:`bot.games.colours.PAINTS`: text marks
    #: and pictures both draw a seat in this colour.
    seat_colours: ClassVar[tuple[str, ...]] = STANDARD_SEATS
    #: The share of moves the easy AI plays at random instead of its normal choice.
    ai_easy_slips: ClassVar[float] = 0.5
    #: Words that go with the word after them when a move is chosen step by step
    #: (``at`` in ``at a1``), see :meth:`move_steps`.
    step_joiners: ClassVar[frozenset[str]] = frozenset()

    # ----------------------------------------------------------------- hooks

    @abstractmethod
    def setup(self, state: State, turn: Turn) -> None:
        """Fill in the game's own fields of a freshly enveloped state."""

    @abstractmethod
    def turn_actors(self, state: State) -> frozenset[int]:
        """Seats that may act when no decision is open (ignores whether the game is over)."""

    @abstractmethod
    def turn_actions(self, state: State, seat: int) -> list[Action]:
        """Legal actions of ``seat`` when no decision is open."""

    @abstractmethod
    def play(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        """Mutate ``state`` by a legal turn action (no decision open); narrate through ``turn``."""

    def decision_actions(self, state: State, decision: Decision, seat: int) -> list[Action]:
        """The answers ``seat`` may give to ``decision``. Games that ask decisions override."""
        raise NotImplementedError(f"{self.slug} asked a {decision.kind!r} decision "
                                  "but offers no answers to it")

    def resolve(self, state: State, decision: Decision, answers: dict[int, Action],
                turn: Turn) -> None:
        """Carry on once ``decision`` is answered (it is already off the stack).

        ``answers`` holds each deciding seat's (last) action, keyed by seat; a
        joint answer of several steps is in ``decision.steps``.
        """
        raise NotImplementedError(f"{self.slug} asked a {decision.kind!r} decision "
                                  "but cannot resolve it")

    def answer_complete(self, state: State, decision: Decision, seat: int,
                        steps: Sequence[str]) -> bool:
        """Is ``seat``'s answer to the joint ``decision`` complete after ``steps``?

        Default: one action is a whole answer. A game whose players make several
        secret choices before locking in (one per monster, say) overrides; until
        complete, the seat keeps acting and its drafts stay private.
        """
        return True

    def multi_select(self, state: State, seat: int) -> MultiSelect | None:
        """A several-at-once choice to offer ``seat`` as a menu now, if any."""
        return None

    def standing_actions(self, state: State, seat: int) -> list[Action]:
        """What ``seat`` may do at any time, out of turn too; none by default.

        A standing action is not a turn: :meth:`play_standing` may change only the
        seat's own holdings (and what all can see of them), never who acts, the
        decision stack or the generator.
        """
        return []

    def play_standing(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        """Carry out a standing action (see :meth:`standing_actions`)."""
        raise NotImplementedError(f"{self.slug} offers standing actions but cannot play them")
    def move_steps(self, notation: str) -> tuple[str, ...]:
        """How a move is chosen by clicks, step by step (verb, piece or card, place,
        rotation or option): ``notation`` cut into steps that, joined by spaces, give
        it back.

        Default: one step per word, where a word of :attr:`step_joiners` goes with the
        word after it. The move builder takes as read every step that all moves left
        share, so a card name of several words is one choice. A game overrides where
        its notation needs other steps (several dice chosen at once, say).
        """
        steps: list[str] = []
        pending = ""
        for word in notation.split():
            if word in self.step_joiners:
                pending = f"{pending} {word}".strip()
                continue
            steps.append(f"{pending} {word}".strip())
            pending = ""
        if pending:
            steps.append(pending)
        return tuple(steps)

    def option_suggestions(self, name: str, current: str) -> list[str] | None:
        """Autocomplete values for option ``name`` as typed so far (``current``).

        ``None``: the option's own choices are enough (the default).
        """
        return None

    def zoom_spots(self, state: State) -> list[str]:
        """Places a player may ask to see large (``game board zoom:``); none by default.

        A renderer draws the neighbourhood of ``view["zoom"]`` when it is set.
        """
        return []

    def episode(self, state: State) -> str | None:
        """A key shared by consecutive moves that read as one story (a whole heist).

        The bot edits one message while the key stays the same instead of posting
        a new one per move. ``None``: every move gets its own message.
        """
        return None

    def begin_phase(self, state: State, phase: str, turn: Turn) -> None:
        """Called by :meth:`next_phase` when a phase (of :attr:`phases`) begins."""
        raise NotImplementedError(f"{self.slug} declares phases but does not begin them")

    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` (or a spectator, ``None``) may see. JSON-compatible.

        The one way out of a state for a seat: the game's :meth:`show` draws the view
        from :meth:`known_to`, never from the state itself, so a view cannot show what
        the seat does not know, whatever the game's own code reads.
        """
        known = self.known_to(state, seat)
        return {**self.show(known, seat), "table": self.table(known, seat)}

    def table(self, state: State, seat: int | None) -> dict[str, Any]:
        """The envelope every view carries under ``"table"``, the same for every game, so
        that pictures and messages draw their header from one place::

            viewer    int | None   the seat the view is for (None: a spectator)
            move      int          actions applied so far
            acting    [int]        seats that may act now (empty once it is over)
            decision  {"kind", "seats", "joint", "answered"} | None   the open decision
            result    {"ranking": [[int]], "scores": {seat: int}, "summary"} | None
            scores    [int]        each seat's score so far (:meth:`scores`)
            seats     [{"name", "ai", "colour"}]   colour: a name of colours.PAINTS

        Everything in it is public: who has answered a joint decision, never what; the
        scores are those of the state as the viewer knows it (scores are public).
        """
        top = self.top(state)
        result = self.result(state)
        colours = self.seat_colours
        scores = self.scores(state)
        return {
            "viewer": seat,
            "move": int(state["move"]),
            "acting": sorted(self.to_act(state)),
            "decision": None if top is None or result is not None else {
                "kind": top.kind, "seats": list(top.seats), "joint": top.joint,
                "answered": list(top.answered)},
            "result": None if result is None else result.to_json(),
            "scores": [int(scores.get(i, 0)) for i in range(len(state["seats"]))],
            "seats": [{"name": str(s["name"]), "ai": bool(s["ai"]),
                       "colour": colours[i % len(colours)]}
                      for i, s in enumerate(state["seats"])],
        }

    @abstractmethod
    def show(self, state: State, seat: int | None) -> View:
        """What ``seat`` sees, drawn from ``state`` as :meth:`known_to` gives it."""

    @abstractmethod
    def result(self, state: State) -> Result | None:
        """The final result, or ``None`` while the game goes on."""

    @abstractmethod
    def ai(self, view: View, legal: list[Action], rng: Rng) -> Action:
        """The AI policy: choose from ``legal`` seeing only ``view``."""

    def stand_in_reason(self, before: View, after: View, seat: int,
                        move: str) -> str | None:
        """Why the AI standing in for an absent player made the move ``move`` (its public
        notation) that led from ``before`` to ``after``, in one short sentence everybody
        may read (the player who comes back reads it in the log), or ``None`` when it is
        not cheap to say.

        ``before`` and ``after`` are spectators' views (:meth:`reason_for` passes
        ``view(state, None)``), never states: what a sentence drawn from them says,
        everybody may see. By default, the points the move scored (``table["scores"]``).
        """
        gained = after["table"]["scores"][seat] - before["table"]["scores"][seat]
        if gained <= 0:
            return None
        return f"It chose this move to score {gained} {'point' if gained == 1 else 'points'}."

    def reason_for(self, before: State, outcome: Outcome, seat: int) -> str | None:
        """Why the stand-in for ``seat`` made the move of ``outcome`` (applied to
        ``before``): :meth:`stand_in_reason` told only the spectators' views before and
        after and the move as everybody else reads it, so it cannot give a secret away."""
        return self.stand_in_reason(self.view(before, None), self.view(outcome.state, None),
                                    seat, outcome.public or outcome.action.notation)

    def ai_strong(self, view: View, legal: list[Action], rng: Rng,
                  look: Lookahead) -> Action:
        """The strong AI: by default :meth:`ai`; a game with a search writes its own,
        which may play worlds its seat cannot tell from the real one forward
        (:class:`Lookahead`)."""
        return self.ai(view, legal, rng)

    def expand(self, state: State, seat: int, text: str) -> str:
        """A shorthand ``seat`` may type, written out in full notation (``text`` is
        normalised); by default ``text`` as it is. Sugartopia lets ``place at c4`` mean the
        card in the player's hand: the engine's :meth:`parse` reads every typed move
        through this hook, so the shorthand needs no parser of its own."""
        return text

    @abstractmethod
    def canonical(self, text: str) -> str | None:
        """Rewrite normalised text into canonical notation, or ``None`` if it is not notation.

        The result may be a legal action's notation or a prefix of several
        (for example ``swap c3``); anything well-formed but illegal is explained
        by :meth:`explain`.
        """

    def explain(self, state: State, seat: int, notation: str) -> str:
        """Why ``notation`` is not legal now. It is well-formed, or it begins with a move the
        game knows (a verb :meth:`canonical` gives back as it is) and goes on with words
        the notation cannot read (“pay 9”): say what the player may give instead. Games
        override for detail."""
        return f"“{notation}” is not a legal move right now."

    def summary(self, state: State) -> str:
        """One line on where the game stands (for status messages)."""
        return f"Move {state['move']}."

    def card_texts(self, view: View) -> list[CardText]:
        """Every card ``view`` shows, in full words, in the order its picture shows them:
        what the picture draws as icons, said where Discord shows text crisply (``/game
        cards``). Read from the view alone, so it says nothing the view's seat may not
        know. None by default."""
        return []

    def scores(self, state: State) -> dict[int, int]:
        """Current score (or progress) per seat, for status messages."""
        return {i: 0 for i in range(len(state["seats"]))}

    def hidden(self, state: State) -> list[Hidden]:
        """Every place of ``state`` that not everybody knows: who knows it, and what
        it could be exchanged with. Games without hidden information return []."""
        return []

    def back_of(self, pool: str, item: Any) -> Any:
        """What anybody can tell of a hidden ``item`` of ``pool`` without knowing it
        (a card's back: its level, its cost). Items with equal backs are
        interchangeable to those who do not know them. Default: nothing."""
        return None

    def secrets(self, state: State, seat: int) -> list[str]:
        """Strings only ``seat`` may see: by default the items of its :meth:`hidden` places.

        The invariant suite checks that no other seat's view and no spectator
        view contains any of them.
        """
        return [str(holder[key]) for place in self.hidden(state) if place.owner == seat
                for holder, key in place.slots(state)]

    def known_to(self, state: State, viewer: int | None) -> State:
        """``state`` as ``viewer`` may know it: everything it cannot know put in one fixed
        arrangement that depends only on what it knows.

        The items of the :meth:`hidden` places the viewer does not know are sorted and
        dealt back by a generator with a fixed seed (each only where an item with the
        same back was), other seats' unrevealed joint answers are drawn by that
        generator, and the game's own generator is replaced. Two states the viewer
        cannot tell apart give the same result, so nothing drawn from it can tell them
        apart either.
        """
        places = [p for p in self.hidden(state) if not p.known_to(viewer)]
        top = self.top(state)
        answers = top is not None and top.joint and any(s != viewer for s in top.steps)
        if not places and not answers:
            return {**state, "rng": _VEILED_RNG} if "rng" in state else state
        # A state is JSON: a round trip copies it faster than deepcopy.
        return self._redeal(json.loads(json.dumps(state)), viewer, places,
                            Rng.from_seed(VEIL_SEED), canonical=True)

    def resample(self, state: State, viewer: int | None, rng: Rng) -> State:
        """Another state that ``viewer`` cannot tell from ``state`` (a determinisation).

        Everything ``viewer`` does not know is drawn again: the items of the
        :meth:`hidden` places it does not know are dealt afresh among those places
        (each item only where one with the same back was), other seats' answers to
        an open joint decision are redrawn from their legal answers, and the
        generator is reseeded. A searching AI samples worlds with it; the invariant
        suite checks that the viewer's view, choices and narration do not change.
        """
        new = copied(state)
        places = [p for p in self.hidden(new) if not p.known_to(viewer)]
        return self._redeal(new, viewer, places, rng)

    def _redeal(self, new: State, viewer: int | None, places: list[Hidden], rng: Rng, *,
                canonical: bool = False) -> State:
        """Deal the items of ``places`` afresh among them (in ``new``, a copy), redraw
        others' unrevealed joint answers and replace the generator. ``canonical`` sorts
        the items first, so the deal depends only on which items there are."""
        new["rng"] = _VEILED_RNG if canonical else Rng.from_seed(rng.next64()).state
        groups: dict[tuple[str, str], list[tuple[Any, str | int]]] = {}
        for place in places:
            for holder, key in place.slots(new):
                back = _back_text(self, place.pool, holder[key])
                groups.setdefault((place.pool, back), []).append((holder, key))
        for slots in groups.values():
            items = [holder[key] for holder, key in slots]
            if canonical:
                items.sort(key=_json_text)
            rng.shuffle(items)
            for (holder, key), item in zip(slots, items, strict=True):
                holder[key] = item
        self._redraw_answers(new, viewer, rng)
        return new

    def _redraw_answers(self, state: State, viewer: int | None, rng: Rng,
                        attempts: int = 8) -> None:
        # Only the top decision can hold answers: a decision asked on top of a joint
        # one is asked while it resolves, when its answers are gone.
        top = self.top(state)
        if top is None or not top.joint:
            return
        stack = state["decisions"]
        for seat, steps in sorted(top.steps.items()):
            if seat == viewer:
                continue
            done, kept = seat in top.answered, stack[-1]
            for _ in range(attempts):
                stack[-1] = trial = copy.deepcopy(kept)
                trial["answers"].pop(str(seat), None)
                trial.get("drafts", {}).pop(str(seat), None)
                for _ in steps:
                    legal = self.decision_actions(state, Decision.from_json(trial), seat)
                    if not legal or str(seat) in trial["answers"]:
                        break
                    self._take_step(state, trial, seat, rng.choice(legal).notation)
                redrawn = Decision.from_json(trial)
                if (len(redrawn.steps.get(seat, ())) == len(steps)
                        and (seat in redrawn.answered) == done):
                    break
            else:
                stack[-1] = kept

    def _take_step(self, state: State, raw: dict[str, Any], seat: int, notation: str) -> None:
        """Record ``seat``'s next step in the open decision ``raw`` (an answer or a draft)."""
        decision = Decision.from_json(raw)
        drafts = raw.setdefault("drafts", {})
        steps = [*drafts.pop(str(seat), []), notation]
        if not decision.joint or self.answer_complete(state, decision, seat, steps):
            raw["answers"][str(seat)] = steps
        else:
            drafts[str(seat)] = steps
        if not drafts:
            raw.pop("drafts")

    def quick_choices(self, state: State, seat: int) -> list[Action]:
        """Actions worth offering as buttons or a select menu (a *common choice*).

        By default the answers to an open decision when there are at most 25 of
        them, and nothing for the open-ended turn actions (best typed or
        autocompleted). Every quick choice is a legal action.
        """
        if self.top(state) is None:
            return []
        actions = self.legal_actions(state, seat)
        return actions if len(actions) <= 25 else []

    def choices_are_public(self, state: State) -> bool:
        """May the quick choices be offered as buttons in the channel?

        A property of the open decision (:meth:`ask` ``public=``); with no decision
        open, public unless the game declares :attr:`private_choices`.
        """
        top = self.top(state)
        if top is None:
            return not self.private_choices
        return top.public and not top.joint

    def rank_actions(self, state: State, seat: int, actions: list[Action]) -> list[Action]:
        """Order actions the likeliest first, for autocomplete: the moves a player makes
        most often, simple and cheap ones (``pass``, the cheapest payment) before dear
        ones. Default: as given. The suggestions put :meth:`dominated` ones last."""
        return actions

    def dominated(self, state: State, seat: int, actions: Sequence[Action]) -> frozenset[str]:
        """The notations among ``actions`` (``seat``'s legal ones) that another of them
        does as well for less, by the rules' own measure (paying with more dice than the
        challenge needs), or exactly as well (a card turned to lie as a smaller turn lays
        it): not offered unless the player asks for more ways, and suggested
        last. They stay legal (``/play`` takes them). Never all of ``actions``; none by
        default."""
        return frozenset()

    def plays_rules(self, version: int) -> bool:
        """Does this bot play games of rules ``version`` (the current or a kept older one)?"""
        return version == self.rules_version or version in self.older_rules

    def upgrade(self, state: State) -> State:
        """Carry a state saved under an older :attr:`rules_version` over, or raise.

        The default refuses: a game started under other rules cannot go on.
        """
        raise RulesVersionError(
            f"This {self.title} game was started under rules version {state.get('rules')}, "
            f"and this bot plays version {self.rules_version}; it cannot be carried over.",
            title=self.title, made=int(state.get("rules", 1)), plays=self.rules_version)

    # ----------------------------------------------------------------- decisions

    def ask(self, state: State, kind: str, seats: Iterable[int],
            data: dict[str, Any] | None = None, *, joint: bool = False,
            public: bool = True) -> Decision:
        """Open a decision on top of the stack.

        ``seats`` decide; with ``joint`` every one of them answers (in secret,
        in any order) and the decision resolves once all have. ``public`` says
        whether its answers may be offered as buttons in the channel. ``data``
        is whatever :meth:`resume` needs (JSON).
        """
        deciders = sorted(set(seats))
        if not deciders:
            raise ValueError(f"a {kind!r} decision needs at least one seat")
        if not joint and len(deciders) > 1:
            raise ValueError("a decision of several seats must be joint")
        state["decision_counter"] = state.get("decision_counter", 0) + 1
        raw = {"id": state["decision_counter"], "kind": kind, "seats": deciders,
               "data": dict(data or {}), "joint": joint, "public": public, "answers": {}}
        state.setdefault("decisions", []).append(raw)
        return Decision.from_json(raw)

    def top(self, state: State) -> Decision | None:
        """The decision being made now, or ``None``."""
        stack = state.get("decisions") or []
        return Decision.from_json(stack[-1]) if stack else None

    def open_decisions(self, state: State) -> list[Decision]:
        """Every open decision, bottom first."""
        return [Decision.from_json(raw) for raw in state.get("decisions") or []]

    def answer_of(self, state: State, seat: int) -> list[str]:
        """``seat``'s answer (or draft) to the open decision so far: its own eyes only."""
        top = self.top(state)
        return list(top.steps.get(seat, ())) if top is not None else []

    def decision_view(self, state: State, seat: int | None) -> dict[str, Any] | None:
        """The top decision as ``seat`` may see it, for views: never another seat's answer."""
        top = self.top(state)
        if top is None:
            return None
        out: dict[str, Any] = {"id": top.id, "kind": top.kind, "seats": list(top.seats),
                               "joint": top.joint, "waiting": list(top.waiting),
                               "answered": list(top.answered)}
        if seat is not None and seat in top.steps:
            out["mine"] = self.answer_of(state, seat)
        return out

    def token(self, state: State, seat: int) -> str:
        """What a button for ``seat`` carries to prove it was made for the situation now.

        The open decision's id while one is open, else the move number. Inside a
        joint decision it also counts the secret steps ``seat`` has taken, so a
        button for one step cannot be used again for the next (a double click),
        while other seats' answers leave it valid.
        """
        top = self.top(state)
        aside = state.get("aside") or {}
        # Standing actions leave other seats' buttons valid; one's own expire (a double click).
        own = aside.get(str(seat), 0)
        mine = f"_{own}" if own else ""
        if top is None:
            return f"m{state['move'] - sum(aside.values())}{mine}"
        if top.joint:
            return f"d{top.id}.{len(top.steps.get(seat, ()))}{mine}"
        return f"d{top.id}{mine}"

    # ----------------------------------------------------------------- phases

    def start_phases(self, state: State, turn: Turn) -> None:
        """Begin round 1 with the first of :attr:`phases`."""
        state["flow"] = {"round": 1, "phase": self.phases[0]}
        self.begin_phase(state, self.phases[0], turn)

    def next_phase(self, state: State, turn: Turn) -> None:
        """Move on to the next phase; after the last, the next round's first phase."""
        flow = state["flow"]
        index = self.phases.index(flow["phase"]) + 1
        if index == len(self.phases):
            flow["round"] += 1
            index = 0
        flow["phase"] = self.phases[index]
        self.begin_phase(state, flow["phase"], turn)

    @staticmethod
    def round_of(state: State) -> int:
        return int(state["flow"]["round"])

    @staticmethod
    def phase_of(state: State) -> str:
        return str(state["flow"]["phase"])

    # ----------------------------------------------------------------- who acts, what is legal

    def _actors(self, state: State) -> frozenset[int]:
        """Seats that may act now: the top decision's waiting seats, else the turn's."""
        top = self.top(state)
        if top is not None:
            return frozenset(top.waiting)
        return self.turn_actors(state)

    def _legal(self, state: State, seat: int) -> list[Action]:
        """Every legal action for ``seat`` (empty if it may not act)."""
        if seat not in self._actors(state):
            return []
        top = self.top(state)
        actions = (self.decision_actions(state, top, seat) if top is not None
                   else self.turn_actions(state, seat))
        known = {a.notation for a in actions}
        return actions + [a for a in self.standing(state, seat) if a.notation not in known]

    def standing(self, state: State, seat: int) -> list[Action]:
        """``seat``'s standing actions now, whether or not it may act (none once over)."""
        if not 0 <= seat < len(state["seats"]) or self.result(state) is not None:
            return []
        return self.standing_actions(state, seat)

    def _standing_match(self, state: State, seat: int, notation: str) -> Action | None:
        return next((a for a in self.standing(state, seat) if a.notation == notation), None)

    # ----------------------------------------------------------------- provided

    def new(self, seats: Sequence[SeatInfo], seed: int,
            options: dict[str, Any] | None = None, rules: int | None = None) -> State:
        """A new game for ``seats`` (in turn order) from ``seed`` and ``options``.

        ``rules`` rebuilds a game of a kept older rules version (:attr:`older_rules`);
        new games are always made under the current one.
        """
        return self.begin(seats, seed, options, rules)[0]

    def begin(self, seats: Sequence[SeatInfo], seed: int, options: dict[str, Any] | None = None,
              rules: int | None = None) -> tuple[State, list[Event]]:
        """:meth:`new`, with what :meth:`setup` narrated (the bot posts the public lines)."""
        rules = self.rules_version if rules is None else int(rules)
        if not self.plays_rules(rules):
            raise RulesVersionError(f"This bot does not play {self.title} rules version {rules}.")
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
            "rules": rules,
            "decisions": [],
            "decision_counter": 0,
        }
        turn = Turn(Rng(state["rng"]))
        self.setup(state, turn)
        state["rng"] = turn.rng.state
        return state, turn.events

    def validate_options(self, raw: dict[str, Any]) -> dict[str, Any]:
        """Check options against :attr:`options`; fill defaults. Raises :class:`OptionsError`."""
        specs = {o.name: o for o in self.options}
        unknown = sorted(set(raw) - set(specs))
        if unknown:
            known = ", ".join(specs) or "none"
            raise OptionsError(f"Unknown option {unknown[0]!r} for {self.title} (known: {known}).")
        out: dict[str, Any] = {}
        for spec in self.options:
            value = self.option_value(spec, raw.get(spec.name, spec.default))
            if value is not None:
                out[spec.name] = value
        return out

    def option_value(self, spec: OptionSpec, value: Any) -> Any:
        """``value`` of option ``spec`` as the game keeps it, or :class:`OptionsError`;
        ``None`` leaves the option out of the game's options. By default the spec's own
        kind checks it (a whole number in range, one of the choices, yes or no)."""
        return _check_option(spec, value)

    def seat_name(self, state: State, seat: int) -> str:
        return str(state["seats"][seat]["name"])

    def to_act(self, state: State) -> frozenset[int]:
        """Seats that may act now; empty once the game is over."""
        if self.result(state) is not None:
            return frozenset()
        return self._actors(state)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Legal actions of ``seat``; empty when it may not act."""
        if seat not in self.to_act(state):
            return []
        return self._legal(state, seat)

    def parse(self, state: State, seat: int, text: str, *, exact: bool = False) -> Action:
        """Turn typed text into a legal action, or raise a clear :class:`GameError`.

        Three different errors: text that is not notation (:class:`NotationError`),
        a well-formed action that is not legal (:class:`IllegalActionError`), and
        an abbreviation that fits several legal actions (:class:`AmbiguousActionError`).
        A unique abbreviation is accepted: it names exactly one action, unless
        ``exact`` (a menu pick means exactly what was picked).
        """
        norm = normalise(text)
        if not norm:
            raise NotationError(self.title, "", self.notation_help)
        norm = normalise(self.expand(state, seat, norm))
        canon = self.canonical(norm)
        if canon is None:
            verb = norm.split(" ", 1)[0]
            if verb != norm and self.canonical(verb) == verb:
                # A move the game knows with arguments it cannot take (“pay 9”): why.
                self._check_can_act(state, seat)
                raise IllegalActionError(self.explain(state, seat, norm), typed=text.strip())
            raise NotationError(self.title, text.strip(), self.notation_help)
        standing = self._standing_match(state, seat, canon)
        if standing is not None:
            return standing
        self._check_can_act(state, seat)
        legal = self._legal(state, seat)
        for action in legal:
            if action.notation == canon:
                return action
        if exact:
            raise IllegalActionError(self.explain(state, seat, canon))
        prefixed = [a for a in legal if a.notation.startswith(canon + " ")]
        if len(prefixed) == 1:
            return prefixed[0]
        if prefixed:
            raise AmbiguousActionError(canon, [a.notation for a in prefixed])
        raise IllegalActionError(self.explain(state, seat, canon))

    def check_token(self, state: State, seat: int, expected: str | int | None) -> None:
        """Raise :class:`StaleActionError` unless ``expected`` is ``seat``'s token now.

        An ``int`` is an old-style move number and must equal the move counter.
        """
        if expected is None:
            return
        if isinstance(expected, int):
            if expected != state["move"]:
                raise StaleActionError("That choice has expired: the game has moved on since.")
            return
        if expected != self.token(state, seat):
            raise StaleActionError("That choice has expired: the game has moved on since.")

    def apply(self, state: State, seat: int, action: Action | str,
              expected: str | int | None = None) -> Outcome:
        """Apply ``action`` for ``seat``; the input state is never modified.

        ``expected`` is the :meth:`token` (or move number) the client saw; if the
        decision it was made for is no longer open for ``seat``,
        :class:`StaleActionError` is raised.
        """
        notation = action if isinstance(action, str) else action.notation
        if isinstance(action, str):
            notation = self.canonical(normalise(action)) or "" if normalise(action) else ""
        if self._standing_match(state, seat, notation) is None:
            self._check_can_act(state, seat)
        self.check_token(state, seat, expected)
        if isinstance(action, str):
            chosen = self.parse(state, seat, action)
        else:
            found = next((a for a in self._legal(state, seat) if a.notation == action.notation),
                         None) or self._standing_match(state, seat, action.notation)
            if found is None:
                raise IllegalActionError(self.explain(state, seat, action.notation))
            chosen = found
        new = copied(state)
        turn = Turn(Rng(new["rng"]))
        top = self.top(new)
        public = chosen.public or chosen.notation
        if self._standing_match(state, seat, chosen.notation) is not None:
            self.play_standing(new, seat, chosen, turn)
            aside = new.setdefault("aside", {})
            aside[str(seat)] = aside.get(str(seat), 0) + 1
        elif top is None:
            self.play(new, seat, chosen, turn)
        else:
            raw = new["decisions"][-1]
            self._take_step(new, raw, seat, chosen.notation)
            decided = Decision.from_json(raw)
            if top.joint and not chosen.public:
                public = "is deciding" if seat not in decided.answered else "has decided"
            if not decided.waiting:
                new["decisions"].pop()
                answers = {int(s): self._answer(new, decided, int(s), n[-1])
                           for s, n in sorted(raw["answers"].items(), key=lambda kv: int(kv[0]))}
                depth = len(new["decisions"])
                self.resolve(new, decided, answers, turn)
                self._restamp(new, depth)
                if top.joint:
                    turn.reveal()
            elif top.joint and seat in decided.answered:
                turn.say(f"{self.seat_name(new, seat)} has decided.", seat, "decided")
        new["rng"] = turn.rng.state
        new["move"] = state["move"] + 1
        undoable = new["rng"] == state["rng"] and not any(e.reveals for e in turn.events)
        return Outcome(new, turn.events, chosen, undoable, public)

    def _answer(self, state: State, decision: Decision, seat: int, notation: str) -> Action:
        # A joint answer is checked when given; it is looked up again at resolution
        # only for its label and public form.
        for action in self.decision_actions(state, decision, seat):
            if action.notation == notation:
                return action
        return Action(notation)

    def _restamp(self, state: State, depth: int) -> None:
        # The decision under the one that just resolved is open again, but what its
        # seats saw when it was offered may have changed: old buttons must expire.
        stack = state.get("decisions") or []
        if stack and len(stack) == depth:
            state["decision_counter"] += 1
            stack[-1]["id"] = state["decision_counter"]

    def ai_action(self, state: State, seat: int, level: str = "normal") -> Action:
        """The AI's choice for ``seat`` at ``level`` (one of :data:`AI_LEVELS`).

        Every level sees only what the seat may know: its view, its legal actions and,
        for ``strong``, worlds made from :meth:`known_to` (:class:`Lookahead`). ``easy``
        is ``normal`` that plays a random legal move a share :attr:`ai_easy_slips` of
        the time.
        """
        if level not in AI_LEVELS:
            raise ValueError(f"unknown AI level {level!r}")
        legal = self.legal_actions(state, seat)
        if not legal:
            raise NotYourTurnError(f"{self.seat_name(state, seat)} has nothing to do now.")
        # The AI draws from its own generator so that its choices never shift the
        # game's randomness: replaying the log alone reproduces the game.
        digest = hashlib.sha256(f"{state['seed']}:{state['move']}:{seat}".encode()).digest()
        rng = Rng.from_seed(int.from_bytes(digest[:8], "big"))
        if level == "easy" and rng.random() < self.ai_easy_slips:
            return rng.choice(legal)
        view = self.view(state, seat)
        if level == "strong":
            return self.ai_strong(view, legal, rng, Lookahead(self, seat,
                                                              self.known_to(state, seat)))
        return self.ai(view, legal, rng)

    def replay(self, seats: Sequence[SeatInfo], seed: int, options: dict[str, Any] | None,
               log: Iterable[tuple[int, str]], rules: int | None = None) -> State:
        """Rebuild a game from its seed and its ``(seat, notation)`` log (under ``rules``)."""
        state = self.new(seats, seed, options, rules)
        for seat, notation in log:
            state = self.apply(state, seat, notation).state
        return state

    def check_replayable(self, state: State) -> None:
        """Raise :class:`RulesVersionError` if ``state`` was made under other rules.

        Its log would not replay to the same game under this bot's rules.
        """
        made = state.get("rules", 1)
        if not self.plays_rules(made):
            raise RulesVersionError(
                f"This game was played under {self.title} rules version {made}; this bot plays "
                f"version {self.rules_version}, so its moves cannot be replayed here.",
                title=self.title, made=int(made), plays=self.rules_version, replaying=True)

    def _check_can_act(self, state: State, seat: int) -> None:
        if self.result(state) is not None:
            raise GameOverError("This game is over.")
        actors = self._actors(state)
        if seat not in actors:
            top = self.top(state)
            if top is not None and seat in top.answered:
                raise NotYourTurnError("You have already decided; waiting for "
                                       f"{self._names(state, actors)}.",
                                       waiting=self._seat_names(state, actors), decided=True)
            raise NotYourTurnError(f"It is not your turn: waiting for "
                                   f"{self._names(state, actors)}.",
                                   waiting=self._seat_names(state, actors))

    def _seat_names(self, state: State, seats: Iterable[int]) -> tuple[str, ...]:
        return tuple(self.seat_name(state, s) for s in sorted(seats))

    def _names(self, state: State, seats: Iterable[int]) -> str:
        return " and ".join(self.seat_name(state, s) for s in sorted(seats)) or "nobody"


# --------------------------------------------------------------------------- hooks and services


class Hooks(Protocol):
    """What a game writes: each hook the engine calls, and only these (docs/engine.md
    explains each). :class:`Game` gives every optional hook a default; the required ones
    are its abstract methods. A game never writes a service (:data:`SERVICES`)."""

    # Required.
    def setup(self, state: State, turn: Turn) -> None:
        """Fill in the game's own fields of a new state; deal with ``turn.rng``."""
    def turn_actors(self, state: State) -> frozenset[int]:
        """The seats that act when no decision is open."""
    def turn_actions(self, state: State, seat: int) -> list[Action]:
        """``seat``'s legal actions when no decision is open."""
    def play(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        """Carry out a turn action on ``state``; narrate with ``turn.say``."""
    def show(self, state: State, seat: int | None) -> View:
        """What ``seat`` sees, from the state as it may know it (spectators: ``None``)."""
    def result(self, state: State) -> Result | None:
        """The final ranking, or ``None`` while the game goes on."""
    def ai(self, view: View, legal: list[Action], rng: Rng) -> Action:
        """The normal AI: a choice from ``legal`` seeing only ``view``."""
    def canonical(self, text: str) -> str | None:
        """Normalised text as canonical notation (or a prefix of some), else ``None``."""
    # Decisions, phases and standing actions, for games that have them.
    def decision_actions(self, state: State, decision: Decision, seat: int) -> list[Action]:
        """``seat``'s answers to an open ``decision``."""
    def resolve(self, state: State, decision: Decision, answers: dict[int, Action],
                turn: Turn) -> None:
        """Carry on once ``decision`` is answered."""
    def answer_complete(self, state: State, decision: Decision, seat: int,
                        steps: Sequence[str]) -> bool:
        """Whether a joint answer is whole after ``steps`` (default: one step)."""
    def begin_phase(self, state: State, phase: str, turn: Turn) -> None:
        """Begin a phase of :attr:`Game.phases`."""
    def standing_actions(self, state: State, seat: int) -> list[Action]:
        """What ``seat`` may do at any time, out of turn too (default: nothing)."""
    def play_standing(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        """Carry out a standing action."""
    # Who may know what.
    def hidden(self, state: State) -> list[Hidden]:
        """Every place only one seat, or nobody, knows (default: none)."""
    def back_of(self, pool: str, item: Any) -> Any:
        """What anybody can tell of a hidden item (default: nothing)."""
    def secrets(self, state: State, seat: int) -> list[str]:
        """Strings only ``seat`` may see (default: its hidden items)."""
    # Words of the game's own rules, and figures.
    def expand(self, state: State, seat: int, text: str) -> str:
        """A typed shorthand written out in full notation (default: as typed)."""
    def explain(self, state: State, seat: int, notation: str) -> str:
        """Why well-formed ``notation`` is not legal now."""
    def summary(self, state: State) -> str:
        """One line on where the game stands."""
    def card_texts(self, view: View) -> list[CardText]:
        """Every card a view shows, in full words (default: none)."""
    def scores(self, state: State) -> dict[int, int]:
        """Each seat's score so far."""
    # How choices are offered.
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
    def option_value(self, spec: OptionSpec, value: Any) -> Any:
        """A lobby option's value as the game keeps it (default: checked by its kind)."""
    def zoom_spots(self, state: State) -> list[str]:
        """Places a player may ask to see large (default: none)."""
    def episode(self, state: State) -> str | None:
        """A key shared by moves that read as one story (default: none)."""
    # AI and rules versions.
    def ai_strong(self, view: View, legal: list[Action], rng: Rng,
                  look: Lookahead) -> Action:
        """The strong AI, which may search worlds the seat cannot tell apart."""
    def stand_in_reason(self, before: View, after: View, seat: int,
                        move: str) -> str | None:
        """Why the stand-in AI chose its move, in one public sentence, from spectators'
        views only (default: points)."""
    def upgrade(self, state: State) -> State:
        """Carry a state of an older rules version over (default: refuse)."""


#: Every hook a game may write (:class:`Hooks`).
HOOKS: tuple[str, ...] = tuple(name for name in Hooks.__dict__
                               if not name.startswith("_") and callable(Hooks.__dict__[name]))

#: The engine's services: what the bot, the renderers, the AI and the tests call. A game
#: writes hooks, never these; :func:`check_contract` refuses a game that overrides one,
#: naming it and the hook to write instead.
SERVICES: dict[str, str] = {
    "new": "setup", "begin": "setup", "validate_options": "options",
    "view": "show", "table": "show", "known_to": "hidden", "resample": "hidden",
    "to_act": "turn_actors", "legal_actions": "turn_actions or decision_actions",
    "standing": "standing_actions", "parse": "expand (for a shorthand) or canonical",
    "check_token": "", "apply": "play or resolve", "ai_action": "ai or ai_strong",
    "replay": "", "check_replayable": "upgrade", "plays_rules": "older_rules",
    "ask": "", "top": "", "open_decisions": "", "answer_of": "", "decision_view": "",
    "token": "", "start_phases": "begin_phase", "next_phase": "begin_phase",
    "round_of": "", "phase_of": "", "seat_name": "", "reason_for": "stand_in_reason",
}


# --------------------------------------------------------------------------- hidden items


def _json_text(item: Any) -> str:
    """``json.dumps(item, sort_keys=True)``, kept for the card ids and numbers that hidden
    items mostly are (every view of a game with decks sorts them all)."""
    if type(item) is str or type(item) is int:
        return _scalar_text(item)
    return json.dumps(item, sort_keys=True)


@lru_cache(maxsize=65536, typed=True)
def _scalar_text(item: str | int) -> str:
    return json.dumps(item)


def _back_text(game: Game, pool: str, item: Any) -> str:
    """The JSON text of :meth:`Game.back_of` (a function of the pool and the item alone),
    kept for items that are card ids or numbers."""
    if type(item) is str or type(item) is int:
        return _kept_back(game, pool, item)
    return json.dumps(game.back_of(pool, item), sort_keys=True)


@lru_cache(maxsize=65536, typed=True)
def _kept_back(game: Game, pool: str, item: str | int) -> str:
    return json.dumps(game.back_of(pool, item), sort_keys=True)


# --------------------------------------------------------------------------- AI levels


#: The levels an AI seat can play at, weakest first.
AI_LEVELS: tuple[str, ...] = ("easy", "normal", "strong")


@dataclass(frozen=True)
class Lookahead:
    """What a searching AI may use besides its view: the state as its seat may know it
    (:meth:`Game.known_to`), worlds it cannot tell from the real one, and the rules to
    play them forward. Nothing here holds what the seat does not know."""

    game: Game
    seat: int
    known: State

    def world(self, rng: Rng) -> State:
        """A state the seat cannot tell from the real one (hidden items dealt afresh)."""
        return self.game.resample(self.known, self.seat, rng)


# --------------------------------------------------------------------------- playing on


#: Chooses ``seat``'s move in ``state`` (a player who is not the game's AI, in a tool).
Chooser = Callable[[State, int], Action]


def playing(game: Game, state: State, choose: Chooser | None = None, *,
            max_moves: int = 20_000) -> Iterator[tuple[int, Outcome]]:
    """Play ``state`` on to the end, the lowest seat that may act moving first, each
    move chosen by ``choose`` (by default the seat's AI); yields every move as ``(seat,
    outcome)``. The one loop every all-AI game goes through (the demo, the arena, the
    bench, balance studies, tests).

    >>> from bot.games import get_game
    >>> game = get_game("sugar-blast")
    >>> state = game.new([SeatInfo("A", ai=True), SeatInfo("B", ai=True)], seed=3)
    >>> moves = list(playing(game, state))
    >>> game.result(moves[-1][1].state) is not None
    True
    """
    for _ in range(max_moves):
        acting = game.to_act(state)
        if not acting:
            return
        seat = min(acting)
        action = game.ai_action(state, seat) if choose is None else choose(state, seat)
        outcome = game.apply(state, seat, action)
        yield seat, outcome
        state = outcome.state
    raise RuntimeError(f"{game.title} did not end within {max_moves} moves")


def play_out(game: Game, state: State, choose: Chooser | None = None, *,
             max_moves: int = 20_000) -> State:
    """The state at the end of :func:`playing`."""
    for _seat, outcome in playing(game, state, choose, max_moves=max_moves):
        state = outcome.state
    return state


# --------------------------------------------------------------------------- the contract, declared


@dataclass(frozen=True)
class Requirement:
    """One attribute every registered game declares in its own class."""

    name: str
    kind: type | tuple[type, ...]
    meaning: str


#: What a game must declare itself; :func:`check_contract` holds every registered game to it.
#: The methods a game must write are :class:`Game`'s abstract methods (:data:`REQUIRED_METHODS`).
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
REQUIRED_METHODS: tuple[str, ...] = tuple(sorted(Game.__abstractmethods__))
_SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class ContractError(TypeError):
    """A game that does not declare what the engine contract requires."""


def check_contract(game: Game) -> None:
    """Raise :class:`ContractError` naming everything ``game`` fails to declare."""
    own = [k for k in type(game).__mro__ if k is not Game and issubclass(k, Game)]
    problems = []
    for need in CONTRACT:
        if not any(need.name in vars(k) for k in own):
            problems.append(f"{need.name} is missing ({need.meaning})")
        elif not isinstance(getattr(game, need.name), need.kind) or (
                need.kind is int and isinstance(getattr(game, need.name), bool)):
            kind = getattr(need.kind, "__name__", need.kind)
            problems.append(f"{need.name} must be of type {kind} ({need.meaning})")
    if not problems:
        if not _SLUG.match(game.slug):
            problems.append(f"slug {game.slug!r} must be lower-case words joined by hyphens")
        if not 1 <= game.min_seats <= game.max_seats:
            problems.append("min_seats must be at least 1 and at most max_seats")
        for name, hook in SERVICES.items():
            if getattr(type(game), name) is not getattr(Game, name):
                instead = f": write {hook} instead" if hook else ""
                problems.append(f"{name} is the engine's own service and may not be "
                                f"overridden{instead}")
        if game.private_choices and not game.has_hidden_information:
            problems.append("private_choices needs has_hidden_information: with nothing "
                            "hidden, nothing makes a choice private")
    if problems:
        raise ContractError(f"{type(game).__name__} does not keep the engine contract: "
                            + "; ".join(problems) + ".")


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
    for key, default in _ENVELOPE_DEFAULTS.items():
        state.setdefault(key, copy.deepcopy(default))
    if game is not None and not game.plays_rules(state["rules"]):
        if state["rules"] > game.rules_version:
            raise RulesVersionError(
                f"This {game.title} game was saved by a newer candybot (rules version "
                f"{state['rules']}); this one plays version {game.rules_version}.",
                title=game.title, made=int(state["rules"]), plays=game.rules_version)
        state = game.upgrade(state)
    return state
