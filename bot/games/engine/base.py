"""The base class of a game's rules: the declarations' defaults, every optional hook's
default, and the required hooks as abstract methods. A game subclasses it and so keeps
:class:`~bot.games.engine.contract.Rules`; it writes hooks only, never a service."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from bot.games.colours import STANDARD_SEATS
from bot.games.engine import values
from bot.games.engine.acting import legal_actions
from bot.games.engine.contract import Lookahead
from bot.games.engine.decisions import top
from bot.games.engine.hidden import secrets_of
from bot.games.engine.notation import check_option, steps_of
from bot.games.engine.versions import refuse_upgrade
from bot.games.rng import Rng


class BaseRules(ABC):
    """A game's rules: subclasses declare the contract's attributes and write the hooks."""

    slug: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options: ClassVar[tuple[values.OptionSpec, ...]] = ()
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
    #: The phases of a round, in order, for games that have them (see
    #: :func:`~bot.games.engine.decisions.next_phase`).
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

    # ----------------------------------------------------------------- required hooks

    @abstractmethod
    def _setup(self, state: values.State, turn: values.Turn) -> None:
        """Fill in the game's own fields of a freshly enveloped state."""

    @abstractmethod
    def _turn_actors(self, state: values.State) -> frozenset[int]:
        """Seats that may act when no decision is open (ignores whether the game is over)."""

    @abstractmethod
    def _turn_actions(self, state: values.State, seat: int) -> list[values.Action]:
        """Legal actions of ``seat`` when no decision is open."""

    @abstractmethod
    def _play(self, state: values.State, seat: int, action: values.Action,
              turn: values.Turn) -> None:
        """Mutate ``state`` by a legal turn action (no decision open); narrate through ``turn``."""

    @abstractmethod
    def _show(self, state: values.State, seat: int | None) -> values.View:
        """What ``seat`` sees, drawn from ``state`` as the engine's ``known_to`` gives it."""

    @abstractmethod
    def _result(self, state: values.State) -> values.Result | None:
        """The final result, or ``None`` while the game goes on."""

    @abstractmethod
    def _ai(self, view: values.View, legal: list[values.Action], rng: Rng) -> values.Action:
        """The AI policy: choose from ``legal`` seeing only ``view``."""

    @abstractmethod
    def _canonical(self, text: str) -> str | None:
        """Rewrite normalised text into canonical notation, or ``None`` if it is not notation.

        The result may be a legal action's notation or a prefix of several (for example
        ``swap c3``); anything well-formed but illegal is explained by :meth:`explain`.
        """

    # ----------------------------------------------------------------- decisions, phases

    def _decision_actions(self, state: values.State, decision: values.Decision,
                          seat: int) -> list[values.Action]:
        """The answers ``seat`` may give to ``decision``. Games that ask decisions write it."""
        raise NotImplementedError(f"{self.slug} asked a {decision.kind!r} decision "
                                  "but offers no answers to it")

    def _resolve(self, state: values.State, decision: values.Decision,
                 answers: dict[int, values.Action],
                 turn: values.Turn) -> None:
        """Carry on once ``decision`` is answered (it is already off the stack).

        ``answers`` holds each deciding seat's (last) action, keyed by seat; a
        joint answer of several steps is in ``decision.steps``.
        """
        raise NotImplementedError(f"{self.slug} asked a {decision.kind!r} decision "
                                  "but cannot resolve it")

    def _answer_complete(self, state: values.State, decision: values.Decision, seat: int,
                         steps: Sequence[str]) -> bool:
        """Is ``seat``'s answer to the joint ``decision`` complete after ``steps``?

        Default: one action is a whole answer. A game whose players make several
        secret choices before locking in (one per monster, say) writes its own; until
        complete, the seat keeps acting and its drafts stay private.
        """
        return True

    def _begin_phase(self, state: values.State, phase: str, turn: values.Turn) -> None:
        """Called by the engine's ``next_phase`` when a phase (of :attr:`phases`) begins."""
        raise NotImplementedError(f"{self.slug} declares phases but does not begin them")

    def _standing_actions(self, state: values.State, seat: int) -> list[values.Action]:
        """What ``seat`` may do at any time, out of turn too; none by default.

        A standing action is not a turn: :meth:`play_standing` may change only the
        seat's own holdings (and what all can see of them), never who acts, the
        decision stack or the generator.
        """
        return []

    def _play_standing(self, state: values.State, seat: int, action: values.Action,
                       turn: values.Turn) -> None:
        """Carry out a standing action (see :meth:`standing_actions`)."""
        raise NotImplementedError(f"{self.slug} offers standing actions but cannot play them")

    # ----------------------------------------------------------------- who may know what

    def _hidden(self, state: values.State) -> list[values.Hidden]:
        """Every place of ``state`` that not everybody knows: who knows it, and what
        it could be exchanged with. Games without hidden information return []."""
        return []

    def _back_of(self, pool: str, item: Any) -> Any:
        """What anybody can tell of a hidden ``item`` of ``pool`` without knowing it
        (a card's back: its level, its cost). Items with equal backs are
        interchangeable to those who do not know them. Default: nothing."""
        return None

    def secrets(self, state: values.State, seat: int) -> list[str]:
        """Strings only ``seat`` may see: by default the items of its :meth:`hidden` places.

        The invariant suite checks that no other seat's view and no spectator
        view contains any of them.
        """
        return secrets_of(self, state, seat)

    # ----------------------------------------------------------------- words and figures

    def _expand(self, state: values.State, seat: int, text: str) -> str:
        """A shorthand ``seat`` may type, written out in full notation (``text`` is
        normalised); by default ``text`` as it is. Sugartopia lets ``place at c4`` mean the
        card in the player's hand: the engine's ``parse`` reads every typed move through
        this hook, so the shorthand needs no parser of its own."""
        return text

    def _explain(self, state: values.State, seat: int, notation: str) -> str:
        """Why ``notation`` is not legal now. It is well-formed, or it begins with a move the
        game knows (a verb :meth:`_canonical` gives back as it is) and goes on with words
        the notation cannot read (“pay 9”): say what the player may give instead. Games
        write their own for detail."""
        return f"“{notation}” is not a legal move right now."

    def summary(self, state: values.State) -> str:
        """One line on where the game stands (for status messages)."""
        return f"Move {state['move']}."

    def card_texts(self, view: values.View) -> list[values.CardText]:
        """Every card ``view`` shows, in full words, in the order its picture shows them:
        what the picture draws as icons, said where Discord shows text crisply (``/game
        cards``). Read from the view alone, so it says nothing the view's seat may not
        know. None by default."""
        return []

    def scores(self, state: values.State) -> dict[int, int]:
        """Current score (or progress) per seat, for status messages."""
        return {i: 0 for i in range(len(state["seats"]))}

    # ----------------------------------------------------------------- how choices are offered

    def quick_choices(self, state: values.State, seat: int) -> list[values.Action]:
        """Actions worth offering as buttons or a select menu (a *common choice*).

        By default the answers to an open decision when there are at most 25 of
        them, and nothing for the open-ended turn actions (best typed or
        autocompleted). Every quick choice is a legal action.
        """
        if top(state) is None:
            return []
        actions = legal_actions(self, state, seat)
        return actions if len(actions) <= 25 else []

    def choices_are_public(self, state: values.State) -> bool:
        """May the quick choices be offered as buttons in the channel?

        A property of the open decision (``ask``'s ``public=``); with no decision
        open, public unless the game declares :attr:`private_choices`.
        """
        decision = top(state)
        if decision is None:
            return not self.private_choices
        return decision.public and not decision.joint

    def multi_select(self, state: values.State, seat: int) -> values.MultiSelect | None:
        """A several-at-once choice to offer ``seat`` as a menu now, if any."""
        return None

    def rank_actions(self, state: values.State, seat: int,
                     actions: list[values.Action]) -> list[values.Action]:
        """Order actions the likeliest first, for autocomplete: the moves a player makes
        most often, simple and cheap ones (``pass``, the cheapest payment) before dear
        ones. Default: as given. The suggestions put :meth:`dominated` ones last."""
        return actions

    def dominated(self, state: values.State, seat: int,
                  actions: Sequence[values.Action]) -> frozenset[str]:
        """The notations among ``actions`` (``seat``'s legal ones) that another of them
        does as well for less, by the rules' own measure (paying with more dice than the
        challenge needs), or exactly as well (a card turned to lie as a smaller turn lays
        it): not offered unless the player asks for more ways, and suggested
        last. They stay legal (``/play`` takes them). Never all of ``actions``; none by
        default."""
        return frozenset()

    def move_steps(self, notation: str) -> tuple[str, ...]:
        """How a move is chosen by clicks, step by step (verb, piece or card, place,
        rotation or option): ``notation`` cut into steps that, joined by spaces, give
        it back.

        Default: one step per word, where a word of :attr:`step_joiners` goes with the
        word after it. The move builder takes as read every step that all moves left
        share, so a card name of several words is one choice. A game writes its own where
        its notation needs other steps (several dice chosen at once, say).
        """
        return steps_of(notation, self.step_joiners)

    def option_suggestions(self, name: str, current: str) -> list[str] | None:
        """Autocomplete values for option ``name`` as typed so far (``current``).

        ``None``: the option's own choices are enough (the default).
        """
        return None

    def _option_value(self, spec: values.OptionSpec, value: Any) -> Any:
        """``value`` of option ``spec`` as the game keeps it, or ``OptionsError``;
        ``None`` leaves the option out of the game's options. By default the spec's own
        kind checks it (a whole number in range, one of the choices, yes or no)."""
        return check_option(spec, value)

    def zoom_spots(self, state: values.State) -> list[str]:
        """Places a player may ask to see large (``game board zoom:``); none by default.

        A renderer draws the neighbourhood of ``view["zoom"]`` when it is set.
        """
        return []

    def episode(self, state: values.State) -> str | None:
        """A key shared by consecutive moves that read as one story (a whole heist).

        The bot edits one message while the key stays the same instead of posting
        a new one per move. ``None``: every move gets its own message.
        """
        return None

    # ----------------------------------------------------------------- AI and rules versions

    def _ai_strong(self, view: values.View, legal: list[values.Action], rng: Rng,
                   look: Lookahead) -> values.Action:
        """The strong AI: by default :meth:`ai`; a game with a search writes its own,
        which may play worlds its seat cannot tell from the real one forward
        (:class:`~bot.games.engine.contract.Lookahead`)."""
        return self._ai(view, legal, rng)

    def _stand_in_reason(self, before: values.View, after: values.View, seat: int,
                         move: str) -> str | None:
        """Why the AI standing in for an absent player made the move ``move`` (its public
        notation) that led from ``before`` to ``after``, in one short sentence everybody
        may read (the player who comes back reads it in the log), or ``None`` when it is
        not cheap to say.

        ``before`` and ``after`` are spectators' views (the engine's ``reason_for`` passes
        ``view(state, None)``), never states: what a sentence drawn from them says,
        everybody may see. By default, the points the move scored (``table["scores"]``).
        """
        gained = after["table"]["scores"][seat] - before["table"]["scores"][seat]
        if gained <= 0:
            return None
        return f"It chose this move to score {gained} {'point' if gained == 1 else 'points'}."

    def _upgrade(self, state: values.State) -> values.State:
        """Carry a state saved under an older :attr:`rules_version` over, or raise.

        The default refuses: a game started under other rules cannot go on.
        """
        raise refuse_upgrade(self, state)


#: The hooks every game must write (:class:`BaseRules`' abstract methods).
REQUIRED_HOOKS: tuple[str, ...] = tuple(sorted(BaseRules.__abstractmethods__))
