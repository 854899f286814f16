"""Pai Gow and Taiwan Pai Kao at the server: ``games.tiles.TileTable``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from macau_tables.core.errors import InvalidInput
from macau_tables.core.journal import Journal
from macau_tables.core.rng import Rng
from macau_tables.games.contract import TableEngine
from macau_tables.games.tiles import (
    PaiGowTable,
    TaiwanTable,
    TileTable,
    TileTableRules,
    open_for_replay,
    open_table,
)
from macau_tables.server.bots import Move, register_strategy
from macau_tables.server.games import GameBinding


def creator(game: str) -> Callable[[str, Mapping[str, Any]], TableEngine]:
    def create(table_id: str, options: Mapping[str, Any]) -> TableEngine:
        if options.get("game", game) != game:
            raise InvalidInput(f"a {game} table plays {game}")
        base = TileTableRules(game=game).to_json()  # type: ignore[arg-type]
        rules = TileTableRules.from_json({**base, **dict(options), "game": game})
        return open_table(rules, table_id)

    return create


def open_journal(journal: Journal, seeds: Mapping[str, bytes]) -> TableEngine:
    return open_for_replay(journal, seeds)


def strategy(view: dict[str, Any], pending: list[dict[str, Any]], me: str, rng: Rng) -> Move | None:
    """Sit at a free seat, buy MOP 1,000 of chips, decline the bank, bet the minimum once
    a round (not from the banker's seat: a bet there is co-banking, PG-3.2 / TW-5e); the
    clock sets the tiles by the house way (the rules' default)."""
    mine = {op for p in pending if p["actor"] == f"player:{me}" for op in p["operations"]}
    seats = view.get("seats")
    if not isinstance(seats, dict):
        return None
    my_seat = next((int(s) for s, who in seats.items() if who == me), None)
    if my_seat is None:
        places = int(view.get("places", 8) or 8)
        free = [s for s in range(2, places + 1) if str(s) not in seats]
        return Move("sit", {"seat": free[rng.below(len(free))]}) if free else None
    stack = view.get("my_stack", view.get("stack", 0))
    if isinstance(stack, int) and stack < 2_000:
        return Move("buy_in", {"amount": 100_000})
    if "decline_bank" in mine:
        return Move("decline_bank", {})
    bets = view.get("bets") or []
    placed = any(isinstance(b, dict) and b.get("player") == me for b in bets)
    if "place_bet" in mine and not placed and view.get("banker_seat") != my_seat:
        return Move("place_bet", {"seat": my_seat, "amount": 1_000}, bet=True)
    return None


def binding(game: str, title: str) -> GameBinding:
    register_strategy(game, strategy)
    return GameBinding(
        game,
        creator(game),
        open_journal,
        seed_ops=frozenset({"shuffle"}),
        title=title,
        timeout_ops=frozenset({"set_tiles"}),
        idle=_idle,
        keyin_ops=frozenset({"build_woodpile"}),
        keyin_args=frozenset({"dice", "hands"}),
        restore=(PaiGowTable if game == "paigow" else TaiwanTable).from_snapshot,
    )


def _idle(engine: TableEngine) -> bool:
    return isinstance(engine, TileTable) and not engine.pending()
