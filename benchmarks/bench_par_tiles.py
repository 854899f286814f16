"""Exact Pai Gow / Taiwan Pai Kao PAR: the counting kernel against its targets, and its speed-up.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_par_tiles.py [--json]``.
Targets (issue #6, this 2-core machine): Pai Gow house way vs house way over all
736,281,000 deals ≤ 2 s; optimal player vs house way ≤ 10 s; one setting hint ≤ 50 ms
after the first call. Each figure is the median of 5 runs (min and max shown). The first
calls are timed separately: numba loading (or compiling) the kernel, and the first PAR,
which also builds the per-class tables (8,130 hand classes: their three settings, and the
readable house way's choice for each). Taiwan Pai Kao (forced players vs house-way banker)
is timed too.

In the same run the plain readable path — ``HOUSE_WAY.choose`` for both hands and
``paigow.compare_seat``, the engine's own code, no memo — is timed on a sample of random
deals, and the speed-up printed against the kernel's deals per second; likewise a hint
against the readable enumeration of a sample of the 20,475 banker hands. The headline
figures (exact edges) are printed with the timings. Figures only: nothing asserts.

Issue 14: the table cache (``analysis.tablecache``) is switched off here
(``MACAU_TABLES_CACHE=off``) and its in-memory copies dropped before each timed run, so the
figures are the kernel's own, not a cache hit. A hint reads the full set's counts (one
kernel pass, cached): "first hint" is that pass, "one hint" the look-up after it. The
``prange`` build of the kernel (parallel over the first side's classes) is timed against
the serial one on the same full pass.
About 30-60 s on a 2-core machine.
"""

from __future__ import annotations

import os

os.environ["MACAU_TABLES_CACHE"] = "off"  # time the kernel, not the table cache

import argparse
import itertools
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

import results  # benchmarks/results.py: the figures for docs/benchmarks.md
from macau_tables.analysis import tablecache
from macau_tables.analysis import tiles as at
from macau_tables.analysis.kernels import tiles_exact as kx
from macau_tables.analysis.par import BetLine, percent
from macau_tables.analysis.tiles import DEALS, hint, paigow_comparison, paigow_par, taiwan_par
from macau_tables.core.rng import Rng
from macau_tables.games.tiles import paigow
from macau_tables.tiles import FULL_SET, PG1985, Tile, settings
from macau_tables.tiles.strategies import HOUSE_WAY

RUNS = 5
READABLE_DEALS = 1_500  # random deals played by the readable path
HINT_SAMPLE = 20  # random hands hinted per run
READABLE_HINT_HANDS = 1_500  # banker hands of one hint enumerated by the readable path
TARGETS = {"pg_hw_vs_hw_s": 2.0, "pg_optimal_vs_hw_s": 10.0, "hint_ms": 50.0}


def _times(work: Callable[[], object], runs: int = RUNS) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        out.append(time.perf_counter() - start)
    return out


def _deals(n: int) -> list[tuple[list[Tile], list[Tile]]]:
    rng = Rng.seeded("bench", "par-tiles")
    out: list[tuple[list[Tile], list[Tile]]] = []
    while len(out) < n:
        order = [FULL_SET[i] for i in rng.permutation(32)]
        out += [(order[i : i + 4], order[i + 4 : i + 8]) for i in range(0, 32, 8)]
    return out[:n]


def _readable_deals(deals: list[tuple[list[Tile], list[Tile]]]) -> int:
    for player, banker in deals:
        paigow.compare_seat(HOUSE_WAY.choose(player, PG1985), HOUSE_WAY.choose(banker, PG1985))
    return len(deals)


def _readable_hint(four: list[Tile], n: int) -> int:
    """The readable hint on the first ``n`` of the 20,475 banker hands: the banker's house
    way, and each of the hand's three settings compared by the engine."""
    rest = list(FULL_SET)
    for t in four:
        rest.remove(t)
    mine = settings(four, PG1985)
    for other in itertools.islice(itertools.combinations(rest, 4), n):
        theirs = HOUSE_WAY.choose(other, PG1985)
        for setting in mine:
            paigow.compare_seat(setting, theirs)
    return n


