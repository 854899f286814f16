"""Soak: the demo floor's four real games played by bots for MINUTES; does the server grow?

A real ``macau-tables serve`` process on a new SQLite file (the demo floor: baccarat-1,
craps-1, paigow-1, taiwan-1), listening on a free loopback port; PLAYERS bots of
``macau-tables bots`` (each game's strategy, spread over the four tables) play for MINUTES.
Every EVERY seconds a sample: the server's process tree (the server, the
check workers' fork server and resource tracker — every descendant, from ``/proc``) — its
RSS summed (and its anonymous part, the processes' own memory without the files they
map; and PSS, which shares a page out among the processes that map it), its open file
descriptors summed (``/proc/PID/fd``) and its processes; the commands the bots sent in
that interval (``POST /tables/{id}/commands``, request sent -> answer read: per second and
their p50 / p99), the views the server pushed to them (each bot follows its table over the
table's WebSocket), and the database file and its WAL.

The verdict "no growth": over the second half of the run (the first half holds the
warm-up), the least-squares slope of RSS and of the descriptors, times half the run's
length — the growth that trend adds over as long — as a fraction of the first half's mean
level. It must not exceed ``--rss-threshold`` (5 %) and ``--fd-threshold`` (10 %); a run
in which the server answered a command with a 5xx, or a bot stopped on an error, fails too.
The exit status is 0 for no growth, 1 otherwise, 2 with too few samples to judge (fewer
than 3 in the second half). The longer the run, the smaller the growth it can flag (printed:
``threshold x level / half the run``): 3 minutes proves the harness, 30 (``make soak``)
flags about 70 MB an hour. Two things grow by design until a bound, and count against the
threshold while they do: each table's engine keeps its journal up to about twice
``--checkpoint-every`` entries (serve's default 1000: some 20-25 minutes at this floor's
pace; ``--checkpoint-every 100`` reaches it in 3), and SQLite's page cache follows the
file up to 64 MB a connection. The database file itself grows (the ledger, the
journals): printed, not judged.

    python benchmarks/bench_soak.py --minutes 30                 # what `make soak` runs
    python benchmarks/bench_soak.py --minutes 3 --every 30       # a short proof
    python benchmarks/bench_soak.py --minutes 10 --players 16 --output soak.json
    python benchmarks/bench_soak.py --minutes 3 --every 30 --json

The server stops with the benchmark: at the end, on an error, on Ctrl-C or SIGTERM, and
(Linux's parent-death signal) if the benchmark itself is killed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import mean, median
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from macau_tables.server.bots import Bot, BotReport, Cashier, Move, setup_players  # noqa: E402

GAMES = ("baccarat", "craps", "paigow", "taiwan")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:
    """In the server's process before exec: SIGTERM when the benchmark dies (even -9)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


# -- the server's process tree, from /proc ------------------------------------------------


def tree(root: int) -> list[int]:
    """``root`` and all its descendants alive (each task's ``children``)."""
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        try:
            tasks = list(Path(f"/proc/{pid}/task").iterdir())
        except OSError:  # gone
            continue
        out.append(pid)
        for task in tasks:
            with contextlib.suppress(OSError):
                todo += map(int, (task / "children").read_text().split())
    return out


def _role(pid: int) -> str:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        return "gone"
    for word, role in (
        (b"forkserver", "forkserver"),
        (b"resource_tracker", "resource_tracker"),
        (b" serve ", "core"),
    ):
        if word in cmd:
            return role
    return "worker"


def _kbs(pid: int, path: str) -> dict[str, int]:
    """The ``Name:  N kB`` lines of ``/proc/PID/<path>``, in kB."""
    out = {}
    try:
        for line in Path(f"/proc/{pid}/{path}").read_text().splitlines():
            name, _, rest = line.partition(":")
            if rest.endswith(" kB"):
                out[name] = int(rest.split()[0])
    except (OSError, ValueError):
        pass
    return out


def _fds(pid: int) -> tuple[int, int]:
    """Open descriptors of ``pid``: all of them, and how many are sockets."""
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return 0, 0
    sockets = 0
    for n in names:
        with contextlib.suppress(OSError):
            sockets += os.readlink(f"/proc/{pid}/fd/{n}").startswith("socket:")
    return len(names), sockets


