"""Recall: the last rounds of a table or of a player, rebuilt step by step from the journal.

Nothing here is kept: a recall reads the table's journal, its server seeds and its
postings from the database, finds the rounds with the engines' own marks
(:func:`macau_tables.games.contract.rounds`), re-runs the journal operation by operation
(:class:`macau_tables.games.contract.Replay`) and, after each step of a recalled round,
takes the table's view **as the caller may see it** (``engine.view(viewer)``). So a recall
is the same before and after a restart, and a player never sees what his view hides
(another seat's face-down tiles or cards, another player's stack): the steps keep only
the events whose audience admits him, and the money only his own accounts and the
table's.

A round's money comes from its postings in the ledger (the transactions of its events):
the net per account, and per player what he staked (chips from his stack to the layout or
the bank), what came back to his stack (returns and wins) and the difference.
"""

from __future__ import annotations

import bisect
import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from macau_tables.core.journal import FORMAT, FORMAT_VERSION, Journal
from macau_tables.core.visibility import Viewer, ViewerRole
from macau_tables.games.contract import Replay, Round, rounds
from macau_tables.server import store
from macau_tables.server.games import GameBinding

__all__ = ["TableRecord", "load_record", "player_rounds", "recall_rounds"]

#: The rounds a recall returns at most (Ontario: the last game and the 9 before it).
RECALL_LIMIT = 10


@dataclass
class Tx:
    """One ledger transaction of a table: the event (seq) it comes from, its postings."""

    id: str
    seq: int
    memo: str
    postings: list[tuple[str, int]] = field(default_factory=list)
    opens: list[str] = field(default_factory=list)
    closes: list[str] = field(default_factory=list)


@dataclass
class TableRecord:
    """What the database holds about one table, read in one transaction."""

    table_id: str
    game: str
    header: dict[str, Any]
    journal: Journal
    times: list[int]
    seeds: dict[str, bytes]
    txs: list[Tx]

    def rounds(self) -> list[Round]:
        return rounds(self.journal.events)


def load_record(conn: Connection, table_id: str, game: str, header: dict[str, Any]) -> TableRecord:
    """The table's journal (with each entry's time), its seeds and its transactions."""
    j = store.journal_t
    rows = conn.execute(
        sa.select(j.c.seq, j.c.event, j.c.prev_hash, j.c.hash, j.c.created_at)
        .where(j.c.table_id == table_id)
        .order_by(j.c.seq)
    ).all()
    journal = Journal.from_json(  # verified by the replay (contract.Replay), not twice
        {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "game": game,
            "header": dict(header),
            "entries": [
                {"seq": s, "event": json.loads(ev), "prev_hash": p, "hash": h}
                for s, ev, p, h, _ in rows
            ],
        },
        verify=False,
    )
    t, p = store.transactions_t, store.postings_t
    txs: dict[str, Tx] = {}
    for tx_id, seq, memo in conn.execute(
        sa.select(t.c.id, t.c.seq, t.c.memo).where(t.c.table_id == table_id).order_by(t.c.seq)
    ):
        txs[str(tx_id)] = Tx(str(tx_id), -1 if seq is None else int(seq), str(memo or ""))
    if txs:
        for tx_id, account, amount in conn.execute(
            sa.select(p.c.tx_id, p.c.account, p.c.amount)
            .select_from(p.join(t, t.c.id == p.c.tx_id))
            .where(t.c.table_id == table_id)
            .order_by(p.c.id)
        ):
            txs[str(tx_id)].postings.append((str(account), int(amount)))
        for table, attr in ((store.holds_opened_t, "opens"), (store.holds_closed_t, "closes")):
            for hold, tx_id in conn.execute(
                sa.select(table.c.hold_id, table.c.tx_id).where(table.c.table_id == table_id)
            ):
                if str(tx_id) in txs:
                    getattr(txs[str(tx_id)], attr).append(str(hold))
    return TableRecord(
        table_id,
        game,
        dict(header),
        journal,
        [int(r[4] or 0) for r in rows],
        store.table_seeds(conn, table_id),
        sorted(txs.values(), key=lambda x: x.seq),
    )


