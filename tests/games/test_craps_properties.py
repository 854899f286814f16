"""Craps invariants over random sessions (hypothesis): commands through ``execute`` (refused
ones included) keep the projected ledger at zero with no stack or wallet negative, every hold
is opened once and closed at most once, no bet is resolved twice, and replay rebuilds the
identical table."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from macau_tables.core.errors import MacauTablesError
from macau_tables.core.journal import Journal
from macau_tables.core.ledger import CAGE, Ledger, Transaction
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games.contract import Actor, Command, accounts, time_out
from macau_tables.games.craps import (
    BET_KINDS,
    BetPlaced,
    BetTakenDown,
    CrapsTable,
    RollSettled,
    replay,
)

PLAYERS = ("alice", "bob", "carol")
FLAT = [k.name for k in BET_KINDS.values() if k.on is None]
ODDS = [k.name for k in BET_KINDS.values() if k.on is not None]

who = st.sampled_from(PLAYERS)
action = st.one_of(
    st.tuples(st.just("sit"), who, st.integers(0, 600_00)),
    st.tuples(st.just("bet"), who, st.sampled_from(FLAT), st.integers(-100, 3000_00)),
    st.tuples(st.just("odds"), st.sampled_from(ODDS), st.integers(0, 30), st.integers(1, 250_00)),
    st.tuples(st.just("more"), who, st.integers(0, 30), st.integers(1, 1500_00)),
    st.tuples(st.just("down"), who, st.integers(0, 30)),
    st.tuples(st.just("throw"), who),
    st.tuples(st.just("throw"), who),
    st.tuples(st.just("throw"), who),
    st.tuples(st.just("dice"), st.integers(0, 7), st.integers(1, 6)),
    st.tuples(st.just("void"),),
    st.tuples(st.just("pass"), who),
    st.tuples(st.just("timeout"),),
    st.tuples(st.just("leave"), who),
    st.tuples(st.just("buy"), who, st.integers(-5, 200_00)),
)  # fmt: skip


def command(t: CrapsTable, act: tuple[Any, ...]) -> Command | None:
    bets = t.bets
    match act:
        case ("sit", str(p), int(amount)):
            return Command(Actor.player(p), "sit", {"amount": amount})
        case ("bet", str(p), str(name), int(amount)):
            return Command(Actor.player(p), "place_bet", {"bet": name, "amount": amount})
        case ("odds", str(name), int(i), int(amount)) if bets:
            flat = bets[i % len(bets)]
            args = {"bet": name, "amount": amount, "on": flat.id}
            return Command(Actor.player(flat.player), "place_bet", args)
        case ("more", str(p), int(i), int(amount)) if bets:
            return Command(Actor.player(p), "increase_bet",
                           {"bet_id": bets[i % len(bets)].id, "amount": amount})  # fmt: skip
        case ("down", str(p), int(i)) if bets:
            return Command(Actor.player(p), "take_down", {"bet_id": bets[i % len(bets)].id})
        case ("throw", str(p)):
            return Command(Actor.player(p), "throw")
        case ("dice", int(d1), int(d2)):
            return Command(Actor.DEALER, "throw_dice", {"dice": [d1, d2]})
        case ("void",):
            return Command(Actor.DEALER, "void_throw", {})
        case ("pass", str(p)):
            return Command(Actor.player(p), "pass_dice")
        case ("timeout",):
            due = [p for p in t.pending() if p.default is not None]
            return time_out(due[0]) if due else None
        case ("leave", str(p)):
            return Command(Actor.player(p), "leave")
        case ("buy", str(p), int(amount)):
            return Command(Actor.player(p), "buy_in", {"amount": amount})
    return None


def play(actions: list[tuple[Any, ...]], seed: str = "props") -> CrapsTable:
    """Run each action through ``execute``; a refused command must leave the table intact."""
    rng = Rng.seeded(seed)
    t = CrapsTable(table_id="t7")
    for act in actions:
        cmd = command(t, act)
        if cmd is None:
            continue
        before = t.snapshot()
        try:
            t.execute(cmd, rng)
        except MacauTablesError:
            assert t.snapshot() == before  # refused: nothing changed
    return t


@settings(max_examples=150, deadline=None)
@given(st.lists(action, max_size=60))
@example([("sit", "alice", 100_00), ("bet", "alice", "pass", 10_00), ("dice", 2, 2),
          ("leave", "alice"), ("dice", 3, 4), ("leave", "alice")])  # fmt: skip
def test_random_sessions_conserve_money_replay_identically_and_resolve_once(
    actions: list[tuple[Any, ...]],
) -> None:
    t = play(actions)
    # The wallets are the cashier's (the server's ledger refuses a buy-in it cannot cover):
    # fund each with what its player bought, then project the table's events onto them.
    ledger = Ledger()
    for p in PLAYERS:
        bought = sum(
            ev.amount  # type: ignore[attr-defined]
            for ev in t.events
            if ev.kind in ("craps.player_joined", "craps.chips_bought") and ev.player == p  # type: ignore[attr-defined]
        )
        ledger.post(Transaction.transfer(CAGE, accounts.wallet(p), Money(bought), "cash"))
    money = Ledger.project(t.events, ledger)
    assert money.total().is_zero()
    for p in PLAYERS:
        stack = money.balance(accounts.stack("t7", p)).minor
        assert stack >= 0
        assert stack == t.balance(p).minor
    # Every hold opened once, closed at most once; open holds are the bets on the layout.
    assert money.open_holds == {t.hold(b.id) for b in t.bets}
    assert money.balance(accounts.wagers("t7")).minor == sum(b.amount.minor for b in t.bets)
    resolved = [r["bet"] for ev in t.events if isinstance(ev, RollSettled) for r in ev.results]
    down = [i for ev in t.events if isinstance(ev, BetTakenDown) for i in ev.bet_ids]
    assert len(resolved) + len(down) == len(set(resolved) | set(down))
    placed = [ev.bet_id for ev in t.events if isinstance(ev, BetPlaced)]
    assert len(placed) == len(set(placed)) == len(t.bets) + len(resolved) + len(down)
    # Replay from the JSON journal rebuilds the identical table (seeds revealed or not).
    again = replay(Journal.from_json(t.journal.to_json()))
    assert again.snapshot() == t.snapshot()
