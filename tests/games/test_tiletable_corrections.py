"""Supervisor corrections at a live tile table (the contract's
``table.round_corrected``): the banker's dice and the hands the dealer keyed in (PG-1.2,
PG-1.4) corrected in the last round; the rules re-deal and re-settle it (PG-8.3), the wrongly
keyed tiles back in the woodpile (T-1 counts the right ones), the money the difference;
replay re-runs the correction and demands the same event."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from macau_tables.core.errors import InvalidInput, MacauTablesError, OutOfOrder
from macau_tables.core.journal import Journal
from macau_tables.core.ledger import Ledger
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng, commitment
from macau_tables.core.visibility import Viewer
from macau_tables.games.contract import Actor, Command, RoundCorrected
from macau_tables.games.tiletable import HandsKeyed, TilePhase, TileTable, replay
from macau_tables.tiles import FULL_SET
from tests.games.test_tiletable_keyed import _finish, _hands, _to_betting
from tests.games.tiletable_helpers import (
    bet_own_seats,
    funded_ledger,
    play_round,
    seated,
    step_default,
)

D = Actor.DEALER
ANN = Actor.supervisor("ann_sup")
ORDER = [str(t) for t in FULL_SET]
PLAYERS = ("ann", "bob", "cy")


def deal(t: TileTable, dice: list[int], tiles: list[str]) -> int:
    """The dealer keys in the banker's dice and every seat's tiles (PG-1.2, PG-1.4)."""
    seq = len(t.journal)
    t.execute(Command(D, "shake", {"dice": dice, "hands": _hands(tiles, t.rules.places)}))
    assert isinstance(t.journal.events[seq], HandsKeyed)
    return seq


def correct(t: TileTable, of_seq: int, **args: Any) -> Any:
    return t.execute(
        Command(ANN, "correct_round", {"of_seq": of_seq, "args": args, "reason": "video",
                                       "request": 1, "requested_by": "sam"})
    )  # fmt: skip


def ledger(t: TileTable) -> Ledger:
    return Ledger.project(t.journal.events, funded_ledger(PLAYERS))


def state(t: TileTable) -> dict[str, Any]:
    led = ledger(t)
    view = t.view(Viewer.SUPERVISOR)
    view.pop("seq", None)
    return {
        "stacks": {p: t.stack(p).minor for p in PLAYERS},
        "balances": {a: m.minor for a, m in led.balances().items() if m.minor},
        "open_holds": len(led.open_holds),
        "phase": t.phase,
        "last": None  # hold ids aside: a re-issued hold is renamed
        if t.last_settlement is None
        else [{k: v for k, v in r.items() if k != "bet_id"} for r in t.last_settlement.results],
    }


def fresh(game: str, places: int) -> TileTable:
    t = seated(game, places=places)
    _to_betting(t)
    return t


def test_pg_1_4_a_mis_keyed_deal_is_corrected_and_the_round_re_settled() -> None:
    """The dealer keyed seat 1's hand for seat 2 and seat 2's for seat 1: the correction
    re-deals the right hands, the players' settings (here the house way, PG-R10) follow the
    right tiles, and the money is what the right key-in gives."""
    t = fresh("paigow", 8)
    wrong_tiles = ORDER[4:8] + ORDER[:4] + ORDER[8:]  # seats 1 and 2 swapped
    wrong = deal(t, [1, 2, 3, 4], wrong_tiles)
    _finish(t)
    right = fresh("paigow", 8)
    deal(right, [1, 2, 3, 4], ORDER)
    _finish(right)
    assert state(t) != state(right)  # the key-in mattered
    (ev,) = correct(t, wrong, hands=_hands(ORDER))
    assert isinstance(ev, RoundCorrected) and ev.op == "shake" and ev.approved_by == "ann_sup"
    assert ev.args["dice"] == [1, 2, 3, 4]  # the dice stand as keyed
    assert state(t) == state(right)
    assert ledger(t).open_holds == frozenset()
    again = replay(Journal.from_json(t.journal.to_json()))
    assert again.view(Viewer.SUPERVISOR) == t.view(Viewer.SUPERVISOR)
    assert again.journal.head == t.journal.head


def test_a_setting_of_tiles_the_seat_no_longer_holds_is_done_again() -> None:
    t, right = fresh("paigow", 8), fresh("paigow", 8)
    wrong = deal(t, [2, 2, 3, 3], ORDER[::-1])
    deal(right, [2, 2, 3, 3], ORDER)
    setter = next(p for p in t.pending() if "set_tiles" in p.operations and p.actor != D)
    seat = next(s for s, name in t.seats().items() if Actor.player(name) == setter.actor)
    for u, tiles in ((t, ORDER[::-1]), (right, ORDER)):
        front = tiles[4 * (seat - 1) : 4 * (seat - 1) + 2]
        u.execute(Command(setter.actor, "set_tiles", {"seat": seat, "front": front}))
    _finish(t)
    correct(t, wrong, hands=_hands(ORDER))
    assert t.phase is not TilePhase.BANK  # the seat sets its right tiles again
    assert any(p.actor == setter.actor and "set_tiles" in p.operations for p in t.pending())
    front = ORDER[4 * (seat - 1) : 4 * (seat - 1) + 2]
    t.execute(Command(setter.actor, "set_tiles", {"seat": seat, "front": front}))
    _finish(t)
    _finish(right)
    assert state(t) == state(right)
    assert ledger(t).open_holds == frozenset()


def test_t_1_and_the_last_round_only() -> None:
    t = fresh("paigow", 8)
    wrong = deal(t, [1, 2, 3, 4], ORDER[4:] + ORDER[:4])
    before = len(t.journal)
    with pytest.raises(InvalidInput) as exc:
        correct(t, wrong, hands=_hands(["6-6"] * 3 + ORDER[3:]))
    assert exc.value.rule == "T-1"
    with pytest.raises(InvalidInput) as exc:
        correct(t, wrong, dice=[0, 2, 3, 4])
    assert exc.value.rule == "PG-1.2"
    with pytest.raises(InvalidInput):
        correct(t, wrong, tiles=ORDER)
    with pytest.raises(OutOfOrder):  # the requester may not approve
        t.execute(Command(Actor.supervisor("sam"), "correct_round", {
            "of_seq": wrong, "args": {"dice": [1, 1, 1, 1]}, "reason": "x", "request": 1,
            "requested_by": "sam"}))  # fmt: skip
    with pytest.raises(OutOfOrder):
        correct(t, wrong + 1, dice=[1, 1, 1, 1])  # not a keyed deal
    assert len(t.journal) == before
    _finish(t)
    _to_betting(t)  # the next round: the last one is closed
    with pytest.raises(OutOfOrder, match="last round"):
        correct(t, wrong, hands=_hands(ORDER))


TILES = st.permutations(ORDER)
DICE = st.lists(st.integers(1, 6), min_size=4, max_size=4)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([("paigow", 8), ("taiwan", 4)]), DICE, TILES, DICE, TILES)
@example(("taiwan", 4), [1, 1, 1, 1], ORDER, [6, 6, 6, 6], ORDER[::-1])
def test_a_corrected_deal_leaves_the_table_as_if_it_had_been_keyed_right(
    game: tuple[str, int], wrong_dice: list[int], wrong: list[str], dice: list[int],
    tiles: list[str],
) -> None:  # fmt: skip
    """Whatever was keyed and whatever was right (the settings the rules' defaults): the
    corrected table is the one keyed right the first time — stacks, ledger, settlement —
    and the next round plays on the same."""
    t, right = fresh(*game), fresh(*game)
    seq = deal(t, wrong_dice, wrong)
    _finish(t)
    deal(right, dice, tiles)
    _finish(right)
    correct(t, seq, dice=dice, hands=_hands(tiles, game[1]))
    _finish(t)
    assert state(t) == state(right)
    for u in (t, right):
        _to_betting(u)
        rest = list(ORDER)
        if game[1] == 4:  # TW-2d: the second round from the same woodpile
            used = list(tiles[:16])
            rest = []
            for x in ORDER:
                if x in used:
                    used.remove(x)
                else:
                    rest.append(x)
        try:
            deal(u, [3, 4, 5, 6], rest)
        except MacauTablesError:
            raise AssertionError("the right woodpile refuses the right tiles") from None
        _finish(u)
    assert state(t) == state(right)
    assert ledger(t).open_holds == frozenset()


# --- the void of the last round ----------------------------------------------------------


def void(t: TileTable, by: Actor = ANN) -> Any:
    return t.execute(
        Command(by, "void_round", {"reason": "video", "request": 2, "requested_by": "sam"})
    )


def before_round(t: TileTable) -> dict[str, int]:
    return {p: t.stack(p).minor for p in PLAYERS}


def test_a_settled_round_voided_refunds_every_bet_and_the_banks_capital() -> None:
    t = fresh("paigow", 8)
    bank_open = next(s for s, e in enumerate(t.journal.events) if e.kind == "tiletable.bank_opened")
    assert bank_open > 0
    stacks = dict.fromkeys(PLAYERS, 100000)
    deal(t, [1, 2, 3, 4], ORDER[4:8] + ORDER[:4] + ORDER[8:])
    _finish(t)
    assert before_round(t) != stacks
    events = void(t)
    assert [e.kind for e in events] == ["table.round_voided"]  # the woodpile ended at settle
    assert events[0].from_seq == bank_open
    assert before_round(t) == stacks and ledger(t).open_holds == frozenset()
    assert t.phase is TilePhase.BANK
    with pytest.raises(OutOfOrder):
        void(t)  # voided already
    rounds = t.round_no
    _to_betting(t)  # the next round: new round number, new bet and hold ids, a new woodpile
    assert t.round_no == rounds + 1
    deal(t, [1, 2, 3, 4], ORDER)
    _finish(t)
    assert ledger(t).open_holds == frozenset()  # every hold id opened and closed once
    again = replay(Journal.from_json(t.journal.to_json()))
    assert again.journal.head == t.journal.head
    assert again.view(Viewer.SUPERVISOR) == t.view(Viewer.SUPERVISOR)


def test_a_round_in_play_voided_ends_its_woodpile() -> None:
    """A physical woodpile ends with the void (its tiles were dealt); a seeded one's seed is
    revealed with it (a commitment never stays unrevealed), and the next round has a new
    woodpile either way."""
    t = fresh("paigow", 8)
    deal(t, [1, 2, 3, 4], ORDER)
    events = void(t)
    assert [e.kind for e in events] == ["table.round_voided", "tiletable.woodpile_ended"]
    assert before_round(t) == dict.fromkeys(PLAYERS, 100000)
    assert ledger(t).open_holds == frozenset()
    seeded = seated("taiwan", places=4)
    seat = seeded.bank_candidate()
    assert seat is not None
    banker = Actor.player(seeded.seats()[seat])
    seeded.execute(Command(banker, "open_bank", {"capital": 50_000}))
    seeded.execute(Command(D, "shuffle", {"seed": "ab" * 32}))
    (c,) = [e.commitment for e in seeded.journal.events if e.kind == "table.seed_committed"]
    events = void(seeded)
    assert [e.kind for e in events] == ["table.round_voided", "table.seed_revealed"]
    assert events[1].seed == "ab" * 32
    seeded.execute(Command(banker, "open_bank", {"capital": 50_000}))
    assert seeded.phase is TilePhase.SHUFFLE  # a new woodpile, under a new label
    seeded.execute(Command(D, "shuffle", {"seed": "cd" * 32}))
    labels = [e.label for e in seeded.journal.events if e.kind == "table.seed_committed"]
    assert labels == ["woodpile:1", "woodpile:2"]
    live = {commitment(bytes.fromhex("cd" * 32)): bytes.fromhex("cd" * 32)}  # the server's
    again = replay(Journal.from_json(seeded.journal.to_json()), live)
    assert again.journal.head == seeded.journal.head
    assert c == commitment(bytes.fromhex("ab" * 32))


def test_only_the_last_round_is_voided_by_another_supervisor() -> None:
    t = fresh("paigow", 8)
    with pytest.raises(OutOfOrder):
        void(t, by=Actor.supervisor("sam"))  # the requester
    with pytest.raises(OutOfOrder):
        void(t, by=D)
    deal(t, [1, 2, 3, 4], ORDER)
    _finish(t)
    t.execute(Command(Actor.player("cy"), "buy_in", {"amount": 1_000}))
    with pytest.raises(OutOfOrder, match="no round to void"):
        void(t)


@settings(max_examples=15, deadline=None)
@given(
    st.sampled_from([("paigow", 8), ("taiwan", 4)]),
    st.integers(0, 3),
    st.integers(0, 12),
    st.integers(0, 2**32),
)
@example(("taiwan", 4), 1, 0, 1)  # the second round of a woodpile, voided settled
def test_a_voided_round_leaves_the_stacks_as_before_it(
    game: tuple[str, int], rounds: int, steps: int, seed: int
) -> None:
    """Seeded tables, rounds played by the rules' defaults, the last one stopped anywhere
    after its bank opened (or settled): the void leaves every stack as before the bank
    opened, no hold open; the table plays on and replays."""

    rng = Rng.seeded(f"void-{seed}")
    t = seated(*game[:1], places=game[1])
    for _ in range(rounds):
        play_round(t, rng, capital=50_000)
    stacks = before_round(t)
    seat, _keep, least = t.bank_offer()
    assert seat is not None
    capital = max(50_000, least)  # PG-4.9: a keeping banker never reduces his capital
    t.execute(Command(Actor.player(t.seats()[seat]), "open_bank", {"capital": capital}))
    for _ in range(steps):
        if t.phase is TilePhase.BANK:
            break
        if t.phase is TilePhase.BETTING and t.can_place_bet(Actor.player("cy"), 3, Money(1_000)):
            bet_own_seats(t)
        step_default(t, rng)
    void(t)
    assert before_round(t) == stacks
    assert ledger(t).open_holds == frozenset()
    play_round(t, rng, capital=50_000)
    assert ledger(t).open_holds == frozenset()
    # the server's seeds of a woodpile still in use (a Taiwan woodpile serves two rounds)
    again = replay(Journal.from_json(t.journal.to_json()), dict(t.seed_vault()))
    assert again.journal.head == t.journal.head