# --- who played which round ------------------------------------------------------------


def _stack_owner(account: str, table_id: str) -> str | None:
    prefix = f"stack:{table_id}:"
    return account[len(prefix) :] if account.startswith(prefix) else None


def player_rounds(record: TableRecord, player: str) -> list[Round]:
    """The rounds ``player`` took part in: his chips moved in the round (a bet, a bank, a
    co-bank, a payment; not a buy-in or a cash-out), or a stake of his was in play during
    it (a Pass Line bet riding several rolls, a Baccarat bet pushed by a tie)."""
    mine = f"stack:{record.table_id}:{player}"
    wallet = f"player:{player}"
    spans: list[tuple[int, int]] = []  # seqs: a posting of his (s, s), a hold of his (s, c)
    opened: dict[str, int] = {}
    closed: dict[str, int] = {}
    for tx in record.txs:
        moved = [a for acc, a in tx.postings if acc == mine]
        if any(acc == wallet for acc, _ in tx.postings):
            moved = []  # a buy-in or a cash-out is not playing
        if moved:
            spans.append((tx.seq, tx.seq))
            if any(a < 0 for a in moved):
                for hold in tx.opens:
                    opened[hold] = tx.seq
        for hold in tx.closes:
            closed[hold] = tx.seq
    end = len(record.journal) - 1
    spans += [(s, closed.get(h, end)) for h, s in opened.items()]
    all_rounds = record.rounds()
    firsts = [r.first for r in all_rounds]
    lasts = [r.last for r in all_rounds]
    hit: set[int] = set()
    for s, c in spans:  # the rounds that overlap [s, c] (rounds are in order and apart)
        hit.update(range(bisect.bisect_left(lasts, s), bisect.bisect_right(firsts, c)))
    return [all_rounds[i] for i in sorted(hit)]


# --- one round, rebuilt ------------------------------------------------------------------


def _visible_accounts(viewer: Viewer, table_id: str) -> Any:
    """Which accounts a viewer may see: staff see all; a player his own and the table's
    (layout, bank, house, commission), never another player's stack or wallet."""

    def ok(account: str) -> bool:
        if viewer.role in (ViewerRole.SUPERVISOR, ViewerRole.DEALER):
            return True
        kind, _, rest = account.partition(":")
        if kind == "player":
            return rest == viewer.name
        if kind == "stack":
            return _stack_owner(account, table_id) == viewer.name
        return True

    return ok


def _money(record: TableRecord, rnd: Round, viewer: Viewer) -> dict[str, Any]:
    visible = _visible_accounts(viewer, record.table_id)
    net: dict[str, int] = defaultdict(int)
    per: dict[str, dict[str, int]] = {}
    txs = []
    events = record.journal.events
    for tx in record.txs:
        if not rnd.first <= tx.seq <= rnd.last:
            continue
        if not events[tx.seq].audience().admits(viewer):  # e.g. another player's buy-in
            continue
        accounts = {acc for acc, _ in tx.postings}
        cash = any(a.startswith("player:") for a in accounts)  # a buy-in or a cash-out
        shown = [(acc, a) for acc, a in tx.postings if visible(acc)]
        if not shown:
            continue
        txs.append({"seq": tx.seq, "memo": tx.memo, "postings": [list(p) for p in shown]})
        for acc, amount in shown:
            net[acc] += amount
            owner = _stack_owner(acc, record.table_id)
            if owner is None or cash:
                continue
            row = per.setdefault(owner, {"staked": 0, "returned": 0, "net": 0})
            if amount < 0:
                row["staked"] -= amount
            else:
                row["returned"] += amount
            row["net"] += amount
    return {
        "accounts": {a: v for a, v in sorted(net.items()) if v},
        "players": dict(sorted(per.items())),
        "transactions": txs,
    }


def _event_out(seq: int, event: Any) -> dict[str, Any]:
    js = event.to_json()
    return {"seq": seq, "kind": js["kind"], "version": js["version"], "data": js["data"]}


