"""Tables of the four games driven in memory through many rounds, as the server's clock runs
them (two players betting the minimum, the dealer's steps and the rules' defaults): long
journals for the recall tests and ``benchmarks/bench_recall.py``."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from macau_tables.core.errors import MacauTablesError
from macau_tables.core.rng import Rng, commitment
from macau_tables.core.visibility import Viewer
from macau_tables.games.contract import (
    _ROUND_MARKS,
    Command,
    Role,
    RoundMark,
    TableEngine,
    time_out,
)
from macau_tables.server.games import binding
from macau_tables.server.recall import TableRecord

PLAYERS = ("alice", "bob")
SEEDS: dict[str, bytes] = {}
JOIN = {
    "baccarat": [("sit", {"amount": 10_000_000})],
    "craps": [("sit", {"amount": 10_000_000})],
    "paigow": [("sit", {"seat": 0}), ("buy_in", {"amount": 10_000_000})],
    "taiwan": [("sit", {"seat": 0}), ("buy_in", {"amount": 10_000_000})],
}


def bet(game: str, engine: TableEngine, player: str) -> Command:
    from macau_tables.games.contract import Actor

    who = Actor.player(player)
    if game == "baccarat":
        return Command(who, "place_bet", {"bet": "banker", "amount": 10_000})
    if game == "craps":
        return Command(who, "place_bet", {"bet": "field", "amount": 1_000})
    seats = engine.view(Viewer.PUBLIC).get("seats")
    assert isinstance(seats, dict)
    seat = next(int(s) for s, p in seats.items() if p == player)
    return Command(who, "place_bet", {"seat": seat, "amount": 1_000})


def drive(
    game: str, n_rounds: int, each: Callable[[TableEngine], None] | None = None
) -> TableEngine:
    """Play ``n_rounds`` rounds at a new table of ``game``, as the server's clock would
    (``each``: called with the table after every step)."""
    from macau_tables.games.contract import Actor

    g = binding(game)
    engine = g.create(f"{game}-b", {})
    rng = Rng.seeded(b"bench-recall")
    for i, p in enumerate(PLAYERS):
        for op, args in JOIN[game]:
            args = {**args, "seat": i + 2} if op == "sit" else args
            engine.execute(Command(Actor.player(p), op, args), rng)
    betted: set[tuple[str, int]] = set()
    ended, seen = 0, 0
    while ended < n_rounds:
        for ev in engine.journal.events[max(seen - engine.journal.first, 0) :]:
            ended += _ROUND_MARKS.get(ev.kind) in (RoundMark.SETTLE, RoundMark.VOID)
        seen = len(engine.journal)
        if each is not None:
            each(engine)
        pend = engine.pending()
        n = len(engine.journal)
        for p in pend:
            if p.actor.role is Role.PLAYER and "throw" in p.operations:
                engine.execute(Command(p.actor, "throw", {}), rng)
                break
            if p.actor.role is Role.PLAYER and "place_bet" in p.operations:
                key = (p.actor.name, ended)
                if key not in betted:
                    betted.add(key)
                    with contextlib.suppress(MacauTablesError):  # refused now: go on
                        engine.execute(bet(game, engine, p.actor.name), rng)
        if len(engine.journal) != n:
            continue
        required = [p for p in pend if p.actor.role is Role.PLAYER and p.required and p.default]
        staff = [p for p in pend if p.actor.role in (Role.DEALER, Role.SYSTEM)]
        staff.sort(key=lambda p: not p.required)  # an optional step (report_exposed) last
        if required:
            engine.execute(time_out(required[0]), rng)
        elif staff:
            p = staff[0]
            op = p.default or p.operations[0]
            cmd = time_out(p) if op in g.timeout_ops else Command(p.actor, op, {})
            if op in g.seed_ops:
                seed = rng.source.random_bits(256).to_bytes(32, "big")
                SEEDS[commitment(seed)] = seed
                cmd = Command(p.actor, op, {"seed": seed.hex()})
            engine.execute(cmd, rng)
        elif "decline_bank" in {o for p in pend for o in p.operations}:
            p = next(p for p in pend if "decline_bank" in p.operations)
            engine.execute(Command(p.actor, "decline_bank", {}), rng)
        else:
            raise RuntimeError(f"{game}: stuck at {[x.to_json() for x in pend]}")
    return engine


def record(game: str, n_rounds: int) -> TableRecord:
    """A :class:`TableRecord` of a table of ``game`` played for ``n_rounds`` rounds (no
    database: the journal is the engine's own; entry times 0, no ledger rows)."""
    engine = drive(game, n_rounds)
    journal = engine.journal
    seeds = {**SEEDS, **engine.seed_vault()}
    return TableRecord(
        f"{game}-b", game, dict(journal.header), journal, [0] * len(journal), seeds, []
    )
