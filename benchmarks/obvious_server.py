"""A bet server written the obvious way: the yardstick of ``bench_real_games.py``.

Starlette on uvicorn (uvloop, httptools), one process; SQLite in WAL mode with
``synchronous=FULL``, every write by one thread in group commits (the bets waiting when a
transaction begins all go into it: one fsync for them). Per bet, in that transaction:

1. the idempotency check (a key already answered: its answer again; the same key with
   another request: refused);
2. the player's balance debited, with the overdraft check in the same statement;
3. the bet's row;
4. two balanced postings (the player's wallet down, the table's wagers up);
5. a hash-chained journal row for its table (``sha256(previous hash + the entry)``);
6. the idempotency row, with the answer.

Nothing else — no game, no rules, no views, no WebSocket: what a durable bet costs at the
least, written plainly. Its players are ``p0`` … (each with a large balance), their
tokens ``token-p0`` …

    python benchmarks/obvious_server.py --db /tmp/obvious.db --port 8123 --players 64

``POST /bet`` (``Authorization: Bearer token-pN``, ``Idempotency-Key``; ``{"table": "t1",
"amount": 100}``) answers ``{"bet_id", "seq", "hash", "balance"}``; ``GET /stats`` the
handling time of each bet answered so far (request routed -> answer ready, µs).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import queue
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (name TEXT PRIMARY KEY, balance INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS bets (
    id INTEGER PRIMARY KEY, table_id TEXT NOT NULL, player TEXT NOT NULL,
    amount INTEGER NOT NULL, at_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS postings (
    id INTEGER PRIMARY KEY, bet_id INTEGER NOT NULL, account TEXT NOT NULL,
    amount INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS journal (
    table_id TEXT NOT NULL, seq INTEGER NOT NULL, prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (table_id, seq));
CREATE TABLE IF NOT EXISTS idempotency (
    key TEXT PRIMARY KEY, request_hash TEXT NOT NULL, status INTEGER NOT NULL,
    body BLOB NOT NULL);
"""


class Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Bet:
    key: str
    request_hash: str
    player: str
    table: str
    amount: int
    answer: asyncio.Future[tuple[int, bytes]]


