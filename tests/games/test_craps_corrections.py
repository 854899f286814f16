"""Supervisor corrections at a craps table (the contract's ``table.round_voided``
/ ``table.round_corrected`` / ``table.limits_changed``): a mis-keyed throw (CR-1, CR-R1)
corrected and re-settled by the rules, a round voided, limits changed from the next round;
replay re-runs them and demands the same events; the money follows the right history."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from macau_tables.core.errors import InvalidInput, OutOfOrder
from macau_tables.core.ledger import CAGE, Ledger, Transaction
from macau_tables.core.money import MOP, Money
from macau_tables.core.rng import Rng
from macau_tables.games.contract import Actor, Command, RoundCorrected, RoundVoided
from macau_tables.games.craps import CrapsRules, CrapsTable, replay

SAM, ANN = Actor.supervisor("sam"), Actor.supervisor("ann")
DIE = st.integers(1, 6)


def table() -> CrapsTable:
    t = CrapsTable((), CrapsRules(), table_id="t")
    for name in ("alice", "bob"):
        run(t, Actor.player(name), "join", amount=100_000)
    return t


def run(t: CrapsTable, actor: Actor, op: str, **args: Any) -> Any:
    return t.execute(Command(actor, op, args), Rng.system())


def key(t: CrapsTable, d1: int, d2: int) -> int:
    """The dealer keys in the dice (CR-1); returns the seq of the throw."""
    seq = len(t.events)
    run(t, Actor.DEALER, "throw_dice", dice=[d1, d2])
    return seq


def bets(t: CrapsTable) -> None:
    for name in ("alice", "bob"):
        p = Actor.player(name)
        if t.point is None:
            run(t, p, "place_bet", bet="pass" if name == "alice" else "dont_pass", amount=1_000)
        run(t, p, "place_bet", bet="field", amount=500)


def ledger(t: CrapsTable) -> Ledger:
    led = Ledger()
    for name in ("alice", "bob"):
        led.post(Transaction.transfer(CAGE, f"player:{name}", Money(10**6, MOP)))
    return Ledger.project(t.events, led)


def state(t: CrapsTable) -> dict[str, Any]:
    led = ledger(t)
    return {
        "stacks": {p: t.stack(p).minor for p in t.seats},
        "point": t.point,
        "shooter": t.shooter,
        "bets": sorted((b.player, b.kind, b.amount.minor, b.point) for b in t.bets),
        "money": {a: led.balance(a).minor for a in ("house:t", "wagers:t", "stack:t:alice")},
        "open_holds": len(led.open_holds),
    }


def test_a_mis_keyed_seven_out_corrected_to_eleven_is_re_settled_by_the_rules() -> None:
    """CR-1, CR-2.1: [3,4] keyed in the point phase (a seven-out), the table showed [5,6]:
    the Pass Line bet is back on its point under a re-issued hold, the Field pays 11."""
    t = table()
    bets(t)
    key(t, 2, 2)  # point 4
    bets(t)
    wrong = key(t, 3, 4)
    assert t.point is None
    (ev,) = run(
        t,
        ANN,
        "correct_round",
        of_seq=wrong,
        args={"dice": [5, 6]},
        reason="video",
        request=1,
        requested_by="sam",
    )
    assert isinstance(ev, RoundCorrected) and ev.approved_by == "ann"
    right = table()
    bets(right)
    key(right, 2, 2)
    bets(right)
    key(right, 5, 6)
    assert state(t) == state(right)
    assert t.point == 4
    line = sorted(b.id for b in t.bets if b.kind in ("pass", "dont_pass"))
    assert ev.aliases == tuple((f"t:{i}", f"t:{i}~{len(t.events) - 1}") for i in line)
    assert ledger(t).open_holds == {t.hold(i) for i in line}
    # the re-issued holds are settled once, under their new ids
    key(t, 1, 3)
    assert ledger(t).open_holds == frozenset()
    assert replay(t.journal, dict(t.seed_vault())).snapshot() == t.snapshot()


def test_the_same_supervisor_may_not_approve_his_own_request() -> None:
    t = table()
    bets(t)
    seq = key(t, 3, 3)
    assert t.can_correct_round(ANN, seq, {"dice": [1, 1]}, "sam")
    assert not t.can_correct_round(SAM, seq, {"dice": [1, 1]}, "sam")
    assert t.can_void_round(ANN, "sam") and not t.can_void_round(SAM, "sam")
    assert not t.can_change_limits(Actor.DEALER, Money(100, MOP), Money(200, MOP))
    with pytest.raises(OutOfOrder, match="another supervisor"):
        run(
            t,
            SAM,
            "correct_round",
            of_seq=seq,
            args={"dice": [1, 1]},
            reason="x",
            request=1,
            requested_by="sam",
        )
    with pytest.raises(OutOfOrder, match="a supervisor"):
        run(t, Actor.DEALER, "void_round", reason="x", request=1, requested_by="sam")


def test_only_the_last_round_is_corrected() -> None:
    t = table()
    bets(t)
    seq = key(t, 3, 3)
    run(t, Actor.player("alice"), "place_bet", bet="field", amount=500)
    with pytest.raises(OutOfOrder, match="last round"):
        run(
            t,
            ANN,
            "correct_round",
            of_seq=seq,
            args={"dice": [1, 1]},
            reason="x",
            request=1,
            requested_by="sam",
        )
    with pytest.raises(OutOfOrder, match="keyed-in"):
        run(
            t,
            ANN,
            "correct_round",
            of_seq=1,
            args={"dice": [1, 1]},
            reason="x",
            request=1,
            requested_by="sam",
        )
    with pytest.raises(InvalidInput):
        run(
            t,
            ANN,
            "correct_round",
            of_seq=seq,
            args={"amount": 5},
            reason="x",
            request=1,
            requested_by="sam",
        )


def test_a_void_refunds_the_rounds_bets_and_leaves_earlier_bets_as_they_stood() -> None:
    """The round = the bets since the previous roll and the last roll: refunded, undone."""
    t = table()
    bets(t)
    key(t, 2, 2)  # point 4: the line bets stand
    before = state(t)
    bets(t)  # the Field bets of the next roll
    key(t, 3, 4)  # seven-out: everything decided
    (ev,) = run(t, SAM, "void_round", reason="dice hit a chip rack", request=2, requested_by="ann")
    assert isinstance(ev, RoundVoided)
    assert state(t) == before
    assert replay(t.journal, dict(t.seed_vault())).snapshot() == t.snapshot()
    with pytest.raises(OutOfOrder, match="no round"):  # a void is not voided again
        run(t, SAM, "void_round", reason="again", request=3, requested_by="ann")


def test_new_limits_wait_for_the_round_boundary() -> None:
    t = table()
    run(t, Actor.player("alice"), "place_bet", bet="pass", amount=1_000)
    run(t, SAM, "change_limits", min_bet=2_000, max_bet=5_000, reason="high-limit table")
    assert t.rules.min_bet == Money(100, MOP)  # this round's bets keep the old limits
    run(t, Actor.player("bob"), "place_bet", bet="field", amount=1_000)
    key(t, 6, 6)
    assert (t.rules.min_bet, t.rules.max_bet) == (Money(2_000, MOP), Money(5_000, MOP))
    with pytest.raises(Exception, match="table minimum"):
        run(t, Actor.player("bob"), "place_bet", bet="field", amount=1_000)
    assert replay(t.journal, dict(t.seed_vault())).rules == t.rules
    with pytest.raises(InvalidInput):
        run(t, SAM, "change_limits", min_bet=5_000, max_bet=2_000, reason="upside down")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(DIE, DIE), min_size=1, max_size=8), st.tuples(DIE, DIE))
@example(rolls=[(2, 2), (3, 4)], fixed=(5, 6))
@example(rolls=[(2, 2), (5, 6)], fixed=(3, 4))
def test_a_corrected_throw_leaves_the_table_as_if_the_right_dice_were_keyed(
    rolls: list[tuple[int, int]], fixed: tuple[int, int]
) -> None:
    """Invariant: correcting the last key-in gives the state and money of the table where
    the right dice were keyed in; every hold is settled once; replay verifies."""
    t, right = table(), table()
    for i, (d1, d2) in enumerate(rolls):
        for x in (t, right):
            bets(x)
        last = i == len(rolls) - 1
        seq = key(t, d1, d2)
        key(right, *(fixed if last else (d1, d2)))
    run(
        t,
        ANN,
        "correct_round",
        of_seq=seq,
        args={"dice": list(fixed)},
        reason="video",
        request=1,
        requested_by="sam",
    )
    assert state(t) == state(right)
    assert replay(t.journal, dict(t.seed_vault())).snapshot() == t.snapshot()
    bets(t)  # the table goes on: the next round settles the re-issued holds once
    key(t, 3, 4)
    ledger(t)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(DIE, DIE), min_size=1, max_size=8), st.booleans())
@example(rolls=[(2, 2), (3, 4)], thrown=True)
def test_a_voided_round_leaves_the_table_as_if_it_had_not_been_played(
    rolls: list[tuple[int, int]], thrown: bool
) -> None:
    """Invariant: a void gives the state and money of the table without its last round (its
    bets and, if thrown, its roll); counters move on (no bet id or hold reused); replay
    verifies; the table goes on."""
    t, right = table(), table()
    for d1, d2 in rolls[:-1]:
        for x in (t, right):
            bets(x)
            key(x, d1, d2)
    bets(t)
    if thrown:
        key(t, *rolls[-1])
    run(t, SAM, "void_round", reason="void", request=1, requested_by="ann")
    assert state(t) == state(right)
    assert replay(t.journal, dict(t.seed_vault())).snapshot() == t.snapshot()
    bets(t)
    key(t, 3, 4)
    assert len(ledger(t).open_holds) == len(t.bets)


def test_rounds_show_a_voided_and_a_corrected_round_ending_with_the_supervisors_event() -> None:
    """Recall (contract.rounds): the round a supervisor voided or corrected is that round,
    ``voided`` / ``corrected``, and ends with the supervisor's event — not a round of its own."""
    from macau_tables.games.contract import rounds

    t = table()
    bets(t)
    key(t, 2, 2)  # round 1: point 4
    bets(t)
    wrong = key(t, 3, 4)  # round 2: keyed wrong
    run(t, ANN, "correct_round", of_seq=wrong, args={"dice": [5, 6]}, reason="video",
        request=1, requested_by="sam")  # fmt: skip
    fixed = len(t.events) - 1
    bets(t)
    key(t, 6, 6)  # round 3
    run(t, SAM, "void_round", reason="dice off the table", request=2, requested_by="ann")
    voided = len(t.events) - 1
    got = rounds(t.events)
    assert [r.status for r in got] == ["settled", "corrected", "voided"]
    assert got[1].first <= wrong < got[1].last == fixed
    assert got[2].last == voided
    assert [r.number for r in got] == [1, 2, 3]
