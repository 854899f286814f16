"""The table server on the real games, beside a bet server written the obvious way.

Three parts, in one run on this machine (figures printed, and written to
``benchmarks/results/bench_real_games.json``):

1. **The disk.** Raw SQLite durable commits per second (WAL, ``synchronous=FULL``, one row
   a commit, one after the other): the physical limit a commit that waits for its fsync
   meets (group commit is how a server goes past it).
2. **Each real game at saturation, against the obvious server, in alternated pairs.** A
   ``macau-tables serve`` process (SQLite, a new file; one process, as by default)
   with TABLES tables of each game; CLIENTS light clients (one keep-alive connection each,
   :class:`macau_tables.server.bots.Http`, all in one process on uvloop) sit at one game's
   tables and bet as fast as the server answers — baccarat Banker and Player in turn over
   the standing spots, craps the Field, Pai Gow and Taiwan Pai Kao on their own place —
   for WINDOW seconds, one game after the other; then the same clients at
   ``benchmarks/obvious_server.py`` (Starlette + SQLite WAL FULL, group commit; per bet the
   idempotency check, the balance with its overdraft check, the bet's row, two balanced
   postings, a hash-chained journal row, the idempotency row). Then both again at the same
   offered load (Poisson arrivals at half the lower of the two saturations), baccarat
   against the obvious server: the p99 there. Bets per second, server CPU per bet (its
   whole process tree, ``/proc``), p50 / p99 as the clients and as the servers timed them
   (macau-tables: ``GET /server/latency``, request parsed -> reply handed to the socket,
   bucket upper bounds; the obvious server: request routed -> answer ready). Printed as
   ratios, macau-tables / obvious, each pair's and their median.
3. **A floor of the four games with the bots** (``macau-tables bots``: each game's
   strategy, each bot following its table over its WebSocket, all in ONE process): at live
   pacing (the strategies' one bet a round, the table's clock) and at saturation (a bet
   accepted is placed again at once) — commands/s, views pushed/s, bets/s, server CPU per
   command and cores busy, the bots' process's CPU, p50 / p99 of a bet as the bots saw it
   and of each operation as the server timed it.

The machine is shared: each window is short, its load average is printed, and the pairs
alternate so that a drift of the machine falls on both sides alike.

    python benchmarks/bench_real_games.py               # make bench: about 3 minutes
    python benchmarks/bench_real_games.py --quick       # a smoke run: about a minute
    python benchmarks/bench_real_games.py --pairs 3 --window 8 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import resource
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT), str(ROOT / "benchmarks")]

import results  # noqa: E402  (benchmarks/results.py: the figures for docs/benchmarks.md)
from bench_server import _cpu_seconds, free_port  # noqa: E402
from macau_tables.server.latency import difference, quantile  # noqa: E402

GAMES = ("baccarat", "craps", "paigow", "taiwan")
PASSWORD = "bench-password"
BUY = 100_000_000  # avos a light client buys in with (MOP 1,000,000)


# --- 1. the disk -----------------------------------------------------------------------------


def raw_commits(directory: Path, seconds: float) -> dict[str, Any]:
    """SQLite commits per second, each durable (WAL, synchronous=FULL), one at a time."""
    path = directory / "raw.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
    n, t0 = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t (v) VALUES (?)", ("x" * 64,))
        conn.execute("COMMIT")
        n += 1
    conn.close()
    return {"commits_per_s": round(n / elapsed, 1), "commits": n, "seconds": round(elapsed, 2)}


# --- the light clients (one process, uvloop) ---------------------------------------------------


def _plans_macau(game: str, tables: list[str], clients: int) -> list[dict[str, Any]]:
    """What each light client does at a real game: sit down, then bet, as fast as answered
    (and what it does when refused: buy chips, decline the bank, throw if it shooting)."""
    plans = []
    for i in range(clients):
        table = tables[i % len(tables)]
        path = f"/tables/{table}/commands"
        k = i // len(tables)  # its place among the table's clients
        setup: list[dict[str, Any]]
        nudge: list[dict[str, Any]] = []
        tick = None
        if game == "baccarat":  # BA-15 standing spots 8-14; Banker and Player in turn (BA-14)
            setup = [{"op": "sit", "args": {"amount": BUY}}]
            bets = [
                {"op": "place_bet", "args": {"bet": kind, "amount": 10_000, "spot": 8 + s}}
                for s in range(7)
                for kind in (("banker", "player") if i % 2 else ("player", "banker"))
            ]
            buy = {"op": "buy_in", "args": {"amount": BUY}}
        elif game == "craps":  # CR-4 the Field, any roll; the shooter throws now and then
            setup = [{"op": "sit", "args": {"amount": BUY}}]
            bets = [{"op": "place_bet", "args": {"bet": "field", "amount": 1_000}}]
            buy = {"op": "buy_in", "args": {"amount": BUY}}
            tick = (0.5, {"op": "throw", "args": {}})
        else:  # PG-4.6 / TW-2g: a bet on one's own place, before the dice
            seat = k % 8 + 1
            setup = [
                {"op": "sit", "args": {"seat": seat}},
                {"op": "buy_in", "args": {"amount": BUY}},
            ]
            bets = [{"op": "place_bet", "args": {"seat": seat, "amount": 1_000}}]
            buy = {"op": "buy_in", "args": {"amount": BUY}}
            nudge = [{"op": "decline_bank", "args": {}}]
        plans.append(
            {
                "login": f"light{i}",
                "path": path,
                "setup": setup,
                "bets": bets,
                "buy": buy,
                "nudge": nudge,
                "tick": tick,
            }
        )
    return plans


def _plans_obvious(clients: int, tables: int) -> list[dict[str, Any]]:
    return [
        {
            "token": f"token-p{i}",
            "path": "/bet",
            "setup": [],
            "bets": [{"table": f"t{i % tables}", "amount": 100}],
            "buy": None,
            "nudge": [],
            "tick": None,
        }
        for i in range(clients)
    ]


async def _light(url: str, phases: list[dict[str, Any]], q: Any) -> None:
    """Run the phases one after another: each client's setup, then its bets from the
    phase's start to its stop (sent to the benchmark: it samples the server then)."""
    from macau_tables.server.bots import Http

    clients = _Clients(url, Http)
    await clients.setup(phases)
    for phase in phases:
        await clients.phase(phase, q)
    await clients.close()
    q.put(("done", None, None))


