"""An offline Discord: the real bot, with only Discord's network replaced.

``candybot bench`` times a player's ``/play`` through it, and the tests drive
the bot with it; the running bot never imports it. One :class:`Recorder` is
Discord: it answers every REST request as Discord does and remembers it, and
holds the channels, threads and messages. It has two surfaces:

- **In process** (:func:`connect`): the bot's REST client (``bot.http.request``)
  and discord.py's webhook adapter (which carries interaction responses and
  followups) call the recorder, and :class:`Gateway` hands events (INTERACTION_CREATE
  above all, built here) to the bot's connection state, as discord.py's gateway does.
  This reaches into two discord.py internals, the connection state's parsers and the
  webhook adapter's context variable: the one place the project does.
- **Over sockets** (:mod:`tools.offline_http`): a loopback server answers Discord's
  REST routes through the same recorder and is Discord's gateway, a websocket
  (HELLO, heartbeats, IDENTIFY and READY, GUILD_CREATE with the active threads only,
  RESUME), over which the same :class:`Gateway` delivers a test's events and the
  recorder's own (:attr:`Recorder.announce`: a thread the bot's requests started,
  archived or deleted). A real ``candybot run`` process runs against it
  (:mod:`tools.offline_process`), and can be SIGKILLed at a chosen request, before
  Discord carries it out or after, the answer lost (``OfflineServer.kill_at``): the
  recorder splits a request's arrival (:meth:`Recorder.arrived`) from its answer
  (:meth:`Recorder.carry_out`) for that.

Discord's rules the bot relies on are copied (discord-api-docs #5497): only a
newly created, non-ephemeral message notifies, and only the mentioned users its
``allowed_mentions`` lets through. An edit (a PATCH, ``edit_original_response``,
a component's update) notifies nobody, and so does the first followup after a
"thinking" defer, because it replaces the placeholder (keeping the placeholder's
ephemerality). A channel message sent with a ``nonce`` and ``enforce_nonce`` is
created once per nonce: asked again, Discord answers with the message it made. A user
who closed their direct messages to the bot is refused any (403, code 50007); an
interaction's followups in a thread archived meanwhile are refused (50083), while a new
message in a thread that is archived but not locked unarchives it. An interaction must
get its first answer (the callback) within :data:`ANSWER_DEADLINE` seconds of its
creation and only once: a late one is refused as Discord refuses it (404, "Unknown
interaction", code 10062), a second one with 400 ("Interaction has already been
acknowledged", code 40060). :meth:`Recorder.fail_when` makes a request fail (5xx or
429), optionally after Discord carried it out, and :meth:`Recorder.die_when` makes the
bot die at a request (before or after Discord carried it out). :attr:`Recorder.limits`
(off unless set) copies Discord's rate limits (:mod:`tools.ratelimits`): a request over
one is answered 429. Channels and threads follow Discord's rules for them
(:class:`Channel`: archived and locked threads, the thread cap, permissions), and
:class:`Gateway` tells the bot of a moderator's locks and deletions, or lets them happen
while the bot is away.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.discord.client import CandyBot
from bot.watch import Watch, unwatched
from tools.ratelimits import RateLimits

APP_ID = 900000000000000001
BOT_ID = 900000000000000002
GUILD_ID = 800000000000000001
CHANNEL_ID = 700000000000000001
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
EPHEMERAL = 1 << 6
MANAGE_CHANNELS = 1 << 4
BOT_USER = {"id": str(BOT_ID), "username": "candybot", "discriminator": "0",
            "global_name": "CandyBot", "avatar": None, "bot": True}
#: The application, as logging in reads it (``GET /oauth2/applications/@me``).
APPLICATION = {"id": str(APP_ID), "name": "candybot", "description": "", "icon": None,
               "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
               "owner": {"id": "1", "username": "owner", "discriminator": "0",
                         "global_name": "Owner", "avatar": None},
               "team": None, "flags": 0, "interactions_endpoint_url": None}
#: Seconds Discord waits for an interaction's first answer before it drops the interaction.
ANSWER_DEADLINE = 3.0
UNKNOWN_INTERACTION = 10062
ALREADY_ACKNOWLEDGED = 40060
UNKNOWN_CHANNEL = 10003
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
THREAD_ARCHIVED = 50083
THREAD_LOCKED = 160005
CANNOT_MESSAGE_USER = 50007
MAX_ACTIVE_THREADS = 160006
#: Channel types (Discord's numbers).
TEXT, DM, PUBLIC_THREAD = 0, 1, 11
#: Permission bits the offline Discord checks.
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
ATTACH_FILES = 1 << 15
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 41) - 1
#: What the bot's invite link asks for (docs/discord.md): no Manage Threads, so it may
#: neither delete a thread, nor lock or unlock one, nor reopen one a moderator locked.
INVITED = (VIEW_CHANNEL | SEND_MESSAGES | ATTACH_FILES | CREATE_PUBLIC_THREADS
           | SEND_MESSAGES_IN_THREADS)
#: What the bot may do in a channel no test declared: everything but threads, so that a
#: game is played in its channel (one per channel). Thread mode is tested where a test
#: grants :data:`ALL_PERMISSIONS` (:meth:`Recorder.room`).
WITHOUT_THREADS = ALL_PERMISSIONS & ~(CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS)


@dataclass
class Channel:
    """A channel, thread or direct-message channel as the offline Discord keeps it.

    A thread takes its permissions from its parent. Discord's rules copied (its Threads
    topic and Modify Channel): an archived thread delivers no interaction; a message
    posted in an archived thread that is not locked unarchives it, while an edit there is
    refused (50083), as is any change to the thread that leaves it archived; posting in a
    thread needs Send Messages in Threads, starting one needs Create Public Threads, and a
    server holds at most :attr:`Recorder.max_active_threads` active threads (160006, when
    starting one or unarchiving one). A thread a moderator **locked** refuses every new
    message and every edit from someone without Manage Threads (160005, "Thread is
    locked"); only Manage Threads unarchives it, changes ``locked``, or deletes a thread
    (403, 50013).
    """

    id: int
    type: int = TEXT
    guild_id: int | None = GUILD_ID
    parent_id: int | None = None
    name: str = "games"
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    #: The bot's permissions here (a thread's are its parent's).
    permissions: int = WITHOUT_THREADS
    members: set[int] = field(default_factory=set)
    #: The user a direct-message channel reaches.
    recipient: int | None = None

    @property
    def thread(self) -> bool:
        return self.type == PUBLIC_THREAD

    def payload(self) -> dict[str, Any]:
        """The channel object Discord sends (in an interaction, a THREAD_UPDATE)."""
        out: dict[str, Any] = {"id": str(self.id), "type": self.type, "name": self.name}
        if self.type == DM:
            out["recipients"] = [user_payload(self.recipient or 0)]
            return out
        # A channel's permissions for the bot are an overwrite for its member (on a server
        # whose roles grant nothing): what reading the channel shows; a thread has none.
        bot = [] if self.thread else [{"id": str(BOT_ID), "type": 1, "deny": "0",
                                       "allow": str(self.permissions)}]
        out.update({"guild_id": str(self.guild_id), "position": 0, "nsfw": False,
                    "permission_overwrites": bot,
                    "parent_id": None if self.parent_id is None else str(self.parent_id)})
        if self.thread:
            out.update({"owner_id": str(BOT_ID), "message_count": 0, "member_count":
                        len(self.members), "rate_limit_per_user": 0,
                        "thread_metadata": {
                            "archived": self.archived, "locked": self.locked,
                            "auto_archive_duration": self.auto_archive_duration,
                            "archive_timestamp": "2024-01-01T00:00:00+00:00"}})
        return out



# --------------------------------------------------------------------------- recording


@dataclass
class Sent:
    """One request the bot made to Discord."""

    via: str  # "http" or "webhook"
    method: str
    path: str
    #: The JSON body: an object, or a list (commands registered all at once).
    payload: Any
    files: list[tuple[str, bytes]] = field(default_factory=list)
    message_id: int | None = None
    #: The first followup after a "thinking" defer: it replaces the placeholder (an edit).
    replaced: bool = False
    #: The HTTP status of an injected failure (``None`` when Discord answered normally).
    failed: int | None = None
    #: A failed request that Discord still carried out (the answer was lost).
    accepted: bool = False
    #: A repeated nonce: Discord returned the earlier message and created nothing.
    duplicate: bool = False
    #: The flags of the message as Discord keeps it (a replaced placeholder keeps its own).
    kept_flags: int | None = None
    #: The user a message in a direct-message channel reaches.
    dm_to: int | None = None
    #: The channel the message is in (``None`` for requests outside any channel).
    channel_id: int | None = None
    #: When the request reached Discord (``time.perf_counter``).
    at: float = field(default_factory=time.perf_counter)

    @property
    def body(self) -> dict[str, Any]:
        """The message part: for interaction callbacks it sits under ``data``."""
        payload = self.payload if isinstance(self.payload, dict) else {}
        if self.path.endswith("/callback"):
            return payload.get("data") or {}
        return payload

    @property
    def content(self) -> str:
        return str(self.body.get("content") or "")

    @property
    def alt_texts(self) -> list[str]:
        """Each file's alt text (its attachment's ``description``), in order; "" for none."""
        said = {str(a.get("id")): str(a.get("description") or "")
                for a in self.body.get("attachments") or [] if isinstance(a, dict)}
        return [said.get(str(n), "") for n in range(len(self.files))]

    @property
    def ephemeral(self) -> bool:
        flags = self.kept_flags if self.kept_flags is not None else self.body.get("flags")
        return bool(int(flags or 0) & EPHEMERAL)

    @property
    def components(self) -> list[dict[str, Any]]:
        return list(self.body.get("components") or [])

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", [])
                if "custom_id" in c]

    @property
    def kind(self) -> int | None:
        return (self.payload or {}).get("type") if self.path.endswith("/callback") else None

    @property
    def pngs(self) -> list[bytes]:
        return [data for _, data in self.files if data.startswith(PNG_MAGIC)]

    @property
    def gifs(self) -> list[bytes]:
        return [data for _, data in self.files if data.startswith(b"GIF8")]

    @property
    def edit(self) -> bool:
        """An edit of an existing message (not a new one), for Discord's notifications too."""
        return self.method == "PATCH" or self.kind == 7 or self.replaced

    @property
    def media_only(self) -> bool:
        """An edit that only changes the attachments (text and buttons stay as they are)."""
        return self.method == "PATCH" and bool(self.files) and not (
            {"content", "components", "embeds"} & set(self.body))

    @property
    def created(self) -> bool:
        """A new message Discord created (an edit, a refused request or a repeat is not)."""
        if self.edit or self.duplicate or self.method != "POST" or self.kind in (5, 6):
            return False
        if self.failed is not None and not self.accepted:
            return False
        return bool(self.body.get("content") or self.files or self.components)

    @property
    def mentioned(self) -> list[int]:
        """The users the text mentions (``<@id>`` or ``<@!id>``), in order."""
        return [int(m) for m in _MENTION.findall(self.content)]

    def notifies(self) -> frozenset[int]:
        """Who this request notified: Discord's rules for a created message's mentions
        (a direct message notifies its reader whatever it mentions)."""
        if not self.created or self.ephemeral:
            return frozenset()
        if self.dm_to is not None:
            return frozenset({self.dm_to})
        mentioned = set(self.mentioned)
        allowed = self.body.get("allowed_mentions")
        if allowed is None:  # no allowed_mentions: Discord parses every mention
            return frozenset(mentioned)
        if "users" in (allowed.get("parse") or []):
            return frozenset(mentioned)
        return frozenset(mentioned & {int(u) for u in allowed.get("users") or []})


