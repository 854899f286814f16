"""The kernel's supervisor operations, time-outs and dispatch, once for the four games.

``void_round``, ``correct_round``, ``change_limits``, ``time_out`` and ``execute`` are the
kernel's (``games.kernel.Table``); each game adds only its hooks. What they share is tested
here over Baccarat, Craps, Pai Gow and Taiwan Pai Kao: the dispatch, then the supervisor's
corrections and voids as invariants over a scenario a game (``correction_scenarios``: the
cards, dice or tiles a dealer keys in, a round played by the rules) — a corrected round
leaves the table as if the right outcome had been keyed, a void refunds every bet of its
round, only the last round and only by a second supervisor — and last what each game's own
rules make of a void or a correction (BA-9 a natural re-dealt, CR-2.1 a seven-out undone,
PG-1.4 a deal re-dealt, the roads, the recall of rounds).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from macau_tables.core.errors import InvalidInput, OutOfOrder, RuleViolation
from macau_tables.core.journal import Journal
from macau_tables.core.money import MOP, Money
from macau_tables.core.rng import commitment
from macau_tables.core.visibility import Viewer
from macau_tables.games import contract
from macau_tables.games.baccarat import BaccaratPhase, BaccaratTable, Card, HandVoided, KeyedShoe
from macau_tables.games.contract import Actor, Command, LimitsChanged, RoundCorrected, RoundVoided
from macau_tables.games.craps import CrapsTable
from macau_tables.games.craps import replay as replay_craps
from macau_tables.games.kernel import Table
from macau_tables.games.tiles import TilePhase, TileTableRules, open_table
from macau_tables.games.tiles import replay as replay_tiles
from macau_tables.server.games import binding
from tests.games.correction_scenarios import (
    BUY_IN,
    MAIN,
    ORDER,
    PLAYERS,
    SCENARIOS,
    SIDE,
    Baccarat,
    Craps,
    PaiGow,
    Scenario,
    correct,
    hypothesis,
    void,
)
from tests.games.test_tiletable_keyed import _finish, _hands
from tests.games.tiletable_helpers import seated as tile_table

SAM, ANN = Actor.supervisor("sam"), Actor.supervisor("ann_sup")
TABLES: dict[str, Callable[[], Table]] = {
    "baccarat": lambda: BaccaratTable(table_id="t1"),
    "craps": lambda: CrapsTable(table_id="t1"),
    "paigow": lambda: open_table(TileTableRules(game="paigow"), "t1"),
    "taiwan": lambda: open_table(TileTableRules(game="taiwan"), "t1"),
}
GAMES = sorted(TABLES)
#: a seat every game takes (a tile table's seat is required)
SIT = {"seat": 1, "amount": 100_000}
VOID = {"reason": "video review", "request": 1, "requested_by": "sam"}


def seated(game: str) -> Table:
    t = TABLES[game]()
    t.execute(Command(Actor.player("alice"), "sit", SIT))
    return t


def refused(t: Table, cmd: Command, error: type[Exception] | tuple[type[Exception], ...]) -> None:
    """``cmd`` is refused with ``error`` and the journal is as it was."""
    head = t.journal.head
    with pytest.raises(error):
        t.execute(cmd)
    assert t.journal.head == head


@pytest.mark.parametrize("game", GAMES)
def test_sit_buy_in_and_leave_are_one_act_with_one_name_at_every_table(game: str) -> None:
    """Every table seats a player with chips (``sit {seat, amount}``), sells more
    (``buy_in``) and lets him go (``leave``): the same names and arguments."""
    t = seated(game)
    assert {"sit", "buy_in", "leave"} <= set(t.OPERATIONS)
    t.execute(Command(Actor.player("alice"), "buy_in", {"amount": 5_000}))
    view = t.view(contract.Viewer.SUPERVISOR)
    assert "alice" in str(view)
    events = t.execute(Command(Actor.player("alice"), "leave", {}))
    assert events and all(e in t.journal.events for e in events)


@pytest.mark.parametrize("game", GAMES)
def test_every_act_returns_the_tuple_of_the_events_it_journalled(game: str) -> None:
    t = TABLES[game]()
    before = len(t.journal)
    events = t.execute(Command(Actor.player("alice"), "sit", SIT))
    assert isinstance(events, tuple) and events
    assert list(events) == list(t.journal.events[before:])


@pytest.mark.parametrize("game", GAMES)
def test_a_void_needs_a_second_supervisor(game: str) -> None:
    """Two supervisors: one requests, another approves; nobody else voids a round."""
    t = seated(game)
    refused(t, Command(SAM, "void_round", VOID), OutOfOrder)  # his own request
    refused(t, Command(Actor.DEALER, "void_round", VOID), OutOfOrder)  # not a supervisor
    refused(t, Command(Actor.player("alice"), "void_round", VOID), OutOfOrder)


@pytest.mark.parametrize("game", GAMES)
def test_there_is_no_round_to_void_before_one_is_played(game: str) -> None:
    t = seated(game)
    refused(t, Command(ANN, "void_round", VOID), OutOfOrder)


@pytest.mark.parametrize("game", GAMES)
def test_a_correction_names_a_keyed_in_event_of_the_history(game: str) -> None:
    t = seated(game)
    args = {"of_seq": 1, "args": {"x": 1}, **VOID}
    refused(t, Command(ANN, "correct_round", args), OutOfOrder)  # not a keyed-in outcome
    refused(t, Command(ANN, "correct_round", {**args, "of_seq": "1"}), InvalidInput)
    refused(t, Command(SAM, "correct_round", args), OutOfOrder)  # his own request


@pytest.mark.parametrize("game", GAMES)
def test_new_limits_between_rounds_apply_at_once_and_replay(game: str) -> None:
    """A supervisor's new limits between rounds take effect at once (no round under way):
    the view shows nothing waiting; the change replays as journalled."""
    t = seated(game)
    limits = {"min_bet": 2_000, "max_bet": 400_000, "reason": "high limit room"}
    (ev,) = t.execute(Command(ANN, "change_limits", limits))
    assert isinstance(ev, LimitsChanged) and (ev.min_bet, ev.max_bet) == (2_000, 400_000)
    assert t.view(contract.Viewer.SUPERVISOR)["next_limits"] is None
    again = contract.replay(Journal.from_json(t.journal.to_json()), binding(game).open)
    assert again.journal.head == t.journal.head


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("actor", "args", "error"),
    [
        (Actor.player("alice"), {"min_bet": 100, "max_bet": 1000, "reason": "x"}, OutOfOrder),
        (ANN, {"min_bet": 100, "max_bet": 1000}, InvalidInput),  # no reason
        (ANN, {"min_bet": "100", "max_bet": 1000, "reason": "x"}, InvalidInput),
        (ANN, {"min_bet": 1000, "max_bet": 100, "reason": "x"}, InvalidInput),
        (ANN, {"min_bet": 100, "max_bet": 1000, "reason": "x", "cap": 5}, InvalidInput),
    ],
)
def test_limits_are_a_supervisors_and_well_formed(
    game: str, actor: Actor, args: dict[str, Any], error: type[Exception]
) -> None:
    t = seated(game)
    refused(t, Command(actor, "change_limits", args), error)


@pytest.mark.parametrize("game", GAMES)
def test_only_the_tables_clock_times_out_and_only_what_is_pending(game: str) -> None:
    t = seated(game)
    p = next((p for p in t.pending() if p.default is not None), None)
    if p is not None:
        cmd = contract.time_out(p)
        refused(t, Command(Actor.DEALER, "time_out", dict(cmd.args)), RuleViolation)
    refused(
        t, Command(Actor.SYSTEM, "time_out", {"actor": "player:zed", "op": "leave"}), OutOfOrder
    )


@pytest.mark.parametrize("game", GAMES)
def test_unknown_operations_and_arguments_are_refused_naming_what_there_is(game: str) -> None:
    t = seated(game)
    with pytest.raises(InvalidInput, match="buy_in"):
        t.execute(Command(Actor.player("alice"), "buy_chip", {"amount": 1}))
    refused(t, Command(Actor.player("alice"), "buy_in", {"amount": 1, "sum": 2}), InvalidInput)
    refused(t, Command(Actor.player("alice"), "buy_in", {"amount": 1.5}), InvalidInput)
    refused(t, Command(Actor.player("alice"), "buy_in", {}), InvalidInput)


@pytest.mark.parametrize("game", GAMES)
def test_pending_menus_name_declared_operations_only(game: str) -> None:
    t = seated(game)
    for p in t.pending():
        assert set(p.operations) <= set(t.OPERATIONS), p
        assert p.default is None or p.default in t.OPERATIONS


@pytest.mark.parametrize(
    ("game", "old", "args", "new", "new_args"),
    [
        ("baccarat", "join", {"seat": 1, "buy_in": 500}, "sit", {"seat": 1, "amount": 500}),
        ("craps", "join", {"seat": 1, "amount": 500}, "sit", {"seat": 1, "amount": 500}),
    ],
)
def test_the_old_names_of_an_act_are_still_taken(
    game: str, old: str, args: dict[str, Any], new: str, new_args: dict[str, Any]
) -> None:
    """Clients and journals' corrections may still say ``join`` (baccarat's and craps'
    name for taking a seat); the events are those of ``sit``."""
    a, b = TABLES[game](), TABLES[game]()
    got = a.execute(Command(Actor.player("alice"), old, args))
    want = b.execute(Command(Actor.player("alice"), new, new_args))
    assert [e.to_json() for e in got] == [e.to_json() for e in want]
    assert a.journal.head == b.journal.head
    if game == "baccarat":
        more = a.execute(Command(Actor.player("alice"), "buy_chips", {"amount": 5}))
        assert more == b.execute(Command(Actor.player("alice"), "buy_in", {"amount": 5}))


# --- corrections and voids: one suite, a scenario a game ---------------------------------


def ledger_stacks(s: Scenario, t: Table) -> dict[str, int]:
    """The players' stacks as the ledger of the table's events has them."""
    led = s.ledger(t)
    return {p: led.balance(contract.accounts.stack(t.table_id, p)).minor for p in s.stacks(t)}


@pytest.fixture(params=GAMES, scope="module")
def scenario(request: pytest.FixtureRequest) -> Scenario:
    """The game's table, its rounds and outcomes (``correction_scenarios``)."""
    return SCENARIOS[request.param]


