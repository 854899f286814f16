"""Baccarat in Chromium against the live server: two players join, bet with chips, each
squeezes the side he holds (the largest bet on it, BA-16), the page shows the result and
the chips the ledger says; no frame shows a face-down card before its holder turns it."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from tests.web.conftest import Live, log_in
from tests.web.harness import Watched

Open = Callable[..., Watched]
TABLE = "baccarat-1"


def frames_of(w: Watched) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    w.page.on("websocket", lambda ws: ws.on("framereceived", lambda p: got.append(json.loads(p))))
    return got


def bet(w: Watched, spot: str, chip: int, times: int) -> None:
    w.page.wait_for_selector(f"[data-spot={spot}]:enabled", timeout=30_000)
    w.page.click(f"label[for=chip-{chip}]")
    for _ in range(times):
        w.page.click(f"[data-spot={spot}]")
    w.page.click("[data-confirm]")
    w.page.wait_for_selector(f"[data-amount={spot}]:not([data-avos='0'])")


def test_two_players_bet_squeeze_and_see_the_ledger(live: Live, watched: Open) -> None:
    alice, bob = watched(), watched()
    frames = {"alice": frames_of(alice), "bob": frames_of(bob)}
    for w, who in ((alice, "alice"), (bob, "bob")):
        log_in(w, live, who)
        w.page.goto(f"{live.url}/table/baccarat/{TABLE}")
    for w in (alice, bob):
        w.page.fill("[data-action-amount]", "5000")
        w.page.click("[data-join]")
    bet(alice, "banker", 500, 2)  # MOP 1,000 on Banker: she holds the Banker side
    bet(bob, "player", 100, 1)  # MOP 100 on Player: he holds the Player side
    # each holder turns his side's cards over when the server says it is his turn
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if all(w.page.locator("[data-result]").get_attribute("data-outcome") for w in (alice, bob)):
            break
        for w in (alice, bob):
            button = w.page.locator("[data-reveal]:not([hidden]):enabled")
            if button.count():
                button.first.click()
        time.sleep(0.2)
    view = live.get("alice", f"/tables/{TABLE}/view")["view"]
    last = view["last_hand"]
    for w, who in ((alice, "alice"), (bob, "bob")):
        assert w.page.locator("[data-result]").get_attribute("data-outcome") == last["outcome"]
        stack = live.get(who, "/wallet")["stacks"][f"stack:{TABLE}:{who}"]
        w.page.wait_for_function(
            "v => document.querySelector('[data-stack]').dataset.avos === String(v)", arg=stack
        )
        if last["outcome"] != "T":  # BA-12: on a tie Banker and Player bets are returned
            assert stack != 500_000
    for got in frames.values():
        assert any(f["type"] == "event" and f["event"]["kind"] == "baccarat.hand_settled"
                   for f in got)  # fmt: skip
        assert_face_down_until_revealed(got)


def assert_face_down_until_revealed(frames: list[dict[str, Any]]) -> None:
    revealed: set[tuple[int, str]] = set()
    hand = None
    for f in frames:
        if f["type"] == "event":
            kind, data = f["event"]["kind"], f["event"]["data"]
            if kind == "baccarat.cards_dealt":
                hand = data["hand"]
                assert data["cards"] == [], "cards dealt face down are in no event"
            if kind == "baccarat.cards_revealed":
                revealed.add((hand, data["side"]))
        elif f["type"] in ("snapshot", "state") and f["view"]["hand"]:
            h = f["view"]["hand"]
            for side in ("player", "banker"):
                if (h["number"], side) not in revealed and h["holders"][side]:
                    assert h[side][:2] == [None, None], f
