"""Text to actions and options: typed notation read into a legal action, a notation cut
into the steps a player clicks through, and lobby options checked.

Notation is compared normalised (:func:`~bot.games.engine.values.normalise`): lower case,
trimmed, single spaces. A game reads normalised text as its canonical notation (its
``canonical`` hook) and may write a shorthand out first (``expand``); everything else is
here, the same for every game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.engine.acting import check_can_act, every_legal, standing_match
from bot.games.engine.contract import Rules
from bot.games.engine.errors import (
    AmbiguousActionError,
    IllegalActionError,
    NotationError,
    OptionsError,
)
from bot.games.engine.values import Action, OptionSpec, State, normalise


def parse(rules: Rules, state: State, seat: int, text: str, *, exact: bool = False) -> Action:
    """Turn typed text into a legal action, or raise a clear
    :class:`~bot.games.engine.errors.GameError`.

    Three different errors: text that is not notation (:class:`NotationError`), a
    well-formed action that is not legal (:class:`IllegalActionError`), and an
    abbreviation that fits several legal actions (:class:`AmbiguousActionError`). A unique
    abbreviation is accepted: it names exactly one action, unless ``exact`` (a menu pick
    means exactly what was picked).
    """
    norm = normalise(text)
    if not norm:
        raise NotationError(rules.title, "", rules.notation_help)
    norm = normalise(rules._expand(state, seat, norm))
    canon = rules._canonical(norm)
    if canon is None:
        verb = norm.split(" ", 1)[0]
        if verb != norm and rules._canonical(verb) == verb:
            # A move the game knows with arguments it cannot take (“pay 9”): why.
            check_can_act(rules, state, seat)
            raise IllegalActionError(rules._explain(state, seat, norm), typed=text.strip())
        raise NotationError(rules.title, text.strip(), rules.notation_help)
    found = standing_match(rules, state, seat, canon)
    if found is not None:
        return found
    check_can_act(rules, state, seat)
    legal = every_legal(rules, state, seat)
    for action in legal:
        if action.notation == canon:
            return action
    if exact:
        raise IllegalActionError(rules._explain(state, seat, canon))
    prefixed = [a for a in legal if a.notation.startswith(canon + " ")]
    if len(prefixed) == 1:
        return prefixed[0]
    if prefixed:
        raise AmbiguousActionError(canon, [a.notation for a in prefixed])
    raise IllegalActionError(rules._explain(state, seat, canon))


def canonical_of(rules: Rules, text: str) -> str:
    """``text`` as the canonical notation of ``rules`` ("" when it is none)."""
    norm = normalise(text)
    return (rules._canonical(norm) or "") if norm else ""


def steps_of(notation: str, joiners: frozenset[str]) -> tuple[str, ...]:
    """``notation`` cut into steps, one a word, where a word of ``joiners`` goes with the
    word after it.

    >>> steps_of("place x at c4 rot 60", frozenset({"at", "rot"}))
    ('place', 'x', 'at c4', 'rot 60')
    """
    steps: list[str] = []
    pending = ""
    for word in notation.split():
        if word in joiners:
            pending = f"{pending} {word}".strip()
            continue
        steps.append(f"{pending} {word}".strip())
        pending = ""
    if pending:
        steps.append(pending)
    return tuple(steps)


# --------------------------------------------------------------------------- lobby options


def validate_options(rules: Rules, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Check options against the game's ``options``; fill defaults. Raises
    :class:`OptionsError`."""
    specs = {o.name: o for o in rules.options}
    unknown = sorted(set(raw) - set(specs))
    if unknown:
        known = ", ".join(specs) or "none"
        raise OptionsError(f"Unknown option {unknown[0]!r} for {rules.title} (known: {known}).")
    out: dict[str, Any] = {}
    for spec in rules.options:
        value = rules._option_value(spec, raw.get(spec.name, spec.default))
        if value is not None:
            out[spec.name] = value
    return out


def check_option(spec: OptionSpec, value: Any) -> Any:
    """``value`` of option ``spec`` checked by the spec's own kind: a whole number in
    range, one of the choices, yes or no."""
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
