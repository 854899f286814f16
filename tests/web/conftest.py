"""Fixtures of the browser tests: one Chromium for the session, watched pages."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

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
    for ctx, _ in opened:
        ctx.close()
    assert errors == []