def processes(root: int) -> list[dict[str, Any]]:
    out = []
    for pid in tree(root):
        fds, sockets = _fds(pid)
        status = _kbs(pid, "status")
        out.append(
            {
                "pid": pid,
                "role": _role(pid),
                "rss_kb": status.get("VmRSS", 0),
                # of which the process's own memory (its heap), and pages of files mapped
                # (the interpreter's and the libraries' code: shared with other processes)
                "anon_kb": status.get("RssAnon", 0),
                "file_kb": status.get("RssFile", 0),
                "pss_kb": _kbs(pid, "smaps_rollup").get("Pss", 0),
                "fds": fds,
                "sockets": sockets,
            }
        )
    return out


# -- the bots ---------------------------------------------------------------------------


class TimedBot(Bot):
    """A ``macau-tables bots`` bot whose every command and view is timed (the report
    times bets only): ``(end, seconds, status)`` appended to ``log``."""

    def __init__(self, *a: Any, commands: list[Any], views: list[Any], **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.commands_log, self.views_log = commands, views

    async def command(self, move: Move, deadline: float) -> Any:
        t0 = time.perf_counter()
        r = await super().command(move, deadline)
        self.commands_log.append((time.monotonic(), time.perf_counter() - t0, r.status_code))
        return r

    async def view(self, deadline: float) -> dict[str, Any]:
        t0 = time.perf_counter()
        v = await super().view(deadline)
        self.views_log.append((time.monotonic(), time.perf_counter() - t0, 200 if v else 0))
        return v


def _q(xs: list[float], q: float) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(q * len(xs)))] * 1000, 1)


def _slope(ts: list[float], ys: list[float]) -> float:
    """Least-squares slope of ``ys`` against ``ts`` (per unit of ``ts``)."""
    mt, my = mean(ts), mean(ys)
    var = sum((t - mt) ** 2 for t in ts)
    return sum((t - mt) * (y - my) for t, y in zip(ts, ys, strict=True)) / var if var else 0.0


def verdict(samples: list[dict[str, Any]], key: str, threshold: float) -> dict[str, Any]:
    """The second half's trend of ``key``, over half the run, against the first half's
    level (``samples``' ``t`` in seconds from the start of play)."""
    end = samples[-1]["t"]
    first = [s for s in samples if s["t"] <= end / 2]
    second = [s for s in samples if s["t"] >= end / 2]
    out: dict[str, Any] = {"threshold": threshold, "second_half_samples": len(second)}
    if len(second) < 3 or not first:
        return {**out, "ok": None}
    level = mean(s[key] for s in first)
    slope = _slope([s["t"] for s in second], [s[key] for s in second])  # per second
    growth = slope * end / 2 / level if level else 0.0
    return {
        **out,
        "first_half_level": round(level, 1),
        "second_half_level": round(mean(s[key] for s in second), 1),
        "slope_per_hour": round(slope * 3600, 2),
        "growth": round(growth, 4),
        # the least slope the threshold flags in a run this long (a longer run: a smaller one)
        "smallest_flagged_per_hour": round(threshold * level / (end / 2) * 3600, 2),
        "ok": growth <= threshold,
    }


