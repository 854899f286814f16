"""Snapshots: what a long table costs to start, and to keep, with and without them.

A table of each game is driven through ROUNDS rounds in memory (two players betting the
minimum, the dealer's steps and the rules' defaults, as the server's clock runs them:
``tests/server/drive_tables.py``), checkpointed every ``--every`` entries and compacted
as the server does (``TableActor``: a ``table.checkpoint`` entry, then ``compact``). Then,
for the same journal, in the same process:

* **whole** — what a start-up did before snapshots (and does for a table without one):
  the journal read back (``Journal.from_json``: every event parsed, the chain checked),
  and every operation re-run by the rules (``contract.replay``);
* **snapshot** — what it does now: the entries before the latest safe snapshot checked
  as a chain from their stored text (``store.verify_chain_to``'s loop: no event parsed),
  the window read back, the engine restored from the snapshot and the window's
  operations re-run (``contract.replay_from``, which re-derives the snapshot's digest).

Also: the entries the running engine keeps (its journal's window) against the journal's
length, and what a checkpoint costs (the state encoded and hashed), per checkpoint and
per entry. No database: the journal is the engine's own (the server's reads add the same
row reads to both columns).

    python benchmarks/bench_snapshots.py                 # 2,000 rounds of each game
    python benchmarks/bench_snapshots.py --rounds 300 --games craps --every 200
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from tests.server.drive_tables import SEEDS, drive  # noqa: E402

from macau_tables.core import snapshot  # noqa: E402
from macau_tables.core.journal import (  # noqa: E402
    FORMAT,
    FORMAT_VERSION,
    Entry,
    Journal,
    event_from_json,
)
from macau_tables.games import contract  # noqa: E402
from macau_tables.games.contract import Actor, Command, TableEngine  # noqa: E402
from macau_tables.server.games import binding  # noqa: E402


def _entry(raw: dict[str, Any]) -> Entry:
    """An entry as a server reads its row (the event parsed)."""
    return Entry(raw["seq"], event_from_json(raw["event"]), raw["prev_hash"], raw["hash"])


def drive_checkpointed(
    game: str, rounds: int, every: int
) -> tuple[TableEngine, list[Entry], dict[int, str], list[float], int]:
    """A table of ``game`` driven ``rounds`` rounds, checkpointed every ``every`` entries
    and compacted as the server does: the engine, every entry of its journal, the states
    stored (as text, by the checkpoint's seq), each checkpoint's time, and the most
    entries the engine held at once."""
    entries: dict[int, Entry] = {}
    snaps: dict[int, Any] = {}
    costs: list[float] = []
    peak = [0]

    def each(engine: TableEngine) -> None:
        for e in engine.journal.entries:
            entries.setdefault(e.seq, e)
        last = engine.latest_snapshot()  # type: ignore[attr-defined]
        since = last[0] if last is not None else engine.journal.first
        if len(engine.journal) - since >= every:
            t0 = time.perf_counter()
            engine.execute(Command(Actor.SYSTEM, "checkpoint"))
            costs.append(time.perf_counter() - t0)
            seq, state = engine.latest_snapshot()  # type: ignore[attr-defined]
            snaps[seq] = snapshot.text(state)  # as stored
            for e in engine.journal.entries[-1:]:
                entries.setdefault(e.seq, e)
            engine.compact()  # type: ignore[attr-defined]
        peak[0] = max(peak[0], engine.journal.kept)

    engine = drive(game, rounds, each)
    for e in engine.journal.entries:
        entries.setdefault(e.seq, e)
    return engine, [entries[i] for i in range(len(engine.journal))], snaps, costs, peak[0]


def run(game: str, rounds: int, every: int) -> dict[str, Any]:
    engine, rows, snaps, costs, peak = drive_checkpointed(game, rounds, every)
    n = len(rows)
    texts = [(e.seq, e.event_text(), e.prev_hash, e.hash) for e in rows]
    raw = [e.to_json() for e in rows]
    header = dict(engine.journal.header)
    seeds = {**SEEDS, **engine.seed_vault()}
    g = binding(game)

    t0 = time.perf_counter()
    whole = Journal.from_json(
        {"format": FORMAT, "version": FORMAT_VERSION, "game": game, "header": header,
         "entries": raw}
    )  # fmt: skip
    full = contract.replay(whole, g.open, seeds)
    t_whole = time.perf_counter() - t0

    window_events = [e.event for e in rows]
    start = max(
        (s for s in snaps if contract.safe_base(window_events, 0, s)),
        default=None,
    )
    if start is None:
        raise SystemExit(f"{game}: no safe snapshot in {n} entries (more --rounds)")
    t0 = time.perf_counter()
    prev = Journal(game, header).header_hash()
    for seq, text, prev_hash, hash_ in texts[:start]:
        if prev_hash != prev or Entry.compute_hash(seq, None, prev, event_text=text) != hash_:  # type: ignore[arg-type]
            raise SystemExit(f"{game}: entry {seq} does not chain")
        prev = hash_
    t_chain = time.perf_counter() - t0
    rest = Journal.of_entries(game, header, [_entry(r) for r in raw[start:]])
    empty = Journal.resume(game, header, start, rest.entry(start).prev_hash)
    assert g.restore is not None
    restored = g.restore(json.loads(snaps[start]), empty, seeds, rest)
    restored = contract.replay_from(restored, rest)
    t_snap = time.perf_counter() - t0
    state = engine.snapshot_state()  # type: ignore[attr-defined]
    assert restored.snapshot_state() == state == full.snapshot_state()  # type: ignore[attr-defined]
    return {
        "game": game,
        "entries": n,
        "whole_ms": round(t_whole * 1000, 1),
        "snapshot_ms": round(t_snap * 1000, 1),
        "chain_ms": round(t_chain * 1000, 1),
        "from_entry": start,
        "kept_now": engine.journal.kept,
        "kept_peak": peak,
        "checkpoints": len(costs),
        "checkpoint_ms": round(statistics.median(costs) * 1000, 2) if costs else None,
        "snapshot_bytes": len(snaps[start]),
        "checkpoint_us_per_entry": round(sum(costs) / n * 1e6, 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="example: python benchmarks/bench_snapshots.py --rounds 300 --games craps",
    )
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--every", type=int, default=1000, help="entries between checkpoints")
    ap.add_argument("--games", nargs="*", default=["baccarat", "craps", "paigow", "taiwan"])
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    out = [run(g, a.rounds, a.every) for g in a.games]

    import results  # benchmarks/results.py: the figures for docs/benchmarks.md

    page = [
        results.row(
            f"{r['game']}: a start-up after {a.rounds:,} rounds ({r['entries']:,} entries)",
            r["snapshot_ms"],
            "ms",
            against="re-running the whole journal",
            against_value=r["whole_ms"],
            better="lower",
            note=f"the engine keeps {r['kept_now']:,} entries; a checkpoint "
            f"{r['checkpoint_ms']} ms, {r['snapshot_bytes'] / 1024:.0f} KB",
        )
        for r in out
    ]
    results.save("bench_snapshots", "Snapshots", page, report={"tables": out})
    if a.json:
        print(json.dumps(out, indent=2))
        return
    print(
        f"start-up of one table after {a.rounds} rounds, checkpoints every {a.every} entries "
        "(same journal, same process):"
    )
    for r in out:
        print(
            f"  {r['game']:9} {r['entries']:7} entries: whole journal {r['whole_ms']:8.0f} ms, "
            f"from the snapshot at entry {r['from_entry']} {r['snapshot_ms']:6.0f} ms "
            f"({r['whole_ms'] / r['snapshot_ms']:5.1f}x; the chain before it {r['chain_ms']:.0f} "
            f"ms); the engine keeps {r['kept_now']} "
            f"entries (at most {r['kept_peak']}); a checkpoint {r['checkpoint_ms']} ms "
            f"({r['snapshot_bytes'] / 1024:.0f} KB), {r['checkpoint_us_per_entry']} µs an entry"
        )


if __name__ == "__main__":
    main()
