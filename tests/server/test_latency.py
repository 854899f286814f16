"""The server's command latency (server/latency.py, ``GET /server/latency``): percentiles
from the histogram are "at most", within one bucket (25 %) of the exact ones; every
command on the hot path is counted under its op, a refused one under ``refused``."""

from __future__ import annotations

import math
import time

from hypothesis import example, given
from hypothesis import strategies as st

from macau_tables.server.latency import BOUNDS_MS, Latencies, difference, quantile
from tests.server.conftest import Srv

TABLE = "hilo-1"


@given(
    st.lists(st.floats(min_value=1e-6, max_value=59.0), min_size=1, max_size=300),
    st.sampled_from([0.5, 0.9, 0.99, 1.0]),
)
@example([0.00005], 0.5)  # exactly on the first bound
@example([0.001, 0.002, 0.003], 1.0)
def test_a_percentile_is_at_most_one_bucket_above_the_exact_one(
    seconds: list[float], q: float
) -> None:
    lat = Latencies()
    for s in seconds:
        lat.observe("bet", s)
    counts = lat.counts["bet"]
    assert sum(counts) == len(seconds)
    exact = sorted(seconds)[max(1, math.ceil(q * len(seconds))) - 1] * 1000
    got = quantile(counts, q)
    assert got is not None
    assert got >= exact * (1 - 1e-9)  # at most: never below the exact value
    assert got <= max(BOUNDS_MS[0], exact * 1.26)  # within one bucket


def test_quantiles_of_nothing_and_beyond_the_last_bucket() -> None:
    lat = Latencies()
    assert quantile([0] * (len(BOUNDS_MS) + 1), 0.99) is None
    lat.observe("bet", 70.0)
    assert quantile(lat.counts["bet"], 0.5) == math.inf
    assert lat.report()["commands"]["bet"]["p99_ms"] == f"> {BOUNDS_MS[-1]:.0f}"


def _reading(srv: Srv) -> dict[str, list[int]]:
    r = srv.client.get("/server/latency", headers=srv.headers("auditor"))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["bounds_ms"] == list(BOUNDS_MS)
    return {label: c["counts"] for label, c in body["commands"].items()}


def test_each_command_is_counted_under_its_op_or_refused(lite: Srv) -> None:
    before = _reading(lite)
    lite.ok("alice", TABLE, "join", {"amount": 1_000})
    lite.ok("bob", TABLE, "join", {"amount": 1_000})
    refused = lite.cmd("carol", TABLE, "join", {"amount": -5})
    assert 400 <= refused.status_code < 500
    after = _reading(lite)
    joins = difference(after["join"], before.get("join"))
    assert sum(joins) == 2
    assert sum(difference(after["refused"], before.get("refused"))) == 1
    # timed around the whole command (its group commit included), not a stamp after it
    slowest = quantile(joins, 1.0)
    assert slowest is not None and slowest > BOUNDS_MS[0]
    assert lite.client.get("/server/latency", headers=lite.headers("alice")).status_code == 403


def test_the_reading_counts_the_group_commits_batches_and_checkpoints(lite: Srv) -> None:
    """SQLite: the group commit's counters ride along (each command a unit of a batch;
    a checkpoint after the first batch)."""

    def group() -> dict[str, int]:
        r = lite.client.get("/server/latency", headers=lite.headers("supervisor"))
        assert r.status_code == 200, r.text
        found = r.json()["group_commit"]
        assert isinstance(found, dict)
        return found

    before = group()
    lite.ok("alice", TABLE, "join", {"amount": 1_000})
    lite.ok("bob", TABLE, "join", {"amount": 1_000})
    after = group()
    assert after["units"] - before["units"] >= 2
    assert after["batches"] - before["batches"] >= 1
    # two joins write rows (journal, postings, holds...) and take time in their units
    assert after["rows"] - before["rows"] >= 2 * 4
    assert after["units_ms"] >= before["units_ms"] and after["commit_ms"] >= 0
    # the checkpoint runs in its own thread: it may still be copying
    for _ in range(100):
        if after["checkpoints"] >= 1:
            break
        time.sleep(0.05)
        after = group()
    assert after["checkpoints"] >= 1 and after["wal_pages"] >= 0
    assert after["restart_wait_ms"] >= 0 and after["wal_restarts"] >= 0


def test_the_reading_shows_what_memory_grows_with(lite: Srv) -> None:
    """``memory``: the journal entries the loaded tables hold (what the process grows
    with, docs/operations.md) — each recorded event one more — and the resident memory."""

    def memory() -> dict[str, int]:
        r = lite.client.get("/server/latency", headers=lite.headers("auditor"))
        assert r.status_code == 200, r.text
        return dict(r.json()["memory"])

    before = memory()
    held = [a for a in lite.floor.tables.values() if a.engine is not None]
    assert before["tables_loaded"] == len(held) >= 1
    assert before["journal_entries"] == sum(a.seq + 1 for a in held)
    seq = lite.floor.tables[TABLE].seq
    reply = lite.ok("alice", TABLE, "join", {"amount": 1_000})
    after = memory()
    assert reply["seq"] > seq
    assert after["journal_entries"] - before["journal_entries"] == reply["seq"] - seq
    assert after["rss_bytes"] > 10_000_000  # (Linux: a Python server is tens of MB)
