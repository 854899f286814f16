"""Exact craps PAR: the whole sheet, and its speed-up over the same chain played on a table.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_par_craps.py [--json]``.
Each figure is the median of 5 runs (min and max shown) of ``craps_par`` for the Macau
rule set and for single odds (``odds_cap="stake"``): every line's Markov chain walked with
the engine's ``BetKind.resolve`` over the 36 dice outcomes and solved exactly. The plain
path (``through_table=True``: every transition played on a fresh ``CrapsTable``, bets
placed, dice thrown, the ledger read back) is timed on the same Macau sheet in the same
run (median of 3), checked identical, and the speed-up printed. Figures only: nothing
asserts. About 5-10 s on a 2-core machine, most of it the plain path.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import results  # benchmarks/results.py: the figures for docs/benchmarks.md
from macau_tables.analysis.craps import craps_par
from macau_tables.games.craps import CrapsRules

RUNS = 5
PLAIN_RUNS = 3  # the plain path takes about a second a run


def _ms(work: Callable[[], object], runs: int = RUNS) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        out.append((time.perf_counter() - start) * 1000)
    return out


def _row(name: str, ms: list[float], lines: int) -> dict[str, Any]:
    median = statistics.median(ms)
    return {
        "name": name,
        "median_ms": median,
        "min_ms": min(ms),
        "max_ms": max(ms),
        "runs_ms": ms,
        "lines": lines,
        "lines_per_s": lines / median * 1000,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    start_all = time.perf_counter()

    macau, single = CrapsRules(), CrapsRules(odds_cap="stake")
    lines = len(craps_par(macau).lines)  # also warms the imports
    rows = [
        _row("craps_par (Macau)", _ms(lambda: craps_par(macau)), lines),
        _row("craps_par (odds_cap=stake)", _ms(lambda: craps_par(single)), lines),
    ]
    plain_ms = _ms(lambda: craps_par(macau, through_table=True), PLAIN_RUNS)
    rows.append(_row("craps_par through_table (plain)", plain_ms, lines))
    same = craps_par(macau, through_table=True).to_json() == craps_par(macau).to_json()
    speedup = rows[2]["median_ms"] / rows[0]["median_ms"]
    seconds = time.perf_counter() - start_all

    report = {
        "python": platform.python_version(),
        "runs": RUNS,
        "plain_runs": PLAIN_RUNS,
        "figures": rows,
        "plain_identical": same,
        "speedup": speedup,
        "seconds": seconds,
    }
    page = [
        results.row(
            "craps_par, the Macau pay table (Markov chains over the bets' data)",
            rows[0]["median_ms"],
            "ms",
            against="the plain path: each bet played on CrapsTable, same run",
            against_value=rows[2]["median_ms"],
            better="lower",
        ),
        results.row("craps_par, odds_cap=stake", rows[1]["median_ms"], "ms", better="lower"),
    ]
    results.save("bench_par_craps", "Exact craps", page, report=report)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return 0
    print(
        f"macau-tables exact craps PAR ({platform.python_implementation()} "
        f"{platform.python_version()}; median of {RUNS}, plain path median of {PLAIN_RUNS})"
    )
    header = ("sheet", "lines", "median ms", "min ms", "max ms", "lines/s")
    table = [header] + [
        (
            r["name"],
            str(r["lines"]),
            f"{r['median_ms']:.1f}",
            f"{r['min_ms']:.1f}",
            f"{r['max_ms']:.1f}",
            f"{r['lines_per_s']:,.0f}",
        )
        for r in rows
    ]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for i, row in enumerate(table):
        pairs = enumerate(zip(row, widths, strict=True))
        cells = [c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in pairs]
        print("  ".join(cells).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    print(f"plain path identical: {same}; speed-up over the plain path: {speedup:.1f}x")
    print(f"total {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
