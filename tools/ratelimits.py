"""Discord's rate limits, copied for the offline Discord (:mod:`tools.offline`).

What is copied, from Discord's documentation (topics/rate-limits) and what discord.py's
``http.py`` reads:

- **Per-route buckets.** A route (method and path, ids left out) has a bucket with a
  limit per window; the window starts with the first request after the last one ran
  out. Buckets count apart for each top-level resource in the path (the major
  parameter: a channel, a server, a webhook with its token). Every answer on a route
  with a bucket carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch
  seconds), ``-Reset-After`` (seconds) and ``-Bucket`` (an opaque hash): discord.py
  learns the bucket from them and waits when ``Remaining`` is 0 instead of asking.
- **The global limit.** At most :data:`GLOBAL_LIMIT` requests in any second per bot,
  whatever the route, except interaction callbacks and the application's followups
  (``/interactions/...`` and ``/webhooks/<application id>/<token>...``), which Discord
  does not count.
- **429 answers.** Over a limit, Discord answers 429 with the JSON body
  ``{"message", "retry_after" (seconds, a float), "global" (bool)}`` and the headers
  ``Retry-After`` (whole seconds), ``X-RateLimit-Scope`` (``user``, ``global`` or
  ``shared``), ``X-RateLimit-Global`` for the global limit, the bucket's headers for a
  route's, and ``Via`` (discord.py takes a 429 without ``Via`` for a Cloudflare ban and
  does not retry it). discord.py sleeps ``retry_after`` and retries, up to five tries;
  a global one stops every request of the client meanwhile.
- **Invalid requests.** 401, 403 and 429 answers (but not 429s of scope ``shared``)
  count; :data:`INVALID_LIMIT` of them in :data:`INVALID_WINDOW` seconds get the IP
  banned by Cloudflare for a while: every request is then answered 429 without ``Via``,
  with a text body (``error code: 1015``).

What is not documented and so chosen here (:data:`RULES`): new messages in a channel,
5 per 5 s, which is what Discord answers today; edits and deletions likewise; a
webhook (with its token) 5 per 2 s; any other route 5 per 5 s per major parameter.
Interaction callbacks have no bucket. Only requests Discord carried out count towards
a bucket or the global limit; a request answered 429 does not (it counts as invalid).

The clock is a parameter (``clock``, monotonic seconds; ``wall`` gives the epoch for
``X-RateLimit-Reset``), so tests drive it. :attr:`RateLimits.seen` keeps every request
with its answer, for the bench's figures (:meth:`RateLimits.peak`, :meth:`count`).
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import discord

GLOBAL_LIMIT = 50
GLOBAL_WINDOW = 1.0
INVALID_LIMIT = 10_000
INVALID_WINDOW = 600.0
#: How long a Cloudflare ban lasts here ("a while": about an hour, as reported).
BAN_SECONDS = 3600.0
INVALID_STATUSES = (401, 403, 429)
RATE_LIMITED = "You are being rate limited."
#: discord.py retries a 429 only when it came through Discord's proxies.
VIA = "1.1 google"


@dataclass(frozen=True)
class Rule:
    """A route's bucket: ``limit`` requests per ``per`` seconds, for each major parameter."""

    limit: int
    per: float
    #: ``shared``: the limit is the resource's, shared with others (its 429s are not
    #: invalid requests); ``user``: the bot's own.
    scope: str = "user"


#: Buckets by method and route (ids written as ``{id}``, a webhook's token as
#: ``{token}``); a route not listed gets :data:`DEFAULT_RULE`.
RULES: dict[tuple[str, str], Rule] = {
    ("POST", "/channels/{id}/messages"): Rule(5, 5.0),
    ("PATCH", "/channels/{id}/messages/{id}"): Rule(5, 5.0),
    ("DELETE", "/channels/{id}/messages/{id}"): Rule(5, 5.0),
    ("POST", "/webhooks/{id}/{token}"): Rule(5, 2.0),
    ("PATCH", "/webhooks/{id}/{token}/messages/{id}"): Rule(5, 2.0),
    ("PATCH", "/webhooks/{id}/{token}/messages/@original"): Rule(5, 2.0),
    ("DELETE", "/webhooks/{id}/{token}/messages/{id}"): Rule(5, 2.0),
    ("DELETE", "/webhooks/{id}/{token}/messages/@original"): Rule(5, 2.0),
}
DEFAULT_RULE = Rule(5, 5.0)

_ID = re.compile(r"^\d+$")