def test_a_corrected_round_leaves_the_table_as_if_the_right_outcome_were_keyed(
    scenario: Scenario,
) -> None:
    """Invariant: whatever was keyed (cards, dice, tiles) and whatever was right, the
    corrected table is the one keyed right the first time — stacks, holds, ledger and the
    round's result; replay re-runs the correction; the next round plays on the same, every
    re-issued hold settled once."""
    s = scenario

    @hypothesis(s.corrections, s.correction_examples, s.max_examples)
    def check(case: Any) -> None:
        t, right = s.corrected(case)
        assert s.state(t) == s.state(right)
        s.replays(t)
        s.play_on(case, (t, right))
        assert s.state(t) == s.state(right)
        assert s.ledger(t).open_holds == s.layout_holds(t)  # a hold per bet on the layout
        s.replays(t)

    check()


def test_a_voided_round_refunds_every_bet_of_it(scenario: Scenario) -> None:
    """Invariant: wherever the round stopped (its bets placed, its outcome keyed, settled),
    the void leaves every stack as before the round and no hold open but the layout's;
    replay re-runs it; the table plays on with new ids and holds."""
    s = scenario

    @hypothesis(s.voids, s.void_examples, s.max_examples)
    def check(case: Any) -> None:
        t, before = s.voided(case)
        assert s.stacks(t) == before == ledger_stacks(s, t)  # the money reversed too
        assert s.ledger(t).open_holds == s.layout_holds(t)
        s.replays(t)
        s.plays_on(t)
        assert s.ledger(t).open_holds == s.layout_holds(t)
        s.replays(t)

    check()


