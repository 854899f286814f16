"""``GET /tables/{id}/view`` is rendered straight from the table's state (not through
FastAPI's response model, which cost a third of a polled view): the answer must be what
the documented model (``schemas.ViewReply``) gives — at every step of real play, for
every game and every kind of viewer. And a Pai Gow view keeps the last round's
settlement once worked out, so its data must stay that round's."""

from __future__ import annotations

from typing import Any

import pytest

from macau_tables.core.rng import Rng
from macau_tables.core.visibility import Viewer
from macau_tables.games.baccarat import BaccaratTable
from macau_tables.games.contract import TableEngine
from macau_tables.server import schemas as S
from macau_tables.server.bots import _STRATEGIES
from tests.server.conftest import Srv
from tests.server.drive_tables import drive
from tests.server.play import new_table, settled

GAMES = ["paigow", "taiwan", "baccarat", "craps"]
VIEWERS = ["alice", "bob", "dealer", "supervisor", "auditor"]


def _view(srv: Srv, table: str, who: str) -> dict[str, Any]:
    r = srv.client.get(f"/tables/{table}/view", headers=srv.headers(who))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "application/json"
    body: dict[str, Any] = r.json()
    return body


@pytest.mark.parametrize("game", GAMES)
def test_every_view_is_what_the_documented_model_gives(lite: Srv, game: str) -> None:
    srv, t = lite, new_table(lite, game)
    strategy, rng = _STRATEGIES[game], Rng.seeded(b"views")
    seen_last_round = 0
    for _ in range(400):
        if settled(srv, t) >= 2:
            break
        for who in VIEWERS:
            body = _view(srv, t, who)
            assert body == S.ViewReply.model_validate(body).model_dump(mode="json")
            if who in ("alice", "bob"):
                move = strategy(body["view"], body["pending"], who, rng)
                if move is not None:
                    srv.cmd(who, t, move.op, move.args)
            seen_last_round += "last_round" in body["view"]
        srv.step(t)
    assert settled(srv, t) >= 2
    if game in ("paigow", "taiwan"):
        assert seen_last_round  # (the settlement's data was shown)


@pytest.mark.parametrize("game", ["paigow", "taiwan"])
def test_a_tile_views_last_round_is_the_last_settlement(lite: Srv, game: str) -> None:
    srv, t = lite, new_table(lite, game)
    strategy, rng = _STRATEGIES[game], Rng.seeded(b"last-round")
    shown: list[Any] = []
    for _ in range(600):
        if settled(srv, t) >= 3:
            break
        for who in ("alice", "bob"):
            body = _view(srv, t, who)
            move = strategy(body["view"], body["pending"], who, rng)
            if move is not None:
                srv.cmd(who, t, move.op, move.args)
        srv.step(t)
        last = srv.floor.tables[t].engine.last_settlement  # type: ignore[union-attr]
        view = _view(srv, t, "auditor")["view"]
        if last is None:
            assert "last_round" not in view
        else:
            assert view["last_round"] == last.to_json()["data"]
            if not shown or shown[-1] != view["last_round"]:
                shown.append(view["last_round"])
    assert len(shown) >= 2  # a later settlement replaced the first in the view


def test_a_baccarat_views_roads_are_the_shoes_at_every_step() -> None:
    """A baccarat table keeps its roads' JSON until a hand is recorded or a shoe begins:
    at every step of 90 hands (a new shoe among them) the view's roads are the roads
    worked out afresh."""
    steps = 0

    def each(engine: TableEngine) -> None:
        nonlocal steps
        assert isinstance(engine, BaccaratTable)
        for viewer in (Viewer.SUPERVISOR, Viewer.player("alice")):
            assert engine.view(viewer)["roads"] == engine.roads().to_json()
        steps += 1

    table = drive("baccarat", 90, each)
    assert isinstance(table, BaccaratTable) and table.shoe_number > 1 and steps > 90
