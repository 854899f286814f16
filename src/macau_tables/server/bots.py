"""Bot players (``macau-tables bots``, the crash harness, the benchmarks), each playing as
a player does.

A bot is a player account: it logs in, picks a table and **follows it over the table's
WebSocket** (``/tables/{id}/ws``: the server pushes the bot's own view and what is pending
after each change; nothing is polled). It asks its game's strategy for a move only when
the table waits for it — ``pending`` names it — or when it is not yet at the table with
chips (sitting down, buying in), and sends the move as a command with a fresh
``Idempotency-Key``; a request that fails in transit (the server died) is sent again with
the **same** key until it is answered, so a bot never places a bet twice. After a command
it decides again on a state at least as recent as the command's reply (never on the view
from before its own bet), and after a refusal only once the table has changed (one
refusal per change of the table, not one per wake-up).

**Money.** A bot whose chips at the table run out buys more (its game's buy-in operation)
from its wallet; a wallet that cannot pay is topped up through the cashier (``POST
/cashier/deposit``, at most ``topups`` times a bot); a bot the cashier does not top up
leaves the table for good. At the end each bot leaves (cash-out) once the rules allow.

**Pace.** ``live``: each move as its strategy makes it (one bet a round, a shooter's pause
before the throw), the table's clock closing betting — a floor as played. ``saturate``: a
bet accepted is placed again at once while the reply still names the bot for it, so the
bets come as fast as the server answers (the benchmark's saturation).

**Cost.** Many bots in one process: one keep-alive HTTP connection each (:class:`Http`, a
small client that parses each answer in one pass) and one WebSocket; a pushed message is
looked at as text and parsed only when it may concern the bot (the server's events are not
read at all; a state that names neither the bot nor its need to sit down is skipped), and
only the latest state is parsed when the bot gets to it.

Strategies (:func:`register_strategy`) read the bot's own view and what is pending; a
game's binding module registers its strategy. A game with no strategy is played by the
rules' defaults only: the bot joins and the table's clock acts for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from macau_tables.core.rng import Rng

__all__ = [
    "BotReport",
    "Http",
    "Move",
    "play_bots",
    "register_strategy",
    "run_bots",
    "setup_players",
]


@dataclass(frozen=True)
class Move:
    """A bot's next command; ``bet`` marks a wager (counted and timed by the benchmark).
    ``pause``: seconds the bot waits before it, as a player would (a shooter lets the
    others bet before he throws); it then decides again on the latest state."""

    op: str
    args: dict[str, Any]
    bet: bool = False
    pause: float = 0.0


Strategy = Callable[[dict[str, Any], list[dict[str, Any]], str, Rng], "Move | None"]
_STRATEGIES: dict[str, Strategy] = {}

#: each game's operation that buys more chips at the table, and its amount's argument
BUY_CHIPS: dict[str, tuple[str, str]] = {
    "baccarat": ("buy_in", "amount"),
    "craps": ("buy_in", "amount"),
    "paigow": ("buy_in", "amount"),
    "taiwan": ("buy_in", "amount"),
}
_BUY_OPS = frozenset(op for op, _ in BUY_CHIPS.values())
#: what a bot buys (avos) when its strategy's buy-in is not known
DEFAULT_BUY = 100_000
#: a saturating bot buys this many of its strategy's buy-ins when its chips run out
SATURATE_STACKS = 20
PACES = ("live", "saturate")


def register_strategy(game: str, strategy: Strategy) -> None:
    _STRATEGIES[game] = strategy


def _join_only(
    view: dict[str, Any], pending: list[dict[str, Any]], me: str, rng: Rng
) -> Move | None:
    return None


@dataclass
class GameFigures:
    """What the bots did at one game's tables."""

    commands: int = 0
    refused: int = 0
    bets: int = 0
    bet_latencies: list[float] = field(default_factory=list)


