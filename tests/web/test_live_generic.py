"""A full round at a live table in Chromium, two players in two browser contexts, against the
real server on a loopback port — with the server suite's Hi-Lo double, whose cards are dealt
face down and private to their holders: the page a game without a page of its own gets
(the view as sent, and the operations the server says are pending)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tests.web.conftest import Live, fund, log_in
from tests.web.harness import Watched, axe_violations

Open = Callable[..., Watched]


def frames_of(w: Watched) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    w.page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda payload: got.append(json.loads(payload))),
    )
    return got


def test_two_players_play_a_round_and_see_the_ledgers_balances(live: Live, watched: Open) -> None:
    fund(live, "alice", "bob")
    alice, bob = watched(), watched()
    frames = {"alice": frames_of(alice), "bob": frames_of(bob)}
    for w, who in ((alice, "alice"), (bob, "bob")):
        log_in(w, live, who)
        w.page.goto(live.url + "/table/hilo/hilo-1")
        w.page.fill("[data-action-amount]", "500")
        w.page.click("[data-join]")
    for w in (alice, bob):  # the betting window: the bet is pending for each of them
        w.page.fill("[data-action-amount]", "100")
        w.page.click("[data-actions] [data-action=bet]", timeout=20_000)
    for w in (alice, bob):
        w.page.wait_for_selector("[data-log] li[data-kind='hilo.bet_placed']")
    for w in (alice, bob):  # each turns his face-down card over
        w.page.click("[data-actions] [data-action=reveal]", timeout=20_000)
    for w, who in ((alice, "alice"), (bob, "bob")):
        w.page.wait_for_selector("[data-log] li[data-kind='hilo.round_settled']")
        # the page shows what the ledger says (GET /wallet reads the postings' balances)
        ledger = live.get(who, "/wallet")
        stack = ledger["stacks"][f"stack:hilo-1:{who}"]
        w.page.wait_for_function(
            "([s, v]) => document.querySelector(s).dataset.avos === String(v)",
            arg=["[data-stack]", stack],
        )
        assert w.page.locator("[data-wallet]").get_attribute("data-avos") == str(ledger["wallet"])
        # and the ledger moved what the settlement says (even money; a push returns the bet)
        settled = [r for f in frames[who] if f["type"] == "event"
                   and f["event"]["kind"] == "hilo.round_settled"
                   for r in f["event"]["data"]["results"] if r["player"] == who]  # fmt: skip
        net = {"win": 10_000, "push": 0, "lose": -10_000}[settled[0]["result"]]
        assert stack == 50_000 + net
        assert axe_violations(w.page) == []
    for who, other in (("alice", "bob"), ("bob", "alice")):
        assert_private(frames[who], who, other)


def assert_private(frames: list[dict[str, Any]], me: str, other: str) -> None:
    """No frame a player receives holds another seat's face-down card: the other's dealt card
    never, and his card in a view only once it was turned over."""
    assert frames, "the page received no WebSocket frame"
    revealed = False
    for f in frames:
        if f["type"] == "event":
            ev = f["event"]
            if ev["kind"] == "hilo.card_dealt":
                assert ev["data"]["player"] == me
            if ev["kind"] == "hilo.card_revealed" and ev["data"]["player"] == other:
                revealed = True
            if ev["kind"] == "hilo.house_card":
                revealed = False  # the next round deals again
        elif f["type"] in ("snapshot", "state"):
            cards = f["view"].get("cards", {})
            if other in cards and not revealed:
                assert cards[other] is None, f
