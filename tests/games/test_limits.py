"""A supervisor's new table limits at baccarat and the tile tables (the contract's
``table.limits_changed``), from the next round: the round under way keeps the limits its
bets were placed under; a bet outside the new limits is refused from the next round on
(baccarat BA-13 each bet's limits, BA-14 the differential; Pai Gow / Taiwan a player's bet
on a place, PG-4.6 / TW-2g, no text sets the amounts); replay re-runs the change and
demands the same event; the change is a step of the round it was made in (recall).
Refusals name the rule and journal nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from macau_tables.core.errors import BetNotAllowed, InvalidInput, MacauTablesError, OutOfOrder
from macau_tables.core.journal import Journal, event_from_json
from macau_tables.core.money import HKD, MOP, Money
from macau_tables.core.rng import Rng
from macau_tables.core.visibility import Viewer
from macau_tables.games import contract
from macau_tables.games.baccarat import (
    BaccaratBetKind,
    BaccaratRules,
    BaccaratTable,
    BetLimit,
    BetPlaced,
    replay_baccarat,
)
from macau_tables.games.contract import Actor, Command, LimitsChanged
from macau_tables.games.craps import CrapsTable
from macau_tables.games.tiles import TilePhase, TileTable, replay
from tests.games.tiletable_helpers import seated, step_default

SAM = Actor.supervisor("sam")
D = Actor.DEALER
NATURAL = ["9h", "2c", "Kd", "5s"]  # Player 9, Banker 7: a natural, the hand settles (BA-9.2)
TIE = ["9h", "9c", "Kd", "Ks"]  # Player 9, Banker 9: a tie (BA-12)


def run(t: Any, actor: Actor, op: str, **args: Any) -> Any:
    return t.execute(Command(actor, op, args))


def limits(t: Any, **args: Any) -> Any:
    return run(t, SAM, "change_limits", reason="high-limit table", **args)


# --- the event: optional fields, old journals ----------------------------------------------


def test_an_old_limits_event_reads_and_hashes_as_it_was_written() -> None:
    """A ``table.limits_changed`` written before ``bets`` / ``differential`` existed loads
    with their defaults and writes back byte for byte (the hash chain is unchanged)."""
    old = {
        "kind": "table.limits_changed",
        "version": 1,
        "data": {"min_bet": 100, "max_bet": 900, "by": "supervisor:sam", "reason": "x"},
    }
    ev = event_from_json(old)
    assert isinstance(ev, LimitsChanged) and ev.bets == {} and ev.differential is None
    assert ev.to_json() == old
    new = LimitsChanged(100, 900, "supervisor:sam", "x", {"tie": (100, 500)}, 2_000)
    assert event_from_json(json.loads(json.dumps(new.to_json()))) == new
    with pytest.raises(MacauTablesError):  # a required field is still required
        event_from_json({**old, "data": {"min_bet": 100, "by": "supervisor:sam", "reason": "x"}})


# --- baccarat --------------------------------------------------------------------------------


def bac() -> BaccaratTable:
    """A dealer-operated table (BA-1), alice and bob seated, the shoe cut (BA-2.1)."""
    t = BaccaratTable(BaccaratRules(decks=8), table_id="t")
    for seat, name in enumerate(("alice", "bob"), start=1):
        run(t, Actor.player(name), "sit", seat=seat, amount=1_000_000)
    run(t, D, "open_shoe")
    run(t, D, "cut", from_end=14)
    return t


def bet(t: BaccaratTable, who: str, kind: str, amount: int) -> Any:
    return run(t, Actor.player(who), "place_bet", bet=kind, amount=amount)


def lim(t: BaccaratTable, kind: BaccaratBetKind) -> tuple[int, int]:
    x = t.rules.limit(kind)
    return x.minimum.minor, x.maximum.minor


def test_ba_13_new_limits_wait_for_the_hand_under_way() -> None:
    t = bac()
    bet(t, "alice", "player", 20_000)
    (ev,) = limits(t, min_bet=50_000, max_bet=100_000)
    assert isinstance(ev, LimitsChanged) and ev.by == "supervisor:sam"
    # this hand keeps the limits its bets were placed under (BA-13: MOP 100 – 20,000)
    assert lim(t, BaccaratBetKind.PLAYER) == (10_000, 2_000_000)
    view = t.view(Viewer.player("bob"))
    assert view["next_limits"] == {"min_bet": 50_000, "max_bet": 100_000}
    assert view["rules"]["limits"]["banker"] == [10_000, 2_000_000]  # type: ignore[index]
    bet(t, "bob", "banker", 20_000)  # still MOP 100 – 20,000 in this hand
    run(t, D, "deal", cards=NATURAL)
    assert t.hand is None  # settled: the new limits are in force
    assert t.view(Viewer.SUPERVISOR)["next_limits"] is None
    assert lim(t, BaccaratBetKind.PLAYER) == lim(t, BaccaratBetKind.BANKER) == (50_000, 100_000)
    assert lim(t, BaccaratBetKind.TIE) == (10_000, 250_000)  # not named: unchanged
    before = len(t.journal)
    for amount in (20_000, 150_000):  # under the new minimum, over the new maximum
        with pytest.raises(BetNotAllowed) as exc:
            bet(t, "alice", "player", amount)
        assert exc.value.rule == "BA-13"
    assert len(t.journal) == before
    bet(t, "alice", "player", 100_000)


def test_ba_13_ba_14_between_hands_at_once_with_the_other_bets_and_the_differential() -> None:
    t = bac()
    limits(t, min_bet=10_000, max_bet=500_000, bets={"tie": [50_000, 100_000]}, differential=30_000)
    assert lim(t, BaccaratBetKind.TIE) == (50_000, 100_000)  # no hand under way: at once
    assert lim(t, BaccaratBetKind.PLAYER_PAIR) == (10_000, 200_000)  # not named: unchanged
    assert t.rules.differential_limit == Money(30_000, MOP)
    with pytest.raises(BetNotAllowed) as exc:
        bet(t, "alice", "tie", 10_000)
    assert exc.value.rule == "BA-13"
    with pytest.raises(BetNotAllowed) as exc:
        bet(t, "alice", "player", 40_000)  # Banker 0, Player 400: over the MOP 300 difference
    assert exc.value.rule == "BA-14"
    bet(t, "alice", "player", 30_000)
    bet(t, "bob", "banker", 50_000)


def test_ba_12_a_bet_a_tie_left_stays_and_a_change_to_it_meets_the_new_limits() -> None:
    t = bac()
    bet(t, "alice", "player", 20_000)
    run(t, D, "deal", cards=TIE)
    limits(t, min_bet=50_000, max_bet=100_000)  # between hands: at once
    assert lim(t, BaccaratBetKind.PLAYER) == (50_000, 100_000)
    assert [(b.kind, b.amount.minor, b.carried) for b in t.holds] == [
        (BaccaratBetKind.PLAYER, 20_000, True)
    ]
    with pytest.raises(BetNotAllowed) as exc:
        run(t, Actor.player("alice"), "change_bet", bet="player", amount=30_000)
    assert exc.value.rule == "BA-13"
    run(t, Actor.player("alice"), "change_bet", bet="player", amount=60_000)


def test_ba_13_refusals_name_the_rule_and_journal_nothing() -> None:
    t = bac()
    before = len(t.journal)
    for who in (D, Actor.player("alice")):
        with pytest.raises(OutOfOrder):
            run(t, who, "change_limits", min_bet=100, max_bet=200, reason="x")
    cases: list[tuple[dict[str, Any], str | None]] = [
        ({"min_bet": 5_000, "max_bet": 2_000}, "BA-13"),
        ({"min_bet": 0, "max_bet": 2_000}, "BA-13"),
        ({"min_bet": -100, "max_bet": 2_000}, "BA-13"),
        ({"min_bet": 100, "max_bet": 2_000, "bets": {"tie": [900, 100]}}, "BA-13"),
        ({"min_bet": 100, "max_bet": 2_000, "bets": {"big": [100, 900]}}, "BA-13"),
        ({"min_bet": 100, "max_bet": 2_000, "bets": {"player": [100, 900]}}, "BA-13"),
        ({"min_bet": 100, "max_bet": 2_000, "differential": 0}, "BA-14"),
        ({"min_bet": 100, "max_bet": 2_000, "bets": {"tie": [100]}}, None),
        ({"min_bet": "100", "max_bet": 2_000}, None),
        ({"min_bet": 100, "max_bet": 2_000, "odds": 3}, None),
    ]
    for args, rule in cases:
        with pytest.raises(InvalidInput) as exc:
            limits(t, **args)
        assert exc.value.rule == rule, args
    with pytest.raises(InvalidInput):
        run(t, SAM, "change_limits", min_bet=100, max_bet=200, reason=" ")
    with pytest.raises(InvalidInput) as exc:  # the table's currency (BA-13)
        t.change_limits(SAM, Money(100, HKD), Money(200, HKD), "x")
    assert not t.can_change_limits(SAM, Money(300, MOP), Money(200, MOP))
    assert t.can_change_limits(SAM, Money(200, MOP), Money(300, MOP))
    assert len(t.journal) == before
    with pytest.raises(InvalidInput) as exc:  # the rule set itself refuses upside-down limits
        BaccaratRules(limits={k: BetLimit(Money.of(9), Money.of(1)) for k in BaccaratBetKind})
    assert exc.value.rule == "BA-13"


def test_ba_r3_a_limits_change_closes_the_hand_for_a_void_and_replay_is_identical() -> None:
    t = bac()
    bet(t, "alice", "player", 20_000)
    limits(t, min_bet=50_000, max_bet=100_000, bets={"banker_pair": [20_000, 40_000]})
    run(t, D, "deal", cards=NATURAL)
    # the change is a step of the hand it was made in (recall)
    last = contract.rounds(t.journal.events)[-1]
    kinds = [e.kind for e in t.journal.events[last.first : last.last + 1]]
    assert last.status == "settled" and "table.limits_changed" in kinds
    limits(t, min_bet=60_000, max_bet=100_000)
    with pytest.raises(OutOfOrder):  # void first, then change the limits
        t.verify_void_round(Actor.supervisor("ann"), "sam")
    again = replay_baccarat(Journal.from_json(t.journal.to_json()))
    assert again.journal.head == t.journal.head
    assert again.view(Viewer.SUPERVISOR) == t.view(Viewer.SUPERVISOR)
    assert lim(again, BaccaratBetKind.BANKER_PAIR) == (20_000, 40_000)


_BAC_STEP = st.one_of(
    st.tuples(st.just("limits"), st.integers(1, 30), st.integers(1, 30)),
    st.tuples(st.just("bet"), st.sampled_from(["player", "banker", "tie"]), st.integers(1, 40)),
    st.tuples(st.just("deal"), st.just(0), st.just(0)),
)


@settings(max_examples=40, deadline=None)
@given(st.lists(_BAC_STEP, max_size=25), st.integers(0, 2**32))
def test_ba_13_no_bet_is_ever_outside_the_limits_in_force_when_it_was_placed(
    steps: list[tuple[str, Any, int]], seed: int
) -> None:
    """Any sequence of limit changes, bets and hands: every accepted bet lies within the
    limits in force for its hand — those of the last change made before the hand's first
    bet (a model kept here, apart from the engine) — and the engine's limits are the
    model's after every step."""
    t = BaccaratTable(BaccaratRules(decks=6, differential_limit=None), table_id="t")
    run(t, Actor.player("alice"), "sit", seat=1, amount=10**9)
    t.start_shoe(Rng.seeded(str(seed)))
    force = {"player": (10_000, 2_000_000), "banker": (10_000, 2_000_000), "tie": (10_000, 250_000)}
    waiting: tuple[int, int] | None = None
    hand_open = False
    for op, a, b in steps:
        if op == "limits":
            low, high = 1_000 * a, 1_000 * b
            try:
                limits(t, min_bet=low, max_bet=high)
            except InvalidInput:
                assert low > high
                continue
            if hand_open:
                waiting = (low, high)
            else:
                force["player"] = force["banker"] = (low, high)
        elif op == "bet":
            amount = 5_000 * b
            on_spot = sum(x.amount.minor for x in t.holds if x.kind.value == a)
            n = len(t.journal)
            try:
                bet(t, "alice", a, amount)
            except BetNotAllowed:
                continue
            placed = t.journal.events[n]
            assert isinstance(placed, BetPlaced)
            low, high = force[a]
            assert low <= on_spot + amount <= high
            hand_open = True
        elif t.can_deal():
            t.play_hand()
            assert t.hand is None  # settled (or void): the hand is over
            hand_open = False
            if waiting is not None:
                force["player"] = force["banker"] = waiting
                waiting = None
            if t.shoe_over:
                t.start_shoe(Rng.seeded(f"{seed}:{t.shoe_number}"))
        assert lim(t, BaccaratBetKind.PLAYER) == force["player"]
        assert lim(t, BaccaratBetKind.BANKER) == force["banker"]
    again = replay_baccarat(Journal.from_json(t.journal.to_json()), dict(t.seed_vault()))
    assert again.snapshot() == t.snapshot()


