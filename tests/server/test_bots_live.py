"""The bots against a live server (``macau-tables serve`` on a loopback port, the demo
floor's four games): they follow their table over its WebSocket and poll nothing, act when
the table waits for them, and when their chips run out they buy more — the cashier
topping their wallets up — or, with no top-up to be had, leave the table; never a storm of
refusals for want of money."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from macau_tables.server.bots import BotReport, play_bots
from macau_tables.server.games import load_builtin_games
from tests.server.serve_proc import Serve

GAMES = {"baccarat", "craps", "paigow", "taiwan"}


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    load_builtin_games()  # (each game's binding registers its bots' strategy)
    server = Serve(
        tmp_path_factory.mktemp("bots"), "--betting-seconds", "1", "--action-seconds", "1"
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def bots(server: Serve, players: int, seconds: float, **kw: Any) -> BotReport:
    creds = server.creds()
    return asyncio.run(
        play_bots(
            server.url,
            players,
            seconds,
            ("supervisor", creds["supervisor"]),
            ("cashier", creds["cashier"]),
            grace=15.0,
            **kw,
        )
    )


def funds_refusals(report: BotReport) -> int:
    return sum(n for rule, n in report.rules.items() if rule.startswith("SRV-FUNDS"))


def seated(server: Serve, table: str, prefix: str) -> list[str]:
    """The players of ``prefix`` at ``table``, as the supervisor's view lists them."""
    creds = server.creds()
    tok = httpx.post(
        server.url + "/auth/login", json={"name": "supervisor", "password": creds["supervisor"]}
    ).json()["token"]
    view = httpx.get(
        server.url + f"/tables/{table}/view", headers={"Authorization": f"Bearer {tok}"}
    ).json()["view"]
    rows = view.get("players") or view.get("seats") or []
    names = rows.values() if isinstance(rows, dict) else [r.get("player") for r in rows]
    return [n for n in names if isinstance(n, str) and n.startswith(prefix)]


def test_bots_follow_their_tables_over_the_socket_and_act_when_named(floor: Serve) -> None:
    """Two bots at each of the four games, at the table's pace: every state comes pushed
    (none polled), each game's bots bet, and the rules refuse next to nothing (a bot acts
    when ``pending`` names it, on a state at least as recent as its last command)."""
    report = bots(floor, 8, 8.0, prefix="follow")
    assert report.views == 0, report.summary()
    assert report.pushed > 0 and 0 < report.parsed <= report.pushed, report.summary()
    assert set(report.by_game) == GAMES
    assert all(f.bets > 0 for f in report.by_game.values()), report.by_game
    assert not [s for s in report.statuses if s >= 500], report.summary()
    commands = sum(report.statuses.values())
    refused = sum(f.refused for f in report.by_game.values())
    assert refused <= max(4, commands // 10), report.summary()
    for table in ("baccarat-1", "craps-1", "paigow-1", "taiwan-1"):
        assert seated(floor, table, "follow") == []  # cashed out at the end


def test_a_bot_whose_chips_run_out_is_topped_up_and_plays_on(floor: Serve) -> None:
    """Two bots betting as fast as the server answers (``saturate``), each wallet holding
    one buy-in and a half: the chips at the table run out, the bot buys more, the cashier
    topping the wallet up — one refusal for want of money each time, then bets again."""
    report = bots(
        floor,
        2,
        5.0,
        prefix="topped",
        tables=[("baccarat-1", "baccarat")],
        pace="saturate",
        deposit=150_000,
    )
    assert report.topups >= 1 and report.rebuys >= 1 and report.broke == 0, report.summary()
    assert funds_refusals(report) <= report.rebuys + report.topups, report.summary()
    assert report.bets > 20, report.summary()  # (each buy-in is ten bets of the minimum)
    assert not [s for s in report.statuses if s >= 500], report.summary()


def test_a_bot_with_no_money_left_and_no_top_up_leaves_the_table(floor: Serve) -> None:
    """The same bots, the cashier topping nobody up (``topups=0``): once the one buy-in
    is spent each bot is refused once, and leaves (cash-out, its bets settled first)."""
    report = bots(
        floor,
        2,
        5.0,
        prefix="broke",
        tables=[("baccarat-1", "baccarat")],
        pace="saturate",
        deposit=100_000,
        topups=0,
    )
    assert report.broke == 2 and report.topups == 0, report.summary()
    assert funds_refusals(report) == 2, report.rules
    assert seated(floor, "baccarat-1", "broke") == []
    assert not [s for s in report.statuses if s >= 500], report.summary()