def _edges(line: BetLine) -> str:
    return (
        f"player edge {percent(line.house_edge, 4)}, banker edge "
        f"{percent(line.extras['banker_edge'], 4)}, P(win/loss/push) "
        f"{percent(line.extras['p_win'], 2)} / {percent(line.extras['p_loss'], 2)} / "
        f"{percent(line.extras['p_push'], 2)}"
    )


def save(report: dict[str, Any]) -> None:
    """The page's rows: the counting kernel beside the readable path (the engines' own
    house way and comparison, extrapolated to every deal) and the targets."""
    med = {k: statistics.median(v) for k, v in report.items() if isinstance(v, list)}
    rows = [
        results.row(
            "Pai Gow, every one of the 736,281,000 deals, house way vs house way",
            med["pg_hw_vs_hw_s"],
            "s",
            against="the readable path (house way and compare_seat), extrapolated",
            against_value=report["readable_full_enumeration_hours"] * 3600,
            better="lower",
        ),
        results.row(
            "Pai Gow, optimal vs house way, every deal",
            med["pg_optimal_vs_hw_s"],
            "s",
            against="target",
            against_value=TARGETS["pg_optimal_vs_hw_s"],
            kind="target",
            better="lower",
        ),
        results.row(
            "Taiwan Pai Kao, forced vs house way, every deal", med["tw_hw_s"], "s", better="lower"
        ),
        results.row(
            "paigow hint (after the first, which counts once per installation)",
            med["hint_ms"],
            "ms",
            against="the readable path, extrapolated from a sample of banker hands",
            against_value=report["readable_hint_ms"],
            better="lower",
        ),
    ]
    results.save("bench_par_tiles", "Exact Pai Gow and Taiwan Pai Kao", rows, report=report)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    start_all = time.perf_counter()
    report: dict[str, Any] = {"python": platform.python_version(), "runs": RUNS}

    # --- first calls --------------------------------------------------------------------------
    start = time.perf_counter()
    one = np.zeros((1, 21), dtype=np.int64)
    kx.pair_counts(
        np.ones(21, dtype=np.int64), one, np.zeros((1, 1, 2), dtype=np.int64),
        np.zeros((1, 4), dtype=np.int64), np.zeros((1, 4), dtype=np.int64),
        np.zeros((1, 2), dtype=np.int64), kx.PG_FIRST_PLAYER,
    )  # fmt: skip
    report["kernel_load_s"] = time.perf_counter() - start
    start = time.perf_counter()
    paigow_par()
    report["pg_first_call_s"] = time.perf_counter() - start

    # --- medians ------------------------------------------------------------------------------
    def fresh(work: Callable[[], object]) -> Callable[[], object]:
        def run() -> object:
            tablecache.forget_memory()  # count again: the kernel, not a cached table
            return work()

        return run

    report["pg_hw_vs_hw_s"] = _times(fresh(paigow_par))
    report["pg_optimal_vs_hw_s"] = _times(fresh(lambda: paigow_par("optimal", "house-way")))
    start = time.perf_counter()
    taiwan_par()
    report["tw_first_call_s"] = time.perf_counter() - start
    report["tw_hw_s"] = _times(fresh(taiwan_par))
    # prange: the same full pass, serial build against parallel build
    import numba

    u, opts = at._universe(), at._options("paigow")
    other = at._fixed_codes(at._choices("house-way", "paigow"), "paigow")
    full = (
        np.array(at.FULL_COUNTS, dtype=np.int64), u.k, opts.codes, u.types, u.mults, other,
        kx.PG_FIRST_PLAYER,
    )  # fmt: skip
    kx.prange = numba.prange
    parallel = numba.njit(parallel=True, cache=False)(kx._pair_counts)
    start = time.perf_counter()
    parallel(*full)
    report["prange_compile_s"] = time.perf_counter() - start
    report["pass_serial_s"] = _times(lambda: kx.pair_counts(*full))
    report["pass_prange_s"] = _times(lambda: parallel(*full))
    report["prange_threads"] = numba.get_num_threads()
    hands = [p for p, _ in _deals(HINT_SAMPLE)]
    tablecache.forget_memory()
    start = time.perf_counter()
    hint(hands[0])
    report["hint_first_call_ms"] = (time.perf_counter() - start) * 1000
    per_hint = _times(lambda: [hint(h) for h in hands])
    report["hint_ms"] = [t * 1000 / len(hands) for t in per_hint]

    # --- the readable path, same run ---------------------------------------------------------
    deals = _deals(READABLE_DEALS)
    readable_s = min(_times(lambda: _readable_deals(deals), runs=1))
    readable_rate = READABLE_DEALS / readable_s
    kernel_rate = DEALS / statistics.median(report["pg_hw_vs_hw_s"])
    report["readable_deals_per_s"] = readable_rate
    report["kernel_deals_per_s"] = kernel_rate
    report["speedup_par"] = kernel_rate / readable_rate
    report["readable_full_enumeration_hours"] = DEALS / readable_rate / 3600
    hint_readable_s = min(_times(lambda: _readable_hint(hands[0], READABLE_HINT_HANDS), 1))
    readable_hint_ms = hint_readable_s / READABLE_HINT_HANDS * 20_475 * 1000
    report["readable_hint_ms"] = readable_hint_ms
    report["speedup_hint"] = readable_hint_ms / statistics.median(report["hint_ms"])

    # --- headline figures (exact) --------------------------------------------------------------
    edges: dict[str, str] = {}
    for c in (Fraction(4, 100), Fraction(5, 100)):
        start = time.perf_counter()
        comp = paigow_comparison(c)
        report[f"pg_comparison_{c.numerator * 100 // c.denominator}pct_s"] = (
            time.perf_counter() - start
        )
        for line in comp.lines:
            edges[f"PG {percent(c, 0)} {line.name}"] = _edges(line)
    for banker in ("house-way", "max-back", "optimal"):
        edges[f"TW 5% forced player vs banker {banker}"] = _edges(taiwan_par(banker).lines[0])
    report["results"] = edges
    report["seconds"] = time.perf_counter() - start_all
    save(report)

    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return 0
    med = {k: statistics.median(v) for k, v in report.items() if isinstance(v, list)}
    print(f"macau-tables exact tile PAR (Python {report['python']}, median of {RUNS} runs)")
    print(f"  kernel load/compile (first call)    {report['kernel_load_s']:8.2f} s")
    print(f"  PG first paigow_par (+ tables)      {report['pg_first_call_s']:8.2f} s")
    rows = [
        ("PG house way vs house way, all deals", "pg_hw_vs_hw_s", "s"),
        ("PG optimal vs house way, all deals", "pg_optimal_vs_hw_s", "s"),
        ("TW forced vs house way, all deals", "tw_hw_s", "s"),
        ("one hint (after the first)", "hint_ms", "ms"),
    ]
    for label, key, unit in rows:
        v = report[key]
        target = f"  (target ≤ {TARGETS[key]:g} {unit})" if key in TARGETS else ""
        print(f"  {label:<36}{med[key]:8.3f} {unit}  min {min(v):.3f}  max {max(v):.3f}{target}")
    print(f"  TW first taiwan_par (+ tables)      {report['tw_first_call_s']:8.2f} s")
    print(f"  first hint (one full counting pass) {report['hint_first_call_ms']:8.1f} ms")
    ser, par = med["pass_serial_s"], med["pass_prange_s"]
    print(
        f"  full pass, 3 settings × 8,130 classes: serial {ser:.3f} s, prange on "
        f"{report['prange_threads']} threads {par:.3f} s ({ser / par:.2f}×; prange compile "
        f"{report['prange_compile_s']:.1f} s)"
    )
    print(
        f"readable path: {report['readable_deals_per_s']:,.0f} deals/s on {READABLE_DEALS:,} "
        f"random deals (house way ×2 + compare_seat); all {DEALS:,} deals would take "
        f"{report['readable_full_enumeration_hours']:,.0f} h"
    )
    print(
        f"kernel: {report['kernel_deals_per_s']:,.0f} deals/s — speed-up "
        f"{report['speedup_par']:,.0f}×"
    )
    print(
        f"hint: readable {report['readable_hint_ms']:,.0f} ms (extrapolated from "
        f"{READABLE_HINT_HANDS:,} of 20,475 banker hands) vs {med['hint_ms']:.2f} ms — "
        f"speed-up {report['speedup_hint']:,.0f}×"
    )
    four, five = report["pg_comparison_4pct_s"], report["pg_comparison_5pct_s"]
    print(f"comparison sheets (8 pairings): {four:.1f} s at 4%, {five:.1f} s at 5%")
    for name, text in edges.items():
        print(f"  {name}: {text}")
    print(f"total {report['seconds']:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
