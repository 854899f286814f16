"""Baccarat as a player plays it, in Chromium against the live server: chips picked on the
rail and put on the spots (undo, double, rebet, clear; a chip I cannot afford greyed), the
bet confirmed, my result on each spot and in the rounds, my chips as the ledger has them;
another player sees my bet as a stack; a whole round by the keyboard alone, squeezing the
cards I hold (BA-16); the round I missed while disconnected; the sound's switch remembered."""

from __future__ import annotations

from collections.abc import Callable

from tests.web.conftest import Live, fund, log_in
from tests.web.harness import Watched
from tests.web.player import (
    chips,
    confirm,
    events,
    frames_of,
    open_table,
    seated,
    stack_is_the_ledgers,
    wait_until,
    words_are_words,
)

Open = Callable[..., Watched]
TABLE = "pl-bac"
SQUEEZE = "pl-bac-sq"


def settled_with(frames: list, who: str, after: int = -1) -> dict | None:
    """The first settlement after seq ``after`` with a bet of ``who``."""
    for f in events(frames, "baccarat.hand_settled"):
        if f["seq"] > after and any(r["player"] == who for r in f["event"]["data"]["results"]):
            return f
    return None


def net_of(row: dict) -> int:
    """BA-17 / BA-18: a win pays less the commission; a loss costs the stake; a push is 0."""
    return {"win": row["won"] - row["commission"], "lose": -row["stake"], "push": 0}[row["result"]]


def test_a_round_with_chips_my_result_and_another_players_view(live: Live, watched: Open) -> None:
    fund(live, "alice", "bob")
    open_table(live, TABLE, "baccarat", betting_seconds=10, action_seconds=60)
    alice, bob = watched(), watched()
    frames = frames_of(alice)
    log_in(alice, live, "alice")
    alice.page.goto(f"{live.url}/table/baccarat/{TABLE}")
    alice.page.fill("[data-action-amount]", "5000")
    alice.page.select_option("[data-join-seat]", "1")
    alice.page.click("[data-join]")
    alice.page.wait_for_selector("[data-my-seat]:has-text('alice')")
    seated(live, "bob", TABLE, amount=100_000)
    log_in(bob, live, "bob")
    bob.page.goto(f"{live.url}/table/baccarat/{TABLE}")
    alice.page.wait_for_selector("[data-spot=banker]:enabled", timeout=60_000)
    stack_is_the_ledgers(alice, live, "alice", TABLE)
    # MOP 5,000 of chips: the 10,000 chip is greyed (more than my chips), the 5,000 is not
    assert alice.page.locator("#chip-10000").is_disabled()
    assert "greyed" in (alice.page.get_attribute("label[for=chip-10000]", "class") or "")
    assert alice.page.locator("#chip-5000").is_enabled()
    chips(alice, "banker", 100, 2)
    chips(alice, "tie", 500)
    assert alice.page.get_attribute("[data-draft-note]", "data-avos") == "70000"
    alice.page.click("[data-undo]")  # the tie's chip comes back
    assert alice.page.inner_text("[data-amount=tie]") == ""
    alice.page.click("[data-double]")  # MOP 200 on Banker doubled: 400
    assert alice.page.inner_text("[data-amount=banker]") == "400.00"
    assert alice.page.get_attribute("[data-draft-note]", "data-avos") == "40000"
    placed_at = max(f["seq"] for f in frames if isinstance(f.get("seq"), int))
    confirm(alice, "banker", 40_000)
    assert alice.page.get_attribute("[data-total-bet]", "data-avos") == "40000"
    assert alice.page.locator("[data-chips=banker] svg.chip-stack.mine").count() == 1
    # bob sees her bet on the Banker spot, as another player's stack
    bob.page.wait_for_selector("[data-others=banker]:has-text('400.00')")
    assert bob.page.locator("[data-chips=banker] svg.chip-stack.others").count() == 1
    assert bob.page.get_attribute("[data-amount=banker]", "data-avos") == "0"
    ours = wait_until(alice, lambda: settled_with(frames, "alice", placed_at), timeout=90)
    row = next(r for r in ours["event"]["data"]["results"] if r["player"] == "alice")
    hand = ours["event"]["data"]["hand"]
    alice.page.wait_for_selector(f"[data-spot-result=banker][data-my-result='{row['result']}']")
    first = alice.page.locator(f"[data-rounds] li[data-round='{hand}'] .you")
    assert first.get_attribute("data-net") == str(net_of(row))
    want = max(0, net_of(row))
    alice.page.wait_for_selector(f"[data-last-win][data-avos='{want}']")
    stack = stack_is_the_ledgers(alice, live, "alice", TABLE)
    # her MOP 5,000 less the bet; a win comes back with its winnings, a push stays on the
    # layout (BA-12)
    assert stack == 460_000 + (40_000 + net_of(row) if row["result"] == "win" else 0)
    # the next hand: Rebet puts the last bets in the draft again; Clear takes them back
    alice.page.wait_for_selector("[data-rebet]:enabled", timeout=60_000)
    alice.page.click("[data-rebet]")
    assert alice.page.get_attribute("[data-draft-note]", "data-avos") == "40000"
    alice.page.click("[data-clear]")
    assert alice.page.get_attribute("[data-draft-note]", "data-avos") == "0"
    for w in (alice, bob):
        words_are_words(w)


