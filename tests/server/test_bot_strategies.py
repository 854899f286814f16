"""The bots' strategies make moves the rules allow: a tile bot bets once a round and not
from the banker's seat (a bet there is co-banking: PG-3.2, TW-5e) — it used to bet at
every poll, a hundred bets a round, and the rules refused its bets from the bank's seat."""

from __future__ import annotations

from typing import Any

from macau_tables.core.rng import Rng
from macau_tables.server.bindings import _tiles


def _view(**extra: Any) -> dict[str, Any]:
    return {"seats": {"2": "alice", "3": "bob"}, "stack": 50_000, "banker_seat": 1, **extra}


BETTING = [{"actor": "player:alice", "operations": ["place_bet", "join_bank"]}]


def test_a_tile_bot_bets_the_minimum_when_it_has_no_bet() -> None:
    move = _tiles.strategy(_view(bets=[]), BETTING, "alice", Rng.seeded(b"t"))
    assert move is not None and move.op == "place_bet" and move.bet
    assert move.args == {"seat": 2, "amount": 1_000}


def test_a_tile_bot_bets_once_a_round() -> None:
    bets = [{"bet_id": "b1", "player": "alice", "seat": 2, "amount": 1_000}]
    assert _tiles.strategy(_view(bets=bets), BETTING, "alice", Rng.seeded(b"t")) is None
    # another player's bet does not count as its own
    other = [{"bet_id": "b2", "player": "bob", "seat": 3, "amount": 1_000}]
    move = _tiles.strategy(_view(bets=other), BETTING, "alice", Rng.seeded(b"t"))
    assert move is not None and move.op == "place_bet"


def test_a_tile_bot_does_not_bet_from_the_bankers_seat() -> None:
    """(PG-3.2 and TW-5e: a bet on the banker's seat is co-banking; one strategy serves
    both games)"""
    view = _view(banker_seat=2, bets=[])
    assert _tiles.strategy(view, BETTING, "alice", Rng.seeded(b"t")) is None