@dataclass(frozen=True)
class Route:
    """A request's route as Discord's limits see it."""

    method: str
    #: The path with ids as ``{id}`` and a webhook's token as ``{token}``.
    template: str
    #: The top-level resource the route's bucket is counted for ("" when none).
    major: str
    #: Whether the request counts towards the global limit.
    global_bound: bool
    #: Whether it is an interaction callback (no bucket).
    interaction: bool


def route_of(method: str, path: str, application_id: int | None = None) -> Route:
    """The route of ``method path`` (the path after ``/api/v10``, without a query)."""
    parts = path.split("?", 1)[0].strip("/").split("/")
    top = parts[0] if parts else ""
    template = list(parts)
    major = ""
    if top in ("channels", "guilds") and len(parts) > 1:
        major = f"{top}/{parts[1]}"
    elif top in ("webhooks", "interactions") and len(parts) > 2:
        major = f"{top}/{parts[1]}/{parts[2]}"
        template[2] = "{token}"
    for index, part in enumerate(template):
        if _ID.match(part):
            template[index] = "{id}"
    interaction = top == "interactions"
    followup = top == "webhooks" and (application_id is None
                                      or parts[1:2] == [str(application_id)])
    return Route(method.upper(), "/" + "/".join(template), major,
                 global_bound=not (interaction or followup), interaction=interaction)


@dataclass
class _Bucket:
    rule: Rule
    name: str
    remaining: int
    #: When the current window ends (``clock`` seconds); 0: no window running.
    resets_at: float = 0.0


@dataclass(frozen=True)
class Seen:
    """One request that reached the offline Discord, and how the limits answered it."""

    at: float
    method: str
    path: str
    #: 429 when a limit refused it, else ``None`` (answered by the offline Discord).
    status: int | None
    #: ``user``, ``global``, ``shared`` or ``cloudflare`` for a 429.
    scope: str | None
    global_bound: bool


class OverLimit(discord.HTTPException):
    """Discord's 429 for a request over a limit: the body and headers it answers with
    (the offline Discord on sockets sends them as they are; in-process, the bot gets
    this error as discord.py raises a 429 it gave up on)."""

    def __init__(self, scope: str, retry_after: float, headers: Mapping[str, str],
                 body: dict[str, Any] | str) -> None:
        super().__init__(SimpleNamespace(status=429, reason="Too Many Requests"),  # type: ignore[arg-type]
                         body)
        self.scope = scope
        self.retry_after = retry_after
        self.headers = dict(headers)
        self.body = body


