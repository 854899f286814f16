"""What the live pages say, against the live server: the lobby's seats and limits (and the
board a visitor sees), the "Your turn" box and Join, the operations' names, the countdown,
the log as a croupier says it (the raw journal one click away), money in one format, no
ledger account names, amounts checked before they are sent, the links each role sees, the
cashier's card, my history, the road maps' one tab stop, a tile table's bets and rounds."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.web.conftest import Live, fund, log_in
from tests.web.harness import Watched

Open = Callable[..., Watched]
HEX64 = re.compile(r"\b[0-9a-f]{64}\b")


def command(live: Live, who: str, table: str, op: str, **args: Any) -> httpx.Response:
    return httpx.post(
        f"{live.url}/tables/{table}/commands",
        json={"op": op, "args": args},
        headers={
            "Authorization": f"Bearer {live.token(who)}",
            "Idempotency-Key": str(uuid.uuid4()),
        },
    )


def open_table(live: Live, table: str, game: str) -> None:
    """A table of the test's own (the supervisor opens it), so that nobody else sits there;
    slow clocks, so that nobody is timed out while the test looks."""
    r = httpx.post(
        f"{live.url}/tables",
        json={"id": table, "game": game, "options": {}, "action_seconds": 60},
        headers={"Authorization": f"Bearer {live.token('supervisor')}"},
    )
    assert r.status_code in (200, 201, 409), r.text


def test_the_lobby_counts_seats_and_shows_each_tables_limits(live: Live, watched: Open) -> None:
    fund(live, "carol")
    open_table(live, "craps-words", "craps")
    open_table(live, "paigow-words", "paigow")
    assert command(live, "carol", "craps-words", "sit", amount=20_000).status_code in (200, 409)
    command(live, "carol", "paigow-words", "sit", seat=4)
    w = watched()
    log_in(w, live, "carol")
    card = w.page.locator("[data-lobby] article[data-table-id='craps-words']")
    card.wait_for()
    assert card.locator("[data-seats]").inner_text() == "1 playing"
    assert card.locator("[data-limits]").inner_text() == "MOP 1.00 – MOP 10,000.00"
    tiles = w.page.locator("[data-lobby] article[data-table-id='paigow-words']")
    assert tiles.locator("[data-seats]").inner_text() == "1 of 8 taken"
    assert tiles.locator("[data-limits]").inner_text() == "no limits"
    bac = w.page.locator("[data-lobby] article[data-table-id='baccarat-1'] [data-limits]")
    assert bac.inner_text() == "MOP 100.00 – MOP 20,000.00"
    assert "0s" not in w.page.inner_text("[data-lobby]")


def test_a_visitor_sees_the_tables_and_a_login_prompt(live: Live, watched: Open) -> None:
    w = watched()
    w.page.goto(live.url + "/?lang=zh")
    w.page.locator("[data-lobby] article[data-table-id='baccarat-1']").wait_for()
    link = w.page.locator("[data-lobby] article[data-table-id='baccarat-1'] a")
    assert link.get_attribute("href") == "/login?next=%2Ftable%2Fbaccarat%2Fbaccarat-1"
    assert w.page.locator("[data-need-login]").is_visible()
    limits = w.page.locator("[data-lobby] article[data-table-id='taiwan-1'] [data-limits]")
    assert limits.inner_text() == "不設限額"


@pytest.mark.parametrize("who", [None, "bob"], ids=["logged-out", "player"])
def test_staff_links_show_only_to_their_roles(live: Live, watched: Open, who: str | None) -> None:
    w = watched()
    if who:
        log_in(w, live, who)
    w.page.goto(live.url + "/par")
    assert w.page.locator("nav a[href='/supervisor']").is_hidden()
    assert w.page.locator("nav a[href='/auditor']").is_hidden()
    assert w.page.locator("nav a[href='/history']").is_visible() == bool(who)
    s = watched()
    log_in(s, live, "supervisor")
    assert s.page.locator("nav a[href='/supervisor']").is_visible()
    assert s.page.locator("nav a[href='/history']").is_hidden()


def test_the_turn_box_join_the_ops_and_the_log(live: Live, watched: Open) -> None:
    fund(live, "alice")
    open_table(live, "craps-turn", "craps")
    w = watched()
    log_in(w, live, "alice")
    w.page.goto(live.url + "/table/craps/craps-turn")
    box = w.page.locator("[data-turn-box]")
    box.wait_for()
    assert w.page.locator("[data-turn-title]").inner_text() == "Join the table"  # not my turn
    assert w.page.locator("[data-join]").is_visible()
    assert w.page.locator("[data-leave]").is_hidden()
    # an amount that is not one: said on the page, nothing sent (no 422 in the console)
    w.page.fill("[data-action-amount]", "abc")
    w.page.click("[data-join]")
    w.page.wait_for_selector("[data-toast]:has-text('Enter an amount in MOP')")
    w.page.fill("[data-action-amount]", "500")
    w.page.click("[data-join]")
    w.page.wait_for_selector("[data-my-seat]:has-text('alice')")
    w.page.wait_for_selector("[data-turn-title]:has-text('Your turn')")
    assert w.page.locator("[data-join]").is_hidden()  # joined: no Join
    names = w.page.locator("[data-actions] button").all_inner_texts()
    assert "Pass the dice" in names
    assert not [n for n in names if "_" in n], names
    # the log as the croupier says it; the raw journal one click away
    said = w.page.locator("[data-log] li[data-kind='craps.player_joined']")
    said.wait_for()
    assert said.inner_text() == "alice joins the table at seat 1 with MOP 500.00"
    log = w.page.inner_text("[data-log]")
    assert not HEX64.search(log) and "craps." not in log and "amount" not in log
    assert w.page.locator("[data-raw-log]").is_hidden()
    w.page.click("details.raw-log summary")
    raw = w.page.inner_text("[data-raw-log]")
    assert "craps.player_joined" in raw and "amount 50000" in raw
    assert HEX64.search(raw)  # the shooter's seed commitment, for auditors
    count = w.page.inner_text("[data-countdown]")
    assert not re.match(r"0s|\d+s ·", count), count
    # the action bar in Chinese: every operation named
    w.page.goto(live.url + "/table/craps/craps-turn?lang=zh")
    w.page.wait_for_selector("[data-actions] button")
    zh = w.page.locator("[data-actions] button").all_inner_texts()
    assert "讓出骰子" in zh and not [n for n in zh if re.search("[a-z]", n)], zh
    command(live, "alice", "craps-turn", "leave")


def test_a_watcher_has_no_turn_box(live: Live, watched: Open) -> None:
    w = watched()
    log_in(w, live, "bob")
    w.page.goto(live.url + "/table/paigow/paigow-1")
    w.page.wait_for_selector("[data-status]:not(:has-text('—'))")
    if w.page.locator("[data-my-seat]").inner_text() == "—":
        assert w.page.locator("[data-turn-title]").inner_text() == "Join the table"
    s = watched()
    log_in(s, live, "supervisor")  # staff do not play: no box, and no wallet asked for
    s.page.goto(live.url + "/table/paigow/paigow-1")
    s.page.wait_for_selector("[data-status]:not(:has-text('—'))")
    assert s.page.locator("[data-turn-box]").is_hidden()


def test_money_in_one_format_and_no_account_names(live: Live, watched: Open) -> None:
    w = watched()
    log_in(w, live, "alice")
    w.page.goto(live.url + "/cashier")
    said = w.page.evaluate(
        """async () => {
            const api = await import('/static/js/api.js');
            return [
                api.plainMessage('player:alice has MOP 20000.00, needs MOP$5,000.00 more'),
                api.plainMessage('stack:craps-1:alice holds MOP 12.5'),
            ];
        }"""
    )
    assert said == [
        "your wallet has MOP 20,000.00, needs MOP 5,000.00 more",
        "your chips holds MOP 12.50",
    ]
    # the cashier card: my wallet with its currency, said once
    balance = w.page.locator("[data-balance]")
    balance.wait_for()
    facts = w.page.locator("[data-wallet] dt").all_inner_texts()
    assert facts[0] == "Wallet" and "Balance" not in facts
    assert balance.inner_text().startswith("MOP ")
    c = watched()
    log_in(c, live, "cashier")
    c.page.goto(live.url + "/cashier")
    c.page.fill("#player", "alice")
    c.page.fill("#amount", "abc")
    c.page.click("button[value=deposit]")
    c.page.wait_for_selector("[data-error]:has-text('Enter an amount in MOP')")
    c.expect_refusal("/cashier/withdraw", 409)
    c.page.fill("#amount", "99999999")
    c.page.click("button[value=withdraw]")
    c.page.wait_for_selector("[data-error]:has-text('SRV-FUNDS')")
    error = c.page.inner_text("[data-error]")
    assert "player:" not in error and "MOP$" not in error, error


def test_money_and_messages_in_portuguese(live: Live, watched: Open) -> None:
    w = watched()
    log_in(w, live, "alice")
    w.page.goto(live.url + "/cashier?lang=pt")
    said = w.page.evaluate(
        """async () => {
            const api = await import('/static/js/api.js');
            return [
                api.plainMessage('player:alice has MOP 20000.00, needs MOP$5,000.00 more'),
                api.mop(123450), api.money(100000000),
                api.amountOf('25,50'), api.amountOf('1.000,00'), api.amountOf('25.50'),
                api.amountOf('abc'),
            ];
        }"""
    )
    assert said == [
        "a sua carteira has MOP 20.000,00, needs MOP 5.000,00 more",
        "MOP 1.234,50",
        "1.000.000,00",
        2550,
        100000,
        2550,
        None,
    ]
    balance = w.page.locator("[data-balance]")
    balance.wait_for()
    assert w.page.locator("[data-wallet] dt").all_inner_texts()[0] == "Carteira"
    assert re.fullmatch(r"MOP \d{1,3}(\.\d{3})*,\d{2}", balance.inner_text()), balance.inner_text()
    c = watched()
    log_in(c, live, "cashier")
    c.page.goto(live.url + "/cashier?lang=pt")
    c.page.fill("#player", "alice")
    c.page.fill("#amount", "abc")
    c.page.click("button[value=deposit]")
    c.page.wait_for_selector("[data-error]:has-text('Introduza um montante em MOP')")


def test_my_history_says_what_happened(live: Live, watched: Open) -> None:
    fund(live, "carol")
    open_table(live, "craps-history", "craps")
    assert command(live, "carol", "craps-history", "sit", amount=30_000).status_code == 200
    w = watched()
    log_in(w, live, "carol")
    w.page.goto(live.url + "/history")
    # her chips at the table, as money; joining is not playing: no round of it
    chips = w.page.locator("[data-account] [data-stack='craps-history']")
    chips.wait_for()
    assert chips.inner_text() == "MOP 300.00"
    w.page.wait_for_selector("[data-rounds-count]:has-text('Rounds')")
    assert w.page.locator("[data-round^='craps-history:']").count() == 0
    command(live, "carol", "craps-history", "leave")


def test_the_five_roads_are_one_tab_stop(live: Live, watched: Open) -> None:
    w = watched()
    log_in(w, live, "bob")
    w.page.goto(live.url + "/table/baccarat/baccarat-1")
    stops = w.page.locator(".roads [tabindex='0'], .roads figure[tabindex]").count()
    assert stops == 1


def test_a_tile_table_shows_my_total_and_clears_the_last_round(live: Live, watched: Open) -> None:
    w = watched()
    log_in(w, live, "alice")
    w.page.goto(live.url + "/table/paigow/paigow-view")
    w.page.wait_for_selector("[data-conn]:has-text('SRV-TABLE')")  # no such table: fed below
    last = {
        "round_no": 1,
        "hands": [[2, ["6-6", "1-3", "4-5", "2-2"]]],
        "results": [
            {
                "seat": 2,
                "player": "alice",
                "outcome": "win",
                "seat_result": "win",
                "net": 10_000,
                "bank_after": None,
            }
        ],
        "settlement_order": [2],
        "bank_shares": [],
        "resets": [],
    }
    view = {
        "game": "paigow", "phase": "betting", "round_no": 2, "seats": {"2": "alice"},
        "banker_seat": 1, "rules": {"places": 8},
        "bets": [{"seat": 2, "player": "alice", "amount": 10_000},
                 {"seat": 2, "player": "alice", "amount": 5_000}],
        "last_round": last,
    }  # fmt: skip
    pending = [{"actor": "player:alice", "operations": ["place_bet"], "rule": "PG-4.6"}]
    state = {"type": "state", "table_id": "paigow-view", "seq": 9, "status": "open",
             "view": view, "pending": pending, "countdown": None}  # fmt: skip
    w.page.evaluate("s => window.macauTable.receive(s)", state)
    assert w.page.inner_text("[data-my-total]") == "Your bet: MOP 150.00"
    assert w.page.inner_text("[data-amount='seat:2']") == "150.00"  # my chips on my place
    assert w.page.locator("[data-settlement] tr").count() == 0  # a new round: cleared
    assert w.page.locator(".place-tiles.last").count() == 0
    between = dict(state, view=dict(view, phase="bank", bets=[]))
    w.page.evaluate("s => window.macauTable.receive(s)", between)
    assert w.page.locator("[data-settlement] tr").count() == 1  # between rounds: shown
