"""Properties of the tile table: what a seat may see (the information model) and money.

* Two tables behind **one commitment** whose woodpiles differ only in the stacks a viewer
  does not hold give that viewer the identical view at every step until the settlement
  turns the hands up (PG-8.3 / TW-6b); a player's view never holds another seat's
  face-down tiles or setting.
* Random command sequences, refused ones included, keep the projected ledger at zero,
  close every hold at most once, never take a stack below zero, and replay identically.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from macau_tables.core.errors import MacauTablesError
from macau_tables.core.journal import Journal
from macau_tables.core.ledger import Ledger
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.core.visibility import Viewer
from macau_tables.games.contract import Actor, Command, time_out
from macau_tables.games.tiles import (
    TilePhase,
    TilesDealt,
    TileTable,
    TileTableRules,
    open_table,
    replay,
    woodpile_order,
)

from .tiletable_helpers import funded_ledger

PLAYERS = ("ann", "bob", "cy", "dee")
SEED = bytes(range(32))


def _table(game: str, order_of=woodpile_order) -> TileTable:  # type: ignore[no-untyped-def]
    t = open_table(TileTableRules(game=game), "t1", order_of=order_of)  # type: ignore[arg-type]
    for seat, p in enumerate(PLAYERS, start=1):
        t.execute(Command(Actor.player(p), "sit", {"seat": seat}))
        t.execute(Command(Actor.player(p), "buy_in", {"amount": 100_000}))
    return t


def _script(
    t: TileTable, banker_opens: bool, bets: Sequence[tuple[int, int, int]]
) -> list[Command]:
    """The commands of one round up to the settlement, none depending on hidden tiles:
    the bank, a shuffle with a fixed seed, ``bets`` (player index, seat, amount) where the
    rules allow them, then every other step by the rules' defaults (time-outs)."""
    cmds: list[Command] = []

    def run(c: Command) -> None:
        t.execute(c)
        cmds.append(c)

    if banker_opens:
        run(Command(Actor.player("ann"), "open_bank", {"capital": 30_000}))
    else:
        run(Command(Actor.player("ann"), "decline_bank", {}))
        run(time_out(t.pending()[0]))  # the house banks (PG-R6)
    run(Command(Actor.DEALER, "shuffle", {"seed": SEED.hex()}))
    for who, seat, amount in bets:
        actor = Actor.player(PLAYERS[who])
        if t.can_place_bet(actor, seat, Money(amount)):
            run(Command(actor, "place_bet", {"seat": seat, "amount": amount}))
    while t.phase is not TilePhase.SETTLE:
        required = [p for p in t.pending() if p.default is not None]
        run(time_out(required[0]))
    return cmds


def _other_order(a: TileTable, viewer: str, shift: int) -> list[int]:
    """A's woodpile with every tile not dealt to ``viewer`` moved among the other stacks."""
    rnd = a.round
    assert rnd is not None
    order = list(woodpile_order(SEED, "t1", "woodpile:1"))
    mine = {
        ev.seat for ev in a.journal.events if isinstance(ev, TilesDealt) and ev.holder == viewer
    }
    stacks = rnd.used_stacks()
    keep = {stacks[k] for k, seat in enumerate(rnd.dealing_order()) if seat in mine}
    free = [i for i in range(32) if i // 4 not in keep]
    moved = [order[i] for i in free]
    moved = moved[shift % len(moved) :] + moved[: shift % len(moved)]
    for i, v in zip(free, moved, strict=True):
        order[i] = v
    return order


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["paigow", "taiwan"]),
    banker_opens=st.booleans(),
    viewer=st.sampled_from(PLAYERS),
    bets=st.lists(
        st.tuples(st.integers(0, 3), st.integers(1, 8), st.integers(1, 5_000)), max_size=8
    ),
    shift=st.integers(1, 27),
)
@example(game="paigow", banker_opens=True, viewer="bob", bets=[(1, 2, 100)], shift=5)
def test_a_seat_sees_the_same_under_two_hidden_orders(
    game: str, banker_opens: bool, viewer: str, bets: list[tuple[int, int, int]], shift: int
) -> None:
    probe = _table(game)
    cmds = _script(probe, banker_opens, bets)
    other = _other_order(probe, viewer, shift)
    a = _table(game)
    b = _table(game, order_of=lambda seed, table, label: other)
    me = Viewer.player(viewer)
    assert a.view(me) == b.view(me)
    for c in cmds:
        a.execute(c)
        b.execute(c)
        va, vb = a.view(me), b.view(me)
        assert va == vb, c
        # never another seat's face-down tiles or setting
        dealt = {ev.seat: ev.holder for ev in a.journal.events if isinstance(ev, TilesDealt)}
        hands, mine = va.get("hands", {}), va.get("settings", {})
        assert isinstance(hands, dict)
        assert isinstance(mine, dict)
        assert all(dealt[int(s)] == viewer for s in hands)
        assert all(dealt[int(s)] == viewer for s in mine)
        assert not _has_woodpile(va)
    # and the events this viewer may see are the same
    seen_a = [e.to_json() for e in a.journal.events if e.audience().admits(me)]
    seen_b = [e.to_json() for e in b.journal.events if e.audience().admits(me)]
    assert seen_a == seen_b
    # the public never sees a face-down tile
    assert all(
        not e.audience().admits(Viewer.PUBLIC)
        for e in a.journal.events
        if isinstance(e, TilesDealt)
    )