def test_a_settled_round_voided_refunds_its_bets_once(scenario: Scenario) -> None:
    """The last round, settled, voided by a second supervisor: its money reversed (every
    stack as before its bets), no hold left open, and it is not voided twice; what the
    game's rules keep of it (cards out of the shoe, the earlier round's bets, the bank's
    rotation) checked by the scenario."""
    t, before, check = scenario.settled()
    assert scenario.stacks(t) != before  # the round moved money
    events = void(t)
    assert isinstance(events[0], RoundVoided) and events[0].approved_by == "ann_sup"
    assert scenario.stacks(t) == before == ledger_stacks(scenario, t)  # the money reversed too
    assert scenario.ledger(t).open_holds == scenario.layout_holds(t)
    refused(t, Command(ANN, "void_round", VOID), OutOfOrder)  # voided already
    scenario.replays(t)
    check(events)
    scenario.replays(t)


def test_a_correction_takes_only_what_the_rules_take(scenario: Scenario) -> None:
    """A corrected outcome the rules refuse (BA-1 a card the shoe cannot hold, CR-1 a die
    that is none, T-1 a tile the set has not, an argument the key-in has not) is refused,
    naming the rule; nothing is recorded."""
    t, seq, bad = scenario.bad_corrections()
    before = (len(t.journal), scenario.state(t))
    for args, rule in bad:
        with pytest.raises(InvalidInput) as exc:
            correct(t, seq, **args)
        assert rule is None or exc.value.rule == rule, (args, exc.value.rule)
    assert (len(t.journal), scenario.state(t)) == before


