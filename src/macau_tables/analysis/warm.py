"""Warm the caches once: ``python -m macau_tables.analysis.warm [--clear]``.

Builds every table of :mod:`macau_tables.analysis.tablecache` that the usual commands read
(the Pai Gow / Taiwan Pai Kao strategy tables and the full set's exact counts, the
simulation setting tables, the full-shoe baccarat counts) and compiles every numba kernel
into numba's own cache. Without it the first command of each kind does the same work once
(a few seconds); after it, ``par``, ``paigow hint`` and ``simulate`` start warm.
``--clear`` first deletes the stored tables (numba's cache is keyed by numba itself).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial


def _step(label: str, work: Callable[[], object]) -> None:
    start = time.perf_counter()
    work()
    print(f"  {label:<58} {time.perf_counter() - start:6.2f} s", flush=True)


def _tiles() -> None:
    from macau_tables.analysis import tiles as t
    from macau_tables.analysis.kernels import tiles_sim
    from macau_tables.tiles import FULL_SET

    _step("Pai Gow sheets: every pairing of the comparison", t.paigow_comparison)
    for banker in ("house-way", "max-back", "optimal"):
        _step(f"Taiwan Pai Kao sheet, banker {banker}", partial(t.taiwan_par, banker))
    four = FULL_SET[:4]
    for game in ("paigow", "taiwan"):
        for side in ("player", "banker"):
            for vs in ("house-way", "max-back"):
                _step(
                    f"hints: {game}, as {side}, against {vs}",
                    partial(t.hint, four, vs=vs, as_=side, game=game),
                )
    for options in (
        {"game": "paigow"},
        {"game": "paigow", "banker_strategy": "max-back"},
        {"game": "paigow", "player_strategy": "max-back"},
        {"game": "paigow", "player_strategy": "optimal"},
        {"game": "paigow", "player_strategy": "optimal", "commission": Fraction(5, 100)},
        {"game": "taiwan"},
        {"game": "taiwan", "banker_strategy": "max-back"},
    ):
        shown = ", ".join(f"{k}={v}" for k, v in options.items())
        _step(f"simulation tables: {shown}", partial(tiles_sim.prepare, options))


def _baccarat() -> None:
    from macau_tables.analysis.baccarat import baccarat_par, parse_composition
    from macau_tables.analysis.kernels import baccarat_sim

    for decks in range(6, 13):
        _step(f"baccarat sheet, {decks} decks", partial(baccarat_par, decks=decks))
    _step(
        "baccarat exact kernel (a depleted shoe)",
        lambda: baccarat_par(composition=parse_composition("8 decks minus A")),
    )
    _step("baccarat simulation kernel, shoes", lambda: baccarat_sim.prepare({}))
    _step(
        "baccarat simulation kernel, continuous shuffler",
        lambda: baccarat_sim.prepare({"continuous_shuffler": True}),
    )


def _craps() -> None:
    from macau_tables.analysis.kernels import craps_sim

    _step("craps simulation kernel", lambda: craps_sim.simulate_chunk(0, 0, 10, {}))


def main(argv: list[str] | None = None) -> int:
    from macau_tables.analysis import tablecache

    args = sys.argv[1:] if argv is None else argv
    if any(a not in ("--clear",) for a in args):
        print("usage: python -m macau_tables.analysis.warm [--clear]", file=sys.stderr)
        return 2
    where = tablecache.cache_dir()
    if "--clear" in args:
        print(f"removed {tablecache.clear()} stored tables")
    print(f"table cache: {where if where is not None else 'off (MACAU_TABLES_CACHE=off)'}")
    start = time.perf_counter()
    _tiles()
    _baccarat()
    _craps()
    print(f"warm in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