async def soak(a: argparse.Namespace, url: str, core: int, db: Path) -> dict[str, Any]:
    import httpx

    from macau_tables.core.rng import Rng

    creds = a.creds
    report = BotReport()
    commands: list[tuple[float, float, int]] = []
    views: list[tuple[float, float, int]] = []
    limits = httpx.Limits(max_connections=max(10, a.players), max_keepalive_connections=a.players)
    async with httpx.AsyncClient(base_url=url, timeout=60.0, limits=limits) as http:
        names = [f"soak{i}" for i in range(a.players)]
        password = "soak-password"
        await setup_players(
            http,
            names,
            password,
            ("supervisor", creds["supervisor"]),
            ("cashier", creds["cashier"]),
            a.deposit,
        )
        r = await http.post(
            "/auth/login", json={"name": "supervisor", "password": creds["supervisor"]}
        )
        sup = {"Authorization": f"Bearer {r.json()['token']}"}
        listed = (await http.get("/tables", headers=sup)).json()
        tables = [(t["id"], t["game"]) for t in listed if t["status"] == "open"]
        if sorted(g for _, g in tables) != sorted(GAMES):
            raise RuntimeError(f"the demo floor is not the four games: {tables}")
        start = time.monotonic()
        until = start + a.minutes * 60
        grace = 3 * max(a.betting_seconds, a.action_seconds)
        desk = Cashier(http, "cashier", creds["cashier"])
        bots = [
            TimedBot(
                http,
                name,
                password,
                *tables[i % len(tables)],
                Rng.seeded("soak", name),
                report,
                url=url,  # (the bot follows its table over the table's WebSocket)
                cashier=desk,  # (who tops a bot's wallet up when its money runs out)
                commands=commands,
                views=views,
            )
            for i, name in enumerate(names)
        ]
        playing = asyncio.gather(*(b.play(until, grace) for b in bots), return_exceptions=True)
        samples: list[dict[str, Any]] = []
        seen_c = seen_v = seen_p = 0
        n = 0
        while True:
            n += 1
            at = start + n * a.every
            if at > until + 0.5:
                break
            await asyncio.wait({playing}, timeout=max(0.0, at - time.monotonic()))
            if playing.done():
                break  # (every bot stopped early: an error; reported below)
            now = time.monotonic()
            procs = processes(core)
            if not any(p["role"] == "core" for p in procs):
                raise RuntimeError("the server process is gone")
            cs, vs = commands[seen_c:], views[seen_v:]
            seen_c, seen_v = len(commands), len(views)
            pushed, seen_p = report.pushed - seen_p, report.pushed
            span = now - (samples[-1]["_at"] if samples else start)
            s = {
                "_at": now,
                "t": round(now - start, 1),
                "rss_mb": round(sum(p["rss_kb"] for p in procs) / 1024, 1),
                "pss_mb": round(sum(p["pss_kb"] for p in procs) / 1024, 1),
                "anon_mb": round(sum(p["anon_kb"] for p in procs) / 1024, 1),
                "file_mb": round(sum(p["file_kb"] for p in procs) / 1024, 1),
                "fds": sum(p["fds"] for p in procs),
                "sockets": sum(p["sockets"] for p in procs),
                "processes": len(procs),
                "by_role": _by_role(procs),
                "commands": len(cs),
                "commands_per_s": round(len(cs) / span, 2),
                "command_p50_ms": _q([d for _, d, _ in cs], 0.5),
                "command_p99_ms": _q([d for _, d, _ in cs], 0.99),
                "server_errors": sum(1 for *_, st in cs if st >= 500),
                # the views the server pushed to the bots (their tables' WebSockets), and
                # any they read over HTTP (none: they follow the pushed states)
                "views_per_s": round((len(vs) + pushed) / span, 2),
                "view_p99_ms": _q([d for _, d, _ in vs], 0.99),
                "db_mb": round(_size(db) / 2**20, 2),
                "wal_mb": round(_size(db.with_name(db.name + "-wal")) / 2**20, 2),
            }
            samples.append(s)
            if not a.json:
                _print_sample(s, len(samples) == 1)
        results = await playing  # (the bots cash out: up to GRACE seconds)
    for s in samples:
        s.pop("_at")
    return {
        "samples": samples,
        "bots_failed": sum(isinstance(x, BaseException) for x in results),
        "bot_error": next((repr(x) for x in results if isinstance(x, BaseException)), None),
        # the commands' answers by status: in the window sampled, and in all (the cash-out)
        "window_statuses": _count(str(st) for end, _, st in commands if end <= until),
        "statuses": {str(k): v for k, v in sorted(report.statuses.items())},
        "server_errors": sum(v for k, v in report.statuses.items() if k >= 500),
        "refusals": dict(report.rules.most_common(8)),
        "bets": report.bets,
        "retries": report.retries,
        "unavailable": report.unavailable,
        "tables": [t for t, _ in tables],
    }


