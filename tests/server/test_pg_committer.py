"""PostgreSQL's group commit on connections of its own (``db.PgCommitter``: autocommit, no
pool ping, ``BEGIN`` sent with the first statement): a batch whose connection PostgreSQL
dropped is run again on a new connection (each table rebuilt first), recorded once."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from tests.server.conftest import Srv, make_settings
from tests.server.pg import postgres_url


@pytest.fixture
def pg_srv(request: pytest.FixtureRequest) -> Any:
    from fastapi.testclient import TestClient

    from macau_tables.server.app import create_app
    from macau_tables.server.floor import Floor

    floor = Floor(make_settings(postgres_url(request)))
    with TestClient(create_app(floor=floor)) as client:
        yield Srv(client, floor, dict(floor.demo_credentials))


def _journal_length(srv: Srv, table: str) -> int:
    def read(conn: Any) -> int:
        q = sa.text("SELECT count(*) FROM journal WHERE table_id = :t")
        return int(conn.execute(q, {"t": table}).scalar_one())

    return srv.floor.db.read_sync(read)


def test_a_batch_whose_connection_was_dropped_runs_again_on_a_new_one(pg_srv: Srv) -> None:
    srv = pg_srv
    srv.deposit("alice", 100_000)
    srv.ok("alice", "hilo-1", "join", {"amount": 10_000})
    assert srv.step("hilo-1")  # the shuffle: betting is open
    engine = srv.floor.db.group_writer
    assert engine is not None
    # the committer's connections, as PostgreSQL sees them, ended by the server
    pids = [c.info.backend_pid for c in _checked_in(engine)]
    assert pids, "the committer has a connection in its pool"
    srv.floor.db.read_sync(
        lambda conn: conn.execute(
            sa.text("SELECT pg_terminate_backend(pid) FROM unnest(:p) AS pid"), {"p": pids}
        ).all()
    )
    before = _journal_length(srv, "hilo-1")
    bet = srv.cmd("alice", "hilo-1", "bet", {"amount": 100})
    assert bet.status_code == 200, bet.text
    assert _journal_length(srv, "hilo-1") == before + len(bet.json()["events"])  # once
    assert all(c.info.backend_pid not in pids for c in _checked_in(engine))
    again = srv.cmd("alice", "hilo-1", "bet", {"amount": 100})
    assert again.status_code == 200, again.text
    ledger = srv.client.get("/audit/ledger", headers=srv.headers("auditor")).json()
    assert ledger["ok"], ledger


def _checked_in(engine: Any) -> list[Any]:
    """The DB-API connections idle in ``engine``'s pool."""
    pool = engine.pool
    out = []
    for rec in list(pool._pool.queue):  # QueuePool's idle connection records
        if rec.dbapi_connection is not None:
            out.append(rec.dbapi_connection)
    return out
