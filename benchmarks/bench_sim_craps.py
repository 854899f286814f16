"""Craps simulation speed: the numba kernel against crapssim and the readable engine.

One player, the same in all three: a Pass Line bet of 6 units on every come-out, and once
the point is set the largest odds the Macau cap allows (CR-2.2: the odds may win at most
the flat bet — 3 units on 4/10, 4 on 5/9, 5 on 6/8, i.e. 1/2x, 2/3x, 5/6x odds).

* ``kernel``: ``craps_sim.simulate_chunk`` — dice drawn from the chunk's PCG64 Generator
  and played by the numba core (also shown: ``run_dice`` on pre-drawn dice, which copies
  the (n, 2) array into two int8 columns first);
* ``crapssim``: ``crapssim.Table`` with ``BetPassLine(6)`` and
  ``OddsAmount(PassLine, {4: 3, 10: 3, 5: 4, 9: 4, 6: 5, 8: 5})``, ``Table.run``;
* ``engine``: ``craps_sim.run_engine`` — the same program on the readable ``CrapsTable``
  (placing through ``place_bet``, settling through the ledger, journalled).

Each figure is the median of 5 runs (min and max too), measured in this run; the ratios are
of the medians. Run with ``make bench`` or ``.venv/bin/python benchmarks/bench_sim_craps.py
[--json]``. crapssim comes with the ``bench`` extra (``pip install -e '.[bench]'``); without
it the script says so and measures the other two.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import results  # benchmarks/results.py: the figures for docs/benchmarks.md
from macau_tables.analysis.kernels import craps_sim
from macau_tables.analysis.kernels.craps_sim import CrapsProgram
from macau_tables.analysis.kernels.rng import generator
from macau_tables.analysis.simresult import ChunkResult

RUNS = 5
KERNEL_ROLLS = 5_000_000  # per run
CRAPSSIM_ROLLS = 20_000
ENGINE_ROLLS = 3_000
FLAT = 6
ODDS = {4: 3, 10: 3, 5: 4, 9: 4, 6: 5, 8: 5}  # the cap of CR-2.2 on a flat bet of 6
PROGRAM = CrapsProgram.of(pass_line=FLAT, odds="max")


def measure(work: Callable[[int], tuple[int, int]]) -> tuple[list[float], list[float]]:
    """RUNS runs of ``work(run) -> (rolls, net in units·100)``: rolls/s and net per roll."""
    rates: list[float] = []
    nets: list[float] = []
    for run in range(RUNS):
        start = time.perf_counter()
        rolls, net = work(run)
        elapsed = time.perf_counter() - start
        rates.append(rolls / elapsed)
        nets.append(net / 100 / rolls)
    return rates, nets


def _net(result: ChunkResult) -> int:
    """The player's net in avos, from the exact counts and nets (stake per line known)."""
    compiled = craps_sim.compile_program(PROGRAM)
    total = 0
    for line, labels in result.counts.items():
        if " + full " in line:
            continue  # "Pass Line + full odds": the same decisions again, combined
        kind = "pass" if line == "Pass Line" else "pass_odds"
        point = 0 if line == "Pass Line" else int(line.rsplit(" ", 1)[1])
        stake = int(compiled.stake[craps_sim.KIND_NAMES.index(kind), point])
        for label, count in labels.items():
            total += int(result.nets[line][label] * stake) * count
    return total


def bench_kernel() -> tuple[list[float], list[float]]:
    craps_sim.simulate_chunk(0, 0, 1_000, {"program": PROGRAM})  # compile / load the cache

    def work(run: int) -> tuple[int, int]:
        r = craps_sim.simulate_chunk(2026, run, KERNEL_ROLLS, {"program": PROGRAM})
        return r.rounds, _net(r)

    return measure(work)


def bench_core() -> tuple[list[float], list[float]]:
    # run_dice's input is an (n, 2) array: the timing includes splitting it into the two int8
    # columns the core reads (a copy), which is why it can come out below simulate_chunk
    dice = [
        generator(run).integers(1, 7, size=(KERNEL_ROLLS, 2), dtype="int8") for run in range(RUNS)
    ]
    craps_sim.run_dice(dice[0][:1000], PROGRAM)

    def work(run: int) -> tuple[int, int]:
        r = craps_sim.run_dice(dice[run], PROGRAM)
        return r.rounds, _net(r)

    return measure(work)


def bench_engine() -> tuple[list[float], list[float]]:
    def work(run: int) -> tuple[int, int]:
        dice = generator(100 + run).integers(1, 7, size=(ENGINE_ROLLS, 2))
        r = craps_sim.run_engine(dice, PROGRAM)
        return r.rounds, _net(r)

    return measure(work)


