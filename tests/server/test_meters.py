"""Meters and the gaming-day close: real play through the API on SQLite
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


@pytest.fixture
def msrv(srv: Srv) -> Srv:
    """The server, its gaming days beginning 12 hours from now: a test never straddles two."""
    local = datetime.now(MACAU)
    srv.floor.settings.gaming_day_start = f"{(local.hour + 12) % 24:02d}:00"
    return srv


def today(srv: Srv) -> str:
    s = srv.floor.settings
    gd = M.GamingDay.parse(s.gaming_day_start, s.gaming_day_utc_offset_minutes)
    return gd.day_of(M.now_ms()).isoformat()


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


def test_baccarat_meters_are_what_was_bet_and_paid(msrv: Srv) -> None:
    srv = msrv
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
    assert m["decisions"] == len(rows) >= 9  # 3 bets a hand, 2 after a tie (pushes stay)
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


def m_settled_net(srv: Srv, t: str) -> int:
    """What the house won in the rounds settled so far (from the settlement rows)."""
    evs = events(srv, t)
    rows = [r for e in evs if e["kind"] == "tiletable.round_settled" for r in e["data"]["results"]]
    return -sum(r["net"] for r in rows)


def test_paigow_meters_when_the_house_banks(msrv: Srv) -> None:
    srv = msrv
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
        # mid-round: the house's bank is on the table, still the house's — not a loss
        mid = meters(srv, t)
        assert mid["house_float"]["end"] == 1_000_000  # house_bank_capital
        assert mid["house_net"] == m_settled_net(srv, t) - 1_000_000
        assert mid["win"] == m_settled_net(srv, t)
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


def test_craps_meters_are_what_was_bet_and_paid(msrv: Srv) -> None:
    srv = msrv
    t = table(srv, "craps", "cr-m")
    w0 = wallet(srv, "alice")
    srv.ok("alice", t, "join", {"amount": 100_000})
    for _ in range(200):
        view = srv.client.get(f"/tables/{t}/view", headers=srv.headers("alice")).json()
        settled = [e for e in events(srv, t) if e["kind"] == "craps.roll_settled"]
        if sum(len(e["data"]["results"]) for e in settled) >= 6:
            break
        ops = {o for p in view["pending"] if p["actor"] == "player:alice" for o in p["operations"]}
        mine = [b for b in view["view"].get("bets", []) if b.get("player") == "alice"]
        if "place_bet" in ops and not mine:
            srv.ok("alice", t, "place_bet", {"bet": "pass", "amount": 1_000})
            srv.ok("alice", t, "place_bet", {"bet": "field", "amount": 500})
        elif "throw" in ops:
            srv.ok("alice", t, "throw")
        else:
            assert srv.step(t)
    srv.ok("alice", t, "leave")
    evs = events(srv, t)
    rows = [r for e in evs if e["kind"] == "craps.roll_settled" for r in e["data"]["results"]]
    assert len(rows) >= 6
    m = meters(srv, t)
    assert m["reconciliation"]["ok"], m["reconciliation"]
    assert m["drop"] == 100_000
    lost = sum(r["stake"] for r in rows if r["result"] == "lose")
    won = sum(r["won"] for r in rows if r["result"] == "win")
    assert m["win"] == lost - won == w0 - wallet(srv, "alice")
    assert m["commission"] == 0
    assert m["handle"] == sum(r["stake"] for r in rows)
    sheet = {x.name: x.house_edge for x in craps_par().lines}
    theo = sum((r["stake"] * sheet[craps_line(r["name"])] for r in rows), Fraction(0))
    assert Fraction(m["theoretical"]["theoretical_win_exact"]) == theo
    assert m["theoretical"]["unpriced_handle"] == 0


# --- reconciliation fails loudly ---------------------------------------------------------------


def test_a_posting_written_behind_the_servers_back_is_a_mismatch(msrv: Srv) -> None:
    srv = msrv
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
    assert rec["ledger"]["house_net"] == rec["journal"]["house_net"] + 700
    assert any(f"house:{t}" in x for x in rec["mismatches"])
    assert any(x.startswith("house_net:") for x in rec["mismatches"])
    floor = srv.client.get(f"/meters?day={today(srv)}", headers=srv.headers("auditor")).json()
    assert floor["reconciled"] is False
    r = srv.client.post(
        "/meters/close", json={"day": today(srv)}, headers=srv.headers("supervisor")
    )
    assert r.status_code == 409  # not over yet, and it would not reconcile either


# --- the gaming-day close ---------------------------------------------------------------------


def close(srv: Srv, day: str, who: str = "supervisor") -> Any:
    return srv.client.post("/meters/close", json={"day": day}, headers=srv.headers(who))


def test_a_day_not_over_cannot_be_closed_and_bad_days_are_refused(msrv: Srv) -> None:
    srv = msrv
    r = close(srv, today(srv))
    assert (r.status_code, r.json()["rule"], r.json()["error"]) == (409, "SRV-DAY", "day_not_over")
    tomorrow = (date.fromisoformat(today(srv)) + timedelta(days=1)).isoformat()
    assert close(srv, tomorrow).status_code == 409
    for bad in ("2026-13-01", "yesterday", ""):
        r = close(srv, bad)
        assert (r.status_code, r.json()["rule"]) == (422, "SRV-DAY"), bad
        r = srv.client.get(f"/meters?day={bad}", headers=srv.headers("auditor"))
        assert (r.status_code, r.json()["rule"]) == (422, "SRV-DAY"), bad
    r = srv.client.post(
        "/meters/close", json={"day": "2020-01-01", "x": 1}, headers=srv.headers("supervisor")
    )
    assert (r.status_code, r.json()["rule"]) == (422, "SRV-INPUT")
    assert close(srv, "2020-01-01", who="auditor").status_code == 403
    r = srv.client.get("/tables/nope/meters", headers=srv.headers("auditor"))
    assert (r.status_code, r.json()["rule"]) == (404, "SRV-TABLE")


def test_the_close_stores_the_day_and_later_reads_are_stable(
    msrv: Srv, monkeypatch: pytest.MonkeyPatch
) -> None:
    srv = msrv
    t = table(srv, "baccarat", "bac-c")
    play_baccarat(srv, t, hands=2)
    day = today(srv)
    live = srv.client.get(f"/meters?day={day}", headers=srv.headers("auditor")).json()
    assert live["closed"] is None and live["over"] is False
    real = M.now_ms
    monkeypatch.setattr(M, "now_ms", lambda: real() + 86_400_000)  # the day is over
    r = close(srv, day)
    assert r.status_code == 200, r.text
    closed = r.json()
    assert closed["closed"]["by"] == "supervisor"
    assert closed["over"] is True and closed["reconciled"] is True
    (mine,) = [x for x in closed["tables"] if x["table_id"] == t]
    before = {k: mine[k] for k in (*M.FIGURES, "win", "handle")}
    assert before["drop"] == 300_000 and before["handle"] > 0
    # idempotent: closing again returns the very same figures, and is logged once
    again = close(srv, day)
    assert again.status_code == 200 and again.json() == closed
    log = srv.client.get("/audit/log", headers=srv.headers("auditor")).json()
    assert [x["target"] for x in log if x["action"] == "meters_close"] == [day]
    # play goes on (the clock here says the same day): the closed day does not move
    srv.ok("carol", t, "join", {"buy_in": 50_000})
    srv.ok("carol", t, "place_bet", {"bet": "player", "amount": 10_000})
    drive(srv, t, "baccarat.hand_settled", 1)
    read = meters(srv, t, day=day)
    assert {k: read[k] for k in before} == before
    assert read["closed"] == closed["closed"]
    # … while the live figures of the same window did move
    from macau_tables.server.api.meters import day_report

    fresh = srv.client.portal.call(day_report, srv.floor, date.fromisoformat(day))  # type: ignore[union-attr]
    (now,) = [x for x in fresh["tables"] if x["table_id"] == t]
    assert now["drop"] == before["drop"] + 50_000
    # the database keeps a closed day as it is
    with pytest.raises(Exception, match="append-only"):
        srv.floor.db.write_sync(
            lambda c: c.execute(
                sa.delete(store.meter_days_t).where(store.meter_days_t.c.day == day)
            )
        )


def test_a_day_that_does_not_reconcile_cannot_be_closed(
    msrv: Srv, monkeypatch: pytest.MonkeyPatch
) -> None:
    srv = msrv
    t = table(srv, "baccarat", "bac-y")
    play_baccarat(srv, t, hands=1)
    seq = srv.client.get(f"/tables/{t}", headers=srv.headers("auditor")).json()["seq"]

    def corrupt(conn: sa.Connection) -> None:  # the house pays itself from the wagers
        tx = uuid.uuid4().hex
        conn.execute(
            store.postings_t.insert(),
            [
                {"tx_id": tx, "account": f"wagers:{t}", "amount": -1},
                {"tx_id": tx, "account": f"house:{t}", "amount": 1},
            ],
        )
        conn.execute(
            store.transactions_t.insert().values(
                id=tx, table_id=t, seq=seq + 1000, memo="no such entry", n_postings=2,
                by_user=None, created_at=store.now_ms(),
            )
        )  # fmt: skip

    srv.client.portal.call(srv.floor.db.write, corrupt)  # type: ignore[union-attr]
    rec = meters(srv, t)["reconciliation"]
    assert rec["ok"] is False and rec["ledger"]["house_net"] == rec["journal"]["house_net"] + 1
    day, real = today(srv), M.now_ms
    monkeypatch.setattr(M, "now_ms", lambda: real() + 86_400_000)
    r = close(srv, day)
    assert (r.status_code, r.json()["rule"]) == (409, "SRV-METERS")
    assert f"wagers:{t}" in r.json()["message"]
    log = srv.client.get("/audit/log", headers=srv.headers("auditor")).json()
    assert not [x for x in log if x["action"] == "meters_close"]


NO_NUMPY = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("numpy", "numba"):
            raise ImportError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Block())
from macau_tables.server.app import create_app  # the server imports without numpy
from macau_tables.analysis import theoretical as th
from macau_tables.games.craps import CrapsRules
try:
    th.edges("taiwan", {})
except th.Unavailable as exc:
    print(exc.message)
print(len(th.edges("craps", CrapsRules().to_json()).lines))
"""


