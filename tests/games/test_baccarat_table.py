"""The baccarat table under the table contract: replay that re-checks every event,
views that hide what is face down, time-outs, money as a projection of events."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from macau_tables.cli.app import app
from macau_tables.core.errors import InvalidInput, MacauTablesError
from macau_tables.core.journal import Entry, Event, Journal, event_from_json
from macau_tables.core.ledger import CAGE, Ledger, Transaction
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.core.visibility import Viewer
from macau_tables.games.baccarat import (
    BaccaratPhase,
    BaccaratRules,
    BaccaratTable,
    Card,
    ShoeEnded,
    full_set,
    replay_baccarat,
)
from macau_tables.games.contract import Actor, Command, TableEngine, time_out

runner = CliRunner()
ALICE, BOB = Actor.player("alice"), Actor.player("bob")


def _session(seed: str = "contract", hands: int = 6, squeeze: bool = True) -> BaccaratTable:
    t = BaccaratTable(BaccaratRules(decks=6, squeeze=squeeze))
    rng = Rng.seeded(seed)
    t.execute(Command(ALICE, "sit", {"seat": 1, "amount": 100_000}))
    t.execute(Command(BOB, "sit", {"seat": None, "amount": 50_000}))
    t.execute(Command(Actor.DEALER, "shuffle"), rng)
    t.execute(Command(ALICE, "cut", {"from_end": 20}))
    for _ in range(hands):
        t.execute(Command(ALICE, "place_bet", {"bet": "banker", "amount": 10_000}))
        t.execute(Command(BOB, "place_bet", {"bet": "tie", "amount": 10_000, "spot": 8}))
        t.execute(Command(Actor.DEALER, "deal"))
        while (due := t.holder_due()) is not None:
            t.execute(Command(Actor.player(due[0]), "reveal", {"side": str(due[1])}))
        for b in t.bets:  # a tie leaves Banker on: take it down (BA-12 (1))
            t.execute(Command(Actor.player(b.player), "withdraw_bet", {"bet": str(b.kind)}))
    t.execute(Command(Actor.DEALER, "end_shoe"))
    return t


def _rechain(data: dict[str, Any]) -> dict[str, Any]:
    """Recompute every hash after an edit: the chain is intact, only the rules can object."""
    journal = Journal(data["game"], data["header"])
    prev = journal.header_hash()
    for i, raw in enumerate(data["entries"]):
        ev = event_from_json(raw["event"])
        raw["prev_hash"] = prev
        raw["hash"] = prev = Entry.compute_hash(i, ev, prev)
    return data


def test_the_table_is_a_table_engine() -> None:
    assert isinstance(BaccaratTable(), TableEngine)


def test_replay_re_runs_the_operations_and_rebuilds_the_table() -> None:
    t = _session()
    again = replay_baccarat(Journal.from_json(t.journal.to_json()))
    assert again.snapshot() == t.snapshot()
    assert again.journal.head == t.journal.head


def test_a_forged_settlement_is_refused_by_verify(tmp_path: Path) -> None:
    """A lost MOP 100 bet rewritten as a MOP 5,000 win, the chain recomputed: the chain is
    intact but the rules do not give that event — `verify` names the entry, exit 2."""
    t = _session()
    data = t.journal.to_json()
    assert isinstance(data, dict)
    forged = False
    for i, raw in enumerate(data["entries"]):  # type: ignore[union-attr]
        ev = raw["event"]
        if ev["kind"] == "baccarat.hand_settled":
            for row in ev["data"]["results"]:
                if row["result"] == "lose" and not forged:
                    row["result"], row["won"] = "win", 500_000
                    forged, where = True, i
    assert forged
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(_rechain(data)))  # type: ignore[arg-type]
    Journal.load(path).verify()  # the chain itself is intact
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(" ".join(lines).split("ReplayMismatch")) == 2
    assert f"entry {where}" in result.output
    assert "Traceback" not in result.output
    honest = tmp_path / "honest.json"
    t.journal.dump(honest)
    assert runner.invoke(app, ["verify", str(honest)]).exit_code == 0


@pytest.mark.parametrize("edit", ["missing", "unknown", "bad-type"])
def test_opening_event_with_bad_rules_is_a_one_line_error(tmp_path: Path, edit: str) -> None:
    data = _session(hands=1).journal.to_json()
    rules = data["entries"][0]["event"]["data"]["rules"]  # type: ignore[index,call-overload]
    if edit == "missing":
        del rules["decks"]
    elif edit == "unknown":
        rules["deks"] = 8
    else:
        rules["decks"] = "eight"
    path = tmp_path / "j.json"
    path.write_text(json.dumps(_rechain(data)))  # type: ignore[arg-type]
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "entry 0" in result.output
    assert "decks" in result.output or "deks" in result.output


def test_rules_round_trip_and_typed_errors() -> None:
    rules = BaccaratRules(decks=7, squeeze=True)
    assert BaccaratRules.from_json(rules.to_json()) == rules
    with pytest.raises(InvalidInput, match="missing cut_from_end"):
        BaccaratRules.from_json({k: v for k, v in rules.to_json().items() if k != "cut_from_end"})
    with pytest.raises(InvalidInput, match="squeeze must be bool"):
        BaccaratRules.from_json(rules.to_json() | {"squeeze": 1})


def test_execute_refuses_unknown_arguments_and_operations() -> None:
    t = BaccaratTable()
    with pytest.raises(InvalidInput, match="unknown argument"):
        t.execute(Command(ALICE, "sit", {"seat": 1, "amount": 100, "sit": 2}))
    with pytest.raises(InvalidInput, match="no operation"):
        t.execute(Command(ALICE, "double_down"))
    with pytest.raises(InvalidInput, match="whole number"):
        t.execute(Command(ALICE, "sit", {"amount": "100"}))
    assert len(t.journal) == 1  # only the opening event


def test_operations_check_their_actor() -> None:
    """Every operation names its actor: a player may not deal; only the holder squeezes."""
    t = _session(hands=0)
    t.execute(Command(Actor.DEALER, "shuffle"), Rng.seeded("a"))
    t.execute(Command(Actor.DEALER, "cut"))
    with pytest.raises(MacauTablesError, match=r"BA-7\.1"):
        t.execute(Command(ALICE, "deal"))
    with pytest.raises(MacauTablesError):
        t.execute(Command(Actor.DEALER, "place_bet", {"bet": "banker", "amount": 10_000}))
    with pytest.raises(MacauTablesError):
        t.execute(Command(ALICE, "time_out", {"actor": "dealer", "op": "deal"}))


# --- time-outs ---------------------------------------------------------------------------------


def test_pending_drives_rounds_with_time_outs_only() -> None:
    """Nobody acts: the dealer cuts (BA-2.1), the table deals when betting time is up
    (BA-7.1), and a holder who does not squeeze has the dealer open the cards (BA-16)."""
    t = BaccaratTable(BaccaratRules(decks=6, squeeze=True))
    t.execute(Command(ALICE, "sit", {"seat": 1, "amount": 100_000}))
    t.execute(Command(Actor.DEALER, "shuffle"), Rng.seeded("timeouts"))
    hands = 0
    while hands < 5:
        if t.phase is BaccaratPhase.BETTING and not t.bets:
            t.execute(Command(ALICE, "place_bet", {"bet": "player", "amount": 10_000}))
        (p,) = [p for p in t.pending() if p.default is not None]
        events = t.execute(time_out(p))
        assert events[0].kind == "table.timed_out"
        assert events[0].to_json()["data"]["rule"] == p.rule
        hands += any(e.kind == "baccarat.hand_settled" for e in events)
        if p.default == "reveal":
            assert p.rule == "BA-16"
            assert events[1].to_json()["data"]["by"] == "dealer"
    t.execute(Command(Actor.DEALER, "end_shoe"))
    again = replay_baccarat(Journal.from_json(t.journal.to_json()))
    assert again.snapshot() == t.snapshot()


def test_bettors_have_no_default_and_the_shuffle_has_none() -> None:
    t = BaccaratTable()
    (shuffle,) = t.pending()
    assert shuffle.default is None and shuffle.operations == ("shuffle", "load_shoe", "open_shoe")
    with pytest.raises(InvalidInput):
        time_out(shuffle)
    t.execute(Command(ALICE, "sit", {"seat": 1, "amount": 100_000}))
    t.execute(Command(Actor.DEALER, "shuffle"), Rng.seeded("p"))
    t.execute(Command(Actor.DEALER, "cut"))
    bettor, dealer = t.pending()
    assert bettor.actor == ALICE and bettor.default is None and not bettor.required
    assert "place_bet" in bettor.operations
    assert dealer.actor == Actor.DEALER and dealer.default == "deal"


# --- information model -------------------------------------------------------------------------

OPS = st.lists(
    st.sampled_from(["bet_a", "bet_b", "deal", "expose", "leave_b", "void"]), max_size=40
)


def _script(t: BaccaratTable, ops: list[str], viewers: list[Viewer]) -> list[tuple[Any, int]]:
    """Run ``ops`` (refused ones skipped), holders squeezing as they become due; after every
    step, the views of ``viewers`` and the journal's length."""
    steps = [([t.view(v) for v in viewers], len(t.journal))]
    for op in ops:
        cmds = {
            "bet_a": Command(ALICE, "place_bet", {"bet": "player", "amount": 10_000}),
            "bet_b": Command(BOB, "place_bet", {"bet": "banker", "amount": 20_000, "spot": 2}),
            "deal": Command(Actor.DEALER, "deal"),
            "expose": Command(Actor.DEALER, "expose_card"),
            "leave_b": Command(BOB, "leave"),
            "void": Command(Actor.DEALER, "void_hand", {"reason": "test"}),
        }
        with contextlib.suppress(MacauTablesError):
            t.execute(cmds[op])
        steps.append(([t.view(v) for v in viewers], len(t.journal)))
        if op != "deal" and (due := t.holder_due()) is not None:
            t.execute(Command(Actor.player(due[0]), "reveal", {"side": str(due[1])}))
            steps.append(([t.view(v) for v in viewers], len(t.journal)))
    return steps


