"""A backup taken while the bot writes, then a SIGKILL: no confirmed move is lost.

The bot is a real process (tests/crash_bot.py) that also inspects its own database as
the ready message does; ``candybot backup`` runs from a second process meanwhile.
"""

from __future__ import annotations

from pathlib import Path

from crashes import CrashBot, backup, logged, missing, replay_all


def test_every_confirmed_move_survives_backups_and_a_kill(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    bot = CrashBot(db, ["sugar-blast", "sugar-heist"])
    copies: list[tuple[Path, dict[int, int]]] = []
    try:
        for n, moves in enumerate((3, 4, 3)):
            bot.wait_for(moves)
            before = bot.snapshot()
            target = tmp_path / f"copy-{n}.db"
            assert backup(db, target).startswith("Backed up")
            copies.append((target, before))
        bot.wait_for(3)
    finally:
        acked = bot.kill()
    assert sum(acked.values()) >= 13
    assert missing(acked, logged(db)) == {}
    for target, before in copies:
        assert not Path(f"{target}-wal").exists()
        assert missing(before, logged(target)) == {}, target
        assert replay_all(target) >= 1
    assert replay_all(db) >= 2
