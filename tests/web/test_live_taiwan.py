"""Taiwan Pai Kao in Chromium against the live server (a 4-place table): alice sets her tiles
against TW-6b when her hand allows it — the page warns her before, and after the settlement
explains the dealer's re-set to the forced setting (TW-R1); bob, watching, sees the same
explanation and never alice's tiles before the settlement."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from macau_tables.tiles import parse_tiles
from macau_tables.tiles.hands import settings
from macau_tables.tiles.strategies import follows_forced_rule
from tests.web.conftest import Live, fund, log_in, post
from tests.web.harness import Watched

Open = Callable[..., Watched]
TABLE = "tw-test"


def frames_of(w: Watched) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    w.page.on("websocket", lambda ws: ws.on("framereceived", lambda p: got.append(json.loads(p))))
    return got


def test_tw_6b_reset_is_warned_and_explained(live: Live, watched: Open) -> None:
    fund(live, "alice", "bob")
    post(live, "supervisor", "/tables", {"id": TABLE, "game": "taiwan", "options": {},
         "betting_seconds": 6, "action_seconds": 40})  # fmt: skip
    alice, bob = watched(), watched()
    seen_by_bob = frames_of(bob)
    for w, who in ((alice, "alice"), (bob, "bob")):
        log_in(w, live, who)
        w.page.goto(f"{live.url}/table/taiwan/{TABLE}?lang=zh")
    alice.page.fill("[data-action-amount]", "3000")
    alice.page.click("[data-sit='2']")
    alice.page.wait_for_selector("[data-stack][data-avos='300000']")
    spot = "[data-spot='seat:2']"
    for _ in range(600):  # the bank is offered to her first (TW-5b): decline; then bet
        if alice.page.locator(f"{spot}:enabled").count():
            break
        offer = alice.page.locator("[data-actions] [data-action=decline_bank]")
        if offer.count():
            offer.click()
        alice.page.wait_for_timeout(100)
    alice.page.click("label[for=chip-100]")  # MOP 200 in chips on her place
    alice.page.click(spot)
    alice.page.click(spot)
    alice.page.click("[data-confirm]:enabled")
    alice.page.wait_for_selector("[data-tray] .tile-btn >> nth=3", timeout=30_000)
    tiles = [t.get_attribute("data-tile") or "" for t in alice.page.locator(".tile-btn").all()]
    hand = parse_tiles([" ".join(tiles)])
    options = settings(hand, "tw1990")
    against = [s for s in options if not follows_forced_rule(s, hand, "tw1990")]
    chosen = against[0] if against else options[0]
    for t in chosen.front.tiles:  # click the chosen front's tiles, the rest to the back
        alice.page.click(f"[data-tray] .tile-btn[data-tile='{t}'] >> nth=0")
    for _ in range(2):
        alice.page.drag_and_drop("[data-tray] .tile-btn >> nth=0", "[data-drop=back]")
    alice.page.wait_for_selector("[data-hand=front]:has-text('排名')")
    warned = alice.page.locator("[data-keep]").inner_text()
    assert ("TW-6b" in warned) == bool(against)
    alice.page.click("[data-set]:enabled")
    for w in (alice, bob):
        w.page.wait_for_selector("[data-settlement] tr:has-text('alice')", timeout=30_000)
        if against:  # the dealer re-set her tiles: each page says so, with the rule
            w.page.wait_for_selector("[data-resets] li[data-seat='2']:has-text('TW-6b')")
        else:
            assert w.page.locator("[data-resets] li").count() == 0
    for f in seen_by_bob:  # before the settlement, none of alice's tiles reach bob
        if f["type"] == "event" and f["event"]["kind"] == "tiletable.round_settled":
            break
        if f["type"] == "event":
            assert f["event"]["kind"] not in ("tiletable.tiles_dealt", "tiletable.tiles_set")
        elif f["type"] in ("snapshot", "state"):
            assert not f["view"].get("hands"), f
