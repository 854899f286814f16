"""Table server throughput: bot clients over loopback, durable bets/s and bet latency.

A real server process (uvicorn, SQLite by default: WAL, synchronous=FULL, group commit)
runs TABLES Hi-Lo tables (the server's test double: one bet is one hold, one command, one
durable transaction); BOTS bot clients in CLIENTS processes (asyncio, a minimal keep-alive
HTTP client) sit at them; each bets at most every THINK seconds (0.4 s by default: 400
bots offer 1,000 bets/s; ``--think 0``: as fast as the server answers, a closed loop in
which latency is bots / throughput by Little's law) and reveals when betting is closed.
Measured over WINDOW seconds after a warm-up: bets acknowledged per second, the p50 / p99
latency of a bet (request sent → reply read) and the server's CPU per bet and request.

    python benchmarks/bench_server.py                       # 50 tables, 400 bots, SQLite
    python benchmarks/bench_server.py --think 0             # saturation
    python benchmarks/bench_server.py --tables 10 --bots 80 --window 10
    python benchmarks/bench_server.py --database-url postgresql+psycopg://…  (an empty database)

Target (issue 15) on SQLite on a 2-core machine: >= 1,000 durable bets/s, p99 <= 50 ms
with 50 tables and 400 bots.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc): the server's cost per bet
    is measured by this, which a busy machine disturbs far less than throughput."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Conn:
    """A minimal HTTP/1.1 keep-alive client (one connection per bot): the bots must cost
    the client machine far less than the server, so that the server is what is measured."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}", f"Content-Length: {len(data)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        status = int((await self.reader.readline()).split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        payload = await self.reader.readexactly(length)
        return status, json.loads(payload) if payload else None


async def _bots(
    url: str,
    names: list[str],
    tables: list[str],
    start: float,
    stop: float,
    out: Any,
    think: float = 0.0,
) -> None:
    host, port = url.split("//")[1].split(":")
    lat: list[float] = []
    counts = {"bets": 0, "refused": 0, "other": 0, "requests": 0}

    async def one(i: int, name: str) -> None:
        table = tables[i % len(tables)]
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
            status, _ = await c.request(
                "POST",
                f"/tables/{table}/commands",
                {"op": op, "args": args},
                {**h, "Idempotency-Key": f"{name}-{n}"},
            )
            return status

        await cmd("join", {"amount": 5_000_000})
        while time.time() < stop:
            t0 = time.perf_counter()
            status = await cmd("bet", {"amount": 100})
            dt = time.perf_counter() - t0
            now = time.time()
            if status == 200:
                if start <= now <= stop:
                    counts["bets"] += 1
                    lat.append(dt)
                if think:  # open the loop: a bot bets every `think` seconds at most
                    await asyncio.sleep(max(0.0, think - dt))
                continue
            counts["refused"] += 1
            # betting is closed: the cards are dealt, or about to be — reveal (the rules
            # refuse it until the bot's card is there), else wait a little
            if await cmd("reveal", {}) != 200:
                await asyncio.sleep(0.05)

    results = await asyncio.gather(
        *(one(i, n) for i, n in enumerate(names)), return_exceptions=True
    )
    counts["other"] = sum(isinstance(r, BaseException) for r in results)
    out.put({"lat": lat, **counts})


def _client(
    url: str,
    names: list[str],
    tables: list[str],
    start: float,
    stop: float,
    out: Any,
    think: float,
) -> None:
    asyncio.run(_bots(url, names, tables, start, stop, out, think))


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
        "--think",
        type=float,
        default=0.4,
        help="seconds between a bot's bets (0: as fast as answered; 0.4 with 400 "
        "bots offers 1,000 bets/s)",
    )
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-server-"))
    url_db = a.database_url or str(tmp / "bench.db")
    port = free_port()
    log = (tmp / "server.log").open("wb")
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
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        import httpx

        for _ in range(600):
            try:
                if httpx.get(url + "/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.2)
        creds = {}
        for line in (tmp / "server.log").read_text().splitlines():
            parts = line.split()
            if line.startswith("    ") and len(parts) == 2:
                creds.setdefault(parts[0], parts[1])
        names = [f"b{i}" for i in range(a.bots)]
        asyncio.run(_setup(url, creds, names))
        tables = [f"hilo-{i}" for i in range(1, a.tables + 1)]
        start = time.time() + a.warmup + 2
        stop = start + a.window
        q: Any = mp.Queue()
        per = [names[i :: a.clients] for i in range(a.clients)]
        procs = [
            mp.Process(target=_client, args=(url, p, tables, start, stop, q, a.think)) for p in per
        ]
        for p in procs:
            p.start()
        time.sleep(max(0.0, start - time.time()))
        cpu0 = cpu_seconds(proc.pid)
        time.sleep(max(0.0, stop - time.time()))
        cpu1 = cpu_seconds(proc.pid)
        results = [q.get(timeout=a.warmup + a.window + 120) for _ in procs]
        for p in procs:
            p.join()
        lat = sorted(x for r in results for x in r["lat"])
        bets = sum(r["bets"] for r in results)

        def pct(q: float) -> float:
            return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else 0.0

        out = {
            "database": "postgresql" if a.database_url else "sqlite (WAL, synchronous=FULL)",
            "tables": a.tables,
            "bots": a.bots,
            "think_s": a.think,
            "window_s": a.window,
            "bets": bets,
            "bets_per_s": round(bets / a.window, 1),
            "p50_ms": round(pct(0.5), 1),
            "p99_ms": round(pct(0.99), 1),
            "refused": sum(r["refused"] for r in results),
            "server_cpu_ms_per_bet": round((cpu1 - cpu0) * 1000 / bets, 3) if bets else None,
            "requests": (reqs := sum(r["requests"] for r in results)),
            "server_cpu_ms_per_request": round((cpu1 - cpu0) * 1000 / reqs, 3) if reqs else None,
            "server_cpu_busy": round((cpu1 - cpu0) / a.window, 2),
            "cpus": os.cpu_count(),
        }
        if a.json:
            print(json.dumps(out))
        else:
            print(
                f"server on {out['database']}: {a.tables} tables, {a.bots} bots over loopback, "
                f"{a.window:.0f} s measured"
                + (f", each bot betting at most every {a.think} s" if a.think else "")
                + "\n"
                f"  {out['bets_per_s']:.0f} durable bets/s ({bets} bets), "
                f"bet latency p50 {out['p50_ms']:.1f} ms, p99 {out['p99_ms']:.1f} ms "
                f"({out['refused']} bets refused: betting closed)\n"
                f"  server CPU {out['server_cpu_ms_per_bet']} ms per bet, "
                f"{out['server_cpu_ms_per_request']} ms per request ({reqs} requests) "
                f"({out['server_cpu_busy']:.0%} of one core busy)"
            )
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


if __name__ == "__main__":
    main()
