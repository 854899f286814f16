"""Pai Gow (牌九, Portaria 60/85/M) and Taiwan Pai Kao (台灣牌九, 1990): one tile engine.

Each regulation's rules as data and its comparisons (:mod:`.paigow`, :mod:`.taiwan`), the
round as a value (:mod:`.rounds`: :class:`TileRound`, each step verified, nothing changed in
place; the bank's :class:`Rotation`), its settlement a pure function (:mod:`.settlement`:
``settle(round) -> Settlement``), and the table that plays them on the kernel
(:mod:`.table`: :class:`TileTable` — the server's tables, the terminal game and ``settle``
alike, the last through :mod:`.facts`). :mod:`.legacy` reads the journals the round machine
wrote before the table was the one engine.

The game was seven modules (``games.tiletable``, ``tileround``, ``tilesettle``,
``tilefacts``, ``tilegame``, ``paigow``, ``taiwan``): their snapshots, and the digests of
the checkpoints journalled, name their classes so; each module of the package keeps the
name of the module it was (``core.snapshot.snapshot_home``).
"""

from __future__ import annotations

from macau_tables.games.tiles import (
    bank,
    checkpoints,
    events,
    facts,
    history,
    legacy,
    paigow,
    posting,
    replays,
    rounds,
    rules,
    seats,
    settlement,
    state,
    table,
    taiwan,
    views,
)
from macau_tables.games.tiles.checkpoints import *  # noqa: F403
from macau_tables.games.tiles.events import *  # noqa: F403
from macau_tables.games.tiles.replays import *  # noqa: F403
from macau_tables.games.tiles.rounds import *  # noqa: F403
from macau_tables.games.tiles.rules import *  # noqa: F403
from macau_tables.games.tiles.settlement import *  # noqa: F403
from macau_tables.games.tiles.state import *  # noqa: F403
from macau_tables.games.tiles.table import *  # noqa: F403

__all__ = [
    *rounds.__all__,
    *settlement.__all__,
    *rules.__all__,
    *state.__all__,
    *events.__all__,
    *table.__all__,
    *checkpoints.__all__,
    *replays.__all__,
    "bank",
    "facts",
    "history",
    "legacy",
    "paigow",
    "posting",
    "seats",
    "taiwan",
    "views",
]
