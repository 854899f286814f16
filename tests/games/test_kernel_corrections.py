"""The kernel's supervisor operations, time-outs and dispatch, once for the four games.

``void_round``, ``correct_round``, ``change_limits``, ``time_out`` and ``execute`` are the
kernel's (``games.kernel.Table``); each game adds only its hooks. What they share is tested
here over Baccarat, Craps, Pai Gow and Taiwan Pai Kao; what each game's rules make of a void
or a correction stays in ``test_{baccarat,craps,tiletable}_corrections.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from macau_tables.core.errors import InvalidInput, OutOfOrder, RuleViolation
from macau_tables.core.journal import Journal
from macau_tables.games import contract
from macau_tables.games.baccarat import BaccaratTable
from macau_tables.games.contract import Actor, Command, LimitsChanged
from macau_tables.games.craps import CrapsTable
from macau_tables.games.kernel import Table
from macau_tables.games.tiletable import TileTableRules, open_table
from macau_tables.server.games import binding

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


def refused(t: Table, cmd: Command, error: type[Exception]) -> None:
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
