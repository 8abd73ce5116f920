"""Drive the real discord.py machinery offline, for tests.

The offline Discord itself (:mod:`tools.offline`: the :class:`Recorder`
standing in for Discord's HTTP API with its notification rules, the
:class:`Gateway` building INTERACTION_CREATE payloads, :func:`settle`) lives in
the package, because ``candybot bench`` drives the bot with it too; this module
adds what only tests need: a :class:`Session`, a fake clock and fake pictures.

The API game tests may rely on (kept stable):

``session = await Session.open(tmp_path, games, renderer=...)``
    a bot on a fresh database with a fake clock; ``await session.close()`` at the end.
    ``renderer=None`` fakes pictures; pass ``renderers.render`` (or a wrapper that
    remembers which pictures were private) for real ones.
``await session.start(game, humans=(ALICE, BOB), ai=1, **options) -> Sent``
    opens a lobby as ``humans[0]``, seats the others and the AI players, presses Start;
    returns the first board message.
``await session.command(user, "game", "hand") -> Sent`` / ``session.play(user, text)``
    run a slash command; return the last message the bot sent or edited in answer.
``await session.click(user, sent_or_message_id, custom_id_or_ending, values=None) -> Sent``
    click a button (or choose ``values`` in a menu) of a recorded message as it stands.
``await session.suggest(user, typed) -> list[str]``
    the ``/play`` autocomplete values offered to ``user``.
``await session.state()``
    the channel's game state as saved (``None`` when no game is open).
``session.rec``: the :class:`Recorder`. ``rec.clear()`` forgets what was sent;
    ``rec.messages_sent()`` every message posted or edited (:class:`Sent`, with
    ``content``, ``ephemeral``, ``pngs``, ``gifs``, ``custom_ids``, ``edit``);
    ``rec.public()`` / ``rec.private()`` split them; ``rec.message(id)`` is a
    message as it stands after every edit; ``rec.notified()`` lists who each created
    message notified; ``rec.fail_when(test, status=..., accepted=...)`` makes a request
    fail.
``session.clock.advance(hours)`` then ``await session.bot.send_due()`` for reminders.

Hidden information: a test should assert that no public :class:`Sent` (text,
``pngs``, ``gifs``) and no autocomplete of another player names a secret.
"""

from __future__ import annotations

import io
import json
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from bot.app import create_bot
from bot.config import Settings
from bot.discord.client import CandyBot
from bot.games.engine import Engine, View
from bot.store import is_postgres
from tools.offline import (  # noqa: F401 (the tests import these from here)
    APP_ID,
    BACKGROUND,
    BOT_ID,
    BOT_USER,
    CHANNEL_ID,
    EPHEMERAL,
    GUILD_ID,
    MANAGE_CHANNELS,
    PNG_MAGIC,
    POOL_TASKS,
    Gateway,
    Notified,
    Recorder,
    Sent,
    UserOption,
    connect,
    settle,
    user_payload,
)


def fake_render(view: View) -> bytes:
    """A real PNG that depends on the view, so tests can tell boards apart."""
    image = Image.new("RGB", (64, 32), "white")
    ImageDraw.Draw(image).text((2, 2), json.dumps(view, sort_keys=True)[:40], fill="black")
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def latest_public(sent: Sequence[Sent], prefix: str) -> Sent | None:
    """The latest public message carrying a component whose custom id starts with ``prefix``."""
    for message in reversed(sent):
        if not message.ephemeral and any(c.startswith(prefix) for c in message.custom_ids):
            return message
    return None


class PictureLog:
    """A real renderer that remembers private pictures and every public view it drew.

    Tests pass it as the bot's renderer, then check that no public view names a
    hidden card and that no private picture reached the channel.
    """

    def __init__(self) -> None:
        self.private: set[bytes] = set()
        self.public_views: list[str] = []

    def __call__(self, view: View) -> bytes:
        from renderers import render

        png = render(view)
        if view.get("viewer") is None:
            self.public_views.append(json.dumps(view))
        else:
            self.private.add(png)
        return png


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += hours * 3600


