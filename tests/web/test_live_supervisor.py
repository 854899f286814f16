"""The supervisor's page against the live server: one supervisor asks for a void
of a dealer-operated craps table's last round, a second supervisor approves it on his page,
and the page shows it done — the request approved, the audit log with both; the money back."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import httpx

from tests.web.conftest import Live, fund, log_in, post
from tests.web.harness import Watched, axe_violations

Open = Callable[..., Watched]


def command(live: Live, who: str, table: str, op: str, args: dict[str, Any]) -> Any:
    r = httpx.post(
        f"{live.url}/tables/{table}/commands",
        json={"op": op, "args": args},
        headers={
            "Authorization": f"Bearer {live.token(who)}",
            "Idempotency-Key": str(uuid.uuid4()),
        },
    )
    assert r.status_code == 200, r.text
    return r.json()


def stack(live: Live, table: str) -> int:
    return int(live.get("bob", "/wallet")["stacks"][f"stack:{table}:bob"])


def test_one_supervisor_requests_a_void_another_approves_and_the_page_shows_it_done(
    live: Live, watched: Open
) -> None:
    if "sam" not in live.creds:
        post(live, "administrator", "/users",
             {"name": "sam", "role": "supervisor", "password": "sam-password"})  # fmt: skip
        post(live, "administrator2", "/users/sam/approve", {"reason": "hired"})
        live.creds["sam"] = "sam-password"
    post(live, "supervisor", "/tables", {"id": "craps-sv", "game": "craps", "dealer": "live"})
    fund(live, "bob")
    command(live, "bob", "craps-sv", "join", {"amount": 100_000})
    before = stack(live, "craps-sv")
    command(live, "bob", "craps-sv", "place_bet", {"bet": "field", "amount": 1_000})
    command(live, "dealer", "craps-sv", "throw_dice", {"dice": [6, 6]})  # the Field pays 2:1
    assert stack(live, "craps-sv") == before + 2_000

    asker = watched()
    log_in(asker, live, "supervisor")
    asker.page.goto(live.url + "/supervisor")
    asker.page.wait_for_selector("[data-sv-table] option[value='craps-sv']", state="attached")
    asker.page.select_option("[data-sv-table]", "craps-sv")
    asker.page.fill("#void-reason", "a die hit the chip rack")
    asker.page.click("[data-form='void'] button[type=submit]")
    asker.page.wait_for_selector("[data-act-done]:has-text('pending')")
    row = asker.page.locator("[data-requests] tr[data-state='pending']").first
    rid = row.get_attribute("data-request")
    assert row.locator("button").count() == 0  # not his to approve

    approver = watched()
    log_in(approver, live, "sam")
    approver.page.goto(live.url + "/supervisor")
    mine = approver.page.locator(f"[data-requests] tr[data-request='{rid}']")
    mine.wait_for()
    approver.page.fill("#dec-reason", "camera 3 shows the die on the rack")
    mine.locator("button[data-verdict='approve']").click()
    approver.page.wait_for_selector(
        f"[data-requests] tr[data-request='{rid}'][data-state='approved']"
    )
    assert "supervisor → sam" in mine.inner_text()
    audit = approver.page.locator("[data-audit] tbody")
    audit.locator("td:has-text('approve:void')").first.wait_for()
    assert audit.locator("td:has-text('request:void')").count() >= 1
    assert axe_violations(approver.page) == []
    assert stack(live, "craps-sv") == before  # the Field bet refunded, its win reversed
    assert live.get("auditor", "/audit/ledger")["ok"] is True


def test_the_limits_form_serves_every_game_and_baccarat_s_other_bets(
    live: Live, watched: Open
) -> None:
    """The limits form posts to a baccarat table (its Tie limits too: the baccarat fields
    show only for a baccarat table) and to a Pai Gow table; the engines take them (BA-13)."""
    post(live, "supervisor", "/tables", {"id": "bac-lim", "game": "baccarat", "dealer": "live"})
    post(live, "supervisor", "/tables", {"id": "pg-lim", "game": "paigow", "dealer": "live"})
    w = watched()
    log_in(w, live, "supervisor")
    w.page.goto(live.url + "/supervisor")
    w.page.wait_for_selector("[data-sv-table] option[value='pg-lim']", state="attached")
    w.page.select_option("[data-sv-table]", "pg-lim")
    assert w.page.locator("[data-bac-limits]").is_hidden()
    w.page.fill("#lim-min", "50")
    w.page.fill("#lim-max", "500")
    w.page.fill("#lim-reason", "evening limits")
    w.page.click("[data-form='limits'] button[type=submit]")
    w.page.wait_for_selector("[data-act-done]:has-text('pg-lim')")
    w.page.select_option("[data-sv-table]", "bac-lim")
    assert w.page.locator("[data-bac-limits]").is_visible()
    w.page.fill("#lim-min", "200")
    w.page.fill("#lim-max", "5000")
    w.page.fill("#lim-tie-min", "200")
    w.page.fill("#lim-tie-max", "1000.50")
    w.page.fill("#lim-reason", "high limit")
    w.page.click("[data-form='limits'] button[type=submit]")
    w.page.wait_for_selector("[data-act-done]:has-text('bac-lim')")
    assert w.page.locator("[data-act-error]").inner_text() == ""
    w.page.locator("[data-audit] td:has-text('limits')").nth(1).wait_for()
    assert axe_violations(w.page) == []
    rules = live.get("supervisor", "/tables/bac-lim/view")["view"]["rules"]
    assert rules["limits"]["tie"] == [20_000, 100_050]
    assert rules["limits"]["player"] == [20_000, 500_000]
    pg = live.get("supervisor", "/tables/pg-lim/view")["view"]["rules"]["round"]
    assert (pg["min_bet"], pg["max_bet"]) == (5_000, 50_000)
