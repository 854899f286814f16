"""The dealer's console in Chromium against the live server (issue #16): at a live craps
table the dealer keys in the dice from the page — a die out of 1-6 shows the engine's
refusal and rule (CR-1) and records nothing; the dice 5 and 6 settle the Pass Line in the
ledger; the dealer applies the waiting shooter's default (CR-R7), in the audit log."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import httpx

from tests.web.conftest import Live, fund, log_in, post
from tests.web.harness import Watched, axe_violations

Open = Callable[..., Watched]
TABLE = "cr-dealer"


def command(live: Live, who: str, op: str, args: dict[str, Any]) -> Any:
    r = httpx.post(
        f"{live.url}/tables/{TABLE}/commands",
        json={"op": op, "args": args},
        headers={
            "Authorization": f"Bearer {live.token(who)}",
            "Idempotency-Key": str(uuid.uuid4()),
        },
    )
    r.raise_for_status()
    return r.json()


def test_the_dealer_keys_in_a_live_craps_round(live: Live, watched: Open) -> None:
    fund(live, "alice")
    post(live, "supervisor", "/tables", {"id": TABLE, "game": "craps", "dealer": "live"})
    command(live, "alice", "join", {"amount": 100_000})
    command(live, "alice", "place_bet", {"bet": "pass", "amount": 1_000})
    w = watched()
    log_in(w, live, "dealer")
    w.page.goto(f"{live.url}/dealer/{TABLE}")
    form = "[data-form=throw_dice]"
    w.page.wait_for_selector(f"{form}:not([hidden])")
    assert "live" in w.page.inner_text("[data-mode]")
    seq = live.get("dealer", f"/tables/{TABLE}")["seq"]
    w.expect_refusal(f"/tables/{TABLE}/commands", 422)
    w.page.fill("#die-1", "0")
    w.page.fill("#die-2", "7")
    w.page.click(f"{form} [type=submit]")
    w.page.wait_for_selector("[data-error-rule]:has-text('CR-1')")
    assert "1 to 6" in w.page.inner_text("[data-error-message]")
    assert live.get("dealer", f"/tables/{TABLE}")["seq"] == seq  # nothing recorded
    w.page.fill("#die-1", "5")
    w.page.fill("#die-2", "6")
    w.page.click(f"{form} [type=submit]")
    w.page.wait_for_selector("[data-log] li:has-text('craps.dice_thrown'):has-text('dice 5 6')")
    w.page.wait_for_selector("[data-error]", state="hidden")
    stacks = live.get("alice", "/wallet")["stacks"]
    assert stacks[f"stack:{TABLE}:alice"] == 101_000  # eleven on the come-out: Pass wins
    # the shooter is waited for; nobody times him out: the dealer applies the default
    button = "[data-default-op=pass_dice][data-default-actor='player:alice']"
    w.page.wait_for_selector(button)
    assert "CR-R7" in w.page.inner_text(button)
    w.page.click(button)
    w.page.wait_for_selector("[data-log] li:has-text('table.timed_out')")
    entry = live.get("auditor", "/audit/log")[0]
    assert (entry["user"], entry["action"]) == ("dealer", "apply_default")
    assert live.get("auditor", "/audit/ledger") == {"ok": True, "problems": []}
    assert axe_violations(w.page) == []