class Writer(threading.Thread):
    """The one writer: group commits of the bets queued."""

    def __init__(self, path: str, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(daemon=True, name="writer")
        self.path, self.loop = path, loop
        self.queue: queue.SimpleQueue[Bet] = queue.SimpleQueue()
        self.heads: dict[str, tuple[int, str]] = {}  # table -> (last seq, its hash)

    def run(self) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        for table, seq, head in conn.execute(
            "SELECT table_id, seq, hash FROM journal j WHERE seq = "
            "(SELECT MAX(seq) FROM journal WHERE table_id = j.table_id)"
        ):
            self.heads[table] = (seq, head)
        while True:
            batch = [self.queue.get()]
            while True:
                try:
                    batch.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            heads = dict(self.heads)
            answers: list[tuple[int, bytes]] = []
            try:
                conn.execute("BEGIN IMMEDIATE")
                for bet in batch:
                    try:
                        answers.append((200, self.bet(conn, bet)))
                    except Refused as r:
                        answers.append((r.status, json.dumps({"error": str(r)}).encode()))
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                conn.execute("ROLLBACK")
                self.heads = heads
                answers = [(500, json.dumps({"error": str(exc)}).encode())] * len(batch)
            self.loop.call_soon_threadsafe(_answer, batch, answers)

    def bet(self, conn: sqlite3.Connection, bet: Bet) -> bytes:
        done = conn.execute(
            "SELECT request_hash, status, body FROM idempotency WHERE key = ?", (bet.key,)
        ).fetchone()
        if done is not None:
            if done[0] != bet.request_hash:
                raise Refused(422, "this Idempotency-Key was used for another request")
            return bytes(done[2])
        row = conn.execute(
            "UPDATE accounts SET balance = balance - ? WHERE name = ? AND balance >= ? "
            "RETURNING balance",
            (bet.amount, bet.player, bet.amount),
        ).fetchone()
        if row is None:
            raise Refused(409, "insufficient funds")
        now = int(time.time() * 1000)
        bet_id = conn.execute(
            "INSERT INTO bets (table_id, player, amount, at_ms) VALUES (?, ?, ?, ?)",
            (bet.table, bet.player, bet.amount, now),
        ).lastrowid
        conn.executemany(  # the two postings: they sum to zero
            "INSERT INTO postings (bet_id, account, amount) VALUES (?, ?, ?)",
            (
                (bet_id, f"wallet:{bet.player}", -bet.amount),
                (bet_id, f"wagers:{bet.table}", bet.amount),
            ),
        )
        seq, prev = self.heads.get(bet.table, (-1, "0" * 64))
        entry = json.dumps(
            {"bet": bet_id, "player": bet.player, "amount": bet.amount, "at": now},
            separators=(",", ":"),
            sort_keys=True,
        )
        digest = hashlib.sha256((prev + entry).encode()).hexdigest()
        conn.execute(
            "INSERT INTO journal (table_id, seq, prev_hash, hash, entry) VALUES (?, ?, ?, ?, ?)",
            (bet.table, seq + 1, prev, digest, entry),
        )
        self.heads[bet.table] = (seq + 1, digest)
        body = json.dumps(
            {"bet_id": bet_id, "seq": seq + 1, "hash": digest, "balance": row[0]},
            separators=(",", ":"),
        ).encode()
        conn.execute(
            "INSERT INTO idempotency (key, request_hash, status, body) VALUES (?, ?, 200, ?)",
            (bet.key, bet.request_hash, body),
        )
        return body


def _answer(batch: list[Bet], answers: list[tuple[int, bytes]]) -> None:
    for bet, answer in zip(batch, answers, strict=True):
        if not bet.answer.done():
            bet.answer.set_result(answer)


def create_app(path: str, players: int) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.executescript(SCHEMA)
    conn.executemany(
        "INSERT OR IGNORE INTO accounts (name, balance) VALUES (?, ?)",
        ((f"p{i}", 10**15) for i in range(players)),
    )
    conn.close()
    tokens = {f"token-p{i}": f"p{i}" for i in range(players)}
    handled: list[float] = []  # µs per bet answered
    writer: list[Writer] = []

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        w = Writer(path, asyncio.get_running_loop())
        w.start()
        writer.append(w)
        yield

    async def bet(request: Request) -> Response:
        t0 = time.perf_counter()
        auth = request.headers.get("authorization", "")
        player = tokens.get(auth[7:]) if auth.startswith("Bearer ") else None
        if player is None:
            return JSONResponse({"error": "unauthorized"}, status_code=401)
        key = request.headers.get("idempotency-key")
        if not key:
            return JSONResponse({"error": "an Idempotency-Key is required"}, status_code=422)
        raw = await request.body()
        try:
            body = json.loads(raw)
            table, amount = body["table"], body["amount"]
        except (ValueError, KeyError, TypeError):
            return JSONResponse({"error": "a JSON body {table, amount}"}, status_code=422)
        if not isinstance(table, str) or not isinstance(amount, int) or amount <= 0:
            return JSONResponse({"error": "a table and a positive amount"}, status_code=422)
        answer: asyncio.Future[tuple[int, bytes]] = asyncio.get_running_loop().create_future()
        request_hash = hashlib.sha256(raw).hexdigest()
        writer[0].queue.put(Bet(key, request_hash, player, table, amount, answer))
        status, content = await answer
        handled.append((time.perf_counter() - t0) * 1e6)
        return Response(content, status_code=status, media_type="application/json")

    async def stats(request: Request) -> Response:
        return JSONResponse({"handled_us": handled})

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True})

    return Starlette(
        routes=[
            Route("/bet", bet, methods=["POST"]),
            Route("/stats", stats),
            Route("/health", health),
        ],
        lifespan=lifespan,
    )


def main() -> None:
    import uvicorn

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--players", type=int, default=64)
    a = ap.parse_args()
    uvicorn.run(
        create_app(a.db, a.players),
        host="127.0.0.1",
        port=a.port,
        loop="uvloop",
        http="httptools",
        access_log=False,
        log_level="warning",
    )


if __name__ == "__main__":
    main()
