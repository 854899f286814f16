"""The craps page draws the craps engine's own view exactly: a table played in Python (a pass
line bet, a field bet, a come-out 4, odds) is handed to the page as the server's WebSocket
sends it, so the point, the odds and a settled one-roll bet are all on the page at once
(the live round is in test_live_craps.py)."""

from __future__ import annotations

from collections.abc import Callable

from macau_tables.core.visibility import Viewer
from macau_tables.games.contract import Actor, Command
from macau_tables.games.craps import CrapsTable
from tests.web.conftest import Live, log_in
from tests.web.harness import Watched, axe_violations

Open = Callable[..., Watched]


def played() -> CrapsTable:
    t = CrapsTable((), table_id="craps-view")
    t.execute(Command(Actor.player("alice"), "sit", {"amount": 100_000}))
    t.execute(Command(Actor.player("alice"), "place_bet", {"bet": "pass", "amount": 10_000}))
    t.execute(Command(Actor.player("alice"), "place_bet", {"bet": "field", "amount": 10_000}))
    t.execute(Command(Actor.DEALER, "throw_dice", {"dice": [1, 3]}))  # CR-2.1: point 4
    odds = {"bet": "pass_odds", "amount": 5_000, "on": 1}  # CR-2.2: at most half at 2:1
    t.execute(Command(Actor.player("alice"), "place_bet", odds))
    return t


def test_the_craps_view_is_drawn_as_the_engine_has_it(live: Live, watched: Open) -> None:
    t = played()
    view = t.view(Viewer.player("alice"))
    pending = [p.to_json() for p in t.pending()]
    state = {"type": "state", "table_id": "craps-view", "seq": 9, "status": "open",
             "view": view, "pending": pending, "countdown": None}  # fmt: skip
    w = watched()
    log_in(w, live, "alice")
    w.page.goto(f"{live.url}/table/craps/craps-view?lang=zh")
    w.page.wait_for_selector("[data-conn]:has-text('SRV-TABLE')")  # no such table on the server
    w.page.evaluate("s => window.macauTable.receive(s)", state)
    assert w.page.locator("[data-puck] svg").get_attribute("aria-label") == "ON 4"
    assert [d.get_attribute("aria-label") for d in w.page.locator("[data-dice] svg").all()] == [
        "die 1",
        "die 3",
    ]
    assert w.page.locator("[data-dice-total]").inner_text() == "4"
    assert w.page.locator("[data-shooter]").inner_text() == "alice"
    rows = [r.inner_text().split("\t") for r in w.page.locator("[data-open-bets] tr").all()]
    assert rows == [["過關", "4", "100.00", "有效"], ["過關額外投注", "4", "50.00", "有效"]]
    assert w.page.locator("[data-amount=pass]").inner_text() == "100.00"
    assert w.page.locator("[data-amount=field]").inner_text() == ""  # settled on the 4 (CR-4)
    # the layout: every flat bet of the Portaria and the line's odds, enabled while alice may
    # bet (this table is not on the server: no answer of what it takes now) but the odds she
    # has no bet for; her odds drawn
    # on top of the Pass Line, the Don't Pass odds hidden (she has no Don't Pass bet)
    from macau_tables.games.craps import BET_KINDS

    flats = [k for k, b in BET_KINDS.items() if b.on is None]
    assert w.page.locator("[data-spot]").count() == len(flats) + 2 == 20
    assert w.page.locator("[data-spot]:enabled").count() == 19
    assert w.page.locator("[data-spot=pass_odds]").is_visible()
    assert w.page.locator("[data-spot=dont_pass_odds]").is_hidden()
    assert w.page.locator("[data-spot=dont_pass_odds]").is_disabled()  # no bet to lay them on
    assert w.page.locator("[data-amount=pass_odds]").inner_text() == "50.00"
    assert w.page.locator("[data-box='4'].point [data-box-puck] svg").count() == 1
    assert w.page.locator("[data-throw]").is_disabled()
    bar = w.page.locator("[data-actions] button").evaluate_all(
        "bs => bs.map(b => b.dataset.action)"
    )
    assert "pass_dice" in bar
    assert "place_bet" not in bar  # the layout places bets
    assert axe_violations(w.page) == []
