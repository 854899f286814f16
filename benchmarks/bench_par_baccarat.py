"""Exact baccarat PAR: the compiled enumerator against the ≤ 10 ms target, and its speed-up.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_par_baccarat.py [--json]``.
For full shoes of 6, 8 and 12 decks and a random depleted shoe (a seeded shuffle of 8
decks, 200 cards dealt), each figure is the median of 5 runs (min and max shown) of
``count_deals`` (the kernel and its conversion to exact Python ints: every ordered six-card
deal counted) and of ``baccarat_par`` (the same plus the five exact BetLines). The readable
enumerator (the engine's ``play_out`` on every rank sequence) is timed once on the 8-deck
shoe in the same run, checked equal, and the speed-up printed. The first call — numba
compiling, or loading its cache — is timed separately. Figures only: nothing asserts.
About 15-25 s on a 2-core machine, nearly all of it the readable enumerator.

Issue 14: a full shoe's counts are kept in the table cache (``analysis.tablecache``), so
``par baccarat`` reads them without numba. Here the cache is off and its in-memory copy
dropped before each run: the figures are the kernel's (bench_startup.py times the whole
``par baccarat`` process, which reads the cache).
"""

from __future__ import annotations

import os

os.environ["MACAU_TABLES_CACHE"] = "off"  # time the kernel, not the table cache

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import results  # benchmarks/results.py: the figures for docs/benchmarks.md
from macau_tables.analysis import tablecache
from macau_tables.analysis.baccarat import (
    baccarat_par,
    count_deals,
    count_deals_readable,
)
from macau_tables.core.rng import Rng
from macau_tables.games.baccarat import BaccaratRules, composition, fresh_composition, full_set

RUNS = 5
TARGET_MS = 10.0
DEPLETED_DEALT = 200  # cards dealt from 8 decks before the depleted shoe's hand
READABLE_DECKS = 8


def _depleted() -> tuple[int, ...]:
    rng = Rng.seeded("bench", "par-baccarat")
    cards = rng.shuffle(full_set(8))
    return composition(cards[DEPLETED_DEALT:])


def _ms(work: Callable[[], object]) -> list[float]:
    out = []
    for _ in range(RUNS):
        start = time.perf_counter()
        work()
        out.append((time.perf_counter() - start) * 1000)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    start_all = time.perf_counter()

    start = time.perf_counter()
    count_deals(fresh_composition(8))
    first_call_ms = (time.perf_counter() - start) * 1000

    shoes: list[tuple[str, int, tuple[int, ...]]] = [
        (f"{d} decks", d, fresh_composition(d)) for d in (6, 8, 12)
    ]
    shoes.append((f"8 decks, {DEPLETED_DEALT} dealt", 8, _depleted()))
    rows: list[dict[str, Any]] = []
    for name, decks, comp in shoes:
        rules = BaccaratRules(decks=decks)
        kernel = _ms(lambda comp=comp: (tablecache.forget_memory(), count_deals(comp)))
        sheet = _ms(
            lambda comp=comp, rules=rules: (tablecache.forget_memory(), baccarat_par(rules, comp))
        )
        rows.append(
            {"shoe": name, "cards": sum(comp), "count_deals_ms": kernel, "par_sheet_ms": sheet}
        )

    comp8 = fresh_composition(READABLE_DECKS)
    start = time.perf_counter()
    slow = count_deals_readable(comp8)
    readable_ms = (time.perf_counter() - start) * 1000
    assert slow == count_deals(comp8), "the readable and compiled enumerators disagree"
    fast_ms = statistics.median(next(r for r in rows if r["shoe"] == "8 decks")["count_deals_ms"])
    speedup = readable_ms / fast_ms
    seconds = time.perf_counter() - start_all

    report = {
        "python": platform.python_version(),
        "runs": RUNS,
        "target_ms": TARGET_MS,
        "first_call_ms": first_call_ms,
        "shoes": [
            r
            | {
                "count_deals_median_ms": statistics.median(r["count_deals_ms"]),
                "par_sheet_median_ms": statistics.median(r["par_sheet_ms"]),
            }
            for r in rows
        ],
        "readable": {"decks": READABLE_DECKS, "ms": readable_ms, "runs": 1},
        "speedup": speedup,
        "seconds": seconds,
    }
    page = [
        results.row(
            "count_deals, 8 decks (every ordered deal)",
            fast_ms,
            "ms",
            against="the readable enumerator (the engine's play_out), same run",
            against_value=readable_ms,
            better="lower",
        ),
        *(
            results.row(
                f"full PAR sheet, {r['shoe']}",
                statistics.median(r["par_sheet_ms"]),
                "ms",
                against="target",
                against_value=TARGET_MS,
                kind="target",
                better="lower",
            )
            for r in rows
        ),
    ]
    results.save("bench_par_baccarat", "Exact baccarat", page, report=report)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return 0

    print(
        f"exact baccarat PAR ({platform.python_implementation()} {platform.python_version()}, "
        f"median of {RUNS} runs, ms per composition; target <= {TARGET_MS:g} ms)"
    )
    print(f"first call (imports numba, compiles or loads its cache): {first_call_ms:,.0f} ms")
    head = ("shoe", "cards", "count_deals", "min", "max", "par sheet", "min", "max", "target")
    table = [head]
    for r in rows:
        k, s = r["count_deals_ms"], r["par_sheet_ms"]
        ok = max(statistics.median(k), statistics.median(s)) <= TARGET_MS
        figures = [f"{f(x):.3f}" for x in (k, s) for f in (statistics.median, min, max)]
        table.append((r["shoe"], str(r["cards"]), *figures, "met" if ok else "MISSED"))
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    for i, row in enumerate(table):
        cells = zip(row, widths, strict=True)
        print("  ".join(c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(cells)))
        if i == 0:
            print("  ".join("-" * w for w in widths))
    print(
        f"readable enumerator (engine play_out), {READABLE_DECKS} decks, 1 run: "
        f"{readable_ms:,.0f} ms  -> speed-up x{speedup:,.0f} over count_deals ({fast_ms:.3f} ms)"
    )
    print(f"total {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