def _has_woodpile(value: object) -> bool:
    """Whether a view holds a sequence of more tiles than four seats' worth (a woodpile)."""
    if isinstance(value, dict):
        return any(_has_woodpile(v) for v in value.values())
    if isinstance(value, list):
        strings = [v for v in value if isinstance(v, str) and "-" in v]
        return len(strings) > 16 or any(_has_woodpile(v) for v in value)
    return False


OPS = st.one_of(
    st.tuples(
        st.just("place_bet"), st.integers(0, 3), st.integers(0, 9), st.integers(-50, 200_000)
    ),
    st.tuples(st.just("join_bank"), st.integers(0, 3), st.just(0), st.integers(-5, 60_000)),
    st.tuples(st.just("open_bank"), st.integers(0, 3), st.just(0), st.integers(-5, 150_000)),
    st.tuples(st.just("decline_bank"), st.integers(0, 3), st.just(0), st.just(0)),
    st.tuples(st.just("cash_out"), st.integers(0, 3), st.just(0), st.integers(-5, 150_000)),
    st.tuples(st.just("buy_in"), st.integers(0, 3), st.just(0), st.integers(-5, 50_000)),
    st.tuples(st.just("leave"), st.integers(0, 3), st.just(0), st.just(0)),
    st.tuples(st.just("sit"), st.integers(0, 3), st.integers(0, 9), st.just(0)),
    st.tuples(st.just("step"), st.just(0), st.just(0), st.just(0)),
)


def _command(op: tuple[str, int, int, int]) -> Command:
    name, who, seat, amount = op
    actor = Actor.player(PLAYERS[who])
    args: dict[str, object] = {
        "place_bet": {"seat": seat, "amount": amount},
        "join_bank": {"capital": amount},
        "open_bank": {"capital": amount},
        "cash_out": {"amount": amount},
        "buy_in": {"amount": amount},
        "sit": {"seat": seat},
    }.get(name, {})
    return Command(actor, name, args)  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["paigow", "taiwan"]),
    ops=st.lists(OPS, max_size=60),
    seed=st.integers(0, 10_000),
)
def test_random_commands_keep_the_money_whole(
    game: str, ops: list[tuple[str, int, int, int]], seed: int
) -> None:
    """Ledger.project of the journal: zero-sum, every hold opened once and closed at most
    once, no stack below zero, and each stack as the engine counts it."""
    t = _table(game)
    rng = Rng.seeded("money", str(seed))
    for op in ops:
        before = len(t.journal)
        try:
            if op[0] == "step":
                required = [p for p in t.pending() if p.default is not None]
                if required:
                    t.execute(time_out(required[0]), rng)
            else:
                t.execute(_command(op), rng)
        except MacauTablesError:
            assert len(t.journal) == before  # a refused command changes nothing
    led = Ledger.project(t.journal.events, funded_ledger(PLAYERS, 10**9))
    assert led.total().is_zero()
    for p in PLAYERS:
        assert led.balance(f"stack:t1:{p}") == t.stack(p)
        assert not t.stack(p).is_negative()
    if t.phase is TilePhase.BANK:
        assert not led.open_holds
        assert led.balance("wagers:t1").is_zero()
        assert led.balance("bank:t1").is_zero()
    seeds = t.seed_vault()  # the server's seeds: an unfinished woodpile replays with them
    assert (
        replay(Journal.from_json(t.journal.to_json()), seeds=seeds).journal.head == t.journal.head
    )
