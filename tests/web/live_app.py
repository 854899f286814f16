"""The table server as the browser tests run it: ``python -m tests.web.live_app DB PORT CREDS``.

A fresh SQLite floor with short clocks and one demo table of every game the server binds,
plus the server suite's Hi-Lo test double (``hilo-1``, whose face-down cards are private to
their holders). Where the server does not bind one of the four games yet, a binding of the
engine as it stands is registered here (test-only; the server's own wins once it has one):
baccarat with squeezing on (BA-16), Pai Gow and a 4-place Taiwan Pai Kao table. The demo
credentials are written to the file CREDS once the floor has started.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import uvicorn

from macau_tables.core.journal import Journal
from macau_tables.server.app import create_app
from macau_tables.server.floor import Floor, Settings
from macau_tables.server.games import GameBinding, games, register_game
from tests.server.hilo import HiLoTable

register_game(
    GameBinding("hilo", HiLoTable.create, HiLoTable.open, frozenset({"shuffle"}), title="Hi-Lo")
)


def _baccarat(table_id: str, options: Mapping[str, Any]) -> Any:
    from macau_tables.games.baccarat import BaccaratRules, BaccaratTable

    rules = BaccaratRules.from_json({**BaccaratRules().to_json(), **options})
    return BaccaratTable(rules, table_id=table_id)


def _baccarat_open(journal: Journal, seeds: Mapping[str, bytes]) -> Any:
    from macau_tables.games.baccarat import open_table

    return open_table(journal, seeds)


def _auto_dealt(engine: Any) -> Any:
    """Workarounds, reported to the lead, for two gaps between the server's clock
    (tables.py ``_plan``) and the tile table: the clock runs the first staff operation
    pending even when it is optional with no default (``report_exposed``, which needs the
    exposed tiles: the round stalls), and it runs a dealer's default as a bare command
    (``set_tiles`` with no arguments, for the house banker's seat, PG-R10: a TypeError)
    instead of ``contract.time_out``. Here the optional key-in is hidden (an auto-dealt
    table has no physical tiles) and a bare dealer default is applied as its time-out."""
    from macau_tables.games.contract import Role, time_out

    base = type(engine)

    class AutoDealt(base):  # type: ignore[misc, valid-type]
        def pending(self) -> Any:
            return tuple(
                p for p in super().pending()
                if not (p.actor.role is Role.DEALER and p.default is None and not p.required)
            )  # fmt: skip

        def execute(self, command: Any, rng: Any = None) -> Any:
            if command.actor.role is Role.DEALER and not command.args:
                for p in self.pending():
                    if p.actor == command.actor and p.default == command.op == "set_tiles":
                        return super().execute(time_out(p), rng)
            return super().execute(command, rng)

    engine.__class__ = AutoDealt
    return engine


def _tiles(game: str) -> Any:
    def create(table_id: str, options: Mapping[str, Any]) -> Any:
        from macau_tables.games.tiletable import TileTableRules, open_table

        base = TileTableRules(game=game, places=8 if game == "paigow" else 4).to_json()
        return _auto_dealt(open_table(TileTableRules.from_json({**base, **options}), table_id))

    return create


def _tiles_open(journal: Journal, seeds: Mapping[str, bytes]) -> Any:
    from macau_tables.games.tiletable import _open_from

    return _auto_dealt(_open_from(journal, seeds))


def bind_missing() -> None:
    have = games()
    if "baccarat" not in have:
        register_game(GameBinding("baccarat", _baccarat, _baccarat_open, frozenset({"shuffle"}),
                                  demo_options={"squeeze": True}, title="Baccarat"))  # fmt: skip
    for game in ("paigow", "taiwan"):
        if game not in have:
            register_game(GameBinding(game, _tiles(game), _tiles_open, frozenset({"shuffle"}),
                                      title=game))  # fmt: skip


def main(db: str, port: int, creds: Path) -> None:
    bind_missing()
    settings = Settings(
        database_url=db,
        fast_passwords=True,
        betting_seconds=8.0,
        action_seconds=8.0,
        dealer_seconds=0.2,
    )
    app = create_app(
        floor=Floor(settings),
        on_start=lambda floor: creds.write_text(json.dumps(floor.demo_credentials)),
    )
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), Path(sys.argv[3]))