def test_a_round_by_the_keyboard_alone_with_the_squeeze(live: Live, watched: Open) -> None:
    """Join, pick a chip, bet, confirm and squeeze (BA-16: the seated player with the largest
    bet on a side turns its cards) with the keys only."""
    fund(live, "carol")
    open_table(live, SQUEEZE, "baccarat", options={"squeeze": True}, betting_seconds=10,
               action_seconds=90)  # fmt: skip
    w = watched()
    frames = frames_of(w)
    log_in(w, live, "carol")
    w.page.goto(f"{live.url}/table/baccarat/{SQUEEZE}")
    w.page.wait_for_selector("[data-join]:visible")
    key = w.page.keyboard

    def tab_to(selector: str) -> None:
        for _ in range(80):
            key.press("Tab")
            if w.page.evaluate("s => document.activeElement.matches(s)", selector):
                return
        raise AssertionError(f"Tab never reached {selector}")

    tab_to("[data-action-amount]")
    key.press("Control+A")
    key.type("3000")
    tab_to("[data-join-seat]")
    key.press("ArrowDown")  # seat 1
    tab_to("[data-join]")
    key.press("Enter")
    w.page.wait_for_selector("[data-my-seat]:has-text('carol')")
    w.page.wait_for_selector("[data-spot=banker]:enabled", timeout=60_000)
    w.page.evaluate("document.activeElement.blur()")
    key.press("2")  # the second chip: MOP 500
    assert w.page.locator("#chip-500").is_checked()
    key.press("b")
    key.press("b")
    assert w.page.get_attribute("[data-draft-note]", "data-avos") == "100000"
    key.press("c")
    w.page.wait_for_selector("[data-amount=banker][data-avos='100000']")
    placed = max(f["seq"] for f in events(frames, "baccarat.bet_placed"))
    # the squeeze is hers: the page says so; S turns the cards she holds over
    w.page.wait_for_selector("[data-squeeze]:not([hidden])", timeout=60_000)
    assert "Banker" in w.page.inner_text("[data-squeeze-title]")
    w.page.wait_for_selector("[data-timer]:not([hidden])")  # her time to squeeze, as a ring
    while not settled_with(frames, "carol", placed):
        if w.page.locator("[data-reveal]:not([hidden]):enabled").count():
            key.press("s")
        w.page.wait_for_timeout(300)
    ours = settled_with(frames, "carol", placed)
    assert ours is not None
    revealed = [
        f["event"]["data"] for f in events(frames, "baccarat.cards_revealed")
        if placed < f["seq"] < ours["seq"]
    ]  # fmt: skip
    assert ("banker", "carol") in [(r["side"], r["by"]) for r in revealed]
    row = next(r for r in ours["event"]["data"]["results"] if r["player"] == "carol")
    w.page.wait_for_selector(f"[data-spot-result=banker][data-my-result='{row['result']}']")
    stack_is_the_ledgers(w, live, "carol", SQUEEZE)


def test_the_round_i_missed_while_disconnected_is_said(live: Live, watched: Open) -> None:
    fund(live, "bob")
    open_table(live, TABLE, "baccarat", betting_seconds=10, action_seconds=60)
    seated(live, "bob", TABLE, amount=100_000)
    w = watched()
    log_in(w, live, "bob")
    w.page.goto(f"{live.url}/table/baccarat/{TABLE}")
    w.page.wait_for_selector("[data-spot=player]:enabled", timeout=60_000)
    chips(w, "player", 100)
    confirm(w, "player", 10_000)
    # the connection drops (and stays down) until the hand is settled
    w.page.evaluate(
        """t => { const x = window.macauTables[t]; x.connect = () => {}; x.ws.close(); }""", TABLE
    )
    seq = w.page.evaluate("t => window.macauTables[t].lastSeq", TABLE)

    def settled() -> dict | None:
        got = live.get("bob", f"/tables/{TABLE}/events?after={seq}&limit=500")
        ours = [e for e in got if e["kind"] == "baccarat.hand_settled"]
        mine = [e for e in ours if any(r["player"] == "bob" for r in e["data"]["results"])]
        return mine[0] if mine else None

    missed = wait_until(w, settled, timeout=90)
    assert w.page.locator("[data-missed]").is_hidden()
    back = "t => { const x = window.macauTables[t]; delete x.connect; x.connect() }"
    w.page.evaluate(back, TABLE)
    box = w.page.locator(f"[data-missed] li[data-round='{missed['data']['hand']}']")
    box.wait_for(timeout=15_000)
    row = next(r for r in missed["data"]["results"] if r["player"] == "bob")
    said = {"win": "Won", "lose": "Lost", "push": "Push"}[row["result"]]
    assert said in box.inner_text()
    w.page.click("[data-missed-close]")
    assert w.page.locator("[data-missed]").is_hidden()


def test_the_sound_plays_when_betting_opens_and_its_switch_is_remembered(
    live: Live, watched: Open
) -> None:
    fund(live, "bob")
    open_table(live, TABLE, "baccarat", betting_seconds=10, action_seconds=60)
    seated(live, "bob", TABLE, amount=100_000)
    w = watched()
    log_in(w, live, "bob")
    w.page.goto(f"{live.url}/table/baccarat/{TABLE}")
    mute = w.page.locator("[data-mute]")
    assert mute.get_attribute("aria-pressed") == "true"
    played = "async () => (await import('/static/js/sound.js')).played"
    wait_until(w, lambda: "open" in w.page.evaluate(played), timeout=90)  # a betting window opened
    mute.click()
    assert mute.get_attribute("aria-pressed") == "false"
    w.page.reload()
    w.page.wait_for_selector("[data-status]:not(:has-text('—'))")
    assert w.page.locator("[data-mute]").get_attribute("aria-pressed") == "false"
    w.page.wait_for_timeout(12_000)  # (a betting window or more passes, muted)
    assert w.page.evaluate(played) == []
    w.page.click("[data-mute]")
    assert w.page.locator("[data-mute]").get_attribute("aria-pressed") == "true"
