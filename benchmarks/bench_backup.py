"""``macau-tables db backup``'s copy (SQLite's online backup in one step) against a plain
copy of the same file, the peer: how long a floor's backup holds its read transaction —
while it does, the server's WAL cannot start over and grows by what the floor writes.

Run with ``.venv/bin/python benchmarks/bench_backup.py [--megabytes 400]``.

A WAL-mode file of ``--megabytes`` of 1 KB rows (checkpointed: all in the main file, its
pages in the system's cache after writing), then, alternated ``--repeat`` times: the
online backup (``sqlite3.Connection.backup``, every page in one step, as
``server/backup.py`` does, without its fsync and check) and ``shutil.copyfile``. Figures
only: nothing asserts. About 20 s for 400 MB on a 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path


def build(path: Path, megabytes: int) -> int:
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)")
        rows = megabytes * 1000
        conn.executemany(
            "INSERT INTO t VALUES (?, ?)", ((f"k{i}", "x" * 1000) for i in range(rows))
        )
        conn.commit()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return path.stat().st_size


def online(source: Path, target: Path) -> float:
    target.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        started = time.perf_counter()
        src.backup(dst)
        return time.perf_counter() - started
    finally:
        dst.close()
        src.close()


def plain(source: Path, target: Path) -> float:
    target.unlink(missing_ok=True)
    started = time.perf_counter()
    shutil.copyfile(source, target)
    return time.perf_counter() - started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--megabytes", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source, target = Path(tmp) / "floor.db", Path(tmp) / "copy.db"
        size = build(source, args.megabytes)
        times: dict[str, list[float]] = {"online backup (db backup)": [], "plain copy": []}
        for _ in range(args.repeat):
            times["online backup (db backup)"].append(online(source, target))
            times["plain copy"].append(plain(source, target))
        print(f"a {size / 1e6:,.0f} MB SQLite file (WAL mode), {args.repeat} runs each:")
        for name, runs in times.items():
            best = statistics.median(runs)
            print(f"  {name:26} {best:6.2f} s median: {size / 1e6 / best:,.0f} MB/s")
        os.sync()
        import results  # benchmarks/results.py: the figures for docs/benchmarks.md

        rate = {k: size / 1e6 / statistics.median(v) for k, v in times.items()}
        page = [
            results.row(
                f"db backup (SQLite's online backup), a {size / 1e6:,.0f} MB file",
                rate["online backup (db backup)"],
                "MB/s",
                against="a plain copy of the file, same run (not safe beside a server)",
                against_value=rate["plain copy"],
                kind="limit",
            )
        ]
        report = {"bytes": size, "repeat": args.repeat, "seconds": times}
        results.save("bench_backup", "Backups", page, report=report)


if __name__ == "__main__":
    main()
