"""Previous AIs, frozen: each module is one game's ``ai`` policy as it was when frozen.

``tools.strength`` plays them as the ``previous`` opponent, so that a change to a
game's AI is measured against what it replaced. A module is never edited; a new
frozen version is a new module (``<package>_v2.py``).
"""
