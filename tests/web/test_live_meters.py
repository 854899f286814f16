"""The meters page against the live server: a supervisor sees every table's
figures as ``GET /meters`` has them and cannot close a day that is not over; an auditor
reads but has no close button; a player is told the page is for staff."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import httpx

from tests.web.conftest import Live, fund, log_in
from tests.web.harness import Watched, axe_violations

Open = Callable[..., Watched]


def _money(avos: int) -> str:
    return f"{avos / 100:,.2f}"


def test_meters_page_shows_the_servers_figures(live: Live, watched: Open) -> None:
    fund(live, "carol")
    r = httpx.post(
        live.url + "/tables/craps-1/commands",
        json={"op": "sit", "args": {"amount": 12_345}},
        headers={
            "Authorization": f"Bearer {live.token('carol')}",
            "Idempotency-Key": str(uuid.uuid4()),
        },
    )
    assert r.status_code == 200, r.text
    w = watched()
    log_in(w, live, "supervisor")
    w.page.goto(live.url + "/auditor")
    w.page.wait_for_selector("[data-meters] tbody tr[data-table-id='craps-1']")
    api = live.get("supervisor", "/meters")
    rows = w.page.locator("[data-meters] tbody tr")
    assert rows.evaluate_all("rs => rs.map(r => r.dataset.tableId)") == [
        t["table_id"] for t in api["tables"]
    ]
    craps = next(t for t in api["tables"] if t["table_id"] == "craps-1")
    assert craps["drop"] >= 12_345
    row = w.page.locator("tr[data-table-id='craps-1']")
    for figure in ("drop", "cash_out", "win", "commission", "handle"):
        assert row.locator(f"[data-figure={figure}]").inner_text() == _money(craps[figure])
    assert row.locator("[data-reconciled]").get_attribute("data-reconciled") == "true"
    total = w.page.locator("[data-meters] tfoot [data-total=drop]").inner_text()
    assert total == _money(api["totals"]["drop"])
    assert w.page.locator("[data-state]").inner_text().startswith("Gaming day " + api["day"])
    assert axe_violations(w.page) == []
    # today is not over: the close is refused with the server's rule
    w.expect_refusal("/meters/close", 409)
    w.page.click("[data-close]")
    w.page.wait_for_selector("[data-error]:has-text('SRV-DAY')")
    assert live.get("auditor", "/meters")["closed"] is None


def test_meters_page_is_for_staff(live: Live, watched: Open) -> None:
    auditor = watched()
    log_in(auditor, live, "auditor")
    auditor.page.goto(live.url + "/auditor")
    auditor.page.wait_for_selector("[data-meters] tbody tr")
    assert auditor.page.locator("[data-close]").is_hidden()
    assert auditor.page.locator("nav a[href='/auditor']").is_visible()
    player = watched()
    log_in(player, live, "bob")
    player.page.goto(live.url + "/auditor")
    player.page.wait_for_selector("[data-need-staff]:visible")
    assert player.page.locator("[data-meters] tbody tr").count() == 0
    assert player.page.locator("nav a[href='/auditor']").is_hidden()
