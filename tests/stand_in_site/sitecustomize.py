"""Point this process's discord.py at a stand-in Discord (tests/stand_in_discord.py).

On ``PYTHONPATH`` with ``STAND_IN_DISCORD`` set to the stand-in's address, every Python
process started there (a ``candybot`` command, a bot from an install) sends its REST
requests and opens its gateway there instead of discord.com; without it, nothing changes.
"""

import os

_ADDRESS = os.environ.get("STAND_IN_DISCORD")
if _ADDRESS:
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = f"{_ADDRESS}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
        _ADDRESS.replace("http://", "ws://", 1) + "/gateway-socket")
