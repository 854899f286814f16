"""Craps in Chromium against the live server: two players join and bet the Pass Line on the
layout; the shooter throws from the page until the line bets are decided; each page shows
the dice the server rolled and the chips the ledger has; the shooter's server seed is in
no frame before it is revealed (only its commitment)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from tests.web.conftest import Live, fund, log_in, post
from tests.web.harness import Watched, axe_violations

Open = Callable[..., Watched]
TABLE = "cr-test"


def frames_of(w: Watched) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    w.page.on("websocket", lambda ws: ws.on("framereceived", lambda p: got.append(json.loads(p))))
    return got


def events(frames: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == "event" and f["event"]["kind"] == kind]


def test_two_players_bet_the_line_and_the_shooter_throws(live: Live, watched: Open) -> None:
    fund(live, "alice", "bob")
    post(live, "supervisor", "/tables", {"id": TABLE, "game": "craps", "options": {},
         "betting_seconds": 5, "action_seconds": 40})  # fmt: skip
    alice, bob = watched(), watched()
    frames = {"alice": frames_of(alice), "bob": frames_of(bob)}
    for w, who in ((alice, "alice"), (bob, "bob")):
        log_in(w, live, who)
        w.page.goto(f"{live.url}/table/craps/{TABLE}")
        w.page.fill("[data-action-amount]", "2000")
        w.page.click("[data-join]")
        w.page.wait_for_selector(f"[data-my-seat]:has-text('{who}')")
    for w in (alice, bob):  # MOP 100 on the Pass Line (CR-2.1), on the come-out
        w.page.click("label[for=chip-100]")
        w.page.click("[data-spot=pass]:enabled", timeout=30_000)
        w.page.click("[data-confirm]:enabled")
        w.page.wait_for_selector("[data-amount=pass][data-avos='10000']")
    decided: list[dict[str, Any]] = []
    deadline = time.monotonic() + 90
    while not decided:
        assert time.monotonic() < deadline, "the line bets were not decided"
        for w in (alice, bob):  # whoever the server says is the shooter throws
            throw = w.page.locator("[data-throw]:enabled")
            if throw.count():
                throw.click()
        time.sleep(0.3)
        decided = [
            r for f in events(frames["alice"], "craps.roll_settled")
            for r in f["event"]["data"]["results"] if r["name"].startswith("Pass Line")
        ]  # fmt: skip
    assert {r["player"] for r in decided} == {"alice", "bob"}
    view = live.get("alice", f"/tables/{TABLE}/view")["view"]
    for w, who in ((alice, "alice"), (bob, "bob")):
        last = view["last_roll"]
        w.page.wait_for_function(
            "t => document.querySelector('[data-dice-total]').textContent === String(t)",
            arg=last["total"],
        )
        stack = live.get(who, "/wallet")["stacks"][f"stack:{TABLE}:{who}"]
        w.page.wait_for_function(
            "v => document.querySelector('[data-stack]').dataset.avos === String(v)", arg=stack
        )
        assert axe_violations(w.page) == []
    for got in frames.values():  # the shooter's seed: its commitment only, until revealed
        assert events(got, "table.seed_committed") or any(
            f["view"].get("shooter_seed") for f in got if f["type"] in ("snapshot", "state")
        )
        revealed = {f["event"]["data"]["seed"] for f in events(got, "table.seed_revealed")}
        out: set[str] = set()
        for f in got:
            if f["type"] == "event" and f["event"]["kind"] == "table.seed_revealed":
                out.add(f["event"]["data"]["seed"])
                continue
            for seed in revealed - out:
                assert seed not in json.dumps(f)
            if f["type"] in ("snapshot", "state") and f["view"].get("shooter_seed"):
                assert set(f["view"]["shooter_seed"]) == {"label", "commitment"}
