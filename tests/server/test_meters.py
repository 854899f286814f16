"""Meters and the gaming-day close (issue 16, meters): real play through the API on SQLite
and PostgreSQL; drop, win, commission and handle equal what was bet and paid; the journal and
the ledger reconcile, and a posting written behind the server's back is caught."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta, timezone
from fractions import Fraction
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import example, given
from hypothesis import strategies as st

from macau_tables.analysis.baccarat import baccarat_par
from macau_tables.analysis.craps import craps_par
from macau_tables.analysis.theoretical import craps_line
from macau_tables.games.baccarat import BaccaratRules
from macau_tables.server import meters as M
from macau_tables.server import store
from tests.server.conftest import Srv

MACAU = timezone(timedelta(hours=8))


# --- the gaming day --------------------------------------------------------------------------


def test_the_gaming_day_begins_at_six_macau_time() -> None:
    gd = M.GamingDay()
    start, end = gd.window(date(2026, 11, 23))
    assert start == int(datetime(2026, 11, 23, 6, tzinfo=MACAU).timestamp() * 1000)
    assert end - start == 86_400_000
    before_six = int(datetime(2026, 11, 23, 5, 59, 59, tzinfo=MACAU).timestamp() * 1000)
    assert gd.day_of(before_six) == date(2026, 11, 22)
    assert gd.day_of(start) == date(2026, 11, 23)
    assert gd.day_of(end - 1) == date(2026, 11, 23)
    assert gd.iso(start) == "2026-11-23T06:00:00+08:00"
    other = M.GamingDay.parse("04:30", 0)
    assert other.day_of(int(datetime(2026, 1, 2, 4, 29, tzinfo=UTC).timestamp() * 1000)) == date(
        2026, 1, 1
    )


@given(
    st.integers(min_value=0, max_value=4_102_444_800_000),
    st.integers(min_value=0, max_value=23),
    st.integers(min_value=-12, max_value=14),
)
@example(int(datetime(2026, 11, 23, 6, tzinfo=MACAU).timestamp() * 1000), 6, 8)
def test_every_instant_is_in_exactly_its_gaming_day(ms: int, hour: int, offset: int) -> None:
    gd = M.GamingDay.parse(f"{hour:02d}:00", offset * 60)
    day = gd.day_of(ms)
    start, end = gd.window(day)
    assert start <= ms < end
    assert gd.window(day + timedelta(days=1))[0] == end


@pytest.mark.parametrize(
    ("label", "line"),
    [
        ("Pass Line", "Pass Line"),
        ("Come 6", "Come"),
        ("Pass Line odds 4", "Pass Line odds on 4"),
        ("Don't Come lay odds 10", "Don't Come lay odds on 10"),
        ("Big 6", "Big 6"),
        ("Hard 8", "Hard 8"),
        ("11", "11"),
    ],
)
def test_craps_labels_name_their_par_line(label: str, line: str) -> None:
    assert craps_line(label) == line
    assert line in {x.name for x in craps_par().lines}


# --- helpers ---------------------------------------------------------------------------------


def today(srv: Srv) -> str:
    return M.GamingDay().day_of(M.now_ms()).isoformat()


def table(srv: Srv, game: str, tid: str, options: dict[str, Any] | None = None) -> str:
    r = srv.client.post(
        "/tables",
        json={"id": tid, "game": game, "options": options or {}},
        headers=srv.headers("supervisor"),
    )
    assert r.status_code == 200, r.text
    return tid


def events(srv: Srv, t: str) -> list[dict[str, Any]]:
    r = srv.client.get(f"/tables/{t}/events?limit=5000", headers=srv.headers("auditor"))
    assert r.status_code == 200, r.text
    return list(r.json())


def wallet(srv: Srv, player: str) -> int:
    r = srv.client.get(f"/accounts/player:{player}", headers=srv.headers("auditor"))
    return int(r.json()["balance"])


def meters(srv: Srv, t: str, who: str = "auditor", day: str | None = None) -> dict[str, Any]:
    r = srv.client.get(f"/tables/{t}/meters?day={day or today(srv)}", headers=srv.headers(who))
    assert r.status_code == 200, r.text
    return dict(r.json())


def drive(srv: Srv, t: str, kind: str, count: int, max_steps: int = 400) -> None:
    """Run the table's clock until ``count`` events of ``kind`` more are journalled."""
    seen = sum(e["kind"] == kind for e in events(srv, t))
    for _ in range(max_steps):
        if sum(e["kind"] == kind for e in events(srv, t)) >= seen + count:
            return
        assert srv.step(t), "the table stopped before the rounds were played"
    raise AssertionError(f"{kind} x{count} not reached")


