"""A server's start-up on a long ledger: the ledger's own check before the tables open
(``serve --chain-check startup``) against left to the worker process (``background``,
the default).

Run with ``.venv/bin/python benchmarks/bench_ledger_check.py [--transactions 1000000]``.

1. ``macau-tables serve`` starts once on a new SQLite file (the demo floor: four tables,
   the demo accounts) and stops.
2. The file gets ``--transactions`` cashier transactions appended behind the server's back
   (a deposit or a withdrawal between the cage and a demo wallet: two postings each, no
   table's), and the cached balances moved to match — a floor's history, as far as the
   ledger's own check (``checks.verify_ledger``: SQL aggregates over every posting) sees.
3. ``serve`` starts on it ``--repeat`` times in each mode, alternated: the seconds until
   ``/health`` answers (the tables open), and, in the background mode, until it says
   ``ledger_pending: false`` (the worker's check done). Then ``verify_ledger`` alone, in
   this process, on the same file.

Figures only: nothing asserts, except that no table was locked. About a minute for the
fill of a million transactions on a 2-core machine, then ~5 s a start.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "from macau_tables.cli.app import main; main()"]
WALLETS = ("player:alice", "player:bob", "player:carol")  # (contract.accounts.wallet)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(directory: Path, mode: str, log: Path) -> tuple[subprocess.Popen[bytes], str, float]:
    """``serve`` on the directory's database; the process, its URL and the seconds until
    ``/health`` answered."""
    port = free_port()
    cmd = [*CLI, "serve", "--host", "127.0.0.1", "--port", str(port), "--chain-check", mode]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    started = time.perf_counter()
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, cwd=directory, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    while True:
        try:
            if httpx.get(url + "/health", timeout=1).status_code == 200:
                return proc, url, time.perf_counter() - started
        except httpx.TransportError:
            pass
        if proc.poll() is not None:
            raise SystemExit(f"serve exited: {log.read_text()[-2000:]}")
        time.sleep(0.02)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    proc.wait(timeout=60)


def fill(db: Path, transactions: int, seed: int = 1) -> None:
    """Cashier transactions, appended as the server writes them (postings, then the
    sealed transaction: the triggers check each), and the balances to match."""
    rng = random.Random(seed)
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=OFF")
    bal = dict.fromkeys(WALLETS, 0)
    batch = 50_000
    for start_at in range(0, transactions, batch):
        posts: list[tuple[str, str, int]] = []
        txs: list[tuple[str, str, int]] = []
        for i in range(start_at, min(transactions, start_at + batch)):
            w = WALLETS[i % len(WALLETS)]
            amount = rng.randrange(100, 10_000)
            if bal[w] >= amount and rng.random() < 0.5:  # a withdrawal
                amount = -amount
            bal[w] += amount
            tx = f"bench-{i:09d}"
            posts += [(tx, w, amount), (tx, "cage", -amount)]
            txs.append((tx, "deposit" if amount > 0 else "withdrawal", i))
        con.executemany("INSERT INTO postings (tx_id, account, amount) VALUES (?, ?, ?)", posts)
        con.executemany(
            "INSERT INTO transactions (id, table_id, seq, memo, n_postings, by_user, created_at) "
            "VALUES (?, NULL, NULL, ?, 2, 'cashier', ?)",
            txs,
        )
        con.commit()
    for w, d in bal.items():
        con.execute("UPDATE accounts SET balance = balance + ? WHERE name = ?", (d, w))
    con.execute(
        "UPDATE accounts SET balance = balance - ? WHERE name = 'cage'", (sum(bal.values()),)
    )
    con.commit()
    con.close()


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog="example: .venv/bin/python benchmarks/bench_ledger_check.py "
        "--transactions 500000 --repeat 2",
    )
    ap.add_argument("--transactions", type=int, default=1_000_000, help="cashier transactions")
    ap.add_argument("--repeat", type=int, default=3, help="starts in each mode, alternated")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-ledger-") as tmp:
        directory = Path(tmp)
        log = directory / "serve.log"
        proc, _, first = start(directory, "startup", log)
        stop(proc)
        db = directory / "macau-tables.db"
        t0 = time.perf_counter()
        fill(db, a.transactions)
        filled = time.perf_counter() - t0
        runs: list[dict[str, Any]] = []
        for _ in range(a.repeat):
            for mode in ("startup", "background"):
                runs.append(timed(directory, mode, log))
        import sqlalchemy as sa

        from macau_tables.server.checks import verify_ledger

        engine = sa.create_engine(f"sqlite:///{db}")
        with engine.connect() as conn:
            t0 = time.perf_counter()
            problems = verify_ledger(conn)
            alone = time.perf_counter() - t0
        engine.dispose()
        assert problems == [], problems
        out = {
            "transactions": a.transactions,
            "postings": 2 * a.transactions,
            "fill_s": round(filled, 1),
            "first_start_s": round(first, 2),
            "verify_ledger_s": round(alone, 2),
            "runs": runs,
        }
        for mode in ("startup", "background"):
            opens = [r["open_s"] for r in runs if r["mode"] == mode]
            checked = [r["checked_s"] for r in runs if r["mode"] == mode]
            out[mode] = {
                "open_s_median": round(statistics.median(opens), 2),
                "checked_s_median": round(statistics.median(checked), 2),
            }
    import results  # benchmarks/results.py: the figures for docs/benchmarks.md

    page = [
        results.row(
            f"serve on {2 * a.transactions:,} postings: the tables open (background check)",
            out["background"]["open_s_median"],
            "s",
            against="--chain-check startup (the ledger checked first)",
            against_value=out["startup"]["open_s_median"],
            better="lower",
        ),
        results.row(
            "the ledger's own check (verify_ledger), per million postings",
            alone / (2 * a.transactions) * 1e6,
            "s",
            better="lower",
        ),
    ]
    results.save("bench_ledger_check", "Start-up on a long ledger", page, report=out)
    if a.json:
        print(json.dumps(out, indent=2))
        return
    print(
        f"SQLite, the demo floor and {a.transactions:,} cashier transactions "
        f"({2 * a.transactions:,} postings; filled in {filled:.0f} s); load average "
        f"{os.getloadavg()[0]:.2f}"
    )
    print(f"  verify_ledger alone, in this process: {alone:.2f} s")
    for mode in ("startup", "background"):
        rs = [r for r in runs if r["mode"] == mode]
        opens = " · ".join(f"{r['open_s']:.2f}" for r in rs)
        checked = " · ".join(f"{r['checked_s']:.2f}" for r in rs)
        print(
            f"  --chain-check {mode:<10}: the tables open after {opens} s "
            f"(median {out[mode]['open_s_median']:.2f}); every check done after {checked} s"
        )


def timed(directory: Path, mode: str, log: Path) -> dict[str, Any]:
    """One start: seconds until ``/health`` answers, and until nothing is pending."""
    started = time.perf_counter()
    proc, url, opened = start(directory, mode, log)
    try:
        while True:
            health = httpx.get(url + "/health", timeout=10).json()
            if not health["ledger_pending"] and not health["chains_pending"]:
                break
            time.sleep(0.02)
        checked = time.perf_counter() - started
        if health["locked"]:
            raise SystemExit(f"tables locked: {health['locked']}")
        return {"mode": mode, "open_s": round(opened, 3), "checked_s": round(checked, 3)}
    finally:
        stop(proc)


if __name__ == "__main__":
    main()
