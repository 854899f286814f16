"""Craps replay: a journal's table re-run operation by operation, and the rounds marked."""

from __future__ import annotations

from collections.abc import Mapping

from macau_tables.core.errors import InvalidInput, ReplayMismatch
from macau_tables.core.journal import Journal, register_replayer
from macau_tables.games.contract import TableOpened, mark_rounds
from macau_tables.games.contract import replay as contract_replay
from macau_tables.games.craps.events import (
    BetIncreased,
    BetPlaced,
    BetTakenDown,
    DiceThrown,
    RollSettled,
    ThrowVoided,
)
from macau_tables.games.craps.rules import GAME, CrapsRules
from macau_tables.games.craps.table import CrapsTable

__all__ = [
    "open_for_replay",
    "replay",
]


def open_for_replay(journal: Journal, seeds: Mapping[str, bytes]) -> CrapsTable:
    """The table of ``journal``'s opening event, knowing the seeds ``seeds`` (by
    commitment) and the commitments the journal publishes (for :func:`replay`)."""
    events = journal.events
    first = events[0] if events else None
    if not isinstance(first, TableOpened) or first.game != GAME:
        raise ReplayMismatch("entry 0: a craps journal opens with table.opened for craps")
    try:
        rules = CrapsRules.from_json(first.rules)
        table = CrapsTable((), rules, table_id=first.table_id, header=journal.header)
    except InvalidInput as exc:
        raise ReplayMismatch(f"entry 0: {exc}", rule=exc.rule) from exc
    if table.events[0].to_json() != first.to_json():
        raise ReplayMismatch("entry 0: the rules are not written as craps writes them")
    table._keyring.update(seeds)
    table._replaying(journal)
    return table


def replay(journal: Journal, seeds: Mapping[str, bytes] | None = None) -> CrapsTable:
    """Re-run the journal's operations (:func:`contract.replay`) and demand the very events
    it holds; dice thrown by a shooter are re-derived from his seed once it is revealed."""
    table = contract_replay(journal, open_for_replay, seeds)
    assert isinstance(table, CrapsTable)
    return table


def _replay(journal: Journal) -> object:
    return replay(journal)


register_replayer(GAME, _replay)

# A round is a roll (recall, contract.rounds): the bets made, increased or taken down
# before it (CR-2 … CR-9, CR-R6), its throw (CR-1; a void throw is thrown again, CR-R1), and
# the settlement of every bet the roll decides.
mark_rounds(
    play=(BetPlaced, BetIncreased, BetTakenDown, DiceThrown, ThrowVoided),
    settle=(RollSettled,),
)
