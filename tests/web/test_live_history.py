"""The player's history and account in Chromium against the live server: a round he played
— his stake on each spot, its result and what it paid, the time, the dice — as the ledger
and the table's own replies say it; his wallet, chips and the session's win or loss; the
round's journal saved from the page, which ``macau-tables verify`` checks (and a byte changed
in it, it refuses); older rounds a page further; the three languages."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.conftest import ROOT, Live, fund, log_in, post
from tests.web.harness import Watched, axe_violations

Open = Callable[..., Watched]
BAD = re.compile(r"\bundefined\b|\[object Object\]|\bNaN\b")
TABLE = "cr-hist"


def command(live: Live, who: str, op: str, args: dict[str, Any] | None = None) -> Any:
    r = httpx.post(
        f"{live.url}/tables/{TABLE}/commands",
        json={"op": op, "args": args or {}},
        headers={
            "Authorization": f"Bearer {live.token(who)}",
            "Idempotency-Key": str(uuid.uuid4()),
        },
    )
    assert r.status_code == 200, r.text
    return r.json()


def verify(path: Path, head: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    argv = [sys.executable, "-c", "from macau_tables.cli.app import main; main()",
            "verify", str(path), "--head", head]  # fmt: skip
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120, check=False)


@pytest.fixture(scope="module")
def played(live: Live) -> dict[str, Any]:
    """Carol shoots at an auto-dealt craps table of her own: the Field twice, MOP 10 each
    (one roll each: settled by it), and passes the dice, which reveals the shooter's seed."""
    post(live, "supervisor", "/tables", {"id": TABLE, "game": "craps", "betting_seconds": 60})
    fund(live, "carol")
    command(live, "carol", "sit", {"amount": 50_000})
    rolls = []
    for _ in range(2):
        command(live, "carol", "place_bet", {"bet": "field", "amount": 1_000})
        events = command(live, "carol", "throw")["events"]
        thrown = next(e["data"] for e in events if e["kind"] == "craps.dice_thrown")
        settled = next(e["data"] for e in events if e["kind"] == "craps.roll_settled")
        rolls.append({"dice": thrown["dice"], "result": settled["results"][0]})
    command(live, "carol", "pass_dice")
    return {"rolls": rolls, "stack": live.get("carol", "/wallet")["stacks"][f"stack:{TABLE}:carol"]}


def test_my_history_shows_the_round_as_the_ledger_says_and_its_journal_verifies(
    live: Live, watched: Open, played: dict[str, Any], tmp_path: Path
) -> None:
    w = watched()
    log_in(w, live, "carol")
    w.page.goto(live.url + "/history")
    last = w.page.locator(f"[data-round='{TABLE}:2']")
    last.wait_for()
    roll = played["rolls"][1]
    result = roll["result"]
    # the dice, drawn and said; the bet with its stake, result and what it paid back
    assert last.locator("svg[aria-label^='die']").count() == 2
    assert f"= {sum(roll['dice'])}" in last.inner_text()
    bet = last.locator("tbody tr")
    assert bet.count() == 1
    cells = bet.locator("td").all_inner_texts()
    paid = {"win": 1_000 + result["won"], "lose": 0}[result["result"]]
    assert cells[1:4] == ["Field", "MOP 10.00", {"win": "won", "lose": "lost"}[result["result"]]]
    assert cells[4] == f"MOP {paid / 100:,.2f}"
    net = paid - 1_000
    assert last.get_attribute("data-net") == str(net)
    recall = live.get("carol", "/players/carol/recall")["rounds"]
    mine = next(r for r in recall if (r["table_id"], r["round"]) == (TABLE, 2))
    assert mine["money"]["players"]["carol"]["net"] == net  # the ledger's figure
    # my account: the chips at the table as the ledger holds them
    chips = w.page.locator(f"[data-account] [data-stack='{TABLE}']")
    assert chips.inner_text() == f"MOP {played['stack'] / 100:,.2f}"
    assert w.page.locator("[data-account] [data-session]").count() == 1

    # the round's journal, saved from the page, verified offline
    with w.page.expect_download() as saved:
        last.locator("button[data-export]").click()
    assert saved.value.suggested_filename == f"{TABLE}-round-2.json"
    path = tmp_path / saved.value.suggested_filename
    saved.value.save_as(path)
    cmd = last.locator("[data-verify-command]")
    cmd.wait_for()
    words = cmd.inner_text().split()
    assert words[:3] == ["macau-tables", "verify", path.name] and words[3] == "--head"
    head = words[4]
    assert live.get("carol", f"/tables/{TABLE}")["head"].startswith(head)
    done = verify(path, head)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok ") and "chain intact" in done.stdout, done.stdout
    excerpt = json.loads(path.read_text())
    shown = [e for e in excerpt["entries"] if not e.get("withheld")]
    # the round's throw is in it for all to check: its seed was revealed when the dice passed
    assert any(
        e["event"]["kind"] == "craps.dice_thrown" and e["event"]["data"]["dice"] == roll["dice"]
        for e in shown
    )
    # one byte changed and it does not verify
    forged = tmp_path / "forged.json"
    entry = next(
        e for e in excerpt["entries"] if e.get("event", {}).get("kind") == "craps.bet_placed"
    )
    entry["event"]["data"]["amount"] = 100
    forged.write_text(json.dumps(excerpt))
    bad = verify(forged, head)
    assert bad.returncode == 2 and "JournalTampered" in bad.stderr, bad.stderr
    text = w.page.inner_text("main")
    assert BAD.search(text) is None, text
    assert axe_violations(w.page) == []


def test_older_rounds_come_a_page_further(
    live: Live, watched: Open, played: dict[str, Any]
) -> None:
    for _ in range(10):  # ten more rolls of the Field: twelve rounds at this table
        command(live, "carol", "place_bet", {"bet": "field", "amount": 100})
        command(live, "carol", "throw")
        command(live, "carol", "pass_dice")
    w = watched()
    log_in(w, live, "carol")
    w.page.goto(live.url + "/history")
    rounds = w.page.locator(f"[data-rounds] article[data-round^='{TABLE}:']")
    w.page.wait_for_selector(f"[data-round='{TABLE}:12']")
    first_page = rounds.count()
    assert first_page <= 10 and w.page.locator("[data-older]").is_visible()
    w.page.click("[data-older]")
    w.page.wait_for_selector(f"[data-round='{TABLE}:1']")
    shown = rounds.evaluate_all("n => n.map(a => a.dataset.round)")
    numbers = [int(r.split(":")[1]) for r in shown]
    assert numbers == list(range(12, 0, -1))  # each once, newest first


@pytest.mark.parametrize(("lang", "field"), [("zh", "倍"), ("pt", "Campo")])
def test_my_history_in_chinese_and_portuguese(
    live: Live, watched: Open, played: dict[str, Any], lang: str, field: str
) -> None:
    w = watched()
    log_in(w, live, "carol")
    w.page.goto(f"{live.url}/history?lang={lang}")
    newest = w.page.locator(f"[data-rounds] article[data-round^='{TABLE}:']").first
    bet = newest.locator("tbody tr td").nth(1)
    bet.wait_for()
    assert bet.inner_text() == field
    stake = newest.locator("tbody tr td.num").first.inner_text()
    money = r"MOP \d+,\d{2}" if lang == "pt" else r"澳門元 \d+\.\d{2}"
    assert re.fullmatch(money, stake), stake
    text = w.page.inner_text("main")
    assert BAD.search(text) is None, text
    assert axe_violations(w.page) == []
