"""Off-turn alerts: an action that hits another player (a raid on their hideout, candy
stolen) is told to them privately as well, and their next catch-up leads with it."""

from __future__ import annotations

from bot.discord.messages import since_lines
from bot.games import get_game
from bot.games.engine import ALERT
from bot.store import GameRecord, SeatRecord
from bot.tables.core import Pipeline, Plan, Step
from tests.support.playthrough import play

HEIST = get_game("sugar-heist")


def test_a_raid_is_told_to_the_raided_player_alone_as_an_alert() -> None:
    raids = []

    def keep(step) -> None:
        for event in step.outcome.events:
            if event.kind == "alert":
                raids.append((step.outcome, event))

    play(HEIST, 3, 4, on_step=keep)
    assert len(raids) >= 4
    for outcome, event in raids:
        (victim,) = event.to
        public = outcome.narration(None)
        assert event.text.startswith(ALERT) and event.text[len(ALERT):] in public
        assert event.text in outcome.narration(victim)
        others = set(range(4)) - {victim}
        assert all(event.text not in outcome.narration(s) for s in others)
        assert event.seat != victim, "an attacker is never alerted of their own raid"


def test_the_catch_up_leads_with_what_hit_you_and_tells_it_once() -> None:
    alert = f"{ALERT}Ana raids Bo's hideout and rolls 1, 2 and 6."
    steps = [Step(seat=0, name="Ana", notation="build trap room 1", events=("Ana builds a trap.",),
                  by_ai=False),
             Step(seat=0, name="Ana", notation="enter",
                  events=("Ana raids Bo's hideout and rolls 1, 2 and 6.",), by_ai=False,
                  private={1: (alert,)})]
    lines = since_lines(HEIST, steps, 0, 1)
    assert lines[0] == "Since your last turn:" and lines[1] == alert
    assert sum(alert in line for line in lines) == 1
    assert alert not in "\n".join(since_lines(HEIST, steps, 0, 2))


def test_a_dm_subscriber_is_sent_each_alert_that_hit_them() -> None:
    seats = (SeatRecord(0, 11, "Ana", False), SeatRecord(1, 12, "Bo", False),
             SeatRecord(2, None, "Cy", True))
    record = GameRecord(id=1, channel_id=7, guild_id=None, game="sugar-heist",
                        status="active", creator_id=11, options={}, settings={}, seed=1,
                        state_json="{}", version=1, seats=seats, created_at=0.0,
                        updated_at=0.0, turn_started_at=None, reminders_sent=0,
                        next_reminder_at=None, lobby_message_id=None, board_message_id=None,
                        result_json=None)
    plan = Plan(state={})
    plan.steps.append(Step(seat=0, name="Ana", notation="x", events=("Ana raids Bo.",), by_ai=False,
                           private={1: (f"{ALERT}Ana raids Bo.",), 0: ("You rolled 6.",)}))
    assert Pipeline._hit(record, plan) == {12: [f"{ALERT}Ana raids Bo."]}


def test_sugar_taken_in_candy_monsters_alerts_the_player_it_was_taken_from() -> None:
    game = get_game("kingdoms-candy-monsters")
    alerts = []

    def keep(step) -> None:
        alerts.extend(e for e in step.outcome.events if e.kind == "alert")

    for seed in range(6):
        play(game, seed, 4, on_step=keep)
    assert alerts, "some sugar was taken in six games"
    assert all(e.text.startswith(ALERT) and ("sugar" in e.text) for e in alerts)
    assert all(e.to and e.seat not in e.to for e in alerts)


def alerts_in(game, seeds: tuple[int, ...], players: int) -> list:
    """Every (step, alert event) of whole games played from ``seeds``."""
    found = []
    for seed in seeds:
        play(game, seed, players, on_step=lambda step: found.extend(
            (step, e) for e in step.outcome.events if e.kind == "alert"))
    return found


def test_a_meadow_closed_by_another_player_is_an_alert_to_those_who_share_it() -> None:
    closed = alerts_in(get_game("sugartopia"), (4, 9), 4)
    assert len(closed) >= 3, "some area is closed off by one player while another shares it"
    for step, event in closed:
        (sharer,) = event.to
        assert sharer != step.seat, "the player who closed the area is not alerted"
        assert "is complete" in event.text
        assert event.text[len(ALERT):] in step.outcome.narration(None)
        before = step.before["held"][sharer]
        after = step.outcome.state["held"][sharer]
        assert after != before, "only a player who takes a share of the area is alerted"


def test_a_candy_bonked_into_the_gutter_is_an_alert_to_its_maker_alone() -> None:
    bonked = alerts_in(get_game("sugarworks"), (1, 3), 3)
    assert len(bonked) >= 3, "candies are Bonked off the floor in these games"
    for step, event in bonked:
        (maker,) = event.to
        name = step.before["seats"][maker]["name"]
        assert event.text.startswith(f"{ALERT}{name}'s ") and "Bonked off the floor" in event.text
        assert event.text[len(ALERT):] in step.outcome.narration(None)
        assert all(event.text not in step.outcome.narration(s) for s in range(3) if s != maker)