def _table(order: list[Card]) -> BaccaratTable:
    t = BaccaratTable(BaccaratRules(decks=6, squeeze=True))
    t.execute(Command(ALICE, "sit", {"seat": 1, "amount": 1_000_000}))
    t.execute(Command(BOB, "sit", {"seat": 2, "amount": 1_000_000}))
    t.load_shoe(order)
    t.cut()
    return t


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS, seed=st.integers(0, 10**6), pick=st.randoms(use_true_random=False))
@example(ops=["bet_a", "bet_b", "deal", "expose", "deal"], seed=1, pick=random.Random(0))
@example(ops=["bet_a", "deal", "void", "bet_a", "deal"], seed=2, pick=random.Random(3))
def test_a_seats_view_depends_only_on_what_is_revealed(
    ops: list[str], seed: int, pick: Any
) -> None:
    """Two shoes that agree on every card revealed in the script (they differ by a swap of
    two cards never turned face up: burned, face down, or still in the shoe) give every seat,
    the dealer and the public the same view at every step; no view holds the shoe's order or
    a face-down card."""
    viewers = [Viewer.player("alice"), Viewer.player("bob"), Viewer.PUBLIC, Viewer.DEALER]
    order = Rng.seeded(str(seed)).shuffle(full_set(6))
    first = _table(order)
    steps_a = _script(first, ops, viewers)
    k = pick.randrange(len(steps_a))  # agree on everything revealed up to step k
    revealed, out_of_shoe = _revealed_positions(first.journal.events[: steps_a[k][1]])
    hidden = [i for i in range(len(order)) if i not in revealed]
    gone = [i for i in hidden if i < out_of_shoe]  # burned or dealt face down: prefer them
    i = pick.choice(gone or hidden)
    j = pick.choice([j for j in hidden if order[j] != order[i]])
    swapped = list(order)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    steps_b = _script(_table(swapped), ops, viewers)
    for (view_a, _), (view_b, _) in zip(steps_a[: k + 1], steps_b[: k + 1], strict=True):
        assert view_a == view_b
        for view in view_a:
            assert "shoe_loaded" not in json.dumps(view)