def test_only_the_last_round_is_corrected_or_voided_and_by_a_second_supervisor(
    scenario: Scenario,
) -> None:
    """Two supervisors: one requests, the other approves; a dealer does neither. A
    correction names a keyed-in event of the history as it stands; once the next round
    begins, the last one is closed to corrections; what follows a round closes it to a
    void."""
    t = scenario.table()
    seq, good = scenario.keyed_round(t)
    cur = t.currency
    assert t.can_correct_round(ANN, seq, good, "sam")
    assert not t.can_correct_round(SAM, seq, good, "sam")
    assert t.can_void_round(ANN, "sam") and not t.can_void_round(SAM, "sam")
    assert not t.can_change_limits(Actor.DEALER, Money(100, cur), Money(200, cur))
    with pytest.raises(OutOfOrder, match="another supervisor"):
        correct(t, seq, by=SAM, **good)
    with pytest.raises(OutOfOrder, match="a supervisor"):
        void(t, by=Actor.DEALER)
    refused(t, Command(Actor.DEALER, "correct_round", {"of_seq": seq, "args": good, **VOID}),
            OutOfOrder)  # fmt: skip
    with pytest.raises(OutOfOrder, match="keyed-in"):
        correct(t, 1, **good)  # a seat taken
    for bad in (seq + 1, -1, 10**6, True):
        refused(t, Command(ANN, "correct_round", {"of_seq": bad, "args": good, **VOID}),
                (OutOfOrder, InvalidInput))  # fmt: skip
    scenario.start_next(t)
    assert not t.can_correct_round(ANN, seq, good, "sam")
    with pytest.raises(OutOfOrder, match="last"):
        correct(t, seq, **good)
    u = scenario.table()
    scenario.keyed_round(u)
    scenario.close_to_void(u)
    with pytest.raises(OutOfOrder, match="no (round|hand) to void"):
        void(u)


# --- what each game's rules make of a void or a correction -------------------------------

BAC, CRAPS, PAIGOW = Baccarat(), Craps(), PaiGow()


