"""Pai Gow and Taiwan Pai Kao as a player plays them, in Chromium against the live server:
chips on my place, my tiles set by "use this setting" from the exact hint (Pai Gow) or from
the forced setting the page explains (TW-6b), my result on the place and in the rounds,
my chips the ledger's; the woodpile and the dice drawn."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from macau_tables.tiles import parse_tiles
from macau_tables.tiles.strategies import forced_setting
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


def bet_on_my_place(w: Watched, seat: int) -> None:
    spot = f"seat:{seat}"
    for _ in range(900):  # the bank is offered round the table (PG-4.3): decline it
        if w.page.locator(f"[data-spot='{spot}']:enabled").count():
            break
        offer = w.page.locator("[data-actions] [data-action=decline_bank]")
        if offer.count():
            offer.click()
        w.page.wait_for_timeout(100)
    chips(w, spot, 100)
    confirm(w, spot, 10_000)


@pytest.mark.parametrize("game", ["paigow", "taiwan"])
def test_a_round_with_chips_and_a_setting_from_the_page(
    live: Live, watched: Open, game: str
) -> None:
    table = f"pl-{game}"
    fund(live, "alice")
    open_table(live, table, game, betting_seconds=8, action_seconds=60)
    w = watched()
    frames = frames_of(w)
    log_in(w, live, "alice")
    w.page.goto(f"{live.url}/table/{game}/{table}")
    w.page.fill("[data-action-amount]", "3000")
    w.page.click("[data-sit='2']")
    w.page.wait_for_selector("[data-stack][data-avos='300000']")
    bet_on_my_place(w, 2)
    assert w.page.locator("[data-woodpile] .stack").count() == 8  # the woodpile: 8 stacks
    w.page.wait_for_selector("[data-tray] .tile-btn >> nth=3", timeout=60_000)
    assert w.page.locator("[data-dice] svg").count() >= 2
    tiles = [t.get_attribute("data-tile") or "" for t in w.page.locator(".tile-btn").all()]
    if game == "taiwan":  # TW-6b: the forced setting, explained, used from the page
        forced = forced_setting(parse_tiles([" ".join(tiles)]), "tw1990")
        box = w.page.locator("[data-forced-box]")
        box.wait_for()
        assert "TW-6b" in box.inner_text()
        w.page.click("[data-use-forced]")
        want = sorted(str(t) for t in forced.front.tiles)
    else:  # the exact hint's best setting
        w.page.click("[data-hint]:enabled")
        w.page.wait_for_selector("[data-hint-out] tbody tr.best")
        assert w.page.evaluate("document.documentElement.scrollWidth") <= 1280  # it fits
        use = w.page.locator("[data-hint-out] tr.best [data-use-setting]")
        want = sorted((use.get_attribute("data-front") or "").split())
        use.click()
    placed = w.page.locator("[data-drop=front] .tile-btn").all()
    front = sorted(t.get_attribute("data-tile") or "" for t in placed)
    assert front == want
    assert w.page.locator("[data-drop=back] .tile-btn").count() == 2
    w.page.click("[data-set]:enabled")
    w.page.wait_for_selector("[data-settlement] tr:has-text('alice')", timeout=60_000)
    settled = [f["event"]["data"] for f in events(frames, "tiletable.round_settled")]
    row = next(r for d in settled for r in d["results"] if r["player"] == "alice")
    w.page.wait_for_selector(f"[data-spot-result='seat:2'][data-my-result='{row['outcome']}']")
    w.page.wait_for_selector(f"[data-rounds] li .you[data-net='{row['net']}']")
    if game == "taiwan":  # she kept the forced setting: the dealer re-set nothing of hers
        assert w.page.locator("[data-resets] li[data-seat='2']").count() == 0
    stack_is_the_ledgers(w, live, "alice", table)
    words_are_words(w)


def test_tw_r6_a_bet_on_an_empty_place_gives_me_its_tiles_to_set(live: Live, watched: Open) -> None:
    """Taiwan Pai Kao (TW-3b, TW-R6): the largest bettor on a place holds it, several places
    at once: the page gives me the held place's tiles once mine are set, and both settings
    are mine, not the clock's default. (At Pai Gow nobody sets more than one seat, PG-7.5:
    the dealer sets it.)"""
    table = "pl-taiwan-held"
    fund(live, "bob")
    open_table(live, table, "taiwan", betting_seconds=10, action_seconds=60)
    w = watched()
    frames = frames_of(w)
    log_in(w, live, "bob")
    w.page.goto(f"{live.url}/table/taiwan/{table}")
    w.page.fill("[data-action-amount]", "3000")
    w.page.click("[data-sit='2']")
    w.page.wait_for_selector("[data-stack][data-avos='300000']")
    bet_on_my_place(w, 2)
    other = next(
        s for s in range(3, 9) if w.page.locator(f"[data-spot='seat:{s}']:enabled").count()
    )
    chips(w, f"seat:{other}", 100)
    confirm(w, f"seat:{other}", 10_000)
    for held in (None, other):  # mine first, then the place my bet holds
        if held is not None:
            w.page.wait_for_selector(f"[data-hand-seat]:has-text('{held}')", timeout=30_000)
        w.page.wait_for_selector("[data-tray] .tile-btn >> nth=3", timeout=60_000)
        for _ in range(4):
            w.page.click("[data-tray] .tile-btn >> nth=0")
        w.page.click("[data-set]:enabled")
    w.page.wait_for_selector("[data-settlement] tr:has-text('bob')", timeout=60_000)
    by_bob = {f["event"]["data"]["seat"] for f in events(frames, "tiletable.tiles_set")
              if f["event"]["data"]["player"] == "bob"}  # fmt: skip
    assert by_bob == {2, other}
    assert not [f for f in events(frames, "table.timed_out")
                if f["event"]["data"]["actor"] == "player:bob"]  # fmt: skip
