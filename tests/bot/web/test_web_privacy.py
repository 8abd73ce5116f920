"""No page, answer or picture of the web companion shows a seat's private information:
whole games of every game played through the bot offline, then every page of each read,
every position's words and picture asked for. Every picture is drawn from the spectators'
view of the replayed state (``game.view(state, None)``, which the invariant suite proves
leaks nothing), and no line only one seat may read appears in any answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.games import GAMES
from bot.games.engine import SeatInfo, View, loads
from tests.bot.web.web_harness import Site
from tests.support.whole_games import play_to_the_end

USER = 340000000000000001
#: One game with hidden hands in the default run; every game with ``-m slow``.
QUICK = "sugar-heist"


class Drawn:
    """A renderer that remembers every view it was asked to draw."""

    def __init__(self) -> None:
        self.views: list[str] = []

    def __call__(self, view: View) -> bytes:
        self.views.append(json.dumps(view, sort_keys=True))
        from tests.support.discord_harness import fake_render

        return fake_render(view)


def params() -> list[object]:
    return [pytest.param(slug, marks=() if slug == QUICK else pytest.mark.slow)
            for slug in sorted(GAMES)]


@pytest.mark.parametrize("slug", params())
async def test_no_page_of_a_whole_game_shows_what_only_one_seat_may_know(
        tmp_path: Path, slug: str) -> None:
    game = GAMES[slug]
    drawn = Drawn()
    site = await Site.open(tmp_path, GAMES, renderer=drawn)
    try:
        await site.allow()
        game_id, _sent = await play_to_the_end(site.session, game, USER)
        store = site.session.bot.tables.store
        record = await store.games.get_game(game_id)
        url = await site.server.service.link(record)
        assert url is not None
        drawn.views.clear()  # the channel's boards, drawn while the game was played
        actions = await store.moves.actions(game_id)
        answers = [(await site.get(p)).text for p in (url, url + "/live", url + "/replay")]
        for n in range(len(actions) + 1):
            answers.append((await site.get(f"{url}/move/{n}.json")).text)
            assert (await site.get(f"{url}/move/{n}.png")).status == 200
        assert (await site.get(url + "/board.png")).status == 200
        private = {line for a in actions for lines in a.private.values() for line in lines
                   if len(line) > 12}
        assert private or slug != QUICK, "nothing private to keep out"
        text = "\n".join(answers)
        leaked = sorted(line for line in private if line in text)
        assert not leaked, f"{slug}: a page shows {leaked[:2]}"
        for answer in answers:
            assert len(answer.encode()) < 100_000, "a page past 100 kB"
        # Every picture is a spectators' view of a position of the game, replayed.
        state = loads(record.state_json or "", game)
        seats = [SeatInfo(s["name"], s["ai"]) for s in state["seats"]]
        now = game.new(seats, record.seed or 0, dict(record.options), int(state["rules"]))
        public = {json.dumps(game.view(now, None), sort_keys=True)}
        for action in actions:
            now = game.apply(now, action.seat, action.notation).state
            public.add(json.dumps(game.view(now, None), sort_keys=True))
        assert len(drawn.views) == len(actions) + 2
        assert set(drawn.views[:-1]) <= public and drawn.views[-1] in public
        assert all(json.loads(v).get("viewer") is None for v in drawn.views)
    finally:
        await site.close()
