"""Kingdom's Candy Monsters through Discord: two humans and an AI, from lobby to result.

Both humans feed at a Black Candy: one with the private **Decide** buttons (one
monster at a time), the other by typing; their answers stay out of the channel
until everybody has fed, and the channel says who is still feeding.
"""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.games import GAMES
from bot.games.engine import loads
from tests.support.discord_harness import PictureLog, Sent, Session, latest_public

ALICE, BOB = 340000000000000001, 340000000000000002
GAME = GAMES["kingdoms-candy-monsters"]


async def feed_the_rest(table: Session, user: int, game_id: int, seat: int) -> None:
    """Type the rest of ``seat``'s feeding answer, one step per monster (the AI's choices)."""
    while True:
        now = loads((await table.bot.tables.store.games.get_game(game_id)).state_json, GAME)
        top = GAME.top(now)
        if top is None or top.kind != "feed" or seat not in top.waiting:
            return
        await table.play(user, GAME.ai_action(now, seat).notation)



def feeding_choices(table: Session, sent: Sent) -> list[tuple[str, str, list[str] | None]]:
    """``(notation, custom id, menu values)`` of each feeding choice offered in ``sent``
    as it stands now: one-tap buttons, menu options, or the builder's last step."""
    out: list[tuple[str, str, list[str] | None]] = []
    message = table.rec.message(sent.message_id or 0)
    for row in message["components"]:
        for c in row["components"]:
            custom_id = c.get("custom_id", "")
            if custom_id.startswith(("cb:m:", "cb:b:")):
                notation = custom_id.split(":", 6)[-1] if custom_id.startswith("cb:b:") \
                    else custom_id.split(":", 5)[-1]
                if notation.startswith(("feed ", "let ")) and ":o0:" not in custom_id:
                    out.append((notation, custom_id, None))
            elif custom_id.startswith(("cb:s:", "cb:bs:")):
                for option in c["options"]:
                    notation = option["value"].removeprefix("p:")
                    if notation.startswith(("feed ", "let ")):
                        out.append((notation, custom_id, [option["value"]]))
    return out


async def test_candy_monsters_two_humans_feed_in_secret_and_the_game_ends(tmp_path: Path):
    pictures = PictureLog()
    table = await Session.open(tmp_path, GAMES, renderer=pictures)
    try:
        await table.start(GAME.slug, humans=[ALICE, BOB], ai=1)
        record = await table.bot.tables.store.games.open_game(table.channel_id)
        users = {s.seat: s.user_id for s in record.seats if s.user_id}
        game_id = record.id
        fed = {ALICE: 0, BOB: 0}
        buttons_used = False
        for _ in range(600):
            record = await table.bot.tables.store.games.open_game(table.channel_id)
            if record is None:
                break
            state = loads(record.state_json, GAME)
            top = GAME.top(state)
            humans = [s for s in sorted(GAME.to_act(state)) if s in users]
            assert humans, "the AI seat never holds up the game"
            seat = humans[0]
            user = users[seat]
            if top is not None and top.kind == "feed":
                secret = GAME.rules.secrets
                if user == ALICE:
                    decide = latest_public(table.rec.sent, "cb:d:") or latest_public(
                        [await table.command(ALICE, "game", "board")], "cb:d:")
                    assert decide is not None, "the channel offers the Decide button"
                    assert "Still deciding, in secret" in decide.content
                    button = next(c for c in decide.custom_ids if c.startswith("cb:d:"))
                    choices = await table.click(ALICE, decide, button)
                    assert choices.ephemeral
                    feeds = feeding_choices(table, choices)
                    if not feeds:  # many monsters: the verb comes first
                        await table.click(ALICE, choices, ":o0:feed")
                        feeds = feeding_choices(table, choices)
                    assert feeds, "the feeding choices come as buttons or a menu"
                    chosen, custom_id, values = next(
                        (f for f in feeds if f[0].endswith(" sugar")), feeds[0])
                    await table.click(ALICE, choices, custom_id, values=values)
                    buttons_used = True
                    if GAME.top(loads((await table.bot.tables.store.games.get_game(
                            record.id)).state_json, GAME)) is not None:
                        for sent in table.rec.sent:
                            if not sent.ephemeral:
                                assert chosen not in sent.content, "a secret answer went public"
                    await feed_the_rest(table, ALICE, record.id, seat)
                else:
                    await feed_the_rest(table, BOB, record.id, seat)
                fed[user] += 1
                kept = await table.bot.tables.store.games.get_game(record.id)
                now = loads(kept.state_json, GAME)
                still = GAME.top(now)
                if still is not None and still.kind == "feed":
                    hidden = [t for s in still.answered for t in secret(now, s)]
                    for sent in table.rec.sent:
                        if not sent.ephemeral:
                            assert not any(t in sent.content for t in hidden)
                    for text in pictures.public_views:
                        assert '"mine": {' not in text and not any(t in text for t in hidden)
                    waiting = " and ".join(GAME.seat_name(now, s) for s in still.waiting)
                    assert f"still feeding: {waiting}" in GAME.rules.summary(now)
            else:
                suggestions = await table.suggest(user, "")
                assert 1 <= len(suggestions) <= 25
                await table.play(user, suggestions[0])
            for sent in table.rec.sent:
                if sent.ephemeral:
                    continue
                assert not set(sent.pngs) & pictures.private, "a private picture went public"
                for png in sent.pngs:
                    assert Image.open(io.BytesIO(png)).format == "PNG"
            pictures.public_views.clear()
        else:
            raise AssertionError("the game did not end")
        assert fed[ALICE] >= 1 and fed[BOB] >= 1 and buttons_used
        finished = await table.bot.tables.store.games.get_game(game_id)
        assert GAME.result(loads(finished.state_json, GAME)) is not None
        stats = await table.command(ALICE, "stats")
        assert "Kingdom's Candy Monsters: 1 played" in stats.content
    finally:
        await table.close()


async def test_game_cards_says_every_card_for_sale_and_at_the_table_in_words(tmp_path: Path):
    """The picture says abilities with icons; `/game cards` says every card for sale and at
    the table in words, privately, in messages Discord takes; `/game rules` is the rules
    alone."""
    table = await Session.open(tmp_path, GAMES)
    try:
        await table.start(GAME.slug, humans=[ALICE, BOB], ai=1)
        await table.command(ALICE, "game", "cards")
        answers = list(table.rec.sent)
        assert answers and all(a.ephemeral for a in answers)
        assert all(len(a.content) <= 2000 for a in answers)
        said = "\n".join(a.content for a in answers)
        record = await table.bot.tables.store.games.open_game(table.channel_id)
        view = GAME.view(loads(record.state_json, GAME), 0)
        for pile in ("monsters", "abilities"):
            for card in view["market"][pile]:
                assert f"**{card['name']}** (" in said and card["text"] in said
        for card in view["cards"].values():
            assert f"**{card['name']}** (" in said and card["text"] in said
        rules = await table.command(ALICE, "game", "rules")
        assert "Moves:" in rules.content and len(table.rec.sent) == 1
    finally:
        await table.close()
