"""The lobby as a player uses it, in Chromium against the live server: each table's limits,
seats taken (as the table's view has them) and, for baccarat, its big road; the filters
by game and by stakes; tables picked and opened side by side, live, the one that needs me
marked (and counted in the page's title)."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Locator

from tests.web.conftest import Live, fund, log_in
from tests.web.harness import Watched
from tests.web.player import open_table, seated, words_are_words

Open = Callable[..., Watched]
HIGH = "pl-high"  # a baccarat table whose minimum is MOP 2,000: the high stakes
LIMITS = {
    "limits": {
        "player": [200_000, 5_000_000],
        "banker": [200_000, 5_000_000],
        "tie": [200_000, 500_000],
        "banker_pair": [200_000, 500_000],
        "player_pair": [200_000, 500_000],
    },
    "differential_limit": 5_000_000,
}


def minimum(card: Locator) -> float:
    """A lobby card's minimum bet in MOP, as its limits read (none: 0)."""
    text = card.locator("[data-limits]").text_content() or ""
    found = re.match(r"MOP ([\d,.]+) –", text)
    return float(found.group(1).replace(",", "")) if found else 0.0


def test_the_lobby_filters_and_opens_tables_side_by_side(live: Live, watched: Open) -> None:
    fund(live, "alice")
    open_table(live, HIGH, "baccarat", options=LIMITS)
    open_table(live, "pl-lobby-craps", "craps", betting_seconds=30, action_seconds=90)
    seated(live, "alice", "pl-lobby-craps", amount=20_000)  # the shooter: the rules wait for her
    w = watched()
    log_in(w, live, "alice")
    cards = w.page.locator("[data-lobby] article")
    w.page.wait_for_selector(f"[data-lobby] article[data-table-id='{HIGH}']")
    # seats as the table's view has them; baccarat's big road on its card
    view = live.get("alice", "/tables/baccarat-1/view")["view"]
    taken = sum(1 for p in view["players"] if p["seat"] is not None)
    bac = w.page.locator("article[data-table-id='baccarat-1']")
    assert bac.locator("[data-seats]").inner_text() == f"{taken} of 7 taken"
    assert bac.locator("[data-road] svg.road").count() == 1
    high = w.page.locator(f"article[data-table-id='{HIGH}']")
    assert high.locator("[data-limits]").inner_text() == "MOP 2,000.00 – MOP 50,000.00"
    # by game: craps only
    w.page.select_option("[data-filter=game]", "craps")
    games = {a.get_attribute("data-game"): a.is_visible() for a in cards.all()}
    visible = [a.get_attribute("data-game") for a in cards.all() if a.is_visible()]
    assert visible and set(visible) == {"craps"}, visible
    assert len(visible) == sum(1 for a in cards.all() if a.get_attribute("data-game") == "craps")
    assert set(games) >= {"craps", "baccarat"}
    assert "game=craps" in w.page.url
    # by stakes: over MOP 1,000 minimum — the high table alone
    w.page.select_option("[data-filter=game]", "")
    w.page.select_option("[data-filter=stakes]", "high")
    shown = [a.get_attribute("data-table-id") for a in cards.all() if a.is_visible()]
    assert shown == [HIGH]
    # over MOP 100 up to MOP 1,000: the cards whose shown minimum is in that band (other
    # tests of this server may have opened some), else the page says none matches
    ids = {a.get_attribute("data-table-id") or "": a for a in cards.all()}
    mid = sorted(t for t, a in ids.items() if 100 < minimum(a) <= 1000)
    w.page.select_option("[data-filter=stakes]", "mid")
    if mid:
        shown = sorted(t for t, a in ids.items() if a.is_visible())
        assert shown == mid
    else:
        w.page.wait_for_selector("[data-none]")
    w.page.select_option("[data-filter=stakes]", "")
    # two tables side by side
    for table in ("pl-lobby-craps", HIGH):
        w.page.check(f"article[data-table-id='{table}'] [data-pick]")
    link = w.page.locator("[data-open-multi]")
    assert link.inner_text() == "Open side by side (2)"
    link.click()
    w.page.wait_for_url("**/multi?tables=*")
    roots = w.page.locator("[data-table]")
    assert roots.count() == 2
    ids = roots.evaluate_all("rs => rs.map(r => r.dataset.tableId)")
    assert ids == ["pl-lobby-craps", HIGH]
    for table in ids:
        root = f"[data-table][data-table-id='{table}']"
        w.page.wait_for_selector(f"{root} [data-status]:not(:has-text('—'))")
    # the craps table waits for its shooter: flagged; at the high table she has no seat: not
    craps = w.page.locator("[data-table][data-table-id='pl-lobby-craps']")
    w.page.wait_for_selector("[data-table][data-table-id='pl-lobby-craps'][data-needs-me='true']")
    assert craps.locator("[data-needs-me]").is_visible()
    high_root = f"[data-table][data-table-id='{HIGH}']"
    assert w.page.get_attribute(high_root, "data-needs-me") == "false"
    assert w.page.title().startswith("(1) ")
    # each plays live here: the shooter throws from this view
    craps.locator("[data-throw]:enabled").click()
    craps.locator("[data-dice] svg").first.wait_for()
    words_are_words(w)
