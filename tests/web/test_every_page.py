"""Every page as each role — a player, the dealer, a supervisor, the cashier, an auditor, an
administrator, and a visitor who is not logged in — in each language (English, 繁體中文,
Português): no console error (a request the role may not make is one: Chromium logs its
403), no ``undefined``, ``[object Object]`` or ``NaN`` anywhere on the page as it shows, and
no interface key shown in place of its words (``sv.need``, ``ph.betting``, ``dealer_console``)."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from macau_tables.web import i18n
from tests.web.conftest import Live, fund, log_in
from tests.web.harness import Watched

Open = Callable[..., Watched]
PAGES = [
    "/",
    "/login",
    "/cashier",
    "/history",
    "/recall",
    "/auditor",
    "/supervisor",
    "/admin",
    "/par?game=baccarat",
    "/dealer/craps-1",
    "/table/hilo/hilo-1",
    "/table/baccarat/baccarat-1",
    "/table/craps/craps-1",
    "/table/paigow/paigow-1",
    "/table/taiwan/taiwan-1",
]
ROLES = ["alice", "dealer", "supervisor", "cashier", "auditor", "administrator", None]
BAD = re.compile(r"\bundefined\b|\[object Object\]|\bNaN\b")
# an interface key shown raw (t() and say() show the key when it has no words): the keys that
# cannot be words of a page (a dot or an underscore), but not operation or event names, which
# the auditor's raw journal shows as recorded
KEYS = sorted(k for k in i18n.UI | i18n.PLAYER_UI if ("." in k or "_" in k) and k not in i18n.OPS)
RAW_KEY = re.compile(
    r"(?<![\w.])(?:(?:" + "|".join(map(re.escape, KEYS)) + r")(?![\w.])"
    r"|(?:op|ev|ba|cr|game|tile)\.[a-z0-9][\w-]*)"
)


@pytest.fixture(scope="module")
def played(live: Live) -> None:
    """Alice has a history: she joined the craps table."""
    import uuid

    import httpx

    fund(live, "alice")
    r = httpx.post(
        live.url + "/tables/craps-1/commands",
        json={"op": "sit", "args": {"amount": 50_000}},
        headers={
            "Authorization": f"Bearer {live.token('alice')}",
            "Idempotency-Key": str(uuid.uuid4()),
        },
    )
    assert r.status_code in (200, 409), r.text  # (409: she sits there already)


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("who", ROLES, ids=[r or "logged-out" for r in ROLES])
def test_every_page_as_every_role(
    live: Live, watched: Open, played: None, who: str | None, lang: str
) -> None:
    w = watched()
    if who is not None:
        log_in(w, live, who)
    problems: list[str] = []
    for path in PAGES:
        sep = "&" if "?" in path else "?"
        w.page.goto(f"{live.url}{path}{sep}lang={lang}")
        w.page.wait_for_load_state("load")
        assert w.page.locator("html").get_attribute("lang") == i18n.HTML_LANG[lang], path
        w.settle()  # (its fetches answered and drawn, its socket's snapshot come)
        text = w.page.inner_text("body")
        for m in [*BAD.finditer(text), *RAW_KEY.finditer(text)]:
            problems.append(f"{path}: {text[max(0, m.start() - 60) : m.end() + 20]!r}")
        problems += [f"{path}: {e}" for e in w.errors]
        w.errors.clear()
    assert problems == [], "\n".join(problems)