def test_ba_9_a_mis_keyed_natural_corrected_is_re_dealt_and_re_settled_by_the_rules() -> None:
    """The dealer keyed 9h (a Player natural 9, BA-8.1 … BA-11: Player wins); the card was
    4h: Player 4 must draw (BA-9.1), so the correction reverses the settlement and the hand
    waits for the third card; the 9h goes back to what the shoe holds."""
    t = BAC.table(decks=6)
    BAC.preload(t, "9h", 4)
    BAC.bets(t)
    wrong = BAC.deal(t, ["9h", "2c", "Kd", "5s"])  # the fifth 9h of six
    assert t.phase is BaccaratPhase.BETTING and t.stacks["alice"] == BUY_IN + MAIN - SIDE
    (ev,) = correct(t, wrong, cards=["4h", "2c", "Kd", "5s"])
    assert isinstance(ev, RoundCorrected) and ev.approved_by == "ann_sup" and ev.op == "deal"
    # the settlement reversed: every stake back on the layout, under re-issued holds
    assert t.phase is BaccaratPhase.DEALING and t.third_card_due() is not None
    assert sorted(t_id for _, t_id in ev.aliases) == sorted(b.id for b in t.holds)
    assert all("~" in b.id for b in t.holds) and len(t.holds) == 4
    assert t.stacks == {"alice": BUY_IN - MAIN - SIDE, "bob": BUY_IN - MAIN - SIDE}
    assert isinstance(t.shoe, KeyedShoe) and t.shoe.keyed().count(Card.parse("9h")) == 4
    BAC.draws(t, ["Ks"])  # Player 4 + 0 = 4; Banker 7 stands (BA-9.3): Banker wins
    right = BAC.table(decks=6)
    BAC.preload(right, "9h", 4)
    BAC.bets(right)
    BAC.deal(right, ["4h", "2c", "Kd", "5s"])
    BAC.draws(right, ["Ks"])
    assert BAC.state(t) == BAC.state(right)
    assert t.stacks["bob"] == BUY_IN + MAIN * 95 // 100 - SIDE  # BA-18: 5% on the Banker win
    assert BAC.ledger(t).open_holds == frozenset()  # the re-issued holds settled once
    BAC.replays(t)
    BAC.bets(t)
    BAC.deal(t, ["9h", "9h", "Qd", "4s"])  # BA-1: the fifth 9h is in the shoe again


def test_ba_9_a_keyed_third_card_is_corrected_and_only_the_last_hand() -> None:
    """A third card keyed wrong (BA-9.1): the hand re-derived (BA-12: a tie), the corrected
    key-in named as it now stands; once the next hand's bets are placed, closed."""
    t = BAC.table()
    BAC.bets(t)
    BAC.deal(t, ["2c", "Kh", "3d", "Qs"])  # Player 5 draws, Banker 0 draws (BA-9)
    first = len(t.journal)
    BAC.draws(t, ["4h", "5d"])  # Player 9, Banker 5: Player wins
    (ev,) = correct(t, first, card="Kh")  # the Player's third card was a king: Player 5
    assert isinstance(ev, RoundCorrected) and ev.args == {"card": "Kh"}
    fixed_at = len(t.journal) - 1  # the corrected key-in stands here now
    with pytest.raises(OutOfOrder, match="as it stands"):
        correct(t, first, card="4h")
    assert t.results[-1].player_total == 5 and t.results[-1].banker_total == 5
    assert t.results[-1].outcome == "T"  # BA-12: Tie pays 8 to 1; Player and Banker push
    assert t.stacks["alice"] == BUY_IN - MAIN - SIDE + SIDE + 8 * SIDE
    assert t.can_correct_round(ANN, fixed_at, {"card": "4h"}, "sam")
    BAC.bets(t)
    assert t.can_correct_round(ANN, fixed_at, {"card": "4h"}, "sam") is False
    with pytest.raises(OutOfOrder, match="last hand"):
        correct(t, fixed_at, card="4h")
    BAC.replays(t)


def test_ba_10_a_hand_being_dealt_is_voided_by_the_rules_own_void() -> None:
    t = BAC.table()
    BAC.bets(t)
    BAC.deal(t, ["2c", "Kh", "3d", "Qs"])  # waits for the Player's third card
    events = void(t)
    assert [type(e) for e in events] == [HandVoided]
    assert events[0].by == "supervisor:ann_sup" and "request 2 by sam" in events[0].reason
    assert t.stacks == {"alice": BUY_IN, "bob": BUY_IN}
    with pytest.raises(OutOfOrder):
        void(t)  # nothing left to void: no hand settled since
    BAC.replays(t)


