"""The indexes that keep a bet's cost independent of the bets on the table: craps' layout
by player with the odds on each flat bet and the contract bets working (``craps.BetIndex``,
CR-2.2, CR-R6), a tile round's bets summed by person and seat (``tileround.BetTally``,
PG-4.6, PG-2.1, PG-7.1), baccarat's stakes by player, bet and spot with the Banker minus
Player running total (``baccarat.HoldIndex``, BA-12, BA-13, BA-14). After any run of
operations — bets, changes and withdrawals, leaving, rolls and hands settled, voids and
corrections by a supervisor, a snapshot restored — each index is what a count from scratch
over the table's bets gives, and a bet keeps the index it found (it is updated, not built
again)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from macau_tables.core.errors import MacauTablesError
from macau_tables.core.journal import Journal
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games import contract
from macau_tables.games.baccarat import (
    BaccaratBetKind,
    BaccaratRules,
    BaccaratTable,
    full_set,
)
from macau_tables.games.baccarat import bets as layout
from macau_tables.games.contract import Actor, Command, time_out
from macau_tables.games.craps import BET_KINDS, CrapsRules, CrapsTable
from macau_tables.games.tiles import TilePhase, TileTable
from macau_tables.games.tiles.rounds import TileRound
from tests.games.tiletable_helpers import seated

D, ANN = Actor.DEALER, Actor.supervisor("ann")
NAMES = ("ann", "bob", "cy", "dee")
CARDS = [str(c) for c in full_set(1)]
#: a step of a run: which operation, and the numbers its arguments are drawn from
STEPS = st.lists(st.tuples(*[st.integers(0, 10_000)] * 6), min_size=10, max_size=60)
RUNS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def attempt(t: Any, actor: Actor, op: str, rng: Rng | None = None, **args: Any) -> bool:
    """Run the command; a refusal by the rules (any of them, at random) changes nothing."""
    try:
        t.execute(Command(actor, op, args), rng)
    except MacauTablesError:
        return False
    return True


def restored(t: Any) -> Any:
    """The table checkpointed, then restored from that snapshot and the journal's rest, as
    a server starts it (``from_snapshot`` then ``replay_from``); the table itself if it
    takes no snapshot now (a physical shoe's cards are not all known)."""
    if not attempt(t, Actor.SYSTEM, "checkpoint"):
        return t
    seq, encoded = t.latest_snapshot()
    full = t.journal
    rest = Journal.of_entries(full.game, full.header, full.entries[seq - full.first :])
    empty = Journal.resume(full.game, full.header, seq, full.entry(seq).prev_hash)
    table = type(t).from_snapshot(encoded, empty, dict(t.seed_vault()), window=rest)
    return contract.replay_from(table, rest)


def supervised(op: str, **args: Any) -> tuple[Actor, str, dict[str, Any]]:
    return ANN, op, {"reason": "video", "request": 1, "requested_by": "sam", **args}


# --- craps: BetIndex --------------------------------------------------------------------------

CRAPS_BETS = ("pass", "dont_pass", "come", "dont_come", "field", "hard6", "big8", "any_craps")
#: craps' steps, by weight: mostly bets and throws, then what supervisors do to them
CRAPS_STEPS = (
    ("join",) + ("bet",) * 6 + ("odds",) * 2 + ("increase", "take_down", "leave", "buy")
    + ("throw",) * 4 + ("void", "correct", "correct", "restore", "restore")
)  # fmt: skip


def craps() -> CrapsTable:
    """A table whose dealer keys in the dice: a correction can re-key them."""
    t = CrapsTable((), CrapsRules(), table_id="t")
    for name in NAMES[:2]:
        attempt(t, Actor.player(name), "join", amount=1_000_000)
    return t


def check_layout(t: CrapsTable) -> None:
    players: dict[str, list[int]] = {}
    odds: dict[int, list[int]] = {}
    working: dict[str, int] = {}
    for b in t.bets:
        players.setdefault(b.player, []).append(b.id)
        if b.parent is not None:
            odds.setdefault(b.parent, []).append(b.id)
        if b.point is not None and BET_KINDS[b.kind].contract:  # CR-R6
            working[b.player] = working.get(b.player, 0) + 1
    ix = t._bet_index
    if ix is not None and ix.of(t._bets):
        assert {k: list(v) for k, v in ix.players.items()} == players
        assert {k: list(v) for k, v in ix.odds.items()} == odds
        assert {k: n for k, n in ix.working.items() if n} == working
    for name in NAMES:
        assert [b.id for b in t.bets_of(name)] == players.get(name, [])
    for b in t.bets:
        on = t.odds_on(b.id)
        assert (None if on is None else on.id) == (odds[b.id][0] if b.id in odds else None)


def craps_step(t: CrapsTable, step: tuple[int, ...], keyed: list[int]) -> CrapsTable:
    op, a, b, c, d, e = step
    players = list(t.seats) or ["ann"]
    who = Actor.player(players[a % len(players)])
    dice = [c % 6 + 1, d % 6 + 1]
    bets = t.bets
    target = bets[e % len(bets)] if bets else None
    owner = Actor.player(target.player) if target else who
    amount = (500, 1_000, 2_000)[c % 3]
    action = CRAPS_STEPS[op % len(CRAPS_STEPS)]
    if action in ("bet", "odds", "increase", "take_down", "leave"):
        ix = t._bets_ix
        if action == "bet":
            kind = CRAPS_BETS[b % len(CRAPS_BETS)]
            done = attempt(t, who, "place_bet", bet=kind, amount=amount)
        elif action == "odds" and target:  # CR-2.2 / CR-3.2: odds laid on a flat bet
            done = attempt(
                t, owner, "place_bet", bet=f"{target.kind}_odds", amount=500, on=target.id
            )
        elif action == "increase" and target:
            done = attempt(t, owner, "increase_bet", bet_id=target.id, amount=amount)
        elif action == "take_down" and target:
            done = attempt(t, owner, "take_down", bet_id=target.id)
        else:
            done = attempt(t, who, "leave")
        if done:  # a bet updates the index it found
            assert t._bet_index is ix
    elif action == "join":
        attempt(t, Actor.player(NAMES[a % len(NAMES)]), "join", amount=1_000_000)
    elif action == "buy":
        attempt(t, who, "buy_in", amount=100_000)
    elif action == "throw":
        seq = len(t.events)
        if attempt(t, D, "throw_dice", dice=dice):
            keyed.append(seq)
    elif action == "void":
        actor, name, args = supervised("void_round")
        attempt(t, actor, name, **args)
    elif action == "correct" and keyed:
        actor, name, args = supervised("correct_round", of_seq=keyed[-1], args={"dice": dice})
        attempt(t, actor, name, **args)
    elif action == "restore":
        t = restored(t)
    return t


@RUNS
@given(STEPS)
def test_craps_layout_index_is_the_count_from_scratch(steps: list[tuple[int, ...]]) -> None:
    """CR-2.2 / CR-3.2 the odds on a flat bet, CR-R6 the contract bets working, each
    player's bets: through bets, odds, increases, take-downs, leaving, rolls settled
    (points set), a supervisor's void and correction of the keyed dice, and a snapshot
    restored."""
    t, keyed = craps(), []
    for step in steps:
        t = craps_step(t, step, keyed)
        check_layout(t)


# --- tile tables: BetTally --------------------------------------------------------------------


def check_tally(rnd: TileRound | None) -> None:
    if rnd is None:
        return
    staked: dict[str, int] = {}
    seats_of: dict[str, list[int]] = {}
    on_seat: dict[int, dict[str, int]] = {}
    for b in rnd.bets:
        staked[b.person] = staked.get(b.person, 0) + b.amount
        if b.seat not in seats_of.setdefault(b.person, []):
            seats_of[b.person].append(b.seat)
        seat = on_seat.setdefault(b.seat, {})
        seat[b.person] = seat.get(b.person, 0) + b.amount
    kept = rnd.tally_  # (the one the round carries, if it still fits its bets)
    for tally in ([kept.read(rnd.bets)] if kept is not None and kept.of(rnd.bets) else []) + [
        rnd.tally
    ]:
        assert tally.staked == staked
        assert {k: list(v) for k, v in tally.seats_of.items()} == seats_of
        assert tally.on_seat == on_seat
        assert [list(v) for v in tally.on_seat.values()] == [list(v) for v in on_seat.values()]
    if rnd.dice is not None:  # the seats in play: those bet on, in settlement order
        assert set(rnd.active_seats()) == set(on_seat) - rnd.seats_out


#: a tile table's steps, by weight: mostly bets, the round moved on by the rules' defaults
TILE_STEPS = ("advance",) * 3 + ("bet",) * 5 + ("co-bank", "rearrange", "void", "restore")


def tiles_step(t: TileTable, step: tuple[int, ...], rng: Rng) -> TileTable:
    op, a, b, c, d, _ = step
    who = Actor.player(NAMES[a % len(NAMES)])
    rnd = t.round
    action = TILE_STEPS[op % len(TILE_STEPS)]
    if t.phase is not TilePhase.BETTING and action in ("bet", "co-bank", "rearrange"):
        action = "advance"  # to the next betting, where the bets are
    if action == "advance" and (t.phase is not TilePhase.BETTING or b % 3 == 0):
        seat = t.bank_candidate() if t.phase is TilePhase.BANK else None
        if seat is not None and b % 4:  # PG-4.4: the candidate banks (or declines)
            banker = Actor.player(t.seats()[seat])
            attempt(t, banker, "open_bank", capital=(50_000, 200_000)[c % 2])
        else:
            pending = [p for p in t.pending() if p.default is not None]
            if pending:
                p = pending[b % len(pending)]
                with contextlib.suppress(MacauTablesError):  # a default refused: no change
                    t.execute(time_out(p), rng)
    elif action == "bet":
        before = None if rnd is None else rnd.tally
        if attempt(t, who, "place_bet", seat=b % 8 + 1, amount=(1_000, 5_000)[c % 2]):
            # the round after the bet carries the tally on (it reads the one bet added)
            assert rnd is not None and t.round is not None and t.round.tally_ is before
    elif action == "co-bank":
        attempt(t, who, "join_bank", capital=(1_000, 10_000)[c % 2])
    elif action == "rearrange" and rnd is not None:
        order = list(rnd.stack_order)
        attempt(t, who, "rearrange", order=order[d % 8 :] + order[: d % 8])
    elif action == "void":
        actor, name, args = supervised("void_round")
        attempt(t, actor, name, **args)
    elif action == "restore":
        t = restored(t)
    return t


@pytest.mark.parametrize("game", ["paigow", "taiwan"])
@RUNS
@given(steps=STEPS)
def test_tile_round_tally_is_the_count_from_scratch(
    game: str, steps: list[tuple[int, ...]]
) -> None:
    """PG-4.6 what each person has bet, PG-2.1 the seats he bet on, PG-7.1 each
    seat's bettors and their totals: through bets, co-banking, rearranging, rounds dealt,
    set and settled by the rules' defaults, a supervisor's void, and a snapshot restored."""
    t: TileTable = seated(game, NAMES, buy_in=1_000_000, house_bank_capital=500_000)
    rng = Rng.seeded("tally", game)
    step: Callable[[TileTable, tuple[int, ...], Rng], TileTable] = tiles_step
    for s in steps:
        t = step(t, s, rng)
        check_tally(t.round)
        check_tally(t.last_round)


# --- baccarat: HoldIndex ----------------------------------------------------------------------

#: baccarat's steps, by weight: mostly bets and changes, then hands dealt and what ends them
BACCARAT_STEPS = (
    ("bet",) * 6 + ("change",) * 2 + ("withdraw", "leave", "sit")
    + ("deal",) * 2 + ("advance",) * 3 + ("void", "restore")
)  # fmt: skip
#: stakes in minor units: table minimum up to near the BA-14 differential's 20,000
STAKES = (10_000, 100_000, 1_000_000, 1_500_000)


def baccarat(names: tuple[str, ...], rng: Rng) -> BaccaratTable:
    """A table of six decks shuffled and cut (BA-2.1), ``names`` seated, taking bets."""
    t = BaccaratTable(BaccaratRules(decks=6), table_id="t")
    for i, name in enumerate(names):
        attempt(t, Actor.player(name), "sit", amount=50_000_000, seat=i + 1)
    attempt(t, D, "shuffle", rng)
    t.execute(time_out(t.pending()[0]), rng)  # the dealer's cut
    return t


def check_holds(t: BaccaratTable) -> None:
    spots: dict[tuple[str, BaccaratBetKind, int], list[str]] = {}
    net = 0
    for b in t.holds:
        spots.setdefault((b.player, b.kind, b.spot), []).append(b.id)
        net += {BaccaratBetKind.BANKER: 1, BaccaratBetKind.PLAYER: -1}.get(b.kind, 0) * (
            b.amount.minor
        )
    ix = t._hold_index
    if ix is not None and ix.of(t.holds):
        assert {k: [b.id for b in v] for k, v in ix.spots.items()} == spots
        assert ix.net == net
        for key, bets in ix.spots.items():  # each bet's stake and whether it is all carried
            assert ix.stake(*key) == sum(b.amount.minor for b in bets)
            assert ix.carried(*key) == all(b.carried for b in bets)
    assert t.differential().minor == abs(net)  # BA-14, read from the index
    for (player, kind, spot), ids in spots.items():
        assert [b.id for b in t._spot_holds(player, kind, spot)] == ids


def baccarat_step(t: BaccaratTable, step: tuple[int, ...], rng: Rng) -> BaccaratTable:
    op, a, b, c, d, e = step
    who = Actor.player(NAMES[a % len(NAMES)])
    kinds = list(BaccaratBetKind)
    kind = kinds[b % len(kinds)]
    spot = c % 3 + 1
    amount = STAKES[d % len(STAKES)]
    action = BACCARAT_STEPS[op % len(BACCARAT_STEPS)]
    if action in ("bet", "change", "withdraw"):
        ix = t._holds_ix
        if action == "bet":
            done = attempt(t, who, "place_bet", bet=kind, amount=amount, spot=spot)
        else:
            holds = t.holds
            target = holds[e % len(holds)] if holds else None
            owner = Actor.player(target.player) if target else who
            tk, ts = (target.kind, target.spot) if target else (kind, spot)
            if action == "change":
                to = kinds[e % 2]  # Player or Banker (BA-12 moves only between them)
                done = attempt(
                    t, owner, "change_bet", bet=tk, amount=amount // 2, to_bet=to, spot=ts
                )
            else:
                done = attempt(t, owner, "withdraw_bet", bet=tk, spot=ts)
        if done:  # a bet updates the index it found
            assert t._hold_index is ix
    elif action == "leave":
        attempt(t, who, "leave")
    elif action == "sit":
        attempt(t, who, "sit", amount=50_000_000, seat=a % 7 + 1)
    elif action == "deal":
        attempt(t, D, "deal", rng)
    elif action == "advance":  # the hand moved on by the rules' defaults, a shoe shuffled
        pending = [p for p in t.pending() if p.default is not None]
        if pending:
            with contextlib.suppress(MacauTablesError):
                t.execute(time_out(pending[b % len(pending)]), rng)
        elif any("shuffle" in p.operations for p in t.pending()):
            attempt(t, D, "shuffle", rng)
    elif action == "void":
        actor, name, args = supervised("void_round")
        attempt(t, actor, name, **args)
    elif action == "restore":
        t = restored(t)
    return t


@RUNS
@given(STEPS)
def test_baccarat_hold_index_is_the_count_from_scratch(steps: list[tuple[int, ...]]) -> None:
    """BA-12 a bet changed, withdrawn or moved between Player and Banker, BA-13 a player's
    stakes at a spot, BA-14 the Banker/Player differential: through bets, changes,
    withdrawals, leaving, hands dealt and settled, a supervisor's void, and a snapshot
    restored."""
    rng = Rng.seeded("holds")
    t = baccarat(NAMES[:3], rng)
    for s in steps:
        t = baccarat_step(t, s, rng)
        check_holds(t)


def test_ba_14_the_differential_refuses_from_the_running_total() -> None:
    """BA-14: with Banker 15,000 on the layout, a second Banker 10,000 would make the
    difference 25,000, over the table's 20,000; after Player 10,000 the
    Banker side can grow again."""
    t = baccarat(("ann", "bob"), Rng.seeded("holds"))
    assert attempt(t, Actor.player("ann"), "place_bet", bet="banker", amount=1_500_000, spot=1)
    with pytest.raises(MacauTablesError, match="difference") as refused:
        t.execute(
            Command(
                Actor.player("bob"), "place_bet", {"bet": "banker", "amount": 1_000_000, "spot": 2}
            )
        )
    assert getattr(refused.value, "rule", None) == "BA-14"
    assert attempt(t, Actor.player("bob"), "place_bet", bet="player", amount=1_000_000, spot=2)
    assert attempt(t, Actor.player("ann"), "place_bet", bet="banker", amount=500_000, spot=1)
    assert t.differential().minor == layout.differential(t.holds, t.rules.currency).minor
    assert t.differential().minor == 1_000_000  # Banker 20,000 against Player 10,000


@given(
    st.lists(
        st.tuples(st.integers(0, 1), st.integers(0, 2), st.integers(1, 9), st.booleans()),
        min_size=1,
        max_size=12,
    ),
    st.data(),
)
def test_a_hold_index_kept_in_step_is_the_index_built_from_scratch(
    stakes: list[tuple[int, int, int, bool]], data: st.DataObject
) -> None:
    """BA-12 … BA-14: stakes added and some of them taken away again (one stake of a bet or
    all of them), the running index equals the one built from the holds left."""
    kinds = (BaccaratBetKind.BANKER, BaccaratBetKind.PLAYER, BaccaratBetKind.PLAYER_PAIR)
    holds = [
        layout.Bet("ab"[p], kinds[k], Money.of(units), 1, carried, f"h{i}")
        for i, (p, k, units, carried) in enumerate(stakes)
    ]
    ix = layout.HoldIndex([])
    for b in holds:
        ix.add(b)
    gone = data.draw(st.sets(st.sampled_from(holds)))
    for b in gone:
        ix.remove(b)
    left = [b for b in holds if b not in gone]
    fresh = layout.HoldIndex(left)
    assert (ix.net, ix.size) == (fresh.net, fresh.size)
    assert ix.spots == fresh.spots
    for key in fresh.spots:
        assert ix.stake(*key) == fresh.stake(*key) == sum(b.amount.minor for b in fresh.spots[key])
        assert ix.carried(*key) == fresh.carried(*key) == all(b.carried for b in fresh.spots[key])
