"""Words for a candy movement story: one compact line per candy, one phrase per activation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.sugarworks import content as ct
from bot.games.sugarworks.movement import Step, Story

DIRECTION_WORDS = {"right": "right", "up-right": "up and right", "down": "down"}


def _where(cell: Sequence[int]) -> str:
    return ct.cell_name((cell[0], cell[1]))


def candy_label(story: Story, candy: str, makers: dict[str, int | None],
                names: Sequence[str]) -> str:
    """``"Alex's red circle"`` or ``"the red circle"`` (a starting candy has no maker)."""
    maker = makers.get(candy)
    kind = ct.candy_name(story.types[candy])
    return f"{names[maker]}'s {kind}" if maker is not None else f"the {kind}"


def _event(story: Story, mover: str, event: dict[str, Any], makers: dict[str, int | None],
           names: Sequence[str]) -> str:
    what = event["what"]
    candy = event.get("candy")
    label = candy_label(story, candy, makers, names) if candy is not None else ""
    bounced = event.get("by") == "bonk"
    if bounced:
        way = DIRECTION_WORDS[event["direction"]]
        subject = "bounces" if candy == mover else f"{label} goes"
        prefix = f"{subject} {way}"
    else:
        prefix = "" if candy == mover else f"{label}"
    if what == "move":
        return f"{prefix} to {_where(event['to'])}" if bounced else f"→ {_where(event['to'])}"
    if what == "bonk":
        struck = candy_label(story, event["struck"], makers, names)
        return f"Bonk! into {struck} at {_where(event['at'])}"
    if what == "ship":
        text = f"into the {event['crate']} crate (shipped)"
        return f"{prefix} {text}" if bounced else f"→ {text}"
    if what == "lost":
        if event["how"] == "edge":
            return f"{prefix} off the edge: lost" if bounced else "→ off the edge: lost"
        eater = "X" if event["by"] == "x" else "candy eater"
        place = "corner" if event["how"] == "corner" else "centre"
        subject = f"{label} is" if candy != mover else "is"
        return f"{subject} lost to the {eater} ({place} icon) at {_where(event['from'])}"
    if what == "stay":
        return f"stays on {_where(event['at'])} (no arrow for it)"
    raise AssertionError(what)


def step_text(story: Story, step: Step, makers: dict[str, int | None],
              names: Sequence[str]) -> str:
    """One activation in words, e.g. ``"yellow hexagon g3 (2nd): → h3, Bonk! ..."``."""
    label = candy_label(story, step.candy, makers, names)
    label = label[0].upper() + label[1:]
    nth = "1st" if step.activation == 1 else "2nd"
    phrases = [_event(story, step.candy, e, makers, names) for e in step.events]
    return f"{label} {_where(step.start)} ({nth}): " + ", ".join(phrases) + "."


def step_texts(story: Story, makers: dict[str, int | None],
               names: Sequence[str]) -> list[str]:
    return [step_text(story, s, makers, names) for s in story.steps]


def lines(story: Story, makers: dict[str, int | None], names: Sequence[str]) -> list[str]:
    """One line per candy that activated: its two activations, bonks included."""
    out: list[str] = []
    current: str | None = None
    for step in story.steps:
        phrases = ", ".join(_event(story, step.candy, e, makers, names) for e in step.events)
        if step.candy != current:
            label = candy_label(story, step.candy, makers, names)
            out.append(f"{label[0].upper()}{label[1:]} {_where(step.start)}: {phrases}")
            current = step.candy
        else:
            out[-1] += f"; {phrases}"
    return [line + "." for line in out]
