"""The table server as the browser tests run it: ``python -m tests.web.live_app DB PORT CREDS``.

A fresh SQLite floor with short clocks and one demo table of every game the server binds
(baccarat, Pai Gow, Taiwan Pai Kao; craps once the server binds it), plus the server
suite's Hi-Lo test double (``hilo-1``, whose face-down cards are private to their holders).
The demo credentials are written to the file CREDS once the floor has started.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from macau_tables.server.games import GameBinding, register_game
from macau_tables.server.run import serve
from macau_tables.server.settings import Settings
from tests.server.hilo import HiLoTable

register_game(
    GameBinding("hilo", HiLoTable.create, HiLoTable.open, frozenset({"shuffle"}), title="Hi-Lo")
)


def main(db: str, port: int, creds: Path) -> None:
    settings = Settings(
        database_url=db,
        fast_passwords=True,
        betting_seconds=8.0,
        action_seconds=8.0,
        dealer_seconds=0.2,
    )
    # as ``macau-tables serve`` runs it
    serve(
        "127.0.0.1",
        port,
        db,
        settings=settings,
        log_level="warning",
        on_start=lambda floor: creds.write_text(json.dumps(floor.demo_credentials)),
    )


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), Path(sys.argv[3]))