class _Clients:
    """The light clients: one connection and one player (or token) each."""

    def __init__(self, url: str, http: Any) -> None:
        self.url, self.http = url, http
        self.conns: dict[int, Any] = {}
        self.headers: dict[int, dict[str, str]] = {}
        self.keys = iter(range(10**12))
        self.run = time.time_ns()
        self.rates: dict[str, float] = {}  # each phase's bets/s

    async def login(self, i: int, plan: dict[str, Any]) -> None:
        self.conns[i] = self.http(self.url)
        if "token" in plan:
            self.headers[i] = {"Authorization": f"Bearer {plan['token']}"}
            return
        r = await self.conns[i].post(
            "/auth/login", json={"name": plan["login"], "password": PASSWORD}
        )
        r.raise_for_status()
        self.headers[i] = {"Authorization": f"Bearer {r.json()['token']}"}

    async def post(self, i: int, path: str, body: dict[str, Any]) -> Any:
        h = {**self.headers[i], "Idempotency-Key": f"{self.run}-{i}-{next(self.keys)}"}
        return await self.conns[i].post(path, json=body, headers=h)

    async def setup(self, phases: list[dict[str, Any]]) -> None:
        """Every client logged in, and at its table of each phase's game (all of them
        first: a table's clock then has its rounds going — a baccarat shoe shuffled, cut
        and burned — when its phase begins)."""
        plans = phases[0]["plans"]
        await asyncio.gather(*(self.login(i, p) for i, p in enumerate(plans)))
        done: set[tuple[int, str]] = set()
        for phase in phases:
            for i, p in enumerate(phase["plans"]):  # (one by one: a table's seats in order)
                if (i, p["path"]) not in done:
                    done.add((i, p["path"]))
                    for body in p["setup"]:
                        await self.post(i, p["path"], body)

    async def phase(self, phase: dict[str, Any], q: Any) -> None:
        plans = phase["plans"]
        start = time.time() + phase["warmup"]
        stop = start + phase["window"]
        q.put(("window", phase["name"], start, stop))
        rate = phase.get("rate")
        if isinstance(rate, dict):  # a share of the lower of two saturations
            rate = rate["share"] * min(rate["cap"], self.rates[rate["of"]])
        gap = len(plans) / rate if rate else 0.0  # each client's mean gap, open loop
        lat: list[float] = []
        counts = {"bets": 0, "refused": 0, "requests": 0, "errors": 0}
        refusals: Counter[str] = Counter()

        async def one(i: int, plan: dict[str, Any]) -> None:
            rng = random.Random(f"{phase['name']}-{i}")
            n, ticked = 0, time.monotonic()
            if gap:
                await asyncio.sleep(rng.uniform(0, gap))
            while (now := time.time()) < stop:
                if plan["tick"] and time.monotonic() - ticked >= plan["tick"][0]:
                    ticked = time.monotonic()
                    await self.post(i, plan["path"], plan["tick"][1])
                body = plan["bets"][n % len(plan["bets"])]
                n += 1
                t0 = time.perf_counter()
                try:
                    r = await self.post(i, plan["path"], body)
                except (OSError, TimeoutError):
                    counts["errors"] += 1
                    await asyncio.sleep(0.1)
                    continue
                dt = time.perf_counter() - t0
                inside = start <= now <= stop
                counts["requests"] += inside
                if r.status_code == 200:
                    if inside:
                        counts["bets"] += 1
                        lat.append(dt)
                else:
                    counts["refused"] += inside
                    body = r.json() or {}
                    refusals[f"{body.get('rule')}: {str(body.get('message'))[:60]}"] += inside
                    short = body.get("error") == "insufficient_funds"
                    if short and plan["buy"]:
                        await self.post(i, plan["path"], plan["buy"])
                    elif not short:
                        for nudge in plan["nudge"]:
                            await self.post(i, plan["path"], nudge)
                        await asyncio.sleep(0.05)  # (betting is closed: it opens again soon)
                if gap:
                    await asyncio.sleep(max(0.0, rng.expovariate(1 / gap) - dt))

        await asyncio.sleep(max(0.0, start - time.time()))
        cpu0 = _self_cpu()
        await asyncio.gather(*(one(i, p) for i, p in enumerate(plans)))
        self.rates[phase["name"]] = counts["bets"] / phase["window"]
        result = {
            **counts,
            "lat": lat,
            "client_cpu_s": _self_cpu() - cpu0,
            "refusals": dict(refusals.most_common(4)),
            "rate": rate,
        }
        q.put(("result", phase["name"], result))

    async def close(self) -> None:
        for c in self.conns.values():
            await c.aclose()


