"""The door every interaction passes: open while the bot runs, closed while it stops.

Slash commands (and their autocomplete) pass it in ``CandyTree.interaction_check``,
component clicks in ``components._dispatch``, each inside the task discord.py
started for it. The gate remembers those tasks, so a stop can wait for the moves
in flight (:meth:`Gate.close`), and times them for the answer-latency metric.
Once closed, a new tap gets a short private note instead of being played.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.discord.errors import describe

log = logging.getLogger(__name__)

RESTARTING = "candybot is restarting: try that again in a minute."

#: Called with the kind of interaction ("command", "component", "autocomplete") and how
#: long its handling took, in seconds.
Timer = Callable[[str, float], None]


def kind_of(interaction: discord.Interaction) -> str:
    """The kind of interaction, as the answer-latency metric labels it."""
    if interaction.type is discord.InteractionType.autocomplete:
        return "autocomplete"
    if interaction.type is discord.InteractionType.component:
        return "component"
    return "command"


@dataclass(frozen=True)
class Drained:
    """What a closing gate saw: handlers that finished in time, and those cut off."""

    finished: int
    cut: int


class Gate:
    """Admits interactions while open and remembers the tasks handling them."""

    def __init__(self, timer: Timer | None = None) -> None:
        self.closed = False
        self._timer = timer
        self._handling: set[asyncio.Task[object]] = set()

    @property
    def in_flight(self) -> int:
        """Interactions being handled now."""
        return sum(not task.done() for task in self._handling)

    async def admit(self, interaction: discord.Interaction) -> bool:
        """Whether to handle ``interaction``; when closed, it is answered here."""
        if self.closed:
            await self._turn_away(interaction)
            return False
        task = asyncio.current_task()
        if task is not None and task not in self._handling:
            self._handling.add(task)
            started, kind = time.perf_counter(), kind_of(interaction)

            def done(finished: asyncio.Task[object]) -> None:
                self._handling.discard(finished)
                if self._timer is not None:
                    self._timer(kind, time.perf_counter() - started)

            task.add_done_callback(done)
        return True

    def shut(self) -> None:
        """Admit nothing more, from now on (safe to call from a signal handler)."""
        self.closed = True

    async def close(self, timeout: float) -> Drained:
        """Admit nothing more; wait up to ``timeout`` seconds for the interactions being
        handled, then cancel what is left (a move is committed in one transaction, so a
        cut one is either stored whole or not at all)."""
        self.shut()
        pending = {task for task in self._handling if not task.done()}
        if not pending:
            return Drained(0, 0)
        done, late = await asyncio.wait(pending, timeout=timeout)
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)
        return Drained(len(done), len(late))

    async def _turn_away(self, interaction: discord.Interaction) -> None:
        try:
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await interaction.response.send_message(RESTARTING, ephemeral=True)
        except discord.HTTPException:
            log.debug("could not turn away %s", describe(interaction), exc_info=True)
