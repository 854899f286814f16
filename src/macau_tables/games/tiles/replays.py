"""A tile table's journal read back: the table a journal opens, its replay, and the digests of
the checkpoints of journals written when a table's rounds were the round machine's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from macau_tables.core import snapshot
from macau_tables.core.errors import (
    InvalidInput,
    ReplayMismatch,
    RuleViolation,
)
from macau_tables.core.journal import Journal, register_replayer
from macau_tables.games import contract
from macau_tables.games.contract import (
    TableOpened,
)
from macau_tables.games.tiles import legacy as tilegame
from macau_tables.games.tiles.events import (
    BankOpened,
    BetPlaced,
    CoBankJoined,
    DiceShaken,
    RoundSettled,
    StacksRearranged,
    TilesDealt,
    TilesExposed,
    TilesSet,
)
from macau_tables.games.tiles.rules import (
    REGULATIONS,
    TileTableRules,
    WoodpileOrder,
    woodpile_order,
)
from macau_tables.games.tiles.table import (
    PaiGowTable,
    TaiwanTable,
    TileTable,
    _planned,
)

__all__ = [
    "open_for_replay",
    "open_table",
    "replay",
]


#: this module was part of ``macau_tables.games.tiletable``: its classes keep the names its
#: snapshots gave
snapshot.snapshot_home(__name__, "macau_tables.games.tiletable")


def open_table(
    rules: TileTableRules | None = None,
    table_id: str = "t1",
    *,
    seeds: Mapping[str, bytes] | None = None,
    planned: Mapping[str, str] | None = None,
    order_of: WoodpileOrder = woodpile_order,
    header: Mapping[str, Any] | None = None,
) -> TileTable:
    """A new tile table (journal: ``TableOpened`` with the rules)."""
    rules = rules or TileTableRules()
    cls = PaiGowTable if rules.game == "paigow" else TaiwanTable
    return cls(rules, table_id, seeds=seeds, planned=planned, order_of=order_of, header=header)


def open_for_replay(journal: Journal, seeds: Mapping[str, bytes]) -> TileTable:
    """The table a journal opens (its ``table.opened`` rules), before any operation is
    re-run: ``contract.replay``'s ``open_engine``. ``seeds`` are the server seeds known by
    commitment (revealed in the journal, or kept secret by the server)."""
    events = journal.events
    if not events or not isinstance(events[0], TableOpened):
        raise ReplayMismatch("entry 0: a tile table's journal opens with table.opened")
    opened = events[0]
    if opened.game != journal.game:
        raise ReplayMismatch(
            f"entry 0: the table plays {opened.game}, the journal says {journal.game}"
        )
    try:
        rules = TileTableRules.from_json(opened.rules)
    except (InvalidInput, RuleViolation) as exc:
        raise ReplayMismatch(f"entry 0: {exc}", rule=exc.rule) from exc
    return open_table(
        rules, opened.table_id, seeds=seeds, planned=_planned(events), header=journal.header
    )


def replay(journal: Journal, seeds: Mapping[str, bytes] | None = None) -> TileTable:
    """Re-run a tile table's journal (``contract.replay``): every event must follow."""
    engine = contract.replay(journal, open_for_replay, seeds)
    assert isinstance(engine, TileTable)
    return engine


def _replayer(game: str) -> Callable[[Journal], object]:
    def run(journal: Journal) -> object:
        events = journal.events
        if events and isinstance(events[0], tilegame.RoundOpened):
            # a single round's journal of the round machine (older `play` journals)
            return tilegame.replay_round(journal, REGULATIONS[game])
        return replay(journal)

    return run


register_replayer("paigow", _replayer("paigow"))
register_replayer("taiwan", _replayer("taiwan"))

# A round (recall, contract.rounds) opens with the bank (PG-4.4, TW-5c): co-banks and bets
# (PG-3.2, PG-4.6), the stacks, the dice and the deal (PG-1, TW-2), the settings (PG-5.1,
# TW-6a); it ends when every hand is settled (PG-6, TW-6b).
contract.mark_rounds(
    play=(
        BankOpened,
        CoBankJoined,
        BetPlaced,
        StacksRearranged,
        DiceShaken,
        TilesDealt,
        TilesExposed,
        TilesSet,
    ),
    settle=(RoundSettled,),
)
