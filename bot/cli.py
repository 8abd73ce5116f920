"""The ``candybot`` command line: run, web, sync, check, backup, restore, health, demo,
replay, bench, pictures."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from bot.ops import Exit


def installed_version() -> str:
    """The version of the installed candybot (pyproject.toml's, through its metadata)."""
    try:
        return version("candybot")
    except PackageNotFoundError:
        return "(not installed: run it from an install, `pip install .`)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="candybot", description=__doc__)
    parser.add_argument("--version", action="version",
                        version=f"candybot {installed_version()}")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="start the Discord bot (needs DISCORD_TOKEN)")
    run.add_argument("--shard-count", type=int, default=None, metavar="N",
                     help="split the servers into N shards across all processes "
                          "(see docs/scale.md)")
    run.add_argument("--shard-ids", default=None, metavar="IDS",
                     help="the shards this process connects, e.g. 0,1 (default: all N)")
    _add_debug(run)
    web = sub.add_parser("web", help="serve the web companion alone, on the bot's database "
                                     "(needs CANDYBOT_WEB_PORT and CANDYBOT_PUBLIC_URL)")
    _add_debug(web)
    sync = sub.add_parser("sync", help="register the slash commands with Discord")
    sync.add_argument("--guild", type=int, default=None,
                      help="register instantly to this test server instead of globally")
    _add_debug(sync)
    check = sub.add_parser("check", help="check the database and, with DISCORD_TOKEN, the "
                                         "token and the bot's permissions; exit 0 if all is well")
    _add_debug(check)
    backup = sub.add_parser("backup", help="copy the live database safely, even while the bot "
                                           "runs")
    backup.add_argument("path", type=Path,
                        help="the copy to write, or a folder to put a dated copy in")
    backup.add_argument("--force", action="store_true", help="replace PATH if it exists")
    _add_debug(backup)
    restore = sub.add_parser("restore", help="put a backup in place of the database (stop "
                                             "the bot first); the replaced one is kept")
    restore.add_argument("backup", type=Path, help="a copy written by `candybot backup`")
    _add_debug(restore)
    sub.add_parser("health", help="one line: is the running bot healthy (connected, database "
                                  "writable, announcements flowing)? exit 0 if so; for "
                                  "container health checks")

    demo = sub.add_parser("demo", help="play a whole AI game offline and render every move")
    demo.add_argument("game", help="which game, e.g. sugar-blast")
    demo.add_argument("--players", type=int, default=3, help="number of AI seats")
    demo.add_argument("--seed", type=int, default=7, help="seed of the game's randomness")
    demo.add_argument("--out", type=Path, required=True, help="an empty or new folder")
    demo.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                      help='a game option, repeatable, e.g. --option power="random 2"')

    replay = sub.add_parser("replay", help="re-apply a demo's stored log and verify it")
    replay.add_argument("folder", type=Path, help="a folder written by `candybot demo`")

    bench = sub.add_parser("bench", help="time every game's pictures and moves on this machine, "
                                         "against a chess bot's board, alone and under load")
    bench.add_argument("--json", action="store_true", help="print one machine-readable line")
    bench.add_argument("--samples", type=int, default=60, help="timed repetitions per figure")
    bench.add_argument("--game", action="append", default=None, metavar="SLUG",
                       help="measure this game only (repeat for several; default: every game)")
    bench.add_argument("--channels", type=int, default=50,
                       help="channels moving at once in the load test (0: no load test and no "
                            "worker processes: /play is timed with everything in one process)")
    bench.add_argument("--rounds", type=int, default=3,
                       help="times every channel moves at once in the load test")
    bench.add_argument("--db", default=None, metavar="URL",
                       help="a postgresql:// URL: measure on PostgreSQL (a scratch schema "
                            "there, dropped afterwards) instead of a new SQLite file")
    bench.add_argument("--ai-games", type=int, default=200,
                       help="games of the AI against random players (0: skip)")
    bench.add_argument("--first-boards", type=int, default=20, metavar="N",
                       help="fresh bots (a new process each) the first board after Start is "
                            "timed on, every game in turn (0: skip)")
    bench.add_argument("--replays", type=int, default=0, metavar="N",
                       help="measure only this: N people asking for the replay of one long "
                            "game at once, and a move elsewhere meanwhile")
    bench.add_argument("--web", type=int, default=0, metavar="N",
                       help="measure only this: N people watching one live game on the web "
                            "companion while it is played")
    bench.add_argument("--web-seconds", type=float, default=20.0, metavar="S",
                       help="how long the --web viewers watch")
    bench.add_argument("--burst", type=int, default=0, metavar="N",
                       help="measure only this: N announcements due at once, delivered under "
                            "Discord's rate limits while players move elsewhere")
    bench.add_argument("--burst-channels", type=int, default=2000, metavar="N",
                       help="the channels the --burst announcements are spread over")
    bench.add_argument("--pace", type=int, default=None, metavar="N",
                       help="with --burst: the bot's requests a second (0: no pacing, discord.py "
                            "alone; default: CANDYBOT_REQUESTS_PER_SECOND's default)")

    pictures = sub.add_parser("pictures", help="measure every game's public boards as a phone "
                                               "shows them (height over width, text sizes "
                                               "at 400 px wide); exit 0 if all meet the "
                                               "targets")
    pictures.add_argument("--game", action="append", default=None, metavar="SLUG",
                          help="measure this game only (repeat for several; default: every "
                               "game)")
    pictures.add_argument("--seed", type=int, default=1, help="seed of the measured games")
    pictures.add_argument("--json", action="store_true", help="print one machine-readable line")
    return parser


