"""Memory of a live table's journal: bytes per entry, per game, as the server keeps it.

A table's engine keeps its whole journal in memory for as long as the server runs
(docs/operations.md, "Memory"), so a journal entry's size is what the server's memory grows
by. Each game plays a fixed workload from a fixed seed; the bytes the table holds at the
end (``tracemalloc``: its journal, events and their strings, and the little else a table
keeps) are divided by its entries. Printed beside the baseline run in the same process:
the same workload with every entry keeping its JSON and canonical text (the simpler path;
``journal.CACHED_ENTRIES`` set past the journal's length). Entries and events are slotted
in both (that part of the change cannot be undone in one process: the code before it
measured 794 + 160 bytes an entry and event for Hi-Lo bets, docs/benchmarks.md).

    python benchmarks/bench_journal_memory.py [--json]

Figures only: nothing here asserts a size.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

import workloads  # noqa: E402  (benchmarks/workloads.py)
from macau_tables.core import journal as journal_module  # noqa: E402
from macau_tables.core.money import Money  # noqa: E402
from macau_tables.core.rng import Rng  # noqa: E402
from macau_tables.games.baccarat import (  # noqa: E402
    BaccaratBetKind,
    BaccaratPhase,
    BaccaratRules,
    BaccaratTable,
)

SHOES = 2  # baccarat: 8-deck shoes, two players betting every hand
ROLLS = 3_000  # craps: throws, a Pass Line bettor taking odds (workloads.craps_table)
TILE_ROUNDS = 150  # Pai Gow: rounds at a live tile table, three players


def baccarat() -> Any:
    rng = Rng.seeded("bench-journal-memory", "baccarat")
    t = BaccaratTable(BaccaratRules(decks=8))
    t.sit("alice", Money.of(10_000_000), seat=1)
    t.sit("bob", Money.of(10_000_000), seat=2)
    for _ in range(SHOES):
        t.start_shoe(rng)
        while t.phase is not BaccaratPhase.SHUFFLE:
            if t.phase is BaccaratPhase.BETTING and not t.bets:
                t.place_bet("alice", BaccaratBetKind.BANKER, Money.of(100))
                t.place_bet("bob", BaccaratBetKind.PLAYER, Money.of(100))
            t.play_hand()
    return t


def craps() -> Any:
    return workloads.craps_table(Rng.seeded("bench-journal-memory", "craps"), ROLLS)


def paigow() -> Any:
    from tests.games.tiletable_helpers import play_round, seated

    rng = Rng.seeded("bench-journal-memory", "paigow")
    t = seated("paigow", buy_in=10_000_000)
    for _ in range(TILE_ROUNDS):
        play_round(t, rng)
    return t


GAMES: dict[str, Callable[[], Any]] = {"baccarat": baccarat, "craps": craps, "paigow": paigow}


def measure(build: Callable[[], Any], cached: int) -> tuple[int, float]:
    """(entries, bytes per entry) of the table ``build`` plays, entries keeping their
    caches ``cached`` entries behind the head."""
    saved = journal_module.CACHED_ENTRIES
    journal_module.CACHED_ENTRIES = cached
    try:
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        table = build()
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.stop()
        entries = len(table.journal)
        return entries, held / entries
    finally:
        journal_module.CACHED_ENTRIES = saved


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="Example: python benchmarks/bench_journal_memory.py --json",
    )
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rows = []
    for name, build in GAMES.items():
        measure(build, journal_module.CACHED_ENTRIES)  # warm: the modules' own caches
        entries, now = measure(build, journal_module.CACHED_ENTRIES)
        _, before = measure(build, sys.maxsize)
        rows.append(
            {"game": name, "entries": entries, "bytes_per_entry": now, "all_cached": before}
        )
    import results  # benchmarks/results.py: the figures for docs/benchmarks.md

    page = [
        results.row(
            f"{r['game']}: memory a journal entry",
            r["bytes_per_entry"],
            "bytes",
            against="every entry keeping its JSON and text",
            against_value=r["all_cached"],
            better="lower",
        )
        for r in rows
    ]
    results.save("bench_journal_memory", "Journal memory", page, report={"games": rows})
    if a.json:
        print(json.dumps(rows))
        return
    print(
        "journal memory per entry (tracemalloc: what the table holds / its entries), "
        f"the last {journal_module.CACHED_ENTRIES} entries keeping their JSON and text, "
        "beside every entry keeping them"
    )
    print(f"  {'game':<10}{'entries':>9}{'bytes/entry':>13}{'all cached':>12}{'ratio':>8}")
    for r in rows:
        print(
            f"  {r['game']:<10}{r['entries']:>9}{r['bytes_per_entry']:>13.0f}"
            f"{r['all_cached']:>12.0f}{r['all_cached'] / r['bytes_per_entry']:>7.1f}x"
        )


if __name__ == "__main__":
    main()
