"""A wallet whose cached balance was raised in the database while the server was down
(SQLite and PostgreSQL, the ledger's check before the tables open or in the background):
the start-up's check finds it and freezes the wallet for every money path — the cashier
(deposit, withdraw; even before the background check is done), a buy-in at a table
opened since — until a supervisor resolves it with a reason; an unlock of a table runs
the whole ledger's check and is refused while it fails."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from macau_tables.server.app import create_app
from macau_tables.server.db import normalise_url
from macau_tables.server.floor import Floor
from tests.server.conftest import Srv, make_settings, new_key, wait_checked

RAISED = 50_000_000  # avos: MOP 500,000.00 that no posting put in alice's wallet


@contextmanager
def raised_while_down(srv: Srv, **settings: Any) -> Iterator[Srv]:
    """Stop ``srv``, raise alice's cached balance behind its back, start a new server."""
    url = srv.floor.settings.database_url
    assert url is not None
    srv.client.__exit__(None, None, None)
    engine = sa.create_engine(normalise_url(url))
    with engine.begin() as c:
        c.execute(
            sa.text("UPDATE accounts SET balance = balance + :d WHERE name = 'player:alice'"),
            {"d": RAISED},
        )
    engine.dispose()
    floor = Floor(make_settings(url, **settings))
    with TestClient(create_app(floor=floor)) as client:
        yield Srv(client, floor, srv.creds)


def money(srv: Srv, path: str, who: str, body: dict[str, Any]) -> Any:
    return srv.client.post(path, json=body, headers=srv.headers(who, new_key()))


def refused(r: Any, status: int, rule: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["rule"] == rule, r.text


def balance(srv: Srv, account: str) -> int:
    r = srv.client.get(f"/accounts/{account}", headers=srv.headers("auditor"))
    return int(r.json()["balance"])


@pytest.mark.parametrize("check", ["background", "startup"])
def test_a_wallet_raised_behind_the_servers_back_is_frozen_until_a_supervisor_resolves_it(
    srv: Srv, check: str
) -> None:
    wallet = balance(srv, "player:alice")
    with raised_while_down(srv, chain_check=check) as again:
        cage = balance(again, "cage")
        # at once, before the background check may be done: the cashier waits for it
        r = money(
            again, "/cashier/withdraw", "cashier", {"player": "alice", "amount": wallet + RAISED}
        )
        refused(r, 409, "SRV-FROZEN")
        wait_checked(again)
        assert "hilo-1" in again.floor.recovery.locked
        for path, amount in (("/cashier/withdraw", 100), ("/cashier/deposit", 100)):
            refused(
                money(again, path, "cashier", {"player": "alice", "amount": amount}),
                409,
                "SRV-FROZEN",
            )
        assert balance(again, "cage") == cage
        assert balance(again, "player:alice") == wallet + RAISED
        # a table opened since: a buy-in from the frozen wallet is refused, nothing recorded
        r = money(again, "/tables", "supervisor", {"id": "hilo-2", "game": "hilo"})
        assert r.status_code == 200, r.text
        seq = again.floor.tables["hilo-2"].seq
        refused(again.cmd("alice", "hilo-2", "join", {"amount": 1_000}), 409, "SRV-FROZEN")
        assert again.floor.tables["hilo-2"].seq == seq
        (row,) = again.client.get("/frozen-accounts", headers=again.headers("auditor")).json()
        assert (row["account"], row["cached"], row["posted"]) == (
            "player:alice",
            wallet + RAISED,
            wallet,
        )

        # the table's own money verifies, but the whole ledger does not: the unlock waits
        unlock = {"reason": "ledger checked"}
        refused(money(again, "/tables/hilo-1/unlock", "supervisor", unlock), 409, "SRV-LOCK")
        assert again.floor.tables["hilo-1"].status == "locked"

        resolve = "/frozen-accounts/player:alice/resolve"
        refused(money(again, resolve, "cashier", {"reason": "x"}), 403, "SRV-ROLE")
        r = money(again, resolve, "supervisor", {"reason": "cache edited outside the server"})
        assert (r.status_code, r.json()["balance"]) == (200, wallet), r.text
        assert balance(again, "player:alice") == wallet
        refused(money(again, resolve, "supervisor", {"reason": "again"}), 409, "SRV-FROZEN")
        log = again.client.get("/audit/log", headers=again.headers("auditor")).json()
        done = [e for e in log if e["action"] == "resolve_account"]
        assert [
            (e["user"], e["target"], e["data"]["cached"], e["data"]["posted"]) for e in done
        ] == [("supervisor", "player:alice", wallet + RAISED, wallet)]
        assert any(e["action"] == "freeze_account" for e in log)

        r = money(again, "/tables/hilo-1/unlock", "supervisor", unlock)
        assert (r.status_code, r.json()["status"]) == (200, "open"), r.text
        r = money(
            again, "/cashier/withdraw", "cashier", {"player": "alice", "amount": wallet + RAISED}
        )
        refused(r, 409, "SRV-FUNDS")  # what the postings hold, no more
        r = money(again, "/cashier/withdraw", "cashier", {"player": "alice", "amount": wallet})
        assert r.status_code == 200, r.text
        led = again.client.get("/audit/ledger", headers=again.headers("auditor")).json()
        assert led == {"ok": True, "problems": []}


def test_an_unlock_runs_the_whole_ledgers_check_and_waits_for_it_to_pass(srv: Srv) -> None:
    """The locked table's own journal and money verify; the ledger does not (a wallet's
    cached balance): the unlock is refused, naming the problem, until it is resolved."""
    with raised_while_down(srv, chain_check="startup") as again:
        assert "hilo-1" in again.floor.recovery.locked
        unlock = {"reason": "the table verifies"}
        r = money(again, "/tables/hilo-1/unlock", "supervisor", unlock)
        refused(r, 409, "SRV-LOCK")
        assert "player:alice caches" in r.json()["message"]
        info = again.client.get("/tables/hilo-1", headers=again.headers("auditor")).json()
        assert info["status"] == "locked"


def test_a_withdrawal_while_the_background_check_freezes_waits_for_the_freeze(
    srv: Srv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The background check found the wallet and is writing its freeze: the check is not
    done until the freeze is (a withdrawal in that window paid the raised balance)."""
    real = Floor.freeze_mismatched

    async def slow_freeze(self: Floor) -> Any:
        await asyncio.sleep(1.0)  # the window between the check's answer and the freeze
        return await real(self)

    monkeypatch.setattr(Floor, "freeze_mismatched", slow_freeze)
    wallet = balance(srv, "player:alice")
    with raised_while_down(srv, chain_check="background") as again:
        deadline = time.monotonic() + 60
        while not again.floor.recovery.ledger:  # the check has answered, not yet frozen
            assert time.monotonic() < deadline
            time.sleep(0.01)
        r = money(
            again, "/cashier/withdraw", "cashier", {"player": "alice", "amount": wallet + RAISED}
        )
        refused(r, 409, "SRV-FROZEN")
        wait_checked(again)
        assert balance(again, "player:alice") == wallet + RAISED
