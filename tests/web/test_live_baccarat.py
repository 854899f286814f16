"""Baccarat in Chromium against the live server: two players join, bet with chips, each
squeezes the side he holds (the largest bet on it, BA-16), the page shows the result and
the chips the ledger says; no frame shows a face-down card before its holder turns it."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from tests.web.conftest import Live, fund, log_in, post
from tests.web.harness import Watched

Open = Callable[..., Watched]
TABLE = "squeeze-1"  # a table of the test's own, with squeezing (BA-16) on


def frames_of(w: Watched) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    w.page.on("websocket", lambda ws: ws.on("framereceived", lambda p: got.append(json.loads(p))))
    return got


def kind(frame: dict[str, Any]) -> str:
    return str(frame["event"]["kind"]) if frame["type"] == "event" else ""


def bet(w: Watched, spot: str, chip: int, times: int) -> None:
    w.page.wait_for_selector(f"[data-spot={spot}]:enabled", timeout=30_000)
    w.page.click(f"label[for=chip-{chip}]")
    for _ in range(times):
        w.page.click(f"[data-spot={spot}]")
    w.page.click("[data-confirm]")
    w.page.wait_for_selector(f"[data-amount={spot}]:not([data-avos='0'])")


def test_two_players_bet_squeeze_and_see_the_ledger(live: Live, watched: Open) -> None:
    fund(live, "alice", "bob")
    post(live, "supervisor", "/tables", {"id": TABLE, "game": "baccarat",
         "options": {"squeeze": True}, "betting_seconds": 12, "action_seconds": 90})  # fmt: skip
    # (action_seconds: the squeeze is the players' — on a busy machine 8 s ran out before
    # the pages clicked and the clock turned the cards for them, BA-16's default)
    alice, bob = watched(), watched()
    frames = {"alice": frames_of(alice), "bob": frames_of(bob)}
    for w, who in ((alice, "alice"), (bob, "bob")):
        log_in(w, live, who)
        w.page.goto(f"{live.url}/table/baccarat/{TABLE}")
    for w, seat in ((alice, "1"), (bob, "2")):  # seated: a seated player squeezes (BA-16)
        w.page.fill("[data-action-amount]", "5000")
        w.page.select_option("[data-join-seat]", seat)
        w.page.click("[data-join]")
    bet(alice, "banker", 500, 2)  # MOP 1,000 on Banker: she holds the Banker side
    bet(bob, "player", 100, 1)  # MOP 100 on Player: he holds the Player side
    # each holder turns his side's cards over when the server says it is his turn, until
    # the hand with our bets is settled
    placed = max(f["seq"] for f in frames["alice"] if kind(f) == "baccarat.bet_placed")
    deadline = time.monotonic() + 60
    done = "baccarat.hand_settled"
    while not (settled := [f for f in frames["alice"] if kind(f) == done and f["seq"] > placed]):
        assert time.monotonic() < deadline, "the hand was not settled"
        for w in (alice, bob):
            button = w.page.locator("[data-reveal]:not([hidden]):enabled")
            if button.count():
                button.first.click()
        time.sleep(0.2)
    ours = settled[0]["event"]["data"]
    squeezed = {
        f["event"]["data"]["by"] for f in frames["alice"]
        if kind(f) == "baccarat.cards_revealed" and placed < f["seq"] < settled[0]["seq"]
    }  # fmt: skip
    assert {"alice", "bob"} <= squeezed  # each turned his own side over
    assert {r["player"] for r in ours["results"]} == {"alice", "bob"}
    for w, who in ((alice, "alice"), (bob, "bob")):
        # the page shows the result of our hand or of a later one, as the server settled it
        w.page.wait_for_function(
            "h => +document.querySelector('[data-result]').dataset.hand >= h", arg=ours["hand"]
        )
        shown = w.page.locator("[data-result]")
        hand, outcome = (
            int(shown.get_attribute("data-hand") or 0),
            shown.get_attribute("data-outcome"),
        )
        w.page.wait_for_timeout(300)  # the frame the page drew from reaches the test too
        outcomes = {f["event"]["data"]["hand"]: f["event"]["data"]["outcome"]
                    for f in frames[who] if kind(f) == done}  # fmt: skip
        assert outcomes[hand] == outcome
        stack = live.get(who, "/wallet")["stacks"][f"stack:{TABLE}:{who}"]
        w.page.wait_for_function(
            "v => document.querySelector('[data-stack]').dataset.avos === String(v)", arg=stack
        )
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