# --- Pai Gow, Taiwan Pai Kao -------------------------------------------------------------------


def tiles(game: str, places: int = 8) -> TileTable:
    """ann, bob and cy at seats 1-3 with chips; the bank is offered (PG-4.3)."""
    return seated(game, places=places)


def open_round(t: TileTable, rng: Rng, capital: int = 50_000) -> None:
    """The seat offered the bank opens it (PG-4.4 / TW-5c); the dealer shuffles (PG-1.1)."""
    seat = t.bank_candidate()
    assert seat is not None
    run(t, Actor.player(t.seats()[seat]), "open_bank", capital=capital)
    while t.phase is not TilePhase.BETTING:
        step_default(t, rng)


def finish(t: TileTable, rng: Rng) -> None:
    """The banker's dice, the settings and the settlement by the rules' defaults."""
    while t.phase is not TilePhase.BANK:
        step_default(t, rng)


def a_bettor(t: TileTable) -> tuple[Actor, int]:
    seat, name = next((s, p) for s, p in t.seats().items() if p != t.banker)
    return Actor.player(name), seat


def tile_bet(t: TileTable, amount: int) -> Any:
    who, seat = a_bettor(t)
    return run(t, who, "place_bet", seat=seat, amount=amount)


@pytest.mark.parametrize(("game", "places"), [("paigow", 8), ("taiwan", 8), ("taiwan", 4)])
def test_pg_4_6_tw_2g_new_limits_from_the_next_round(game: str, places: int) -> None:
    """Between rounds a change applies to the next bank at once; during a round its bets
    keep the limits of its bank's opening, and the change applies from the next round (at
    four places, TW-2d, the second round of the same woodpile)."""
    rng = Rng.seeded("7")
    t = tiles(game, places)
    limits(t, min_bet=2_000, max_bet=5_000)
    assert (t.rules.round.min_bet, t.rules.round.max_bet) == (2_000, 5_000)
    assert t.view(Viewer.SUPERVISOR)["next_limits"] is None
    open_round(t, rng)
    limits(t, min_bet=1_000, max_bet=3_000)
    assert t.view(Viewer.player("ann"))["next_limits"] == {"min_bet": 1_000, "max_bet": 3_000}
    assert t.next_limits is not None
    with pytest.raises(BetNotAllowed):
        tile_bet(t, 1_500)  # the round's minimum is still 2,000
    tile_bet(t, 4_000)  # and its maximum 5,000
    finish(t, rng)
    assert (t.rules.round.min_bet, t.rules.round.max_bet) == (1_000, 3_000)
    assert t.next_limits is None
    open_round(t, rng)
    assert t.round is not None and t.round.options.max_bet == 3_000
    before = len(t.journal)
    with pytest.raises(BetNotAllowed):
        tile_bet(t, 4_000)
    assert len(t.journal) == before
    tile_bet(t, 1_500)
    finish(t, rng)
    # the change is a step of the round it was made in (recall); replay is identical
    first = contract.rounds(t.journal.events)[0]
    kinds = [e.kind for e in t.journal.events[first.first : first.last + 1]]
    assert "table.limits_changed" in kinds
    again = replay(Journal.from_json(t.journal.to_json()))
    assert again.journal.head == t.journal.head
    assert again.view(Viewer.SUPERVISOR) == t.view(Viewer.SUPERVISOR)


