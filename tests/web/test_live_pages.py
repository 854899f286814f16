"""Every page against the live server, logged in, in Chromium at desktop and phone width:
no console error, no serious or critical axe violation; the cashier moves money the ledger
shows; a table page for a table that does not exist says so."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.web.conftest import Live, log_in
from tests.web.harness import DESKTOP, PHONE, Watched, axe_violations

Open = Callable[..., Watched]
PAGES = [
    "/",
    "/login",
    "/cashier",
    "/history",
    "/auditor",
    "/par?game=taiwan",
    "/table/hilo/hilo-1",
    "/table/baccarat/baccarat-1",
    "/table/craps/craps-1",
    "/table/paigow/paigow-1",
    "/table/taiwan/taiwan-1",
    "/supervisor",
]


@pytest.mark.parametrize(
    ("lang", "viewport"), [("en", DESKTOP), ("zh", PHONE)], ids=["en-desktop", "zh-phone"]
)
def test_every_page_is_accessible_and_error_free(
    live: Live, watched: Open, viewport: dict[str, int], lang: str
) -> None:
    w = watched(viewport)
    log_in(w, live, "bob")
    for path in PAGES:
        sep = "&" if "?" in path else "?"
        w.page.goto(f"{live.url}{path}{sep}lang={lang}")
        w.page.wait_for_load_state("load")
        w.settle()
        if path.startswith("/par"):
            w.page.wait_for_selector("#sheet table", timeout=60_000)
        assert axe_violations(w.page) == [], path
        width = w.page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], path
        # the switch on every page: the page's language, and a link to each of the two others
        assert w.page.locator("header .langs").count() == 1
        assert w.page.locator("header .langs a.lang").count() == 2


def test_lobby_lists_the_servers_tables(live: Live, watched: Open) -> None:
    w = watched()
    log_in(w, live, "carol")
    tables = live.get("carol", "/tables")
    w.page.wait_for_selector("[data-lobby] article")
    shown = w.page.locator("[data-lobby] article").evaluate_all(
        "nodes => nodes.map(n => n.dataset.tableId)"
    )
    assert shown == [t["id"] for t in tables]
    w.page.click("a:has-text('hilo-1')")
    w.page.wait_for_url(live.url + "/table/hilo/hilo-1")


def test_cashier_deposit_shows_the_ledgers_balance(live: Live, watched: Open) -> None:
    before = live.get("carol", "/wallet")["wallet"]
    cashier = watched()
    log_in(cashier, live, "cashier")
    cashier.page.goto(live.url + "/cashier")
    cashier.page.fill("#player", "carol")
    cashier.page.fill("#amount", "250.50")
    cashier.page.click("button[value=deposit]")
    done = cashier.page.locator("[data-done]")
    done.filter(has_text="carol").wait_for()
    assert "player:" not in done.inner_text()  # no ledger account names
    assert done.get_attribute("data-balance") == str(before + 25_050)
    assert live.get("carol", "/wallet")["wallet"] == before + 25_050
    cashier.expect_refusal("/cashier/withdraw", 409)
    cashier.page.fill("#amount", "999999999")  # more than she has: refused, nothing moves
    cashier.page.click("button[value=withdraw]")
    cashier.page.wait_for_selector("[data-error]:has-text('SRV-FUNDS')")
    carol = watched()
    log_in(carol, live, "carol")
    carol.page.goto(live.url + "/cashier")
    balance = carol.page.locator("[data-balance]")
    balance.wait_for()
    assert balance.get_attribute("data-balance") == str(before + 25_050)
    assert balance.inner_text() == f"MOP {(before + 25_050) / 100:,.2f}"


@pytest.mark.parametrize("game", ["baccarat", "craps", "paigow", "taiwan"])
def test_a_table_that_does_not_exist_says_so(live: Live, watched: Open, game: str) -> None:
    w = watched()
    log_in(w, live, "alice")
    w.page.goto(f"{live.url}/table/{game}/no-such-table")
    w.page.wait_for_selector("[data-conn]:has-text('SRV-TABLE')")
