"""The supervisor's limits form against the live server: every game's main bet, and
baccarat's other bets, on the table looked at (the pit and the void approved by a second
supervisor: tests/web/test_live_pit.py)."""

from __future__ import annotations

from collections.abc import Callable

from tests.web.conftest import Live, log_in, post
from tests.web.harness import Watched, axe_violations

Open = Callable[..., Watched]


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
    w.page.click("[data-look-at='pg-lim']")
    w.page.wait_for_selector("[data-look][data-table-id='pg-lim']")
    assert w.page.locator("[data-bac-limits]").is_hidden()
    w.page.fill("#lim-min", "50")
    w.page.fill("#lim-max", "500")
    w.page.fill("#lim-reason", "evening limits")
    w.page.click("[data-form='limits'] button[type=submit]")
    w.page.wait_for_selector("[data-act-done]:has-text('pg-lim')")
    w.page.click("[data-look-at='bac-lim']")
    w.page.wait_for_selector("[data-look][data-table-id='bac-lim']")
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
