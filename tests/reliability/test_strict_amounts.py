"""Every amount of money a request names is a JSON integer of avos: ``100.0``, ``"100"``
and ``true`` (which pydantic's lax mode took for 100, 100 and 1 avo) are refused 422
``SRV-INPUT`` by the one schema (``schemas.Avos``), and nothing is posted."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from macau_tables.server import store
from tests.reliability.conftest import Srv
from tests.server.conftest import new_key

#: what the probe sent, and their kin: each of them pydantic's lax ``int`` took
LAX = [100.0, "100", True, 1.0]


def _postings(srv: Srv) -> int:
    return int(
        srv.client.portal.call(
            srv.floor.db.read,
            lambda c: c.execute(sa.select(sa.func.count()).select_from(store.postings_t)).scalar(),
        )
    )


def _wallet(srv: Srv, who: str) -> int:
    r = srv.client.get("/wallet", headers=srv.headers(who))
    assert r.status_code == 200, r.text
    return int(r.json()["wallet"])


def _refused_input(r: Any, field: str) -> None:
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["rule"] == "SRV-INPUT", body
    assert field in body["message"], body


@pytest.mark.parametrize("direction", ["deposit", "withdraw"])
@pytest.mark.parametrize("amount", LAX, ids=repr)
def test_the_cashier_takes_integer_avos_only(srv: Srv, direction: str, amount: Any) -> None:
    before, wallet = _postings(srv), _wallet(srv, "alice")
    r = srv.client.post(
        f"/cashier/{direction}",
        json={"player": "alice", "amount": amount},
        headers=srv.headers("cashier", new_key()),
    )
    _refused_input(r, "body.amount")
    assert _postings(srv) == before
    assert _wallet(srv, "alice") == wallet


def test_the_cashier_still_takes_an_integer(srv: Srv) -> None:
    wallet = _wallet(srv, "alice")
    srv.deposit("alice", 100)
    assert _wallet(srv, "alice") == wallet + 100


@pytest.mark.parametrize("amount", LAX, ids=repr)
@pytest.mark.parametrize("field", ["min_bet", "max_bet", "differential", "bets"])
def test_limits_take_integer_avos_only(srv: Srv, field: str, amount: Any) -> None:
    """Refused by the body's schema, before the table's engine is asked (Hi-Lo's would
    answer 409 ``SRV-UNSUPPORTED``: it has no limits to change)."""
    body: dict[str, Any] = {"min_bet": 100, "max_bet": 10_000, "reason": "new limits"}
    body[field] = {"tie": [amount, 1000]} if field == "bets" else amount
    r = srv.client.post("/tables/hilo-1/limits", json=body, headers=srv.headers("supervisor"))
    _refused_input(r, f"body.{field}")


# --- a command's amounts: the engines' checks (a guard: they were strict already) ---------


@pytest.mark.parametrize("amount", [100.0, "100", True, False, [100]], ids=repr)
def test_a_buy_in_takes_integer_avos_only(lite: Srv, amount: Any) -> None:
    r = lite.client.post(
        "/tables", json={"id": "craps-9", "game": "craps"}, headers=lite.headers("supervisor")
    )
    assert r.status_code == 200, r.text
    lite.ok("alice", "craps-9", "join")
    before, wallet = _postings(lite), _wallet(lite, "alice")
    for table, op in (("craps-9", "buy_in"), ("hilo-1", "join")):
        r = lite.cmd("alice", table, op, {"amount": amount})
        assert r.status_code == 422, r.text
        assert r.json()["rule"] in ("SRV-INPUT", "SRV-AMOUNT", "HL-1"), r.text
    assert _postings(lite) == before
    assert _wallet(lite, "alice") == wallet
