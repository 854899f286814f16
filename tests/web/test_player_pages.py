"""The player's pages — each table, the lobby, the side-by-side view — as a seated player
sees them, in each language at phone and desktop width: no horizontal overflow, no serious
or critical axe-core violation, no console error, no ``undefined`` / ``[object Object]`` /
``NaN`` shown; the countdown ring is drawn against the server's deadline."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from macau_tables.web import i18n
from tests.web.conftest import Live, fund, log_in
from tests.web.harness import DESKTOP, PHONE, Watched, axe_violations
from tests.web.player import command, frames_of, open_table, seated, words_are_words

Open = Callable[..., Watched]
PAGES = [
    "/table/baccarat/pl-pages-bac",
    "/table/craps/pl-pages-craps",
    "/table/paigow/pl-pages-pg",
    "/table/taiwan/pl-pages-tw",
    "/",
    "/multi?tables=pl-pages-bac,pl-pages-craps,pl-pages-pg",
]


@pytest.fixture(scope="module")
def tables(live: Live) -> Iterator[None]:
    """Tables of this module, bob seated at each with chips (his bets and turns on the
    pages); he leaves the tables that allow it at the end."""
    fund(live, "bob")
    open_table(live, "pl-pages-bac", "baccarat", options={"squeeze": True})
    open_table(live, "pl-pages-craps", "craps")
    open_table(live, "pl-pages-pg", "paigow")
    open_table(live, "pl-pages-tw", "taiwan")
    seated(live, "bob", "pl-pages-bac", amount=100_000, seat=3)
    seated(live, "bob", "pl-pages-craps", amount=50_000)
    for table in ("pl-pages-pg", "pl-pages-tw"):
        seated(live, "bob", table, "sit", seat=3)
        if not live.get("bob", f"/tables/{table}/view")["view"].get("stack"):
            assert command(live, "bob", table, "buy_in", amount=50_000).status_code == 200
    yield
    for table in ("pl-pages-bac", "pl-pages-craps"):
        command(live, "bob", table, "leave")


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_the_players_pages_fit_and_are_accessible(
    live: Live, watched: Open, tables: None, lang: str, viewport: dict[str, int]
) -> None:
    w = watched(viewport)
    log_in(w, live, "bob")
    problems = []
    for path in PAGES:
        sep = "&" if "?" in path else "?"
        w.page.goto(f"{live.url}{path}{sep}lang={lang}")
        w.page.wait_for_load_state("load")
        w.settle()
        assert w.page.locator("html").get_attribute("lang") == i18n.HTML_LANG[lang]
        width = w.page.evaluate("document.documentElement.scrollWidth")
        if width > viewport["width"]:
            problems.append(f"{path}: {width} px wide at {viewport['width']}")
        problems += [f"{path}: {v['id']} {v['nodes']}" for v in axe_violations(w.page)]
        try:
            words_are_words(w)
        except AssertionError as exc:
            problems.append(f"{path}: {exc}")
    assert problems == [], "\n".join(problems)


def test_the_countdown_ring_is_the_servers_deadline(
    live: Live, watched: Open, tables: None
) -> None:
    """The ring's seconds are the server's deadline less the server's time, while a window
    of mine runs (bets I may make; the squeeze my bet gives me, BA-16)."""
    w = watched()
    frames = frames_of(w)
    log_in(w, live, "bob")
    w.page.goto(f"{live.url}/table/baccarat/pl-pages-bac")
    w.page.wait_for_selector("[data-status]:not(:has-text('—'))")
    # a bet of his keeps the table dealing (the dealer deals when there is a bet)
    command(live, "bob", "pl-pages-bac", "place_bet", bet="player", amount=10_000)
    ring = w.page.locator("[data-timer]:not([hidden])")
    ring.wait_for(timeout=60_000)
    samples = 0
    while samples < 3 and ring.count():
        left = int(ring.get_attribute("data-left") or -1)
        deadlines = [f["countdown"]["deadline"] for f in frames
                     if f["type"] in ("snapshot", "state") and f.get("countdown")]  # fmt: skip
        want = (deadlines[-1] - time.time() * 1000) / 1000
        if want > 0.5:  # (not the instant the window ends)
            assert abs(left - want) <= 1.5, (left, want)
            samples += 1
        w.page.wait_for_timeout(600)
    assert samples
