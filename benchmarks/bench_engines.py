"""Throughput of the readable engines: RNG, tile evaluation, craps, baccarat, Pai Gow.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_engines.py [--json]``.
Each figure is the median of 5 runs (min and max shown too); the sizes are printed. The
whole script takes well under a minute on a 2-core machine. Figures only: nothing here
asserts a speed.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import results  # benchmarks/results.py: the figures for docs/benchmarks.md
import workloads  # benchmarks/workloads.py: the readable-engine workloads
from macau_tables.core.rng import Rng
from macau_tables.tiles import FULL_SET, PG1985, Tile, evaluate, settings

RUNS = 5

# Sizes: one run of each benchmark does this much work.
RNG_DRAWS = 40_000  # Rng.below(52) draws
RNG_SHUFFLES = 1_000  # permutation(32) shuffles
EVAL_PAIRS = 50_000  # evaluate(a, b, rules) calls, uncached and cached
SETTINGS_HANDS = 10_000  # settings(four_tiles, rules) calls
CRAPS_ROLLS = 8_000  # throws of the dice
BACCARAT_SHOES = 6  # full 8-deck shoes per run
PAIGOW_ROUNDS = 500  # 8-seat rounds

SIZES = {
    "rng_draws": RNG_DRAWS,
    "rng_shuffles": RNG_SHUFFLES,
    "eval_pairs": EVAL_PAIRS,
    "settings_hands": SETTINGS_HANDS,
    "craps_rolls": CRAPS_ROLLS,
    "baccarat_shoes": BACCARAT_SHOES,
    "paigow_rounds": PAIGOW_ROUNDS,
    "runs": RUNS,
}

PEERS = (
    ("crapssim", "rolls/s", "~20-30k"),
    ("PyBaccarat", "hands/s", "~200k"),
)


@dataclass
class Figure:
    name: str
    unit: str
    rates: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.rates)

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "unit": self.unit,
            "median": self.median,
            "min": min(self.rates),
            "max": max(self.rates),
            "runs": self.rates,
        }


def measure(work: Callable[[], int | tuple[int, ...]]) -> list[tuple[float, ...]]:
    """Run ``work`` RUNS times; each call returns the count(s) of what it did."""
    rates: list[tuple[float, ...]] = []
    for _ in range(RUNS):
        start = time.perf_counter()
        counts = work()
        elapsed = time.perf_counter() - start
        counts = counts if isinstance(counts, tuple) else (counts,)
        rates.append(tuple(c / elapsed for c in counts))
    return rates


def figures(names: list[tuple[str, str]], work: Callable[[], Any]) -> list[Figure]:
    rates = measure(work)
    return [Figure(name, unit, [r[i] for r in rates]) for i, (name, unit) in enumerate(names)]


# --- 1. core.rng -----------------------------------------------------------------------------


def bench_rng() -> list[Figure]:
    rng = Rng.seeded("bench")

    def draws() -> int:
        for _ in range(RNG_DRAWS):
            rng.below(52)
        return RNG_DRAWS

    def shuffles() -> int:
        for _ in range(RNG_SHUFFLES):
            rng.permutation(32)
        return RNG_SHUFFLES

    def os_shuffles() -> int:  # the baseline: the standard library's shuffle, OS bits
        system = random.SystemRandom()
        for _ in range(RNG_SHUFFLES):
            system.shuffle(list(range(32)))
        return RNG_SHUFFLES

    def os_draws() -> int:  # the baseline: one draw straight from the OS CSPRNG
        for _ in range(RNG_DRAWS):
            secrets.randbelow(52)
        return RNG_DRAWS

    return (
        figures([("rng below(52)", "draws/s")], draws)
        + figures([("rng permutation(32)", "shuffles/s")], shuffles)
        + figures([("secrets.randbelow(52) (the OS CSPRNG)", "draws/s")], os_draws)
        + figures([("random.SystemRandom().shuffle(32)", "shuffles/s")], os_shuffles)
    )


# --- 2. tiles (pg1985) -----------------------------------------------------------------------


def _random_tiles(rng: Rng, count: int, n: int) -> list[tuple[Tile, ...]]:
    """``n`` groups of ``count`` different tiles of one set: each shuffled set is cut into
    ``32 // count`` disjoint groups (cheaper than one shuffle per group)."""
    groups: list[tuple[Tile, ...]] = []
    while len(groups) < n:
        order = [FULL_SET[i] for i in rng.permutation(32)]
        groups += [tuple(order[i : i + count]) for i in range(0, 32, count)]
    return groups[:n]


def bench_tiles() -> list[Figure]:
    rng = Rng.seeded("bench", "tiles")
    pairs = _random_tiles(rng, 2, EVAL_PAIRS)
    fours = _random_tiles(rng, 4, SETTINGS_HANDS)
    uncached = getattr(evaluate, "__wrapped__", evaluate)

    def eval_uncached() -> int:
        for a, b in pairs:
            uncached(a, b, PG1985)
        return len(pairs)

    def eval_cached() -> int:
        for a, b in pairs:
            evaluate(a, b, PG1985)
        return len(pairs)

    def settings_of() -> int:
        for four in fours:
            settings(four, PG1985)
        return len(fours)

    for a, b in pairs:  # warm the cache, so the cached figure measures hits only
        evaluate(a, b, PG1985)
    label = "uncached" if uncached is not evaluate else "no cache found"
    return (
        figures([(f"tiles evaluate ({label})", "hands/s")], eval_uncached)
        + figures([("tiles evaluate (cached)", "hands/s")], eval_cached)
        + figures([("tiles settings(4 tiles)", "calls/s")], settings_of)
    )


