"""The idempotency records' retention (``serve --idempotency-hours``): records older than
the window are deleted, the oldest first, a few hundred per write transaction; newer ones
answer as before; a key whose record is gone is a new key (SQLite and PostgreSQL)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import example, given, settings
from hypothesis import strategies as st

from macau_tables.server import floor as floor_mod
from macau_tables.server import store
from macau_tables.server.app import create_app
from macau_tables.server.db import Database, upgrade
from macau_tables.server.floor import Floor
from tests.server.conftest import Srv, make_settings

HOUR = 3_600_000


def put(conn: Any, key: str, created_at: int, user: str = "alice") -> None:
    conn.execute(
        sa.insert(store.idempotency_t).values(
            user_name=user,
            key=key,
            request_hash="h",
            status=200,
            response="{}",
            created_at=created_at,
        )
    )


def keys(db: Database) -> list[str]:
    rows = db.read_sync(lambda c: c.execute(sa.select(store.idempotency_t.c.key)).all())
    return sorted(str(r[0]) for r in rows)


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    d = Database(database_url)
    upgrade(d)
    yield d
    d.close()


def test_the_oldest_records_before_the_window_go_first_a_chunk_at_a_time(db: Database) -> None:
    def fill(conn: Any) -> None:
        for i in range(10):
            put(conn, f"k{i}", 1_000 + i)

    db.write_sync(fill)
    # three of the seven old enough (created before 1_007), the oldest
    assert db.write_sync(lambda c: store.prune_idempotency(c, 1_007, 3)) == 3
    assert keys(db) == [f"k{i}" for i in range(3, 10)]
    # the rest of them, and not one record of the window
    assert db.write_sync(lambda c: store.prune_idempotency(c, 1_007, 100)) == 4
    assert keys(db) == ["k7", "k8", "k9"]
    assert db.write_sync(lambda c: store.prune_idempotency(c, 1_007, 100)) == 0
    assert keys(db) == ["k7", "k8", "k9"]


@settings(max_examples=60, deadline=None)
@given(
    times=st.lists(st.integers(0, 50), min_size=0, max_size=40),
    before=st.integers(0, 60),
    limit=st.integers(1, 12),
)
@example(times=[30, 5, 6], before=10, limit=1)  # the clock went back: one newer first
def test_a_prune_never_deletes_a_record_of_the_window_and_always_progresses(
    tmp_path_factory: pytest.TempPathFactory, times: list[int], before: int, limit: int
) -> None:
    """Whatever order the records' times are in (a clock set back), a pass deletes only
    records written before the window, at most ``limit`` of them; with the times in the
    order written, exactly the ``limit`` oldest; and passes repeated while they delete
    something leave no old record among the first ``limit`` (SQLite: by ``rowid``)."""
    d = Database(str(tmp_path_factory.mktemp("prune") / "p.db"))
    try:
        upgrade(d)

        def fill(conn: Any) -> None:
            for i, t in enumerate(times):
                put(conn, f"k{i:02}", t)

        d.write_sync(fill)
        would = d.read_sync(lambda c: store.idempotency_to_prune(c, before, limit))
        n = d.write_sync(lambda c: store.prune_idempotency(c, before, limit))
        assert would is (n > 0)
        left = set(keys(d))
        gone = [i for i in range(len(times)) if f"k{i:02}" not in left]
        assert len(gone) == n <= limit
        assert all(times[i] < before for i in gone)
        if times == sorted(times):
            assert gone == [i for i, t in enumerate(times) if t < before][:limit]
        while d.write_sync(lambda c: store.prune_idempotency(c, before, limit)):
            pass
        left = set(keys(d))
        first = [i for i in range(len(times)) if f"k{i:02}" in left][:limit]
        assert all(times[i] >= before for i in first)
    finally:
        d.close()


@pytest.fixture
def aged(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Srv]:
    """A floor whose records are kept 24 hours (the default), deleted two at a time, its
    own passes an hour apart (the test runs them with the clock it chooses)."""
    monkeypatch.setattr(floor_mod, "PRUNE_EVERY", 3600.0)
    monkeypatch.setattr(floor_mod, "PRUNE_CHUNK", 2)
    floor = Floor(make_settings(database_url))
    with TestClient(create_app(floor=floor)) as client:
        yield Srv(client, floor, dict(floor.demo_credentials))


def stack(srv: Srv) -> int:
    r = srv.client.get("/wallet", headers=srv.headers("alice"))
    assert r.status_code == 200, r.text
    return int(r.json()["stacks"]["stack:hilo-1:alice"])


def test_a_record_answers_for_its_window_then_its_key_is_a_new_key(aged: Srv) -> None:
    srv = aged
    srv.ok("alice", "hilo-1", "join", {"amount": 10_000})
    srv.step("hilo-1")
    first = srv.cmd("alice", "hilo-1", "bet", {"amount": 1_000}, key="bet-1")
    assert first.status_code == 200
    srv.deposit("alice", 100)  # the cashier's record
    assert srv.cmd("alice", "hilo-1", "reveal").status_code == 409  # a refusal's (HL-3)
    portal = srv.client.portal
    assert portal is not None
    now = store.now_ms()
    group = srv.floor.db.group  # (SQLite's group commit: every write is one of its units)
    units = group.units if group else 0
    # 23 hours later: nothing is old enough — and nothing is written; the key answers the
    # first response
    assert portal.call(srv.floor.prune_idempotency, now + 23 * HOUR) == 0
    assert (group.units if group else 0) == units
    again = srv.cmd("alice", "hilo-1", "bet", {"amount": 1_000}, key="bet-1")
    assert again.content == first.content
    assert stack(srv) == 9_000
    # a record written now, inside the window of the pass below
    later = srv.cmd("alice", "hilo-1", "bet", {"amount": 500}, key="bet-2")
    assert later.status_code == 200
    with srv.floor.db.writer.begin() as conn:  # bet-2 written an hour after the others
        conn.execute(
            sa.update(store.idempotency_t)
            .where(store.idempotency_t.c.key == "bet-2")
            .values(created_at=now + HOUR)
        )
    # 24 h and a minute later: every record but bet-2's is gone (the join's, bet-1's,
    # the cashier's, the refusal's), two at a time
    old = len(keys(srv.floor.db)) - 1
    assert old > 2  # (several chunks)
    assert portal.call(srv.floor.prune_idempotency, now + 24 * HOUR + 60_000) == old
    assert keys(srv.floor.db) == ["bet-2"]
    assert srv.floor.idempotency_pruned == old
    stats = srv.client.get("/server/latency", headers=srv.headers("supervisor")).json()
    assert stats["idempotency"] == {"hours": 24.0, "pruned": old}
    # bet-2 still answers its first response; bet-1 is a new key: the bet runs again
    assert srv.cmd("alice", "hilo-1", "bet", {"amount": 500}, key="bet-2").content == (
        later.content
    )
    assert stack(srv) == 8_500
    anew = srv.cmd("alice", "hilo-1", "bet", {"amount": 1_000}, key="bet-1")
    assert anew.status_code == 200
    assert anew.json()["seq"] > first.json()["seq"]
    assert stack(srv) == 7_500


def test_the_pruning_runs_by_itself_and_zero_hours_keeps_every_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(floor_mod, "PRUNE_EVERY", 0.05)
    for hours, kept in ((0.0, True), (1e-5, False)):  # 36 ms
        floor = Floor(make_settings(str(tmp_path / f"f{hours}.db"), idempotency_hours=hours))
        with TestClient(create_app(floor=floor)) as client:
            srv = Srv(client, floor, dict(floor.demo_credentials))
            srv.deposit("alice", 100)
            assert (floor._prune_task is None) is kept
            deadline = time.monotonic() + 30
            while not kept and keys(floor.db) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert bool(keys(floor.db)) is kept
        assert floor._prune_task is None  # stopped with the floor
