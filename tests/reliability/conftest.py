"""Fixtures of the reliability suite: the server suite's floors (SQLite and PostgreSQL,
driven through the real HTTP API), shared with tests/server/conftest.py."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")

from tests.server import pg
from tests.server.conftest import Srv, database_url, lite, make_settings, srv, wait_checked

__all__ = ["Srv", "database_url", "lite", "make_settings", "srv", "wait_checked"]


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The session's PostgreSQL cluster goes before the session ends (stopping twice is a
    no-op, so this and the server suite's hook may both run)."""
    pg.stop()
