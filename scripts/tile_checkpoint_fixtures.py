#!/usr/bin/env python3
"""Write tests/games/data/tile_checkpointed/*.json: tile tables checkpointed after every
step, through what a table's state can hold — the bank kept and passed, a co-banker,
several bettors on a seat, a rearrangement, a 4-place woodpile's two rounds (TW-2d), a
physical woodpile keyed in and a keyed deal corrected, a void deal (PG-R3), a supervisor's
void of the round, new limits waiting for the round's end — each with its whole journal and
the seeds that replay it. Kept as written (tests/games/test_tile_journal_fixtures.py: the
checkpoints of a journal an earlier release wrote are the digests of its state as that
release laid it out). Run from the project root:
``PYTHONPATH=src:. python scripts/tile_checkpoint_fixtures.py``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from macau_tables.core.journal import JsonValue
from macau_tables.core.rng import Rng, commitment
from macau_tables.games.contract import Actor, Command
from macau_tables.games.tiles import TilePhase, TileTable, TileTableRules, open_table
from macau_tables.tiles import FULL_SET

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "games" / "data" / "tile_checkpointed"
D = Actor.DEALER
SYSTEM = Actor.SYSTEM
SUP, SUP2 = Actor.supervisor("sam"), "ann"


class Session:
    """A table whose every step is followed by a checkpoint; the seeds it shuffled with."""

    def __init__(self, rules: TileTableRules, players: tuple[str, ...], label: str) -> None:
        self.t: TileTable = open_table(rules, "t1")
        self.rng = Rng.seeded("tile-checkpoints", label)
        self.seeds: dict[str, bytes] = {}
        for seat, p in enumerate(players, start=1):
            self.run(Actor.player(p), "sit", {"seat": seat})
            self.run(Actor.player(p), "buy_in", {"amount": 1_000_000})

    def run(self, actor: Actor, op: str, args: dict[str, JsonValue] | None = None) -> None:
        self.t.execute(Command(actor, op, args or {}), self.rng)
        self.t.execute(Command(SYSTEM, "checkpoint"))

    def shuffle(self) -> None:
        seed = self.rng.source.random_bits(256).to_bytes(32, "big")
        self.seeds[commitment(seed)] = seed
        self.run(D, "shuffle", {"seed": seed.hex()})

    def open_bank(self, capital: int) -> None:
        seat, keep, least = self.t.bank_offer()
        assert seat is not None
        who = Actor.player(self.t.seats()[seat])
        self.run(who, "open_bank", {"capital": max(capital, least) if keep else capital})

    def defaults(self, until: Callable[[TileTable], bool]) -> None:
        """Time out whoever must act (the rules' defaults) until ``until``."""
        while not until(self.t):
            required = [p for p in self.t.pending() if p.default is not None]
            p = required[0]
            if p.default == "shuffle":
                self.shuffle()
                continue
            self.run(SYSTEM, "time_out", {"actor": str(p.actor), "op": p.default})

    def bet(self, player: str, seat: int, amount: int) -> None:
        self.run(Actor.player(player), "place_bet", {"seat": seat, "amount": amount})

    def to_bank(self) -> None:
        self.defaults(lambda t: t.phase is TilePhase.BANK)

    def write(self, name: str, out: Path) -> None:
        seeds = {**self.seeds, **self.t.seed_vault()}
        data = {
            "game": self.t.rules.game,
            "journal": self.t.journal.to_json(),
            "seeds": {label: bytes(v).hex() for label, v in sorted(seeds.items())},
        }
        path = out / f"{name}.json"
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{path}: {len(self.t.journal)} entries", file=sys.stderr)


def paigow(out: Path) -> None:
    """Pai Gow: ann banks with the house's co-bank and keeps the bank; a co-banker, two
    bettors on a seat, a rearrangement, a seat the dealer holds (PG-7.5); bob's bank with a
    void deal (two of the banker's tiles exposed, PG-R3); new limits waiting for the round's
    end; a supervisor's void of the last round."""
    rules = TileTableRules(game="paigow", house_capital=20_000)
    s = Session(rules, ("ann", "bob", "cy", "dee"), "paigow")
    s.open_bank(30_000)
    s.shuffle()
    s.run(Actor.player("dee"), "join_bank", {"capital": 5_000})
    s.bet("bob", 2, 2_000)
    s.bet("cy", 2, 1_000)
    s.bet("bob", 3, 1_500)
    s.run(Actor.player("cy"), "rearrange", {"order": [7, 6, 5, 4, 3, 2, 1, 0]})
    s.to_bank()
    s.open_bank(30_000)  # ann keeps the bank (PG-4.9)
    s.shuffle()
    s.bet("cy", 3, 2_500)
    s.run(SUP, "change_limits", {"min_bet": 500, "max_bet": 50_000, "reason": "floor"})
    s.to_bank()
    s.run(Actor.player("bob"), "open_bank", {"capital": 20_000})
    s.shuffle()
    s.bet("cy", 3, 1_000)
    s.bet("dee", 4, 3_000)
    s.run(Actor.player("bob"), "shake")
    rnd = s.t.round
    assert rnd is not None
    two = [str(x) for x in rnd.hands[2][:2]]
    s.run(D, "report_exposed", {"seat": 2, "tiles": two})  # the banker's stack: void deal
    s.to_bank()
    s.open_bank(20_000)
    s.shuffle()
    s.bet("ann", 1, 1_000)
    s.to_bank()
    s.run(SUP, "void_round", {"reason": "test", "request": 1, "requested_by": SUP2})
    s.open_bank(20_000)
    s.shuffle()
    s.bet("dee", 4, 800)
    s.to_bank()
    s.write("paigow", out)


def taiwan_four(out: Path) -> None:
    """Taiwan Pai Kao at 4 places: woodpiles serving two rounds each (TW-2d / TW-R2), the
    first round's tiles face up; a co-banker; the dealer's re-sets (TW-6b)."""
    rules = TileTableRules(game="taiwan", places=4)
    s = Session(rules, ("ann", "bob", "cy", "dee"), "taiwan-four")
    for capital, bets in (
        (30_000, [("bob", 2, 2_000), ("cy", 3, 1_000)]),
        (40_000, [("cy", 3, 1_500), ("dee", 4, 700)]),
        (25_000, [("ann", 1, 900), ("dee", 4, 1_200)]),
        (25_000, [("ann", 1, 600), ("bob", 2, 600)]),
        (10_000, [("cy", 3, 400)]),
    ):
        s.open_bank(capital)
        if s.t.phase is TilePhase.SHUFFLE:
            s.shuffle()
        for p, seat, amount in bets:
            if s.t.can_place_bet(Actor.player(p), seat, amount):
                s.bet(p, seat, amount)
        if s.t.banker != "dee" and s.t.can_join_bank(Actor.player("dee"), 2_000):
            s.run(Actor.player("dee"), "join_bank", {"capital": 2_000})
        s.to_bank()
    s.write("taiwan-four", out)


def taiwan_keyed(out: Path) -> None:
    """Taiwan Pai Kao at a live table: physical woodpiles keyed in as dealt, a keyed deal
    corrected by two supervisors (the round re-dealt and re-settled), a cocked throw."""
    rules = TileTableRules(game="taiwan")
    s = Session(rules, ("ann", "bob", "cy"), "taiwan-keyed")
    order = [str(x) for x in FULL_SET]

    def hands(tiles: list[str]) -> dict[str, JsonValue]:
        return {str(seat): tiles[4 * (seat - 1) : 4 * seat] for seat in range(1, 9)}

    s.open_bank(30_000)
    s.run(D, "build_woodpile")
    s.bet("bob", 2, 2_000)
    s.bet("cy", 3, 1_000)
    s.run(D, "shake", {"dice": [6, 6, 1, 2], "cocked": True})
    keyed = len(s.t.journal)
    s.run(D, "shake", {"dice": [1, 2, 3, 4], "hands": hands(order)})
    s.defaults(lambda t: t.phase is TilePhase.SETTLE)
    s.run(D, "settle")
    right = order[4:8] + order[:4] + order[8:]
    args: dict[str, JsonValue] = {"dice": [2, 2, 3, 4], "hands": hands(right)}
    s.run(SUP, "correct_round", {"of_seq": keyed, "args": args, "reason": "video",
                                 "request": 2, "requested_by": SUP2})  # fmt: skip
    s.to_bank()
    s.open_bank(30_000)
    s.run(D, "build_woodpile")
    s.bet("bob", 2, 1_000)
    s.run(D, "shake", {"dice": [3, 3, 3, 3], "hands": hands(list(reversed(order)))})
    s.to_bank()
    s.write("taiwan-keyed", out)


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.mkdir(parents=True, exist_ok=True)
    paigow(out)
    taiwan_four(out)
    taiwan_keyed(out)


if __name__ == "__main__":
    main()
