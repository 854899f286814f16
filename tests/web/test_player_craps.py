"""Craps as a player plays it, in Chromium against the live server: the Pass Line bet in
chips, the puck ON the point's box, the line's spots marked closed with the engine's reason
(CR-R6), the odds on top of the line within the cap (CR-2.2), a Come bet moved to its
number with its odds drawn on top, every bet working; the shooter throws from the page
until the line is decided: my result on the spot and in the rolls, my chips the ledger's."""

from __future__ import annotations

from collections.abc import Callable

from tests.web.conftest import Live, fund, log_in
from tests.web.harness import Watched
from tests.web.player import (
    chips,
    confirm,
    events,
    frames_of,
    open_table,
    stack_is_the_ledgers,
    words_are_words,
)

Open = Callable[..., Watched]
TABLE = "pl-craps"


def test_a_shooters_round_with_chips_odds_and_a_come_bet(live: Live, watched: Open) -> None:
    fund(live, "alice")
    open_table(live, TABLE, "craps", betting_seconds=30, action_seconds=60)
    w = watched()
    frames = frames_of(w)
    log_in(w, live, "alice")
    w.page.goto(f"{live.url}/table/craps/{TABLE}")
    w.page.fill("[data-action-amount]", "2000")
    w.page.click("[data-join]")
    w.page.wait_for_selector("[data-my-seat]:has-text('alice')")
    w.page.wait_for_selector("[data-spot=pass]:enabled", timeout=30_000)
    # the come-out: the puck is OFF; a Come bet needs a point (CR-R6): marked, not taken
    assert w.page.get_attribute("[data-puck] svg", "aria-label") == "OFF"
    w.page.wait_for_selector("[data-spot=come].closed")
    assert "CR-R6" in (w.page.get_attribute("[data-spot=come]", "title") or "")
    chips(w, "pass", 100)
    confirm(w, "pass", 10_000)
    w.page.wait_for_selector("[data-you-shoot]:visible")
    decided: list[dict] = []
    odds_done = come_moved = False
    since = -1  # the line bet of this come-out: decided in the rolls after it
    for _ in range(150):
        w.page.click("[data-throw]:enabled", timeout=30_000)
        w.page.wait_for_timeout(400)
        rolled = events(frames, "craps.roll_settled")
        decided = [r for f in rolled if f["seq"] > since for r in f["event"]["data"]["results"]
                   if r["player"] == "alice" and r["name"].startswith("Pass Line")]  # fmt: skip
        if decided and odds_done:
            break
        if decided:  # decided on the come-out (CR-2.1: 7, 11, craps): bet the line again
            since = rolled[-1]["seq"]
            chips(w, "pass", 100)
            confirm(w, "pass", 10_000)
            continue
        point = rolled[-1]["event"]["data"]["point_after"] if rolled else None
        if point is None:
            continue
        # the point is on: the puck on its box; the Pass Line takes no more bets (CR-R6)
        w.page.wait_for_selector(f"[data-box='{point}'].point [data-box-puck] svg")
        w.page.wait_for_selector("[data-spot=pass].closed")
        if not odds_done:  # odds on top of the line: at most what the cap allows
            w.page.wait_for_selector("[data-spot=pass_odds]:visible:enabled")
            cap = w.page.inner_text("[data-limit=pass_odds]")
            assert cap.startswith("up to MOP ")
            chips(w, "pass_odds", 5)
            confirm(w, "pass_odds", 500)
            assert w.page.locator("[data-chips=pass_odds] svg.chip-stack.mine").count() == 1
            odds_done = True
        moved = w.page.locator("[data-box-bets] [data-moved]")
        if not come_moved and moved.count():  # a Come bet on its number: odds on top of it
            odds = moved.first.locator("[data-spot^='come_odds:']")
            key = odds.get_attribute("data-spot")
            w.page.wait_for_selector(f"[data-spot='{key}']:enabled")
            w.page.click("label[for=chip-5]")
            odds.click()
            confirm(w, key, 500)
            assert w.page.locator(f"[data-chips='{key}'] svg.chip-stack.mine").count() == 1
            come_moved = True
        elif not come_moved and not w.page.locator("[data-open-bets] tr:has-text('Come')").count():
            chips(w, "come", 25)
            confirm(w, "come", 2_500)
        # every bet on my layout is working (CR-R8; the house option is off here)
        cells = w.page.locator("[data-open-bets] tr td:nth-child(4)").all_inner_texts()
        assert set(cells) <= {"Working"}, cells
    assert decided and odds_done, "no Pass Line with a point was decided"
    result = decided[-1]["result"]
    w.page.wait_for_selector(f"[data-spot-result=pass][data-my-result*='{result}']")
    roll = events(frames, "craps.roll_settled")[-1]["event"]["data"]["roll"]
    w.page.wait_for_selector(f"[data-rounds] li[data-round='{roll}'] .you")
    stack_is_the_ledgers(w, live, "alice", TABLE)
    words_are_words(w)
