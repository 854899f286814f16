"""Table server throughput: bot clients over loopback, durable bets/s and bet latency.

A real server process (uvicorn, SQLite by default: WAL, synchronous=FULL, group commit)
runs TABLES Hi-Lo tables (the server's test double: one bet is one hold, one command, one
durable transaction); BOTS bot clients in CLIENTS processes (asyncio on uvloop, a minimal
keep-alive HTTP client) sit at them; each bets every THINK seconds on average (0.4 s by
default: 400 bots offer 1,000 bets/s) — Poisson arrivals from a random start
(``--arrivals poisson``, the default) or THINK after each answer (``--arrivals fixed``:
bots waiting for the same event then act in step) — and reveals when betting is closed.
The tables open one after another over one betting window (``--opening spread``, the
default, as on a floor; ``--opening together``: every table's betting closes, deals and
settles at the same moment, round after round);
``--think 0``: as fast as the server answers, a closed loop in which latency is bots /
throughput by Little's law. Measured over WINDOW seconds after a warm-up: bets
acknowledged per second, the p50 / p99 latency of a bet (request sent → reply read; and as
the server process timed the same bets, ``GET /server/latency``: request parsed → reply
handed to the socket), the CPU per bet of the server, of PostgreSQL and of the bots, and
the machine: its steal (``/proc/stat``: CPU time the hypervisor gave to other guests) over
the window and while the slowest 1 % of bets were in flight, and in how many 100-ms
intervals those bets were sent (a p99 made by a few stalls shows as a handful).
(A bet sent while its table's betting is closed is refused: with ``--think 0.4`` about
13 % are, so ``--think 0.35`` is what offers 1,000 bets/s into open betting windows.)

    python benchmarks/bench_server.py                       # 50 tables, 400 bots, SQLite
    python benchmarks/bench_server.py --think 0             # saturation
    python benchmarks/bench_server.py --tables 10 --bots 80 --window 10
    python benchmarks/bench_server.py --database-url postgresql+psycopg://…  (an empty database)
    python benchmarks/bench_server.py --database postgresql --processes 2 [--repeat 3]

The real games, beside a server written the obvious way: bench_real_games.py.

``--database postgresql --processes 2`` starts a throwaway PostgreSQL 15 cluster
(tests/server/pg.py) and measures, each on a new database, one server process, then two
(``serve --workers 2``: one port, each process owns half the tables, the other half's
requests forwarded), then two with each bot sent to its table's owner (a table-aware
balancer); printed side by side, beside the limit of twice one.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing as mp
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from macau_tables.server.latency import difference, quantile  # noqa: E402


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Conn(asyncio.Protocol):
    """A minimal HTTP/1.1 keep-alive client (one connection per bot), an asyncio protocol
    that parses each answer in one pass over the bytes received: the bots must cost the
    machine far less than the server, so that the server is what is measured (the earlier
    client on asyncio streams, a coroutine per header line, took ~0.3 ms of CPU per bet)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.transport: Any = None  # uvloop's transports are not asyncio.Transport
        self.buf = bytearray()
        self.waiting: asyncio.Future[tuple[int, bytes]] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_exception(exc or ConnectionError("connection closed"))
        self.transport = None

    def data_received(self, data: bytes) -> None:
        self.buf += data
        end = self.buf.find(b"\r\n\r\n")
        if end < 0 or self.waiting is None:
            return
        head = bytes(self.buf[:end]).lower()
        at = head.find(b"content-length:")
        if (at < 0 and b"transfer-encoding" in head) or not head.startswith(b"http/1.1 "):
            # not read here (chunks) or not an answer's start: stop rather than misread
            self.waiting.set_exception(ConnectionError(f"cannot read the answer {head[:200]!r}"))
            self.transport.close()
            return
        stop = head.find(b"\r\n", at)
        length = int(head[at + 15 : stop if stop >= 0 else None]) if at >= 0 else 0
        if len(self.buf) < end + 4 + length:
            return
        status = int(head[9:12])
        body = bytes(self.buf[end + 4 : end + 4 + length])
        del self.buf[: end + 4 + length]
        self.waiting.set_result((status, body))

    async def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        status, payload = await self.raw(method, path, body, headers)
        return status, json.loads(payload) if payload else None

    async def raw(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        """One exchange; the answer's body as bytes (not parsed: the bots read statuses).

        A kept-alive connection the server closed meanwhile (uvicorn closes one idle for
        5 s) fails at once: the request goes again, once, on a new connection, as HTTP
        clients do (the same bytes: its ``Idempotency-Key`` makes it safe)."""
        loop = asyncio.get_running_loop()
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}", f"Content-Length: {len(data)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        message = ("\r\n".join(head) + "\r\n\r\n").encode() + data
        for again in (False, True):
            fresh = self.transport is None
            if fresh:
                self.buf.clear()
                await loop.create_connection(lambda: self, self.host, self.port)
            assert self.transport is not None
            self.waiting = loop.create_future()
            self.transport.write(message)
            try:
                return await self.waiting
            except (ConnectionError, OSError):
                if fresh or again:
                    raise
                self.transport = None  # closed by the server while idle: once more
            finally:
                self.waiting = None
        raise AssertionError("unreachable")


async def _bots(
    url: str,
    names: list[str],
    tables: list[str],
    start: float,
    stop: float,
    out: Any,
    think: float = 0.0,
    routes: dict[str, str] | None = None,
    arrivals: str = "poisson",
    spread: float = 0.0,
) -> None:
    lat: list[float] = []
    sent: list[float] = []  # each of those bets' send time (wall clock)
    counts = {"bets": 0, "refused": 0, "other": 0, "requests": 0}

    async def one(i: int, name: str) -> None:
        table = tables[i % len(tables)]
        host, port = (routes or {}).get(table, url).split("//")[1].split(":")
        c = _Conn(host, int(port))
        _, tok = await c.request(
            "POST", "/auth/login", {"name": name, "password": "bench-password"}
        )
        h = {"Authorization": f"Bearer {tok['token']}"}
        n = 0

        async def cmd(op: str, args: dict[str, Any]) -> int:
            nonlocal n
            n += 1
            if start <= time.time() <= stop:
                counts["requests"] += 1
            status, _ = await c.raw(
                "POST",
                f"/tables/{table}/commands",
                {"op": op, "args": args},
                {**h, "Idempotency-Key": f"{name}-{n}"},
            )
            return status

        # the tables open one after another over SPREAD seconds (their players sit down
        # then), as on a floor: not every table's betting window closes at the same moment
        await asyncio.sleep(spread * (i % len(tables)) / len(tables))
        await cmd("sit", {"amount": 5_000_000})
        # Poisson arrivals (the default): each bot's bets come at exponential gaps of mean
        # THINK from its own seeded generator, starting at a random moment — 400 players
        # do not act in step; ``fixed``: exactly THINK after each answer (bots that wait
        # for the same event then act in step, in bursts)
        rng = random.Random(name)
        poisson = arrivals == "poisson" and think > 0

        def gap() -> float:
            return rng.expovariate(1.0 / think) if poisson else think

        if poisson:
            await asyncio.sleep(rng.uniform(0.0, think))
        while time.time() < stop:
            t0 = time.perf_counter()
            status = await cmd("bet", {"amount": 100})
            dt = time.perf_counter() - t0
            now = time.time()
            if status == 200:
                if start <= now <= stop:
                    counts["bets"] += 1
                    lat.append(dt)
                    sent.append(now - dt)
                if think:  # open the loop: a bot bets every `think` seconds (on average)
                    await asyncio.sleep(max(0.0, gap() - dt))
                continue
            counts["refused"] += 1
            # betting is closed: the cards are dealt, or about to be — reveal (the rules
            # refuse it until the bot's card is there), else wait a little (poisson: until
            # the bot's next bet is due)
            if await cmd("reveal", {}) != 200:
                await asyncio.sleep(gap() if poisson else 0.05)

    results = await asyncio.gather(
        *(one(i, n) for i, n in enumerate(names)), return_exceptions=True
    )
    failed = [r for r in results if isinstance(r, BaseException)]
    counts["other"] = len(failed)  # bots that stopped on an error: printed by the report
    out.put({"lat": lat, "sent": sent, **counts, "error": repr(failed[0]) if failed else None})


def _client(
    url: str,
    names: list[str],
    tables: list[str],
    start: float,
    stop: float,
    out: Any,
    think: float,
    routes: dict[str, str] | None = None,
    arrivals: str = "poisson",
    spread: float = 0.0,
) -> None:
    # uvloop, as the server runs: the bots share the machine with the server, and the less
    # CPU they take per bet the more the server gets
    import uvloop

    uvloop.run(_bots(url, names, tables, start, stop, out, think, routes, arrivals, spread))


async def _setup(url: str, creds: dict[str, str], names: list[str]) -> None:
    import httpx

    async with httpx.AsyncClient(base_url=url, timeout=60) as http:

        async def tok(who: str) -> dict[str, str]:
            r = await http.post("/auth/login", json={"name": who, "password": creds[who]})
            return {"Authorization": f"Bearer {r.json()['token']}"}

        sup, cash = await tok("supervisor"), await tok("cashier")
        sem = asyncio.Semaphore(16)

        async def make(name: str) -> None:
            async with sem:
                await http.post(
                    "/users",
                    headers=sup,
                    json={"name": name, "role": "player", "password": "bench-password"},
                )
                await http.post(
                    "/cashier/deposit",
                    json={"player": name, "amount": 10**8},
                    headers={**cash, "Idempotency-Key": f"fund-{name}"},
                )

        await asyncio.gather(*(make(n) for n in names))


def _thread_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid``'s main thread (the server's event loop: every
    command runs there; the commit's and checkpoints' threads apart)."""
    try:
        fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _own_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` (all its threads, not its children)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _cpu_seconds(roots: list[int]) -> float:
    """User + system CPU seconds of ``roots`` and all their descendants (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, tuple[int, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    wanted, total = set(roots), 0.0
    changed = True
    while changed:
        changed = False
        for pid, (ppid, _) in stats.items():
            if ppid in wanted and pid not in wanted:
                wanted.add(pid)
                changed = True
    for pid in wanted:
        total += stats.get(pid, (0, 0.0))[1]
    return total


class _MachineSampler(threading.Thread):
    """The machine's CPU time (``/proc/stat``) every ``SAMPLE`` seconds during the window.

    On a virtual machine, *steal* is the time the hypervisor ran another guest while this
    one's vCPUs had work: the server then has less than its cores, whatever it does. The
    benchmark prints it over the window and over the moments the slowest bets were in
    flight (:func:`_tail`), so that a run's p99 can be read against the machine it got."""

    SAMPLE = 0.1

    def __init__(self, until: float) -> None:
        super().__init__(daemon=True)
        self.until = until
        self.samples: list[tuple[float, int, int]] = []  # (time, steal, total) in ticks

    @staticmethod
    def read() -> tuple[int, int] | None:
        try:
            with open("/proc/stat") as f:
                ticks = [int(x) for x in f.readline().split()[1:]]
        except (OSError, ValueError):
            return None
        steal = ticks[7] if len(ticks) > 7 else 0
        return steal, sum(ticks[:8])

    def run(self) -> None:
        while time.time() < self.until:
            got = self.read()
            if got is None:
                return
            self.samples.append((time.time(), *got))
            time.sleep(self.SAMPLE)


def _tail(
    sent: list[float], lat: list[float], p99: float, samples: list[tuple[float, int, int]]
) -> dict[str, Any]:
    """Where the slowest 1 % of bets (latency >= the p99) fell: in how many of the window's
    100-ms intervals they were sent, and the steal while they were in flight (the sampling
    intervals that overlap one of them) against the steal over the window."""
    slow = sorted((t, d) for t, d in zip(sent, lat, strict=True) if d >= p99)
    out: dict[str, Any] = {"intervals": None, "of": None, "steal": None, "steal_in_tail": None}
    if not sent or not slow:
        return out
    t0 = min(sent)
    out["intervals"] = len({int((t - t0) * 10) for t, _ in slow})
    out["of"] = int((max(sent) - t0) * 10) + 1
    if len(samples) < 2:
        return out
    steal = total = steal_in = total_in = 0
    for (a, s0, n0), (b, s1, n1) in itertools.pairwise(samples):
        steal, total = steal + s1 - s0, total + n1 - n0
        if any(t <= b and t + d >= a for t, d in slow):
            steal_in, total_in = steal_in + s1 - s0, total_in + n1 - n0
    out["steal"] = round(steal / total, 3) if total else None
    out["steal_in_tail"] = round(steal_in / total_in, 3) if total_in else None
    return out


def _server_latency(url: str, headers: dict[str, str]) -> dict[str, Any] | None:
    """The server's own command latency histogram (``GET /server/latency``), per op, and
    (SQLite) its group commit's counters under ``"group_commit"``."""
    import httpx

    try:
        r = httpx.get(url + "/server/latency", headers=headers, timeout=30)
    except httpx.TransportError:
        return None
    if r.status_code != 200:  # (an older server)
        return None
    body = r.json()
    out: dict[str, Any] = {op: c["counts"] for op, c in body["commands"].items()}
    out["group_commit"] = body.get("group_commit")
    return out


def measure(
    a: argparse.Namespace, url_db: str, tmp: Path, *, workers: int = 1, routed: bool = False
) -> dict[str, Any]:
    """One server (``workers`` processes on one port), the bots, the figures.

    ``routed``: each bot talks to the process that owns its table (its internal address,
    from ``/health``'s leases), as a table-aware balancer would; otherwise to the shared
    port, and a request reaching the other process is forwarded to the owner.
    """
    import httpx

    port = free_port()
    log_path = tmp / f"server-{port}.log"
    log = log_path.open("wb")
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.server.serve_hilo",
            url_db,
            str(port),
            str(a.tables),
            str(a.betting_seconds),
            str(workers),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        tables = [f"hilo-{i}" for i in range(1, a.tables + 1)]
        for _ in range(900):
            try:
                health = httpx.get(url + "/health", timeout=1).json()
                leases = {x["table"]: x for x in health.get("leases", [])}
                owners = {x["owner"] for x in leases.values()}
                # every table leased, and shared by every process (as many owners as workers)
                if "leases" not in health or (
                    len(leases) == len(tables) and None not in owners and len(owners) == workers
                ):
                    break
            except (httpx.TransportError, ValueError):
                pass
            time.sleep(0.2)
        routes = {t: x["url"] for t, x in leases.items()} if routed else None
        creds: dict[str, str] = {}
        for line in log_path.read_text().splitlines():
            parts = line.split()
            if line.startswith("    ") and len(parts) == 2:
                creds.setdefault(parts[0], parts[1])
        names = [f"b{i}" for i in range(a.bots)]
        asyncio.run(_setup(url, creds, names))
        spread = a.betting_seconds if a.opening == "spread" else 0.0
        start = time.time() + a.warmup + 2 + spread
        stop = start + a.window
        q: Any = mp.Queue()
        per = [names[i :: a.clients] for i in range(a.clients)]
        procs = [
            mp.Process(
                target=_client,
                args=(url, p, tables, start, stop, q, a.think, routes, a.arrivals, spread),
            )
            for p in per
        ]
        for p in procs:
            p.start()
        pg = [a.postmaster] if a.postmaster else []
        bots = [p.pid for p in procs if p.pid is not None]
        sup = {
            "Authorization": "Bearer "
            + httpx.post(
                url + "/auth/login",
                json={"name": "supervisor", "password": creds["supervisor"]},
                timeout=30,
            ).json()["token"]
        }
        time.sleep(max(0.0, start - time.time()))
        sampler = _MachineSampler(stop + 0.5)
        sampler.start()
        cpu0 = _cpu_seconds([proc.pid]), _cpu_seconds(pg), _cpu_seconds(bots)
        loop0, own0 = _thread_cpu_seconds(proc.pid), _own_cpu_seconds(proc.pid)
        seen0 = _server_latency(url, sup) if workers == 1 else None
        time.sleep(max(0.0, stop - time.time()))
        cpu1 = _cpu_seconds([proc.pid]), _cpu_seconds(pg), _cpu_seconds(bots)
        loop_cpu = _thread_cpu_seconds(proc.pid) - loop0
        own_cpu = _own_cpu_seconds(proc.pid) - own0
        seen1 = _server_latency(url, sup) if workers == 1 else None
        server_cpu, pg_cpu, bots_cpu = (b - a for a, b in zip(cpu0, cpu1, strict=True))
        results = [q.get(timeout=a.warmup + a.window + 120) for _ in procs]
        for p in procs:
            p.join()
        sampler.join()
        lat = sorted(x for r in results for x in r["lat"])
        bets = sum(r["bets"] for r in results)

        def pct(q: float) -> float:
            return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else 0.0

        tail = _tail(
            [t for r in results for t in r["sent"]],
            [x for r in results for x in r["lat"]],
            pct(0.99) / 1000,
            sampler.samples,
        )

        # the same bets as the server process timed them (server/latency.py): request
        # parsed -> reply handed to the socket, each figure a bucket's upper bound
        inside = (
            difference(seen1.get("bet", []), seen0.get("bet"))
            if seen0 is not None and seen1 is not None and "bet" in seen1
            else None
        )
        g0, g1 = ((x or {}).get("group_commit") for x in (seen0, seen1))
        group = {k: g1[k] - g0.get(k, 0) for k in g1} if g0 and g1 else None
        if group is not None and g1 is not None:
            group["wal_pages"] = g1["wal_pages"]  # (a level, not a count)
        return {
            "processes": workers,
            "routed": routed,
            "group_commit": group,
            "server_p50_ms": quantile(inside, 0.5) if inside else None,
            "server_p99_ms": quantile(inside, 0.99) if inside else None,
            "bets": bets,
            "bets_per_s": round(bets / a.window, 1),
            "p50_ms": round(pct(0.5), 1),
            "p99_ms": round(pct(0.99), 1),
            "refused": sum(r["refused"] for r in results),
            # the machine: the hypervisor's steal over the window and while the slowest 1 %
            # of bets were in flight; the 100-ms intervals those bets were sent in (_tail)
            "steal": tail["steal"],
            "steal_in_tail": tail["steal_in_tail"],
            "tail_intervals": tail["intervals"],
            "intervals": tail["of"],
            # bots that stopped on an error (none expected): a run with any is not valid
            "bots_failed": sum(r["other"] for r in results),
            "bot_error": next((r["error"] for r in results if r["error"]), None),
            # CPU seconds the server processes (and PostgreSQL's) used per 1,000 bets: the
            # figure a loaded machine does not change much
            "cpu_s_per_1000_bets": round((server_cpu + pg_cpu) / bets * 1000, 2) if bets else None,
            # the same, apart: the server processes, PostgreSQL's, the bot clients'
            "server_cpu_ms_per_bet": round(server_cpu / bets * 1000, 2) if bets else None,
            # the first process's main thread, its event loop (commands, HTTP, the batches)
            "loop_cpu_ms_per_bet": round(loop_cpu / bets * 1000, 2) if bets else None,
            "loop_busy": round(loop_cpu / a.window, 2),
            # the server's other processes: the background check's worker, the workers' (PostgreSQL)
            "children_cpu_ms_per_bet": round((server_cpu - own_cpu) / bets * 1000, 2)
            if bets
            else None,
            "pg_cpu_ms_per_bet": round(pg_cpu / bets * 1000, 2) if bets else None,
            "bots_cpu_ms_per_bet": round(bots_cpu / bets * 1000, 2) if bets else None,
            "requests": (reqs := sum(r["requests"] for r in results)),
            "cpu_ms_per_request": round((server_cpu + pg_cpu) * 1000 / reqs, 3) if reqs else None,
            "cpu_busy": round((server_cpu + pg_cpu) / a.window, 2),
            "machine_busy": round((server_cpu + pg_cpu + bots_cpu) / a.window, 2),
        }
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--bots", type=int, default=400)
    ap.add_argument("--clients", type=int, default=2, help="bot client processes")
    ap.add_argument("--window", type=float, default=20.0, help="seconds measured")
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--betting-seconds", type=float, default=5.0)
    ap.add_argument("--database-url", default=None)
    ap.add_argument(
        "--database",
        choices=("sqlite", "postgresql"),
        default=None,
        help="postgresql: start a throwaway PostgreSQL 15 cluster (as the tests do), a new "
        "database for each measurement",
    )
    ap.add_argument(
        "--processes",
        type=int,
        default=1,
        help="PostgreSQL: also measure this many server processes (serve --workers N) and "
        "print them beside one process",
    )
    ap.add_argument(
        "--think",
        type=float,
        default=0.4,
        help="seconds between a bot's bets (0: as fast as answered; 0.4 with 400 "
        "bots offers 1,000 bets/s)",
    )
    ap.add_argument(
        "--arrivals",
        choices=("poisson", "fixed"),
        default="poisson",
        help="poisson: each bot's bets at exponential gaps of mean THINK, from a random "
        "start; fixed: THINK after each answer (bots waiting for the same event act in step)",
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="PostgreSQL: measure the configurations in turn this many times and print the "
        "medians beside each run (e.g. --processes 2 --repeat 3)",
    )
    ap.add_argument(
        "--opening",
        choices=("spread", "together"),
        default="spread",
        help="spread: the tables open (their players sit down) one after another over one "
        "betting window, as on a floor; together: all at once, so that every table's "
        "betting closes, deals and settles at the same moment, round after round",
    )
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--keep",
        action="store_true",
        help="keep the working directory (the database, ~100 MB a run, and the server's "
        "log); it is removed at the end otherwise, unless the run fails",
    )
    a = ap.parse_args()
    a.postmaster = 0  # PostgreSQL's postmaster (its CPU is counted) when we start one
    tmp = Path(tempfile.mkdtemp(prefix="bench-server-"))
    try:
        _run(ap, a, tmp)
    except BaseException:
        print(f"(the run's database and server log are kept in {tmp})", file=sys.stderr)
        raise
    if a.keep:
        print(f"(the run's database and server log are kept in {tmp})", file=sys.stderr)
    else:
        shutil.rmtree(tmp, ignore_errors=True)


def _run(ap: argparse.ArgumentParser, a: argparse.Namespace, tmp: Path) -> None:
    if a.database == "postgresql" or a.processes > 1:
        if a.database_url:
            ap.error("--database postgresql starts its own cluster: drop --database-url")
        from tests.server.pg import cluster, new_database

        pid_file = Path(cluster()["data"]) / "postmaster.pid"
        a.postmaster = int(pid_file.read_text().split()[0]) if pid_file.exists() else 0
        runs: list[dict[str, Any]] = []
        # REPEAT rounds of the configurations in turn (1, 2, 2 routed, 1, 2, …): a drift of
        # the machine's speed over the minutes falls on each of them alike
        for i in range(a.repeat):
            for workers, routed in [(1, False)] + (
                [(a.processes, False), (a.processes, True)] if a.processes > 1 else []
            ):
                run = measure(a, new_database(), tmp, workers=workers, routed=routed)
                runs.append({**run, "round": i + 1})
        _report_pg(a, runs)
        return
    out = measure(a, a.database_url or str(tmp / "bench.db"), tmp)
    out.update(
        database="postgresql" if a.database_url else "sqlite (WAL, synchronous=FULL)",
        tables=a.tables,
        bots=a.bots,
        think_s=a.think,
        window_s=a.window,
        cpus=os.cpu_count(),
    )
    _save_single(a, out)
    if a.json:
        print(json.dumps(out))
    else:
        print(
            f"server on {out['database']}" + f": {a.tables} tables, {a.bots} bots over loopback, "
            f"{a.window:.0f} s measured"
            + (
                f", each bot betting every {a.think} s ({a.arrivals}"
                + (" arrivals, on average)" if a.arrivals == "poisson" else " after each answer)")
                if a.think
                else ""
            )
            + f", tables opened {'one after another' if a.opening == 'spread' else 'together'}"
            + "\n"
            f"  {out['bets_per_s']:.0f} durable bets/s ({out['bets']} bets), "
            f"bet latency p50 {out['p50_ms']:.1f} ms, p99 {out['p99_ms']:.1f} ms "
            f"({out['refused']} bets refused: betting closed)\n"
            + (
                f"  in the server process (request parsed -> reply handed to the socket): "
                f"p50 <= {out['server_p50_ms']:.1f} ms, p99 <= {out['server_p99_ms']:.1f} ms\n"
                if out.get("server_p99_ms") is not None
                else ""
            )
            + (
                f"  group commit: {g['batches']} batches of {g['units'] / g['batches']:.1f} "
                f"units on average; {g['checkpoints']} WAL checkpoints beside them, "
                f"{g['wal_restarts']} awaited to start the WAL over"
                + (f" ({g['restart_wait_ms']} ms in all)" if "restart_wait_ms" in g else "")
                + (
                    f"; per bet, the units {g['units_ms'] / out['bets']:.3f} ms and the "
                    f"batches' writes {g['writes_ms'] / out['bets']:.3f} ms of the loop "
                    f"({g['rows'] / out['bets']:.1f} rows), the commit "
                    f"{g['commit_ms'] / g['batches']:.2f} ms a batch (its thread)"
                    if "units_ms" in g and out["bets"]
                    else ""
                )
                + "\n"
                if (g := out.get("group_commit")) and g["batches"]
                else ""
            )
            + (
                f"  ** {out['bots_failed']} bots stopped on an error, e.g. {out['bot_error']}: "
                "this run is not valid **\n"
                if out["bots_failed"]
                else ""
            )
            + (
                f"  the slowest 1 % of bets were sent in {out['tail_intervals']} of the "
                f"{out['intervals']} 100-ms intervals"
                + (
                    f"; the machine's steal (CPU the hypervisor gave to other guests) "
                    f"{out['steal']:.1%} over the window, {out['steal_in_tail']:.1%} while "
                    "they were in flight"
                    if out["steal"] is not None and out["steal_in_tail"] is not None
                    else ""
                )
                + "\n"
                if out.get("tail_intervals") is not None
                else ""
            )
            + f"  server CPU {out['cpu_s_per_1000_bets']} ms per bet, "
            f"{out['cpu_ms_per_request']} ms per request ({out['requests']} requests; "
            f"{out['cpu_busy']:.0%} of one core busy); its event loop's thread "
            f"{out['loop_cpu_ms_per_bet']} ms per bet ({out['loop_busy']:.0%} busy)" + "\n"
            f"  bot clients' CPU {out['bots_cpu_ms_per_bet']} ms per bet; server + bots "
            f"{out['machine_busy']:.2f} of the {os.cpu_count()} cores"
        )


def _save_single(a: argparse.Namespace, out: dict[str, Any]) -> None:
    """The page's rows (benchmarks/results.py): bets/s beside the load offered, the p99,
    the server's CPU a bet."""
    import results  # benchmarks/results.py: the figures for docs/benchmarks.md

    offered = a.bots / a.think if a.think else None
    rows = [
        results.row(
            f"durable bets/s, {a.tables} Hi-Lo tables, {a.bots} bots",
            out["bets_per_s"],
            "bets/s",
            against="the load offered" if offered else "saturation (bots bet when answered)",
            against_value=offered,
            kind="limit",
        ),
        results.row(
            "bet latency p99, as the bots saw it",
            out["p99_ms"],
            "ms",
            better="lower",
            note=f"p50 {out['p50_ms']:.1f} ms; steal {_pc(out.get('steal'))}",
        ),
        results.row(
            "server CPU a bet (every process of the server)",
            out["cpu_s_per_1000_bets"],
            "ms",
            better="lower",
            note=f"its event loop {out['loop_cpu_ms_per_bet']} ms a bet",
        ),
    ]
    results.save("bench_server", f"Table server on {out['database']}", rows, report=out)


def _config(r: dict[str, Any]) -> str:
    if r["processes"] == 1:
        return "1 process"
    if r["routed"]:
        return f"{r['processes']} processes, each bot at its table's owner"
    return f"{r['processes']} processes, one port (half forwarded)"


def _pc(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def _report_pg(a: argparse.Namespace, runs: list[dict[str, Any]]) -> None:
    import statistics

    medians = {
        name: statistics.median(r["bets_per_s"] for r in runs if _config(r) == name)
        for name in dict.fromkeys(_config(r) for r in runs)
    }
    one = medians["1 process"] or 1.0
    import results  # benchmarks/results.py: the figures for docs/benchmarks.md

    rows = [
        results.row(
            f"PostgreSQL, {name}: durable bets/s",
            m,
            "bets/s",
            against=f"1 process (the limit: {a.processes}×)",
            against_value=one * a.processes,
            kind="limit",
        )
        for name, m in medians.items()
        if name != "1 process"
    ]
    rows.insert(0, results.row("PostgreSQL, 1 process: durable bets/s", one, "bets/s"))
    report = {"tables": a.tables, "bots": a.bots, "runs": runs}
    results.save("bench_server_pg", "Table server: several processes", rows, report=report)
    if a.json:
        print(
            json.dumps({"tables": a.tables, "bots": a.bots, "cpus": os.cpu_count(), "runs": runs})
        )
        return
    print(
        f"server on PostgreSQL 15 (throwaway cluster, fsync on): {a.tables} Hi-Lo tables, "
        f"{a.bots} bots in {a.clients} client processes over loopback, "
        f"{a.window:.0f} s measured each, {os.cpu_count()} CPUs"
    )
    print(
        f"  {'':<58}{'bets/s':>9}{'vs 1':>7}{'p50 ms':>9}{'p99 ms':>9}"
        f"{'CPU ms/bet: server':>20}{'PostgreSQL':>11}{'bots':>6}{'cores busy':>11}"
        f"{'steal':>7}"
    )
    base = 1.0
    for r in runs:
        name = _config(r) + (f", round {r['round']}" if a.repeat > 1 else "")
        if r["processes"] == 1:
            base = r["bets_per_s"] or 1.0  # each round against its own 1-process run
        print(
            f"  {name:<58}{r['bets_per_s']:>9.0f}{r['bets_per_s'] / base:>6.2f}x"
            f"{r['p50_ms']:>9.1f}{r['p99_ms']:>9.1f}{r['server_cpu_ms_per_bet'] or 0:>20.2f}"
            f"{r['pg_cpu_ms_per_bet'] or 0:>11.2f}{r['bots_cpu_ms_per_bet'] or 0:>6.2f}"
            f"{r['machine_busy']:>11.2f}{_pc(r['steal']):>7}"
        )
        if r["bots_failed"]:
            print(
                f"    ** {r['bots_failed']} bots stopped on an error, e.g. {r['bot_error']}: "
                "this run is not valid **"
            )
    if a.repeat > 1:
        for name, m in medians.items():
            print(f"  {'median of ' + str(a.repeat) + ': ' + name:<58}{m:>9.0f}{m / one:>6.2f}x")
    print(
        "  (CPU: user + system of the server processes, of PostgreSQL's and of the bot "
        "clients; cores busy: all three together; steal: the CPU time the hypervisor gave to "
        "other guests during the run; the machine's other load during the runs is not ours: "
        f"load average {os.getloadavg()[0]:.1f})"
    )


if __name__ == "__main__":
    main()