def _add_debug(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--debug", action="store_true",
                        help="log everything and show full tracebacks (as CANDYBOT_LOG=debug)")


def _operate(args: argparse.Namespace) -> int:
    """run, web, sync, check, backup and restore: read the settings, then hand over."""
    from dataclasses import replace

    from bot.config import ConfigError, Settings, parse_shards

    try:
        settings = Settings.from_env()
        if args.command == "run":
            count, ids = parse_shards(args.shard_count, args.shard_ids)
            settings = replace(settings, shard_count=count, shard_ids=ids)
    except ConfigError as exc:
        print(f"candybot: {exc}", file=sys.stderr)
        return Exit.CONFIG
    if args.command == "run":
        from bot.app import run_bot

        return run_bot(settings, debug=args.debug)
    if args.command == "web":
        from bot.web.run import run_web

        return run_web(settings, debug=args.debug)
    if args.command == "sync":
        from bot.app import sync_commands

        return sync_commands(settings, args.guild, debug=args.debug)
    if args.command == "check":
        from bot.ops.check import check

        return check(settings, debug=args.debug)
    if args.command == "restore":
        from bot.ops.restore import restore

        return restore(settings, args.backup, debug=args.debug)
    from bot.ops.backup import backup

    return backup(settings, args.path, force=args.force, debug=args.debug)


def _health() -> int:
    """``candybot health``: judge the status file the running bot writes; one line."""
    from bot.config import ConfigError, Settings
    from bot.health import check_health

    try:
        settings = Settings.from_env()
    except ConfigError as exc:
        print(f"unhealthy: {exc}")
        return Exit.FAILED
    healthy, line = check_health(settings.db_path)
    print(line)
    return Exit.OK if healthy else Exit.FAILED


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "health":
        return _health()
    if args.command in ("run", "web", "sync", "check", "backup", "restore"):
        return _operate(args)
    if args.command == "demo":
        from bot.demo import demo

        return demo(args.game, args.players, args.seed, args.out, args.option)
    if args.command == "replay":
        from bot.demo import replay

        return replay(args.folder)
    if args.command == "bench" and args.web:
        from tools.web_bench import web_bench

        return web_bench(args.web, args.web_seconds, as_json=args.json)
    if args.command == "bench" and args.burst:
        from tools.burst import burst

        return burst(args.burst, args.burst_channels, pace=args.pace, as_json=args.json)
    if args.command == "bench":
        from tools.bench import bench

        return bench(as_json=args.json, samples=args.samples, games=args.game,
                     channels=args.channels, rounds=args.rounds, ai_games=args.ai_games,
                     db=args.db, replays=args.replays, first_boards=args.first_boards)
    if args.command == "pictures":
        from tools.pictures import pictures

        return pictures(args.game, as_json=args.json, seed=args.seed)
    raise AssertionError(args.command)


if __name__ == "__main__":
    sys.exit(main())
