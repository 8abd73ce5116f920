"""The web companion's tests drive the real bot offline (tests/support's Discord harness)."""

from __future__ import annotations


