"""`/game cards`: every card on the table in full words, privately, as the caller may know
them. A phone picture draws cards as icons; their wording is here, crisp at any size."""

from __future__ import annotations

from pathlib import Path

from bot.discord.messages import MAX_CONTENT
from bot.games import GAMES
from bot.games.engine import loads
from bot.games.sugar_heist import cards
from tests.support.discord_harness import Session

ALICE, BOB, CAROL = 380000000000000001, 380000000000000002, 380000000000000003
HEIST = GAMES["sugar-heist"]


async def test_each_player_reads_every_card_privately_their_own_secrets_only(tmp_path: Path):
    table = await Session.open(tmp_path, GAMES)
    try:
        await table.start("sugar-heist", humans=[ALICE, BOB], ai=1)
        record = await table.bot.tables.store.games.open_game(table.channel_id)
        seats = {s.user_id: s.seat for s in record.seats if s.user_id}
        for _ in range(12):  # through the hideout boards and into the prep phase
            state = loads(record.state_json, HEIST)
            if state["prep"] is not None:
                break
            (seat,) = HEIST.to_act(state)
            user = next(u for u, s in seats.items() if s == seat)
            await table.play(user, (await table.suggest(user, ""))[0])
            record = await table.bot.tables.store.games.open_game(table.channel_id)
        state = loads(record.state_json, HEIST)
        alice_hand = {cards.design(c)["name"] for c in state["players"][seats[ALICE]]["hand"]}
        bob_hand = {cards.design(c)["name"] for c in state["players"][seats[BOB]]["hand"]}
        market = {cards.design(c)["name"] for c in state["market"]}

        table.rec.clear()
        await table.command(ALICE, "game", "cards")
        pages = [m for m in table.rec.messages_sent()]
        assert pages and all(m.ephemeral for m in pages)
        assert all(len(m.content) <= MAX_CONTENT for m in pages)
        said = "\n".join(m.content for m in pages)
        assert "as you may see them" in said
        for name in alice_hand | market:
            assert f"**{name}**" in said, name
        assert "your hand" in said
        assert "Challenge: " in said and "Bad stuff: " in said
        for name in bob_hand - alice_hand - market:
            assert name not in said, "another player's hand is never named"

        while min(HEIST.to_act(state)) != seats[BOB]:  # then Bob builds a card face down
            await table.play(ALICE, "pass")
            record = await table.bot.tables.store.games.open_game(table.channel_id)
            state = loads(record.state_json, HEIST)
        build = next(v for v in await table.suggest(BOB, "build") if v.startswith("build "))
        await table.play(BOB, build)
        record = await table.bot.tables.store.games.open_game(table.channel_id)
        state = loads(record.state_json, HEIST)
        built = next(cards.design(room[slot]["id"])["name"]
                     for room in state["players"][seats[BOB]]["rooms"]
                     for slot in ("mod", "encounter") if room[slot] and not room[slot]["up"])
        await table.command(BOB, "game", "cards")
        assert "(yours, face down)" in "\n".join(m.content for m in table.rec.messages_sent())
        await table.command(ALICE, "game", "cards")
        said = "\n".join(m.content for m in table.rec.messages_sent())
        if built not in alice_hand | market:
            assert built not in said, "a card face down in another's hideout is never named"

        table.rec.clear()
        await table.command(CAROL, "game", "cards")
        spectator = "\n".join(m.content for m in table.rec.messages_sent())
        assert all(m.ephemeral for m in table.rec.messages_sent())
        assert "as everybody may see them" in spectator and "your hand" not in spectator
        for name in (alice_hand | bob_hand) - market:
            assert name not in spectator
    finally:
        await table.close()


async def test_a_game_without_cards_to_spell_out_says_where_its_rules_are(tmp_path: Path):
    table = await Session.open(tmp_path, GAMES)
    try:
        await table.start("sugar-blast", humans=[ALICE, BOB])
        answer = await table.command(BOB, "game", "cards")
        assert answer.ephemeral
        assert answer.content == ("**Sugar Blast** has no cards on the table to spell out: "
                                  "`/game rules` says how it plays.")
    finally:
        await table.close()
