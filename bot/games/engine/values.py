"""The values the engine and every game share: a state and a view (plain JSON), the
actions, narration, results and decisions that pass between a game and the bot."""

from __future__ import annotations

import pickle
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.rng import Rng

#: A game's state: plain JSON, the envelope (see :mod:`bot.games.engine`) and the game's
#: own fields. Only the game's rules and the engine read inside it.
State = dict[str, Any]
#: What one seat (or a spectator) sees: plain JSON, with the slug under ``game`` and the
#: engine's ``table``.
View = dict[str, Any]
#: A JSON object inside a state or a view (a seat's holdings, a card's data, a decision's
#: data): the game names its own.
Json = dict[str, Any]


def copied(state: State) -> State:
    """A deep copy of ``state``, as ``copy.deepcopy`` makes it (the same types, the same
    sharing) in a third of the time: pickling copies in C what deepcopy walks in Python,
    and the engine's ``apply`` copies the whole state at every move.

    >>> state = {"seats": [{"name": "Ana"}], "at": (1, 2)}
    >>> again = copied(state)
    >>> again == state and again["seats"][0] is not state["seats"][0] and again["at"] == (1, 2)
    True
    """
    copy: State = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    return copy


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
    """What :meth:`Engine.apply` returns."""

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
    #: see :meth:`Rules.answer_complete`); includes unfinished drafts.
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
    (:meth:`Rules.back_of`) cannot be told apart by anybody who does not know the
    place, so :meth:`Engine.resample` may exchange them. The generator's state and
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
    """Scratch space handed to :meth:`Rules.play`: the generator and the event sink."""

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