class Session:
    """A bot on its own database driven by commands and clicks (see the module docstring)."""

    def __init__(self, bot: CandyBot, gw: Gateway, rec: Recorder, clock: Clock,
                 channel_id: int = CHANNEL_ID) -> None:
        self.bot = bot
        self.gw = gw
        self.rec = rec
        self.clock = clock
        self.channel_id = channel_id

    @classmethod
    async def open(cls, folder: Path, games: Mapping[str, Engine], *,
                   renderer: Callable[[View], bytes] | None = None) -> Session:
        rec, clock = Recorder(), Clock()
        bot, gw = await start_bot(folder / "bot.db", clock, games, rec, renderer=renderer)
        return cls(bot, gw, rec, clock)

    async def close(self) -> None:
        await self.bot.close()

    async def command(self, user: int, name: str, sub: str | None = None,
                      options: Mapping[str, Any] | None = None, **kw: Any) -> Sent:
        """Run a slash command; the last message sent or edited in answer."""
        self.rec.clear()
        await self.gw.send(self.gw.command(user, name, sub, options,
                                           channel_id=self.channel_id, **kw))
        return self.rec.last()

    async def play(self, user: int, text: str) -> Sent:
        """``/play action:<text>``."""
        return await self.command(user, "play", options={"action": text})

    async def suggest(self, user: int, typed: str = "") -> list[str]:
        """The values ``/play`` autocomplete offers ``user`` for ``typed``."""
        self.rec.clear()
        await self.gw.send(self.gw.command(user, "play", options={"action": typed},
                                           focused="action", channel_id=self.channel_id))
        return [c["value"] for c in self.rec.sent[-1].payload["data"]["choices"]]  # type: ignore[index]

    async def click(self, user: int, sent: Sent | int, custom_id: str, *,
                    values: Sequence[str] | None = None, permissions: int = 0) -> Sent:
        """Click the component whose id is (or ends with) ``custom_id`` on the message
        ``sent`` (or the message with that id) as it stands now."""
        message_id = sent if isinstance(sent, int) else sent.message_id
        assert message_id is not None, "only recorded messages can be clicked"
        message = self.rec.message(message_id)
        ids = [c["custom_id"] for row in message["components"] for c in row["components"]
               if "custom_id" in c]
        chosen = custom_id if custom_id in ids else next(
            (c for c in ids if c.endswith(custom_id)), None)
        assert chosen is not None, f"no component {custom_id!r} in {ids}"
        self.rec.clear()
        await self.gw.send(self.gw.click(user, message, chosen, values=values,
                                         permissions=permissions))
        return self.rec.last()

    def answer(self) -> Sent:
        """The private answer to the last command or click: the mover hears it before the
        channel's new board goes out, so it need not be the last message sent."""
        return self.rec.private()[-1]

    async def start(self, game: str, *, humans: Sequence[int], ai: int = 0,
                    **options: Any) -> Sent:
        """Open a lobby as ``humans[0]``, seat everyone, press Start: the first board."""
        lobby = await self.command(humans[0], "game", "new", {"game": game, **options})
        assert not lobby.ephemeral, lobby.content
        for user in humans[1:]:
            await self.click(user, lobby, ":join")
        for _ in range(ai):
            await self.click(humans[0], lobby, ":ai")
        return await self.click(humans[0], lobby, ":start")

    async def state(self) -> dict[str, Any] | None:
        """The channel's game state as saved, or ``None`` when no game is open."""
        record = await self.bot.tables.store.games.open_game(self.channel_id)
        if record is None or record.state_json is None:
            return None
        return json.loads(record.state_json)


def bot_settings(db: Path | str) -> Settings:
    """Settings for a bot on ``db``: a SQLite file, or a PostgreSQL URL (its local files
    then go to a folder of their own)."""
    if isinstance(db, str) and is_postgres(db):
        folder = Path(tempfile.mkdtemp(prefix="candybot-state-"))
        return Settings(token=None, db_path=folder / "state", db_url=db)
    return Settings(token=None, db_path=Path(db))


async def start_bot(db_path: Path | str, clock: Clock, games: Mapping[str, Engine],
                    recorder: Recorder, *, real_pictures: bool = False,
                    renderer: Callable[[View], bytes] | None = None) -> tuple[CandyBot, Gateway]:
    """A bot set up as ``login`` would, minus the network, on a SQLite file or a
    PostgreSQL URL.

    Test-only games have no renderer, so pictures are faked unless ``real_pictures``
    (or a ``renderer`` is given).
    """
    settings = bot_settings(db_path)
    if renderer is None and real_pictures:
        from renderers import render

        renderer = render
    bot = create_bot(settings, games=games, renderer=renderer or fake_render, clock=clock)
    return bot, await connect(bot, recorder)
