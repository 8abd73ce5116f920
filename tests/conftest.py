import itertools
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

# Rule-test helpers (board drawings) live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(autouse=True)
def deterministic_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games started through the tables get seeds 1, 2, 3... in each test, not random ones,
    so that a test never passes or fails by the luck of the deal."""
    seeds = itertools.count(1)
    monkeypatch.setattr("bot.tables.lobby.secrets",
                        SimpleNamespace(randbits=lambda bits: next(seeds)))
