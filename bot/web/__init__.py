"""The web companion: a read-only page per game (watched live, stepped through as a
replay) and per server (its leaderboards), beside the Discord layer (docs/web.md).

Off unless the operator sets ``CANDYBOT_WEB_PORT`` and ``CANDYBOT_PUBLIC_URL``.
:mod:`bot.web.service` is the one way it reaches the database (a small read service);
:mod:`bot.web.pages` words the pages; :mod:`bot.web.server` serves them over aiohttp with
the headers, limits and routes of a site that strangers open.
"""
