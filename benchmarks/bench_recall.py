"""Recall cost: a table's last 10 rounds rebuilt from a long journal.

A recall re-runs the table's journal from its opening (``contract.Replay``) and takes the
caller's view after each step of the rounds it returns, so its cost grows with the
journal's length. This drives a table of each game through ROUNDS rounds in memory (two
players betting the minimum, the dealer's steps and the rules' defaults as the server's
clock runs them), then times ``server.recall.recall_rounds`` for the last 10 rounds, as
the auditor and as a player (no database: the journal is the engine's own).

    python benchmarks/bench_recall.py                   # 1,000 rounds of each game
    python benchmarks/bench_recall.py --rounds 200 --games baccarat
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src")]

from macau_tables.core.errors import MacauTablesError  # noqa: E402
from macau_tables.core.rng import Rng, commitment  # noqa: E402
from macau_tables.core.visibility import Viewer  # noqa: E402
from macau_tables.games.contract import (  # noqa: E402
    _ROUND_MARKS,
    Command,
    Role,
    RoundMark,
    TableEngine,
    time_out,
)
from macau_tables.server.games import binding  # noqa: E402
from macau_tables.server.recall import TableRecord, recall_rounds  # noqa: E402

PLAYERS = ("alice", "bob")
SEEDS: dict[str, bytes] = {}
JOIN = {
    "baccarat": [("join", {"buy_in": 10_000_000})],
    "craps": [("join", {"amount": 10_000_000})],
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


def drive(game: str, n_rounds: int) -> TableEngine:
    """Play ``n_rounds`` rounds at a new table of ``game``, as the server's clock would."""
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
        for ev in engine.journal.events[seen:]:
            ended += _ROUND_MARKS.get(ev.kind) in (RoundMark.SETTLE, RoundMark.VOID)
        seen = len(engine.journal)
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--games", nargs="*", default=["baccarat", "craps", "paigow", "taiwan"])
    a = ap.parse_args()
    for game in a.games:
        engine = drive(game, a.rounds)
        journal = engine.journal
        seeds = {**SEEDS, **dict(getattr(engine, "_keyring", {}))}
        rec = TableRecord(
            f"{game}-b", game, dict(journal.header), journal, [0] * len(journal), seeds, []
        )
        last10 = rec.rounds()[-10:]
        for viewer in (Viewer.SUPERVISOR, Viewer.player("alice")):
            t0 = time.perf_counter()
            out = recall_rounds(rec, binding(game), viewer, last10)
            dt = time.perf_counter() - t0
            steps = sum(len(r["steps"]) for r in out)
            print(
                f"{game:9} {len(rec.rounds()):5} rounds, {len(journal):6} events: "
                f"recall of the last 10 as {viewer!s:12} {dt * 1000:7.0f} ms ({steps} steps)"
            )


if __name__ == "__main__":
    main()
