"""The browser keeps no token a script could read: logging in through the page leaves the
token in an ``HttpOnly``, ``SameSite=Strict`` cookie only (not in ``localStorage``, not in
``document.cookie``), and a live table's page still gets its socket's snapshot and acts
through the API with it, under the pages' CSP (a violation is a console error, which
fails the test)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, sync_playwright

from tests.web.conftest import Live, live, log_in, watched
from tests.web.harness import Watched, launch

Open = Callable[..., Watched]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium for this module only: Playwright's synchronous API runs an event loop in
    this thread while it is open, which the suite's other tests (``asyncio.run``) must
    not find there."""
    with sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()


__all__ = ["browser", "live", "watched"]


def test_the_page_keeps_no_token_and_still_plays(live: Live, watched: Open) -> None:
    w = watched()
    log_in(w, live, "alice")
    page = w.page
    stored = page.evaluate("JSON.stringify(Object.assign({}, localStorage))")
    assert "token" not in stored and "alice" in stored, stored
    assert "mt_session" not in page.evaluate("document.cookie")
    [session] = [c for c in page.context.cookies() if c["name"] == "mt_session"]
    assert session["httpOnly"] and session["sameSite"] == "Strict"
    # a live table: its socket (the cookie) sends the snapshot; a POST carries the proof
    page.goto(live.url + "/table/hilo/hilo-1")
    page.wait_for_function("() => window.macauTable && window.macauTable.state !== null")
    answer = page.evaluate(
        """async () => {
            const api = await import("/static/js/api.js");
            return await api.get(api.PATHS.me);
        }"""
    )
    assert answer == {"name": "alice", "role": "player"}
    refused = page.context.request.post(  # (the context's cookies, no page script)
        live.url + "/tables/hilo-1/commands",
        data={"op": "leave", "args": {}},
        headers={"Idempotency-Key": "x1"},
    ).status
    assert refused == 403  # the cookie without the CSRF header
    # logging out clears the cookie
    page.click("[data-logout]")
    page.wait_for_url(live.url + "/login")
    assert not [c for c in page.context.cookies() if c["name"] == "mt_session"]
