"""Clocks in days, through the bot as players meet them: chosen in the lobby, shown on the
board (and its picture), the card, ``/games`` and the turn DM; paused on vacation; low-time
reminders a day and two hours before the end; each of the three timeout rules; secret
decisions running every deciding seat's clock at once; and a restart after the bot was
down for days, which costs nobody any time. Time is the test's clock, never slept."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.games
from bot.discord.client import CandyBot
from bot.games import engine
from bot.games.engine import Action, Engine, State, Turn, View
from bot.organized.clock import DAY, HOUR
from bot.tables import Forfeit
from tests.support.discord_harness import (
    CHANNEL_ID,
    Clock,
    Gateway,
    Recorder,
    Session,
    fake_render,
    start_bot,
)
from tests.support.race_game import CandyDuel, CandyRace
from tools.offline import INVITED

ALICE, BOB, CAROL = 370000000000000001, 370000000000000002, 370000000000000003
#: A clock loop that steps six hours at a time reads as a bot that stayed up.
UP = 7 * HOUR


class PassingRace(CandyRace):
    """Candy Race whose rules let a player pass their turn."""

    slug = "passing-race"
    title = "Passing Race"
    skips = ("pass",)

    def _turn_actions(self, state: State, seat: int) -> list[Action]:
        actions = super()._turn_actions(state, seat)
        return [*actions, Action("pass", "pass the turn")] if actions else []

    def _play(self, state: State, seat: int, action: Action, turn: Turn) -> None:
        if action.notation == "pass":
            turn.say(f"{engine.seat_name(state, seat)} passes.", seat)
            state["turn"] = (seat + 1) % len(state["seats"])
            return
        super()._play(state, seat, action, turn)


class Views:
    """A fake renderer that keeps every public view it drew."""

    def __init__(self) -> None:
        self.public: list[View] = []

    def __call__(self, view: View) -> bytes:
        if view.get("viewer") is None:
            self.public.append(view)
        return fake_render(view)


@pytest.fixture
def views() -> Views:
    return Views()


@pytest.fixture
async def session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                  views: Views) -> AsyncIterator[Session]:
    for game in (Engine(CandyRace()), Engine(PassingRace()), Engine(CandyDuel())):
        monkeypatch.setitem(bot.games.GAMES, game.slug, game)
    opened = await Session.open(tmp_path, bot.games.GAMES, renderer=views)
    opened.bot.tables.clocks.outage = UP
    yield opened
    await opened.close()


async def up_for(session: Session, hours: float, step: float = 6.0) -> None:
    """The bot stays up for ``hours``: its loop runs every ``step`` hours."""
    while hours > 0:
        session.clock.advance(min(step, hours))
        hours -= step
        await session.bot.send_due()
        await session.bot.outbox.deliver()


async def record_of(session: Session, channel: int | None = None) -> Any:
    record = await session.bot.tables.store.games.open_game(channel or session.channel_id)
    assert record is not None
    return record


async def turn(session: Session) -> int:
    state = await session.state()
    assert state is not None
    return int(state["turn"])


def reminders_to(session: Session, user: int) -> list[str]:
    return [s.content for s in session.rec.public()
            if "on your clock" in s.content and f"<@{user}>" in s.content]


async def test_the_lobby_says_the_clock_and_a_game_without_a_pass_falls_back(
        session: Session) -> None:
    lobby = await session.command(ALICE, "game", "new", {"game": "candy-race", "clock": "3d",
                                                        "on_timeout": "skip"})
    assert "⏱ Clock: 3 days a move." in lobby.content
    assert "Candy Race has no pass in its rules, so an AI stands in" in lobby.content
    await session.click(ALICE, lobby, ":cancel")
    lobby = await session.command(ALICE, "game", "new", {"game": "passing-race",
                                                        "clock": "7d+1d",
                                                        "on_timeout": "skip"})
    assert "⏱ Clock: 7 days + 1 day a move. Out of time: the turn is skipped" in lobby.content


async def test_a_clock_that_is_not_offered_is_refused_and_opens_nothing(
        session: Session) -> None:
    answer = await session.command(ALICE, "game", "new", {"game": "candy-race",
                                                         "clock": "4d"})
    assert answer.ephemeral and "clock" in answer.content
    assert await session.bot.tables.store.games.open_game(session.channel_id) is None


async def test_the_server_default_clock_applies_unless_the_lobby_chooses(
        session: Session) -> None:
    answer = await session.command(ALICE, "settings", options={"clock": "2d",
                                                               "on_timeout": "forfeit"},
                                   permissions=1 << 5)
    assert "Clock: 2 days a move; out of time, the player forfeits" in answer.content
    lobby = await session.command(ALICE, "game", "new", {"game": "candy-race"})
    assert "⏱ Clock: 2 days a move. Out of time: the player forfeits" in lobby.content
    record = await record_of(session)
    assert record.settings["clock"] == "2d" and record.settings["ai_takeover"] is False


async def test_the_clock_is_shown_on_the_board_its_picture_the_card_games_and_the_dm(
        tmp_path: Path, session: Session, views: Views) -> None:
    session.rec.room(CHANNEL_ID).permissions = INVITED
    await session.command(BOB, "notify", options={"how": "dm"})
    before = {t.id for t in session.rec.threads()}
    await session.gw.send(session.gw.command(ALICE, "game", "new",
                                             {"game": "candy-race", "clock": "2d"},
                                             channel_id=CHANNEL_ID))
    (thread,) = [t.id for t in session.rec.threads() if t.id not in before]
    await session.click(BOB, thread, ":join")
    await session.click(ALICE, thread, ":start")
    board = [s for s in session.rec.public() if s.pngs][-1]
    assert "⏱ " in board.content and "2 d 0 h left" in board.content
    assert views.public[-1]["table"]["clock"]["left"] == 2 * DAY

    session.clock.advance(5)
    games = await session.command(ALICE, "games")
    assert "your turn for" in games.content and "1 d 19 h left" in games.content
    session.rec.clear()
    await session.gw.send(session.gw.command(ALICE, "game", "status", channel_id=thread))
    assert "1 d 19 h left" in session.rec.last().content

    record = await record_of(session, thread)
    await session.gw.send(session.gw.command(ALICE, "play", options={"action": "step"},
                                             channel_id=thread))
    await session.bot.outbox.deliver()
    card = session.rec.message(record.lobby_message_id)
    assert "Player2" in card["content"] and "(2 d 0 h left)" in card["content"]
    dm = [s for s in session.rec.direct_messages() if s.dm_to == BOB][-1]
    assert "⏱ 2 d 0 h left." in dm.content
    # The clock that stopped is no longer shown; the one that runs is.
    board = [s for s in session.rec.public() if s.pngs][-1]
    assert "2 d 0 h left" in board.content and "1 d 19 h" not in board.content


async def test_a_clock_runs_only_while_its_player_is_to_act(session: Session) -> None:
    await session.start("candy-race", humans=(ALICE, BOB), clock="7d+1d")
    await up_for(session, 24)
    await session.play(ALICE, "step")  # a day used, a day added: Alice has 7 days again
    await up_for(session, 48)  # Bob's two days
    record = await record_of(session)
    alice, bob = record.clock["0"], record.clock["1"]
    assert alice["at"] is None and alice["left"] == 7 * DAY
    assert bob["at"] is not None and bob["left"] == pytest.approx(5 * DAY)


async def test_low_time_reminders_come_a_day_then_two_hours_before_the_end_once_each(
        session: Session) -> None:
    await session.start("candy-race", humans=(ALICE, BOB), clock="2d")
    await up_for(session, 23, step=1.0)
    assert reminders_to(session, ALICE) == []
    await up_for(session, 1, step=1.0)
    assert reminders_to(session, ALICE) == [
        f"⏱ 🟦● <@{ALICE}>: 1 d 0 h left on your clock in **Candy Race**. If it runs out, "
        f"an AI stands in until the player is back (`/game back`)."]
    await up_for(session, 21, step=1.0)
    assert len(reminders_to(session, ALICE)) == 1
    await up_for(session, 1, step=1.0)
    assert len(reminders_to(session, ALICE)) == 2 and "2 h 0 min left" in \
        reminders_to(session, ALICE)[-1]
    await up_for(session, 1, step=0.5)
    assert len(reminders_to(session, ALICE)) == 2
    assert await turn(session) == 0, "time is not out yet"


async def test_out_of_time_an_ai_stands_in_and_the_player_takes_the_seat_back(
        session: Session) -> None:
    await session.start("candy-race", humans=(ALICE, BOB), clock="1d")
    await session.play(ALICE, "step")
    await up_for(session, 24)
    out = [s.content for s in session.rec.public() if "ran out of time" in s.content]
    assert out and "an AI stands in until they are back" in out[-1]
    record = await record_of(session)
    assert next(s for s in record.seats if s.user_id == BOB).standing_in
    back = await session.command(BOB, "game", "back")
    assert "is back" in back.content
    record = await record_of(session)
    assert not any(s.standing_in for s in record.seats)


async def test_out_of_time_the_turn_is_skipped_where_the_rules_let_a_player_pass(
        session: Session) -> None:
    await session.start("passing-race", humans=(ALICE, BOB), clock="1d", on_timeout="skip")
    await up_for(session, 24)
    log = await session.command(ALICE, "game", "log")
    assert "Player1 passes." in log.content
    assert await turn(session) == 1
    record = await record_of(session)
    assert not any(s.standing_in for s in record.seats), "the player keeps the seat"
    assert record.clock["1"]["at"] is not None, "Bob's clock runs now"


async def test_out_of_time_the_player_forfeits_the_others_win_and_it_is_rated(
        session: Session) -> None:
    forfeits: list[Forfeit] = []

    async def heard(forfeit: Forfeit) -> None:
        forfeits.append(forfeit)

    session.bot.tables.clocks.on_forfeit(heard)
    await session.start("candy-race", humans=(ALICE, BOB), clock="2d", on_timeout="forfeit")
    await session.play(ALICE, "step")
    await up_for(session, 48)
    store = session.bot.tables.store
    played = await store.games.games_in_channel(session.channel_id)
    record = await store.games.get_game(played[-1].id)
    assert record.status == "finished"
    result = json.loads(record.result_json)
    assert result["ranking"] == [[0], [1]]
    assert forfeits == [Forfeit(record.id, BOB, (1,), True)]
    over = [s.content for s in session.rec.public() if "ran out of time" in s.content]
    assert over and "forfeits" in over[-1] and "**Game over.**" in over[-1]
    stats = await session.command(ALICE, "stats")
    assert "1 played, 1 won. Rating" in stats.content


async def test_a_forfeit_at_a_table_of_three_players_leaves_the_other_two_playing(
        session: Session) -> None:
    await session.start("candy-race", humans=(ALICE, BOB, CAROL), clock="1d",
                        on_timeout="forfeit")
    await up_for(session, 24)
    record = await record_of(session)
    assert record.status == "active"
    alice = next(s for s in record.seats if s.seat == 0)
    assert alice.ai and alice.left == ALICE
    assert await turn(session) == 1


async def test_the_clock_pauses_on_vacation(session: Session) -> None:
    await session.command(BOB, "away", options={"vacation_days": 3})
    await session.start("candy-race", humans=(ALICE, BOB), clock="1d", on_timeout="forfeit")
    await session.play(ALICE, "step")  # Bob's turn, while he is away
    for hours in (0.5, 30, 6):
        await up_for(session, hours)
        games = await session.command(BOB, "games")
        assert "1 d 0 h left" in games.content, "no time goes by on vacation"
    await up_for(session, 3 * 24 + 18 - 36.5)
    record = await record_of(session)
    assert record.status == "active" and record.clock["1"]["left"] == pytest.approx(6 * HOUR)
    await up_for(session, 6)
    record = (await session.bot.tables.store.games.games_in_channel(session.channel_id))[-1]
    assert record.status == "finished"


async def test_a_secret_decision_runs_every_deciding_seats_clock_at_once(
        session: Session) -> None:
    await session.start("candy-duel", humans=(ALICE, BOB), clock="3d")
    await up_for(session, 12)
    record = await record_of(session)
    assert record.clock["0"]["at"] is not None and record.clock["1"]["at"] is not None
    board = await session.command(ALICE, "game", "board")
    assert board.content.count("2 d 12 h left") == 2


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_a_restart_after_the_bot_was_down_charges_nobody_for_the_downtime(
        backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        request: pytest.FixtureRequest) -> None:
    monkeypatch.setitem(bot.games.GAMES, "candy-race", Engine(CandyRace()))
    clock, rec = Clock(), Recorder()
    db: Path | str = (tmp_path / "bot.db" if backend == "sqlite"
                      else request.getfixturevalue("postgres_url"))

    async def boot() -> tuple[CandyBot, Gateway]:
        bot_, gw = await start_bot(db, clock, bot.games.GAMES, rec)
        bot_.tables.clocks.outage = UP
        return bot_, gw

    first, gw = await boot()
    session = Session(first, gw, rec, clock)
    await session.start("candy-race", humans=(ALICE, BOB), clock="1d", on_timeout="forfeit")
    await up_for(session, 12)
    await first.close()
    clock.advance(3 * 24)  # the bot is down for three days
    second, gw = await boot()
    session = Session(second, gw, rec, clock)
    await up_for(session, 6)
    record = await record_of(session)
    assert record.status == "active"
    assert record.clock["0"]["left"] == pytest.approx(6 * HOUR)
    await up_for(session, 6)
    assert (await second.tables.store.games.games_in_channel(session.channel_id))[-1].status \
        == "finished"
    await second.close()


async def test_a_skipped_candy_monsters_turn_ends_where_its_rules_let_it(
        session: Session) -> None:
    """The action is required (the AI makes it for the player), then `end turn`."""
    await session.start("kingdoms-candy-monsters", humans=(ALICE, BOB), clock="1d",
                        on_timeout="skip")
    record = await record_of(session)
    game = session.bot.tables.game(record.game)
    first = next(iter(game.to_act(json.loads(record.state_json))))
    await up_for(session, 24)
    record = await record_of(session)
    state = json.loads(record.state_json)
    assert first not in game.to_act(state), "the turn was passed on"
    assert not any(s.standing_in for s in record.seats), "the player keeps the seat"
    log = await session.command(ALICE, "game", "log")
    assert "the AI for Player1: `end turn`" in log.content.splitlines()[-1]
