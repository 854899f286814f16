"""A floor of the four real games, as ``make run`` and ``macau-tables bots`` play it: what
the server costs and how fast it answers.

A real ``macau-tables serve`` process (SQLite, a new database) with TABLES tables of each
game (the demo's four, and more made by the supervisor), the auto-dealer at the given
timings; PLAYERS bots (``macau-tables bots``: each game's strategy, each bot following its
table over the table's WebSocket and acting when the table waits for it) play for SECONDS,
then cash out. Printed beside
the same floor idle for as long (the clocks only, nobody seated: the baseline): the
server's CPU (``/proc``), the commands the bots sent and the views pushed to them, the bets,
and each
operation's latency as the server timed it (``GET /server/latency``: request parsed ->
reply handed to the socket; a bucket's upper bound) and the bets' as the bots saw them.
The Hi-Lo benchmark (bench_server.py) measures capacity; this one, a floor as played.

    python benchmarks/bench_floor.py                       # 4 tables, 12 bots, 30 s
    python benchmarks/bench_floor.py --tables 3 --players 40 --seconds 60
    python benchmarks/bench_floor.py --betting-seconds 5 --action-seconds 5
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

GAMES = ("baccarat", "craps", "paigow", "taiwan")


def _cpu(pid: int) -> float:
    """CPU seconds of the server: ``pid`` and its children (the front process on SQLite)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = [
            int(c)
            for task in Path(f"/proc/{pid}/task").iterdir()
            for c in (task / "children").read_text().split()
        ]
    except OSError:  # (gone)
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(_cpu(c) for c in children)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=1, help="tables of each game")
    ap.add_argument("--players", type=int, default=12, help="bot players")
    ap.add_argument("--seconds", type=float, default=30.0, help="seconds of play measured")
    ap.add_argument("--betting-seconds", type=float, default=15.0)
    ap.add_argument("--action-seconds", type=float, default=20.0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    import httpx
    from tests.server.serve_proc import Serve

    from macau_tables.server.bots import play_bots
    from macau_tables.server.games import load_builtin_games
    from macau_tables.server.latency import difference, quantile

    load_builtin_games()  # (each game's binding registers its bots' strategy)
    tmp = Path(tempfile.mkdtemp(prefix="bench-floor-"))
    serve = Serve(
        tmp, "--betting-seconds", str(a.betting_seconds), "--action-seconds", str(a.action_seconds)
    )
    url = serve.url
    try:
        serve.start()
        assert serve.proc is not None
        proc = serve.proc
        creds = serve.creds()
        sup = {
            "Authorization": "Bearer "
            + httpx.post(
                url + "/auth/login",
                json={"name": "supervisor", "password": creds["supervisor"]},
            ).json()["token"]
        }
        tables = [(f"{g}-1", g) for g in GAMES]
        for g in GAMES:
            for k in range(2, a.tables + 1):
                r = httpx.post(url + "/tables", json={"id": f"{g}-{k}", "game": g}, headers=sup)
                r.raise_for_status()
                tables.append((f"{g}-{k}", g))
        # the baseline: the same floor, nobody playing
        c0 = _cpu(proc.pid)
        time.sleep(min(a.seconds, 10.0))
        idle_s = min(a.seconds, 10.0)
        idle = (_cpu(proc.pid) - c0) / idle_s
        seen0 = httpx.get(url + "/server/latency", headers=sup).json()
        c0, t0 = _cpu(proc.pid), time.monotonic()
        report = asyncio.run(
            play_bots(
                url,
                a.players,
                a.seconds,
                ("supervisor", creds["supervisor"]),
                ("cashier", creds["cashier"]),
                tables=tables,
                grace=max(a.betting_seconds, a.action_seconds) * 3,
            )
        )
        busy_s = time.monotonic() - t0
        cpu = _cpu(proc.pid) - c0
        seen1 = httpx.get(url + "/server/latency", headers=sup).json()
    finally:
        serve.stop()
    ops: dict[str, Any] = {}
    for op, stats in seen1["commands"].items():
        before = seen0["commands"].get(op)
        d = difference(stats["counts"], before["counts"] if before else None)
        n = sum(d)
        if n:
            ops[op] = {"n": n, "p50_ms": quantile(d, 0.5), "p99_ms": quantile(d, 0.99)}
    commands = sum(report.statuses.values())
    requests = commands + report.views  # (the pushed views are not requests)
    out = {
        "tables": len(tables),
        "players": a.players,
        "seconds": round(busy_s, 1),
        "server_busy_idle": round(idle, 3),
        "server_busy": round(cpu / busy_s, 3),
        "commands": commands,
        "views": report.views,
        "views_pushed": report.pushed,
        "bets": report.bets,
        "refused": sum(v for k, v in report.statuses.items() if 400 <= k < 500),
        "server_errors": sum(v for k, v in report.statuses.items() if k >= 500),
        "cpu_ms_per_request": round(cpu * 1000 / requests, 3) if requests else None,
        "bet_p50_ms_bots": round(report.percentile(0.5) * 1000, 1),
        "bet_p99_ms_bots": round(report.percentile(0.99) * 1000, 1),
        "ops": ops,
    }
    shutil.rmtree(tmp, ignore_errors=True)
    import results  # benchmarks/results.py: the figures for docs/benchmarks.md

    page = [
        results.row(
            f"server CPU, {len(tables)} tables, {a.players} bots playing",
            out["server_busy"] * 100,
            "% of a core",
            against="the same floor idle (the clocks alone)",
            against_value=out["server_busy_idle"] * 100,
            better="lower",
        ),
        results.row(
            "server CPU a request (commands and views)",
            out["cpu_ms_per_request"],
            "ms",
            better="lower",
        ),
        results.row(
            f"a bet, as the bots saw it ({report.bets} bets), p99",
            out["bet_p99_ms_bots"],
            "ms",
            against="the same bets as the server timed them, p99 (the network and the bots apart)",
            against_value=ops.get("place_bet", {}).get("p99_ms"),
            better="lower",
            note=f"p50 {out['bet_p50_ms_bots']} ms",
        ),
    ]
    results.save("bench_floor", "A floor of the four games", page, report=out)
    if a.json:
        import json

        print(json.dumps(out))
        return
    print(
        f"a floor of {len(tables)} tables ({a.tables} of each game), {a.players} bots, "
        f"betting windows of {a.betting_seconds:g} s, {a.action_seconds:g} s to act; "
        f"{busy_s:.0f} s of play and cash-out"
    )
    print(
        f"  server busy: {out['server_busy']:.1%} of a core with the bots, "
        f"{out['server_busy_idle']:.1%} idle (the baseline: the clocks alone)"
    )
    print(
        f"  the bots sent {commands} commands ({out['refused']} refused by the rules, "
        f"{out['server_errors']} server errors), were pushed {report.pushed} views and "
        f"polled {report.views}: "
        f"{out['cpu_ms_per_request']} ms of server CPU a request; {report.bets} bets, "
        f"p50 {out['bet_p50_ms_bots']} ms, p99 {out['bet_p99_ms_bots']} ms as the bots saw them"
    )
    print("  as the server timed them (request parsed -> reply sent; bucket upper bounds):")
    for op, x in sorted(ops.items(), key=lambda kv: -kv[1]["n"]):
        print(
            f"    {op:<16}{x['n']:>7}   p50 <= {x['p50_ms']:7.1f} ms   p99 <= {x['p99_ms']:7.1f} ms"
        )
    if report.rules:
        print(f"  refusals by rule: {dict(report.rules.most_common(5))}")


if __name__ == "__main__":
    main()
