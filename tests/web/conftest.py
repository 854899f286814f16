"""Fixtures of the browser tests: one Chromium for the session, watched pages."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, sync_playwright

from tests.web.harness import DESKTOP, Watched, free_port, launch, live_server, python, watch

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()


@pytest.fixture(scope="session")
def standalone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The UI router alone, served by uvicorn on a free loopback port."""
    port = free_port()
    argv = [python(), "-m", "uvicorn", "tests.web.standalone_app:app", "--port", str(port),
            "--host", "127.0.0.1", "--log-level", "warning"]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT)]))
    with live_server(argv, port, tmp_path_factory.mktemp("ui") / "server.log", env) as s:
        yield s.url


@pytest.fixture
def watched(browser: Browser) -> Iterator[Callable[..., Watched]]:
    """New pages (own contexts) whose console errors fail the test at the end."""
    opened: list[tuple[BrowserContext, Watched]] = []

    def open_page(viewport: dict[str, int] | None = None) -> Watched:
        ctx = browser.new_context(viewport=viewport or DESKTOP)  # type: ignore[arg-type]
        w = watch(ctx.new_page())
        opened.append((ctx, w))
        return w

    yield open_page
    errors = [e for _, w in opened for e in w.errors]
    refused = [r for _, w in opened for r in w.refused]
    for ctx, _ in opened:
        ctx.close()
    assert errors == [], refused


@dataclass
class Live:
    """The table server on a loopback port, and its demo accounts' passwords."""

    url: str
    creds: dict[str, str]

    def token(self, who: str) -> str:
        import httpx

        r = httpx.post(self.url + "/auth/login", json={"name": who, "password": self.creds[who]})
        r.raise_for_status()
        return str(r.json()["token"])

    def get(self, who: str, path: str) -> Any:
        import httpx

        r = httpx.get(self.url + path, headers={"Authorization": f"Bearer {self.token(who)}"})
        r.raise_for_status()
        return r.json()


@pytest.fixture(scope="session")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """``macau-tables``' server (tests/web/live_app.py) on a free port, for the session."""
    tmp = tmp_path_factory.mktemp("live")
    port, creds = free_port(), tmp / "creds.json"
    argv = [python(), "-m", "tests.web.live_app", str(tmp / "floor.db"), str(port), str(creds)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT)]))
    with live_server(argv, port, tmp / "server.log", env) as s:
        deadline = time.monotonic() + 30
        while not creds.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        yield Live(s.url, json.loads(creds.read_text()))


def post(live: Live, who: str, path: str, body: dict[str, Any]) -> Any:
    import httpx

    r = httpx.post(
        live.url + path, json=body, headers={"Authorization": f"Bearer {live.token(who)}"}
    )
    r.raise_for_status()
    return r.json()


def fund(live: Live, *players: str, amount: int = 1_000_000) -> None:
    """The cashier deposits ``amount`` avos into each player's wallet (tests share a floor,
    and chips bought in by one test stay at its table)."""
    import uuid

    import httpx

    for player in players:
        r = httpx.post(
            live.url + "/cashier/deposit",
            json={"player": player, "amount": amount},
            headers={
                "Authorization": f"Bearer {live.token('cashier')}",
                "Idempotency-Key": str(uuid.uuid4()),
            },
        )
        r.raise_for_status()


def log_in(w: Watched, live: Live, who: str) -> None:
    """Log in through the page, as a person would."""
    w.page.goto(live.url + "/login")
    w.page.fill("#username", who)
    w.page.fill("#password", live.creds[who])
    w.page.click("form [type=submit]")
    w.page.wait_for_url(live.url + "/")
