"""Throughput of the tile-game simulation kernel against the readable engine, in one run.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_sim_tiles.py [--json]``.
Pai Gow, 8 places, house way for the banker and the 7 player seats. Three paths, each the
median of 5 runs (min and max shown), in player seat-rounds per second (7 per round; the
engine benchmark's "seat-rounds" also count the banker's seat, 8 per round):

1. ``tiles_sim.simulate_chunk``: the numba kernel, drawing woodpiles and dice itself;
2. the readable engine, a full round at a ``TileTable`` per round as ``bench_engines.py`` plays
   it (open, shuffle, 7 bets, dice, deal, 8 settings by house way, settle with the ledger);
3. the bare readable path: ``core.rng`` shuffle and dice, the engine's dealing order,
   ``strategy("house-way").choose`` for 8 hands and ``paigow.compare_seat`` for 7 seats.

The speed-ups are the kernel's figure over each readable figure. The kernel's first call
(lookup tables built from the readable strategies, numba's cached compile loaded) is timed
separately. Figures only: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import results  # benchmarks/results.py: the figures for docs/benchmarks.md
import workloads  # benchmarks/workloads.py: the readable-engine workloads
from macau_tables.analysis.kernels import tiles_sim
from macau_tables.core.rng import Rng
from macau_tables.games.tiles.paigow import compare_seat
from macau_tables.tiles import FULL_SET, PG1985
from macau_tables.tiles.strategies import strategy

RUNS = 5
KERNEL_ROUNDS = 500_000  # rounds per kernel run
ENGINE_ROUNDS = 200  # full engine rounds per run
BARE_ROUNDS = 400  # bare strategy + compare rounds per run
SEATS = 7  # player seats per 8-place round
OPTIONS: dict[str, object] = {"game": "paigow", "places": 8}
SIZES = {
    "kernel_rounds": KERNEL_ROUNDS,
    "engine_rounds": ENGINE_ROUNDS,
    "bare_rounds": BARE_ROUNDS,
    "runs": RUNS,
}


def measure(work: Callable[[], int]) -> list[float]:
    """Run ``work`` RUNS times; each call returns the rounds it played. Seat-rounds/s."""
    rates = []
    for _ in range(RUNS):
        start = time.perf_counter()
        rounds = work()
        rates.append(rounds * SEATS / (time.perf_counter() - start))
    return rates


def kernel_rounds() -> Callable[[], int]:
    chunks = itertools.count(1)  # a fresh chunk (stream) per run

    def work() -> int:
        return tiles_sim.simulate_chunk(2024, next(chunks), KERNEL_ROUNDS, OPTIONS).rounds

    return work


def engine_rounds(rng: Rng) -> Callable[[], int]:
    def work() -> int:
        workloads.paigow_rounds(rng, ENGINE_ROUNDS)
        return ENGINE_ROUNDS

    return work


def bare_rounds(rng: Rng) -> Callable[[], int]:
    way = strategy("house-way")

    def work() -> int:
        tally: dict[object, int] = {}
        for _ in range(BARE_ROUNDS):
            pile = rng.shuffle(FULL_SET)
            first = (sum(rng.dice(4)) - 1) % 8  # PG-R1: counted from the banker (seat 1)
            hands = {(first + k) % 8 + 1: pile[4 * k : 4 * k + 4] for k in range(8)}
            banker = way.choose(hands[1], PG1985)
            for seat in range(2, 9):
                result = compare_seat(way.choose(hands[seat], PG1985), banker)
                tally[result] = tally.get(result, 0) + 1
        return BARE_ROUNDS

    return work


def _fmt(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    t0 = time.perf_counter()
    tiles_sim.simulate_chunk(1, 0, 1_000, OPTIONS)  # tables + numba (cached) compile
    first_call = time.perf_counter() - t0
    figures = {
        "kernel simulate_chunk": measure(kernel_rounds()),
        "engine Round (full)": measure(engine_rounds(Rng.seeded("bench", "sim-tiles"))),
        "bare strategy + compare": measure(bare_rounds(Rng.seeded("bench", "sim-tiles-bare"))),
    }
    seconds = time.perf_counter() - start
    medians = {k: statistics.median(v) for k, v in figures.items()}
    fast = medians["kernel simulate_chunk"]
    speedups = {
        "vs engine Round": fast / medians["engine Round (full)"],
        "vs bare strategy + compare": fast / medians["bare strategy + compare"],
    }
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "unit": "player seat-rounds/s",
        "sizes": SIZES,
        "first_call_s": first_call,
        "figures": [
            {"name": k, "median": medians[k], "min": min(v), "max": max(v), "runs": v}
            for k, v in figures.items()
        ],
        "speedups": speedups,
        "seconds": seconds,
    }
    page = [
        results.row(
            "kernel, 8-seat Pai Gow rounds, house way",
            fast,
            "seat-rounds/s",
            against="the readable engine, same run",
            against_value=medians["engine Round (full)"],
        ),
        results.row(
            "kernel, 8-seat Pai Gow rounds, house way",
            fast,
            "seat-rounds/s",
            against="the bare strategy and comparison in Python, same run",
            against_value=medians["bare strategy + compare"],
        ),
    ]
    results.save("bench_sim_tiles", "Pai Gow simulation kernel", page, report=report)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return 0
    print(f"macau-tables Pai Gow simulation kernel vs readable engine "
          f"({platform.python_implementation()} {platform.python_version()}, "
          f"median of {RUNS} runs)")  # fmt: skip
    print("8 places, house way for the banker and the 7 players; unit: player seat-rounds/s")
    print("sizes per run: " + ", ".join(f"{k}={v:,}" for k, v in SIZES.items() if k != "runs"))
    rows = [("path", "median", "min", "max")]
    rows += [(k, _fmt(medians[k]), _fmt(min(v)), _fmt(max(v))) for k, v in figures.items()]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    for i, row in enumerate(rows):
        cells = [
            c.ljust(w) if j == 0 else c.rjust(w)
            for j, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    for name, ratio in speedups.items():
        print(f"speed-up {name}: {ratio:,.0f}x")
    print(f"kernel first call (tables + compile cache): {first_call:.2f} s")
    print(f"total {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