def _count(xs: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for x in xs:
        out[x] = out.get(x, 0) + 1
    return dict(sorted(out.items()))


def _by_role(procs: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """RSS (kB), descriptors and processes of each role in the tree."""
    out: dict[str, dict[str, int]] = {}
    for p in procs:
        r = out.setdefault(p["role"], {"rss_kb": 0, "anon_kb": 0, "fds": 0, "processes": 0})
        r["rss_kb"] += p["rss_kb"]
        r["anon_kb"] += p["anon_kb"]
        r["fds"] += p["fds"]
        r["processes"] += 1
    return out


def _size(p: Path) -> int:
    try:
        return p.stat().st_size
    except OSError:
        return 0


def _print_sample(s: dict[str, Any], head: bool) -> None:
    if head:
        print(
            f"{'t s':>7} {'RSS MB':>7} {'anon MB':>7} {'PSS MB':>7} {'fds':>5} {'socks':>5}"
            f" {'procs':>5} {'cmds/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'views/s':>7} {'5xx':>4}"
            f" {'db MB':>7} {'WAL MB':>7}"
        )
    print(
        f"{s['t']:>7.0f} {s['rss_mb']:>7.1f} {s['anon_mb']:>7.1f} {s['pss_mb']:>7.1f}"
        f" {s['fds']:>5} {s['sockets']:>5} {s['processes']:>5} {s['commands_per_s']:>7.1f}"
        f" {_ms(s['command_p50_ms']):>7} {_ms(s['command_p99_ms']):>7}"
        f" {s['views_per_s']:>7.1f} {s['server_errors']:>4}"
        f" {s['db_mb']:>7.2f} {s['wal_mb']:>7.2f}",
        flush=True,
    )


def _ms(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def _journal(db: Path) -> dict[str, Any]:
    """Entries and snapshots per table in the database (read after the server stopped)."""
    import sqlite3

    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as c:
            entries = dict(c.execute("SELECT table_id, count(*) FROM journal GROUP BY table_id"))
            snaps = dict(c.execute("SELECT table_id, count(*) FROM snapshots GROUP BY table_id"))
    except sqlite3.Error as exc:
        return {"error": repr(exc)}
    return {t: {"entries": n, "snapshots": snaps.get(t, 0)} for t, n in sorted(entries.items())}


def start_server(a: argparse.Namespace, tmp: Path) -> tuple[subprocess.Popen[bytes], str, Path]:
    import httpx

    port = free_port()
    db = tmp / "soak.db"
    log = tmp / "serve.log"
    cmd = [sys.executable, "-c", "from macau_tables.cli.app import main; main()", "serve"]
    cmd += ["--port", str(port), "--database-url", str(db)]
    cmd += ["--betting-seconds", str(a.betting_seconds), "--action-seconds", str(a.action_seconds)]
    if a.checkpoint_every is not None:
        cmd += ["--checkpoint-every", str(a.checkpoint_every)]
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}"}
    with log.open("ab") as out:
        proc = subprocess.Popen(
            cmd,
            cwd=tmp,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent,  # (this process has no threads yet)
        )
    url = f"http://127.0.0.1:{port}"
    for _ in range(1200):
        if proc.poll() is not None:
            raise RuntimeError(f"serve exited: {log.read_text()[-3000:]}")
        try:
            if httpx.get(url + "/health", timeout=1).status_code == 200:
                break
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    else:
        raise RuntimeError(f"serve did not answer: {log.read_text()[-3000:]}")
    a.creds = dict(re.findall(r"^ {4}(\w+)\s+(\S+)$", log.read_text(), re.M))
    return proc, url, db


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then its tree's stragglers (by pid, ours only), then SIGKILL after 30 s."""
    left = tree(proc.pid)
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 10
    for pid in left[1:]:
        while Path(f"/proc/{pid}").exists() and _role(pid) != "gone":
            if time.monotonic() > deadline:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                break
            time.sleep(0.1)


def _report(a: argparse.Namespace, out: dict[str, Any]) -> None:
    samples = out["samples"]
    print(
        f"soak: the demo floor ({', '.join(out['tables'])}) on SQLite, {a.players} bots, "
        f"{a.minutes:g} min, a sample every {a.every:g} s; betting windows of "
        f"{a.betting_seconds:g} s, {a.action_seconds:g} s to act"
    )
    c = sum(s["commands"] for s in samples)
    secs = samples[-1]["t"] if samples else 0
    total = sum(out["statuses"].values())
    print(
        f"  the bots sent {c} commands in the {secs:.0f} s sampled ({c / secs if secs else 0:.1f}"
        f"/s; by status {out['window_statuses']}) and {total - c} more as they cashed out; "
        f"{out['bets']} bets; {out['retries']} requests retried in transit, "
        f"{out['unavailable']} sent again after a 503"
        + (f"; refusals by rule: {out['refusals']}" if out["refusals"] else "")
    )
    for name, h in (
        ("first", [s for s in samples if s["t"] <= secs / 2]),
        ("second", [s for s in samples if s["t"] > secs / 2]),
    ):
        p99s = [s["command_p99_ms"] for s in h if s["command_p99_ms"] is not None]
        if p99s:
            print(
                f"  command p99 over the {name} half's intervals: median {median(p99s):.1f} ms, "
                f"worst {max(p99s):.1f} ms; {mean(s['commands_per_s'] for s in h):.2f} "
                f"commands/s, {mean(s['views_per_s'] for s in h):.1f} views/s"
            )
    if samples:
        last = samples[-1]
        db = out.get("db_growth") or {}
        print(
            f"  database at the end: {last['db_mb']:.2f} MB (+ WAL {last['wal_mb']:.2f} MB)"
            + (
                f", the file growing {db['slope_per_hour']:+} MB/h over the second half "
                "(the ledger and the journals: growth by design, not judged)"
                if db.get("slope_per_hour") is not None
                else ""
            )
        )
        print(
            "  the server's processes at the end: "
            + "; ".join(
                f"{role} {r['rss_kb'] / 1024:.0f} MB / {r['fds']} fds"
                + (f" ({r['processes']} processes)" if r["processes"] > 1 else "")
                for role, r in last["by_role"].items()
            )
        )
    j = out.get("journal") or {}
    if j and "error" not in j:
        print(
            "  journals: "
            + ", ".join(
                f"{t} {x['entries']} entries ({x['snapshots']} snapshots)" for t, x in j.items()
            )
        )
    for key, v in out["verdict"].items():
        if key not in ("rss_mb", "fds"):
            continue
        name = "RSS" if key == "rss_mb" else "open fds"
        unit = " MB" if key == "rss_mb" else ""
        if v["ok"] is None:
            print(
                f"  {name}: {v['second_half_samples']} samples in the second half: too few to judge"
            )
            continue
        print(
            f"  {name}: first half {v['first_half_level']}{unit}, second half "
            f"{v['second_half_level']}{unit}; second-half slope {v['slope_per_hour']:+}{unit}/h "
            f"= {v['growth']:+.2%} of the first half's level over half the run "
            f"(threshold {v['threshold']:.0%}): {'ok' if v['ok'] else 'GROWTH'}; this run "
            f"flags a growth above {v['smallest_flagged_per_hour']:.1f}{unit}/h"
        )
        anon = out.get("anon_trend") or {}
        if key == "rss_mb" and anon.get("slope_per_hour") is not None:
            print(
                f"    of which anonymous (the processes' own memory, not the files they map): "
                f"first half {anon['first_half_level']} MB, second half "
                f"{anon['second_half_level']} MB, slope {anon['slope_per_hour']:+} MB/h "
                f"({anon['growth']:+.2%}; shown, the verdict is RSS's)"
            )
    if out["server_errors"] or out["bots_failed"]:
        print(
            f"  ** {out['server_errors']} commands answered 5xx, {out['bots_failed']} bots "
            f"stopped on an error ({out['bot_error']}) **"
        )
    print(f"verdict: {out['result']}")


def _save(a: argparse.Namespace, out: dict[str, Any]) -> None:
    """The page's rows (benchmarks/results.py): each trend of the second half beside the
    growth the verdict allows."""
    import results  # benchmarks/results.py: the figures for docs/benchmarks.md

    rows = []
    for key, what in (("rss_mb", "RSS of the server's processes"), ("fds", "open descriptors")):
        v = out["verdict"].get(key) or {}
        if v.get("growth") is None:
            continue
        rows.append(
            results.row(
                f"{what}: growth over the second half of {a.minutes:g} minutes",
                v["growth"] * 100,
                "%",
                against="the most the verdict allows",
                against_value=v["threshold"] * 100,
                kind="target",
                better="lower",
                note=f"{v['first_half_level']} → {v['second_half_level']}; the smallest slope "
                f"it could flag {v['smallest_flagged_per_hour']}/h",
            )
        )
    rows.append(
        results.row(
            "commands answered 5xx",
            out["server_errors"],
            "",
            against="allowed",
            against_value=0,
            kind="target",
            better="lower",
            note=f"verdict: {out['result']}",
        )
    )
    results.save(
        "bench_soak", "Soak", rows, report={k: v for k, v in out.items() if k != "samples"}
    )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
        "  python benchmarks/bench_soak.py --minutes 3 --every 30   # a short proof\n"
        "  make soak                      # 30 minutes, a sample a minute (MINUTES=30 EVERY=60)\n"
        "  make soak MINUTES=60 EVERY=120\n"
        "exit status: 0 no growth, 1 growth or server errors, 2 too few samples to judge",
    )
    ap.add_argument("--minutes", type=float, default=30.0, help="minutes of play (30)")
    ap.add_argument("--every", type=float, default=60.0, help="seconds between samples (60)")
    ap.add_argument("--players", type=int, default=8, help="bot players, over the 4 tables (8)")
    ap.add_argument("--betting-seconds", type=float, default=5.0, help="serve's (5)")
    ap.add_argument("--action-seconds", type=float, default=5.0, help="serve's (5)")
    ap.add_argument(
        "--checkpoint-every",
        type=int,
        default=None,
        help="serve's (its default: 1000 entries; an engine keeps at most about twice as many, "
        "so a smaller one reaches that bound sooner)",
    )
    ap.add_argument("--deposit", type=int, default=100_000_000, help="each bot's funds")
    ap.add_argument(
        "--rss-threshold",
        type=float,
        default=0.05,
        help="most RSS growth allowed: the second half's slope over half the run, as a "
        "fraction of the first half's level (0.05)",
    )
    ap.add_argument("--fd-threshold", type=float, default=0.10, help="the same for fds (0.10)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON only")
    ap.add_argument("--output", type=Path, help="also write the results as JSON to this file")
    ap.add_argument("--keep", action="store_true", help="keep the database and server log")
    a = ap.parse_args()
    if a.every <= 0 or a.minutes <= 0:
        ap.error("--minutes and --every must be positive")

    def _term(*_: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _term)
    from macau_tables.server.games import load_builtin_games

    load_builtin_games()  # (each game's binding registers its bots' strategy)
    tmp = Path(tempfile.mkdtemp(prefix="bench-soak-"))
    proc = None
    try:
        proc, url, db = start_server(a, tmp)
        out = asyncio.run(soak(a, url, proc.pid, db))
    except BaseException:
        print(f"(the database and server log are kept in {tmp})", file=sys.stderr)
        raise
    finally:
        if proc is not None:
            stop_server(proc)
    out["journal"] = _journal(db)
    samples = out["samples"]
    db_growth = verdict(samples, "db_mb", float("inf")) if samples else {}
    if samples:
        out["anon_trend"] = verdict(samples, "anon_mb", a.rss_threshold)
    out["db_growth"] = {k: db_growth.get(k) for k in ("first_half_level", "slope_per_hour")}
    out["verdict"] = (
        {
            "rss_mb": verdict(samples, "rss_mb", a.rss_threshold),
            "fds": verdict(samples, "fds", a.fd_threshold),
        }
        if samples
        else {}
    )
    oks = [v["ok"] for v in out["verdict"].values()]
    if out["server_errors"] or out["bots_failed"]:
        out["result"], code = "errors", 1
    elif not oks or None in oks:
        out["result"], code = "too few samples", 2
    elif all(oks):
        out["result"], code = "no growth", 0
    else:
        out["result"], code = "growth", 1
    out["config"] = {
        k: getattr(a, k)
        for k in (
            "minutes",
            "every",
            "players",
            "betting_seconds",
            "action_seconds",
            "checkpoint_every",
        )
    } | {"cpus": os.cpu_count(), "load_average": os.getloadavg()[0]}
    _save(a, out)
    if a.json:
        print(json.dumps(out))
    else:
        _report(a, out)
    if a.output:
        a.output.write_text(json.dumps(out, indent=1) + "\n")
    if a.keep or code:
        print(f"(the database and server log are kept in {tmp})", file=sys.stderr)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(code)


if __name__ == "__main__":
    main()
