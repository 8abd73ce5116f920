"""The ``candybot`` command line: run, sync, demo, replay, bench."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="candybot", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("run", help="start the Discord bot (needs DISCORD_TOKEN)")
    sync = sub.add_parser("sync", help="register the slash commands with Discord")
    sync.add_argument("--guild", type=int, default=None,
                      help="register instantly to this test server instead of globally")

    demo = sub.add_parser("demo", help="play a whole AI game offline and render every move")
    demo.add_argument("game", help="which game, e.g. sugar-blast")
    demo.add_argument("--players", type=int, default=3, help="number of AI seats")
    demo.add_argument("--seed", type=int, default=7, help="seed of the game's randomness")
    demo.add_argument("--out", type=Path, required=True, help="an empty or new folder")

    replay = sub.add_parser("replay", help="re-apply a demo's stored log and verify it")
    replay.add_argument("folder", type=Path, help="a folder written by `candybot demo`")

    bench = sub.add_parser("bench", help="time rendering and whole moves on this machine")
    bench.add_argument("--json", action="store_true", help="print one machine-readable line")
    bench.add_argument("--samples", type=int, default=60, help="timed repetitions per figure")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "run":
        from bot.app import run_bot
        from bot.config import Settings

        return run_bot(Settings.from_env())
    if args.command == "sync":
        from bot.app import sync_commands
        from bot.config import Settings

        return sync_commands(Settings.from_env(), args.guild)
    if args.command == "demo":
        from bot.demo import demo

        return demo(args.game, args.players, args.seed, args.out)
    if args.command == "replay":
        from bot.demo import replay

        return replay(args.folder)
    if args.command == "bench":
        from bot.bench import bench

        return bench(as_json=args.json, samples=args.samples)
    raise AssertionError(args.command)


if __name__ == "__main__":
    sys.exit(main())
