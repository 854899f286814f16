"""Concurrent withdrawals from one wallet that covers only some of them: each is paid or
refused 409 SRV-FUNDS — never a 5xx, never a traceback in the log — and the ledger stays
balanced (SQLite and PostgreSQL; on PostgreSQL the wallet's row is locked before its
balance is read)."""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.server.conftest import Srv, new_key

N, K, EACH = 8, 3, 1_000_000  # eight withdrawals of MOP 10,000; the wallet covers three


def _withdraw(srv: Srv, headers: dict[str, str]) -> Any:
    return srv.client.post(
        "/cashier/withdraw",
        json={"player": "alice", "amount": EACH},
        headers={**headers, "Idempotency-Key": new_key()},
    )


def test_concurrent_withdrawals_pay_k_and_refuse_the_rest_with_srv_funds(
    srv: Srv, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    headers = srv.headers("cashier")
    have = srv.client.get("/wallet", headers=srv.headers("alice")).json()["wallet"]
    srv.deposit("alice", K * EACH - have)  # the wallet holds exactly K withdrawals
    with ThreadPoolExecutor(N) as pool:
        replies = list(pool.map(lambda _: _withdraw(srv, headers), range(N)))
    statuses = sorted(r.status_code for r in replies)
    assert statuses == [200] * K + [409] * (N - K), [r.text for r in replies]
    for r in replies:
        if r.status_code == 409:
            assert r.json()["rule"] == "SRV-FUNDS", r.text
    assert srv.client.get("/wallet", headers=srv.headers("alice")).json()["wallet"] == 0
    audit = srv.client.get("/audit/ledger", headers=srv.headers("auditor")).json()
    assert audit == {"ok": True, "problems": []}
    noisy = [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]
    assert noisy == [], [r.getMessage() for r in noisy]
