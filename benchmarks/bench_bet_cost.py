"""What one bet costs an engine when the table already holds N bets: N = 10 and N = 1000.

For each real game, a table in its betting phase is filled with N - 1 bets (untimed) and
then its next bets are timed one by one (the median of a few; of several tables, the
least): ``execute`` of the
``place_bet`` command as the server sends it, and the same followed by ``pending()`` (what
the server asks after each command). Both table sizes in this one process, alternated, and
printed as the ratio N=1000 / N=10 — about 1.0 when a bet's cost does not grow with the
bets on the table (baccarat's holds indexed by player, bet and spot with the BA-14
difference kept as a running sum; craps' layout by player with the odds on each flat bet;
a tile round's bets summed by person and seat). The players are as many at both sizes:
only the bets differ. The cyclic garbage collector's passes over the objects already there
are set aside while the bets are timed (``gc.freeze``): their cost grows with the process's
heap, whatever the engine does.

    python benchmarks/bench_bet_cost.py            # a few seconds
    python benchmarks/bench_bet_cost.py --json
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT), str(ROOT / "benchmarks")]

import results  # noqa: E402  (benchmarks/results.py: the figures for docs/benchmarks.md)
from macau_tables.core.money import Money  # noqa: E402
from macau_tables.core.rng import Rng  # noqa: E402
from macau_tables.games.baccarat import BaccaratRules, BaccaratTable  # noqa: E402
from macau_tables.games.contract import Actor, Command, time_out  # noqa: E402
from macau_tables.games.craps import CrapsTable  # noqa: E402
from macau_tables.games.tiles import TilePhase, TileTable, TileTableRules, open_table  # noqa: E402

SIZES = (10, 1000)
TIMED = 10  # bets timed at each size, one by one (their median)
ROUNDS = 7  # tables filled and timed at each size (the least of their medians)

Engine = Any
Table = Callable[[int], tuple[Engine, list[Command]]]


def baccarat(n: int) -> tuple[Engine, list[Command]]:
    """50 players (7 seated, the others standing: BA-15), Banker and Player in turn so the
    BA-14 difference stays within its limit."""
    t = BaccaratTable(BaccaratRules(decks=8))
    players = [f"p{i}" for i in range(50)]
    for i, p in enumerate(players):
        t.sit(p, Money.of(10_000_000), seat=i + 1 if i < 7 else None)
    t.start_shoe(Rng.seeded("bench", "bet-cost"))
    kinds = ("banker", "player")
    cmds = [
        Command(
            Actor.player(players[i % 50]),
            "place_bet",
            {"bet": kinds[(i // 50) % 2], "amount": 10_000},
        )
        for i in range(n)
    ]
    return t, cmds


def craps(n: int) -> tuple[Engine, list[Command]]:
    """20 players (CR's seats), one-roll and Big bets in turn (CR-12: any time)."""
    players = [f"p{i}" for i in range(20)]
    t = CrapsTable.seated(players, chips=Money.of(10_000_000), rng=Rng.seeded("bench", "c"))
    kinds = ("field", "hard6", "big6", "eleven", "any_craps", "big8")
    cmds = [
        Command(Actor.player(players[i % 20]), "place_bet", {"bet": kinds[i % 6], "amount": 1_000})
        for i in range(n)
    ]
    return t, cmds


def tiles(game: str) -> Table:
    def make(n: int) -> tuple[Engine, list[Command]]:
        """8 places, a player at each; the bank opened, the woodpile built; then bets on
        the bettors' own places (PG-4.6 / TW-2g)."""
        t: TileTable = open_table(TileTableRules(game=game), "t1")  # type: ignore[arg-type]
        for seat in range(1, 9):
            who = Actor.player(f"q{seat}")
            t.execute(Command(who, "sit", {"seat": seat}))
            t.execute(Command(who, "buy_in", {"amount": 100_000_000}))
        rng = Rng.seeded("bench", f"bet-cost:{game}")
        while t.phase is not TilePhase.BETTING:
            p = t.pending()[0]
            if "open_bank" in p.operations:
                t.execute(Command(p.actor, "open_bank", {"capital": 1_000_000}))
            else:
                t.execute(time_out(p), rng)
        bettors = [(s, p) for s, p in t.seats().items() if p != t.banker]
        cmds = [
            Command(
                Actor.player(bettors[i % len(bettors)][1]),
                "place_bet",
                {"seat": bettors[i % len(bettors)][0], "amount": 100},
            )
            for i in range(n)
        ]
        return t, cmds

    return make


GAMES: dict[str, Table] = {
    "baccarat": baccarat,
    "craps": craps,
    "paigow": tiles("paigow"),
    "taiwan": tiles("taiwan"),
}


def nth_bet(make: Table, n: int, *, pending: bool) -> float:
    """The median µs of the bets n … n + TIMED - 1 at a table filled with n - 1 bets."""
    table, cmds = make(n + TIMED)
    for c in cmds[: n - 1]:
        table.execute(c)
    times = []
    gc.collect()
    gc.freeze()  # (the collector's scans of what is there already: the process's, not the bet's)
    try:
        for c in cmds[n - 1 : n - 1 + TIMED]:
            t0 = time.perf_counter_ns()
            table.execute(c)
            if pending:
                table.pending()
            times.append(time.perf_counter_ns() - t0)
    finally:
        gc.unfreeze()
    return statistics.median(times) / 1000


def measure() -> list[dict[str, Any]]:
    out = []
    for name, make in GAMES.items():
        for pending in (False, True):
            runs: dict[int, list[float]] = {n: [] for n in SIZES}
            for _ in range(ROUNDS):  # the sizes alternated: a drift of the machine hits both
                for n in SIZES:
                    runs[n].append(nth_bet(make, n, pending=pending))
            # the least of the tables' medians: the machine's other load only ever adds
            small, large = (min(runs[n]) for n in SIZES)
            out.append(
                {
                    "game": name,
                    "timed": "execute + pending()" if pending else "execute",
                    **{f"us_at_{n}": round(min(runs[n]), 1) for n in SIZES},
                    "ratio": round(large / small, 2),
                }
            )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    t0 = time.perf_counter()
    rows = measure()
    small, large = SIZES
    page = [
        results.row(
            f"{r['game']}: a bet with {large} on the table ({r['timed']})",
            r[f"us_at_{large}"],
            "µs",
            against=f"with {small} on the table",
            against_value=r[f"us_at_{small}"],
            better="lower",
        )
        for r in rows
    ]
    results.save(
        "bench_bet_cost",
        "A bet's cost and the bets on the table",
        page,
        report={"sizes": SIZES, "timed": TIMED, "rounds": ROUNDS, "rows": rows},
    )
    if a.json:
        print(json.dumps({"sizes": SIZES, "rows": rows}))
        return
    print(
        f"one bet's cost with {small} and with {large} bets on the table (µs: of {ROUNDS} "
        f"tables, the least median of {TIMED} bets; one process)"
    )
    print(f"  {'game':<10}{'timed':<22}{f'N={small}':>10}{f'N={large}':>10}{'ratio':>8}")
    for r in rows:
        print(
            f"  {r['game']:<10}{r['timed']:<22}{r[f'us_at_{small}']:>10.1f}"
            f"{r[f'us_at_{large}']:>10.1f}{r['ratio']:>8.2f}"
        )
    print(f"  ({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
