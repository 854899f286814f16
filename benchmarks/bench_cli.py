"""What a user waits for: whole-process wall time of `macau-tables` commands.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_cli.py [--json] [--runs N]``.
Each command runs as a new process (``python -c "…main()" ARGS``, the console script's
code), output to /dev/null, after one warm-up run (warm file and numba caches); the figure
is the median of the runs (min and max shown too), with the process's CPU time (user +
system) beside it: on a loaded machine the wall time grows, the CPU time much less.
``bare python`` is the interpreter alone. Figures only: nothing here asserts a speed (the
start-up test, tests/cli/test_cli_app.py, checks what --help imports).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import results  # benchmarks/results.py: the figures for docs/benchmarks.md

ROOT = Path(__file__).resolve().parents[1]
MAIN = "from macau_tables.cli.app import main; main()"
EXAMPLE = str(ROOT / "docs" / "examples" / "paigow-round.json")
JOURNAL = str(ROOT / "tests" / "games" / "data" / "craps_golden.json")

COMMANDS: list[tuple[str, list[str] | None]] = [
    ("bare python", None),
    ("--help", ["--help"]),
    ("--version", ["--version"]),
    ("tiles hand 6-6 4-5", ["tiles", "hand", "6-6", "4-5"]),
    ("paigow settle (example)", ["paigow", "settle", EXAMPLE]),
    ("verify (craps golden journal)", ["verify", JOURNAL]),
    ("par craps", ["par", "craps"]),
    ("par baccarat --decks 8", ["par", "baccarat", "--decks", "8"]),
    ("paigow hint 6-6 4-5 2-4 1-2", ["paigow", "hint", "6-6", "4-5", "2-4", "1-2"]),
    ("par paigow", ["par", "paigow"]),
]


def _once(args: list[str] | None) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one process."""
    argv = [sys.executable, "-c", "pass"] if args is None else [sys.executable, "-c", MAIN, *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per command")
    parser.add_argument("--only", help="run only the commands whose label contains this")
    opts = parser.parse_args()
    rows = []
    for label, args in COMMANDS:
        if opts.only and opts.only not in label:
            continue
        _once(args)  # warm-up: file cache, numba cache
        runs = [_once(args) for _ in range(opts.runs)]
        walls = [w for w, _ in runs]
        rows.append(
            {
                "command": label,
                "wall_median_s": statistics.median(walls),
                "wall_min_s": min(walls),
                "wall_max_s": max(walls),
                "cpu_median_s": statistics.median(c for _, c in runs),
            }
        )
    meta = {"python": platform.python_version(), "cpus": os.cpu_count(), "runs": opts.runs}
    bare = next((r for r in rows if r["command"] == "bare python"), None)
    page = [
        results.row(
            f"macau-tables {r['command']}",
            r["wall_median_s"],
            "s",
            against="bare python (the interpreter alone), same run",
            against_value=bare["wall_median_s"] if bare else None,
            kind="limit",
            better="lower",
            note=f"CPU {r['cpu_median_s']:.2f} s",
        )
        for r in rows
        if r["command"] != "bare python"
    ]
    if not opts.only:
        results.save(
            "bench_cli", "What a user waits for", page, report={"meta": meta, "commands": rows}
        )
    if opts.json:
        print(json.dumps({"meta": meta, "commands": rows}, indent=2))
        return
    print(f"whole process, median of {opts.runs} after a warm-up; {os.cpu_count()} cores")
    print(f"{'command':<32} {'wall':>8} {'(min … max)':>18} {'cpu':>8}")
    for r in rows:
        span = f"{r['wall_min_s']:.2f} … {r['wall_max_s']:.2f}"
        print(
            f"{r['command']:<32} {r['wall_median_s']:>7.2f}s {span:>18} {r['cpu_median_s']:>7.2f}s"
        )


if __name__ == "__main__":
    main()
