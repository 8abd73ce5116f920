import itertools
from pathlib import Path
from types import SimpleNamespace

import pytest

# Rule-test helpers (board drawings) live beside the tests.


@pytest.fixture(autouse=True)
def deterministic_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games started through the tables get seeds 1, 2, 3... in each test, not random ones,
    so that a test never passes or fails by the luck of the deal."""
    seeds = itertools.count(1)
    monkeypatch.setattr("bot.tables.lobby.secrets",
                        SimpleNamespace(randbits=lambda bits: next(seeds)))


@pytest.fixture(autouse=True)
def pictures_from_scratch() -> None:
    """Each test's pictures are drawn whole, not copied from strips an earlier test drew,
    so that a test that watches what a picture draws sees it drawn."""
    from renderers.common import forget_strips

    forget_strips()


@pytest.fixture(scope="session")
def postgres_server():
    """One throwaway PostgreSQL server for the whole run (see tests/support/pgserver.py)."""
    from tests.support import pgserver

    try:
        server = pgserver.start()
    except RuntimeError as exc:
        if pgserver.REQUIRED:
            raise
        pytest.skip(str(exc))
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server) -> str:
    """A fresh, empty PostgreSQL database for this test."""
    return postgres_server.database()


@pytest.fixture(params=["sqlite", "sqlite-trip-by-trip", "postgresql"])
def db_target(request: pytest.FixtureRequest, tmp_path: Path,
              monkeypatch: pytest.MonkeyPatch) -> str:
    """Where a store test keeps its games: a SQLite file; the same with each statement
    taken to SQLite's thread on its own (as with an aiosqlite whose private hook the store
    cannot use, bot/store/sqlite.py); then a PostgreSQL database."""
    if request.param.startswith("sqlite"):
        if request.param == "sqlite-trip-by-trip":
            monkeypatch.setattr("bot.store.sqlite.IN_ONE_TRIP", False)
        return str(tmp_path / "candybot.db")
    return request.getfixturevalue("postgres_url")


@pytest.fixture(scope="session")
def image(tmp_path_factory: pytest.TempPathFactory, worker_id: str):
    """The Docker image's install, built without a container engine (tests/support/image_build.py),
    once a run whatever the number of workers."""
    from tests.support.image_build import shared_image

    return shared_image(tmp_path_factory, worker_id)