def _revealed_positions(events: Sequence[Event]) -> tuple[set[int], int]:
    """Shoe positions whose card some event made public (reveals, third cards face up,
    exposures, the first card turned to burn), matched by following the dealing order; and
    how many cards left the shoe."""
    out: set[int] = set()
    pos = 0
    dealt: list[int] = []
    for ev in events:
        data = ev.to_json()["data"]
        assert isinstance(data, dict)
        if ev.kind == "baccarat.cards_burned":
            if data["shown"] is not None:
                out.add(pos)
            pos += int(data["count"])  # type: ignore[arg-type]
        elif ev.kind == "baccarat.card_exposed":
            out.add(pos)
        elif ev.kind == "baccarat.cards_dealt":
            dealt = [pos, pos + 1, pos + 2, pos + 3]
            pos += 4
        elif ev.kind == "baccarat.third_card_dealt":
            dealt.append(pos)
            if data["card"] is not None:
                out.add(pos)
            pos += 1
        elif ev.kind == "baccarat.cards_revealed":
            side = 0 if data["side"] == "player" else 1
            n = len(data["cards"])  # type: ignore[arg-type]
            if n == 2:
                out.update(dealt[side:4:2])
            else:
                out.add(dealt[4] if side == 0 or len(dealt) == 5 else dealt[5])
    return out, pos


