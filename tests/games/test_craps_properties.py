"""Craps invariants over random sessions (hypothesis): money is conserved, replay rebuilds
the identical table, and no bet is ever resolved twice."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from macau_tables.core.journal import Journal
from macau_tables.core.money import Money
from macau_tables.games.craps import (
    BET_KINDS,
    HOUSE,
    LAYOUT,
    BetTakenDown,
    CrapsTable,
    RollSettled,
    replay,
)

SEATS = ("alice", "bob")
FLAT = [k.name for k in BET_KINDS.values() if k.on is None]
ODDS = [k.name for k in BET_KINDS.values() if k.on is not None]

action = st.one_of(
    st.tuples(st.just("bet"), st.sampled_from(SEATS), st.sampled_from(FLAT),
              st.integers(1, 3000)),
    st.tuples(st.just("odds"), st.sampled_from(ODDS), st.integers(0, 20), st.integers(1, 2500)),
    st.tuples(st.just("more"), st.integers(0, 20), st.integers(1, 1500)),
    st.tuples(st.just("down"), st.integers(0, 20)),
    st.tuples(st.just("roll"), st.integers(1, 6), st.integers(1, 6)),
    st.tuples(st.just("roll"), st.integers(1, 6), st.integers(1, 6)),
    st.tuples(st.just("void"),),
)  # fmt: skip


def play(actions: list[tuple[object, ...]]) -> CrapsTable:
    """Apply each action that the rules allow (checked through can_*; refusals change
    nothing, which the invariants below would notice)."""
    t = CrapsTable(SEATS)
    for seat in SEATS:
        t.buy_in(seat, Money.of(500))
    for act in actions:
        before = t.snapshot()
        bets = t.bets
        match act:
            case ("bet", str(player), str(name), int(minor)):
                if t.can_place_bet(player, name, Money(minor)):
                    t.place_bet(player, name, Money(minor))
            case ("odds", str(name), int(i), int(minor)) if bets:
                flat = bets[i % len(bets)]
                if t.can_place_bet(flat.player, name, Money(minor), on=flat.id):
                    t.place_bet(flat.player, name, Money(minor), on=flat.id)
            case ("more", int(i), int(minor)) if bets:
                if t.can_increase_bet(bets[i % len(bets)].id, Money(minor)):
                    t.increase_bet(bets[i % len(bets)].id, Money(minor))
            case ("down", int(i)) if bets:
                if t.can_take_down(bets[i % len(bets)].id):
                    t.take_down(bets[i % len(bets)].id)
            case ("roll", int(d1), int(d2)):
                t.throw_dice(d1, d2)
            case ("void",):
                t.void_throw()
        if t.snapshot()["head"] == before["head"]:
            assert t.snapshot() == before  # a refused operation leaves the state intact
    return t


@settings(max_examples=150, deadline=None)
@given(st.lists(action, max_size=60))
def test_random_sessions_conserve_money_replay_identically_and_resolve_once(
    actions: list[tuple[object, ...]],
) -> None:
    t = play(actions)
    # Money is conserved: double entry sums to zero; chips bought = wallets + layout + house.
    assert t.ledger.total().is_zero()
    wallets = sum(t.balance(s).minor for s in SEATS)
    assert wallets + t.ledger.balance(LAYOUT).minor + t.ledger.balance(HOUSE).minor == 100_000
    assert t.ledger.balance(LAYOUT).minor == sum(b.amount.minor for b in t.bets)
    assert all(t.balance(s).minor >= 0 for s in SEATS)
    # No bet is resolved twice, none is resolved and still open, none taken down and resolved.
    resolved = [r["bet"] for ev in t.events if isinstance(ev, RollSettled) for r in ev.results]
    down = [i for ev in t.events if isinstance(ev, BetTakenDown) for i in ev.bet_ids]
    assert len(resolved) + len(down) == len(set(resolved) | set(down))
    assert not ({b.id for b in t.bets} & (set(resolved) | set(down)))
    placed = [ev for ev in t.events if ev.kind == "craps.bet_placed"]
    assert len(placed) == len(t.bets) + len(resolved) + len(down)
    # Replay from the JSON journal rebuilds the identical table.
    again = replay(Journal.from_json(t.journal.to_json()))
    assert again.snapshot() == t.snapshot()
