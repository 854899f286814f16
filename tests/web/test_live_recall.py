"""Recall in Chromium against the live server: a player's "my rounds" shows the craps roll
he just played, step by step, with his stake and result from the ledger; a supervisor picks
the table and sees the same round; the page is accessible at desktop and phone width."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx

from tests.web.conftest import Live, fund, log_in, post
from tests.web.harness import PHONE, Watched, axe_violations

Open = Callable[..., Watched]
TABLE = "cr-recall"


def command(live: Live, who: str, op: str, args: dict[str, Any]) -> Any:
    r = httpx.post(
        f"{live.url}/tables/{TABLE}/commands",
        json={"op": op, "args": args},
        headers={
            "Authorization": f"Bearer {live.token(who)}",
            "Idempotency-Key": str(uuid.uuid4()),
        },
    )
    assert r.status_code == 200, r.text
    return r.json()


def test_a_player_recalls_his_roll_and_a_supervisor_the_tables(live: Live, watched: Open) -> None:
    fund(live, "carol")
    post(live, "supervisor", "/tables", {"id": TABLE, "game": "craps", "options": {},
         "betting_seconds": 30, "action_seconds": 60})  # fmt: skip
    command(live, "carol", "sit", {"amount": 10_000})
    command(live, "carol", "place_bet", {"bet": "field", "amount": 1_000})
    deadline = time.monotonic() + 30
    while True:  # alone at the table, carol is the shooter
        pend = live.get("carol", f"/tables/{TABLE}/view")["pending"]
        if any(p["actor"] == "player:carol" and "throw" in p["operations"] for p in pend):
            break
        assert time.monotonic() < deadline, pend
        time.sleep(0.2)
    command(live, "carol", "throw", {})
    want = live.get("carol", "/players/carol/recall")["rounds"]
    mine = [r for r in want if r["table_id"] == TABLE]
    assert mine and mine[0]["status"] == "settled"

    carol = watched()
    log_in(carol, live, "carol")
    carol.page.goto(live.url + "/recall")
    section = carol.page.locator(f"[data-round='{TABLE}:{mine[0]['round']}']")
    section.wait_for()
    assert section.get_attribute("data-status") == "settled"
    steps = section.locator(".recall-steps > li")
    assert steps.count() == len(mine[0]["steps"])
    assert "place_bet" in steps.first.inner_text() and "player:carol" in steps.first.inner_text()
    staked = mine[0]["money"]["players"]["carol"]["staked"]
    assert f"{staked / 100:,.2f}" in section.locator("table").inner_text()
    assert axe_violations(carol.page) == []

    sup = watched(PHONE)
    log_in(sup, live, "supervisor")
    sup.page.goto(f"{live.url}/recall?table={TABLE}")
    sup.page.wait_for_selector(f"[data-round='{TABLE}:{mine[0]['round']}']")
    shown = sup.page.locator(".recall-round").evaluate_all("ns => ns.map(n => n.dataset.round)")
    rounds = live.get("auditor", f"/tables/{TABLE}/recall")["rounds"]
    assert shown == [f"{TABLE}:{r['round']}" for r in reversed(rounds)]  # newest first
    assert axe_violations(sup.page) == []
    width = sup.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
