"""Bot players over HTTP (``macau-tables bots``, the crash harness, the benchmark).

Each bot is a player account: it logs in, picks a table, and loops: read its view
(``GET /tables/{id}/view``), ask its game's strategy for a move, send it as a command with
a fresh ``Idempotency-Key``. A request that fails in transit (the server died) is sent
again with the **same** key until it is answered, so a bot never places a bet twice.
At the end each bot leaves its table (cash-out) once the rules allow.

Strategies (:func:`register_strategy`) read the bot's own view and what is pending; a
game's binding module registers its strategy (the engines' strategies: the house way for
tiles, …). A game with no strategy is played by the rules' defaults only: the bot joins
and the table's clock acts for it.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from macau_tables.core.rng import Rng

__all__ = ["BotReport", "Move", "register_strategy", "run_bots"]


@dataclass(frozen=True)
class Move:
    """A bot's next command; ``bet`` marks a wager (counted and timed by the benchmark).
    ``pause``: seconds the bot waits before it, as a player would (a shooter lets the
    others bet before he throws); it then reads its view again and decides again."""

    op: str
    args: dict[str, Any]
    bet: bool = False
    pause: float = 0.0


Strategy = Callable[[dict[str, Any], list[dict[str, Any]], str, Rng], "Move | None"]
_STRATEGIES: dict[str, Strategy] = {}


def register_strategy(game: str, strategy: Strategy) -> None:
    _STRATEGIES[game] = strategy


def _join_only(
    view: dict[str, Any], pending: list[dict[str, Any]], me: str, rng: Rng
) -> Move | None:
    return None


@dataclass
class BotReport:
    """What the bots did: answers by status, bets acknowledged and their latencies."""

    statuses: Counter[int] = field(default_factory=Counter)
    rules: Counter[str] = field(default_factory=Counter)
    bets: int = 0
    bet_latencies: list[float] = field(default_factory=list)
    acknowledged: list[tuple[str, str]] = field(default_factory=list)  # (table, hold id)
    retries: int = 0
    unavailable: int = 0  # 503 answers, sent again (Bot.request)
    views: int = 0  # GET /tables/{id}/view answered (a bot reads it before each move)
    transport_errors: Counter[str] = field(default_factory=Counter)
    elapsed: float = 0.0

    def percentile(self, q: float) -> float:
        xs = sorted(self.bet_latencies)
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
            f"p99 {self.percentile(0.99) * 1000:.1f} ms, {self.retries} retried in transit, "
            f"{self.unavailable} sent again after a 503"
            + (f"; refusals by rule: {dict(self.rules.most_common(8))}" if self.rules else "")
        )


_keys = itertools.count()


class Bot:
    def __init__(
        self,
        http: Any,
        name: str,
        password: str,
        table: str,
        game: str,
        rng: Rng,
        report: BotReport,
        poll: float = 0.05,
    ) -> None:
        self.http, self.name, self.password = http, name, password
        self.table, self.game, self.rng, self.report = table, game, rng, report
        self.poll = poll
        self.headers: dict[str, str] = {}
        self.prefix = f"{name}-{time.time_ns()}"
        self.seated = False

    async def request(self, method: str, url: str, *, deadline: float, **kw: Any) -> Any:
        """Send until answered (the same request, the same key), or the deadline: again
        after a transport error, and after a 503 (nothing was recorded: a table being
        rebuilt, taken over by another process, a database that failed)."""
        import httpx

        while True:
            try:
                r = await self.http.request(method, url, **kw)
                if r.status_code != 503 or time.monotonic() > deadline:
                    return r
                self.report.unavailable += 1
                await asyncio.sleep(0.2)
                continue
            except httpx.TransportError as exc:
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
        self.report.statuses[r.status_code] += 1
        body = r.json()
        if r.status_code == 200:
            self.seated = self.seated or move.op in ("sit", "buy_in")
            if move.bet:
                self.report.bets += 1
                self.report.bet_latencies.append(dt)
            for ev in body.get("events", []):
                mv_hold = ev["data"].get("bet_id")
                if move.bet and mv_hold is not None:
                    self.report.acknowledged.append((self.table, str(mv_hold)))
        else:
            self.report.rules[f"{body.get('rule')}: {str(body.get('message'))[:50]}"] += 1
        return r

    async def view(self, deadline: float) -> dict[str, Any]:
        r = await self.request(
            "GET", f"/tables/{self.table}/view", headers=self.headers, deadline=deadline
        )
        if r.status_code == 401:
            await self.login(deadline)
            return {}
        self.report.views += 1
        return dict(r.json()) if r.status_code == 200 else {}

    async def play(self, until: float, grace: float, stop: asyncio.Event | None = None) -> None:
        deadline = until + grace
        await self.login(deadline)
        strategy = _STRATEGIES.get(self.game, _join_only)
        paused: Move | None = None  # the move paused for, once
        while time.monotonic() < until and not (stop is not None and stop.is_set()):
            snap = await self.view(deadline)
            if not snap:
                await asyncio.sleep(self.poll)
                continue
            move = strategy(snap["view"], snap["pending"], self.name, self.rng)
            if move is None:
                paused = None
                await asyncio.sleep(self.poll)
                continue
            if move.pause and move != paused:
                paused = move
                await asyncio.sleep(_pause(move.pause, snap.get("countdown")))
                continue  # (and look again: the table may have moved on)
            paused = None
            r = await self.command(move, deadline)
            if r.status_code == 401:
                await self.login(deadline)
        # cash out once the rules allow, for ``grace`` seconds from when the play ended (a
        # harness's ``stop`` ends it early: the grace does not wait for ``until``)
        deadline = min(deadline, time.monotonic() + grace)
        while self.seated and time.monotonic() < deadline:
            snap = await self.view(deadline)
            if snap:
                mine = strategy(snap["view"], snap["pending"], self.name, self.rng)
                if mine is not None and not mine.bet and mine.op != "sit":
                    if mine.pause:  # (a shooter ends his bets' round: throwing, paced)
                        await asyncio.sleep(_pause(mine.pause, snap.get("countdown")))
                    await self.command(mine, deadline)
                    continue
                if _has_bets(snap["view"], self.name):  # in play: the round ends first
                    await asyncio.sleep(0.5)
                    continue
                r = await self.command(Move("leave", {}), deadline)
                if r.status_code == 200:
                    self.seated = False
                    return
                if r.status_code == 409:  # (money in play: the round must end first)
                    await asyncio.sleep(1.0)
                    continue
            await asyncio.sleep(0.1)


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
    poll: float = 0.05,
    deposit: int = 10_000_000,
    prefix: str = "bot",
    report: BotReport | None = None,
    stop: asyncio.Event | None = None,
) -> BotReport:
    """``players`` bots at ``tables`` (id, game) — every open table if None — for ``seconds``
    or until ``stop`` is set, then they cash out. ``report`` (optional) is filled as they
    play (a harness may watch it)."""
    import httpx

    report = report if report is not None else BotReport()
    limits = httpx.Limits(max_connections=max(10, players), max_keepalive_connections=players)
    async with httpx.AsyncClient(base_url=url, timeout=60.0, limits=limits) as http:
        names = [f"{prefix}{i}" for i in range(players)]
        password = f"{prefix}-password"
        await setup_players(http, names, password, supervisor, cashier, deposit)
        if tables is None:
            sup = await http.post(
                "/auth/login", json={"name": supervisor[0], "password": supervisor[1]}
            )
            h = {"Authorization": f"Bearer {sup.json()['token']}"}
            listed = (await http.get("/tables", headers=h)).json()
            tables = [(t["id"], t["game"]) for t in listed if t["status"] == "open"]
        if not tables:
            raise RuntimeError("no open table to play at")
        start = time.monotonic()
        until = start + seconds
        bots = [
            Bot(
                http, name, password, *tables[i % len(tables)], Rng.seeded(seed, name), report, poll
            )
            for i, name in enumerate(names)
        ]
        await asyncio.gather(*(b.play(until, grace, stop) for b in bots))
        report.elapsed = time.monotonic() - start
    return report


def _pair(text: str, what: str) -> tuple[str, str]:
    name, sep, pw = text.partition(":")
    if not sep or not name or not pw:
        from macau_tables.core.errors import InvalidInput

        raise InvalidInput(f"--{what} is name:password (the demo {what}'s, printed by serve)")
    return name, pw


def run_bots(
    url: str, players: int, seconds: float, supervisor: str, cashier: str, seed: str
) -> BotReport:
    """The ``macau-tables bots`` command."""
    from macau_tables.server.games import load_builtin_games

    load_builtin_games()  # each game's binding registers its strategy
    return asyncio.run(
        play_bots(
            url, players, seconds, _pair(supervisor, "supervisor"), _pair(cashier, "cashier"), seed
        )
    )
