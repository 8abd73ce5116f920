"""Organized play: pure rules above a single game (no I/O, deterministic)."""
