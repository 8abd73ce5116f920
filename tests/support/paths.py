"""Where the repository is, for tests that read its files or run its commands."""

from pathlib import Path

#: The repository's root (the folder holding pyproject.toml).
ROOT = Path(__file__).resolve().parents[2]