_MENTION = re.compile(r"<@!?(\d+)>")


@dataclass(frozen=True)
class Notified:
    """A created message that notified ``users``."""

    sent: Sent
    users: frozenset[int]


class Recorder:
    """Stands in for Discord's HTTP API and remembers every request."""

    def __init__(self) -> None:
        self.sent: list[Sent] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.failures: list[tuple[Callable[[Sent], bool], int, bool]] = []
        self.deaths: list[tuple[Callable[[Sent], bool], bool]] = []
        self._ids = itertools.count(600000000000000001)
        self._originals: dict[str, int] = {}
        #: Interaction tokens whose "thinking" placeholder waits for its first followup.
        self._thinking: dict[str, int] = {}
        #: The message each component interaction was clicked on (its "original").
        self.clicked: dict[str, int] = {}
        #: The channel each interaction came from: its answers appear there.
        self.channels: dict[str, int] = {}
        self._nonces: dict[tuple[int, str], dict[str, Any]] = {}
        #: Direct-message channels the bot opened, and the user each one reaches; the users
        #: who take no direct message from the bot (Discord refuses them with 50007).
        self.dm_channels: dict[int, int] = {}
        self.closed_dms: set[int] = set()
        #: When each interaction reached the bot (``time.monotonic``), by token, and the
        #: tokens already answered: the first answer must come within the deadline, once.
        self.created: dict[str, float] = {}
        self.answered: set[str] = set()
        self.deadline = ANSWER_DEADLINE
        #: Discord's rate limits, when a test or the bench sets them (``None``: no limits).
        self.limits: RateLimits | None = None
        #: Every channel, thread and DM channel Discord knows (see :class:`Channel`); a
        #: channel the tests never declared is a text channel where the bot may do all.
        self.rooms: dict[int, Channel] = {}
        self.max_active_threads = 1000
        #: Channels and threads deleted (by a moderator): requests there get 10003.
        self.gone: set[int] = set()
        #: Users who left the server: Discord answers a request for them as its member
        #: (Get Guild Member) with 404, Unknown Member (10007).
        self.departed: set[int] = set()
        #: Interactions Discord did not deliver (clicked in an archived thread).
        self.undelivered: list[dict[str, Any]] = []
        #: Times the offline Discord's own work (the bench keeps it apart from the bot's).
        self.watch: Watch = unwatched
        #: Where Discord's own gateway events go (a thread started, archived or deleted by
        #: a request): the socket surface sends them to the bot (``None``: nowhere; in
        #: process, a test delivers the events it needs through :class:`Gateway`).
        self.announce: Callable[[str, dict[str, Any]], None] | None = None
        #: The servers the bot is in, with their names (a room's server is one too).
        self.servers: dict[int, str] = {GUILD_ID: "Candy Club"}
        #: The slash commands registered (``candybot sync``), as Discord keeps them: under
        #: ``None`` the global ones, else under the server's id.
        self.commands: dict[int | None, list[dict[str, Any]]] = {}

    def room(self, channel_id: int) -> Channel:
        """The channel ``channel_id``, a text channel if nothing else was declared."""
        if channel_id not in self.rooms:
            self.rooms[channel_id] = Channel(channel_id)
        return self.rooms[channel_id]

    def permissions_in(self, channel_id: int) -> int:
        """The bot's permissions in a channel (a thread's are its parent's)."""
        room = self.room(channel_id)
        if room.thread and room.parent_id is not None:
            return self.room(room.parent_id).permissions
        return room.permissions

    def threads(self, parent_id: int | None = None) -> list[Channel]:
        """The threads Discord holds (of ``parent_id`` only, when given)."""
        return [r for r in self.rooms.values() if r.thread
                and (parent_id is None or r.parent_id == parent_id)]

    def server_ids(self) -> list[int]:
        """The servers the bot is in: those of :attr:`servers` and of the rooms."""
        return sorted(set(self.servers) | {r.guild_id for r in self.rooms.values()
                                           if r.guild_id is not None})

    def server(self, guild_id: int = GUILD_ID) -> dict[str, Any]:
        """The server as Discord's Get Guild reads it: its ``@everyone`` role (the server's
        id) grants nothing, the bot's permissions are its channels' (:meth:`Channel.payload`)."""
        everyone = {"id": str(guild_id), "name": "@everyone", "permissions": "0",
                    "position": 0, "color": 0, "hoist": False, "managed": False,
                    "mentionable": False, "flags": 0}
        return {"id": str(guild_id), "name": self.servers.get(guild_id, f"Server {guild_id}"),
                "icon": None, "owner_id": "1", "roles": [everyone], "emojis": [],
                "stickers": [], "features": []}

    def guild(self, guild_id: int = GUILD_ID) -> dict[str, Any]:
        """The server as the gateway announces it on connecting (GUILD_CREATE): its
        channels, and its threads that are active (Discord leaves archived ones out)."""
        rooms = [r for r in self.rooms.values() if r.guild_id == guild_id]
        return {
            **self.server(guild_id), "member_count": 1,
            "members": [], "voice_states": [], "presences": [], "unavailable": False,
            "channels": [r.payload() for r in rooms if not r.thread],
            "threads": [r.payload() for r in rooms if r.thread and not r.archived]}

    def _tell(self, event: str, data: dict[str, Any]) -> None:
        """Announce a change on the gateway, as Discord does (see :attr:`announce`)."""
        if self.announce is not None:
            self.announce(event, data)

    # ----------------------------------------------------------------- installing

    def install(self, bot: CandyBot) -> None:
        bot.http.request = self._http  # type: ignore[method-assign]
        async_context.set(_Adapter(self))

    def die_when(self, test: Callable[[Sent], bool], *, carried_out: bool = False) -> None:
        """Make the bot die (:class:`Died`) at the next request matching ``test``: before
        Discord sees it, or once Discord ``carried_out`` it (its answer never heard)."""
        self.deaths.append((test, carried_out))

    def fail_when(self, test: Callable[[Sent], bool], *, status: int = 500,
                  accepted: bool = False) -> None:
        """Make the next request matching ``test`` fail with ``status`` (500, 503, 429...).

        With ``accepted`` Discord carries the request out but the answer is lost (the
        message exists, the bot sees an error), as after a timeout.
        """
        self.failures.append((test, status, accepted))

    # ----------------------------------------------------------------- queries

    def clear(self) -> None:
        self.sent.clear()

    def messages_sent(self) -> list[Sent]:
        """Requests that post or rewrite message text (not defers, deletes or button clean-up)."""
        return [s for s in self.sent if s.method in ("POST", "PATCH")
                and s.kind not in (5, 6) and (s.body.get("content") or s.files)]

    def last(self) -> Sent:
        """The last message sent or edited in answer (not counting a movement GIF added
        to a board afterwards: see :meth:`movements`)."""
        return [s for s in self.messages_sent() if not s.media_only][-1]

    def movements(self) -> list[Sent]:
        """The edits that added a movement GIF to a board already shown."""
        return [s for s in self.messages_sent() if s.media_only and s.gifs]

    def public(self) -> list[Sent]:
        """Messages everybody in the channel can see."""
        return [s for s in self.messages_sent() if not s.ephemeral]

    def private(self) -> list[Sent]:
        """Ephemeral messages (only the user who acted sees them)."""
        return [s for s in self.messages_sent() if s.ephemeral]

    def message(self, message_id: int) -> dict[str, Any]:
        """A message as it stands now, after every edit."""
        return self.messages[message_id]

    def notified(self) -> list[Notified]:
        """Every created message that notified someone, in order, with whom it notified."""
        out = []
        for sent in self.sent:
            users = sent.notifies()
            if users:
                out.append(Notified(sent, users))
        return out

    def direct_messages(self) -> list[Sent]:
        """Messages created in direct-message channels."""
        return [s for s in self.sent if s.dm_to is not None and s.created]

    def notified_users(self) -> list[int]:
        """Every notification in order: a user notified twice appears twice."""
        return [user for notice in self.notified() for user in sorted(notice.users)]

    # ----------------------------------------------------------------- handling

    async def _http(self, route: Any, *, files: Any = None, form: Any = None,
                    **kwargs: Any) -> Any:
        return self._handle("http", route.method, route.url, kwargs.get("json"), form)

    def _handle(self, via: str, method: str, url: str, payload: dict[str, Any] | None,
                multipart: list[dict[str, Any]] | None) -> Any:
        with self.watch("offline Discord"):
            return self.carry_out(self.arrived(via, method, url, payload, multipart))

    def arrived(self, via: str, method: str, url: str, payload: dict[str, Any] | None,
                multipart: list[dict[str, Any]] | None) -> Sent:
        """A request as it reaches Discord, before Discord does anything with it (the
        socket surface may kill the bot here: :mod:`tools.offline_http`)."""
        files: list[tuple[str, bytes]] = []
        if multipart:
            for part in multipart:
                if part["name"] == "payload_json":
                    payload = json.loads(part["value"])
                else:
                    value = part["value"]
                    value.seek(0)
                    files.append((part.get("filename", ""), value.read()))
        path = url.split("discord.com/api/v10", 1)[-1]
        sent = Sent(via, method, path, payload, files)
        sent.channel_id = self._channel_of(path)
        return sent

    def carry_out(self, sent: Sent) -> Any:
        """Answer a request that :meth:`arrived` as Discord does: refuse it (a rate limit,
        a rule, an injected failure: raised as discord.py raises it) or carry it out."""
        method, path = sent.method, sent.path
        over = self.limits.admit(method, path) if self.limits is not None else None
        if over is not None:
            self.sent.append(sent)
            sent.failed = over.status
            raise over
        refused = (self._refused_answer(sent) or self._refused_by_rules(sent)
                   or _refused_components(sent) or self._refused_by_servers(sent))
        if refused is not None:
            self.sent.append(sent)
            sent.failed = refused.status
            raise refused
        for death in list(self.deaths):
            test, carried_out = death
            if test(sent):
                self.deaths.remove(death)
                if carried_out:
                    self.sent.append(sent)
                    self._reply(sent)
                raise Died(f"{sent.method} {sent.path}")
        for failure in list(self.failures):
            test, status, accepted = failure
            if test(sent):
                self.failures.remove(failure)
                self.sent.append(sent)
                sent.failed, sent.accepted = status, accepted
                if accepted:
                    self._reply(sent)
                raise _failure(status)
        self.sent.append(sent)
        return self._reply(sent)

    def _refused_answer(self, sent: Sent) -> discord.HTTPException | None:
        """Discord's answer to an interaction callback that comes too late or twice."""
        if not sent.path.endswith("/callback"):
            return None
        token = sent.path.strip("/").split("/")[2]
        if token in self.answered:
            return _failure(400, ALREADY_ACKNOWLEDGED,
                            "Interaction has already been acknowledged.")
        created = self.created.get(token)
        if created is not None and time.monotonic() - created > self.deadline:
            return _failure(404, UNKNOWN_INTERACTION, "Unknown interaction")
        return None

    def _refused_by_rules(self, sent: Sent) -> discord.HTTPException | None:
        """Discord's answer to a request its channel rules refuse (see :class:`Channel`).

        A followup or an edit of an interaction's answer in a thread archived since the
        interaction came is refused (50083), as a message there would be; a message to a
        user who takes no direct messages from the bot is refused (403, 50007)."""
        parts = sent.path.strip("/").split("/")
        if parts[0] == "webhooks" and sent.method in ("POST", "PATCH") \
                and sent.channel_id is not None:
            room = self.rooms.get(sent.channel_id)
            if room is not None and room.thread and room.archived:
                return _failure(400, THREAD_ARCHIVED, "Thread is archived")
            return None
        if parts[0] != "channels" or len(parts) < 2 or not parts[1].isdigit():
            return None
        channel_id = int(parts[1])
        if channel_id in self.gone:
            return _failure(404, UNKNOWN_CHANNEL, "Unknown Channel")
        if self.dm_channels.get(channel_id) in self.closed_dms and sent.method == "POST":
            return _failure(403, CANNOT_MESSAGE_USER, "Cannot send messages to this user")
        room = self.room(channel_id)
        allowed = self.permissions_in(channel_id)
        moderates = bool(allowed & MANAGE_THREADS)
        if len(parts) == 2 and sent.method == "GET" and room.type != DM \
                and not allowed & VIEW_CHANNEL:
            return _failure(403, MISSING_ACCESS, "Missing Access")
        if len(parts) == 3 and parts[2] == "messages" and sent.method == "POST":
            need = SEND_MESSAGES_IN_THREADS if room.thread else SEND_MESSAGES
            if room.type != DM and not allowed & need:
                return _failure(403, MISSING_PERMISSIONS, "Missing Permissions")
            if room.thread and room.locked and not moderates:
                return _failure(400, THREAD_LOCKED, "Thread is locked")
            return None
        if len(parts) == 2:
            return self._refused_change(sent, room, allowed)
        if len(parts) >= 4 and parts[2] == "messages":
            message_id = int(parts[3])
            if message_id not in self.messages or self.messages[message_id].get("deleted"):
                return _failure(404, UNKNOWN_MESSAGE, "Unknown Message")
            if len(parts) == 5 and parts[4] == "threads":
                if not allowed & CREATE_PUBLIC_THREADS:
                    return _failure(403, MISSING_PERMISSIONS, "Missing Permissions")
                if self._active_threads(room.guild_id) >= self.max_active_threads:
                    return _failure(400, MAX_ACTIVE_THREADS,
                                    "Maximum number of active threads reached")
                return None
            if sent.method in ("PATCH", "DELETE") and room.thread and room.archived:
                return _failure(400, THREAD_ARCHIVED, "Thread is archived")
            if sent.method == "PATCH" and room.thread and room.locked and not moderates:
                return _failure(400, THREAD_LOCKED, "Thread is locked")
        return None

    def _refused_by_servers(self, sent: Sent) -> discord.HTTPException | None:
        """Discord's answer to reading a server the bot is not in or a member who is not
        there (every user is a member of the servers the bot is in, until they leave:
        :attr:`departed`), or to commands registered in a server the bot is not in or that
        break the rules for commands (:func:`_refused_commands`)."""
        parts = sent.path.strip("/").split("/")
        if parts[0] == "guilds" and len(parts) > 1:
            if int(parts[1]) not in self.server_ids():
                return _failure(403, MISSING_ACCESS, "Missing Access")
            if len(parts) == 4 and parts[2] == "members" and parts[3] != str(BOT_ID) \
                    and (not parts[3].isdigit() or int(parts[3]) in self.departed):
                return _failure(404, UNKNOWN_MEMBER, "Unknown Member")
        if parts[0] == "applications" and sent.method == "PUT":
            if len(parts) == 5 and int(parts[3]) not in self.server_ids():
                return _failure(403, MISSING_ACCESS, "Missing Access")
            return _refused_commands(sent.payload)
        return None

    def _active_threads(self, guild_id: int | None) -> int:
        return sum(1 for r in self.threads() if not r.archived and r.guild_id == guild_id)

    def _refused_change(self, sent: Sent, room: Channel,
                        allowed: int) -> discord.HTTPException | None:
        """Discord's answer to changing or deleting a channel or thread that its rules
        refuse (Modify Channel's thread parameters, Delete Channel)."""
        forbidden = _failure(403, MISSING_PERMISSIONS, "Missing Permissions")
        if sent.method == "DELETE":
            need = MANAGE_THREADS if room.thread else MANAGE_CHANNELS
            return None if allowed & need else forbidden
        if sent.method != "PATCH" or not room.thread:
            return None
        body = sent.body
        moderates = bool(allowed & MANAGE_THREADS)
        archived = bool(body.get("archived", room.archived))
        locked = bool(body.get("locked", room.locked))
        if locked != room.locked and not moderates:
            return forbidden
        if room.archived and not archived:
            if room.locked and not moderates:
                return forbidden  # only Manage Threads reopens a locked thread
            if self._active_threads(room.guild_id) >= self.max_active_threads:
                return _failure(400, MAX_ACTIVE_THREADS,
                                "Maximum number of active threads reached")
        elif room.archived:
            return _failure(400, THREAD_ARCHIVED, "Thread is archived")
        return None

    def _channel_of(self, path: str) -> int | None:
        parts = path.strip("/").split("/")
        if parts[0] == "channels" and len(parts) > 1 and parts[1].isdigit():
            return int(parts[1])
        if parts[0] in ("interactions", "webhooks") and len(parts) > 2:
            return self.channels.get(parts[2])
        return None

    def _reply(self, sent: Sent) -> Any:
        parts = sent.path.strip("/").split("/")
        if sent.method == "DELETE" and parts[0] != "channels":
            if parts[0] == "webhooks" and len(parts) >= 5 and parts[4] == "@original":
                # A deleted placeholder is gone: the next followup is a new message.
                self._thinking.pop(parts[2], None)
            return None
        if parts[0] == "interactions":
            token = parts[2]
            self.answered.add(token)
            message_id = self.clicked.get(token) if sent.kind in (6, 7) else None
            if message_id is None:
                message_id = next(self._ids)
            self._originals[token] = message_id
            if sent.kind in (4, 5):
                self._store(message_id, self.channels.get(token, CHANNEL_ID), sent)
            if sent.kind == 5:
                self._thinking[token] = int(sent.body.get("flags") or 0)
            elif sent.kind == 7:
                self._store(message_id, self.channels.get(token, CHANNEL_ID), sent, edit=True)
            sent.message_id = message_id
            return {"interaction": {"id": parts[1], "type": 2,
                                    "response_message_id": str(message_id)}}
        if parts[0] == "users" and parts[1:3] == ["@me", "channels"]:
            user = int(sent.body["recipient_id"])
            channel_id = next((c for c, u in self.dm_channels.items() if u == user), 0) \
                or next(self._ids)
            self.dm_channels[channel_id] = user
            self.rooms[channel_id] = Channel(channel_id, DM, None, recipient=user)
            return {"id": str(channel_id), "type": 1, "last_message_id": None,
                    "recipients": [user_payload(user)]}
        if parts[0] == "users" and parts[1:] == ["@me", "guilds"] and sent.method == "GET":
            # Get Current User Guilds: partial servers, the bot's permissions there
            # without its channels' overwrites (one page: fewer servers than it holds).
            return [{**{k: v for k, v in self.server(g).items() if k in ("id", "name", "icon",
                                                                        "features")},
                     "banner": None, "owner": False, "permissions": "0"}
                    for g in self.server_ids()]
        if parts[0] == "guilds" and sent.method == "GET":
            guild_id = int(parts[1])
            if len(parts) == 2:
                return self.server(guild_id)
            if parts[2:] == ["channels"]:  # Get Guild Channels: no threads
                return [r.payload() for r in self.rooms.values()
                        if r.guild_id == guild_id and not r.thread]
            if len(parts) == 4 and parts[2] == "members":
                # Get Guild Member: the bot itself, or a user (one who left: refused
                # with Unknown Member, _refused_by_servers).
                member = BOT_USER if parts[3] == str(BOT_ID) \
                    else user_payload(int(parts[3]))
                return {"user": member, "roles": [], "nick": None, "avatar": None,
                        "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False,
                        "mute": False, "flags": 0, "pending": False}
        if parts[0] == "applications" and parts[-1] == "commands" and sent.method == "PUT":
            # Bulk Overwrite Global (or Guild) Application Commands: the list replaces
            # whatever was registered there, each command given its ids.
            guild = int(parts[3]) if len(parts) == 5 else None
            self.commands[guild] = [
                {**command, "id": str(next(self._ids)), "application_id": str(APP_ID),
                 "version": str(next(self._ids)), "type": command.get("type", 1),
                 **({"guild_id": str(guild)} if guild is not None else {})}
                for command in sent.payload]
            return self.commands[guild]
        if parts[0] == "channels" and len(parts) == 5 and parts[4] == "threads":
            return self._start_thread(int(parts[1]), int(parts[3]), sent.body)
        if parts[0] == "channels" and len(parts) == 2 and sent.method == "GET":
            return self.room(int(parts[1])).payload()
        if parts[0] == "channels" and len(parts) == 2 and sent.method == "DELETE":
            gone = int(parts[1])
            self.gone.add(gone)
            room = self.rooms.pop(gone, Channel(gone))
            payload = room.payload()
            self._tell("THREAD_DELETE" if room.thread else "CHANNEL_DELETE", payload)
            return payload
        if parts[0] == "channels" and len(parts) == 2 and sent.method == "PATCH":
            room = self.room(int(parts[1]))
            room.archived = bool(sent.body.get("archived", room.archived))
            room.locked = bool(sent.body.get("locked", room.locked))
            room.auto_archive_duration = int(sent.body.get("auto_archive_duration",
                                                           room.auto_archive_duration))
            if room.thread:
                self._tell("THREAD_UPDATE", room.payload())
            return room.payload()
        if parts[0] == "channels" and len(parts) == 4 and parts[2] == "thread-members":
            self.room(int(parts[1])).members.add(
                BOT_ID if parts[3] == "@me" else int(parts[3]))
            return None
        if parts[0] == "channels" and sent.method == "DELETE":
            if len(parts) == 4:
                self.messages[int(parts[3])]["deleted"] = True
            return None
        if parts[0] == "channels":
            channel_id = int(parts[1])
            sent.dm_to = self.dm_channels.get(channel_id)
            room = self.room(channel_id)
            if sent.method == "POST" and room.thread and room.archived:
                room.archived = False  # a post unarchives a thread that is not locked
                self._tell("THREAD_UPDATE", room.payload())
            if sent.method == "POST":
                nonce = str(sent.body.get("nonce") or "")
                earlier = self._nonces.get((channel_id, nonce)) \
                    if nonce and sent.body.get("enforce_nonce") else None
                if earlier is not None:
                    sent.duplicate = True
                    sent.message_id = int(earlier["id"])
                    return earlier
                message_id = next(self._ids)
            else:
                message_id = int(parts[3])
            sent.message_id = message_id
            stored = self._store(message_id, channel_id, sent)
            if sent.method == "POST" and sent.body.get("nonce"):
                self._nonces[(channel_id, str(sent.body["nonce"]))] = stored
            return stored
        if parts[0] == "webhooks":
            token = parts[2]
            if len(parts) >= 5 and parts[4] == "@original":
                message_id = self._originals.get(token, 0)
                # Once edited, the placeholder is an answer: later followups are new.
                self._thinking.pop(token, None)
            elif len(parts) >= 5:
                message_id = int(parts[4])
            elif sent.method == "POST" and token in self._thinking:
                # The first followup after "thinking" replaces the placeholder: an edit,
                # which keeps the placeholder's ephemerality and notifies nobody.
                sent.replaced = True
                sent.kept_flags = self._thinking.pop(token)
                message_id = self._originals[token]
                sent.message_id = message_id
                return self._store(message_id, self.channels.get(token, CHANNEL_ID), sent,
                                   edit=True)
            else:
                message_id = next(self._ids)
            sent.message_id = message_id
            return self._store(message_id, self.channels.get(token, CHANNEL_ID), sent)
        raise AssertionError(f"unexpected request {sent.method} {sent.path}")

    def _start_thread(self, channel_id: int, message_id: int,
                      body: dict[str, Any]) -> dict[str, Any]:
        """A public thread started from a message: it has the message's id."""
        parent = self.room(channel_id)
        thread = Channel(message_id, PUBLIC_THREAD, parent.guild_id, channel_id,
                         name=str(body.get("name") or "thread"),
                         auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
                         members={BOT_ID})
        self.rooms[message_id] = thread
        self.messages[message_id]["thread"] = thread.payload()
        self._tell("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread.payload()

    def _attachments(self, sent: Sent) -> list[dict[str, Any]]:
        """The attachments Discord makes of a request's files."""
        return [_attachment_payload(next(self._ids), name, data, alt)
                for (name, data), alt in zip(sent.files, sent.alt_texts, strict=True)]

    def _store(self, message_id: int, channel_id: int, sent: Sent, *,
               edit: bool = False) -> dict[str, Any]:
        body = sent.body
        old = self.messages.get(message_id)
        if (sent.method == "PATCH" or edit) and old is not None:
            # An edit changes only what it names (a message's flags stay as they were).
            if sent.kept_flags is None:
                sent.kept_flags = int(old.get("flags") or 0)
            merged = dict(old)
            for key in ("content", "components"):
                if key in body:
                    merged[key] = body[key] if body[key] is not None else \
                        ("" if key == "content" else [] if key == "components" else 0)
            if "attachments" in body or sent.files:
                # Discord keeps the attachments an edit lists by id, adds its new files
                # and drops the rest (an edit naming no attachments keeps them all).
                kept = {str(a.get("id")) for a in body.get("attachments") or []}
                merged["attachments"] = [a for a in old.get("attachments", [])
                                         if "attachments" not in body or a["id"] in kept]
                merged["attachments"] += self._attachments(sent)
            merged["edited_timestamp"] = "2024-01-01T00:00:01+00:00"
            self.messages[message_id] = merged
            return merged
        message = {
            "id": str(message_id), "channel_id": str(channel_id), "type": 0,
            "content": body.get("content") or "", "author": BOT_USER,
            "attachments": self._attachments(sent),
            "embeds": [], "mentions": [], "mention_roles": [], "pinned": False,
            "mention_everyone": False, "tts": False, "timestamp": "2024-01-01T00:00:00+00:00",
            "edited_timestamp": None, "flags": int(body.get("flags") or 0),
            "components": body.get("components") or [],
        }
        self.messages[message_id] = message
        return message


class Died(BaseException):
    """The bot's process dies at a request (:meth:`Recorder.die_when`): raised through
    every handler (none catches more than :class:`Exception`), so nothing the bot would
    have done after it happens; a test then starts a new bot on the same database and
    the same offline Discord, as a restart after SIGKILL would."""


def _attachment_payload(attachment_id: int, filename: str, data: bytes,
                        description: str = "") -> dict[str, Any]:
    url = f"https://cdn.discordapp.com/attachments/{attachment_id}/{filename}"
    out = {"id": str(attachment_id), "filename": filename, "size": len(data), "url": url,
           "proxy_url": url}
    if description:
        out["description"] = description  # the alt text, as Discord keeps it
    return out


class _Adapter(AsyncWebhookAdapter):
    """discord.py's webhook adapter with the network replaced by the recorder."""

    def __init__(self, recorder: Recorder) -> None:
        super().__init__()
        self.recorder = recorder

    async def request(self, route: Any, session: Any, *, payload: Any = None,
                      multipart: Any = None, files: Any = None, **kwargs: Any) -> Any:
        return self.recorder._handle("webhook", route.method, route.url, payload, multipart)


#: Discord's code for a request body it cannot take ("Invalid Form Body").
INVALID_FORM_BODY = 50035
#: A button's limits: its label, a custom id, a link button's address.
BUTTON_LABEL, CUSTOM_ID, LINK_URL = 80, 100, 512
LINK_STYLE = 5


def _refused_components(sent: Sent) -> discord.HTTPException | None:
    """Discord's answer to a message whose buttons break its rules: a link button (style
    5) has an http(s) address of at most 512 characters and no custom id, any other button
    a custom id of at most 100; a label has at most 80 characters."""
    payload = sent.payload if isinstance(sent.payload, dict) else {}
    data = payload.get("data") if isinstance(payload.get("data"), dict) else payload
    rows = data.get("components") if isinstance(data, dict) else None
    for row in rows or ():
        for item in row.get("components", ()) if isinstance(row, dict) else ():
            if not isinstance(item, dict) or item.get("type") != 2:
                continue
            url, custom = item.get("url"), item.get("custom_id")
            if item.get("style") == LINK_STYLE:
                wrong = (custom is not None or not isinstance(url, str)
                         or not url.startswith(("https://", "http://"))
                         or len(url) > LINK_URL)
            else:
                wrong = url is not None or not custom or len(custom) > CUSTOM_ID
            if wrong or len(str(item.get("label") or "")) > BUTTON_LABEL:
                return _failure(400, INVALID_FORM_BODY, "Invalid Form Body")
    return None


#: Discord's limits on slash commands (its Application Commands topic): names, descriptions,
#: options and choices a command, commands an application (per scope), characters a command.
NAME, DESCRIPTION, OPTIONS, CHOICES, COMMANDS, COMMAND_CHARACTERS = 32, 100, 25, 25, 100, 4000
#: An option whose type nests options: a subcommand, a group of them.
SUBCOMMAND_TYPES = (1, 2)


def _refused_commands(commands: Any) -> discord.HTTPException | None:
    """Discord's answer to slash commands registered all at once that break its rules
    (400, Invalid Form Body): at most 100 slash commands, no name twice; a name of 1 to 32
    characters, lowercase where a letter has a lowercase, of letters, digits, ``-``, ``_``
    and ``'``; a description of 1 to 100; at most 25 options (required ones first, no name
    twice) and 25 choices an option; at most 4000 characters a command in its names,
    descriptions and choices."""
    invalid = _failure(400, INVALID_FORM_BODY, "Invalid Form Body")
    if not isinstance(commands, list) or not all(isinstance(c, dict) for c in commands):
        return invalid
    slash = [c for c in commands if c.get("type", 1) == 1]
    names = [(c.get("type", 1), c.get("name")) for c in commands]
    if len(slash) > COMMANDS or len(set(names)) != len(names):
        return invalid
    for command in slash:
        counted = _command_characters(command)
        if counted is None or counted > COMMAND_CHARACTERS:
            return invalid
    return None


def _command_characters(item: dict[str, Any]) -> int | None:
    """The characters a slash command (or an option of one) counts towards its limit, or
    ``None`` when it breaks a rule."""
    name, about = str(item.get("name") or ""), str(item.get("description") or "")
    if not (1 <= len(name) <= NAME and all(c.isalnum() or c in "-_'" for c in name)
            and name == name.lower() and 1 <= len(about) <= DESCRIPTION):
        return None
    options = item.get("options") or []
    choices = item.get("choices") or []
    required = [bool(o.get("required")) for o in options
                if o.get("type") not in SUBCOMMAND_TYPES]
    if (len(options) > OPTIONS or len(choices) > CHOICES or required != sorted(
            required, reverse=True) or len({o.get("name") for o in options}) != len(options)):
        return None
    counted = len(name) + len(about)
    for choice in choices:
        label = str(choice.get("name") or "")
        if not 1 <= len(label) <= DESCRIPTION:
            return None
        counted += len(label) + len(str(choice.get("value")))
    for option in options:
        inner = _command_characters(option)
        if inner is None:
            return None
        counted += inner
    return counted


def _failure(status: int, code: int = 0, message: str = "injected failure",
             ) -> discord.HTTPException:
    """The error discord.py raises for ``status`` (a 429 once its own retries gave up),
    with Discord's JSON error ``code`` when one is given."""
    response = SimpleNamespace(status=status, reason="injected")
    body: str | dict[str, Any] = {"code": code, "message": message} if code else message
    if status >= 500:
        return discord.DiscordServerError(response, body)  # type: ignore[arg-type]
    if status == 403:
        return discord.Forbidden(response, body)  # type: ignore[arg-type]
    if status == 404:
        return discord.NotFound(response, body)  # type: ignore[arg-type]
    return discord.HTTPException(response, body)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- payloads


#: Interaction ids, unique across every gateway of the run as Discord's snowflakes are (a
#: bot restarted in a test, or a second process, never sees an id again by chance).
_INTERACTION_IDS = itertools.count(500000000000000001)


#: Hands one gateway event (its name and data) to the bot.
Deliver = Callable[[str, dict[str, Any]], None]


class Gateway:
    """Builds gateway payloads (INTERACTION_CREATE above all) and delivers them to a bot.

    In process, ``deliver`` hands an event to the bot's connection state as discord.py's
    gateway does (its parser for the event); :class:`tools.offline_http.OfflineServer`
    passes one that sends it over the bot's websocket instead.
    """

    def __init__(self, bot: CandyBot | None, recorder: Recorder | None = None, *,
                 deliver: Deliver | None = None) -> None:
        self.bot = bot
        self.recorder = recorder
        self.deliver = deliver if deliver is not None else self._parse
        self._ids = _INTERACTION_IDS

    def _parse(self, event: str, data: dict[str, Any]) -> None:
        assert self.bot is not None, "a gateway without a bot only builds payloads"
        self.bot._connection.parsers[event](data)

    def _base(self, kind: int, user_id: int, *, channel_id: int = CHANNEL_ID,
              permissions: int = 0) -> dict[str, Any]:
        interaction_id = next(self._ids)
        room = (self.recorder.room(channel_id) if self.recorder is not None
                else Channel(channel_id))
        allowed = (self.recorder.permissions_in(channel_id) if self.recorder is not None
                   else room.permissions)
        payload: dict[str, Any] = {
            "id": str(interaction_id), "application_id": str(APP_ID), "type": kind,
            "token": f"token-{interaction_id}", "version": 1,
            "channel_id": str(channel_id), "channel": room.payload(),
            "app_permissions": str(allowed), "locale": "en-US",
            "entitlements": [], "authorizing_integration_owners": {},
            "attachment_size_limit": 25 * 1024 * 1024,
        }
        if room.type == DM:
            # A direct-message interaction has no server and no member: only the user.
            payload.update({"user": user_payload(user_id), "context": 1})
            return payload
        payload.update({
            "guild_id": str(room.guild_id), "guild_locale": "en-US", "context": 0,
            "member": {"user": user_payload(user_id), "roles": [], "nick": None,
                       "joined_at": "2024-01-01T00:00:00+00:00", "deaf": False, "mute": False,
                       "flags": 0, "permissions": str(permissions)}})
        return payload

    def command(self, user_id: int, name: str, sub: str | None = None,
                options: Mapping[str, Any] | None = None, *, permissions: int = 0,
                channel_id: int = CHANNEL_ID, focused: str | None = None,
                resolved: dict[str, Any] | None = None) -> dict[str, Any]:
        """A slash command (or, with ``focused``, its autocomplete) payload."""
        opts = [_option(k, v, focused == k) for k, v in (options or {}).items()]
        if sub is not None:
            opts = [{"type": 1, "name": sub, "options": opts}]
        data: dict[str, Any] = {"id": "1", "name": name, "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        payload = self._base(4 if focused else 2, user_id, channel_id=channel_id,
                             permissions=permissions)
        payload["data"] = data
        return payload

    def click(self, user_id: int, message: dict[str, Any], custom_id: str, *,
              values: Sequence[str] | None = None, permissions: int = 0) -> dict[str, Any]:
        """A button click (or, with ``values``, a select choice) on a recorded message."""
        payload = self._base(3, user_id, channel_id=int(message["channel_id"]),
                             permissions=permissions)
        data: dict[str, Any] = {"custom_id": custom_id,
                                "component_type": 3 if values is not None else 2}
        if values is not None:
            data["values"] = list(values)
        payload["data"] = data
        payload["message"] = message
        if self.recorder is not None:
            # A component's "original" message is the one it was clicked on.
            self.recorder.clicked[payload["token"]] = int(message["id"])
        return payload

    def dispatch(self, *payloads: dict[str, Any]) -> None:
        """Hand payloads to the bot at the same moment, as its gateway would (not those
        from an archived thread: Discord delivers none)."""
        for payload in payloads:
            if self.recorder is not None:
                room = self.recorder.room(int(payload["channel_id"]))
                if room.thread and room.archived:
                    self.recorder.undelivered.append(payload)
                    continue
                self.recorder.channels[payload["token"]] = int(payload["channel_id"])
                self.recorder.created[payload["token"]] = time.monotonic()
            self.deliver("INTERACTION_CREATE", payload)

    def guild_create(self) -> None:
        """The server as the gateway announces it on connecting, with its channels and
        active threads, so that the bot hears of thread and channel changes."""
        assert self.recorder is not None
        self.deliver("GUILD_CREATE", self.recorder.guild())

    def archive(self, thread_id: int) -> None:
        """Discord archives an inactive thread, and tells the bot (THREAD_UPDATE)."""
        assert self.recorder is not None
        room = self.recorder.room(thread_id)
        room.archived = True
        self.deliver("THREAD_UPDATE", room.payload())

    def lock(self, thread_id: int, *, archived: bool = True) -> None:
        """A moderator locks a thread (and, as "Close and lock" does, archives it), and
        Discord tells the bot (THREAD_UPDATE)."""
        self._moderate(thread_id, locked=True, archived=archived)

    def unlock(self, thread_id: int) -> None:
        """A moderator unlocks a locked thread and reopens it (THREAD_UPDATE)."""
        self._moderate(thread_id, locked=False, archived=False)

    def _moderate(self, thread_id: int, *, locked: bool, archived: bool) -> None:
        assert self.recorder is not None
        room = self.recorder.room(thread_id)
        room.locked, room.archived = locked, archived
        self.deliver("THREAD_UPDATE", room.payload())

    def delete_channel(self, channel_id: int, *, heard: bool = True) -> None:
        """A moderator deletes a channel or a thread (a channel's threads go with it);
        ``heard=False``: while the bot was away, so no event reaches it."""
        assert self.recorder is not None
        room = self.recorder.room(channel_id)
        gone = [room, *self.recorder.threads(channel_id)]
        for each in gone:
            self.recorder.gone.add(each.id)
            del self.recorder.rooms[each.id]
        if heard:
            self.deliver("THREAD_DELETE" if room.thread else "CHANNEL_DELETE", room.payload())

    async def send(self, *payloads: dict[str, Any]) -> None:
        """Dispatch payloads at the same moment and wait until the bot has answered."""
        self.dispatch(*payloads)
        await settle()


def user_payload(user_id: int) -> dict[str, Any]:
    return {"id": str(user_id), "username": f"user{user_id}", "discriminator": "0",
            "global_name": f"Player{user_id % 1000}", "avatar": None}


class UserOption(int):
    """A user option value (type 6); the payload carries the id as a string."""


def _option(name: str, value: Any, focused: bool) -> dict[str, Any]:
    if isinstance(value, UserOption):
        return {"type": 6, "name": name, "value": str(int(value))}
    if isinstance(value, bool):
        kind = 5
    elif isinstance(value, int):
        kind = 4
    elif isinstance(value, float):
        kind = 10
    else:
        kind = 3
    option: dict[str, Any] = {"type": kind, "name": name, "value": value}
    if focused:
        option["focused"] = True
    return option


#: The bot's own loops, which run until it closes (tests drive them by hand).
BACKGROUND = ("candybot-reminders", "candybot-outbox")
#: The PostgreSQL connection pool's own tasks (they live as long as the store).
POOL_TASKS = "candybot-pool-"


def _background(task: asyncio.Task[Any]) -> bool:
    """Whether ``task`` lives as long as the bot (the loops, the pool's workers and the
    bare ``Event.wait`` its scheduler waits in) rather than answering something."""
    name = task.get_name()
    coro = task.get_coro()
    return (name in BACKGROUND or name.startswith(POOL_TASKS)
            or getattr(coro, "__qualname__", "") == "Event.wait")


async def settle(*, ignore: Collection[asyncio.Task[Any]] = ()) -> None:
    """Wait for every task the bot started (command handlers, component callbacks, movement
    GIFs), other than its lifelong ones and ``ignore``."""
    current = asyncio.current_task()
    for _ in range(200):
        pending = [t for t in asyncio.all_tasks() if t is not current and not t.done()
                   and not _background(t) and t not in ignore]
        if not pending:
            return
        await asyncio.wait(pending, timeout=10)
    raise AssertionError("the bot never settled")


async def connect(bot: CandyBot, recorder: Recorder) -> Gateway:
    """Set ``bot`` up as logging in would, minus the network, with ``recorder`` as Discord;
    returns the gateway that feeds it interactions."""
    await bot._async_setup_hook()
    await bot.setup_hook()
    bot._connection.application_id = APP_ID
    bot._connection.user = discord.ClientUser(state=bot._connection, data=BOT_USER)  # type: ignore[arg-type]
    recorder.install(bot)
    gateway = Gateway(bot, recorder)
    recorder.room(CHANNEL_ID)
    gateway.guild_create()
    return gateway
