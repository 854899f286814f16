"""The dealer's console in Chromium against the live server: at live
(dealer-operated) tables the dealer keys in from the page what the physical table shows,
and the engine refuses what the table cannot hold, naming the rule, recording nothing (the
journal's head and every balance unchanged):

* craps: a die out of 1-6 is refused (CR-1); the dice 5 and 6 settle the Pass Line in the
  ledger; the dealer applies the waiting shooter's default (CR-R7), in the audit log;
* baccarat from a physical 6-deck shoe: a seventh ace of spades and a malformed card are
  refused (BA-1); a valid deal and the third cards BA-9.1 and BA-9.3 call for settle the
  bets in the ledger and the page's log;
* Pai Gow from a physical woodpile: a tile dealt twice and a tile that is none of the 32 are
  refused (T-1); a valid keying deals the hands, the players set them, the dealer settles;
* Taiwan Pai Kao at 4 places: one woodpile serves two rounds (TW-2d); the dealer applies the
  waiting setters' defaults (TW-6b, TW-R1); in the second round a tile the first used up is
  refused (T-1); the woodpile ends after it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import httpx

from macau_tables.tiles import FULL_SET
from tests.web.conftest import Live, fund, log_in, post
from tests.web.harness import Watched, axe_violations

Open = Callable[..., Watched]
TABLE = "cr-dealer"


def command(live: Live, who: str, op: str, args: dict[str, Any], table: str = TABLE) -> Any:
    r = httpx.post(
        f"{live.url}/tables/{table}/commands",
        json={"op": op, "args": args},
        headers={
            "Authorization": f"Bearer {live.token(who)}",
            "Idempotency-Key": str(uuid.uuid4()),
        },
    )
    r.raise_for_status()
    return r.json()


def test_the_dealer_keys_in_a_live_craps_round(live: Live, watched: Open) -> None:
    fund(live, "alice")
    post(live, "supervisor", "/tables", {"id": TABLE, "game": "craps", "dealer": "live"})
    command(live, "alice", "sit", {"amount": 100_000})
    command(live, "alice", "place_bet", {"bet": "pass", "amount": 1_000})
    w = watched()
    log_in(w, live, "dealer")
    w.page.goto(f"{live.url}/dealer/{TABLE}")
    form = w.page.locator("[data-ops] [data-form=throw_dice]")
    form.wait_for()
    assert "live" in w.page.inner_text("[data-mode]")
    # no JSON typed anywhere: a field for each of the operation's arguments
    assert w.page.locator("textarea, [data-other-args]").count() == 0
    assert "alice has MOP 990.00 in chips" in w.page.inner_text("[data-state-words]")
    seq = live.get("dealer", f"/tables/{TABLE}")["seq"]
    # a die that no die shows: the engine refuses it with its rule (CR-1), nothing recorded
    w.expect_refusal(f"/tables/{TABLE}/commands", 422)
    form.get_by_label("Die 1", exact=True).fill("0")
    form.get_by_label("Die 2", exact=True).fill("7")
    form.locator("[type=submit]").click()
    w.page.wait_for_selector("[data-error-rule]:has-text('CR-1')")
    assert "1 to 6" in w.page.inner_text("[data-error-message]")
    assert live.get("dealer", f"/tables/{TABLE}")["seq"] == seq  # nothing recorded
    form.get_by_label("Die 1", exact=True).fill("5")
    form.get_by_label("Die 2", exact=True).fill("6")
    form.locator("[type=submit]").click()
    raw = "[data-raw-log] li:has-text('craps.dice_thrown'):has-text('dice 5 6')"
    w.page.wait_for_selector(raw, state="attached")
    w.page.wait_for_selector("[data-log] li[data-kind='craps.dice_thrown']:has-text('5 · 6')")
    w.page.wait_for_selector("[data-error]", state="hidden")
    stacks = live.get("alice", "/wallet")["stacks"]
    assert stacks[f"stack:{TABLE}:alice"] == 101_000  # eleven on the come-out: Pass wins
    # the shooter is waited for; nobody times him out: the dealer applies the default
    button = "[data-default-op=pass_dice][data-default-actor='player:alice']"
    w.page.wait_for_selector(button)
    assert "CR-R7" in w.page.inner_text(button)
    w.page.click(button)
    w.page.wait_for_selector("[data-raw-log] li:has-text('table.timed_out')", state="attached")
    entry = live.get("auditor", "/audit/log")[0]
    assert (entry["user"], entry["action"]) == ("dealer", "apply_default")
    assert live.get("auditor", "/audit/ledger") == {"ok": True, "problems": []}
    assert axe_violations(w.page) == []


def money(live: Live, table: str, *players: str) -> dict[str, int]:
    """Every balance a round at ``table`` moves (the players' wallets and stacks, the
    table's wagers, bank, house and commission accounts), as the auditor reads the ledger."""
    names = [f"player:{p}" for p in players] + [f"stack:{table}:{p}" for p in players]
    names += [f"{a}:{table}" for a in ("wagers", "bank", "house", "commission")]
    out = {}
    for name in names:
        r = httpx.get(
            f"{live.url}/accounts/{name}",
            headers={"Authorization": f"Bearer {live.token('auditor')}"},
        )
        if r.status_code != 404:  # an account nobody has posted to yet
            r.raise_for_status()
            out[name] = int(r.json()["balance"])
    return out


def head(live: Live, table: str) -> tuple[int, str]:
    """The table's journal head: its last seq and hash."""
    info = live.get("dealer", f"/tables/{table}")
    return int(info["seq"]), str(info["head"])


def key_in(w: Watched, form: str, fields: dict[str, str], status: int = 200) -> None:
    """The dealer fills a key-in form by its fields' labels (their accessible names) and
    submits it; the server answers ``status``."""
    box = w.page.locator(f"[data-form={form}]")
    box.wait_for()
    for label, value in fields.items():
        box.get_by_label(label, exact=True).fill(value)
    with w.page.expect_response(lambda r: r.url.endswith("/commands")) as answer:
        box.get_by_role("button").click()
    assert answer.value.status == status, answer.value.text()


def refused_in_page(w: Watched, rule: str, *words: str) -> None:
    """The page shows the engine's refusal (with ``words``) and its rule."""
    message = "[data-error]:not([hidden]) [data-error-message]"
    for word in words:
        w.page.locator(message, has_text=word).wait_for()
    assert w.page.inner_text("[data-error-rule]") == f"({rule})"


BA = "ba-dealer"
SLOTS = ("Player's first card", "Banker's first card", "Player's second card",
         "Banker's second card")  # fmt: skip


def cards(*dealt: str) -> dict[str, str]:
    """The deal form's fields: the four cards in dealing order (BA-7.1)."""
    return dict(zip(SLOTS, dealt, strict=True))


def test_the_dealer_keys_in_a_live_baccarat_hand_card_by_card(live: Live, watched: Open) -> None:
    fund(live, "alice", "bob")
    post(live, "supervisor", "/tables",
         {"id": BA, "game": "baccarat", "dealer": "live", "options": {"decks": 6}})  # fmt: skip
    for who in ("alice", "bob"):
        command(live, who, "sit", {"amount": 100_000}, BA)
    w = watched()
    log_in(w, live, "dealer")
    w.page.goto(f"{live.url}/dealer/{BA}")
    # BA-1 / BA-2.1: a physical shoe, shuffled at the table; the dealer cuts (burning by decks)
    w.page.click("[data-ops] button[data-op=open_shoe]")
    w.page.click("[data-ops] button[data-op=cut]")
    burned = "[data-raw-log] li:has-text('baccarat.cards_burned')"
    w.page.wait_for_selector(burned, state="attached")
    # a hand of aces of spades: Player's 2 draws (BA-9.1), then Banker's 2 (BA-9.3)
    key_in(w, "deal", cards("As", "As", "As", "As"))
    w.page.wait_for_selector("[data-third-side]:has-text('player')")
    key_in(w, "draw", {"Card": "As"})
    w.page.wait_for_selector("[data-third-side]:has-text('banker')")
    key_in(w, "draw", {"Card": "As"})  # the six aces of spades of six decks are out
    w.page.wait_for_selector(
        "[data-raw-log] li:has-text('baccarat.hand_settled'):has-text('hand 1')", state="attached"
    )
    command(live, "alice", "place_bet", {"bet": "player", "amount": 10_000}, BA)
    command(live, "bob", "place_bet", {"bet": "banker", "amount": 10_000}, BA)
    w.page.wait_for_selector("[data-log] li[data-kind='baccarat.bet_placed']:has-text('bob')")
    # the table in words, its money as money (not avos)
    w.page.wait_for_selector("[data-state-words] li:has-text('bob bets MOP 100.00 on Banker')")
    before, at = money(live, BA, "alice", "bob"), head(live, BA)
    assert before[f"stack:{BA}:alice"] == before[f"stack:{BA}:bob"] == 90_000  # staked
    assert before[f"wagers:{BA}"] == 20_000
    # BA-1: a seventh ace of spades is more than the shoe holds: refused, nothing recorded
    w.expect_refusal(f"/tables/{BA}/commands", 422)
    key_in(w, "deal", cards("As", "Kh", "3d", "Qs"), 422)
    refused_in_page(w, "BA-1", "As", "6 decks")
    assert (head(live, BA), money(live, BA, "alice", "bob")) == (at, before)
    # BA-1: a card that is none of the 52 (a mistyped rank) is refused the same way
    key_in(w, "deal", cards("2c", "Kh", "1d", "Qs"), 422)
    refused_in_page(w, "BA-1", "1d")
    assert (head(live, BA), money(live, BA, "alice", "bob")) == (at, before)
    # the cards as dealt: Player 2c 3d (5), Banker Kh Qs (0)
    key_in(w, "deal", cards("2c", "Kh", "3d", "Qs"))
    w.page.wait_for_selector("[data-error]", state="hidden")
    w.page.wait_for_selector("[data-third-side]:has-text('player')")
    assert "BA-9.1" in w.page.inner_text("[data-pending-rules]")  # Player's 5 draws
    key_in(w, "draw", {"Card": "4h"})
    w.page.wait_for_selector("[data-third-side]:has-text('banker')")
    assert "BA-9.3" in w.page.inner_text("[data-pending-rules]")  # Banker's 0 draws
    key_in(w, "draw", {"Card": "5d"})
    settled = w.page.locator(
        "[data-raw-log] li:has-text('baccarat.hand_settled'):has-text('hand 2')"
    )
    settled.wait_for(state="attached")
    shown = settled.text_content() or ""
    assert "outcome P, player_total 9, banker_total 5" in shown  # BA-11
    assert "player alice bet player" in shown and "result win won 10000" in shown
    assert "player bob bet banker" in shown and "result lose" in shown
    after = money(live, BA, "alice", "bob")
    assert after == {**before, f"stack:{BA}:alice": 110_000, f"wagers:{BA}": 0}  # BA-17 1:1
    assert live.get("auditor", "/audit/ledger") == {"ok": True, "problems": []}
    assert axe_violations(w.page) == []


PG = "pg-dealer"
TILES = [str(t) for t in FULL_SET]  # T-1: the 32 tiles
# the hands as dealt: the banker (seat 1) gets the Yun and Gor pairs, bob (seat 2) the Teen
# and Day pairs, the six empty seats the rest (PG-1.4: every stack is dealt)
DEALT = {1: TILES[4:8], 2: TILES[0:4], **{s: TILES[4 * (s - 1) : 4 * s] for s in range(3, 9)}}


def hands(dealt: dict[int, list[str]]) -> str:
    """The shake form's hands, a line a seat: ``1: 4-4 4-4 1-3 1-3``."""
    return "\n".join(f"{seat}: {' '.join(tiles)}" for seat, tiles in dealt.items())


def shake(w: Watched, dealt: dict[int, list[str]], status: int = 200) -> None:
    dice = {f"Die {n}": str(n) for n in range(1, 5)}  # the banker's dice as they lie (PG-1.2)
    seats = {f"Seat {seat}": " ".join(tiles) for seat, tiles in dealt.items()}
    key_in(w, "shake", {**dice, **seats}, status)


def open_tile_table(
    live: Live, watched: Open, table: str, game: str, options: dict[str, Any] | None = None
) -> Watched:
    """A live tile table: alice (seat 1) banks 50,000 of her 100,000 chips, bob sits at
    seat 2; the dealer's page open, the physical woodpile built from it (T-1)."""
    fund(live, "alice", "bob")
    post(
        live,
        "supervisor",
        "/tables",
        {"id": table, "game": game, "dealer": "live", "options": options or {}},
    )
    for seat, who in ((1, "alice"), (2, "bob")):
        command(live, who, "sit", {"seat": seat}, table)
        command(live, who, "buy_in", {"amount": 100_000}, table)
    command(live, "alice", "open_bank", {"capital": 50_000}, table)
    w = watched()
    log_in(w, live, "dealer")
    w.page.goto(f"{live.url}/dealer/{table}")
    w.page.click("[data-ops] button[data-op=build_woodpile]")
    w.page.wait_for_selector("[data-ops] [data-form=shake]")
    return w


def test_the_dealer_keys_in_a_live_pai_gow_deal(live: Live, watched: Open) -> None:
    w = open_tile_table(live, watched, PG, "paigow")
    command(live, "bob", "place_bet", {"seat": 2, "amount": 10_000}, PG)
    w.page.wait_for_selector("[data-log] li[data-kind='tiletable.bet_placed']")
    before, at = money(live, PG, "alice", "bob"), head(live, PG)
    # T-1: seat 2's tiles dealt again at seat 3 — the set has two Teen, not four
    w.expect_refusal(f"/tables/{PG}/commands", 422)
    shake(w, {**DEALT, 3: DEALT[2]}, 422)
    refused_in_page(w, "T-1", "seat 3", "6-6")
    assert (head(live, PG), money(live, PG, "alice", "bob")) == (at, before)
    # T-1: a tile that is none of the 32
    shake(w, {**DEALT, 3: ["7-7", *DEALT[3][1:]]}, 422)
    refused_in_page(w, "T-1", "7-7")
    assert (head(live, PG), money(live, PG, "alice", "bob")) == (at, before)
    shake(w, DEALT)
    w.page.wait_for_selector("[data-log] li[data-kind='tiletable.hands_keyed']")
    w.page.wait_for_selector("[data-error]", state="hidden")
    view = live.get("bob", f"/tables/{PG}/view")["view"]
    assert view["hands"] == {"2": DEALT[2]}  # bob sees his seat's tiles only
    # the players set their hands, the banker last (PG-5.1, PG-8.1)
    w.page.wait_for_selector("[data-waiting] [data-default-actor='player:bob']")
    command(live, "bob", "set_tiles", {"seat": 2, "front": ["1-1", "1-1"]}, PG)
    command(live, "alice", "set_tiles", {"seat": 1, "front": ["1-3", "1-3"]}, PG)
    w.page.click("[data-ops] button[data-op=settle]")  # PG-8.3: the dealer turns the hands
    settled = w.page.locator("[data-raw-log] li:has-text('tiletable.round_settled')")
    settled.wait_for(state="attached")
    shown = settled.text_content() or ""
    assert "settings 1 [1-3 1-3] [4-4 4-4]; 2 [1-1 1-1] [6-6 6-6]" in shown
    # bob's Day and Teen pairs beat the banker's Gor and Yun pairs; 4% of the win (PG-4.2)
    assert "player bob seat 2 amount 10000 outcome win" in shown
    assert "net 9600 commission 400" in shown and "bank_shares alice -10000" in shown
    after = money(live, PG, "alice", "bob")
    assert after == {
        **before,
        f"stack:{PG}:bob": 109_600,  # 90,000 + the stake back + 9,600
        f"stack:{PG}:alice": 90_000,  # the bank's 40,000 back to her chips
        f"wagers:{PG}": 0,
        f"bank:{PG}": 0,
        f"commission:{PG}": 400,
    }
    assert live.get("auditor", "/audit/ledger") == {"ok": True, "problems": []}
    assert axe_violations(w.page) == []


TW = "tw-dealer"


def test_the_dealer_keys_in_two_taiwan_rounds_from_one_woodpile(live: Live, watched: Open) -> None:
    """TW-2d: at 4 places one woodpile serves two rounds; the second round's hands come from
    the 16 tiles the first left, and a tile the first used up is refused (T-1)."""
    w = open_tile_table(live, watched, TW, "taiwan", {"places": 4})
    command(live, "bob", "place_bet", {"seat": 2, "amount": 10_000}, TW)
    w.page.wait_for_selector("[data-log] li[data-kind='tiletable.bet_placed']")
    # round 1: the banker (seat 1) gets the Teen and Day pairs, bob the Yun and Gor pairs
    shake(w, {s: TILES[4 * (s - 1) : 4 * s] for s in range(1, 5)})
    w.page.wait_for_selector("[data-log] li[data-kind='tiletable.hands_keyed']")
    # nobody is timed out at a live table: the dealer applies each waiting setter's default
    # from the page (TW-6b's forced setting for bob, then the banker's, TW-R1)
    for actor, rule in (("player:bob", "TW-6b"), ("player:alice", "TW-R1")):
        button = w.page.locator(f"[data-waiting] [data-default-actor='{actor}']")
        button.click()
        w.page.wait_for_selector(
            f"[data-raw-log] li:has-text('{actor}'):has-text('rule {rule}')", state="attached"
        )
    w.page.click("[data-ops] button[data-op=settle]")
    done = "[data-raw-log] li:has-text('tiletable.round_settled')"
    w.page.locator(done, has_text="round_no 1").wait_for(state="attached")
    # round 2 from the same woodpile: the banker keeps the bank, bob bets again
    command(live, "alice", "open_bank", {"capital": 59_500}, TW)  # TW-5b: keeping it whole
    command(live, "bob", "place_bet", {"seat": 2, "amount": 10_000}, TW)
    w.page.wait_for_selector(
        "[data-raw-log] li:has-text('tiletable.bet_placed'):has-text('bet-2')", state="attached"
    )
    assert w.page.locator("[data-ops] button[data-op=build_woodpile]").count() == 0  # TW-2d
    second = {
        1: ["1-5", "1-5", "4-5", "3-6"],  # the banker: the Look and mixed-nine pairs
        2: ["4-6", "4-6", "1-6", "1-6"],  # bob: the Ping and Tit pairs
        3: ["3-5", "2-6", "3-4", "2-5"],
        4: ["2-4", "1-4", "2-3", "1-2"],
    }
    assert sorted(t for h in second.values() for t in h) == sorted(TILES[16:])
    before, at = money(live, TW, "alice", "bob"), head(live, TW)
    # T-1: a Teen at seat 3 — round 1 dealt both Teen from this woodpile
    w.expect_refusal(f"/tables/{TW}/commands", 422)
    shake(w, {**second, 3: ["6-6", *second[3][1:]]}, 422)
    refused_in_page(w, "T-1", "seat 3", "6-6")
    assert (head(live, TW), money(live, TW, "alice", "bob")) == (at, before)
    shake(w, second)
    w.page.wait_for_selector("[data-error]", state="hidden")
    # the players set their hands (bob's back the highest, as TW-6b wants), the banker last
    command(live, "bob", "set_tiles", {"seat": 2, "front": ["1-6", "1-6"]}, TW)
    command(live, "alice", "set_tiles", {"seat": 1, "front": ["4-5", "3-6"]}, TW)
    w.page.click("[data-ops] button[data-op=settle]")
    settled = w.page.locator(done, has_text="round_no 2")
    settled.wait_for(state="attached")
    shown = settled.text_content() or ""
    assert "resets ," in shown  # bob's setting stood: nothing re-set
    assert "player bob seat 2 amount 10000 outcome win" in shown
    assert "net 9500 commission 500" in shown  # TW-8, TW-R3: 5% of the win
    after = money(live, TW, "alice", "bob")
    assert after == {
        **before,
        f"stack:{TW}:bob": before[f"stack:{TW}:bob"] + 19_500,
        f"stack:{TW}:alice": before[f"stack:{TW}:alice"] + 49_500,
        f"wagers:{TW}": 0,
        f"bank:{TW}": 0,
        f"commission:{TW}": before[f"commission:{TW}"] + 500,
    }
    # TW-2d / TW-R2: the woodpile is used up after its second round (not after its first)
    ended = "[data-raw-log] li:has-text('tiletable.woodpile_ended')"
    w.page.wait_for_selector(ended, state="attached")
    kinds = [e["kind"] for e in live.get("dealer", f"/tables/{TW}/events")]
    assert kinds.count("tiletable.woodpile_ended") == 1 and kinds[-1] == "tiletable.woodpile_ended"
    assert live.get("auditor", "/audit/ledger") == {"ok": True, "problems": []}
    assert axe_violations(w.page) == []