def test_the_views_roads_follow_a_voided_hand() -> None:
    """(The view keeps the roads' JSON per shoe and hands recorded: a void leaves as many
    hands recorded, the voided one now out of the roads.)"""
    t = BAC.table(decks=6)
    BAC.preload(t, "9h", 4)
    BAC.bets(t)
    BAC.deal(t, ["9h", "2c", "9h", "5s"])  # Player 8, Banker 7
    before = t.view(Viewer.SUPERVISOR)["roads"]
    void(t)
    after = t.view(Viewer.SUPERVISOR)["roads"]
    assert after != before and after == t.roads().to_json()


def test_cr_2_1_a_mis_keyed_seven_out_corrected_to_eleven_is_re_settled_by_the_rules() -> None:
    """CR-1, CR-2.1: [3,4] keyed in the point phase (a seven-out), the table showed [5,6]:
    the Pass Line bet is back on its point under a re-issued hold, the Field pays 11."""
    t = CRAPS.table()
    CRAPS.bets(t)
    CRAPS.key(t, 2, 2)  # point 4
    CRAPS.bets(t)
    wrong = CRAPS.key(t, 3, 4)
    assert t.point is None
    (ev,) = correct(t, wrong, dice=[5, 6])
    assert isinstance(ev, RoundCorrected) and ev.approved_by == "ann_sup"
    right = CRAPS.table()
    CRAPS.bets(right)
    CRAPS.key(right, 2, 2)
    CRAPS.bets(right)
    CRAPS.key(right, 5, 6)
    assert CRAPS.state(t) == CRAPS.state(right)
    assert t.point == 4
    line = sorted(b.id for b in t.bets if b.kind in ("pass", "dont_pass"))
    assert ev.aliases == tuple((f"t:{i}", f"t:{i}~{len(t.events) - 1}") for i in line)
    assert CRAPS.ledger(t).open_holds == {t.hold(i) for i in line}
    # the re-issued holds are settled once, under their new ids
    CRAPS.key(t, 1, 3)
    assert CRAPS.ledger(t).open_holds == frozenset()
    CRAPS.replays(t)


def test_craps_new_limits_wait_for_the_round_boundary() -> None:
    t = CRAPS.table()
    alice, bob = Actor.player("alice"), Actor.player("bob")
    t.execute(Command(alice, "place_bet", {"bet": "pass", "amount": 1_000}))
    t.execute(Command(SAM, "change_limits", {"min_bet": 2_000, "max_bet": 5_000,
                                             "reason": "high-limit table"}))  # fmt: skip
    assert t.rules.min_bet == Money(100, MOP)  # this round's bets keep the old limits
    t.execute(Command(bob, "place_bet", {"bet": "field", "amount": 1_000}))
    CRAPS.key(t, 6, 6)
    assert (t.rules.min_bet, t.rules.max_bet) == (Money(2_000, MOP), Money(5_000, MOP))
    with pytest.raises(Exception, match="table minimum"):
        t.execute(Command(bob, "place_bet", {"bet": "field", "amount": 1_000}))
    assert replay_craps(t.journal, dict(t.seed_vault())).rules == t.rules
    with pytest.raises(InvalidInput):
        t.execute(Command(SAM, "change_limits", {"min_bet": 5_000, "max_bet": 2_000,
                                                 "reason": "upside down"}))  # fmt: skip


def test_rounds_show_a_voided_and_a_corrected_round_ending_with_the_supervisors_event() -> None:
    """Recall (contract.rounds): the round a supervisor voided or corrected is that round,
    ``voided`` / ``corrected``, and ends with the supervisor's event — not a round of its own."""
    t = CRAPS.table()
    CRAPS.bets(t)
    CRAPS.key(t, 2, 2)  # round 1: point 4
    CRAPS.bets(t)
    wrong = CRAPS.key(t, 3, 4)  # round 2: keyed wrong
    correct(t, wrong, dice=[5, 6])
    fixed = len(t.events) - 1
    CRAPS.bets(t)
    CRAPS.key(t, 6, 6)  # round 3
    void(t)
    voided = len(t.events) - 1
    got = contract.rounds(t.events)
    assert [r.status for r in got] == ["settled", "corrected", "voided"]
    assert got[1].first <= wrong < got[1].last == fixed
    assert got[2].last == voided
    assert [r.number for r in got] == [1, 2, 3]