def recall_rounds(
    record: TableRecord,
    game: GameBinding,
    viewer: Viewer,
    chosen: Sequence[Round],
    *,
    rerun_all: bool = False,
) -> list[dict[str, Any]]:
    """``chosen`` rounds of the table rebuilt for ``viewer``: each step (the operation's
    actor, its events the viewer may see, each with its seq and time) and the table's
    view after it, the round's status and money. Oldest first.

    The entries before the first chosen round are applied as journalled
    (:meth:`Replay.skip_to`: the table's state, without re-running the rules — the server
    re-ran them when it loaded the table); the chosen rounds' operations are re-run
    through the rules, step by step. ``rerun_all``: re-run the whole journal (the same
    result, slower: what the tests compare against)."""
    if not chosen:
        return []
    wanted = sorted(chosen, key=lambda r: r.first)
    out: dict[int, dict[str, Any]] = {r.number: _round_head(record, r, viewer) for r in wanted}
    stop = max(r.last for r in wanted)
    run = Replay(record.journal, game.open, record.seeds)
    if not rerun_all:
        run.skip_to(max(run.done, wanted[0].first))
    for step in run.steps():
        if step.first > stop:
            break
        for rnd in wanted:
            if step.last < rnd.first or step.first > rnd.last:
                continue
            events = [
                _event_out(step.first + k, ev)
                for k, ev in enumerate(step.events)
                if ev.audience().admits(viewer)
            ]
            if not events:
                continue
            out[rnd.number]["steps"].append(
                {
                    "seq": step.first,
                    "at": record.times[step.first],
                    "actor": str(step.command.actor),
                    "op": step.command.op,
                    "events": events,
                    "view": run.engine.view(viewer),
                }
            )
    return [out[r.number] for r in wanted]


def _round_head(record: TableRecord, rnd: Round, viewer: Viewer) -> dict[str, Any]:
    return {
        "table_id": record.table_id,
        "game": record.game,
        "round": rnd.number,
        "first_seq": rnd.first,
        "last_seq": rnd.last,
        "status": rnd.status,
        "started_at": record.times[rnd.first],
        "ended_at": None if rnd.status == "under way" else record.times[rnd.last],
        "steps": [],
        "money": _money(record, rnd, viewer),
    }


def last(rounds_: Iterable[Round], limit: int, before: int | None = None) -> list[Round]:
    """The last ``limit`` rounds (numbered below ``before``, when given)."""
    pick = [r for r in rounds_ if before is None or r.number < before]
    return pick[-limit:] if limit > 0 else []


# --- a player's export -------------------------------------------------------------------

EXCERPT_FORMAT = "macau-tables/journal-excerpt"


def player_excerpt(record: TableRecord, viewer: Viewer) -> dict[str, Any]:
    """The table's journal as ``viewer`` (a player) may export it.

    Every entry is there, in its hash chain up to the table's head, but an entry's event
    is shown only if the player may see it (``audience``) **and** it comes before the last
    server seed revealed: the shoes, woodpiles and shooters that are over. The others are
    ``{"seq", "withheld": true, "prev_hash", "hash"}``: the chain still links, nothing they
    hide is shown, and nothing of the shoe in play is. ``macau-tables verify`` checks the
    links, every shown event's hash, and each revealed seed against its commitment.
    """
    from macau_tables.games.contract import SeedRevealed

    events = record.journal.events
    cut = max((i for i, ev in enumerate(events) if isinstance(ev, SeedRevealed)), default=-1)
    entries: list[dict[str, Any]] = []
    for i, entry in enumerate(record.journal.entries):
        if i <= cut and entry.event.audience().admits(viewer):
            entries.append(dict(entry.to_json()))
        else:
            entries.append(
                {
                    "seq": entry.seq,
                    "withheld": True,
                    "prev_hash": entry.prev_hash,
                    "hash": entry.hash,
                }
            )
    return {
        "format": EXCERPT_FORMAT,
        "version": 1,
        "game": record.game,
        "header": record.header,
        "viewer": str(viewer),
        "revealed_up_to": cut,
        "entries": entries,
    }
