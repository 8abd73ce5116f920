"""A player who makes every move by clicks only, for the click-only whole-game tests.

It plays what the AI policy would play for its seat, reaching that move through
the board's and the private replies' buttons and menus (the move builder, the
preview's Confirm), never typing; and it measures what it took.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.discord.builder import decode
from bot.games.engine import Action, Engine, MultiSelect, loads
from tests.support.discord_harness import Session

MAX_LABEL = 80
MAX_OPTIONS = 25
MAX_CUSTOM_ID = 100


@dataclass
class Tally:
    """What the clicks of a game took, and every label and id they met."""

    taps: list[int] = field(default_factory=list)
    messages: list[int] = field(default_factory=list)
    labels: set[str] = field(default_factory=set)
    custom_ids: set[str] = field(default_factory=set)
    menu_sizes: list[int] = field(default_factory=list)
    previews: int = 0
    #: Per decision: the options its first step showed, and the most any step showed.
    first_options: list[int] = field(default_factory=list)
    most_options: list[int] = field(default_factory=list)
    #: Moves a step offered by two of its controls (a menu and a button, say).
    twice: list[str] = field(default_factory=list)
    #: Dominated moves a step showed before the player asked for more ways.
    dearer: list[str] = field(default_factory=list)
    #: Moves reached through “More ways…”.
    asked: int = 0


def components_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components") or [] for c in row.get("components", [])]


def check_limits(message: dict[str, Any], tally: Tally) -> None:
    """Discord's limits on components, on every message a player is shown."""
    rows = message.get("components") or []
    assert len(rows) <= 5
    for row in rows:
        assert len(row["components"]) <= 5
    for c in components_of(message):
        if "custom_id" in c:
            assert len(c["custom_id"]) <= MAX_CUSTOM_ID, c["custom_id"]
            tally.custom_ids.add(c["custom_id"])
        if c.get("label"):
            assert len(c["label"]) <= MAX_LABEL, c["label"]
            tally.labels.add(c["label"])
        if c["type"] == 3:
            assert 1 <= len(c["options"]) <= MAX_OPTIONS
            tally.menu_sizes.append(len(c["options"]))
            for option in c["options"]:
                assert len(option["label"]) <= MAX_LABEL, option["label"]
                tally.labels.add(option["label"])


class Clicker:
    """Drives one game of ``session`` by clicks only."""

    def __init__(self, session: Session, game: Engine) -> None:
        self.session = session
        self.game = game
        self.tally = Tally()

    async def record(self) -> Any:
        return await self.session.bot.tables.store.games.open_game(self.session.channel_id)

    def latest_board(self) -> int | None:
        """The newest public message offering components."""
        rec = self.session.rec
        boards = [int(m["id"]) for m in rec.messages.values()
                  if not int(m.get("flags") or 0) & 64 and any(
                      c.get("custom_id", "").startswith(("cb:b", "cb:d:", "cb:m:", "cb:s:"))
                      for c in components_of(m))]
        return max(boards) if boards else None

    async def move(self, user: int, seat: int) -> set[int]:
        """Make ``seat``'s next move (the AI policy's choice) by clicks only; returns the
        users that newly created messages notified meanwhile."""
        record = await self.record()
        state = loads(record.state_json, self.game)
        target = self.game.ai_action(state, seat).notation
        legal = self.game.legal_actions(state, seat)
        start_move = state["move"]
        message_id = self.latest_board()
        assert message_id is not None, "no board offers anything to click"
        taps = 0
        created = 0
        notified: set[int] = set()
        dominated = self.game.rules.dominated(state, seat, legal)
        menu = self.game.rules.multi_select(state, seat)
        shown: list[int] = []
        asking = False
        for _ in range(40):
            message = self.session.rec.message(message_id)
            check_limits(message, self.tally)
            reach = offered(message, legal, menu)
            shown.append(len(reach))
            self.tally.twice.extend(twice(reach))
            if not asking:
                self.tally.dearer.extend(sorted({n for _, moves in reach for n in moves
                                                 if moves <= dominated}))
            pick = self.pick(message, target, legal, seat == self.chooser(state))
            assert pick is not None, (f"{target} cannot be reached from "
                                      f"{[c.get('custom_id') for c in components_of(message)]}")
            custom_id, values = pick
            asking = asking or (custom_id.startswith("cb:b:")
                                and custom_id.split(":", 6)[5].startswith("a"))
            if custom_id.startswith("cb:b:") and ":c0:" in custom_id:
                self.tally.previews += 1
            before = set(self.session.rec.messages)
            await self.session.click(user, message_id, custom_id, values=values)
            taps += 1
            notified.update(self.session.rec.notified_users())
            new = [m for m in self.session.rec.messages if m not in before]
            created += len(new)
            refused = [s for s in self.session.rec.sent if s.ephemeral and
                       "expired" in s.content]
            assert not refused, refused[0].content
            after = loads(
                (await self.session.bot.tables.store.games.get_game(record.id)).state_json,
                self.game)
            if after["move"] > start_move:
                break
            message_id = self.next_message(message_id, new)
        else:
            raise AssertionError(f"{target} was never played")
        self.tally.taps.append(taps)
        self.tally.messages.append(created)
        self.tally.first_options.append(next((n for n in shown if n), 0))
        self.tally.most_options.append(max(shown))
        self.tally.asked += target in dominated
        return notified

    def chooser(self, state: dict[str, Any]) -> int | None:
        return None

    def next_message(self, clicked: int, new: Sequence[int]) -> int:
        """Where the next step is shown: a new private message, or the clicked one."""
        private = [m for m in new if int(self.session.rec.message(m).get("flags") or 0) & 64
                   and any(c.get("custom_id", "").startswith(("cb:b", "cb:m:", "cb:s:"))
                           for c in components_of(self.session.rec.message(m)))]
        return max(private) if private else clicked

    def pick(self, message: dict[str, Any], target: str, legal: Sequence[Action],
             _chooser: bool) -> tuple[str, list[str] | None] | None:
        """The component (and menu value) on the way to ``target``, longest path first."""
        best: tuple[int, str, list[str] | None] | None = None
        for c in components_of(message):
            custom_id = c.get("custom_id", "")
            if custom_id.startswith("cb:b:"):
                op_page, path = custom_id.split(":", 6)[5:7]
                if op_page[0] not in "ocpa":
                    continue
                if op_page[0] in "oa" and op_page[1:] != "0":
                    continue
                found = decode(path, legal)
                if found is None:
                    continue
                if op_page[0] in "pc" and found == target:
                    return custom_id, None
                if op_page[0] in "oa" and _on_way(found, target):
                    # (“More ways…” only when no usual step leads there.)
                    score = len(found) - (op_page[0] == "a" and c.get("style") == 2)
                    if best is None or score > best[0]:
                        best = (score, custom_id, None)
            elif custom_id.startswith("cb:bs:"):
                for option in c["options"]:
                    op, _, carried = option["value"].partition(":")
                    found = decode(carried, legal)
                    if found is None:
                        continue
                    if op == "p" and found == target:
                        return custom_id, [option["value"]]
                    if op in "oa" and _on_way(found, target):
                        score = len(found)
                        if best is None or score > best[0]:
                            best = (score, custom_id, [option["value"]])
            elif custom_id.startswith("cb:m:") and custom_id.split(":", 5)[5] == target:
                return custom_id, None
            elif custom_id.startswith("cb:s:"):
                if any(option["value"] == target for option in c["options"]):
                    return custom_id, [target]
            elif custom_id.startswith("cb:d:") and best is None:
                best = (-1, custom_id, None)
        return None if best is None else (best[1], best[2])