def bench_crapssim() -> tuple[list[float], list[float]] | str:
    try:
        import crapssim
        from crapssim.bet import PassLine
        from crapssim.strategy import AggregateStrategy, BetPassLine, OddsAmount
    except ImportError as exc:
        return f"crapssim is not installed ({exc}); `make bench` installs it (the bench extra)"

    def work(run: int) -> tuple[int, int]:
        table = crapssim.Table(seed=run)
        bankroll = 10**9
        strategy = AggregateStrategy(BetPassLine(FLAT), OddsAmount(PassLine, dict(ODDS)))
        player = table.add_player(bankroll=bankroll, strategy=strategy)
        table.run(max_rolls=CRAPSSIM_ROLLS, verbose=False)
        # crapssim's bankroll is a float: read back to avos for the printed net only
        net = round((player.total_player_cash - bankroll) * 100)
        return table.dice.n_rolls, net

    return measure(work)


def _fmt(x: float) -> str:
    return f"{x:,.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    figures: dict[str, tuple[list[float], list[float]]] = {}
    figures["kernel (simulate_chunk: PCG64 dice + numba)"] = bench_kernel()
    figures["kernel on pre-drawn dice (run_dice)"] = bench_core()
    peer = bench_crapssim()
    if not isinstance(peer, str):
        figures[f"crapssim {_version()} (Table.run)"] = peer
    figures["readable engine (CrapsTable, run_engine)"] = bench_engine()
    seconds = time.perf_counter() - start
    medians = {name: statistics.median(rates) for name, (rates, _) in figures.items()}
    names = list(figures)
    kernel, engine = medians[names[0]], medians[names[-1]]
    ratios = {"kernel / engine": kernel / engine}
    if not isinstance(peer, str):
        crapssim_rate = medians[names[2]]
        ratios["kernel / crapssim"] = kernel / crapssim_rate
        ratios["crapssim / engine"] = crapssim_rate / engine
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "runs": RUNS,
        "player": f"Pass Line {FLAT} + odds {ODDS} (CR-2.2 cap)",
        "sizes": {"kernel": KERNEL_ROLLS, "crapssim": CRAPSSIM_ROLLS, "engine": ENGINE_ROLLS},
        "figures": {
            name: {"median": medians[name], "min": min(r), "max": max(r), "runs": r}
            for name, (r, _) in figures.items()
        },
        "ratios": ratios,
        "crapssim": peer if isinstance(peer, str) else "measured",
        "seconds": seconds,
    }
    player = f"Pass Line {FLAT} + max odds"
    page = [
        results.row(
            f"kernel, {player}",
            kernel,
            "rolls/s",
            against=f"crapssim {_version()}, the same player, same run"
            if not isinstance(peer, str)
            else f"crapssim (not measured: {peer})",
            against_value=None if isinstance(peer, str) else medians[names[2]],
            kind="peer",
        ),
        results.row(
            f"kernel, {player}",
            kernel,
            "rolls/s",
            against="the readable engine (CrapsTable), same run",
            against_value=engine,
        ),
    ]
    results.save("bench_sim_craps", "Craps simulation kernel", page, report=report)
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        print()
        return 0
    print(f"craps simulation, Pass Line {FLAT} + max odds {ODDS} (CR-2.2: odds win at most the "
          f"flat bet), median of {RUNS} runs, Python {platform.python_version()}")  # fmt: skip
    print(f"rolls per run: kernel {KERNEL_ROLLS:,}, crapssim {CRAPSSIM_ROLLS:,}, "
          f"engine {ENGINE_ROLLS:,}")  # fmt: skip
    rows = [("path", "rolls/s median", "min", "max", "net/roll (units)")]
    for name, (rates, nets) in figures.items():
        net = statistics.fmean(nets)
        rows.append((name, _fmt(medians[name]), _fmt(min(rates)), _fmt(max(rates)), f"{net:+.4f}"))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for i, row in enumerate(rows):
        pairs = enumerate(zip(row, widths, strict=True))
        cells = [c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in pairs]
        print("  ".join(cells))
        if i == 0:
            print("  ".join("-" * w for w in widths))
    if isinstance(peer, str):
        print(f"crapssim: not measured — {peer}")
    for name, ratio in ratios.items():
        print(f"speed-up {name}: {ratio:,.0f}x")
    exact = -FLAT * Fraction(7, 495) / Fraction(557, 165)
    print(f"(net/roll: the runs' mean player net per roll; exact {float(exact):+.4f} = -{FLAT}"
          " x 7/495 per Pass Line decision / 557/165 rolls per decision, odds 0)")  # fmt: skip
    print(f"total {seconds:.1f} s")
    return 0


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("crapssim")
    except Exception:
        return "?"


if __name__ == "__main__":
    raise SystemExit(main())
