"""The supervisor's pit in Chromium against the live server: every table with its status,
game, limits, seats and the day's drop, win and hold beside the theoretical hold, refreshed
as the tables play; the table looked at is the one every form acts on. One supervisor pauses
a dealer-operated craps table and asks to void its last round, named by its number; a second
supervisor sees the request pending with its evidence and approves it on his page; the
money comes back in the ledger. A correction is built from the keyed-in dice (no JSON), and
a new table is opened from the page. No console error, axe-core clean, three languages."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from macau_tables.web import i18n
from tests.web.conftest import Live, fund, log_in, post
from tests.web.harness import PHONE, Watched, axe_violations

Open = Callable[..., Watched]
BAD = re.compile(r"\bundefined\b|\[object Object\]|\bNaN\b")
TABLE = "cr-pit"


def command(live: Live, who: str, table: str, op: str, args: dict[str, Any]) -> Any:
    r = httpx.post(
        f"{live.url}/tables/{table}/commands",
        json={"op": op, "args": args},
        headers={
            "Authorization": f"Bearer {live.token(who)}",
            "Idempotency-Key": str(uuid.uuid4()),
        },
    )
    assert r.status_code == 200, r.text
    return r.json()


def stack(live: Live, who: str, table: str) -> int:
    return int(live.get(who, "/wallet")["stacks"][f"stack:{table}:{who}"])


def second_supervisor(live: Live) -> str:
    if "sue-sv" not in live.creds:
        post(live, "administrator", "/users",
             {"name": "sue-sv", "role": "supervisor", "password": "sue-password"})  # fmt: skip
        post(live, "administrator2", "/users/sue-sv/approve", {"reason": "hired"})
        live.creds["sue-sv"] = "sue-password"
    return "sue-sv"


def pit(live: Live, watched: Open, who: str, query: str = "") -> Watched:
    w = watched()
    log_in(w, live, who)
    w.page.goto(f"{live.url}/supervisor{query}")
    w.page.wait_for_selector("[data-pit] tr[data-table-id='craps-1']")
    return w


def cell(w: Watched, table: str, name: str) -> str:
    return w.page.inner_text(f"[data-pit] tr[data-table-id='{table}'] [data-cell={name}]")


def clean(w: Watched) -> None:
    text = w.page.inner_text("main")
    assert BAD.search(text) is None, text
    assert axe_violations(w.page) == []


def test_one_supervisor_pauses_and_asks_to_void_round_2_a_second_approves(
    live: Live, watched: Open
) -> None:
    sue = second_supervisor(live)
    post(live, "supervisor", "/tables", {"id": TABLE, "game": "craps", "dealer": "live"})
    fund(live, "bob")
    command(live, "bob", TABLE, "sit", {"amount": 100_000})
    command(live, "bob", TABLE, "place_bet", {"bet": "field", "amount": 1_000})
    command(live, "dealer", TABLE, "throw_dice", {"dice": [2, 3]})  # round 1: the Field loses
    before = stack(live, "bob", TABLE)
    command(live, "bob", TABLE, "place_bet", {"bet": "field", "amount": 1_000})
    command(live, "dealer", TABLE, "throw_dice", {"dice": [6, 6]})  # round 2: 12 pays 2:1
    assert stack(live, "bob", TABLE) == before + 2_000

    asker = pit(live, watched, "supervisor")
    # the pit: the table's game, status, limits, seats; the day's meters beside it
    row = f"[data-pit] tr[data-table-id='{TABLE}']"
    asker.page.wait_for_selector(row)
    assert cell(asker, TABLE, "game") == "Craps · live dealer"
    assert cell(asker, TABLE, "status") == "open"
    assert cell(asker, TABLE, "limits") == "MOP 1.00 – MOP 10,000.00"
    assert cell(asker, TABLE, "seats") == "1"
    asker.page.wait_for_selector(f"{row} [data-cell=drop]:has-text('MOP 1,000.00')", timeout=60_000)
    meters = live.get("auditor", f"/tables/{TABLE}/meters")
    assert cell(asker, TABLE, "win") == "MOP -10.00"  # round 1 won 10, round 2 lost 20
    assert meters["win"] == -1_000
    assert cell(asker, TABLE, "hold") == meters["hold"]
    assert cell(asker, TABLE, "theo") == meters["theoretical"]["hold"]

    # the table looked at is the one the forms act on
    asker.page.click(f"[data-look-at='{TABLE}']")
    asker.page.wait_for_selector(f"[data-look][data-table-id='{TABLE}']")
    assert asker.page.get_attribute(f"[data-look-at='{TABLE}']", "aria-pressed") == "true"
    assert f"table={TABLE}" in asker.page.url
    assert asker.page.inner_text("[data-look] [data-fact=round]") == "2 (settled)"
    assert asker.page.inner_text("[data-void-title]") == f"Void round 2 of {TABLE}"
    # pause, with a reason
    asker.page.fill("#st-reason", "a die hit the chip rack")
    asker.page.click("[data-form=status] button[data-verb=pause]")
    asker.page.wait_for_selector(f"{row}[data-status='paused']")
    assert cell(asker, TABLE, "status") == "paused"
    assert live.get("auditor", f"/tables/{TABLE}")["status"] == "paused"
    # the void of round 2, asked for by name
    asker.page.fill("#void-reason", "the die hit the chip rack on round 2")
    asker.page.click("[data-void-button]")
    asker.page.wait_for_selector("[data-act-done]:has-text('waiting')")
    assert "Round 2" in asker.page.inner_text("[data-act-done]")
    mine = asker.page.locator(f"[data-requests] tr[data-round='2']:has-text('{TABLE}')")
    mine.wait_for()
    rid = mine.get_attribute("data-request")
    assert mine.locator("button").count() == 0  # not his to approve
    assert "a second person decides" in mine.inner_text()
    clean(asker)

    approver = pit(live, watched, sue)
    theirs = approver.page.locator(f"[data-requests] tr[data-request='{rid}']")
    theirs.wait_for()
    cells = theirs.locator("td").all_inner_texts()
    assert cells[1:5] == [TABLE, "2", "void", "the die hit the chip rack on round 2"], cells
    assert "asked" in cells[5] and "supervisor" in cells[6]  # the evidence: when, who, where
    approver.page.fill("#dec-reason", "camera 3 shows the die on the rack")
    theirs.locator("button[data-verdict=approve]").click()
    approved = f"[data-requests] tr[data-request='{rid}'][data-state='approved']"
    approver.page.wait_for_selector(approved)
    assert "supervisor → sue-sv" in theirs.inner_text()
    approver.page.locator("[data-audit] td:has-text('approve:void')").first.wait_for()
    assert stack(live, "bob", TABLE) == before  # round 2's bet refunded, its win reversed
    assert live.get("auditor", "/audit/ledger")["ok"] is True
    clean(approver)


def test_a_correction_is_built_from_the_keyed_dice_and_a_new_table_opens(
    live: Live, watched: Open
) -> None:
    table = "cr-pit-fix"
    post(live, "supervisor", "/tables", {"id": table, "game": "craps", "dealer": "live"})
    fund(live, "carol")
    command(live, "carol", table, "sit", {"amount": 50_000})
    command(live, "carol", table, "place_bet", {"bet": "field", "amount": 1_000})
    seq = next(
        e["seq"]
        for e in command(live, "dealer", table, "throw_dice", {"dice": [1, 4]})["events"]
        if e["kind"] == "craps.dice_thrown"
    )
    w = pit(live, watched, "supervisor", f"?table={table}")
    w.page.wait_for_selector(f"[data-look][data-table-id='{table}']")
    title = w.page.inner_text("[data-correct-title]")
    assert title == f"Correct round 1: Throw the dice, entry #{seq}"
    assert w.page.get_by_label("Die 1", exact=True).input_value() == "1"  # as keyed in
    assert w.page.get_by_label("Die 2", exact=True).input_value() == "4"
    w.page.get_by_label("Die 2", exact=True).fill("5")
    w.page.fill("#cor-reason", "the dealer misread the second die")
    w.page.click("[data-correct-reason] button[type=submit]")
    w.page.wait_for_selector("[data-act-done]:has-text('correction')")
    requests = live.get("auditor", f"/supervisor/requests?table={table}")
    asked = next(r for r in requests if r["state"] == "pending")
    assert (asked["round"], asked["args"]) == (1, {"of_seq": seq, "args": {"dice": [1, 5]}})
    # a new table from the page: it opens, and the pit looks at it
    w.page.fill("#nt-id", "bac-pit-new")
    w.page.select_option("#nt-game", "baccarat")
    w.page.select_option("#nt-dealer", "live")
    w.page.click("[data-new-table] button[type=submit]")
    w.page.wait_for_selector("[data-look][data-table-id='bac-pit-new']")
    assert cell(w, "bac-pit-new", "game") == "Baccarat · live dealer"
    assert cell(w, "bac-pit-new", "seats") == "0 / 7"
    assert live.get("auditor", "/tables/bac-pit-new")["settings"]["auto_dealer"] is False
    clean(w)


@pytest.mark.parametrize("lang", ["zh", "pt"])
def test_the_pit_in_chinese_and_portuguese(live: Live, watched: Open, lang: str) -> None:
    w = pit(live, watched, "auditor", f"?table=craps-1&lang={lang}")
    w.page.wait_for_selector("[data-look][data-table-id='craps-1']")
    assert w.page.inner_text("#pit-h") == i18n.t("pit.title", lang)
    assert cell(w, "craps-1", "game") == i18n.game_name("craps", lang)
    assert w.page.locator("[data-sv-act]:visible").count() == 0  # an auditor reads only
    limits = cell(w, "craps-1", "limits")
    want = "MOP 1,00 – MOP 10.000,00" if lang == "pt" else "澳門元 1.00 – 澳門元 10,000.00"
    assert limits == want
    clean(w)


@pytest.mark.parametrize(
    ("who", "path", "ready"),
    [
        ("administrator", "/admin", "[data-users] tr[data-user='alice']"),
        ("supervisor", "/supervisor?table=craps-1", "[data-look][data-table-id='craps-1']"),
        ("dealer", "/dealer/craps-1", "[data-state-words] li"),
        ("carol", "/history", "[data-rounds-count]:not(:empty)"),
    ],
)
def test_each_console_fits_a_phone(
    live: Live, watched: Open, who: str, path: str, ready: str
) -> None:
    """390 px wide, in Chinese: nothing wider than the screen (tables scroll in their own
    region), axe-core clean."""
    w = watched(PHONE)
    log_in(w, live, who)
    w.page.goto(f"{live.url}{path}{'&' if '?' in path else '?'}lang=zh")
    w.page.wait_for_selector(ready)
    assert w.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    clean(w)
