"""The idempotency records' retention on SQLite (``serve --idempotency-hours``): what a
pass's deletes cost the group commit, beside what writing the records cost, and whether
the file stops growing once records are deleted as fast as they come.

Run with ``.venv/bin/python benchmarks/bench_idempotency_prune.py [--records 100000]``.

1. A new file (the server's migrations) gets ``--records`` records of a 1 KB answer each
   — the benchmark's bets' answers are 0.7–1 KB — written as the group commit writes
   them (one ``executemany`` a batch of ``--batch``): the peer, µs a record.
2. ``store.prune_idempotency`` deletes them, ``floor.PRUNE_CHUNK`` a transaction as the
   server's passes do: µs a record, and the chunk's milliseconds (median, max) — each
   chunk is a unit of the group commit, run between the tables' commands.
3. ``--rounds`` rounds of adding ``--records`` / 10 records and deleting those older
   than five rounds: the file's pages (and its free list) after each round.

Figures only: nothing asserts. About 30 s on a 2-core machine.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from macau_tables.server import floor, store
from macau_tables.server.db import Database, upgrade

ANSWER = '{"answer":"' + "a" * 1000 + '"}'


def add(db: Database, start: int, count: int, batch: int, created_at: int) -> float:
    """Write ``count`` records, ``batch`` a transaction; the seconds it took."""
    raw = db.writer.raw_connection()
    cur = raw.cursor()
    took = 0.0
    try:
        for first in range(start, start + count, batch):
            rows = [
                (f"bot{i % 400}", f"k{i}", "h" * 64, 200, ANSWER, created_at)
                for i in range(first, min(first + batch, start + count))
            ]
            t = time.perf_counter()
            cur.execute("BEGIN IMMEDIATE")
            cur.executemany("INSERT INTO idempotency VALUES (?, ?, ?, ?, ?, ?)", rows)
            cur.execute("COMMIT")
            took += time.perf_counter() - t
    finally:
        raw.close()
    return took


def prune(db: Database, before: int) -> list[float]:
    """Delete every record older than ``before``, a chunk a transaction: each chunk's
    seconds (the deletes, without the commit)."""
    chunks = []
    while True:
        with db.writer.begin() as conn:
            t = time.perf_counter()
            n = store.prune_idempotency(conn, before, floor.PRUNE_CHUNK)
            chunks.append(time.perf_counter() - t)
        if n < floor.PRUNE_CHUNK:
            return chunks


def pages(db: Database) -> tuple[int, int]:
    raw = db.writer.raw_connection()
    try:
        cur = raw.cursor()
        return (
            int(cur.execute("PRAGMA page_count").fetchone()[0]),
            int(cur.execute("PRAGMA freelist_count").fetchone()[0]),
        )
    finally:
        raw.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--batch", type=int, default=40, help="records a write transaction")
    ap.add_argument("--rounds", type=int, default=12)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(str(Path(tmp) / "prune.db"))
        try:
            upgrade(db)
            wrote = add(db, 0, args.records, args.batch, 1)
            chunks = prune(db, 2)
            deleted = sum(chunks)
            q = statistics.quantiles(chunks, n=100, method="inclusive")
            print(
                f"{args.records:,} records of a {len(ANSWER)}-byte answer: written "
                f"{wrote / args.records * 1e6:.1f} µs a record ({args.batch} a transaction, "
                f"the commits included); deleted {deleted / args.records * 1e6:.1f} µs a "
                f"record, {floor.PRUNE_CHUNK} a chunk: {statistics.median(chunks) * 1e3:.2f} "
                f"ms a chunk at the median, {q[98] * 1e3:.2f} ms at the p99, "
                f"{max(chunks) * 1e3:.2f} ms the longest"
            )
            per_round = args.records // 10
            print(f"rounds of {per_round:,} records added, those older than five rounds deleted:")
            sizes = []
            for r in range(args.rounds):
                add(db, args.records + r * per_round, per_round, 1000, 10 + r)
                prune(db, 10 + r - 4)
                total, free = pages(db)
                sizes.append(total)
                print(f"  round {r + 1:2}: {total:,} pages, {free:,} of them free")
        finally:
            db.close()
    import results  # benchmarks/results.py: the figures for docs/benchmarks.md

    page = [
        results.row(
            "deleting an idempotency record (a pass's chunk)",
            deleted / args.records * 1e6,
            "µs",
            against="writing one, same run",
            against_value=wrote / args.records * 1e6,
            better="lower",
        ),
        results.row(
            f"a chunk of {floor.PRUNE_CHUNK} deletes, p99",
            q[98] * 1e3,
            "ms",
            better="lower",
            note=f"median {statistics.median(chunks) * 1e3:.2f} ms",
        ),
        results.row(
            f"the file after {args.rounds} rounds of adding and deleting",
            sizes[-1],
            "pages",
            against="after the first round",
            against_value=sizes[0],
            better="lower",
        ),
    ]
    report = {"records": args.records, "pages": sizes, "chunks_s": chunks}
    results.save("bench_idempotency_prune", "Idempotency records", page, report=report)


if __name__ == "__main__":
    main()
