"""Baccarat (百家樂) — Macau statutory rules 《百家樂法定規章》 (seed 004).

Read beside ``../shared/rules/baccarat.md``: the sections below follow the articles in order
(BA-1 … BA-18) and each rule is implemented once, citing its ID; the options the statute
leaves to the house are the Readings BA-R1 … BA-R7, gathered in :class:`BaccaratRules`.

:class:`BaccaratTable` is a live table over shoes and follows the table contract
(:mod:`macau_tables.games.contract`): operations ``verify_x`` / ``can_x`` / ``x`` name their
:class:`~macau_tables.games.contract.Actor` and emit events; :meth:`BaccaratTable.apply` is
the only place state changes; :meth:`BaccaratTable.pending` says who may act; each viewer
sees :meth:`BaccaratTable.view`; replay re-runs the operations and demands the same events.

Information model: a shoe is committed (``SeedCommitted``) and its order derived from the
server seed with ``Rng.for_event(seed, table_id, "shoe:<n>")``; the order is in no event and
no view. Cards are dealt face down (an event without the card) and become public when they
are revealed (BA-7.1 Player first; BA-16 the squeeze by the seated player with the largest
bet on the side, the dealer on a time-out); burned cards stay face down (BA-2.1, BA-8) but
for the first card turned under BA-2.1's second method; the seed is revealed when the shoe
ends (BA-3.1, BA-3.2).

The engine is pure: no I/O, no clock, no randomness of its own (chance enters as an
:class:`~macau_tables.core.rng.Rng` or a revealed seed) and owns no ledger: the events that
move money carry their :class:`~macau_tables.core.ledger.Movement`.
"""

from __future__ import annotations

from macau_tables.core.snapshot import snapshot_home
from macau_tables.games.baccarat import (
    bets,
    cards,
    dealing,
    events,
    hand,
    history,
    replays,
    roads,
    rules,
    state,
    table,
    views,
)
from macau_tables.games.baccarat.bets import *  # noqa: F403
from macau_tables.games.baccarat.cards import *  # noqa: F403
from macau_tables.games.baccarat.dealing import *  # noqa: F403
from macau_tables.games.baccarat.events import *  # noqa: F403
from macau_tables.games.baccarat.hand import *  # noqa: F403
from macau_tables.games.baccarat.history import *  # noqa: F403
from macau_tables.games.baccarat.replays import *  # noqa: F403
from macau_tables.games.baccarat.rules import *  # noqa: F403
from macau_tables.games.baccarat.state import *  # noqa: F403
from macau_tables.games.baccarat.table import *  # noqa: F403
from macau_tables.games.baccarat.views import *  # noqa: F403

__all__ = [
    *cards.__all__,
    *rules.__all__,
    *hand.__all__,
    *bets.__all__,
    *events.__all__,
    *state.__all__,
    *dealing.__all__,
    *history.__all__,
    *views.__all__,
    *table.__all__,
    *replays.__all__,
]

# The game was one module, ``macau_tables.games.baccarat``: its snapshots (and the digests of the
# checkpoints journalled) name its classes so; every module of the package keeps that name.
for _module in (
    cards,
    rules,
    roads,
    hand,
    bets,
    events,
    state,
    dealing,
    history,
    views,
    table,
    replays,
):
    snapshot_home(_module.__name__, __name__)