def play_baccarat(srv: Srv, t: str, hands: int) -> None:
    srv.ok("alice", t, "join", {"buy_in": 200_000})
    srv.ok("bob", t, "join", {"buy_in": 100_000})
    for _ in range(hands):
        # bet at each betting window (a pushed bet stays on the layout: no second bet then)
        for _ in range(50):
            view = srv.client.get(f"/tables/{t}/view", headers=srv.headers("alice")).json()
            if any("place_bet" in p["operations"] for p in view["pending"]):
                break
            assert srv.step(t)
        bets = {b.get("player") for b in view["view"].get("bets", []) if isinstance(b, dict)}
        if "alice" not in bets:
            srv.ok("alice", t, "place_bet", {"bet": "banker", "amount": 20_000})
            srv.ok("alice", t, "place_bet", {"bet": "tie", "amount": 10_000})
        if "bob" not in bets:
            srv.ok("bob", t, "place_bet", {"bet": "player", "amount": 15_000})
        drive(srv, t, "baccarat.hand_settled", 1)


# --- real play: the figures are what was bet and paid -----------------------------------------


def test_baccarat_meters_are_what_was_bet_and_paid(srv: Srv) -> None:
    t = table(srv, "baccarat", "bac-m")
    w0 = {p: wallet(srv, p) for p in ("alice", "bob")}
    play_baccarat(srv, t, hands=4)
    # everyone leaves: a pushed bet still on the layout comes back to the stack
    srv.ok("alice", t, "leave")
    srv.ok("bob", t, "leave")
    evs = events(srv, t)
    buy_ins = sum(e["data"]["buy_in"] for e in evs if e["kind"] == "baccarat.player_joined")
    cashed = sum(e["data"]["cash_out"] for e in evs if e["kind"] == "baccarat.player_left")
    rows = [r for e in evs if e["kind"] == "baccarat.hand_settled" for r in e["data"]["results"]]
    lost = sum(r["stake"] for r in rows if r["result"] == "lose")
    won = sum(r["won"] for r in rows if r["result"] == "win")
    commission = sum(r["commission"] for r in rows)
    m = meters(srv, t)
    assert m["reconciliation"]["ok"], m["reconciliation"]
    assert m["drop"] == buy_ins == 300_000
    assert m["cash_out"] == cashed
    assert m["win"] == lost - won + commission
    # what the players lost is what the house won: their wallets say so
    assert m["win"] == sum(w0.values()) - wallet(srv, "alice") - wallet(srv, "bob")
    assert m["commission"] == commission
    assert m["handle"] == sum(r["stake"] for r in rows)
    assert m["decisions"] == len(rows) >= 12
    assert m["hold"] == M.percent(m["win"], m["drop"])
    # the theoretical: each bet's stake times its exact edge under the table's rules
    sheet = {x.name: x.house_edge for x in baccarat_par(BaccaratRules()).lines}
    theo = sum((r["stake"] * sheet[r["bet"]] for r in rows), Fraction(0))
    th = m["theoretical"]
    assert th["available"], th
    assert Fraction(th["theoretical_win_exact"]) == theo
    assert th["theoretical_win"] == round(theo)
    assert {b["bet"] for b in th["by_bet"]} == {"banker", "player", "tie"}
    assert th["hold"] == M.percent(theo, m["drop"])
    # the floor's view: the same table among the totals
    floor = srv.client.get(f"/meters?day={today(srv)}", headers=srv.headers("supervisor")).json()
    assert floor["reconciled"] is True
    (mine,) = [x for x in floor["tables"] if x["table_id"] == t]
    assert mine["win"] == m["win"]
    assert floor["totals"]["drop"] == sum(x["drop"] for x in floor["tables"])


