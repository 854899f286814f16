"""Simulation scaling: one job on 1 and 2 local workers and on a 2-worker Dask LocalCluster.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_sim_scaling.py [--json]``.
The same job (seed, rounds, chunking) runs in this process, on 2 local processes
(``concurrent.futures``) and on a Dask ``LocalCluster(n_workers=2, processes=True)``; the
script checks that the three give identical totals, and prints rounds/s (median of 5 runs,
min and max too; each run includes starting the process pool or connecting the client,
not starting the cluster). In the same run it times the plain readable path on a small
sample — the engine (:class:`BaccaratTable` / :class:`CrapsTable`) playing the same game —
and the session replay (numba loop against the readable :func:`sessions.play`), and prints
the speed-ups. Figures only: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import results  # benchmarks/results.py: the figures for docs/benchmarks.md
import workloads  # benchmarks/workloads.py: the readable-engine workloads
from macau_tables.analysis import sessions as ss
from macau_tables.analysis.simulation import Job, SimResult, run
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng

RUNS = 5
SIZES = {"baccarat": 16_000_000, "craps": 32_000_000}
CHUNKS = {"baccarat": 500_000, "craps": 1_000_000}
READABLE_SAMPLE = {"baccarat": 2, "craps": 4_000}  # shoes / rolls on the engine
SESSIONS = 2_000  # Martingale sessions of 100 hands replayed (numba), 40 readable


def median_rate(work: Callable[[], float], runs: int) -> list[float]:
    return [work() for _ in range(runs)]


def readable_baccarat(shoes: int) -> float:
    rng = Rng.seeded("bench", "sim-scaling")
    start = time.perf_counter()
    hands = workloads.baccarat_shoes(rng, shoes)
    return hands / (time.perf_counter() - start)


def readable_craps(rolls: int) -> float:
    from macau_tables.games.craps import CrapsTable

    rng = Rng.seeded("bench", "sim-scaling")
    start = time.perf_counter()
    t = CrapsTable.seated(["alice"], chips=Money.of(10_000_000), rng=rng)
    for _ in range(rolls):
        if t.point is None and not t.bets_of("alice"):
            t.place_bet("alice", "pass", Money.of(6))
        t.throw("alice", rng=rng)
    return rolls / (time.perf_counter() - start)


def session_rates(series: dict[str, Any]) -> tuple[float, float, bool]:
    """Hands/s of Martingale sessions replayed by the numba loop and by the readable play()."""
    rounds = ss.BaccaratBets().compile(series)
    player = ss.Player(1000, 10, ss.Martingale(), stop_win=200, session_rounds=100)
    ss.run_sessions(rounds, player, 10)  # compile / load the cache
    start = time.perf_counter()
    fast = ss.run_sessions(rounds, player, SESSIONS)
    fast_rate = sum(fast.played) / (time.perf_counter() - start)
    start = time.perf_counter()
    slow = ss.run_sessions(rounds, player, 40, method="readable")
    slow_rate = sum(slow.played) / (time.perf_counter() - start)
    same = slow.finals == fast.finals[:40]
    return fast_rate, slow_rate, same


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(SIZES), default="baccarat")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per job")
    parser.add_argument("--runs", type=int, default=RUNS, help="runs per figure (median)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    game = args.game
    rounds = args.rounds or SIZES[game]
    job = Job(game, rounds, 2024, {}, CHUNKS[game])
    started = time.perf_counter()
    run(Job(game, 10_000, 1, {}, 5_000), workers=1)  # compile / load the numba caches here

    timings: dict[str, tuple[list[float], SimResult]] = {}

    def timed(label: str, **kw: Any) -> None:
        rates: list[float] = []
        last: SimResult | None = None
        for _ in range(args.runs):
            last = run(job, **kw)
            rates.append(last.rounds_per_second)
        assert last is not None
        timings[label] = (rates, last)

    timed("1 worker (in-process)", workers=1)
    timed("2 local workers (baccarat: threads)", workers=2)
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        run(Job(game, 10_000, 1, {}, 5_000), cluster=cluster.scheduler_address)  # warm workers
        timed("Dask LocalCluster, 2 workers", cluster=cluster.scheduler_address)

    totals = [r.total.counts for _, r in timings.values()]
    identical = all(t == totals[0] for t in totals)
    sample = READABLE_SAMPLE[game]
    readable = [
        readable_baccarat(sample) if game == "baccarat" else readable_craps(sample)
        for _ in range(args.runs)
    ]
    series_job = Job("baccarat", 200_000, 7, {"series": True}, 100_000)
    fast_s, slow_s, same_s = session_rates(run(series_job, workers=1).total.series)
    seconds = time.perf_counter() - started

    base = statistics.median(timings["1 worker (in-process)"][0])
    plain = statistics.median(readable)
    unit = "hands/s" if game == "baccarat" else "rolls/s"
    rows = [
        (label, statistics.median(r), min(r), max(r), statistics.median(r) / base)
        for label, (r, _) in timings.items()
    ]
    report = {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "game": game,
        "rounds": rounds,
        "chunk_rounds": CHUNKS[game],
        "runs": args.runs,
        "identical_totals": identical,
        "figures": [
            {"name": n, "unit": unit, "median": m, "min": lo, "max": hi, "scaling": s}
            for n, m, lo, hi, s in rows
        ],
        "readable": {"unit": unit, "median": plain, "sample": sample},
        "speedup_vs_readable": base / plain,
        "sessions": {"fast": fast_s, "readable": slow_s, "identical": same_s},
        "seconds": seconds,
    }
    page = [
        results.row(
            f"{name}, {game}",
            m,
            unit,
            against="1 worker in-process (the limit on 2 cores: 2×)",
            against_value=base,
            kind="limit",
        )
        for name, m, _, _, _ in rows[1:]
    ]
    page.append(
        results.row(
            "sessions replayed (Martingale, 100 hands)",
            fast_s,
            "hands/s",
            against="the readable play(), same finals",
            against_value=slow_s,
        )
    )
    results.save("bench_sim_scaling", "Simulation: workers and Dask", page, report=report)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return 0
    print(
        f"simulation scaling: {game}, {rounds:,} rounds in chunks of {CHUNKS[game]:,}, "
        f"median of {args.runs} runs ({platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} CPUs)"
    )
    print(f"{'where':<32}{'median':>14}{'min':>14}{'max':>14}  {'vs 1 worker':>11}")
    for name, m, lo, hi, s in rows:
        print(f"{name:<32}{m:>14,.0f}{lo:>14,.0f}{hi:>14,.0f}  {s:>10.2f}x")
    print(f"  ({unit}; identical totals in all three: {'yes' if identical else 'NO'})")
    what = f"{sample} shoes" if game == "baccarat" else f"{sample:,} rolls"
    print(
        f"readable engine, {what}: {plain:,.0f} {unit} (median of {args.runs}); "
        f"kernel on 1 worker: {base / plain:,.0f}x faster"
    )
    print(
        f"sessions (Martingale, 100 hands): numba {fast_s:,.0f} hands/s, readable play() "
        f"{slow_s:,.0f} hands/s: {fast_s / slow_s:,.0f}x "
        f"(same finals: {'yes' if same_s else 'NO'})"
    )
    print(f"total {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
