"""Organized play above a single game: a table's clock, seasons, tournaments.

Pure: no Discord, no store, no clock of its own; the services in ``bot/tables`` apply it.
"""