def test_paigow_meters_when_the_house_banks(srv: Srv) -> None:
    from macau_tables.analysis.tiles import paigow_par

    t = table(srv, "paigow", "pg-m")
    w0 = wallet(srv, "alice")
    srv.ok("alice", t, "sit", {"seat": 2})
    srv.ok("alice", t, "buy_in", {"amount": 50_000})
    rounds = 3
    for _ in range(rounds):
        for _ in range(60):
            pend = srv.client.get(f"/tables/{t}/view", headers=srv.headers("alice")).json()
            mine = [p for p in pend["pending"] if p["actor"] == "player:alice"]
            ops = {o for p in mine for o in p["operations"]}
            if "decline_bank" in ops:
                srv.ok("alice", t, "decline_bank")
            elif "place_bet" in ops:
                break
            else:
                assert srv.step(t)
        banker_seat = pend["view"].get("banker_seat")
        seat = next(s for s in (2, 3) if s != banker_seat)
        srv.ok("alice", t, "place_bet", {"seat": seat, "amount": 2_000})
        drive(srv, t, "tiletable.round_settled", 1)
    stack = srv.client.get("/wallet", headers=srv.headers("alice")).json()["stacks"][
        f"stack:{t}:alice"
    ]
    srv.ok("alice", t, "cash_out", {"amount": stack})
    evs = events(srv, t)
    rows = [r for e in evs if e["kind"] == "tiletable.round_settled" for r in e["data"]["results"]]
    assert len(rows) == rounds
    assert all(e["data"]["banker"] == "house" for e in evs if e["kind"] == "tiletable.bank_opened")
    m = meters(srv, t)
    assert m["reconciliation"]["ok"], m["reconciliation"]
    assert m["drop"] == 50_000
    assert m["cash_out"] == stack
    assert m["win"] == w0 - wallet(srv, "alice") == -sum(r["net"] for r in rows)
    assert m["commission"] == sum(r["commission"] for r in rows)
    assert m["handle"] == sum(r["action"] for r in rows)
    edge = paigow_par().lines[0].house_edge
    assert Fraction(m["theoretical"]["theoretical_win_exact"]) == m["handle"] * edge


# --- reconciliation fails loudly ---------------------------------------------------------------


def test_a_posting_written_behind_the_servers_back_is_a_mismatch(srv: Srv) -> None:
    t = table(srv, "baccarat", "bac-x")
    play_baccarat(srv, t, hands=1)
    assert meters(srv, t)["reconciliation"]["ok"]
    last = events(srv, t)
    seq = srv.client.get(f"/tables/{t}", headers=srv.headers("auditor")).json()["seq"]
    assert last

    def corrupt(conn: sa.Connection) -> None:  # a balanced pair: the cage pays the house
        tx = uuid.uuid4().hex
        conn.execute(
            store.postings_t.insert(),
            [
                {"tx_id": tx, "account": "cage", "amount": -700},
                {"tx_id": tx, "account": f"house:{t}", "amount": 700},
            ],
        )
        conn.execute(
            store.transactions_t.insert().values(
                id=tx, table_id=t, seq=seq, memo="forged", n_postings=2,
                by_user=None, created_at=store.now_ms(),
            )
        )  # fmt: skip

    srv.client.portal.call(srv.floor.db.write, corrupt)  # type: ignore[union-attr]
    m = meters(srv, t, who="supervisor")
    rec = m["reconciliation"]
    assert rec["ok"] is False
    assert rec["ledger"]["win"] == rec["journal"]["win"] + 700
    assert any(f"house:{t}" in x for x in rec["mismatches"])
    assert any(x.startswith("win:") for x in rec["mismatches"])
    floor = srv.client.get(f"/meters?day={today(srv)}", headers=srv.headers("auditor")).json()
    assert floor["reconciled"] is False
