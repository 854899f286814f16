"""Screenshots of every page at desktop and phone width: ``make screenshots``.

Starts the table server as the browser tests do (tests/web/live_app.py: a fresh SQLite
floor on a free loopback port), plays a little so the tables have something to show, and
writes ``docs/screenshots/<page>-<desktop|phone>.png``. Usage:
``PYTHONPATH=src:. python scripts/screenshots.py [OUT_DIR]``.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright
from tests.web.harness import DESKTOP, PHONE, free_port, launch, live_server

ROOT = Path(__file__).resolve().parents[1]
PAGES = [  # name, path, who is logged in
    ("login", "/login", None),
    ("lobby", "/", "alice"),
    ("baccarat", "/table/baccarat/baccarat-1", "alice"),
    ("craps", "/table/craps/craps-1", "alice"),
    ("paigow", "/table/paigow/paigow-1", "alice"),
    ("taiwan", "/table/taiwan/taiwan-1?lang=zh", "alice"),
    ("side-by-side", "/multi?tables=baccarat-1,craps-1,paigow-1", "alice"),
    ("cashier", "/cashier", "cashier"),
    ("history", "/history", "alice"),
    ("par", "/par?game=craps", "alice"),
    ("par-zh", "/par?game=baccarat&lang=zh", "alice"),
]


def log_in(page: Page, url: str, who: str, password: str) -> None:
    page.goto(url + "/login")
    page.fill("#username", who)
    page.fill("#password", password)
    page.click("form [type=submit]")
    page.wait_for_url(url + "/")


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        port, creds = free_port(), Path(tmp) / "creds.json"
        argv = [sys.executable, "-m", "tests.web.live_app", f"{tmp}/floor.db", str(port),
                str(creds)]  # fmt: skip
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT)]))
        with (
            live_server(argv, port, Path(tmp) / "server.log", env) as server,
            sync_playwright() as pw,
        ):
            while not creds.exists():
                time.sleep(0.1)
            passwords = json.loads(creds.read_text())
            browser = launch(pw)
            # a player at the tables, so that the pages show seats, chips and cards
            ctx = browser.new_context(viewport=DESKTOP)
            alice = ctx.new_page()
            log_in(alice, server.url, "alice", passwords["alice"])
            alice.goto(server.url + "/table/paigow/paigow-1")
            alice.fill("[data-action-amount]", "2000")
            alice.click("[data-sit='3']")
            alice.goto(server.url + "/table/baccarat/baccarat-1")
            alice.fill("[data-action-amount]", "2000")
            alice.click("[data-join]")
            alice.wait_for_timeout(1500)
            for name, path, who in PAGES:
                for width, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                    c = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
                    page = c.new_page()
                    if who:
                        log_in(page, server.url, who, passwords[who])
                    page.goto(server.url + path)
                    page.wait_for_load_state("load")
                    if path.startswith("/par"):
                        page.wait_for_selector("#sheet table", timeout=60_000)
                    page.wait_for_timeout(1500)
                    file = out / f"{name}-{width}.png"
                    page.screenshot(path=str(file), full_page=True)
                    print(file)
                    c.close()
            browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots")
