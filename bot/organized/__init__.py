"""Organized play: what a table agrees on beyond the game's own rules (its clock).

Pure: no Discord, no store, no clock of its own; the tables service applies it.
"""
