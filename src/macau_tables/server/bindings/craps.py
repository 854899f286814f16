"""Craps at the server: ``games.craps.CrapsTable`` under the contract.

A shooter's server seed is drawn by the engine from the ``Rng`` the server passes (the OS
CSPRNG) when he takes the dice; the server keeps it secret (``secret_seed``) until the
engine reveals it when he passes them. A new table's rule set declares its ``dealer``
(``dealer_option``, CR-R1: one source of results per table): at an auto-dealt table every
throw is the shooter's from his seed and none is voided; at a dealer-operated one the
dealer keys in every throw and no seed is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from macau_tables.core.journal import Journal
from macau_tables.core.rng import Rng
from macau_tables.games.contract import TableEngine
from macau_tables.games.craps import CrapsRules, CrapsTable, open_for_replay
from macau_tables.server.bots import Move, register_strategy
from macau_tables.server.games import GameBinding


def create(table_id: str, options: Mapping[str, Any]) -> TableEngine:
    """A new table; ``options`` override keys of the default rule set's JSON."""
    rules = CrapsRules.from_json({**CrapsRules().to_json(), **dict(options)})
    return CrapsTable((), rules, table_id=table_id)


def open_journal(journal: Journal, seeds: Mapping[str, bytes]) -> TableEngine:
    return open_for_replay(journal, seeds)


def secret_seed(engine: TableEngine, commitment: str) -> bytes | None:
    if not isinstance(engine, CrapsTable):
        return None
    return engine.seed_vault().get(commitment)


THROW_PAUSE = 1.5  # seconds a bot shooter waits before he throws


def strategy(view: dict[str, Any], pending: list[dict[str, Any]], me: str, rng: Rng) -> Move | None:
    """Sit with MOP 1,000, keep a Pass Line bet at the minimum, throw when shooting — after
    a second and a half, as a shooter does, so that the others can bet (thrown at once,
    the bots' dice flew 80 times a second)."""
    mine = {op for p in pending if p["actor"] == f"player:{me}" for op in p["operations"]}
    seats = view.get("seats") or []
    if not any(isinstance(s, dict) and s.get("player") == me for s in seats):
        return Move("sit", {"amount": 100_000})
    if "throw" in mine:
        return Move("throw", {}, pause=THROW_PAUSE)
    bets = [b for b in view.get("bets", []) or [] if isinstance(b, dict) and b.get("player") == me]
    if "place_bet" in mine and not bets and view.get("point") is None:
        rules = view.get("rules")
        low = rules.get("min_bet", 100) if isinstance(rules, dict) else 100
        return Move("place_bet", {"bet": "pass", "amount": max(int(low), 1_000)}, bet=True)
    return None


register_strategy("craps", strategy)
BINDING = GameBinding(
    "craps",
    create,
    open_journal,
    title="Craps (Portaria 97/85/M)",
    secret_seed=secret_seed,
    keyin_ops=frozenset({"throw_dice"}),
    keyin_args=frozenset({"dice"}),
    dealer_option="dealer",
    restore=CrapsTable.from_snapshot,
)
