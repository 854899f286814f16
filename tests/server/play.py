"""Play the real games through the API with the bots' strategies (tests' helper): each
player makes his strategy's move, then the table's clock runs its due step at once."""

from __future__ import annotations

from typing import Any

from macau_tables.core.rng import Rng
from macau_tables.server.bots import _STRATEGIES
from tests.server.conftest import Srv


def new_table(srv: Srv, game: str, table_id: str | None = None) -> str:
    table_id = table_id or f"{game}-r"
    r = srv.client.post(
        "/tables", json={"id": table_id, "game": game}, headers=srv.headers("supervisor")
    )
    assert r.status_code == 200, r.text
    return table_id


def settled(srv: Srv, table: str) -> int:
    r = srv.client.get(f"/tables/{table}/recall?limit=1", headers=srv.headers("auditor"))
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return int(body["rounds_total"]) - (
        1 if body["rounds"] and body["rounds"][-1]["status"] == "under way" else 0
    )


def play(srv: Srv, table: str, players: list[str], rounds: int, max_steps: int = 2000) -> None:
    """Play until ``rounds`` rounds are over at ``table``."""
    game = srv.floor.tables[table].game.name
    strategy = _STRATEGIES[game]
    rng = Rng.seeded(b"recall-tests")
    for _ in range(max_steps):
        if settled(srv, table) >= rounds:
            return
        for p in players:
            snap = srv.client.get(f"/tables/{table}/view", headers=srv.headers(p)).json()
            move = strategy(snap["view"], snap["pending"], p, rng)
            if move is not None:
                srv.cmd(p, table, move.op, move.args)
        srv.step(table)
    raise AssertionError(f"{table}: {rounds} rounds not played in {max_steps} steps")
