"""Speed where a user waits: whole commands, timed as processes, against targets.

Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_startup.py [--runs 5] [--json]``.
Every figure is the wall time of a whole ``macau-tables …`` process (start-up, imports,
work, output), the median of ``--runs`` runs (min and max shown).

1. **First calls** (compile and build costs, paid once per installation): with an empty
   table cache and an empty numba cache (fresh ``MACAU_TABLES_CACHE`` and
   ``NUMBA_CACHE_DIR``), each command once; then ``python -m macau_tables.analysis.warm``
   from empty caches (every table and kernel at once).
2. **Steady state** (warm caches, what a user waits for every day): each command
   ``--runs`` times, against its target, and against its baseline in the same run:
   ``simulate paigow --player-strategy optimal`` against the same job with the house way;
   ``simulate baccarat --rounds 20000000`` against the numpy baseline script
   (``baseline_baccarat_numpy.py``, whole process, same hands).

Processes run with bytecode caching on (``PYTHONDONTWRITEBYTECODE`` removed), as an
installed package does: the first runs write the ``.pyc`` files. Other sessions on a shared
machine slow some runs: the load average is printed with the figures, and each command's
CPU time (user + system) next to its wall time. Figures only: nothing asserts. About 2-4
minutes on a 2-core machine.
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
import tempfile
import time
from pathlib import Path
from typing import Any

import results  # benchmarks/results.py: the figures for docs/benchmarks.md

HERE = Path(__file__).resolve().parent
CLI = [sys.executable, "-c", "from macau_tables.cli.app import main; main()"]
BASELINE = [sys.executable, str(HERE / "baseline_baccarat_numpy.py")]
HINT = ["paigow", "hint", "6-6", "4-5", "2-4", "1-2"]
SIM_TILES = ["simulate", "paigow", "--rounds", "100000", "--workers", "1", "--seed", "1"]
BIG = "20000000"

#: name, argv, target in seconds (None: a reference figure)
COMMANDS: list[tuple[str, list[str], float | None]] = [
    ("--help", [*CLI, "--help"], None),
    ("par paigow --json", [*CLI, "par", "paigow", "--json"], 1.5),
    ("paigow hint 6-6 4-5 2-4 1-2", [*CLI, *HINT], 1.0),
    ("par baccarat --decks 8 --json", [*CLI, "par", "baccarat", "--decks", "8", "--json"], 0.8),
    (
        "simulate paigow (house way), 100k rounds, 1 worker",
        [*CLI, *SIM_TILES, "--player-strategy", "house-way", "--json"],
        None,
    ),
    (
        "simulate paigow --player-strategy optimal, same",
        [*CLI, *SIM_TILES, "--player-strategy", "optimal", "--json"],
        None,
    ),
    (
        f"simulate baccarat --rounds {BIG}",
        [*CLI, "simulate", "baccarat", "--rounds", BIG, "--seed", "1", "--json"],
        None,
    ),
    (f"numpy baseline, {BIG} hands (1 process)", [*BASELINE, "--rounds", BIG], None),
]
COLD = {"par paigow --json", "paigow hint 6-6 4-5 2-4 1-2", "par baccarat --decks 8 --json"}


def _env(tables: str, numba: str) -> dict[str, str]:
    env = dict(os.environ)
    env["MACAU_TABLES_CACHE"] = tables
    env["NUMBA_CACHE_DIR"] = numba
    src = str(HERE.parent / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    env["COLUMNS"] = "100"
    # as an installed package runs: with its .pyc files (pip compiles them at install)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


CPU: dict[str, list[float]] = {}  # CPU seconds (user + system) of each timed process


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _wall(argv: list[str], env: dict[str, str], name: str = "") -> float:
    cpu = _cpu()
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[3:])} failed:\n{done.stderr[-2000:]}")
    if name:
        CPU.setdefault(name, []).append(_cpu() - cpu)
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per steady-state figure")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    report: dict[str, Any] = {"python": platform.python_version(), "cpus": os.cpu_count()}
    report["load_before"] = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        cold: dict[str, float] = {}
        for name, cmd, _ in COMMANDS:
            if name in COLD or name.startswith("simulate baccarat"):
                fresh = Path(tempfile.mkdtemp(dir=tmp))
                cold[name] = _wall(cmd, _env(str(fresh / "t"), str(fresh / "n")))
        tables, numba = str(Path(tmp) / "tables"), str(Path(tmp) / "numba")
        env = _env(tables, numba)
        cold["python -m macau_tables.analysis.warm (everything)"] = _wall(
            [sys.executable, "-m", "macau_tables.analysis.warm"], env
        )
        report["first_call_s"] = cold
        steady: dict[str, list[float]] = {}
        for name, cmd, _ in COMMANDS:
            runs = (
                args.runs if "baseline" not in name and BIG not in name else max(3, args.runs // 2)
            )
            steady[name] = [_wall(cmd, env, name) for _ in range(runs)]
        report["steady_s"] = steady
        report["steady_cpu_s"] = CPU
    report["load_after"] = os.getloadavg()
    med = {k: statistics.median(v) for k, v in steady.items()}
    names = [n for n, _, _ in COMMANDS]
    ratio_tiles = med[names[5]] / med[names[4]]
    ratio_bac = med[names[7]] / med[names[6]]
    ratio_bac_min = min(steady[names[7]]) / min(steady[names[6]])
    report["optimal_over_house_way"] = ratio_tiles
    report["numpy_over_kernel_end_to_end"] = ratio_bac
    report["seconds"] = time.perf_counter() - started
    page = [
        results.row(
            f"macau-tables {name}, warm caches",
            med[name],
            "s",
            against="target",
            against_value=target,
            kind="target",
            better="lower",
        )
        for name, _, target in COMMANDS
        if target is not None
    ]
    page += [
        results.row(
            f"simulate baccarat --rounds {BIG}, whole process",
            med[names[6]],
            "s",
            against="the numpy baseline, the same hands, whole process",
            against_value=med[names[7]],
            better="lower",
        ),
        results.row(
            "simulate paigow, optimal player, 100k rounds",
            med[names[5]],
            "s",
            against="the same with the house way",
            against_value=med[names[4]],
            better="lower",
        ),
        *(
            results.row(
                f"first call: {name}",
                s,
                "s",
                against="the same command, warm" if name in med else None,
                against_value=med.get(name),
                better="lower",
                note="once per installation, empty caches",
            )
            for name, s in cold.items()
        ),
    ]
    results.save("bench_startup", "Whole commands and first calls", page, report=report)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return 0
    load = ", ".join(f"{x:.1f}" for x in report["load_before"])
    print(
        f"whole-process timings (CPython {report['python']}, {report['cpus']} CPUs, "
        f"load average before: {load})"
    )
    print("first calls, empty table and numba caches (once per installation):")
    for name, s in cold.items():
        print(f"  {name:<58} {s:7.2f} s")
    print("steady state, warm caches (median of runs):")
    print(f"  {'command':<54} {'median':>6} {'min':>6} {'max':>6} {'CPU':>6}  target")
    for name, _, target in COMMANDS:
        v = steady[name]
        verdict = ""
        if target is not None:
            verdict = f"<= {target:g} s: {'met' if med[name] <= target else 'NOT met'}"
        cpu = statistics.median(CPU[name])
        print(f"  {name:<54} {med[name]:6.2f} {min(v):6.2f} {max(v):6.2f} {cpu:6.2f}  {verdict}")
    print("  (seconds of wall time; CPU: median user + system seconds of the process)")
    print(
        f"optimal / house way: {ratio_tiles:.2f}x (target <= 1.5x: "
        f"{'met' if ratio_tiles <= 1.5 else 'NOT met'})"
    )
    print(
        f"numpy baseline / simulate baccarat: {ratio_bac:.2f}x (target >= 3x: "
        f"{'met' if ratio_bac >= 3 else 'NOT met'}); fastest run against fastest run "
        f"{ratio_bac_min:.2f}x"
    )
    load = ", ".join(f"{x:.1f}" for x in report["load_after"])
    print(f"load average after: {load}; total {report['seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