def test_pg_1_4_a_mis_keyed_deal_is_corrected_and_the_round_re_settled() -> None:
    """The dealer keyed seat 1's hand for seat 2 and seat 2's for seat 1: the correction
    re-deals the right hands, the players' settings (here the house way, PG-R10) follow the
    right tiles, and the money is what the right key-in gives."""
    t = PAIGOW.table()
    wrong = PAIGOW.deal(t, [1, 2, 3, 4], ORDER[4:8] + ORDER[:4] + ORDER[8:])  # 1 and 2 swapped
    _finish(t)
    right = PAIGOW.table()
    PAIGOW.deal(right, [1, 2, 3, 4], ORDER)
    _finish(right)
    assert PAIGOW.state(t) != PAIGOW.state(right)  # the key-in mattered
    (ev,) = correct(t, wrong, hands=_hands(ORDER))
    assert isinstance(ev, RoundCorrected) and ev.op == "shake" and ev.approved_by == "ann_sup"
    assert ev.args["dice"] == [1, 2, 3, 4]  # the dice stand as keyed
    assert PAIGOW.state(t) == PAIGOW.state(right)
    assert PAIGOW.ledger(t).open_holds == frozenset()
    PAIGOW.replays(t)


def test_pg_5_1_a_setting_of_tiles_the_seat_no_longer_holds_is_done_again() -> None:
    t, right = PAIGOW.table(), PAIGOW.table()
    wrong = PAIGOW.deal(t, [2, 2, 3, 3], ORDER[::-1])
    PAIGOW.deal(right, [2, 2, 3, 3], ORDER)
    setter = next(p for p in t.pending() if "set_tiles" in p.operations and p.actor != Actor.DEALER)
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
    assert PAIGOW.state(t) == PAIGOW.state(right)
    assert PAIGOW.ledger(t).open_holds == frozenset()


def test_a_tile_round_in_play_voided_ends_its_woodpile() -> None:
    """A physical woodpile ends with the void (its tiles were dealt); a seeded one's seed is
    revealed with it (a commitment never stays unrevealed), and the next round has a new
    woodpile either way."""
    t = PAIGOW.table()
    PAIGOW.deal(t, [1, 2, 3, 4], ORDER)
    events = void(t)
    assert [e.kind for e in events] == ["table.round_voided", "tiletable.woodpile_ended"]
    assert PAIGOW.stacks(t) == dict.fromkeys(PLAYERS, 100000)
    assert PAIGOW.ledger(t).open_holds == frozenset()
    seeded = tile_table("taiwan", places=4)
    seat = seeded.bank_candidate()
    assert seat is not None
    banker = Actor.player(seeded.seats()[seat])
    seeded.execute(Command(banker, "open_bank", {"capital": 50_000}))
    seeded.execute(Command(Actor.DEALER, "shuffle", {"seed": "ab" * 32}))
    (c,) = [e.commitment for e in seeded.journal.events if e.kind == "table.seed_committed"]
    events = void(seeded)
    assert [e.kind for e in events] == ["table.round_voided", "table.seed_revealed"]
    assert events[1].seed == "ab" * 32
    seeded.execute(Command(banker, "open_bank", {"capital": 50_000}))
    assert seeded.phase is TilePhase.SHUFFLE  # a new woodpile, under a new label
    seeded.execute(Command(Actor.DEALER, "shuffle", {"seed": "cd" * 32}))
    labels = [e.label for e in seeded.journal.events if e.kind == "table.seed_committed"]
    assert labels == ["woodpile:1", "woodpile:2"]
    live = {commitment(bytes.fromhex("cd" * 32)): bytes.fromhex("cd" * 32)}  # the server's
    again = replay_tiles(Journal.from_json(seeded.journal.to_json()), live)
    assert again.journal.head == seeded.journal.head
    assert c == commitment(bytes.fromhex("ab" * 32))
