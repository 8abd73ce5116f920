"""Sugar Blast's strong AI: a determinised search over its own turn and the next reply.

The basic game is public except for the order of the bag, so the search samples
worlds the seat cannot tell from the real one (``Lookahead.world``: the engine's
resampler reseeds the generator that draws refills) and plays each candidate move
forward in every world: the swap, the Blasts, keeps, tilts and refills it sets off
(chains included, with its own in-turn choices made greedily, as they will be made
once the refill is seen), then each other player's reply until its turn comes back,
the best that player can judge (the Blast it makes before its refill) with what it
sets off, and finally a static value of the position it gets back: its own progress
and the best Blast waiting for it, against the others'. The move with the best average over the
worlds is played; every world is shared by all candidates, so they are compared on
the same refills.

The inner loops work on a flat copy of the board (36 kind numbers) instead of the
rules' list of rows, and replay the rules' own draws: a refill draws from the
world's generator exactly as ``board.refill`` and ``pieces.bag_draw`` do, so the
basic game's turn is played exactly as the rules play it in that world (a test
holds the two together).

With power cards in play the tokens change what a Blast removes, keeps and where
candies slide; rather than copy those hooks, the search then plays each of a few
candidates through the rules themselves (``look.game.apply``) in fewer worlds and
values the turn by the progress it brings.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

from bot.games.engine import Action, Decision, Lookahead, Playable, State, View
from bot.games.grid import Cell, cell_name, parse_cell
from bot.games.rng import Rng
from bot.games.sugar_blast import board as bd
from bot.games.sugar_blast import objectives as obj
from bot.games.sugar_blast.ai import action_value, choose

SIZE = bd.SIZE
CELLS = SIZE * SIZE
EMPTY = -1
#: Kinds in the order ``pieces.bag_draw`` walks a bag (sorted ids), so that a draw from
#: a counts vector with the same generator gives the same candy.
KINDS: tuple[str, ...] = tuple(sorted(obj.candy_kinds()))
KIND_INDEX = {kind: i for i, kind in enumerate(KINDS)}
#: The rules' order of kinds, for choosing among equal second keeps as the rules list them.
RULES_ORDER: tuple[int, ...] = tuple(KIND_INDEX[k] for k in obj.candy_kinds())

#: Worlds sampled per decision, and candidates searched in each at most (the rest are
#: cut by the quick value of the Blast they make, as the one-step AI sees it).
WORLDS = 24
WIDTH = 14
#: What a move is worth besides the win chance it leads to: a thousandth for each
#: step of progress it brings at once (ties between equal chances go to the surer gain).
PROGRESS_TIEBREAK = 0.001
#: The static value: the chance that the player to move wins, a logistic of
#: ``bias + mine * (what it still needs) + theirs * (what its best rival still needs)
#: + wait * (the progress its best swap now brings, at most 2) + useful * (kinds that
#: would bring it progress) + rival_useful * (the same for the rival with most)``,
#: fitted to the turns of 2,500 games between one-step AIs (``python -m
#: tools.sugar_blast_value``).
VALUE_WEIGHTS: tuple[float, float, float, float, float, float] = (
    -0.213, -0.957, 1.038, 0.644, 0.131, -0.176)
#: With power cards: candidates and worlds per candidate played through the rules, and
#: what a won turn is worth against steps of progress.
POWER_WIDTH = 3
POWER_WORLDS = 3
POWER_WIN = 100.0


# --------------------------------------------------------------------------- the flat board


def _index(cell: Cell) -> int:
    return cell[1] * SIZE + cell[0]


NAMES: tuple[str, ...] = tuple(cell_name((i % SIZE, i // SIZE)) for i in range(CELLS))
ROWS: tuple[tuple[int, ...], ...] = tuple(tuple(r * SIZE + c for c in range(SIZE))
                                          for r in range(SIZE))
COLS: tuple[tuple[int, ...], ...] = tuple(tuple(r * SIZE + c for r in range(SIZE))
                                          for c in range(SIZE))
#: Each side's lines as the tilt walks them, nearest cell first.
TILT_LINES: dict[str, tuple[tuple[int, ...], ...]] = {
    side: tuple(tuple(_index(bd.to_board(side, x, y)) for y in range(SIZE))
                for x in range(SIZE))
    for side in bd.SIDES}
#: Each side's refill order: nearest row first, left to right as that player sees it.
FILL_ORDER: dict[str, tuple[int, ...]] = {
    side: tuple(_index(bd.to_board(side, x, y)) for y in range(SIZE) for x in range(SIZE))
    for side in bd.SIDES}
#: Every pair of orthogonal neighbours, in the order ``board.blasting_swaps`` lists them.
PAIRS: tuple[tuple[int, int], ...] = tuple(
    (r * SIZE + c, (r + dr) * SIZE + c + dc)
    for r in range(SIZE) for c in range(SIZE) for dc, dr in ((1, 0), (0, 1))
    if c + dc < SIZE and r + dr < SIZE)
Flat = list[int]


def flatten(board: bd.Board) -> Flat:
    """The rules' board (rows of kind names or ``None``) as 36 kind numbers."""
    return [EMPTY if (kind := board[i // SIZE][i % SIZE]) is None else KIND_INDEX[kind]
            for i in range(CELLS)]


def counts(held: dict[str, int]) -> list[int]:
    """A bag or a player's kept candies as a counts vector in :data:`KINDS` order."""
    return [int(held.get(kind, 0)) for kind in KINDS]


class Blast(NamedTuple):
    """A Blast on the flat board (the rules' ``board.Blast``, by cell numbers)."""

    kind: str
    candy: int
    matched: tuple[int, ...]
    extra: tuple[int, ...]
    notation: str


def _runs(board: Flat, line: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
    """Maximal runs of 3 or more equal candies along ``line``."""
    values = [board[i] for i in line]
    found = []
    start = 0
    while start < SIZE - 2:
        candy = values[start]
        end = start + 1
        while end < SIZE and values[end] == candy:
            end += 1
        if end - start >= 3 and candy != EMPTY:
            found.append((candy, line[start:end]))
        start = end
    return found


def _line_blast(board: Flat, candy: int, run: tuple[int, ...], line: tuple[int, ...]) -> Blast:
    notation = f"blast {NAMES[run[0]]}-{NAMES[run[-1]]}"
    if len(run) == 3:
        return Blast("three", candy, run, (), notation)
    if len(run) == 4:
        rest = tuple(i for i in line if i not in run and board[i] != EMPTY)
        return Blast("four", candy, run, rest, notation)
    rest = tuple(i for i in range(CELLS) if i not in run and board[i] == candy)
    return Blast("big", candy, run, rest, notation)


def _megas(board: Flat, across: list[tuple[int, tuple[int, ...]]],
           down: list[tuple[int, tuple[int, ...]]]) -> list[Blast]:
    """Row and column runs of one kind crossing inside a 3x3 square, as the rules order them."""
    found: list[tuple[tuple[int, int, int, int], Blast]] = []
    for h_candy, h_run in across:
        for v_candy, v_run in down:
            if h_candy != v_candy:
                continue
            for a in range(len(h_run) - 2):
                row = h_run[a:a + 3]
                left, y = row[0] % SIZE, row[0] // SIZE
                for b in range(len(v_run) - 2):
                    col = v_run[b:b + 3]
                    x, bottom = col[0] % SIZE, col[0] // SIZE
                    if not (left <= x <= left + 2 and bottom <= y <= bottom + 2):
                        continue
                    cells = set(row) | set(col)
                    square = [(bottom + dr) * SIZE + left + dc
                              for dr in range(3) for dc in range(3)]
                    extra = tuple(i for i in square if i not in cells and board[i] != EMPTY)
                    notation = (f"mega {NAMES[row[0]]}-{NAMES[row[-1]]} "
                                f"{NAMES[col[0]]}-{NAMES[col[-1]]}")
                    found.append(((left, bottom, y - bottom, x - left),
                                  Blast("mega", h_candy, tuple(sorted(cells)), extra, notation)))
    found.sort(key=lambda item: item[0])
    return [blast for _, blast in found]


def find_blasts(board: Flat) -> list[Blast]:
    """Every Blast on ``board``, in the order and notation of ``board.find_blasts``."""
    blasts: list[Blast] = []
    across: list[tuple[int, tuple[int, ...]]] = []
    down: list[tuple[int, tuple[int, ...]]] = []
    for lines, runs in ((ROWS, across), (COLS, down)):
        for line in lines:
            for candy, run in _runs(board, line):
                runs.append((candy, run))
                blasts.append(_line_blast(board, candy, run, line))
    if across and down:
        blasts.extend(_megas(board, across, down))
    return blasts


def _reach(i: int, dc: int, dr: int) -> tuple[int, ...]:
    col, row = i % SIZE, i // SIZE
    out = []
    while 0 <= col + dc < SIZE and 0 <= row + dr < SIZE:
        col, row = col + dc, row + dr
        out.append(row * SIZE + col)
    return tuple(out)


#: From each cell, the cells before and after it along its row and along its column,
#: nearest first.
ALONG_ROW = tuple((_reach(i, -1, 0), _reach(i, 1, 0)) for i in range(CELLS))
ALONG_COL = tuple((_reach(i, 0, -1), _reach(i, 0, 1)) for i in range(CELLS))


def _run_at(board: Flat, i: int, ways: tuple[tuple[int, ...], tuple[int, ...]]
            ) -> tuple[int, ...] | None:
    """The run of 3 or more through ``i`` along one line, in line order, if any."""
    kind = board[i]
    before = 0
    for j in ways[0]:
        if board[j] != kind:
            break
        before += 1
    after = 0
    for j in ways[1]:
        if board[j] != kind:
            break
        after += 1
    if before + after < 2:
        return None
    return (*ways[0][before - 1::-1], i, *ways[1][:after]) if before else (i, *ways[1][:after])


def _swap_blasts(board: Flat, a: int, b: int) -> list[Blast]:
    """The Blasts on ``board`` (already swapped at ``a`` and ``b``) when the board had none
    before the swap: only runs through the two cells can be there."""
    across = []
    down = []
    for i in (a, b):
        if (run := _run_at(board, i, ALONG_ROW[i])) is not None:
            across.append((board[i], run, ROWS[i // SIZE]))
        if (run := _run_at(board, i, ALONG_COL[i])) is not None:
            down.append((board[i], run, COLS[i % SIZE]))
    blasts = [_line_blast(board, candy, run, line) for candy, run, line in across + down]
    if across and down:
        blasts.extend(_megas(board, [(c, r) for c, r, _ in across],
                             [(c, r) for c, r, _ in down]))
    return blasts


def _neighbours(i: int) -> tuple[int, ...]:
    col, row = i % SIZE, i // SIZE
    return tuple(r * SIZE + c for c, r in ((col - 1, row), (col + 1, row), (col, row - 1),
                                           (col, row + 1))
                 if 0 <= c < SIZE and 0 <= r < SIZE)


#: Every three cells in a row or a column, and for each of its cells the neighbours
#: outside it: ``(a, b, c, ((cell, outside neighbours), ...))``.
WINDOWS: tuple[tuple[int, int, int, tuple[tuple[int, tuple[int, ...]], ...]], ...] = tuple(
    (w[0], w[1], w[2], tuple((i, tuple(n for n in _neighbours(i) if n not in w)) for i in w))
    for line in ROWS + COLS for w in (line[k:k + 3] for k in range(SIZE - 2)))
#: Where each pair stands in :data:`PAIRS`, so that swaps are listed in the rules' order.
PAIR_ORDER: dict[tuple[int, int], int] = {pair: k for k, pair in enumerate(PAIRS)}
#: The windows' cells alone, for :func:`has_blast`.
TRIPLES: tuple[tuple[int, int, int], ...] = tuple((a, b, c) for a, b, c, _ in WINDOWS)


def has_blast(board: Flat) -> bool:
    """Whether any three equal candies stand in a row or a column."""
    for a, b, c in TRIPLES:
        kind = board[a]
        if kind != EMPTY and kind == board[b] == board[c]:
            return True
    return False


def swaps(board: Flat) -> list[tuple[int, int]]:
    """Every swap that makes a Blast, in the order of ``board.blasting_swaps``.

    A swap makes a line through a cell it fills only if two of three cells in a row
    already hold the candy it brings and the third is that cell: so each three cells
    with two equal candies and a different third offer the swaps of the third with a
    neighbour outside them that holds the candy.
    """
    found: set[tuple[int, int]] = set()
    for a, b, c, outside in WINDOWS:
        va, vb, vc = board[a], board[b], board[c]
        if va == vb:
            kind, odd = va, 2
        elif va == vc:
            kind, odd = va, 1
        elif vb == vc:
            kind, odd = vb, 0
        else:
            continue
        cell, around = outside[odd]
        here = board[cell]
        if kind == EMPTY or here in (EMPTY, kind):
            continue
        for n in around:
            if board[n] == kind:
                found.add((cell, n) if cell < n else (n, cell))
    return sorted(found, key=PAIR_ORDER.__getitem__)


def tilt(board: Flat, side: str) -> None:
    """Slide every candy toward ``side`` (``board.tilt``)."""
    for line in TILT_LINES[side]:
        candies = [board[i] for i in line if board[i] != EMPTY]
        for y, i in enumerate(line):
            board[i] = candies[y] if y < len(candies) else EMPTY


def draw(bag: list[int], rng: Rng) -> int:
    """One candy from the bag, drawn as ``pieces.bag_draw`` draws it; ``EMPTY`` if none."""
    total = sum(bag)
    if total == 0:
        return EMPTY
    pick = rng.below(total)
    for kind, count in enumerate(bag):
        if pick < count:
            bag[kind] -= 1
            return kind
        pick -= count
    raise AssertionError("bag counts changed during a draw")


def refill(board: Flat, side: str, bag: list[int], rng: Rng) -> int:
    """Fill the gaps from the bag in ``side``'s order (``board.refill``); how many."""
    filled = 0
    for i in FILL_ORDER[side]:
        if board[i] == EMPTY:
            candy = draw(bag, rng)
            if candy == EMPTY:
                return filled
            board[i] = candy
            filled += 1
    return filled


# --------------------------------------------------------------------------- the objective


@dataclass(frozen=True)
class Objective:
    """An objective card over counts vectors: how far kept candies go toward it."""

    named: tuple[tuple[int, int], ...]
    open_counts: tuple[int, ...]
    needed: int

    @classmethod
    def of(cls, card_id: str) -> Objective:
        return _objective(card_id)

    def progress(self, kept: Sequence[int]) -> int:
        """``objectives.progress`` on a counts vector."""
        return _progress(self, tuple(kept))


@cache
def _objective(card_id: str) -> Objective:
    card = obj.objective(card_id)
    named = tuple((KIND_INDEX[g["kind"]], int(g["count"])) for g in card["groups"]
                  if g["kind"] is not None)
    open_counts = tuple(sorted((int(g["count"]) for g in card["groups"] if g["kind"] is None),
                               reverse=True))
    return Objective(named, open_counts, obj.needed(card))


@lru_cache(maxsize=1 << 16)
def _progress(card: Objective, kept: tuple[int, ...]) -> int:
    total = sum(min(kept[kind], count) for kind, count in card.named)
    named = {kind for kind, _ in card.named}
    holdings = sorted((n for kind, n in enumerate(kept) if kind not in named), reverse=True)
    return total + sum(min(c, h) for c, h in zip(card.open_counts, holdings, strict=False))


@dataclass(frozen=True)
class Gains:
    """What each Blast would add to one player's progress, worked out once per holding."""

    base: int
    one: tuple[int, ...]  # one more of a kind
    two: tuple[int, ...]  # two more of a kind (a Blast of 5 or 6)
    pair: tuple[tuple[int, ...], ...]  # one of a kind and one of another (a Blast of 4, a Mega)

    @classmethod
    def of(cls, card: Objective, kept: Sequence[int]) -> Gains:
        return _gains(card, tuple(kept))

    def of_blast(self, board: Flat, blast: Blast) -> int:
        """Progress ``blast`` brings: its matched candies and its best second keep."""
        if blast.kind == "big":
            return self.two[blast.candy]
        if not bd.keeps_other(blast.kind):
            return self.one[blast.candy]
        row = self.pair[blast.candy]
        best = self.one[blast.candy]
        for i in blast.extra:
            kind = board[i]
            if kind != blast.candy and kind != EMPTY and row[kind] > best:
                best = row[kind]
        return best


@lru_cache(maxsize=1 << 14)
def _gains(card: Objective, kept: tuple[int, ...]) -> Gains:
    base = card.progress(kept)
    n = len(KINDS)

    def gain(*extra: int) -> int:
        trial = list(kept)
        for kind in extra:
            trial[kind] += 1
        return card.progress(trial) - base

    return Gains(base, tuple(gain(k) for k in range(n)), tuple(gain(k, k) for k in range(n)),
                 tuple(tuple(gain(k, o) if o != k else 0 for o in range(n)) for k in range(n)))


def blast_value(gains: Gains, board: Flat, blast: Blast) -> float:
    """A Blast's quick value: ten for each step of progress, one for each candy it removes
    (the one-step AI's measure)."""
    return 10.0 * gains.of_blast(board, blast) + len(blast.matched) + len(blast.extra)


def best_swap(board: Flat, gains: Gains) -> tuple[float, int, tuple[int, int] | None]:
    """The swap whose best Blast is worth most now, its value and its progress (a board
    at the start of a turn: no Blast on it yet)."""
    top, progress, chosen = -1.0, 0, None
    for a, b in swaps(board):
        va, vb = board[a], board[b]
        board[a], board[b] = vb, va
        for blast in _swap_blasts(board, a, b):
            value = blast_value(gains, board, blast)
            if value > top:
                top, progress, chosen = value, gains.of_blast(board, blast), (a, b)
        board[a], board[b] = va, vb
    return top, progress, chosen


# --------------------------------------------------------------------------- one turn


@dataclass
class Position:
    """What a turn changes in the basic game: the board, the bag, the kept candies."""

    board: Flat
    bag: list[int]
    kept: list[list[int]]
    sides: tuple[str, ...]
    card: Objective

    def copy(self) -> Position:
        return Position(list(self.board), list(self.bag), [list(k) for k in self.kept],
                        self.sides, self.card)

    def progress(self, seat: int) -> int:
        return self.card.progress(self.kept[seat])

    def won(self, seat: int) -> bool:
        return self.progress(seat) >= self.card.needed


def best_keep(pos: Position, seat: int, kinds: Iterable[int]) -> int:
    """Which of ``kinds`` a Blast's second keep takes in a simulated turn: the one that
    brings most progress, the rules' first among equals; ``EMPTY`` when there is none."""
    choices = set(kinds)
    best, top = EMPTY, -1
    kept = pos.kept[seat]
    for kind in RULES_ORDER:
        if kind in choices:
            kept[kind] += 1
            value = pos.card.progress(kept)
            kept[kind] -= 1
            if value > top:
                best, top = kind, value
    return best


def resolve(pos: Position, seat: int, blast: Blast) -> bool:
    """Resolve ``blast`` for ``seat`` (keeps, then what goes back to the bag); True if it
    completed the objective."""
    board = pos.board
    returning = [0] * len(KINDS)
    for i in blast.matched + blast.extra:
        if board[i] != EMPTY:
            returning[board[i]] += 1
    kept = pos.kept[seat]
    for _ in range(bd.keep_matched(blast.kind)):
        if returning[blast.candy]:
            kept[blast.candy] += 1
            returning[blast.candy] -= 1
    if pos.won(seat):
        _empty(pos, blast)
        return True
    if bd.keeps_other(blast.kind):
        others = {k for i in blast.extra if (k := board[i]) not in (blast.candy, EMPTY)
                  and returning[k]}
        other = best_keep(pos, seat, others)
        if other != EMPTY:
            kept[other] += 1
            returning[other] -= 1
            if pos.won(seat):
                _empty(pos, blast)
                return True
    _empty(pos, blast)
    for kind, n in enumerate(returning):
        pos.bag[kind] += n
    return False


def _empty(pos: Position, blast: Blast) -> None:
    for i in blast.matched + blast.extra:
        pos.board[i] = EMPTY


def _choose_blast(pos: Position, seat: int, blasts: list[Blast]) -> Blast:
    """Which of several Blasts goes first, in a simulated turn: the best quick value."""
    if len(blasts) == 1:
        return blasts[0]
    gains = Gains.of(pos.card, pos.kept[seat])
    return max(blasts, key=lambda blast: blast_value(gains, pos.board, blast))


def finish_turn(pos: Position, seat: int, rng: Rng) -> bool:
    """Play ``seat``'s turn on from a board it may have Blasts on (after its swap, or after
    a Blast's keeps were settled): tilt, refill and chains, as the rules do, with its own
    choices greedy. True if it completed the objective."""
    side = pos.sides[seat]
    while True:
        blasts = find_blasts(pos.board) if has_blast(pos.board) else []
        if blasts:
            if resolve(pos, seat, _choose_blast(pos, seat, blasts)):
                return True
            tilt(pos.board, side)
            refill(pos.board, side, pos.bag, rng)
            continue
        # The end of the turn fills gaps left when the bag ran dry (rules: _end_turn).
        if refill(pos.board, side, pos.bag, rng) and has_blast(pos.board):
            continue
        return False


def settle(pos: Position, seat: int, rng: Rng) -> bool:
    """After the keeps of a Blast: tilt, refill and the chains that follow."""
    tilt(pos.board, pos.sides[seat])
    refill(pos.board, pos.sides[seat], pos.bag, rng)
    return finish_turn(pos, seat, rng)


def play_swap(pos: Position, seat: int, a: int, b: int, rng: Rng) -> bool:
    pos.board[a], pos.board[b] = pos.board[b], pos.board[a]
    return finish_turn(pos, seat, rng)


# --------------------------------------------------------------------------- the search


@dataclass(frozen=True)
class Step:
    """A root move as the flat simulation plays it: a swap of two cells, the drawn
    ``candy`` put on a cell, a Blast chosen to go first, or the ``candy`` kept second."""

    action: Action
    verb: str
    cells: tuple[int, ...] = ()
    blast: Blast | None = None
    candy: int = EMPTY


class Search:
    """The search for one decision of ``seat`` in the basic game."""

    def __init__(self, pos: Position, seat: int, returning: list[int] | None = None) -> None:
        self.pos = pos
        self.seat = seat
        self.players = len(pos.sides)
        self.returning = returning

    def play(self, step: Step, rng: Rng) -> tuple[Position, bool]:
        """``step`` and the rest of the seat's turn in the world of ``rng``."""
        pos = self.pos.copy()
        seat = self.seat
        if step.verb == "swap":
            won = play_swap(pos, seat, step.cells[0], step.cells[1], rng)
        elif step.verb == "replace":
            cell = step.cells[0]
            pos.bag[pos.board[cell]] += 1
            pos.board[cell] = step.candy
            won = finish_turn(pos, seat, rng)
        elif step.verb == "blast":
            assert step.blast is not None
            won = resolve(pos, seat, step.blast) or settle(pos, seat, rng)
        else:  # keep: the Blast's cells are empty, what it removed waits in ``returning``
            assert self.returning is not None
            pos.kept[seat][step.candy] += 1
            won = pos.won(seat)
            if not won:
                back = list(self.returning)
                back[step.candy] -= 1
                for kind, n in enumerate(back):
                    pos.bag[kind] += n
                won = settle(pos, seat, rng)
        return pos, won

    def replies(self, pos: Position, rng: Rng) -> bool:
        """The other players' turns until the seat's own comes back: each takes the swap
        with the best Blast it can see (before its refill) and plays what it sets off.
        True if one of them completes the objective."""
        for k in range(1, self.players):
            seat = (self.seat + k) % self.players
            _, _, chosen = best_swap(pos.board, Gains.of(pos.card, pos.kept[seat]))
            # Without a swap it draws and replaces: too rare to be worth modelling.
            if chosen is not None and play_swap(pos, seat, chosen[0], chosen[1], rng):
                return True
        return False

    def value(self, pos: Position) -> float:
        """The seat's chance to win ``pos``, its turn next (see :data:`VALUE_WEIGHTS`)."""
        card = pos.card
        gains = Gains.of(card, pos.kept[self.seat])
        _, waiting, _ = best_swap(pos.board, gains)
        if gains.base + waiting >= card.needed:
            return 1.0  # its swap completes the objective before any refill
        rival = max(pos.progress(s) for s in range(self.players) if s != self.seat)
        others = max(sum(1 for g in Gains.of(card, pos.kept[s]).one if g > 0)
                     for s in range(self.players) if s != self.seat)
        bias, mine, theirs, wait, useful, rival_useful = VALUE_WEIGHTS
        z = (bias + mine * (card.needed - gains.base) + theirs * (card.needed - rival)
             + wait * min(waiting, 2) + useful * sum(1 for g in gains.one if g > 0)
             + rival_useful * others)
        return 1.0 / (1.0 + math.exp(-z))

    def score(self, step: Step, worlds: list[Rng]) -> float:
        """The average over ``worlds`` of the chance to win after ``step``."""
        total = 0.0
        before = self.pos.progress(self.seat)
        for world in worlds:
            rng = Rng(world.state)
            pos, won = self.play(step, rng)
            total += PROGRESS_TIEBREAK * (pos.progress(self.seat) - before)
            if won:
                total += 1.0
            elif not self.replies(pos, rng):
                total += self.value(pos)
        return total / len(worlds)


def _steps(state: State, decision: Decision | None, legal: list[Action]) -> list[Step]:
    """The seat's legal moves as the flat simulation plays them."""
    board = flatten(state["board"])
    blasts = {b.notation: b for b in find_blasts(board)} if decision else {}
    steps = []
    for action in legal:
        words = action.notation.split(" ")
        if words[0] == "swap":
            cells = tuple(_index(c) for c in (parse_cell(w, SIZE, SIZE) for w in words[1:3])
                          if c is not None)
            steps.append(Step(action, "swap", cells))
        elif words[0] == "replace":
            cell = parse_cell(words[1], SIZE, SIZE)
            assert cell is not None
            steps.append(Step(action, "replace", (_index(cell),),
                              candy=KIND_INDEX[state["drawn"]]))
        elif words[0] in ("blast", "mega"):
            steps.append(Step(action, "blast", blast=blasts[action.notation]))
        elif words[0] == "keep":
            steps.append(Step(action, "keep", candy=KIND_INDEX[words[1]]))
        else:
            raise ValueError(f"the basic game has no move {action.notation!r}")
    return steps


def _prune(view: View, steps: list[Step]) -> list[Step]:
    """At most :data:`WIDTH` candidates, the best by the one-step AI's quick value."""
    if len(steps) <= WIDTH:
        return steps
    ranked = sorted(steps, key=lambda s: -action_value(view, s.action.notation))
    return ranked[:WIDTH]


def choose_strong(view: View, legal: list[Action], rng: Rng, look: Lookahead) -> Action:
    """The strong AI's move: the search in the basic game, a shallower one with power
    cards; a single legal move is played at once."""
    if len(legal) == 1:
        return legal[0]
    known = look.known
    if "power" in known:
        return _choose_with_powers(view, legal, rng, look)
    game = look.game
    decision = game.top(known)
    worlds = [Rng(look.world(rng)["rng"]) for _ in range(WORLDS)]
    pos = Position(flatten(known["board"]), counts(known["bag"]),
                   [counts(k) for k in known["kept"]],
                   bd.SEATING[len(known["seats"])], Objective.of(known["objective"]))
    returning = counts(known["returning"]) if decision and decision.kind == "keep" else None
    search = Search(pos, look.seat, returning)
    best: list[Action] = []
    top = -math.inf
    for step in _prune(view, _steps(known, decision, legal)):
        value = search.score(step, worlds)
        if value > top + 1e-12:
            top, best = value, [step.action]
        elif abs(value - top) <= 1e-12:
            best.append(step.action)
    return best[0] if len(best) == 1 else choose(view, best, rng)


# --------------------------------------------------------------------------- power cards


def _choose_with_powers(view: View, legal: list[Action], rng: Rng, look: Lookahead) -> Action:
    """With power cards: the one-step AI's few best candidates, each played through the
    rules to the end of the seat's turn in a few worlds (its later choices in the turn
    the one-step AI's), valued by the progress the turn brings against the best rival's
    and by a win."""
    game = look.game
    ranked = sorted(legal, key=lambda a: -action_value(view, a.notation))
    worlds = [look.world(rng) for _ in range(POWER_WORLDS)]
    best, top = ranked[0], -math.inf
    for action in ranked[:POWER_WIDTH]:
        value = sum(_power_turn(game, world, look.seat, action, rng) for world in worlds)
        if value > top:
            best, top = action, value
    return best


def _power_turn(game: Playable, world: State, seat: int, action: Action, rng: Rng) -> float:
    """``action`` and the rest of the seat's turn in ``world``, valued."""
    state = game.apply(world, seat, action).state
    # The turn's own later decisions (Blast order, keeps, a rush and the turn it buys)
    # are few; the bound only guards against a loop.
    for _ in range(20):
        if seat not in game.to_act(state):
            break
        state = game.apply(state, seat, choose(game.view(state, seat),
                                               game.legal_actions(state, seat), rng)).state
    result = game.result(state)
    if result is not None:
        return POWER_WIN if seat in result.winners else 0.0
    scores = game.rules.scores(state)
    return float(scores[seat]) - 0.5 * max(v for s, v in scores.items() if s != seat)
