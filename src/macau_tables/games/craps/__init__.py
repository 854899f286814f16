"""Craps (花旗骰) — Portaria 97/85/M, as read in ``../shared/rules/craps-1985.md``.

The module follows the regulation: first the values (dice and the 36 chance outcomes, pay
tables as data), then the bets article by article (CR-2.1 … CR-12) as :class:`CrapsBetKind`
data, then the options (:class:`CrapsRules`, whose defaults are the Readings), the journal
events, and the table (:class:`CrapsTable`) with its operations, the throw (CR-1), the
point cycle (CR-2.1), the shooter (CR-R7), settlement as money events, and replay.

Every :class:`CrapsBetKind` has exactly one place for each of

* **when it may be placed** — :attr:`CrapsBetKind.when` (CR-R6, CR-12);
* **how a roll resolves it** — :attr:`CrapsBetKind.resolve` (a small frozen rule object);
* **what it pays** — :attr:`CrapsBetKind.pays` (a pay table value; ``CrapsRules.pays`` may
  override it, so a casino paying Big 7 at 4 to 1 writes ``pays={"big7": Odds(4)}``).

"Wins N times the bet" (贏取投注額的N倍彩金) means winnings of N × the stake (N to 1); a
winning bet also gets its stake back. Money is integer minor units; the only products that
can fall between minor units are fractional odds (Big 7 at 4.5 to 1, odds 3:2 and 6:5, the
lay 1:2 …): they are rounded once, toward zero, by ``CrapsRules.rounding`` (the regulation
is silent; :attr:`Rounding.DOWN` is the package default, as for commission, PG-R5 / BA-R5).
The Big bets (CR-9 … CR-11, CR-R4) are computed in whole units and need no rounding.
"""

from __future__ import annotations

from macau_tables.core.snapshot import snapshot_home
from macau_tables.games.craps import (
    bets,
    dice,
    events,
    history,
    placing,
    replays,
    rules,
    settlement,
    state,
    table,
    views,
)
from macau_tables.games.craps.bets import *  # noqa: F403
from macau_tables.games.craps.dice import *  # noqa: F403
from macau_tables.games.craps.events import *  # noqa: F403
from macau_tables.games.craps.history import *  # noqa: F403
from macau_tables.games.craps.placing import *  # noqa: F403
from macau_tables.games.craps.replays import *  # noqa: F403
from macau_tables.games.craps.rules import *  # noqa: F403
from macau_tables.games.craps.settlement import *  # noqa: F403
from macau_tables.games.craps.state import *  # noqa: F403
from macau_tables.games.craps.table import *  # noqa: F403
from macau_tables.games.craps.views import *  # noqa: F403

__all__ = [
    *dice.__all__,
    *bets.__all__,
    *rules.__all__,
    *events.__all__,
    *state.__all__,
    *placing.__all__,
    *settlement.__all__,
    *history.__all__,
    *views.__all__,
    *table.__all__,
    *replays.__all__,
]

# The game was one module, ``macau_tables.games.craps``: its snapshots (and the digests of the
# checkpoints journalled) name its classes so; every module of the package keeps that name.
for _module in (
    dice,
    bets,
    rules,
    events,
    state,
    placing,
    settlement,
    history,
    views,
    table,
    replays,
):
    snapshot_home(_module.__name__, __name__)
