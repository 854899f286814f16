"""Fixtures of the reliability suite: the server suite's floors (SQLite and PostgreSQL,
driven through the real HTTP API), shared with tests/server/conftest.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")

from tests.server import pg
from tests.server.conftest import Srv, database_url, lite, make_settings, srv, wait_checked
from tests.server.serve_proc import Serve

__all__ = ["Srv", "database_url", "lite", "make_settings", "served", "srv", "wait_checked"]


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """``macau-tables serve`` as shipped (SQLite, one process; the
    default log level, no access log), for the session; its output in ``served.log``."""
    server = Serve(tmp_path_factory.mktemp("served"))
    server.start()
    yield server
    server.stop()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The session's PostgreSQL cluster goes before the session ends (stopping twice is a
    no-op, so this and the server suite's hook may both run)."""
    pg.stop()
