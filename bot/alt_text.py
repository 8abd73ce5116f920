"""Pictures in words: the alt text of a game's public board, shared by every surface that
shows the board (the Discord layer's board messages, the web companion's pages), so that
a screen reader hears the same picture wherever it is shown.

Plain words only (no markdown: a screen reader would read the marks), and only what the
public board shows: the game's summary and scores (what anybody may know) and the last
step as the channel tells it (its public form and narration, never a private line).
"""

from __future__ import annotations

from bot.games.words import listing
from bot.tables import Board, Step
from bot.tables.core import clip

#: The most characters of alt text (Discord keeps at most this many of an attachment's
#: description; a longer description is no kinder to a listener anywhere else).
MAX_ALT = 1024


def plain_step(step: Step) -> str:
    """A step in plain words, as everybody may read it: who (the AI for a player it
    stood in for), the move's public form, and its public narration."""
    said = " ".join(step.events)
    who = f"The AI for {step.name}" if step.for_human else step.name
    if said.startswith(step.name + " "):
        return f"{who}{said[len(step.name):]}"
    return f"{who} {step.notation}." + (f" {said}" if said else "")


def board_alt(board: Board) -> str:
    """The board picture in words, for a screen reader: the game and move, whose turn or
    the result, the game's own summary (where details a phone picture leaves out are
    said: Sugar Blast's objective in full), the scores, and the last move (what
    everybody may know: the summary is what `/game status` says in public)."""
    names = {s.seat: s.name for s in board.record.seats}
    parts = [f"{board.game.title} board, move {board.move}."]
    if board.ranking:
        parts.append("Game over: " + "; ".join(f"{place}. {name} {score}"
                                              for name, place, score in board.ranking) + ".")
    else:
        acting = [names.get(seat, f"Seat {seat + 1}") for seat in board.to_act]
        if acting:
            parts.append(f"To play: {listing(acting)}.")
        # Worked out with the board (off the event loop): see Board.summary.
        if board.summary:
            parts.append(board.summary)
        parts.append("Scores: " + ", ".join(f"{names.get(seat, seat)} {score}"
                                             for seat, score in board.scores) + ".")
    if board.steps:
        parts.append("Last: " + plain_step(board.steps[-1]))
    return clip(" ".join(parts), MAX_ALT)