# --- 3. craps --------------------------------------------------------------------------------


def bench_craps() -> list[Figure]:
    rng = Rng.seeded("bench", "craps")

    def rolls() -> int:
        workloads.craps_table(rng, CRAPS_ROLLS)
        return CRAPS_ROLLS

    return figures([("craps Pass Line + odds", "rolls/s")], rolls)


# --- 4. baccarat -----------------------------------------------------------------------------


def bench_baccarat() -> list[Figure]:
    rng = Rng.seeded("bench", "baccarat")
    return figures(
        [("baccarat 8-deck shoes, Banker bet", "hands/s")],
        lambda: workloads.baccarat_shoes(rng, BACCARAT_SHOES),
    )


# --- 5. Pai Gow ------------------------------------------------------------------------------


def bench_paigow() -> list[Figure]:
    rng = Rng.seeded("bench", "paigow")
    return figures(
        [("paigow 8-seat rounds, house way", "rounds/s"), ("paigow seat-rounds", "seats/s")],
        lambda: (PAIGOW_ROUNDS, workloads.paigow_rounds(rng, PAIGOW_ROUNDS)),
    )


# --- report ----------------------------------------------------------------------------------


def _fmt(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def print_table(figs: list[Figure], seconds: float) -> None:
    print(f"macau-tables engine throughput ({platform.python_implementation()} "
          f"{platform.python_version()}, median of {RUNS} runs)")  # fmt: skip
    print("sizes per run: " + ", ".join(f"{k}={v:,}" for k, v in SIZES.items() if k != "runs"))
    print("  (paigow seat-rounds: the 7 bettor seats plus the banker's, per round)")
    rows = [("name", "unit", "median", "min", "max")]
    rows += [(f.name, f.unit, _fmt(f.median), _fmt(min(f.rates)), _fmt(max(f.rates))) for f in figs]
    rows += [(f"{n} peer (documented, not measured)", u, v, "-", "-") for n, u, v in PEERS]
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for i, row in enumerate(rows):
        pairs = enumerate(zip(row, widths, strict=True))
        cells = [c.ljust(w) if j < 2 else c.rjust(w) for j, (c, w) in pairs]
        print("  ".join(cells).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    print(f"total {seconds:.1f} s")


def save(figs: list[Figure], report: dict[str, Any]) -> None:
    """The page's rows: each engine beside its peer (the peers' own documented figures,
    not measured here: crapssim is measured side by side in bench_sim_craps.py) or the
    simple way of doing the same work."""
    by = {f.name: f.median for f in figs}
    uncached = next((v for k, v in by.items() if k.startswith("tiles evaluate (un")), None)
    rows = [
        results.row(
            "core.rng below(52), HMAC_DRBG",
            by["rng below(52)"],
            "draws/s",
            against="secrets.randbelow(52), the OS CSPRNG, same run",
            against_value=by["secrets.randbelow(52) (the OS CSPRNG)"],
        ),
        results.row(
            "core.rng permutation(32)",
            by["rng permutation(32)"],
            "shuffles/s",
            against="random.SystemRandom().shuffle, the OS CSPRNG, same run",
            against_value=by["random.SystemRandom().shuffle(32)"],
        ),
        results.row(
            "tiles evaluate, cached",
            by["tiles evaluate (cached)"],
            "hands/s",
            against="the same, uncached",
            against_value=uncached,
        ),
        results.row("tiles settings of four tiles", by["tiles settings(4 tiles)"], "calls/s"),
        results.row(
            "CrapsTable, Pass Line + odds (journal and ledger included)",
            by["craps Pass Line + odds"],
            "rolls/s",
            against="crapssim, as its project documents it",
            against_value=25_000,
            kind="peer",
        ),
        results.row(
            "BaccaratTable, 8-deck shoes, a Banker bet",
            by["baccarat 8-deck shoes, Banker bet"],
            "hands/s",
            against="PyBaccarat, as its project documents it",
            against_value=200_000,
            kind="peer",
        ),
        results.row("Pai Gow 8-seat rounds, house way", by["paigow seat-rounds"], "seat-rounds/s"),
    ]
    results.save("bench_engines", "Readable engines", rows, report=report)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    figs: list[Figure] = []
    for bench in (bench_rng, bench_tiles, bench_craps, bench_baccarat, bench_paigow):
        figs += bench()
    seconds = time.perf_counter() - start
    report = {
        "python": platform.python_version(),
        "runs": RUNS,
        "sizes": SIZES,
        "figures": [f.as_json() for f in figs],
        "peers": [
            {"name": n, "unit": u, "figure": v, "note": "peer (documented, not measured)"}
            for n, u, v in PEERS
        ],
        "seconds": seconds,
    }
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
    else:
        print_table(figs, seconds)
    save(figs, report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
