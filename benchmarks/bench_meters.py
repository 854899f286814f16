"""Meters: how long an auditor waits for ``GET /meters`` of a busy gaming day.

Builds a SQLite floor (in-process, clocks off) with TABLES Hi-Lo tables (the server's test
double) where three players play ROUNDS rounds each (a bet per player per round: a hold
opened and settled, a join each), then times the floor's day report — every table's
journal entries and postings of the day read, both sides reconciled per account — cold
(first read) and warm (median of REPEAT). Hi-Lo has no PAR sheet: the PAR's own cost is the
analysis benchmarks' (bench_par_*), paid once per rule set and cached.

    python benchmarks/bench_meters.py                       # 10 tables x 100 rounds
    python benchmarks/bench_meters.py --tables 20 --rounds 200
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    from fastapi.testclient import TestClient
    from tests.server.conftest import Srv, make_settings
    from tests.server.conftest_game import register_hilo

    from macau_tables.server import meters as M
    from macau_tables.server.api import meters as api_meters
    from macau_tables.server.app import create_app
    from macau_tables.server.floor import Floor

    register_hilo()
    players = ("alice", "bob", "carol")
    with tempfile.TemporaryDirectory() as tmp:
        floor = Floor(make_settings(str(Path(tmp) / "floor.db")))
        with TestClient(create_app(floor=floor)) as client:
            srv = Srv(client, floor, dict(floor.demo_credentials))
            t0 = time.perf_counter()
            tables = ["hilo-1"]
            for i in range(2, args.tables + 1):
                r = client.post(
                    "/tables", json={"id": f"hilo-{i}", "game": "hilo"},
                    headers=srv.headers("supervisor"),
                )  # fmt: skip
                r.raise_for_status()
                tables.append(f"hilo-{i}")
            for p in players:
                srv.deposit(p, 10_000_000 * args.tables)
            for t in tables:
                for p in players:
                    srv.ok(p, t, "sit", {"amount": 2_000_000})
                for _ in range(args.rounds):
                    while floor.tables[t].engine.phase != "betting":  # type: ignore[union-attr]
                        assert srv.step(t)
                    for p in players:
                        srv.ok(p, t, "bet", {"amount": 1_000})
                    while floor.tables[t].engine.phase != "idle":  # type: ignore[union-attr]
                        assert srv.step(t)
            build = time.perf_counter() - t0
            day = M.GamingDay().day_of(M.now_ms())
            portal = client.portal  # type: ignore[union-attr]
            t0 = time.perf_counter()
            rep = portal.call(api_meters.day_report, floor, day)
            cold = time.perf_counter() - t0
            warm = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                portal.call(api_meters.day_report, floor, day)
                warm.append(time.perf_counter() - t0)
    assert rep["reconciled"], rep
    bets = args.tables * args.rounds * len(players)
    print(
        f"meters: {args.tables} tables, {bets:,} bets ({rep['totals']['wagered'] / 100:,.2f} MOP "
        f"wagered) built in {build:.1f} s; day report cold {cold * 1000:.0f} ms, "
        f"warm median {statistics.median(warm) * 1000:.0f} ms "
        f"({statistics.median(warm) / bets * 1e6:.1f} µs per bet); reconciled"
    )

    import results  # benchmarks/results.py: the figures for docs/benchmarks.md

    page = [
        results.row(
            f"GET /meters of a day of {bets:,} bets, warm",
            statistics.median(warm) * 1000,
            "ms",
            against="the first read (cold)",
            against_value=cold * 1000,
            better="lower",
            note=f"{statistics.median(warm) / bets * 1e6:.1f} µs a bet",
        )
    ]
    report = {"tables": args.tables, "bets": bets, "cold_s": cold, "warm_s": warm}
    results.save("bench_meters", "Meters", page, report=report)


if __name__ == "__main__":
    main()