def test_no_public_event_holds_a_players_chips_nor_the_order() -> None:
    """Buy-ins and cash-outs are private to their player (and the staff); the keyed-in
    order of a shoe is staff-only; a seeded shuffle puts no order in any event."""
    t = _session()
    private = ("baccarat.player_joined", "baccarat.chips_bought", "baccarat.player_left")
    for ev in t.journal.events:
        audience = ev.audience()
        if ev.kind in private:
            owner = ev.to_json()["data"]["player"]  # type: ignore[index,call-overload]
            assert not audience.admits(Viewer.PUBLIC)
            assert audience.admits(Viewer.player(owner))
            assert not audience.admits(Viewer.player("carol"))
        else:
            assert audience.admits(Viewer.PUBLIC)
        assert ev.kind != "baccarat.shoe_loaded"
    keyed = BaccaratTable(BaccaratRules(decks=6))
    (loaded,) = keyed.load_shoe(full_set(6))
    assert not loaded.audience().admits(Viewer.player("alice"))
    assert loaded.audience().admits(Viewer.DEALER)


# --- money ---------------------------------------------------------------------------------------

COMMANDS = st.lists(
    st.tuples(
        st.sampled_from(["alice", "bob", "dealer"]),
        st.sampled_from(["place_bet", "change_bet", "withdraw_bet", "deal", "leave", "sit",
                         "buy_in", "end_shoe", "burn", "expose_card", "void_hand"]),
        st.sampled_from(["player", "banker", "tie", "banker_pair", "player_pair"]),
        st.integers(-100, 3_000_000),
    ),
    max_size=60,
)  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commands=COMMANDS, seed=st.integers(0, 1000))
# buying chips past the wallet: the engine does not see wallets (the server refuses it,
# SRV-FUNDS), so the wallets hold more than any run can buy (a fresh clone's draw)
@example(
    commands=[
        ("alice", "buy_in", "player", 2_500_000),
        ("alice", "buy_in", "player", 2_500_001),
    ],
    seed=0,
)
def test_money_is_a_projection_that_balances(commands: list[Any], seed: int) -> None:
    """Random commands, many refused: the projected ledger sums to zero, each hold is opened
    once and closed at most once, no stack or wallet goes negative, and the engine's own
    stacks are the ledger's."""
    t = BaccaratTable(BaccaratRules(decks=6, squeeze=True), table_id="t7")
    rng = Rng.seeded(str(seed))
    ledger = Ledger()
    for p in ("alice", "bob"):
        # (more than 60 buy-ins of 3,000,000 can take)
        ledger.post(Transaction.transfer(CAGE, f"player:{p}", Money.of(100_000_000)))
    t.execute(Command(ALICE, "sit", {"seat": 1, "amount": 5_000_000}))
    t.execute(Command(Actor.DEALER, "shuffle"), rng)
    t.execute(Command(Actor.DEALER, "cut"))
    Ledger.project(t.journal.events, ledger)
    for who, op, bet, amount in commands:
        actor = Actor.DEALER if who == "dealer" else Actor.player(who)
        args: dict[str, Any] = {
            "place_bet": {"bet": bet, "amount": amount},
            "change_bet": {"bet": bet, "amount": amount},
            "withdraw_bet": {"bet": bet},
            "sit": {"seat": 2, "amount": max(amount, 0)},
            "amount": {"amount": amount},
            "burn": {"count": amount % 5},
            "void_hand": {"reason": "test"},
        }.get(op, {})
        try:
            events = t.execute(Command(actor, op, args), rng)
        except MacauTablesError:
            continue
        Ledger.project(events, ledger)  # raises on a hold reopened or closed twice
        if (due := t.holder_due()) is not None and op != "deal":
            Ledger.project(
                t.execute(Command(Actor.player(due[0]), "reveal", {"side": str(due[1])})), ledger
            )
        if t.phase is BaccaratPhase.SHUFFLE:
            Ledger.project(t.execute(Command(Actor.DEALER, "shuffle"), rng), ledger)
            Ledger.project(t.execute(Command(Actor.DEALER, "cut")), ledger)
        assert ledger.total().is_zero()
        for p, chips in t.stacks.items():
            assert chips >= 0
            assert ledger.balance(f"stack:t7:{p}").minor == chips
        on_layout = sum(b.amount.minor for b in t.holds)
        assert ledger.balance("wagers:t7").minor == on_layout
        assert ledger.open_holds == {b.id for b in t.holds}


