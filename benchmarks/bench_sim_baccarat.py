"""Throughput of the baccarat simulation kernel (issue #7) against the readable engine.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_sim_baccarat.py [--json]``.
Full 8-deck Macau shoes (BA-2.1 shuffle, cut 14 from the end, burn 8; BA-3.1 one more
hand), every BA-13 bet decided each hand. Figures, each the median of 5 runs:

- the readable engine (``BaccaratTable``: shuffle, cut, burn, one Banker bet a hand, deal,
  settle, journal), on a small sample of whole shoes, measured in the same run;
- the kernel on 1 core: ``simulate_chunk`` of one chunk;
- the kernel on 2 cores: two chunks at once on 2 threads (the kernel releases the GIL for a
  whole chunk), hands of both chunks over the wall time;
- the kernel on 1 core with a continuous shuffler (BA-R4), for reference;
- the numpy baseline (``baseline_baccarat_numpy.py``: shoes shuffled with
  ``Generator.permuted``, dealt in lock-step), same hands, same run.

The 1-core kernel is also given as CPU time per hand (``time.process_time``), which other
sessions on a shared machine disturb less than wall time. The speed-ups and the targets (at
least 50x the engine; at least 2,000,000 hands/s on 2 cores; at least 20M hands/s
per core) are printed; nothing here asserts them.
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
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import baseline_baccarat_numpy  # benchmarks/: the numpy baseline
import results  # benchmarks/results.py: the figures for docs/benchmarks.md
import workloads  # benchmarks/workloads.py: the readable-engine workloads
from macau_tables.analysis.kernels.baccarat_sim import simulate_chunk
from macau_tables.core.rng import Rng

RUNS = 5
ENGINE_SHOES = 3  # whole 8-deck shoes per engine run (~80 hands each)
KERNEL_HANDS = 2_000_000  # hands per chunk per kernel run
SEED = 20_240_707
TARGET_SPEEDUP = 50.0
TARGET_TWO_CORES = 2_000_000.0
TARGET_PER_CORE = 20_000_000.0


def median_rate(work: Callable[[], int]) -> tuple[float, list[float]]:
    """Run ``work`` RUNS times (it returns the hands it played): median hands/s, all runs."""
    rates = []
    for _ in range(RUNS):
        start = time.perf_counter()
        hands = work()
        rates.append(hands / (time.perf_counter() - start))
    return statistics.median(rates), rates


def engine_hands() -> int:
    """The readable path: whole shoes through BaccaratTable, one Banker bet a hand."""
    return workloads.baccarat_shoes(Rng.seeded("bench-sim", "baccarat"), ENGINE_SHOES)


def kernel_hands(options: dict[str, object], chunk: int = 0) -> Callable[[], int]:
    def work() -> int:
        return simulate_chunk(SEED, chunk, KERNEL_HANDS, options).rounds

    return work


def numpy_hands() -> int:
    counts = baseline_baccarat_numpy.simulate(KERNEL_HANDS, SEED)
    return counts["banker"] + counts["player"] + counts["tie"]


def cpu_ns_per_hand(runs: int = RUNS) -> float:
    """Median CPU time per hand of one chunk on this thread (less disturbed by other load)."""
    out = []
    for i in range(runs):
        start = time.process_time()
        simulate_chunk(SEED, 100 + i, KERNEL_HANDS, {})
        out.append((time.process_time() - start) / KERNEL_HANDS * 1e9)
    return statistics.median(out)


def two_core_hands(pool: ThreadPoolExecutor) -> Callable[[], int]:
    runs = iter(range(1_000))

    def work() -> int:
        first = 2 * next(runs)  # fresh chunks each run, as a job's chunks would be
        futures = [pool.submit(simulate_chunk, SEED, first + i, KERNEL_HANDS, {}) for i in (0, 1)]
        return sum(f.result().rounds for f in futures)

    return work


def _fmt(x: float) -> str:
    return f"{x:,.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    start = time.perf_counter()

    t0 = time.perf_counter()
    simulate_chunk(SEED, 999, 1_000, {})  # compile, or load numba's cache
    simulate_chunk(SEED, 999, 1_000, {"continuous_shuffler": True})
    first_call = time.perf_counter() - t0

    engine, engine_runs = median_rate(engine_hands)
    one, one_runs = median_rate(kernel_hands({}))
    machine, machine_runs = median_rate(kernel_hands({"continuous_shuffler": True}))
    cpu_ns = cpu_ns_per_hand()
    with ThreadPoolExecutor(2) as pool:
        two, two_runs = median_rate(two_core_hands(pool))
    base, base_runs = median_rate(numpy_hands)
    seconds = time.perf_counter() - start

    rows: list[dict[str, Any]] = [
        {"name": "engine BaccaratTable (readable)", "median": engine, "runs": engine_runs},
        {"name": "kernel, 1 core", "median": one, "runs": one_runs},
        {"name": "kernel, 2 cores (2 threads)", "median": two, "runs": two_runs},
        {"name": "kernel, 1 core, continuous shuffler", "median": machine, "runs": machine_runs},
        {"name": "numpy baseline, 1 core", "median": base, "runs": base_runs},
    ]
    speedup_one, speedup_two = one / engine, two / engine
    verdict = {
        "speedup_1_core": speedup_one,
        "speedup_2_cores": speedup_two,
        "target_speedup": TARGET_SPEEDUP,
        "target_2_cores_hands_per_s": TARGET_TWO_CORES,
        "meets_speedup": speedup_one >= TARGET_SPEEDUP,
        "meets_2_cores": two >= TARGET_TWO_CORES,
        "kernel_cpu_ns_per_hand": cpu_ns,
        "target_per_core_hands_per_s": TARGET_PER_CORE,
        "meets_per_core": max(one, 1e9 / cpu_ns) >= TARGET_PER_CORE,
        "kernel_over_numpy_1_core": one / base,
        "kernel_2_cores_over_numpy": two / base,
    }
    report = {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "runs": RUNS,
        "sizes": {"engine_shoes": ENGINE_SHOES, "kernel_hands_per_chunk": KERNEL_HANDS},
        "first_call_s": first_call,
        "figures": rows,
        "unit": "hands/s",
        **verdict,
        "seconds": seconds,
    }
    page = [
        results.row(
            "kernel, whole 8-deck Macau shoes, 1 core",
            one,
            "hands/s",
            against="the readable engine (BaccaratTable), same run",
            against_value=engine,
        ),
        results.row(
            "kernel, 1 core",
            one,
            "hands/s",
            against="a numpy baseline (vectorised shoes), same run",
            against_value=base,
        ),
        results.row(
            "kernel, CPU per hand",
            cpu_ns,
            "ns",
            against="target: 20M hands/s a core",
            against_value=1e9 / TARGET_PER_CORE,
            kind="target",
            better="lower",
        ),
        results.row(
            "kernel, 2 threads",
            two,
            "hands/s",
            against="the same kernel on 1 core (the limit: 2×)",
            against_value=one,
            kind="limit",
        ),
        results.row("kernel, continuous shuffler, 1 core", machine, "hands/s"),
    ]
    results.save("bench_sim_baccarat", "Baccarat simulation kernel", page, report=report)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return 0
    print(
        f"baccarat simulation, full 8-deck Macau shoes ({platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} CPUs, median of {RUNS} runs)"
    )
    print(
        f"sizes per run: engine {ENGINE_SHOES} shoes; kernel {KERNEL_HANDS:,} hands per chunk "
        f"(2 chunks on 2 cores); first kernel calls (compile or cache load) {first_call:.2f} s"
    )
    width = max(len(r["name"]) for r in rows)
    print(f"{'name'.ljust(width)}  {'hands/s':>12}  {'min':>12}  {'max':>12}")
    for r in rows:
        print(
            f"{r['name'].ljust(width)}  {_fmt(r['median']):>12}  {_fmt(min(r['runs'])):>12}"
            f"  {_fmt(max(r['runs'])):>12}"
        )
    ok = {True: "met", False: "NOT met"}
    print(
        f"speed-up over the engine: {speedup_one:,.0f}x on 1 core, {speedup_two:,.0f}x on 2 cores"
        f" (target >= {TARGET_SPEEDUP:.0f}x: {ok[verdict['meets_speedup']]})"
    )
    print(
        f"2 cores: {_fmt(two)} hands/s (target >= {_fmt(TARGET_TWO_CORES)}: "
        f"{ok[verdict['meets_2_cores']]}); 2-core / 1-core = {two / one:.2f}"
    )
    print(
        f"per core: {_fmt(one)} hands/s wall, {cpu_ns:.1f} ns of CPU per hand = "
        f"{_fmt(1e9 / cpu_ns)} hands/s (target >= {_fmt(TARGET_PER_CORE)}: "
        f"{ok[verdict['meets_per_core']]})"
    )
    print(
        f"against the numpy baseline: {one / base:.1f}x on 1 core, {two / base:.1f}x with "
        f"2 threads (the baseline is one process)"
    )
    print(f"total {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
