"""The administrator's console in Chromium against the live server: accounts made, disabled
and given a new password from the page, every one of the two-person rules kept — a staff
account an administrator creates waits (shown as pending, with who asked) until a second
administrator approves it on his own page, and only then logs in; a player's account plays
at once; a disable or a new password asked by one administrator is done only when another
approves it. No console error, no ``undefined`` or ``NaN`` shown, axe-core clean, in the
three languages."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest

from macau_tables.web import i18n
from tests.web.conftest import Live, log_in
from tests.web.harness import Watched, axe_violations

Open = Callable[..., Watched]
BAD = re.compile(r"\bundefined\b|\[object Object\]|\bNaN\b")


def login_status(live: Live, name: str, password: str) -> int:
    r = httpx.post(live.url + "/auth/login", json={"name": name, "password": password})
    return r.status_code


def console(live: Live, watched: Open, who: str, lang: str = "en") -> Watched:
    w = watched()
    log_in(w, live, who)
    w.page.goto(f"{live.url}/admin?lang={lang}")
    w.page.wait_for_selector("[data-users] tr[data-user='administrator2']")
    return w


def create(w: Watched, name: str, role: str, password: str) -> None:
    w.page.fill("#new-name", name)
    w.page.select_option("#new-role", role)
    w.page.fill("#new-password", password)
    w.page.fill("#new-password2", password)
    w.page.click("[data-create] button[type=submit]")
    w.page.wait_for_selector(f"[data-create-done][data-created='{name}']")


def clean(w: Watched) -> None:
    text = w.page.inner_text("main")
    assert BAD.search(text) is None, text
    assert axe_violations(w.page) == []


def test_a_staff_account_logs_in_once_a_second_administrator_approves_it(
    live: Live, watched: Open
) -> None:
    first = console(live, watched, "administrator")
    # a player's account plays at once
    create(first, "pia", "player", "pia-password-1")
    assert "can log in now" in first.page.inner_text("[data-create-done]")
    assert login_status(live, "pia", "pia-password-1") == 200
    # a dealer's waits for a second administrator: pending, with who asked, not his to approve
    create(first, "dan-adm", "dealer", "dan-password-1")
    assert "second administrator approves" in first.page.inner_text("[data-create-done]")
    row = first.page.locator("[data-pending] tr[data-pending='user:dan-adm']")
    row.wait_for()
    cells = row.locator("td").all_inner_texts()
    assert cells[1] == "dan-adm (dealer)" and cells[3] == "administrator", cells
    assert row.locator("button").count() == 0
    assert "a second person decides" in cells[5]
    assert first.page.get_attribute("[data-users] tr[data-user='dan-adm']", "data-state") == (
        "awaiting"
    )
    assert login_status(live, "dan-adm", "dan-password-1") == 401  # (one failure of the name)
    clean(first)

    second = console(live, watched, "administrator2")
    mine = second.page.locator("[data-pending] tr[data-pending='user:dan-adm']")
    second.page.fill("#dec-reason", "hired for the night shift")
    mine.locator("button[data-verdict=approve]").click()
    second.page.wait_for_selector("[data-users] tr[data-user='dan-adm'][data-state='active']")
    assert mine.count() == 0
    assert "administrator2" in second.page.inner_text("[data-users] tr[data-user='dan-adm']")
    clean(second)
    # and now the dealer logs in, through the page, and opens his console
    live.creds["dan-adm"] = "dan-password-1"
    d = watched()
    log_in(d, live, "dan-adm")
    d.page.goto(live.url + "/dealer/craps-1")
    d.page.wait_for_selector("[data-state-words] li")
    assert d.page.locator("[data-need-dealer]").is_hidden()


def test_a_disable_and_a_new_password_wait_for_a_second_administrator(
    live: Live, watched: Open
) -> None:
    first = console(live, watched, "administrator")
    create(first, "quin", "player", "quin-password-1")
    live.creds["quin"] = "quin-password-1"
    q = watched()
    log_in(q, live, "quin")  # his session, open while they decide
    # the disable: asked by one
    first.page.click("[data-users] tr[data-user='quin'] button[data-ask=disable]")
    first.page.fill("#ask-reason", "asked to close his account")
    first.page.click("[data-ask-form] button[type=submit]")
    row = first.page.locator("[data-pending] tr[data-name='quin']")
    row.wait_for()
    assert "Disable" in row.inner_text() and "asked to close his account" in row.inner_text()
    asked = first.page.locator("[data-users] tr[data-user='quin'] button[data-ask=disable]")
    assert asked.is_disabled()
    assert login_status(live, "quin", "quin-password-1") == 200  # not yet
    # approved by another: his session ends, his login is refused
    second = console(live, watched, "administrator2")
    theirs = second.page.locator("[data-pending] tr[data-name='quin']")
    second.page.fill("#dec-reason", "confirmed by phone")
    theirs.locator("button[data-verdict=approve]").click()
    second.page.wait_for_selector("[data-users] tr[data-user='quin'][data-state='disabled']")
    assert login_status(live, "quin", "quin-password-1") == 401
    q.expect_refusal("/ui/history", 401)  # (the ended session: what the test wants)
    q.page.goto(live.url + "/history")
    q.page.wait_for_selector("[data-error]:has-text('SRV-AUTH')")
    # enabled again with a new password: each asked by the second, approved by the first
    for action, extra in (("enable", {}), ("password", {"#ask-password": "quin-password-2"})):
        second.page.reload()
        second.page.click(f"[data-users] tr[data-user='quin'] button[data-ask={action}]")
        second.page.fill("#ask-reason", "back at the tables")
        for field, value in extra.items():
            second.page.fill(field, value)
            second.page.fill(f"{field}2", value)
        second.page.click("[data-ask-form] button[type=submit]")
        second.page.wait_for_selector("[data-pending] tr[data-name='quin']")
        first.page.reload()
        mine = first.page.locator("[data-pending] tr[data-name='quin']")
        first.page.fill("#dec-reason", "agreed")
        mine.locator("button[data-verdict=approve]").click()
        first.page.wait_for_selector("[data-pending-done]:has-text('approved')")
    assert login_status(live, "quin", "quin-password-2") == 200
    log = {(e["user"], e["action"]) for e in live.get("auditor", "/audit/log?limit=200")}
    assert ("administrator", "request:disable_user") in log
    assert ("administrator2", "approve:disable_user") in log
    assert ("administrator", "approve:password_user") in log
    clean(first)
    clean(second)


def test_a_password_against_the_policy_is_refused_on_the_page(live: Live, watched: Open) -> None:
    w = console(live, watched, "administrator")
    w.page.fill("#new-name", "rex")
    w.page.fill("#new-password", "short")
    w.page.fill("#new-password2", "short")
    w.page.click("[data-create] button[type=submit]")
    w.page.wait_for_selector("[data-create-error]:has-text('fewer than 10')")
    # the server's own policy: a common password, refused with its rule
    w.expect_refusal("/users", 422)
    w.page.fill("#new-password", "password123")
    w.page.fill("#new-password2", "password123")
    w.page.click("[data-create] button[type=submit]")
    w.page.wait_for_selector("[data-create-error]:has-text('SRV-PASSWORD')")
    assert w.page.locator("[data-users] tr[data-user='rex']").count() == 0


@pytest.mark.parametrize("lang", ["zh", "pt"])
def test_the_console_in_chinese_and_portuguese(live: Live, watched: Open, lang: str) -> None:
    w = console(live, watched, "administrator", lang)
    assert w.page.inner_text("h1") == i18n.t("adm.title", lang)
    role = w.page.inner_text("[data-users] tr[data-user='alice'] td")
    assert role == i18n.t("role.player", lang)
    clean(w)