# --- golden transcript ---------------------------------------------------------------------------

GOLDEN = Path(__file__).parent / "data" / "baccarat_golden.json"


def golden_session() -> BaccaratTable:
    """BA-2.1 shuffle (committed), a player's cut and the burn, BA-13 bets of every kind at
    a seat and a standing spot, BA-16 squeezes (one timed out), BA-12 a tie left on and
    moved, BA-4 an exposed card, BA-8 a burn, BA-10 a void hand, BA-3.2 the shoe changed."""
    t = BaccaratTable(BaccaratRules(decks=6, squeeze=True), table_id="golden")
    rng = Rng.seeded("baccarat-golden")
    run = t.execute
    run(Command(ALICE, "sit", {"seat": 1, "amount": 500_000}))
    run(Command(BOB, "sit", {"seat": None, "amount": 200_000}))
    run(Command(Actor.DEALER, "shuffle"), rng)
    run(Command(BOB, "cut", {"from_end": 16}))
    plan = ["player", "banker", "tie", "banker_pair", "player_pair"]
    for i in range(12):
        if i == 3:
            run(Command(Actor.DEALER, "burn", {"count": 2}))
        if i == 5:
            run(Command(Actor.DEALER, "expose_card"))
        for b in t.bets:
            if b.carried:
                other = "player" if str(b.kind) == "banker" else "banker"
                move = {"bet": str(b.kind), "amount": b.amount.minor, "to_bet": other}
                run(Command(Actor.player(b.player), "change_bet", move))
        run(Command(ALICE, "place_bet", {"bet": plan[i % 5], "amount": 10_000 * (1 + i % 3)}))
        run(Command(BOB, "place_bet", {"bet": plan[(i + 2) % 5], "amount": 10_000, "spot": 9}))
        run(Command(Actor.DEALER, "deal"))
        if i == 7 and t.phase is BaccaratPhase.DEALING:
            run(Command(Actor.DEALER, "void_hand", {"reason": "a card fell on the floor"}))
            continue
        while (due := t.holder_due()) is not None:
            if i == 2:
                (p,) = [p for p in t.pending() if p.default == "reveal"]
                run(time_out(p))
            else:
                run(Command(Actor.player(due[0]), "reveal", {"side": str(due[1])}))
    for b in t.bets:
        run(Command(Actor.player(b.player), "withdraw_bet", {"bet": str(b.kind)}))
    run(Command(Actor.DEALER, "end_shoe"))
    run(Command(BOB, "leave"))
    return t


def test_golden_transcript_is_unchanged_and_replays() -> None:
    """Any change to the engine's behaviour shows up as a diff of data/baccarat_golden.json.
    Regenerate deliberately with ``BACCARAT_GOLDEN=write pytest …``."""
    import os

    t = golden_session()
    if os.environ.get("BACCARAT_GOLDEN") == "write":
        t.journal.dump(GOLDEN)
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert t.journal.to_json() == expected
    again = replay_baccarat(Journal.load(GOLDEN))
    assert again.snapshot() == t.snapshot()
    assert any(isinstance(e, ShoeEnded) for e in again.journal.events)
    assert runner.invoke(app, ["verify", str(GOLDEN)]).exit_code == 0
