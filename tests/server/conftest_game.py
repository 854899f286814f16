"""Registering the Hi-Lo double with the server (and its bot strategy)."""

from __future__ import annotations

from typing import Any

from macau_tables.core.rng import Rng
from macau_tables.server.bots import Move, register_strategy
from macau_tables.server.games import GameBinding, register_game
from tests.server.hilo import HiLoTable


def hilo_strategy(
    view: dict[str, Any], pending: list[dict[str, Any]], me: str, rng: Rng
) -> Move | None:
    mine = {op for p in pending if p["actor"] == f"player:{me}" for op in p["operations"]}
    if me not in view.get("players", []):
        return Move("join", {"amount": 100_000}) if view.get("phase") != "reveal" else None
    if "reveal" in mine:
        return Move("reveal", {})
    my_bets = [b for b in view.get("bets", []) if b["player"] == me]
    if "bet" in mine and len(my_bets) < 3 and view.get("my_stack", 0) >= 1_000:
        return Move("bet", {"amount": 100 * (1 + rng.below(10))}, bet=True)
    return None


def register_hilo() -> GameBinding:
    register_strategy("hilo", hilo_strategy)
    return register_game(
        GameBinding(
            "hilo",
            HiLoTable.create,
            HiLoTable.open,
            frozenset({"shuffle"}),
            title="Hi-Lo (the server's test double)",
        )
    )
