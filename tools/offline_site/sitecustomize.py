"""Point this process's discord.py at the offline Discord named by ``OFFLINE_DISCORD``.

Python imports ``sitecustomize`` as it starts, from the first folder on ``sys.path`` that
holds one: with this folder on ``PYTHONPATH`` and ``OFFLINE_DISCORD`` set to an
:class:`~tools.offline_http.OfflineServer`'s ``url`` (:func:`tools.offline_process.pointed`
gives both), every Python process started so (``candybot run``, ``check`` or ``sync`` as
an operator types them, a bot from the Docker image's install) sends its REST requests
and opens its gateway there instead of discord.com. Without the variable nothing changes.
It imports nothing of the project: an install without ``tools`` (the image's) is pointed too.
"""

import os

_ADDRESS = os.environ.get("OFFLINE_DISCORD")
if _ADDRESS:
    import discord.gateway
    import discord.http
    import yarl

    # The server's REST base and gateway under its address (tools/offline_http.py: API,
    # GATEWAY).
    discord.http.Route.BASE = f"{_ADDRESS}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        _ADDRESS.replace("http://", "ws://", 1) + "/gateway")