def _self_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _light_process(url: str, phases: list[dict[str, Any]], q: Any) -> None:
    import uvloop

    uvloop.run(_light(url, phases, q))


def drive(server: Macau | Obvious, phases: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The light clients through ``phases`` (a process of their own); for each phase the
    server's CPU over its window and its own timing of the bets."""
    q: Any = mp.Queue()
    proc = mp.Process(target=_light_process, args=(server.url, phases, q))
    proc.start()
    out: dict[str, dict[str, Any]] = {}
    marks: dict[str, Any] = {}
    try:
        while True:
            kind, name, *rest = q.get(timeout=300)
            if kind == "done":
                break
            if kind == "window":
                start, stop = rest
                time.sleep(max(0.0, start - time.time()))
                cpu0, seen0 = _cpu_seconds([server.pid]), server.reading()
                time.sleep(max(0.0, stop - time.time()))
                cpu = _cpu_seconds([server.pid]) - cpu0
                marks[name] = (cpu, server.timing(seen0, server.reading()), os.getloadavg()[0])
                continue
            cpu, timed, load = marks[name]
            window = next(p["window"] for p in phases if p["name"] == name)
            out[name] = _figures(rest[0], cpu, window, timed, load)
    finally:
        proc.join(timeout=60)
        if proc.is_alive():
            proc.kill()
    return out


def _figures(
    r: dict[str, Any], cpu: float, window: float, timed: dict[str, Any], load: float
) -> dict[str, Any]:
    lat = sorted(r["lat"])

    def pct(q: float) -> float | None:
        return round(lat[min(len(lat) - 1, int(q * len(lat)))] * 1000, 2) if lat else None

    bets = r["bets"]
    return {
        "bets": bets,
        "bets_per_s": round(bets / window, 1),
        "requests_per_s": round(r["requests"] / window, 1),
        "refused": r["refused"],
        "errors": r["errors"],
        "p50_ms": pct(0.5),
        "p99_ms": pct(0.99),
        "server_cpu_ms_per_bet": round(cpu * 1000 / bets, 3) if bets else None,
        "server_cpu_ms_per_request": round(cpu * 1000 / r["requests"], 3)
        if r["requests"]
        else None,
        "server_cores_busy": round(cpu / window, 2),
        "clients_cpu_ms_per_bet": round(r["client_cpu_s"] * 1000 / bets, 3) if bets else None,
        "load_average": round(load, 1),
        "refusals": r["refusals"],
        "offered_per_s": round(r["rate"], 1) if r["rate"] else None,
        **timed,
    }


# --- the servers -------------------------------------------------------------------------------


class Macau:
    """A ``macau-tables serve`` (SQLite, a new file) with ``tables`` tables of each game."""

    def __init__(
        self, directory: Path, tables: int, betting: float, action: float, *, fast: bool = True
    ) -> None:
        from tests.server.serve_proc import Serve

        directory.mkdir(parents=True, exist_ok=True)
        timing = ("--betting-seconds", str(betting), "--action-seconds", str(action))
        self.serve = Serve(directory, *timing, *(() if fast else ("--no-fast-path",)))
        self.tables, self.betting, self.action = tables, betting, action
        self.url = self.serve.url

    def start(self, players: list[str]) -> None:
        import httpx

        from macau_tables.server.bots import Http, setup_players

        self.serve.start()
        assert self.serve.proc is not None
        self.pid = self.serve.proc.pid
        self.creds = self.serve.creds()
        self.sup = {
            "Authorization": "Bearer "
            + httpx.post(
                self.url + "/auth/login",
                json={"name": "supervisor", "password": self.creds["supervisor"]},
                timeout=30,
            ).json()["token"]
        }
        for g in GAMES:
            for k in range(2, self.tables + 1):
                r = httpx.post(
                    self.url + "/tables",
                    json={
                        "id": f"{g}-{k}",
                        "game": g,
                        "betting_seconds": self.betting,
                        "action_seconds": self.action,
                    },
                    headers=self.sup,
                    timeout=30,
                )
                r.raise_for_status()

        async def setup() -> None:
            http = Http(self.url)
            await setup_players(
                http,
                players,
                PASSWORD,
                ("supervisor", self.creds["supervisor"]),
                ("cashier", self.creds["cashier"]),
                10**10,  # (MOP 100,000,000 each: the demo cage holds MOP 10,000,000,000)
            )
            await http.aclose()

        asyncio.run(setup())

    def game_tables(self, game: str) -> list[str]:
        return [f"{game}-{k}" for k in range(1, self.tables + 1)]

    def reading(self, op: str = "place_bet") -> list[int] | None:
        """The server's own timing of ``op`` so far (``GET /server/latency``: counts in
        its buckets)."""
        import httpx

        body = httpx.get(self.url + "/server/latency", headers=self.sup, timeout=30).json()
        counts = body["commands"].get(op, {}).get("counts")
        return list(counts) if counts else None

    @staticmethod
    def timing(before: list[int] | None, after: list[int] | None) -> dict[str, Any]:
        """The p50 / p99 between two readings (bucket upper bounds)."""
        d = difference(after, before) if after else []
        return {
            "server_p50_ms": quantile(d, 0.5) if d else None,
            "server_p99_ms": quantile(d, 0.99) if d else None,
        }

    def stop(self) -> None:
        self.serve.stop()


class Obvious:
    """``benchmarks/obvious_server.py`` on a new file."""

    def __init__(self, directory: Path, clients: int) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = (directory / "obvious.log").open("wb")
        self.cmd = [
            sys.executable,
            str(ROOT / "benchmarks" / "obvious_server.py"),
            "--db",
            str(directory / "obvious.db"),
            "--port",
            str(self.port),
            "--players",
            str(clients),
        ]

    def start(self) -> None:
        import httpx

        self.proc = subprocess.Popen(self.cmd, stdout=self.log, stderr=subprocess.STDOUT)
        self.pid = self.proc.pid
        for _ in range(300):
            try:
                if httpx.get(self.url + "/health", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert self.proc.poll() is None, "the obvious server did not start"
            time.sleep(0.1)
        raise AssertionError("the obvious server did not answer")

    def reading(self) -> list[float]:
        """Each bet's handling time so far (µs), as the server timed it."""
        import httpx

        handled: list[float] = httpx.get(self.url + "/stats", timeout=30).json()["handled_us"]
        return handled

    @staticmethod
    def timing(before: list[float], after: list[float]) -> dict[str, Any]:
        xs = sorted(after[len(before) :])
        if not xs:
            return {"server_p50_ms": None, "server_p99_ms": None}
        return {
            "server_p50_ms": round(xs[len(xs) // 2] / 1000, 2),
            "server_p99_ms": round(xs[min(len(xs) - 1, int(0.99 * len(xs)))] / 1000, 2),
        }

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


# --- 3. the floor with the bots ------------------------------------------------------------------


def _bots_process(
    url: str,
    creds: dict[str, str],
    tables: list[tuple[str, str]],
    players: int,
    phases: list[dict[str, Any]],
    q: Any,
) -> None:
    import uvloop

    from macau_tables.server.bots import BotReport, Http, play_bots, setup_players
    from macau_tables.server.games import load_builtin_games

    load_builtin_games()

    async def main() -> None:
        sup, cash = ("supervisor", creds["supervisor"]), ("cashier", creds["cashier"])
        for phase in phases:
            prefix = f"floor{phase['name']}"
            names = [f"{prefix}{i}" for i in range(players)]
            http = Http(url)
            await setup_players(http, names, f"{prefix}-password", sup, cash, 10**9)
            await http.aclose()
            report = BotReport()
            seconds = phase["warmup"] + phase["window"]
            task = asyncio.ensure_future(
                play_bots(
                    url,
                    players,
                    seconds,
                    sup,
                    cash,
                    tables=tables,
                    grace=phase["grace"],
                    prefix=prefix,
                    report=report,
                    pace=phase["pace"],
                    deposit=10**9,
                    setup=False,
                )
            )
            start = time.time() + phase["warmup"]
            stop = start + phase["window"]
            q.put(("window", phase["name"], start, stop))
            await asyncio.sleep(max(0.0, start - time.time()))
            marks = [_marks(report)]
            await asyncio.sleep(max(0.0, stop - time.time()))
            marks.append(_marks(report))
            await task
            a, b = marks
            q.put(
                (
                    "result",
                    phase["name"],
                    {
                        **{k: b[k] - a[k] for k in ("commands", "bets", "pushed", "parsed", "cpu")},
                        "refused": b["refused"] - a["refused"],
                        "lat": report.bet_latencies[a["n_lat"] : b["n_lat"]],
                        "by_game": {
                            g: {
                                "commands": f.commands,
                                "bets": f.bets,
                                "refused": f.refused,
                            }
                            for g, f in report.by_game.items()
                        },
                        "views_polled": report.views,
                        "topups": report.topups,
                        "rebuys": report.rebuys,
                        "broke": report.broke,
                        "server_errors": sum(n for s, n in report.statuses.items() if s >= 500),
                        "rules": dict(report.rules.most_common(5)),
                    },
                )
            )
        q.put(("done", None, None))

    uvloop.run(main())


def _marks(report: Any) -> dict[str, Any]:
    return {
        "commands": sum(report.statuses.values()),
        "refused": sum(n for s, n in report.statuses.items() if 400 <= s < 500),
        "bets": report.bets,
        "pushed": report.pushed,
        "parsed": report.parsed,
        "cpu": _self_cpu(),
        "n_lat": len(report.bet_latencies),
    }


def floor(macau: Macau, players: int, phases: list[dict[str, Any]]) -> dict[str, Any]:
    tables = [(t, g) for g in GAMES for t in macau.game_tables(g)]
    q: Any = mp.Queue()
    proc = mp.Process(
        target=_bots_process, args=(macau.url, macau.creds, tables, players, phases, q)
    )
    proc.start()
    out: dict[str, Any] = {}
    marks: dict[str, Any] = {}
    ops = ("place_bet", "join", "sit", "buy_in", "throw", "leave")
    try:
        while True:
            kind, name, *rest = q.get(timeout=300)
            if kind == "done":
                break
            if kind == "window":
                start, stop = rest
                time.sleep(max(0.0, start - time.time()))
                cpu0 = _cpu_seconds([macau.pid])
                seen0 = {op: macau.reading(op) for op in ops}
                time.sleep(max(0.0, stop - time.time()))
                cpu = _cpu_seconds([macau.pid]) - cpu0
                seen1 = {op: macau.reading(op) for op in ops}
                timed = {op: macau.timing(seen0[op], seen1[op]) for op in ops if seen1[op]}
                marks[name] = (cpu, timed, os.getloadavg()[0])
                continue
            r = rest[0]
            cpu, timed, load = marks[name]
            window = next(p["window"] for p in phases if p["name"] == name)
            lat = sorted(r["lat"])

            def pct(q: float, lat: list[float] = lat) -> float | None:
                return round(lat[min(len(lat) - 1, int(q * len(lat)))] * 1000, 2) if lat else None

            out[name] = {
                "pace": next(p["pace"] for p in phases if p["name"] == name),
                "commands_per_s": round(r["commands"] / window, 1),
                "bets_per_s": round(r["bets"] / window, 1),
                "views_pushed_per_s": round(r["pushed"] / window, 1),
                "views_read_per_s": round(r["parsed"] / window, 1),
                "views_polled": r["views_polled"],
                "refused": r["refused"],
                "bet_p50_ms_bots": pct(0.5),
                "bet_p99_ms_bots": pct(0.99),
                "server_cpu_ms_per_command": round(cpu * 1000 / r["commands"], 3)
                if r["commands"]
                else None,
                "server_cores_busy": round(cpu / window, 2),
                "bots_cores_busy": round(r["cpu"] / window, 2),
                "bots_cpu_ms_per_command": round(r["cpu"] * 1000 / r["commands"], 3)
                if r["commands"]
                else None,
                "server_timing_ms": timed,
                "by_game": r["by_game"],
                "money": {k: r[k] for k in ("topups", "rebuys", "broke")},
                "server_errors": r["server_errors"],
                "rules": r["rules"],
                "load_average": round(load, 1),
            }
    finally:
        proc.join(timeout=120)
        if proc.is_alive():
            proc.kill()
    return out


# --- the run -----------------------------------------------------------------------------------


def pair(a: argparse.Namespace, tmp: Path, i: int) -> dict[str, Any]:
    """One pair: the obvious server at saturation; then macau-tables, each real game at
    saturation and baccarat at half the lower of its and the obvious server's saturation
    (Poisson arrivals); then the obvious server at that same offered load."""
    out: dict[str, Any] = {}
    obvious = Obvious(tmp / f"obvious-{i}", a.clients)
    obvious.start()
    try:
        phase = {
            "name": "saturation",
            "plans": _plans_obvious(a.clients, a.tables),
            "warmup": a.warmup,
            "window": a.window,
        }
        out["obvious"] = drive(obvious, [phase])
    finally:
        obvious.stop()
    names = [f"light{k}" for k in range(a.clients)]
    macau = Macau(tmp / f"macau-{i}", a.tables, a.betting_seconds, a.action_seconds)
    macau.start(names)
    try:
        cap = out["obvious"]["saturation"]["bets_per_s"]
        phases = [
            {
                "name": g,
                "plans": _plans_macau(g, macau.game_tables(g), a.clients),
                "warmup": a.warmup,
                "window": a.window,
            }
            for g in ("craps", "paigow", "taiwan", "baccarat")  # (baccarat's shoe: cut, burned)
        ]
        phases.append(
            {
                **phases[-1],
                "name": "baccarat_load",
                "rate": {"share": 0.5, "cap": cap, "of": "baccarat"},
            }
        )
        got = drive(macau, phases)
    finally:
        macau.stop()
    out["macau"] = {g: got[g] for g in GAMES}
    out["macau_load"] = got["baccarat_load"]
    out["rate"] = got["baccarat_load"]["offered_per_s"]
    # the same server without its fast path (serve --no-fast-path: every command through
    # FastAPI's route): is the fast path worth its place?
    one = Macau(tmp / f"macau-{i}-route", a.tables, a.betting_seconds, a.action_seconds, fast=False)
    one.start(names)
    try:
        # baccarat at saturation, once its shoe is shuffled, cut and burned (in the run above
        # it comes after three other games' phases: as long a start here)
        late = {**phases[-2], "warmup": 3 * (a.warmup + a.window) + a.warmup}
        out["route_only"] = drive(one, [late])
    finally:
        one.stop()
    obvious = Obvious(tmp / f"obvious-{i}-load", a.clients)
    obvious.start()
    try:
        phase = {
            "name": "load",
            "plans": _plans_obvious(a.clients, a.tables),
            "warmup": a.warmup,
            "window": a.window,
            "rate": out["rate"],
        }
        out["obvious_load"] = drive(obvious, [phase])["load"]
    finally:
        obvious.stop()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="a smoke run (short windows, 1 pair)")
    ap.add_argument("--pairs", type=int, default=2, help="alternated pairs of runs")
    ap.add_argument("--window", type=float, default=7.0, help="seconds measured a phase")
    ap.add_argument("--warmup", type=float, default=1.0)
    ap.add_argument("--tables", type=int, default=3, help="tables of each game")
    ap.add_argument("--clients", type=int, default=24, help="light clients")
    ap.add_argument("--bots", type=int, default=24, help="bots at the floor")
    ap.add_argument("--floor-window", type=float, default=10.0)
    ap.add_argument(
        "--betting-seconds",
        type=float,
        default=6.0,
        help="each table's betting window (most of a round: saturation is measured inside "
        "betting windows, as a floor's players bet in them)",
    )
    ap.add_argument("--action-seconds", type=float, default=0.5)
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    a = ap.parse_args()
    if a.quick:
        a.pairs, a.window, a.warmup, a.floor_window, a.betting_seconds = 1, 3.0, 0.5, 4.0, 3.0
    tmp = Path(tempfile.mkdtemp(prefix="bench-real-games-"))
    t0 = time.monotonic()
    try:
        out = run(a, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    out["seconds"] = round(time.monotonic() - t0, 1)
    results.save("bench_real_games", "The real games against a server written the obvious way",
                 page(out), report=out)  # fmt: skip
    if a.json:
        print(json.dumps(out))
    else:
        report(out)
        print(f"({out['seconds']:.0f} s)")


def run(a: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    out: dict[str, Any] = {
        "machine": {"cpus": os.cpu_count(), "load_average_at_start": os.getloadavg()[0]},
        "options": {
            k: getattr(a, k)
            for k in (
                "pairs",
                "window",
                "warmup",
                "tables",
                "clients",
                "bots",
                "floor_window",
                "betting_seconds",
                "action_seconds",
            )
        },
        "disk": raw_commits(tmp, 1.0 if a.quick else 2.0),
        "pairs": [pair(a, tmp, i) for i in range(a.pairs)],
    }
    macau = Macau(tmp / "floor", 2, a.betting_seconds, a.action_seconds)
    macau.start([])
    try:
        phases = [
            {"name": pace, "pace": pace, "warmup": 3.0, "window": a.floor_window, "grace": 10.0}
            for pace in ("live", "saturate")
        ]
        out["floor"] = floor(macau, a.bots, phases)
    finally:
        macau.stop()
    out["ratios"] = ratios(out["pairs"])
    return out


def ratios(pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """macau-tables / obvious: each game's bets/s and server CPU per bet at saturation, the
    p99 at the same offered load; each pair's, and their median."""

    def each(f: Any) -> list[float]:
        return [x for p in pairs if (x := f(p)) is not None]

    def div(x: float | None, y: float | None) -> float | None:
        return round(x / y, 3) if x is not None and y else None

    out: dict[str, Any] = {}
    for g in GAMES:
        out[f"{g}_bets_per_s"] = each(
            lambda p, g=g: div(
                p["macau"][g]["bets_per_s"], p["obvious"]["saturation"]["bets_per_s"]
            )
        )
        out[f"{g}_server_cpu_per_bet"] = each(
            lambda p, g=g: div(
                p["macau"][g]["server_cpu_ms_per_bet"],
                p["obvious"]["saturation"]["server_cpu_ms_per_bet"],
            )
        )
    out["baccarat_p99_at_equal_load"] = each(
        lambda p: div(p["macau_load"]["p99_ms"], p["obvious_load"]["p99_ms"])
    )
    out["fast_path_baccarat_bets_per_s"] = each(
        lambda p: (
            div(p["macau"]["baccarat"]["bets_per_s"], p["route_only"]["baccarat"]["bets_per_s"])
            if "route_only" in p
            else None
        )
    )
    return {
        k: {"pairs": v, "median": round(statistics.median(v), 3) if v else None}
        for k, v in out.items()
    }


def page(r: dict[str, Any]) -> list[dict[str, Any]]:
    """The figures for docs/benchmarks.md: each game's medians beside the obvious
    server's, the disk's limit, the targets of the ratios, the floor with the bots."""

    def med(f: Any) -> float | None:
        xs = [x for p in r["pairs"] if (x := f(p)) is not None]
        return round(statistics.median(xs), 3) if xs else None

    obvious = "the obvious server"
    ob_rate = med(lambda p: p["obvious"]["saturation"]["bets_per_s"])
    ob_cpu = med(lambda p: p["obvious"]["saturation"]["server_cpu_ms_per_bet"])
    rows = [
        results.row(
            "the obvious server (Starlette + SQLite WAL FULL, group commit) at saturation",
            ob_rate,
            "bets/s",
            against="durable SQLite commits one at a time (the disk)",
            against_value=r["disk"]["commits_per_s"],
            kind="limit",
        )
    ]
    for g in GAMES:
        rows.append(
            results.row(
                f"{g} at saturation",
                med(lambda p, g=g: p["macau"][g]["bets_per_s"]),
                "bets/s",
                against=obvious,
                against_value=ob_rate,
                kind="peer",
            )
        )
        rows.append(
            results.row(
                f"{g}: server CPU a bet",
                med(lambda p, g=g: p["macau"][g]["server_cpu_ms_per_bet"]),
                "ms",
                against=obvious,
                against_value=ob_cpu,
                kind="peer",
                better="lower",
                note=f"{med(lambda p, g=g: p['macau'][g]['server_cpu_ms_per_request']) or 0:.2f}"
                " ms a request, refusals included",
            )
        )
    rows.append(
        results.row(
            "baccarat p99 at the same offered load",
            med(lambda p: p["macau_load"]["p99_ms"]),
            "ms",
            against=obvious,
            against_value=med(lambda p: p["obvious_load"]["p99_ms"]),
            kind="peer",
            better="lower",
            note=f"{med(lambda p: p['rate']) or 0:.0f} bets/s offered",
        )
    )

    def route(key: str) -> float | None:
        return med(lambda p: p.get("route_only", {}).get("baccarat", {}).get(key))

    rows.append(
        results.row(
            "baccarat at saturation, commands by the fast path (the default)",
            med(lambda p: p["macau"]["baccarat"]["bets_per_s"]),
            "bets/s",
            against="FastAPI's route alone (serve --no-fast-path), same run",
            against_value=route("bets_per_s"),
            note=f"server CPU a bet on the route {route('server_cpu_ms_per_bet') or 0:.2f} ms",
        )
    )
    ratio = r["ratios"]
    for key, target, better in (
        ("baccarat_bets_per_s", 0.7, "higher"),
        ("baccarat_server_cpu_per_bet", 1.5, "lower"),
        ("baccarat_p99_at_equal_load", 1.5, "lower"),
    ):
        rows.append(
            results.row(
                f"{key.replace('_', ' ')}, macau-tables / obvious",
                ratio[key]["median"],
                "×",
                against="the target",
                against_value=target,
                kind="target",
                better=better,
            )
        )
    for name, x in r["floor"].items():
        rows.append(
            results.row(
                f"the floor with bots, {name}: commands",
                x["commands_per_s"],
                "/s",
                note=f"{x['bets_per_s']:.0f} bets/s, {x['views_pushed_per_s']:.0f} views "
                f"pushed/s, {x['views_polled']} polled",
            )
        )
        rows.append(
            results.row(
                f"the floor with bots, {name}: the bots' one process",
                x["bots_cores_busy"],
                "cores",
                against="the server's",
                against_value=x["server_cores_busy"],
                better="lower",
            )
        )
    return rows


def report(r: dict[str, Any]) -> None:
    m = r["machine"]
    print(
        f"the real games on macau-tables, beside a bet server written the obvious way "
        f"({m['cpus']} CPUs, load average {m['load_average_at_start']:.1f} at the start)"
    )
    d = r["disk"]
    print(f"  the disk: {d['commits_per_s']:,.0f} durable SQLite commits/s, one at a time")
    o = r["options"]
    print(
        f"  at saturation: {o['clients']} light clients (one process), {o['tables']} tables "
        f"of each game, {o['window']:g} s a window, {o['pairs']} pair(s) alternated"
    )
    head = (
        f"    {'':<26}{'bets/s':>8}{'p50 ms':>8}{'p99 ms':>8}{'srv p99':>9}"
        f"{'CPU ms/bet':>11}{'cores':>7}{'refused':>8}{'load':>6}"
    )
    for i, p in enumerate(r["pairs"], 1):
        print(f"  pair {i}:" + head[11:])
        rows = [(f"macau-tables {g}", p["macau"][g]) for g in GAMES]
        rows.append(("obvious server", p["obvious"]["saturation"]))
        if "route_only" in p:
            rows.append(("baccarat, route alone", p["route_only"]["baccarat"]))
        rows.append((f"macau baccarat @{p['rate']:.0f}/s", p["macau_load"]))
        rows.append((f"obvious @{p['rate']:.0f}/s", p["obvious_load"]))
        for name, x in rows:
            print(
                f"    {name:<26}{x['bets_per_s']:>8.0f}{_f(x['p50_ms']):>8}{_f(x['p99_ms']):>8}"
                f"{_f(x.get('server_p99_ms')):>9}{_f(x['server_cpu_ms_per_bet'], 3):>11}"
                f"{x['server_cores_busy']:>7.2f}{x['refused']:>8}{x['load_average']:>6.1f}"
            )
    print("  ratios, macau-tables / obvious (each pair; median):")
    for k, v in r["ratios"].items():
        print(f"    {k:<34}{', '.join(f'{x:.2f}' for x in v['pairs']):<24}{_f(v['median'], 2)}")
    print(f"  a floor of the four games, {o['bots']} bots in one process:")
    for name, x in r["floor"].items():
        print(
            f"    {name:<9} {x['commands_per_s']:>7.0f} commands/s, "
            f"{x['bets_per_s']:>6.0f} bets/s, "
            f"{x['views_pushed_per_s']:>6.0f} views pushed/s ({x['views_read_per_s']:.0f} read, "
            f"{x['views_polled']} polled); server {x['server_cpu_ms_per_command']} ms CPU a "
            f"command, {x['server_cores_busy']:.2f} cores; bots {x['bots_cores_busy']:.2f} cores "
            f"({x['bots_cpu_ms_per_command']} ms a command); a bet p50 {_f(x['bet_p50_ms_bots'])} "
            f"/ p99 {_f(x['bet_p99_ms_bots'])} ms (bots)"
        )
        timed = ", ".join(
            f"{op} p50<={_f(t['server_p50_ms'])} p99<={_f(t['server_p99_ms'])}"
            for op, t in x["server_timing_ms"].items()
            if t["server_p50_ms"] is not None
        )
        print(f"              as the server timed them (ms): {timed}")
        print(
            "              by game: "
            + ", ".join(
                f"{g} {f['commands']} commands, {f['bets']} bets" for g, f in x["by_game"].items()
            )
            + f"; money: {x['money']}; 5xx: {x['server_errors']}"
        )


def _f(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


if __name__ == "__main__":
    main()