def test_without_numpy_the_tile_theoretical_says_it_is_unavailable() -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    src = Path(__file__).resolve().parents[2] / "src"
    out = subprocess.run(
        [sys.executable, "-c", NO_NUMPY],
        env={**os.environ, "PYTHONPATH": str(src), "MACAU_TABLES_CACHE": "off"},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.splitlines()
    assert out == [
        "theoretical: unavailable (install macau-tables[fast]: numpy is missing)",
        str(len(craps_par().lines)),
    ]


def _settled(actions: list[int]) -> Any:
    from macau_tables.games.tiles import RoundSettled

    rows = tuple(
        {"bet_id": f"b{i}", "player": "bob", "seat": 3, "amount": a, "outcome": "win",
         "action": a, "net": 0, "commission": 0, "seat_result": "win"}
        for i, a in enumerate(actions)
    )  # fmt: skip
    return RoundSettled(
        table_id="pg", round_no=1, currency="MOP", hands=(), settings=(), resets=(),
        results=rows, bank_shares=(), commissions=(), compensation=(), postings=(), closes=(),
    )  # fmt: skip


def test_a_players_bank_earns_the_house_its_expected_commission() -> None:
    """PG-4.2 / PG-R5: when a player banks, the house's theoretical is the commission it
    expects from both sides — the player's edge plus the banker's, per unit in action (the
    game is otherwise zero-sum between them); its co-bank share (PG-3.1) swaps that share of
    the bank's commission for the bank's result. The round's bank may open before the day."""
    from macau_tables.analysis import theoretical as th
    from macau_tables.analysis.tiles import paigow_par
    from macau_tables.games.tiles import BankOpened, CoBankJoined

    line = paigow_par().lines[0]
    edges = th.edges("paigow", {"game": "paigow"})
    player_bank = edges.edge(th.Wager(th.PLAYER_BANK, 1))
    assert player_bank == line.house_edge + line.extras["banker_edge"]
    assert player_bank == Fraction(4, 100) * (line.extras["p_win"] + line.extras["p_loss"])
    assert edges.edge(th.Wager(th.HOUSE_BANK, 1)) == line.house_edge
    opened = BankOpened(
        table_id="pg", round_no=1, banker="alice", seat=2, capital=6_000, house_capital=2_000,
        currency="MOP", holds=("h1", "h2"),
    )  # fmt: skip
    joined = CoBankJoined(table_id="pg", hold="h3", player="carol", capital=2_000, currency="MOP")
    wagers = th.decided_bets([_settled([1_000, 0, 500])], context=[opened, joined])
    assert wagers == [
        th.Wager(th.PLAYER_BANK, 1_000, Fraction(1, 5)),
        th.Wager(th.PLAYER_BANK, 500, Fraction(1, 5)),
    ]
    c, pw, pl = Fraction(4, 100), line.extras["p_win"], line.extras["p_loss"]
    assert edges.edge(wagers[0]) == c * pw + Fraction(4, 5) * c * pl + Fraction(1, 5) * (pl - pw)
    house = BankOpened(
        table_id="pg", round_no=2, banker="house", seat=1, capital=10_000, house_capital=0,
        currency="MOP", holds=("h4",),
    )  # fmt: skip
    assert th.decided_bets([house, _settled([700])]) == [th.Wager(th.HOUSE_BANK, 700)]


@pytest.mark.parametrize("bad", ["25:00", "6", "06:60", "noon"])
def test_serve_refuses_a_bad_gaming_day_start_in_one_line(bad: str) -> None:
    from typer.testing import CliRunner

    from macau_tables.cli.app import app

    result = CliRunner().invoke(app, ["serve", "--gaming-day-start", bad, "--port", "1"])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert "--gaming-day-start" in result.output


def test_a_house_bank_across_the_boundary_stays_the_houses() -> None:
    """A round the house banks opens before 06:00 and settles after: its capital left the
    house's account on one day and came back on the next; the win of each day counts it as
    the house's all along (house_float), so neither day shows it as a loss or a gain."""
    from macau_tables.analysis import theoretical as th
    from macau_tables.games.tiles import BankOpened, RoundSettled

    opened = BankOpened(
        table_id="pg", round_no=1, banker="house", seat=1, capital=10_000, house_capital=0,
        currency="MOP", holds=("pg:r1:bank",),
    )  # fmt: skip
    settled = RoundSettled(
        table_id="pg", round_no=1, currency="MOP", hands=(), settings=(), resets=(),
        results=(), bank_shares=(), commissions=(), compensation=(),
        postings=(("bank:pg", -10_000), ("house:pg", 10_000)), closes=("pg:r1:bank",),
    )  # fmt: skip
    assert th.house_float([opened]) == 10_000
    assert th.house_float([opened, settled]) == 0
    day1 = M.table_meters(M.DayData("pg", "paigow", None, [opened], [], M.journal_flows([opened])))
    day2 = M.table_meters(
        M.DayData("pg", "paigow", None, [settled], [opened], M.journal_flows([settled]))
    )
    assert (day1["house_net"], day1["house_float"], day1["win"]) == (
        -10_000, {"start": 0, "end": 10_000}, 0,
    )  # fmt: skip
    assert (day2["house_net"], day2["house_float"], day2["win"]) == (
        10_000, {"start": 10_000, "end": 0}, 0,
    )  # fmt: skip
    assert day1["reconciliation"]["ok"] and day2["reconciliation"]["ok"]
    assert day1["theoretical"] == {
        "available": False,
        "reason": "the table's journal has no rule set",
    }


ACCOUNTS = ["player:ann", "player:ben", "stack:t:ann", "stack:t:ben", "wagers:t", "bank:t",
            "house:t", "commission:t"]  # fmt: skip


@given(
    st.lists(
        st.tuples(
            st.sampled_from(ACCOUNTS), st.sampled_from(ACCOUNTS), st.integers(1, 10**9)
        ).filter(lambda x: x[0] != x[1]),
        max_size=40,
    )
)
@example([("player:ann", "stack:t:ann", 5), ("stack:t:ann", "house:t", 5)])
def test_the_money_that_came_to_the_table_is_on_it_or_the_houses(
    transfers: list[tuple[str, str, int]],
) -> None:
    """drop − cash-out = what the stacks, the wagers and the bank gained + the house's net
    (every transaction balances): no figure counts money twice or loses any."""
    postings = [p for src, dst, a in transfers for p in ((src, -a), (dst, a))]
    flows = M.flows_of(postings)
    f = M.figures("t", flows)
    net = {a: i - o for a, (i, o) in flows.items()}
    on_table = sum(v for a, v in net.items() if a.split(":")[0] in ("stack", "wagers", "bank"))
    assert f["drop"] - f["cash_out"] == on_table + f["house_net"]
    assert f["commission"] == net.get("commission:t", 0)
    assert f["wagered"] == sum(a for _, dst, a in transfers if dst == "wagers:t")


def test_the_journal_and_the_ledger_are_read_at_one_instant(
    msrv: Srv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A posting committed between the journal's read and the ledger's (here a forged one,
    so that it shows) is not in the day's figures: both sides come from one snapshot. On
    PostgreSQL's default READ COMMITTED each statement would see it."""
    srv = msrv
    t = table(srv, "baccarat", "bac-s")
    srv.ok("alice", t, "join", {"buy_in": 100_000})
    seq = srv.client.get(f"/tables/{t}", headers=srv.headers("auditor")).json()["seq"]
    original = M.ledger_flows
    wrote: list[str] = []

    def forge(conn: sa.Connection) -> None:
        tx = uuid.uuid4().hex
        conn.execute(
            store.postings_t.insert(),
            [
                {"tx_id": tx, "account": "cage", "amount": -300},
                {"tx_id": tx, "account": f"stack:{t}:alice", "amount": 300},
            ],
        )
        conn.execute(
            store.transactions_t.insert().values(
                id=tx, table_id=t, seq=seq, memo="between the reads", n_postings=2,
                by_user=None, created_at=store.now_ms(),
            )
        )  # fmt: skip
        wrote.append(tx)

    def ledger_then(conn: sa.Connection, table_id: str, start: int, end: int) -> M.Flows:
        if not wrote:
            srv.floor.db.write_sync(forge)  # another connection commits now
        return original(conn, table_id, start, end)

    monkeypatch.setattr(M, "ledger_flows", ledger_then)
    assert meters(srv, t)["reconciliation"]["ok"] is True
    assert wrote
    rec = meters(srv, t)["reconciliation"]  # the next read sees it
    assert rec["ok"] is False
    assert rec["mismatches"] == [
        "cage: in/out (0, 300) in the ledger but (0, 0) by the journal",
        f"stack:{t}:alice: in/out (100300, 0) in the ledger but (100000, 0) by the journal",
    ]


def test_only_the_events_that_move_money_are_read() -> None:
    from macau_tables.core.journal import money_kinds

    kinds = money_kinds()
    assert {"baccarat.hand_settled", "baccarat.player_joined", "craps.roll_settled"} <= kinds
    assert {"tiletable.bank_opened", "tiletable.round_settled", "tiletable.chips_bought"} <= kinds
    assert not {"baccarat.cards_dealt", "table.seed_revealed", "tiletable.tiles_dealt"} & kinds
