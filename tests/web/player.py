"""Helpers of the player's browser tests: a table of the test's own, the WebSocket frames a
page receives, chips put on a spot and confirmed, and the page's words checked."""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx

from tests.web.conftest import Live
from tests.web.harness import Watched

Frames = list[dict[str, Any]]
# shown text that is a script's slip, not words
BAD = re.compile(r"\bundefined\b|\[object Object\]|\bNaN\b")


def open_table(live: Live, table: str, game: str, **settings: Any) -> None:
    """A table of the test's own (the supervisor opens it); ``settings``: its clock and
    options (``options={...}``, ``betting_seconds=…``)."""
    body = {"id": table, "game": game, "options": settings.pop("options", {}), **settings}
    auth = {"Authorization": f"Bearer {live.token('supervisor')}"}
    r = httpx.post(f"{live.url}/tables", json=body, headers=auth)
    assert r.status_code in (200, 201, 409), r.text


def command(live: Live, who: str, table: str, op: str, **args: Any) -> httpx.Response:
    return httpx.post(
        f"{live.url}/tables/{table}/commands",
        json={"op": op, "args": args},
        headers={
            "Authorization": f"Bearer {live.token(who)}",
            "Idempotency-Key": str(uuid.uuid4()),
        },
    )


def seated(live: Live, who: str, table: str, op: str = "sit", **args: Any) -> None:
    """``who`` sits at ``table`` (joining with ``op`` unless he is there already)."""
    view = live.get(who, f"/tables/{table}/view")["view"]
    here = view.get("players") or view.get("seats") or []
    if isinstance(here, dict):
        here = list(here.values())
    if who not in [p["player"] if isinstance(p, dict) else p for p in here]:
        r = command(live, who, table, op, **args)
        assert r.status_code == 200, r.text


def frames_of(w: Watched) -> Frames:
    got: Frames = []
    w.page.on("websocket", lambda ws: ws.on("framereceived", lambda p: got.append(json.loads(p))))
    return got


def events(frames: Frames, kind: str) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == "event" and f["event"]["kind"] == kind]


def chips(w: Watched, spot: str, chip: int, times: int = 1) -> None:
    """Pick the chip of ``chip`` MOP and put it on ``spot`` ``times`` times (a draft)."""
    w.page.click(f"label[for=chip-{chip}]")
    for _ in range(times):
        w.page.click(f"[data-spot='{spot}']")


def confirm(w: Watched, spot: str, avos: int) -> None:
    """Confirm the draft; the spot then shows ``avos`` of mine on the layout."""
    w.page.click("[data-confirm]:enabled")
    w.page.wait_for_selector(f"[data-amount='{spot}'][data-avos='{avos}']", timeout=15_000)


def wait_until(w: Watched, what: Callable[[], Any], timeout: float = 60) -> Any:
    """``what()`` once it is truthy, else the test fails after ``timeout`` seconds (the page
    waits between tries: its frames reach the test only while Playwright runs)."""
    deadline = time.monotonic() + timeout
    while not (got := what()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        w.page.wait_for_timeout(200)
    return got


def stack_is_the_ledgers(w: Watched, live: Live, who: str, table: str) -> int:
    """The page's chips at the table are the ledger's (GET /wallet), once it has read them."""
    stack = live.get(who, "/wallet")["stacks"].get(f"stack:{table}:{who}", 0)
    w.page.wait_for_function(
        "v => document.querySelector('[data-stack]').dataset.avos === String(v)", arg=stack
    )
    return int(stack)


def words_are_words(w: Watched) -> None:
    text = w.page.inner_text("body")
    found = [text[max(0, m.start() - 50) : m.end() + 20] for m in BAD.finditer(text)]
    assert found == []
