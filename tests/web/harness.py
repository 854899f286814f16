"""The browser-test harness: Debian's Chromium driven by Playwright, axe-core, a live server.

Playwright cannot download its own browsers here, so it drives ``/usr/bin/chromium``
(``make chromium`` installs Debian's package when it is missing). Every page a test opens
records its console errors and uncaught exceptions; :func:`axe_violations` injects the
vendored axe-core and returns the serious and critical violations.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import (
    Browser,
    ConsoleMessage,
    Page,
    Playwright,
    Request,
    Response,
    WebSocket,
)

CHROMIUM = os.environ.get("MACAU_TABLES_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def launch(pw: Playwright) -> Browser:
    if not os.access(CHROMIUM, os.X_OK):
        raise RuntimeError(
            f"{CHROMIUM} is missing: run 'make chromium' (installs Debian's chromium with apt)"
        )
    return pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


@dataclass
class Watched:
    """A page and the errors it logged (console errors, uncaught exceptions, failed loads)."""

    page: Page
    errors: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # 4xx bodies, to explain a failure
    in_flight: int = 0  # requests sent and not yet answered
    last_activity: float = field(default_factory=time.monotonic)  # a request or socket frame

    def _touch(self, *_: object) -> None:
        self.last_activity = time.monotonic()

    def on_request(self, _: Request) -> None:
        self.in_flight += 1
        self._touch()

    def on_done(self, _: Request) -> None:
        self.in_flight = max(0, self.in_flight - 1)
        self._touch()

    def on_socket(self, ws: WebSocket) -> None:
        """A socket opened counts as in flight until its first frame (the snapshot) or its
        close; each frame after is activity."""
        self.on_request(None)  # type: ignore[arg-type]
        first = [True]

        def frame(_: object) -> None:
            if first[0]:
                first[0] = False
                self.on_done(None)  # type: ignore[arg-type]
            self._touch()

        ws.on("framereceived", frame)
        ws.on("close", lambda _: frame(None) if first[0] else None)

    def settle(self, quiet_ms: int = 150, most_ms: int = 2000) -> None:
        """Wait until the page has no request in flight (a socket: until its first frame)
        and neither a request nor a frame for ``quiet_ms`` (at most ``most_ms``, for a page
        whose feed never rests): what it fetched is drawn by then."""
        deadline = time.monotonic() + most_ms / 1000
        while time.monotonic() < deadline:
            if not self.in_flight and time.monotonic() - self.last_activity >= quiet_ms / 1000:
                return
            self.page.wait_for_timeout(50)

    def on_response(self, response: Response) -> None:
        if response.status >= 400:
            try:
                body = response.text()[:300]
            except Exception:  # the page went away
                body = ""
            self.refused.append(f"{response.status} {response.url} {body}")

    def expect_refusal(self, path: str, status: int) -> None:
        """A request the test makes the server refuse: Chromium logs every 4xx response as
        a console error; this one is expected (any other still fails the test)."""
        self.refusals.append(f"status of {status} |{path}")

    def _expected(self, msg: ConsoleMessage) -> bool:
        for r in self.refusals:
            status, path = r.split("|")
            if status in msg.text and msg.location.get("url", "").endswith(path):
                return True
        return False

    def on_console(self, msg: ConsoleMessage) -> None:
        if msg.type == "error" and not self._expected(msg):
            self.errors.append(f"console: {msg.text} @ {msg.location.get('url', '')}")

    def on_failed(self, request: Request) -> None:
        if not _aborted(request.failure):
            self.errors.append(f"requestfailed: {request.url} {request.failure}")


def _aborted(failure: str | None) -> bool:
    # a load the page itself abandoned by navigating away (a favicon, a pending fetch)
    return failure is not None and "ERR_ABORTED" in failure


def watch(page: Page) -> Watched:
    w = Watched(page)
    page.on("console", w.on_console)
    page.on("pageerror", lambda exc: w.errors.append(f"pageerror: {exc}"))
    page.on("requestfailed", w.on_failed)
    page.on("response", w.on_response)
    page.on("request", w.on_request)
    page.on("requestfinished", w.on_done)
    page.on("requestfailed", w.on_done)
    page.on("websocket", w.on_socket)
    return w


def axe_violations(page: Page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[Any]:
    """axe-core's violations of ``impacts`` on the page as it is now (id, impact, nodes)."""
    # evaluated by the browser's devtools, not as a <script> tag: the pages' CSP allows no
    # inline script, and a tag would be one
    page.evaluate(AXE.read_text() + "\n;0")
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
            const r = await axe.run(document, {resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))}));
        }"""
    )
    return [v for v in found if v["impact"] in impacts]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class LiveServer:
    """A server process on a loopback port, started and stopped by the test."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path


@contextlib.contextmanager
def live_server(argv: list[str], port: int, log: Path, env: dict[str, str]) -> Iterator[LiveServer]:
    """Run ``argv`` (which must listen on ``port``) until the block ends; wait until it
    answers HTTP. The log is kept for a failing test to show."""
    import httpx

    with log.open("wb") as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"server exited: {log.read_text(errors='replace')[-2000:]}")
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(url + "/", timeout=1).status_code < 500:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"server did not start: {log.read_text(errors='replace')}")
                time.sleep(0.2)
            yield LiveServer(url, proc, log)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def python() -> str:
    return sys.executable
