"""Pai Gow in Chromium against the live server: two players sit, buy in and bet; each sets his
four tiles — alice by clicking, bob by dragging — seeing each hand's name and rank; the page
shows the settlement (each bet's result) and the chips the ledger says; no frame a player
receives holds the other seat's face-down tiles or setting before the settlement."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from macau_tables.tiles import parse_tiles
from macau_tables.tiles.hands import Hand
from tests.web.conftest import Live, fund, log_in, post
from tests.web.harness import Watched, axe_violations

Open = Callable[..., Watched]
TABLE = "pg-test"  # a table of the test's own: time to ask for the hint before setting
SEATS = {"alice": 2, "bob": 5}


def frames_of(w: Watched) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    w.page.on("websocket", lambda ws: ws.on("framereceived", lambda p: got.append(json.loads(p))))
    return got


def test_two_players_set_tiles_by_click_and_drag(live: Live, watched: Open) -> None:
    fund(live, "alice", "bob")
    post(live, "supervisor", "/tables", {"id": TABLE, "game": "paigow", "options": {},
         "betting_seconds": 8, "action_seconds": 40})  # fmt: skip
    alice, bob = watched(), watched()
    frames = {"alice": frames_of(alice), "bob": frames_of(bob)}
    for w, who in ((alice, "alice"), (bob, "bob")):
        log_in(w, live, who)
        w.page.goto(f"{live.url}/table/paigow/{TABLE}")
        w.page.fill("[data-action-amount]", "3000")
        w.page.click(f"[data-sit='{SEATS[who]}']")  # sit down and buy chips
        w.page.wait_for_selector(f"[data-my-seat]:has-text('{who}')")
        w.page.wait_for_selector("[data-stack][data-avos='300000']")
    # a round counts the chips a player has when it opens: bet in the first round opened
    # after both bought in
    bought = max(seq(frames[who], "tiletable.chips_bought", who) for who in SEATS)
    deadline = time.monotonic() + 60
    while seq(frames["bob"], "tiletable.bank_opened") <= bought:
        assert time.monotonic() < deadline, "no new round opened"
        for w in (alice, bob):  # the bank is offered round the table (PG-4.3): decline it
            offer = w.page.locator("[data-actions] [data-action=decline_bank]")
            if offer.count():
                offer.click()
        bob.page.wait_for_timeout(200)
    banker_seat = live.get("alice", f"/tables/{TABLE}/view")["view"]["banker_seat"]
    setters = []
    for w, who in ((alice, "alice"), (bob, "bob")):
        if banker_seat == SEATS[who]:  # his seat banks this round: he co-banks (PG-3.2)
            w.page.fill("[data-action-amount]", "500")
            w.page.click("[data-actions] [data-action=join_bank]")
        else:  # MOP 200 in chips on his place, confirmed
            spot = f"[data-spot='seat:{SEATS[who]}']"
            w.page.wait_for_selector(f"{spot}:enabled", timeout=30_000)
            w.page.click("label[for=chip-100]")
            w.page.click(spot)
            w.page.click(spot)
            w.page.click("[data-confirm]:enabled")
            w.page.wait_for_selector(f"[data-amount='seat:{SEATS[who]}'][data-avos='20000']")
            setters.append(w)
    for w in setters:  # the tiles come face up to their holder only
        w.page.wait_for_selector("[data-tray] .tile-btn >> nth=3", timeout=30_000)
    for w in setters:
        # the exact hint on request (analysis.tiles.hint via /ui/hint): three settings
        w.page.click("[data-hint]:enabled")
        w.page.wait_for_selector("[data-hint-out] tbody tr.best")
        assert w.page.locator("[data-hint-out] tbody tr").count() == 3
        if w is alice:  # click two tiles to the front, two to the back
            for _ in range(4):
                w.page.click("[data-tray] .tile-btn >> nth=0")
        else:  # drag two tiles to the front, the others to the back
            for target in ("front", "front", "back", "back"):
                w.page.drag_and_drop("[data-tray] .tile-btn >> nth=0", f"[data-drop={target}]")
        front = [
            t.get_attribute("data-tile")
            for t in w.page.locator("[data-drop=front] .tile-btn").all()
        ]
        w.page.wait_for_selector("[data-hand=front]:has-text('Rank')")
        name = Hand.of(parse_tiles([" ".join(str(t) for t in front)])).value.english
        assert name in w.page.locator("[data-hand=front]").inner_text()
        w.page.click("[data-set]:enabled")
    assert setters
    for w, who in ((alice, "alice"), (bob, "bob")):
        w.page.wait_for_selector(f"[data-settlement] tr:has-text('{who}')", timeout=30_000)
        stack = live.get(who, "/wallet")["stacks"][f"stack:{TABLE}:{who}"]
        w.page.wait_for_function(
            "v => document.querySelector('[data-stack]').dataset.avos === String(v)", arg=stack
        )
        assert axe_violations(w.page) == []
    for me, other in (("alice", "bob"), ("bob", "alice")):
        assert_private(frames[me], str(SEATS[me]), str(SEATS[other]))


def seq(frames: list[dict[str, Any]], kind: str, player: str | None = None) -> int:
    """The last seq of an event of ``kind`` (by ``player``) in the frames, -1 if none."""
    found = [
        f["seq"] for f in frames
        if f["type"] == "event" and f["event"]["kind"] == kind
        and (player is None or f["event"]["data"].get("player") == player)
    ]  # fmt: skip
    return max(found, default=-1)


def assert_private(frames: list[dict[str, Any]], mine: str, other: str) -> None:
    assert frames
    for f in frames:
        if f["type"] == "event":
            kind, data = f["event"]["kind"], f["event"]["data"]
            if kind in ("tiletable.tiles_dealt", "tiletable.tiles_set"):
                assert str(data["seat"]) != other, f
        elif f["type"] in ("snapshot", "state"):
            view = f["view"]
            assert other not in (view.get("hands") or {}), f
            assert other not in (view.get("settings") or {}), f