class RateLimits:
    """Discord's rate limits for one bot (see the module text)."""

    def __init__(self, *, rules: Mapping[tuple[str, str], Rule] | None = None,
                 default: Rule | None = DEFAULT_RULE, global_limit: int = GLOBAL_LIMIT,
                 global_window: float = GLOBAL_WINDOW, invalid_limit: int = INVALID_LIMIT,
                 invalid_window: float = INVALID_WINDOW, ban_seconds: float = BAN_SECONDS,
                 application_id: int | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.rules = dict(RULES if rules is None else rules)
        self.default = default
        self.global_limit = global_limit
        self.global_window = global_window
        self.invalid_limit = invalid_limit
        self.invalid_window = invalid_window
        self.ban_seconds = ban_seconds
        self.application_id = application_id
        self.clock = clock
        self.wall = wall
        self._buckets: dict[tuple[str, str], _Bucket] = {}
        self._global: deque[float] = deque()
        self._invalid: deque[float] = deque()
        #: Invalid requests counted since the start, and when a ban ends (``None``: none).
        self.invalid_total = 0
        self.banned_until: float | None = None
        self.seen: list[Seen] = []

    # ----------------------------------------------------------------- answering

    def admit(self, method: str, path: str) -> OverLimit | None:
        """A request reaches Discord: ``None`` when it may be carried out (it is counted
        against its bucket and the global limit), else the 429 Discord answers."""
        now = self.clock()
        route = route_of(method, path, self.application_id)
        if self.banned_until is not None and now < self.banned_until:
            return self._refuse(now, route, path, "cloudflare", self.banned_until - now, {},
                                "error code: 1015")
        while self._global and self._global[0] <= now - self.global_window:
            self._global.popleft()
        if route.global_bound and len(self._global) >= self.global_limit:
            wait = self._global[0] + self.global_window - now
            return self._refuse(now, route, path, "global", wait,
                                {"X-RateLimit-Global": "true"}, _body(wait, True))
        bucket = self._bucket(route, now)
        if bucket is not None and bucket.remaining <= 0:
            wait = bucket.resets_at - now
            return self._refuse(now, route, path, bucket.rule.scope, wait,
                                self._headers(bucket, now), _body(wait, False))
        if bucket is not None:
            if bucket.resets_at <= now:
                bucket.resets_at = now + bucket.rule.per
            bucket.remaining -= 1
        if route.global_bound:
            self._global.append(now)
        self.seen.append(Seen(now, route.method, path, None, None, route.global_bound))
        return None

    def headers(self, method: str, path: str) -> dict[str, str]:
        """The rate-limit headers of an answer on ``method path`` now (none for a route
        without a bucket)."""
        now = self.clock()
        bucket = self._bucket(route_of(method, path, self.application_id), now)
        return {} if bucket is None else self._headers(bucket, now)

    def answered(self, status: int, scope: str | None = None) -> None:
        """The offline Discord answered a request with ``status`` (a refused permission,
        a lost interaction, an injected 429): counted when it is an invalid request."""
        if status in INVALID_STATUSES and scope != "shared":
            self._count_invalid(self.clock())

    # ----------------------------------------------------------------- figures

    def invalid_now(self) -> int:
        """Invalid requests in the last :attr:`invalid_window` seconds."""
        self._forget_invalid(self.clock())
        return len(self._invalid)

    def count(self, status: int | None = 429, scope: str | None = None) -> int:
        """Requests answered with ``status`` by the limits (``None``: carried out), of
        ``scope`` if given."""
        return sum(1 for s in self.seen if s.status == status
                   and (scope is None or s.scope == scope))

    def peak(self, window: float = 1.0, *, global_bound: bool = True) -> int:
        """The most requests that reached Discord in any ``window`` seconds (counting
        those refused with a 429); only those the global limit counts, unless
        ``global_bound`` is false."""
        times = sorted(s.at for s in self.seen if s.global_bound or not global_bound)
        best = start = 0
        for end, at in enumerate(times):
            while times[start] <= at - window:
                start += 1
            best = max(best, end - start + 1)
        return best

    # ----------------------------------------------------------------- inside

    def _bucket(self, route: Route, now: float) -> _Bucket | None:
        if route.interaction:
            return None
        rule = self.rules.get((route.method, route.template), self.default)
        if rule is None:
            return None
        key = (f"{route.method} {route.template}", route.major)
        bucket = self._buckets.get(key)
        if bucket is None:
            name = hashlib.sha1(key[0].encode()).hexdigest()[:16]
            bucket = self._buckets[key] = _Bucket(rule, name, rule.limit)
        if bucket.resets_at and bucket.resets_at <= now:
            bucket.remaining, bucket.resets_at = rule.limit, 0.0
        return bucket

    def _headers(self, bucket: _Bucket, now: float) -> dict[str, str]:
        after = max(0.0, bucket.resets_at - now) if bucket.resets_at else bucket.rule.per
        return {"X-RateLimit-Limit": str(bucket.rule.limit),
                "X-RateLimit-Remaining": str(max(0, bucket.remaining)),
                "X-RateLimit-Reset": f"{self.wall() + after:.3f}",
                "X-RateLimit-Reset-After": f"{after:.3f}",
                "X-RateLimit-Bucket": bucket.name}

    def _refuse(self, now: float, route: Route, path: str, scope: str, wait: float,
                headers: Mapping[str, str], body: dict[str, Any] | str) -> OverLimit:
        self.seen.append(Seen(now, route.method, path, 429, scope, route.global_bound))
        if scope == "cloudflare":
            return OverLimit(scope, wait, {"Retry-After": str(math.ceil(wait))}, body)
        if scope != "shared":
            self._count_invalid(now)
        full = {**headers, "Retry-After": str(max(1, math.ceil(wait))),
                "X-RateLimit-Scope": scope, "Via": VIA}
        return OverLimit(scope, wait, full, body)

    def _forget_invalid(self, now: float) -> None:
        while self._invalid and self._invalid[0] <= now - self.invalid_window:
            self._invalid.popleft()

    def _count_invalid(self, now: float) -> None:
        self._forget_invalid(now)
        self._invalid.append(now)
        self.invalid_total += 1
        if len(self._invalid) >= self.invalid_limit:
            self.banned_until = now + self.ban_seconds


def _body(wait: float, is_global: bool) -> dict[str, Any]:
    return {"message": RATE_LIMITED, "retry_after": round(wait, 3), "global": is_global}
