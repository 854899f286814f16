"""The readable-engine workloads the benchmarks time, written once.

``bench_engines.py`` reports them as engine throughput; the kernel benchmarks
(``bench_sim_*.py``) time the same work as the baseline their speed-ups are measured against.
"""

from __future__ import annotations

from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games.baccarat import (
    BaccaratBetKind,
    BaccaratPhase,
    BaccaratRules,
    BaccaratTable,
)
from macau_tables.games.contract import Actor, Command
from macau_tables.games.craps import CrapsPhase, CrapsTable
from macau_tables.games.tiles import TileTableRules, open_table
from macau_tables.games.tiles.paigow import PAIGOW
from macau_tables.tiles.strategies import strategy


def baccarat_shoes(rng: Rng, shoes: int) -> int:
    """Whole 8-deck shoes through a ``BaccaratTable`` with one Banker bettor; hands played."""
    t = BaccaratTable(BaccaratRules(decks=8))
    t.sit("alice", Money.of(10_000_000), seat=1)
    played = 0
    for _ in range(shoes):
        t.start_shoe(rng)  # shuffle (a committed seed), cut, burn
        while t.phase is not BaccaratPhase.SHUFFLE:  # until the hand after the cut card
            if t.phase is BaccaratPhase.BETTING and not t.bets:
                t.place_bet("alice", BaccaratBetKind.BANKER, Money.of(100))
            t.play_hand()  # deal, reveal, third cards, settle
            played += 1
    return played


#: craps: the Pass Line bet, and its odds at the largest stake whose winnings stay within
#: the flat bet (CR-R2)
FLAT = Money.of(12)
ODDS = {4: Money.of(6), 10: Money.of(6), 5: Money.of(8), 9: Money.of(8)}
ODDS |= {6: Money.of(10), 8: Money.of(10)}


def craps_table(rng: Rng, rolls: int) -> CrapsTable:
    """A ``CrapsTable`` after ``rolls`` throws with one Pass Line bettor taking odds (bought
    in again when short)."""
    t = CrapsTable.seated(("p1",), chips=Money.of(1_000_000), rng=rng)
    for _ in range(rolls):
        if t.phase is CrapsPhase.COME_OUT:
            if not t.bets_of("p1"):
                if t.balance("p1") < Money.of(100):
                    t.buy_in("p1", Money.of(1_000_000))
                t.place_bet("p1", "pass", FLAT)
        else:
            line = t.bets_of("p1")
            if len(line) == 1 and line[0].point is not None:
                t.place_bet("p1", "pass_odds", ODDS[line[0].point], on=line[0].id)
        t.throw("p1", rng=rng)
    return t


def paigow_rounds(rng: Rng, rounds: int) -> int:
    """Full 8-seat Pai Gow rounds at a ``TileTable`` (the server's table): the bank taken in
    turn (PG-4.1), 7 bettors, the dealer's shuffle and the banker's dice, every seat and the
    banker set by the house way, the settlement; returns the seats that played (the bettor
    seats plus the banker's)."""
    way = strategy("house-way")
    rules = PAIGOW.tiles
    t = open_table(TileTableRules(game="paigow"), "bench")
    players = {seat: f"p{seat}" for seat in range(1, 9)}
    for seat, person in players.items():
        t.execute(Command(Actor.player(person), "sit", {"seat": seat}))
        t.execute(Command(Actor.player(person), "buy_in", {"amount": 100_000_000}))
    seats_played = 0
    for _ in range(rounds):
        seat, keep, least = t.bank_offer()
        assert seat is not None
        capital = least if keep else 2_000_000
        t.execute(Command(Actor.player(players[seat]), "open_bank", {"capital": capital}))
        t.execute(Command(Actor.DEALER, "shuffle", {}), rng)
        for other, person in players.items():
            if other != seat:
                args = {"seat": other, "amount": 10_000}
                t.execute(Command(Actor.player(person), "place_bet", args))
        t.execute(Command(Actor.player(players[seat]), "shake", {}))
        rnd = t.round
        assert rnd is not None
        holders = rnd.holders()
        for s in rnd.active_seats():
            front = [str(x) for x in way.choose(rnd.hands[s], rules).front.tiles]
            t.execute(Command(Actor.player(holders[s]), "set_tiles", {"seat": s, "front": front}))
            seats_played += 1
        front = [str(x) for x in way.choose(rnd.hands[seat], rules).front.tiles]
        t.execute(Command(Actor.player(players[seat]), "set_tiles", {"seat": seat, "front": front}))
        seats_played += 1
        t.execute(Command(Actor.DEALER, "settle", {}))
    return seats_played