@dataclass
class BotReport:
    """What the bots did: answers by status, bets acknowledged and their latencies, what
    the server pushed to them, and how their money went."""

    statuses: Counter[int] = field(default_factory=Counter)
    rules: Counter[str] = field(default_factory=Counter)
    bets: int = 0
    bet_latencies: list[float] = field(default_factory=list)
    acknowledged: list[tuple[str, str]] = field(default_factory=list)  # (table, hold id)
    retries: int = 0
    unavailable: int = 0  # 503 answers, sent again (Bot.request)
    views: int = 0  # views read over HTTP (GET /tables/{id}/view): none while pushed
    pushed: int = 0  # states the server pushed (each a view of the table, after a change)
    parsed: int = 0  # of those, the ones a bot read (the others did not concern it)
    reconnects: int = 0  # WebSockets opened again (dropped, or the server restarted)
    topups: int = 0  # deposits the cashier made to a bot's wallet
    rebuys: int = 0  # chips bought again at a table, the first stack spent
    broke: int = 0  # bots that left for good: out of money, and not topped up
    by_game: dict[str, GameFigures] = field(default_factory=dict)
    transport_errors: Counter[str] = field(default_factory=Counter)
    elapsed: float = 0.0

    def game(self, name: str) -> GameFigures:
        if name not in self.by_game:
            self.by_game[name] = GameFigures()
        return self.by_game[name]

    def percentile(self, q: float, latencies: list[float] | None = None) -> float:
        xs = sorted(self.bet_latencies if latencies is None else latencies)
        if not xs:
            return 0.0
        return xs[min(len(xs) - 1, int(q * len(xs)))]

    def summary(self) -> str:
        rate = self.bets / self.elapsed if self.elapsed else 0.0
        return (
            f"{sum(self.statuses.values())} commands "
            f"({', '.join(f'{k}: {v}' for k, v in sorted(self.statuses.items()))}), "
            f"{self.bets} bets in {self.elapsed:.1f} s = {rate:.{1 if rate < 100 else 0}f} bets/s, "
            f"bet latency p50 {self.percentile(0.5) * 1000:.1f} ms "
            f"p99 {self.percentile(0.99) * 1000:.1f} ms; {self.pushed} states pushed "
            f"({self.parsed} read), {self.views} views polled; {self.retries} retried in "
            f"transit, {self.unavailable} sent again after a 503; {self.topups} top-ups, "
            f"{self.rebuys} chips bought again, {self.broke} left out of money"
            + (f"; refusals by rule: {dict(self.rules.most_common(8))}" if self.rules else "")
        )


# --- HTTP ------------------------------------------------------------------------------------


_UNREAD = object()


class TransportError(ConnectionError):
    """The connection failed or closed before the answer was read (the request may or may
    not have reached the server: sent again with its key, it is answered once)."""


class Answer:
    """An HTTP answer: its status and body (``json()`` parses it)."""

    __slots__ = ("_parsed", "content", "status_code")

    def __init__(self, status_code: int, content: bytes) -> None:
        self.status_code, self.content = status_code, content
        self._parsed: Any = _UNREAD

    def json(self) -> Any:
        if self._parsed is _UNREAD:
            self._parsed = json.loads(self.content) if self.content else None
        return self._parsed

    def raise_for_status(self) -> None:
        if self.status_code >= 400:
            raise TransportError(f"HTTP {self.status_code}: {self.content[:300]!r}")


class _Connection(asyncio.Protocol):
    """One keep-alive connection; an answer is read in one pass over the bytes received
    (its head's ``content-length``; the server answers nothing else)."""

    def __init__(self) -> None:
        self.transport: Any = None  # (uvloop's transports are not asyncio.Transport)
        self.buf = bytearray()
        self.waiting: asyncio.Future[Answer] | None = None
        self.close_after = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_exception(TransportError(str(exc or "connection closed")))

    def data_received(self, data: bytes) -> None:
        self.buf += data
        if self.waiting is None or self.waiting.done():
            return
        end = self.buf.find(b"\r\n\r\n")
        if end < 0:
            return
        head = bytes(self.buf[:end]).lower()
        at = head.find(b"\r\ncontent-length:")
        if not head.startswith(b"http/1.1 ") or (at < 0 and b"transfer-encoding" in head):
            self.waiting.set_exception(TransportError(f"cannot read the answer {head[:200]!r}"))
            self.transport.close()
            return
        stop = head.find(b"\r\n", at + 2)
        length = int(head[at + 17 : stop if stop >= 0 else None]) if at >= 0 else 0
        if len(self.buf) < end + 4 + length:
            return
        content = bytes(self.buf[end + 4 : end + 4 + length])
        del self.buf[: end + 4 + length]
        self.close_after = b"\r\nconnection: close" in head
        self.waiting.set_result(Answer(int(head[9:12]), content))