def _on_way(path: str, target: str) -> bool:
    return path == "" or target == path or target.startswith(path + " ")


def offered(message: dict[str, Any], legal: Sequence[Action],
            menu: MultiSelect | None) -> list[tuple[str, frozenset[str]]]:
    """Each option ``message`` shows a player (a button or a menu's entry that plays or
    leads to moves; not Back, a page, Decide or “More ways…”): the control it is, and
    the legal moves it leads to (the entries of a several-at-once menu make moves
    together: one control)."""
    notations = [a.notation for a in legal]

    def under(path: str) -> frozenset[str]:
        return frozenset(n for n in notations if _on_way(path, n))

    out: list[tuple[str, frozenset[str]]] = []
    for c in components_of(message):
        custom_id = c.get("custom_id", "")
        if custom_id.startswith("cb:m:"):
            out.append((custom_id, frozenset({custom_id.split(":", 5)[5]})))
        elif custom_id.startswith("cb:s:"):
            out.extend((o["value"], frozenset({o["value"]})) for o in c["options"])
        elif custom_id.startswith("cb:b:") and c.get("style") != 2:
            op, path = custom_id.split(":", 6)[5:7]
            found = decode(path, legal)
            if found is not None:
                out.append((custom_id,
                            frozenset({found}) if op[0] in "pc" else under(found)))
        elif custom_id.startswith("cb:bs:"):
            for option in c["options"]:
                op, _, carried = option["value"].partition(":")
                found = decode(carried, legal)
                if found is not None:
                    out.append((option["value"],
                                frozenset({found}) if op == "p" else under(found)))
        elif custom_id.startswith("cb:ms:") and menu is not None:
            made = frozenset(n for n in notations if _made_by(menu, n))
            out.extend((custom_id, made) for _ in c["options"])
    return out


def _made_by(menu: MultiSelect, notation: str) -> bool:
    head, _, tail = menu.template.partition("{}")
    if not (notation.startswith(head) and notation.endswith(tail)):
        return False
    left = list(menu.words or (v for v, _ in menu.options))
    chosen = notation[len(head):len(notation) - len(tail)].split()
    for word in chosen:
        if word not in left:
            return False
        left.remove(word)
    return menu.min_values <= len(chosen) <= menu.max_values


def twice(reach: Sequence[tuple[str, frozenset[str]]]) -> list[str]:
    """The moves two controls of one step both lead to."""
    seen: dict[str, str] = {}
    out = []
    for control, moves in reach:
        for notation in moves:
            if seen.setdefault(notation, control) != control:
                out.append(notation)
    return out
