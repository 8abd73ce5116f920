"""The web companion's tests drive the real bot offline (tests/discord's harness)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "discord"))