class Http:
    """A minimal HTTP/1.1 client on one keep-alive connection, one request at a time: the
    bots must cost the machine far less than the server they load (an ``httpx`` request
    took several times the CPU). ``request(method, path, json=…, headers=…)`` answers an
    :class:`Answer`; a failed connection raises :class:`TransportError` (a connection the
    server closed while idle is opened again and the request sent once more, as HTTP
    clients do: the same bytes, its ``Idempotency-Key`` makes that safe)."""

    def __init__(self, base_url: str, timeout: float = 60.0) -> None:
        parts = urlsplit(base_url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"an http:// URL, not {base_url!r}")
        self.host, self.port = parts.hostname, parts.port or 80
        self.timeout = timeout
        self.conn = _Connection()
        self.lock = asyncio.Lock()

    async def request(
        self,
        method: str,
        url: str,
        *,
        json: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        data = b"" if json is None else _dumps(json)
        lines = [f"{method} {url} HTTP/1.1", f"Host: {self.host}", f"Content-Length: {len(data)}"]
        if json is not None:
            lines.append("Content-Type: application/json")
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        message = ("\r\n".join(lines) + "\r\n\r\n").encode() + data
        async with self.lock, asyncio.timeout(self.timeout):
            return await self._exchange(message)

    async def _exchange(self, message: bytes) -> Answer:
        loop = asyncio.get_running_loop()
        conn = self.conn
        for again in (False, True):
            fresh = conn.transport is None
            if fresh:
                conn.buf.clear()
                try:
                    await loop.create_connection(lambda: conn, self.host, self.port)
                except OSError as exc:
                    raise TransportError(str(exc)) from exc
            conn.waiting = loop.create_future()
            conn.transport.write(message)
            try:
                answer = await conn.waiting
            except TransportError:
                if fresh or again:
                    raise
                continue  # closed by the server while idle: once more, on a new one
            finally:
                conn.waiting = None
            if conn.close_after and conn.transport is not None:
                conn.transport.close()
            return answer
        raise AssertionError("unreachable")

    async def get(self, url: str, *, headers: dict[str, str] | None = None) -> Answer:
        return await self.request("GET", url, headers=headers)

    async def post(
        self,
        url: str,
        *,
        json: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        return await self.request("POST", url, json=json, headers=headers)

    async def aclose(self) -> None:
        if self.conn.transport is not None:
            self.conn.transport.close()


def _dumps(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def _transport_errors() -> tuple[type[BaseException], ...]:
    """The errors of a request that did not reach an answer: ours, the OS's, httpx's (a
    caller may hand the bots an ``httpx.AsyncClient``)."""
    errors: tuple[type[BaseException], ...] = (OSError, TimeoutError)
    try:
        import httpx
    except ImportError:  # (the server extra brings it)
        return errors
    return (*errors, httpx.TransportError)


# --- the table's WebSocket -------------------------------------------------------------------


class Feed:
    """A table as one player sees it, pushed by the server over its WebSocket: the latest
    state (``snapshot`` on connect, ``state`` after each change), kept as its text until
    a bot reads it. The server's ``event`` messages are not read (a bot acts on states).

    ``watch(text)`` says whether a state may concern the bot (it is woken for those only);
    :meth:`next` waits for a state newer than the one last read, at least as recent as a
    given ``seq``. The socket is opened again when it drops (a slow reader the server let
    go, a restart), with a new token if the old one was refused (``token(renew)``)."""

    def __init__(
        self,
        base_url: str,
        table: str,
        token: Callable[[bool], Awaitable[str]],
        report: BotReport,
        watch: Callable[[str], bool] | None = None,
    ) -> None:
        parts = urlsplit(base_url)
        self.uri = f"ws://{parts.netloc}/tables/{table}/ws"
        self.token, self.report = token, report
        self.watch = watch or (lambda text: True)
        self.text: str | None = None  # the latest state not yet read, as sent
        self.version = 0  # states kept so far
        self.state: dict[str, Any] | None = None  # the latest state read
        self.read_version = 0
        self.changed = asyncio.Event()
        self.closed = False
        self.refused = False  # the last socket's token was refused (SRV-AUTH)

    async def run(self) -> None:
        """Read the socket until :meth:`close`, opening it again when it drops."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        opened = 0
        while not self.closed:
            try:
                token = await self.token(self.refused)
                self.refused = False
                async with connect(
                    self.uri, compression=None, max_queue=None, open_timeout=30
                ) as ws:
                    opened += 1
                    if opened > 1:
                        self.report.reconnects += 1
                    await ws.send(json.dumps({"type": "auth", "token": token}))
                    async for message in ws:
                        self._received(message)
            except (WebSocketException, OSError, TimeoutError, ValueError) as exc:
                # (dropped, refused, the server gone or restarting, a message not JSON)
                self.report.transport_errors[f"ws {type(exc).__name__}"] += 1
            if not self.closed:
                await asyncio.sleep(0.2)

    def _received(self, message: str | bytes) -> None:
        text = message.decode() if isinstance(message, bytes) else message
        head = text[:24]
        if '"event"' in head:
            return
        if '"state"' not in head and '"snapshot"' not in head:
            body = json.loads(text)
            if body.get("type") == "error":  # (then the server closes: opened again)
                self.refused = body.get("rule") == "SRV-AUTH"
                self.report.rules[f"ws {body.get('rule')}: {str(body.get('message'))[:50]}"] += 1
            return
        self.report.pushed += 1
        self.text = text
        self.version += 1
        if self.watch(text):
            self.changed.set()

    def latest(self) -> dict[str, Any] | None:
        """The latest state (read now if it came since)."""
        if self.text is not None:
            self.state = json.loads(self.text)
            self.read_version, self.text = self.version, None
            self.report.parsed += 1
        return self.state

    async def next(self, seen: int, at_least: int, timeout: float) -> dict[str, Any] | None:
        """A state newer than version ``seen`` (kept after ``seen``, or the latest if it
        is newer and concerns the bot) whose ``seq`` is ``at_least``; None after
        ``timeout`` seconds without one."""
        deadline = time.monotonic() + timeout
        while True:
            if self.version > seen:
                state = self.latest()
                if state is not None and int(state.get("seq", -1)) >= at_least:
                    return state
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):
                    await self.changed.wait()

    def close(self) -> None:
        self.closed = True
        self.changed.set()


# --- a bot -----------------------------------------------------------------------------------

_keys = itertools.count()


class Cashier:
    """The cashier who tops the bots' wallets up (``POST /cashier/deposit``), logged in
    once, shared by the bots."""

    def __init__(self, http: Any, name: str, password: str) -> None:
        self.http, self.name, self.password = http, name, password
        self.headers: dict[str, str] = {}
        self.lock = asyncio.Lock()
        self.run = time.time_ns()

    async def deposit(self, player: str, amount: int, n: int) -> bool:
        async with self.lock:
            for _ in range(2):
                if not self.headers:
                    r = await self.http.request(
                        "POST", "/auth/login", json={"name": self.name, "password": self.password}
                    )
                    if r.status_code != 200:
                        return False
                    self.headers = {"Authorization": f"Bearer {r.json()['token']}"}
                r = await self.http.request(
                    "POST",
                    "/cashier/deposit",
                    json={"player": player, "amount": amount, "memo": "bot top-up"},
                    headers={**self.headers, "Idempotency-Key": f"topup-{player}-{self.run}-{n}"},
                )
                if r.status_code == 401:  # (its session ended: once more)
                    self.headers = {}
                    continue
                return bool(r.status_code == 200)
            return False


class Bot:
    """One bot player at one table (see the module's docstring). ``http``: anything with
    ``await request(method, url, json=…, headers=…)`` answering ``status_code`` and
    ``json()`` (:class:`Http`, an ``httpx.AsyncClient``); ``feed``: the table's pushed
    states (a :class:`Feed` on ``url`` by default); ``cashier``: who tops its wallet up
    (None: nobody, the bot leaves when its money is spent)."""

    def __init__(
        self,
        http: Any,
        name: str,
        password: str,
        table: str,
        game: str,
        rng: Rng,
        report: BotReport,
        poll: float = 1.0,
        *,
        url: str | None = None,
        feed: Feed | None = None,
        cashier: Cashier | None = None,
        pace: str = "live",
        topups: int | None = None,
        deposit: int = 10_000_000,
    ) -> None:
        if pace not in PACES:
            raise ValueError(f"pace is one of {PACES}, not {pace!r}")
        self.http, self.name, self.password = http, name, password
        self.table, self.game, self.rng, self.report = table, game, rng, report
        self.poll = poll  # the longest a bot waits without a state before it looks again
        self.url, self.cashier, self.pace = url, cashier, pace
        self.topups_left, self.deposit = topups, deposit
        self.feed = feed
        self.headers: dict[str, str] = {}
        self.prefix = f"{name}-{time.time_ns()}"
        self.me = f"player:{name}"
        self.actor_text = f'"{self.me}"'
        self.seated = False
        self.funded = False  # chips at the table (a buy-in done, not spent)
        self.buy = DEFAULT_BUY  # what its strategy buys in with
        self.leaving = False  # the bot stops: it cashes out and ends
        self.chain: Move | None = None  # saturate: the bet it places again and again
        self.topped = 0
        self.errors = _transport_errors()

    # --- requests -------------------------------------------------------------------------

    async def request(self, method: str, url: str, *, deadline: float, **kw: Any) -> Any:
        """Send until answered (the same request, the same key), or the deadline: again
        after a transport error, and after a 503 (nothing was recorded: a table being
        rebuilt, taken over by another process, a database that failed)."""
        while True:
            try:
                r = await self.http.request(method, url, **kw)
                if r.status_code != 503 or time.monotonic() > deadline:
                    return r
                self.report.unavailable += 1
                await asyncio.sleep(0.2)
                continue
            except self.errors as exc:
                if time.monotonic() > deadline:
                    raise
                self.report.transport_errors[type(exc).__name__] += 1
                self.report.retries += 1
                await asyncio.sleep(0.2)
                if self.headers and "Authorization" in kw.get("headers", {}):
                    kw["headers"] = {**kw["headers"], **self.headers}

    async def login(self, deadline: float) -> None:
        r = await self.request(
            "POST",
            "/auth/login",
            json={"name": self.name, "password": self.password},
            deadline=deadline,
        )
        r.raise_for_status()
        self.headers = {"Authorization": f"Bearer {r.json()['token']}"}

    async def command(self, move: Move, deadline: float) -> Any:
        key = f"{self.prefix}-{next(_keys)}"
        t0 = time.perf_counter()
        r = await self.request(
            "POST",
            f"/tables/{self.table}/commands",
            json={"op": move.op, "args": move.args},
            headers={**self.headers, "Idempotency-Key": key},
            deadline=deadline,
        )
        dt = time.perf_counter() - t0
        report, figures = self.report, self.report.game(self.game)
        report.statuses[r.status_code] += 1
        figures.commands += 1
        body = r.json()
        if r.status_code == 200:
            if move.op in ("join", "sit"):
                self.seated = True
            if move.op in ("join", "sit", "buy_in", "buy_chips"):
                amount = move.args.get("amount", move.args.get("buy_in"))
                if isinstance(amount, int) and amount > 0:
                    self.funded = True
            if move.op == "leave":
                self.seated = self.funded = False
            if move.bet:
                report.bets += 1
                figures.bets += 1
                report.bet_latencies.append(dt)
                figures.bet_latencies.append(dt)
                for ev in body.get("events", []):
                    hold = ev["data"].get("bet_id")
                    if hold is not None:
                        report.acknowledged.append((self.table, str(hold)))
        else:
            figures.refused += 1
            report.rules[f"{body.get('rule')}: {str(body.get('message'))[:50]}"] += 1
        return r

    async def view(self, deadline: float) -> dict[str, Any]:
        """The table's state read over HTTP (``GET /tables/{id}/view``): for a caller
        without the socket; the bots themselves follow the pushed states."""
        r = await self.request(
            "GET", f"/tables/{self.table}/view", headers=self.headers, deadline=deadline
        )
        if r.status_code == 401:
            await self.login(deadline)
            return {}
        self.report.views += 1
        return dict(r.json()) if r.status_code == 200 else {}

    async def _token(self, renew: bool) -> str:
        """The bot's token for its socket; a new one if the last was refused."""
        if renew or not self.headers:
            await self.login(time.monotonic() + 60)
        return self.headers["Authorization"].split()[1]

    def _watch(self, text: str) -> bool:
        """Whether a pushed state may concern the bot: it names the bot (what is pending
        for it), or the bot is not at the table with chips (it sits down, buys in)."""
        return not (self.seated and self.funded) or self.actor_text in text

    # --- money ----------------------------------------------------------------------------

    async def _short(self, move: Move, deadline: float) -> Move | None:
        """A refusal for want of money: what to do — buy chips at the table (a bet's
        refusal: the stack is spent), after a top-up of the wallet by the cashier if the
        wallet cannot pay a buy-in; None once there is no money and no cashier to give it
        (the bot leaves for good)."""
        r = await self.request("GET", "/wallet", headers=self.headers, deadline=deadline)
        wallet = int(r.json().get("wallet", 0)) if r.status_code == 200 else 0
        if wallet < self.buy:
            can = self.topups_left is None or self.topped < self.topups_left
            if self.cashier is None or not can:
                return None
            self.topped += 1
            if not await self.cashier.deposit(self.name, self.deposit, self.topped):
                return None
            self.report.topups += 1
            wallet += self.deposit
            if wallet < self.buy:  # (a top-up smaller than a buy-in: no way to play on)
                return None
        if not move.bet:  # a buy-in the wallet could not pay: now it can
            return move
        self.funded = False
        how = BUY_CHIPS.get(self.game)
        if how is None:  # a game whose chips this bot cannot buy: leave, and join again
            return Move("leave", {})
        self.report.rebuys += 1
        # (saturate: a larger stack, for fewer trips to the cage between its bets)
        stacks = SATURATE_STACKS if self.pace == "saturate" else 1
        return Move(how[0], {how[1]: min(self.buy * stacks, wallet)})

    # --- playing --------------------------------------------------------------------------

    async def play(self, until: float, grace: float, stop: asyncio.Event | None = None) -> None:
        deadline = until + grace
        await self.login(deadline)
        feed = self.feed
        if feed is None:
            if self.url is None:
                raise ValueError("a bot follows its table at url (or is given a feed)")
            feed = self.feed = Feed(self.url, self.table, self._token, self.report, self._watch)
        reader = asyncio.create_task(feed.run())
        try:
            await self._play(until, deadline, stop)
            await self._cash_out(min(deadline, time.monotonic() + grace))
        finally:
            feed.close()
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader

    def _over(self, until: float, stop: asyncio.Event | None) -> bool:
        return self.leaving or time.monotonic() >= until or (stop is not None and stop.is_set())

    async def _play(self, until: float, deadline: float, stop: asyncio.Event | None) -> None:
        assert self.feed is not None
        strategy = _STRATEGIES.get(self.game, _join_only)
        seen, at_least = 0, -1  # the state last decided on; the seq to wait for
        paused: Move | None = None  # the move paused for, once
        queued: Move | None = None  # a move decided without a new state (money, a repeat)
        while not self._over(until, stop):
            if queued is None:
                wait = min(self.poll, max(0.0, until - time.monotonic()))
                state = await self.feed.next(seen, at_least, wait)
                if state is None:
                    continue
                seen = self.feed.read_version
                move = self._decide(strategy, state)
                if move is None:
                    paused = None
                    continue
                if move.pause and move != paused:
                    paused = move
                    await asyncio.sleep(_pause(move.pause, state.get("countdown")))
                    seen -= 1  # (decide again on the latest state, changed or not)
                    continue
                paused = None
            else:
                move, queued = queued, None
            r = await self.command(move, deadline)
            if r.status_code == 200:
                body = r.json()
                at_least = int(body.get("seq", at_least))
                if self.pace == "saturate" and move.bet:
                    self.chain = move
                    if self._named(body, move.op):
                        queued = move  # again, as fast as the server answers
                elif self.chain is not None and move.op in _BUY_OPS:
                    queued = self.chain  # (chips bought: the bets go on)
            elif r.status_code == 401:
                await self.login(deadline)
                queued = move
            elif r.status_code == 409 and r.json().get("error") == "insufficient_funds":
                queued = await self._short(move, deadline)
                if queued is None:
                    self.report.broke += 1
                    self.leaving = True
            elif move.bet:  # refused by the rules (betting closed, a limit): a new start
                self.chain = None

    def _named(self, body: dict[str, Any], op: str) -> bool:
        return any(
            p.get("actor") == self.me and op in p.get("operations", ())
            for p in body.get("pending") or []
        )

    def _decide(self, strategy: Strategy, state: dict[str, Any]) -> Move | None:
        """The strategy's move on ``state``, asked only when the table waits for the bot
        (``pending`` names it) or it is not at the table with chips."""
        pending = state.get("pending") or []
        view = state.get("view") or {}
        if not (self.seated and self.funded):  # (what the view says: a bot restarted, …)
            self.seated, chips = _at_table(view, self.name)
            self.funded = self.seated and (chips is None or chips > 0)
        mine = {op for p in pending if p.get("actor") == self.me for op in p.get("operations", ())}
        if self.seated and self.funded and not mine:
            return None
        move = strategy(view, pending, self.name, self.rng)
        if move is None and self.chain is not None and self.chain.op in mine:
            return self.chain  # (saturate: the table takes bets again)
        if move is not None and move.op in ("join", "sit", *_BUY_OPS):  # its strategy's buy-in
            amount = move.args.get("amount", move.args.get("buy_in"))
            if isinstance(amount, int) and amount > 0:
                self.buy = amount
        return move

    async def _cash_out(self, deadline: float) -> None:
        """Leave the table once the rules allow: with bets in play, what is the bot's to do
        in the round under way first (a shooter's throws, paced as in play) until they are
        settled; then leave (a shooter's dice pass on, CR-R7)."""
        assert self.feed is not None
        strategy = _STRATEGIES.get(self.game, _join_only)
        seen, at_least = -1, -1
        while self.seated and time.monotonic() < deadline:
            state = await self.feed.next(
                seen, at_least, min(self.poll, deadline - time.monotonic())
            )
            if state is None:
                seen = -1  # (look again at the latest: the clock may have moved on)
                continue
            seen = self.feed.read_version
            view, pending = state.get("view") or {}, state.get("pending") or []
            if _has_bets(view, self.name):  # in play: the round ends first
                mine = strategy(view, pending, self.name, self.rng)
                if mine is not None and not mine.bet and mine.op not in ("join", "sit", "buy_in"):
                    if mine.pause:  # (a shooter ends his bets' round: throwing, paced)
                        await asyncio.sleep(_pause(mine.pause, state.get("countdown")))
                    r = await self.command(mine, deadline)
                    if r.status_code == 200:
                        at_least = int(r.json().get("seq", at_least))
                continue
            r = await self.command(Move("leave", {}), deadline)
            if r.status_code == 200:
                self.seated = False
                return
            if r.status_code == 401:
                await self.login(deadline)


def _at_table(view: dict[str, Any], me: str) -> tuple[bool, int | None]:
    """Whether the view shows ``me`` at the table, and the chips it says he has there
    (None: it does not say) — each game's view lists its players its own way: baccarat's
    ``players`` rows (his ``chips``), craps' ``seats`` rows (his ``stack``), a tile
    table's ``seats`` by place (his ``stack``), a list of names (``my_stack``)."""
    players = view.get("players")
    seats = view.get("seats")
    rows: list[Any] = []
    for group in (players, seats):
        if isinstance(group, list):
            rows += group
        elif isinstance(group, dict):
            rows += list(group.values())
    chips: int | None = None
    seated = False
    for row in rows:
        if row == me:
            seated = True
        elif isinstance(row, dict) and row.get("player") == me:
            seated = True
            for key in ("chips", "stack"):
                if isinstance(row.get(key), int):
                    chips = row[key]
    for key in ("my_stack", "stack"):
        if chips is None and isinstance(view.get(key), int):
            chips = view[key]
    return seated, chips


def _has_bets(view: dict[str, Any], me: str) -> bool:
    """The bot's bets in play, as its view lists them (each game's view has ``bets``, each
    naming its player)."""
    bets = view.get("bets") or []
    return any(isinstance(b, dict) and b.get("player") == me for b in bets)


def _pause(wanted: float, countdown: Any) -> float:
    """At most half the time the clock leaves (the rules' default acts at its deadline)."""
    deadline = countdown.get("deadline") if isinstance(countdown, dict) else None
    if isinstance(deadline, int):
        return min(wanted, max(0.0, (deadline / 1000 - time.time()) / 2))
    return wanted


async def setup_players(
    http: Any,
    names: list[str],
    password: str,
    supervisor: tuple[str, str],
    cashier: tuple[str, str],
    deposit: int,
) -> None:
    """Create the bot players (if new) and fund them (idempotent per run)."""

    async def token(name: str, pw: str) -> dict[str, str]:
        r = await http.post("/auth/login", json={"name": name, "password": pw})
        r.raise_for_status()
        return {"Authorization": f"Bearer {r.json()['token']}"}

    sup, cash = await token(*supervisor), await token(*cashier)
    run = time.time_ns()
    for name in names:
        r = await http.post(
            "/users", json={"name": name, "role": "player", "password": password}, headers=sup
        )
        if r.status_code not in (200, 409):
            r.raise_for_status()
        r = await http.post(
            "/cashier/deposit",
            json={"player": name, "amount": deposit},
            headers={**cash, "Idempotency-Key": f"fund-{name}-{run}"},
        )
        r.raise_for_status()


async def play_bots(
    url: str,
    players: int,
    seconds: float,
    supervisor: tuple[str, str],
    cashier: tuple[str, str],
    seed: str = "bots",
    *,
    tables: list[tuple[str, str]] | None = None,
    grace: float = 30.0,
    poll: float = 1.0,
    deposit: int = 10_000_000,
    prefix: str = "bot",
    report: BotReport | None = None,
    stop: asyncio.Event | None = None,
    pace: str = "live",
    topups: int | None = None,
    setup: bool = True,
) -> BotReport:
    """``players`` bots at ``tables`` (id, game) — every open table if None — for ``seconds``
    or until ``stop`` is set, then they cash out. ``report`` (optional) is filled as they
    play (a harness may watch it). ``pace``: ``live`` or ``saturate`` (the module's
    docstring); ``topups``: how many times the cashier tops a bot's wallet up (None: as
    often as it runs out); ``setup``: create and fund the players first (False: they
    were, by :func:`setup_players`)."""
    report = report if report is not None else BotReport()
    names = [f"{prefix}{i}" for i in range(players)]
    password = f"{prefix}-password"
    setup_http = Http(url)
    try:
        if setup:
            await setup_players(setup_http, names, password, supervisor, cashier, deposit)
        if tables is None:
            sup = await setup_http.post(
                "/auth/login", json={"name": supervisor[0], "password": supervisor[1]}
            )
            h = {"Authorization": f"Bearer {sup.json()['token']}"}
            listed = (await setup_http.get("/tables", headers=h)).json()
            tables = [(t["id"], t["game"]) for t in listed if t["status"] == "open"]
        if not tables:
            raise RuntimeError("no open table to play at")
        desk = Cashier(setup_http, *cashier)
        start = time.monotonic()
        until = start + seconds
        bots = [
            Bot(
                Http(url),
                name,
                password,
                *tables[i % len(tables)],
                Rng.seeded(seed, name),
                report,
                poll,
                url=url,
                cashier=desk,
                pace=pace,
                topups=topups,
                deposit=deposit,
            )
            for i, name in enumerate(names)
        ]
        try:
            await asyncio.gather(*(b.play(until, grace, stop) for b in bots))
        finally:
            for b in bots:
                await b.http.aclose()
        report.elapsed = time.monotonic() - start
    finally:
        await setup_http.aclose()
    return report


def _pair(text: str, what: str) -> tuple[str, str]:
    name, sep, pw = text.partition(":")
    if not sep or not name or not pw:
        from macau_tables.core.errors import InvalidInput

        raise InvalidInput(f"--{what} is name:password (the demo {what}'s, printed by serve)")
    return name, pw


def run_bots(
    url: str,
    players: int,
    seconds: float,
    supervisor: str,
    cashier: str,
    seed: str,
    *,
    pace: str = "live",
) -> BotReport:
    """The ``macau-tables bots`` command: the bots in this process, on uvloop where it is
    installed (the server's loop: the bots then cost the machine less)."""
    from macau_tables.server.games import load_builtin_games

    load_builtin_games()  # each game's binding registers its strategy
    work = play_bots(
        url,
        players,
        seconds,
        _pair(supervisor, "supervisor"),
        _pair(cashier, "cashier"),
        seed,
        pace=pace,
    )
    try:
        import uvloop
    except ImportError:  # (not on Windows)
        return asyncio.run(work)
    return uvloop.run(work)