@pytest.mark.parametrize("game", ["paigow", "taiwan"])
def test_tile_limits_refusals_and_a_change_closes_the_round_for_a_void(game: str) -> None:
    rng = Rng.seeded("3")
    t = tiles(game)
    before = len(t.journal)
    with pytest.raises(OutOfOrder):
        run(t, Actor.player("ann"), "change_limits", min_bet=100, max_bet=200, reason="x")
    with pytest.raises(InvalidInput):
        limits(t, min_bet=5_000, max_bet=2_000)
    with pytest.raises(InvalidInput):
        limits(t, min_bet=0, max_bet=2_000)
    for extra in ({"bets": {"tie": [100, 200]}}, {"differential": 500}):
        with pytest.raises(InvalidInput) as exc:  # baccarat's, not a tile table's
            limits(t, min_bet=100, max_bet=2_000, **extra)
        assert exc.value.rule == ("PG-4.6" if game == "paigow" else "TW-2g")
    with pytest.raises(InvalidInput):
        t.change_limits(SAM, Money(100, HKD), Money(200, HKD), "x")
    assert len(t.journal) == before
    open_round(t, rng)
    tile_bet(t, 2_000)
    assert t.can_void_round(Actor.supervisor("ann"), "sam")
    limits(t, min_bet=1_000, max_bet=3_000)
    assert not t.can_void_round(Actor.supervisor("ann"), "sam")  # void first, then change


def test_craps_limits_are_the_flat_bets_only_and_the_view_shows_them_waiting() -> None:
    t = CrapsTable.seated(["alice"], chips=Money.of(1_000))
    run(t, Actor.player("alice"), "place_bet", bet="pass", amount=1_000)
    with pytest.raises(InvalidInput) as exc:
        limits(t, min_bet=100, max_bet=2_000, bets={"field": [100, 200]})
    assert exc.value.rule == "CR-2.2"
    limits(t, min_bet=2_000, max_bet=5_000)
    assert t.view(Viewer.SUPERVISOR)["next_limits"] == {"min_bet": 2_000, "max_bet": 5_000}
