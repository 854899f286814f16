"""TW-R3 at a live Taiwan table: the bank's commission on the postings of a settlement.

The table settles a round with the round machine's arithmetic (``Round.settle`` on a trial
copy); this checks that the commission each bank layer pays reaches the table's accounts.
"""

from __future__ import annotations

from collections.abc import Sequence

from macau_tables.core.rng import Rng
from macau_tables.games.contract import Actor, Command, time_out
from macau_tables.games.tiles import (
    RoundSettled,
    TilePhase,
    TileTable,
    TileTableRules,
    open_table,
    woodpile_order,
)
from macau_tables.tiles import FULL_SET

from .tile_helpers import woodpile

SEED = bytes(range(32))
TW_BANKER = ("6-6", "4-5", "4-4", "5-6")  # 人牌九 / 天九王
TW_LOSE = ("1-3", "1-6", "5-5", "4-6")  # 鵝牌四 / 梅牌七: loses to TW_BANKER both ways


def _table(order_of=woodpile_order) -> TileTable:  # type: ignore[no-untyped-def]
    t = open_table(TileTableRules(game="taiwan"), "t1", order_of=order_of)  # type: ignore[arg-type]
    for seat, p in enumerate(("ann", "bob", "cy"), start=1):
        t.execute(Command(Actor.player(p), "sit", {"seat": seat}))
        t.execute(Command(Actor.player(p), "buy_in", {"amount": 100_000}))
    return t


def _to_dice(t: TileTable) -> list[Command]:
    """Ann banks 100, the dealer shuffles, cy co-banks 100, bob bets 150 on seat 2; then
    every step by the rules' defaults up to the deal."""
    cmds = [
        Command(Actor.player("ann"), "open_bank", {"capital": 10_000}),
        Command(Actor.DEALER, "shuffle", {"seed": SEED.hex()}),
        Command(Actor.player("cy"), "join_bank", {"capital": 10_000}),
        Command(Actor.player("bob"), "place_bet", {"seat": 2, "amount": 15_000}),
    ]
    for c in cmds:
        t.execute(c)
    while t.phase is TilePhase.BETTING:
        c = time_out(next(p for p in t.pending() if p.default is not None))
        t.execute(c)
        cmds.append(c)
    return cmds


def _indices(tiles: Sequence[object]) -> list[int]:
    """A tile order as indices into FULL_SET (equal tiles take the next free copy)."""
    free = list(range(len(FULL_SET)))
    out = []
    for tile in tiles:
        i = next(i for i in free if FULL_SET[i] == tile)
        free.remove(i)
        out.append(i)
    return out


def test_tw_r3_a_tables_postings_carry_each_layers_commission() -> None:
    """TW-R3: banker 100, co-banker 100; the bank wins bob's 150. The layers took 100 and
    50 of it (banker first, TW-5e) and pay 5% of that: 5.00 and 2.50. Ann's stack ends
    95.00 up, cy's 47.50 up, bob's 150 down; the commission account gets 7.50."""
    probe = _table()
    cmds = _to_dice(probe)
    rnd = probe.round
    assert rnd is not None and rnd.dice is not None
    order = _indices(woodpile(rnd, {1: TW_BANKER, 2: TW_LOSE}, rnd.dice))
    t = _table(order_of=lambda seed, table, label: order)
    for c in cmds:
        t.execute(c, Rng.seeded("unused"))
    t.execute(Command(Actor.player("bob"), "set_tiles", {"seat": 2, "front": ["1-3", "4-6"]}))
    t.execute(Command(Actor.player("ann"), "set_tiles", {"seat": 1, "front": ["4-4", "5-6"]}))
    (settled,) = [
        e for e in t.execute(Command(Actor.DEALER, "settle", {})) if isinstance(e, RoundSettled)
    ]
    assert [(r["player"], r["outcome"], r["action"]) for r in settled.results] == [
        ("bob", "lose", 15_000)
    ]
    assert dict(settled.commissions) == {"ann": 500, "cy": 250}
    posted = dict(settled.postings)
    assert sum(posted.values()) == 0
    assert posted["commission:t1"] == 750
    assert posted["stack:t1:ann"] == 10_000 + 9_500  # the capital back and the net win
    assert posted["stack:t1:cy"] == 10_000 + 4_750
    assert posted.get("stack:t1:bob", 0) == 15_000 - 15_000  # his hold back, his bet lost
