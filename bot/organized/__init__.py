"""Organized play above a single game: pure rules, no Discord, no I/O (seasons)."""
