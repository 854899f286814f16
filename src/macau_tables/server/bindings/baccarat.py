"""Baccarat at the server: ``games.baccarat.BaccaratTable`` under the contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from macau_tables.core.errors import InvalidInput
from macau_tables.core.journal import Journal
from macau_tables.core.rng import Rng
from macau_tables.games.baccarat import BaccaratRules, BaccaratTable, open_table
from macau_tables.games.contract import TableEngine
from macau_tables.server.bots import Move, register_strategy
from macau_tables.server.games import GameBinding


def create(table_id: str, options: Mapping[str, Any]) -> TableEngine:
    """A new table; ``options`` override keys of the default rule set's JSON."""
    rules = BaccaratRules.from_json({**BaccaratRules().to_json(), **dict(options)})
    return BaccaratTable(rules, table_id=table_id)


def open_journal(journal: Journal, seeds: Mapping[str, bytes]) -> TableEngine:
    return open_table(journal, seeds)


def idle(engine: TableEngine) -> bool:
    """Nobody seated and nothing in play: the auto-dealer waits (no empty hands dealt)."""
    if not isinstance(engine, BaccaratTable):
        raise InvalidInput("not a baccarat table")
    return not engine.seats and not engine.holds and engine.hand is None


def strategy(view: dict[str, Any], pending: list[dict[str, Any]], me: str, rng: Rng) -> Move | None:
    """Sit with MOP 1,000; bet the minimum on Banker or Player; let the clock squeeze."""
    mine = {op for p in pending if p["actor"] == f"player:{me}" for op in p["operations"]}
    players = view.get("players") or []
    seated = any(isinstance(p, dict) and p.get("player") == me for p in players)
    if not seated:
        return Move("sit", {"amount": 100_000})
    if "place_bet" in mine and not any(
        isinstance(b, dict) and b.get("player") == me for b in view.get("bets", []) or []
    ):
        kind = "banker" if rng.below(2) else "player"
        return Move("place_bet", {"bet": kind, "amount": 10_000}, bet=True)
    return None


register_strategy("baccarat", strategy)
BINDING = GameBinding(
    "baccarat",
    create,
    open_journal,
    seed_ops=frozenset({"shuffle"}),
    title="Baccarat (百家樂)",
    idle=idle,
    keyin_ops=frozenset({"load_shoe", "open_shoe", "draw"}),
    keyin_args=frozenset({"cards", "card", "first_card"}),
    restore=BaccaratTable.from_snapshot,
)
