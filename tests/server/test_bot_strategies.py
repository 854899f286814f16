"""The bots play as players would: a tile bot bets once a round and not from the banker's
seat (a bet there is co-banking: PG-3.2, TW-5e) — it used to bet at every poll, a hundred
bets a round, and the rules refused its bets from the bank's seat; a craps shooter waits
before he throws (the bots' dice flew 80 times a second), but not past the clock."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from macau_tables.core.rng import Rng
from macau_tables.server.bindings import _tiles, craps
from macau_tables.server.bots import Bot, BotReport
from macau_tables.server.games import load_builtin_games


def _view(**extra: Any) -> dict[str, Any]:
    return {"seats": {"2": "alice", "3": "bob"}, "stack": 50_000, "banker_seat": 1, **extra}


BETTING = [{"actor": "player:alice", "operations": ["place_bet", "join_bank"]}]


def test_a_tile_bot_bets_the_minimum_when_it_has_no_bet() -> None:
    move = _tiles.strategy(_view(bets=[]), BETTING, "alice", Rng.seeded(b"t"))
    assert move is not None and move.op == "place_bet" and move.bet
    assert move.args == {"seat": 2, "amount": 1_000}


def test_a_tile_bot_bets_once_a_round() -> None:
    bets = [{"bet_id": "b1", "player": "alice", "seat": 2, "amount": 1_000}]
    assert _tiles.strategy(_view(bets=bets), BETTING, "alice", Rng.seeded(b"t")) is None
    # another player's bet does not count as its own
    other = [{"bet_id": "b2", "player": "bob", "seat": 3, "amount": 1_000}]
    move = _tiles.strategy(_view(bets=other), BETTING, "alice", Rng.seeded(b"t"))
    assert move is not None and move.op == "place_bet"


def test_a_tile_bot_does_not_bet_from_the_bankers_seat() -> None:
    """(PG-3.2 and TW-5e: a bet on the banker's seat is co-banking; one strategy serves
    both games)"""
    view = _view(banker_seat=2, bets=[])
    assert _tiles.strategy(view, BETTING, "alice", Rng.seeded(b"t")) is None


class _Answer:
    def __init__(self, status: int, body: Any) -> None:
        self.status_code, self._body = status, body

    def json(self) -> Any:
        return self._body

    def raise_for_status(self) -> None:
        pass


class _Feed:
    """A table's pushed states as a bot reads them: ``state()``, anew every 10 ms."""

    def __init__(self, state: Callable[[], dict[str, Any]]) -> None:
        self.state, self.read_version = state, 0

    async def run(self) -> None:
        await asyncio.Event().wait()

    async def next(self, seen: int, at_least: int, timeout: float) -> dict[str, Any]:
        await asyncio.sleep(min(timeout, 0.01))
        self.read_version += 1
        return self.state()

    def close(self) -> None:
        pass


class _Shooter:
    """A craps table as the bot sees it: he is seated and the shooter, whatever happens."""

    def __init__(self, countdown_s: float | None) -> None:
        self.countdown_s = countdown_s
        self.throws: list[float] = []
        self.start = time.monotonic()

    def state(self) -> dict[str, Any]:
        cd = None
        if self.countdown_s is not None:
            deadline = int((time.time() + self.countdown_s) * 1000)
            cd = {"kind": "action", "deadline": deadline, "actors": [], "op": "pass_dice"}
        bets = [{"player": "bot", "bet": "pass", "point": 4}]  # (his bet, to be decided)
        view = {"seats": [{"player": "bot", "stack": 50_000}], "bets": bets, "point": 4}
        pending = [{"actor": "player:bot", "operations": ["throw", "pass_dice"]}]
        return {"seq": 1, "view": view, "pending": pending, "countdown": cd}

    async def request(self, method: str, url: str, **kw: Any) -> _Answer:
        if url == "/auth/login":
            return _Answer(200, {"token": "t"})
        assert kw["json"]["op"] == "throw"
        self.throws.append(time.monotonic() - self.start)
        return _Answer(200, {"events": []})


def _shoot(countdown_s: float | None, seconds: float, *, cashing_out: bool = False) -> list[float]:
    table = _Shooter(countdown_s)
    bot = Bot(
        table, "bot", "pw", "craps-1", "craps", Rng.seeded(b"s"), BotReport(), poll=0.01,
        feed=_Feed(table.state),  # type: ignore[arg-type]
    )  # fmt: skip
    if cashing_out:  # play is over: the bot ends what it has in play, then leaves
        bot.seated = True
        asyncio.run(bot.play(time.monotonic(), seconds))
    else:
        asyncio.run(bot.play(time.monotonic() + seconds, 0.0))
    return table.throws


def test_a_bot_shooter_lets_the_others_bet_before_he_throws() -> None:
    throws = _shoot(None, 2.0)
    assert len(throws) == 1 and throws[0] >= craps.THROW_PAUSE


def test_a_bot_shooter_throws_before_the_clock_passes_his_dice() -> None:
    """He waits at most half the time the clock leaves him (here 0.4 s)."""
    throws = _shoot(0.4, 1.0)
    assert throws and throws[0] < craps.THROW_PAUSE


def test_a_bot_shooter_cashing_out_throws_at_the_same_pace() -> None:
    throws = _shoot(None, 2.0, cashing_out=True)
    gaps = [b - a for a, b in zip([0.0, *throws], throws, strict=False)]
    assert throws and min(gaps) >= craps.THROW_PAUSE


class _Settling:
    """A table where the bot's bet stays in play for its first ``seconds``; then it may
    leave."""

    def __init__(self, seconds: float) -> None:
        self.until = time.monotonic() + seconds
        self.leaves: list[float] = []

    def state(self) -> dict[str, Any]:
        bets = [{"player": "bot", "amount": 1_000}] if time.monotonic() < self.until else []
        view = {"seats": {"2": "bot"}, "bets": bets, "banker_seat": 1, "stack": 50_000}
        return {"seq": 1, "view": view, "pending": [], "countdown": None}

    async def request(self, method: str, url: str, **kw: Any) -> _Answer:
        now = time.monotonic()
        if url == "/auth/login":
            return _Answer(200, {"token": "t"})
        assert kw["json"]["op"] == "leave"
        self.leaves.append(now)
        return _Answer(200, {"events": []})


def test_a_bot_cashing_out_waits_for_its_bets_to_be_settled() -> None:
    """(It used to try to leave every second while its bet was in play: a refusal by the
    rules each time, PG-4.7 / TW-2g.)"""
    load_builtin_games()  # (the tile strategy, as whichever test ran first may have loaded it)
    table = _Settling(1.0)
    bot = Bot(
        table, "bot", "pw", "paigow-1", "paigow", Rng.seeded(b"s"), BotReport(), poll=0.01,
        feed=_Feed(table.state),  # type: ignore[arg-type]
    )  # fmt: skip
    bot.seated = True
    asyncio.run(bot.play(time.monotonic(), 5.0))
    assert len(table.leaves) == 1 and table.leaves[0] >= table.until and not bot.seated
