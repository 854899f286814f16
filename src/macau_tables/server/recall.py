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
import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from macau_tables.core.errors import JournalTampered, MacauTablesError, ReplayMismatch
from macau_tables.core.journal import FORMAT, FORMAT_VERSION, Journal, event_from_json
from macau_tables.core.visibility import Viewer, ViewerRole
from macau_tables.games.contract import (
    Kind,
    Replay,
    Round,
    RoundCorrected,
    RoundVoided,
    marked_rounds,
    round_kinds,
    rounds,
    safe_base,
)
from macau_tables.server import store
from macau_tables.server.games import GameBinding

__all__ = [
    "TableRecord",
    "load_record",
    "player_recall",
    "player_rounds",
    "player_rounds_in",
    "recall_rounds",
    "recall_start",
    "recall_starts",
    "round_index",
    "rounds_from",
    "table_recall",
    "window_record",
]

log = logging.getLogger("macau_tables.server")

#: the stored snapshots a recall tries, the latest first, before it reads the whole journal
RECALL_STARTS = 3

#: how far this process checked a table's chain: the entries before ``n``, and the hash of
#: the last of them (``TableActor.chain_checked``, ``chain_hash``; ``(0, None)``: nothing)
Checked = tuple[int, str | None]

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
    """What the database holds about one table, read in one transaction: its journal (whole,
    or a window from entry ``first``, where the table's state was stored: ``snapshot``),
    each entry's time (``times[0]`` is entry ``first``'s), its seeds and its transactions
    (from entry ``first`` on)."""

    table_id: str
    game: str
    header: dict[str, Any]
    journal: Journal
    times: list[int]
    seeds: dict[str, bytes]
    txs: list[Tx]
    first: int = 0
    snapshot: Any = None

    def rounds(self) -> list[Round]:
        """The rounds of a whole journal (of a window: :func:`round_index`)."""
        if self.first:
            raise ValueError("a window's rounds are numbered from the table's opening")
        return rounds(self.journal.events)

    def time(self, seq: int) -> int:
        return self.times[seq - self.first]


def round_index(conn: Connection, table_id: str) -> list[Round]:
    """The table's rounds, numbered from its opening, as :func:`contract.rounds` finds them
    in its events — from the entries whose kind marks a round (``contract.round_kinds``),
    selected by the database, and of those only the supervisors' voids and corrections
    parsed (they name the round they take back): no event of play is read, so a recall of
    the last rounds of a long journal needs only the entries from the snapshot before
    them (``contract.marked_rounds``)."""
    q = store.journal_t.c
    named = (RoundVoided.kind, RoundCorrected.kind)
    length = conn.execute(
        sa.select(sa.func.coalesce(sa.func.max(q.seq) + 1, 0)).where(q.table_id == table_id)
    ).scalar_one()
    rows = conn.execute(
        sa.select(q.seq, q.kind, sa.case((q.kind.in_(named), q.event), else_=None))
        .where(q.table_id == table_id, q.kind.in_(sorted(round_kinds())))
        .order_by(q.seq)
    )
    return marked_rounds(
        (
            (int(seq), event_from_json(json.loads(text)) if text is not None else Kind(kind))
            for seq, kind, text in rows
        ),
        int(length),
    )


def recall_starts(
    conn: Connection, table_id: str, game: GameBinding, chosen: Sequence[Round]
) -> list[int]:
    """The entries a recall of ``chosen`` may start from: the stored snapshots before their
    first round, the latest first (none if the game cannot be restored)."""
    if game.restore is None or not chosen:
        return []
    begin = min(r.first for r in chosen)
    return [s for s in store.snapshot_seqs(conn, table_id) if s < begin]


def recall_start(
    conn: Connection, table_id: str, game: GameBinding, chosen: Sequence[Round]
) -> int:
    """The latest of :func:`recall_starts` (0: none)."""
    return next(iter(recall_starts(conn, table_id, game, chosen)), 0)


def load_record(
    conn: Connection,
    table_id: str,
    game: str,
    header: dict[str, Any],
    start: int = 0,
    checked: Checked = (0, None),
) -> TableRecord:
    """The table's journal (with each entry's time), its seeds and its transactions; from
    entry ``start`` on where :func:`window_record` may, otherwise whole."""
    if start:
        record = window_record(conn, table_id, game, header, start, checked)
        if record is not None:
            return record
    return _whole_record(conn, table_id, game, header)


def window_record(
    conn: Connection,
    table_id: str,
    game: str,
    header: dict[str, Any],
    start: int,
    checked: Checked = (0, None),
) -> TableRecord | None:
    """The table's record from entry ``start`` on (a stored snapshot's: :func:`recall_starts`)
    with the state stored there, if the table may start from it (``contract.safe_base``;
    None if not) and its chain up to there verifies from the stored text
    (:func:`store.verify_chain_link`) — from where this process checked it already
    (``checked``: the entries before ``n``, the last one's hash, ``TableActor.checked``),
    or if ``start`` is within those, by the stored hash of the entry before it alone."""
    if start:
        window = store.load_window(conn, table_id, game, header, start)
        if safe_base(window.events, start, start):
            link = window.entry(start).prev_hash
            n, last = checked if checked[1] is not None else (0, None)
            if start > n:
                store.verify_chain_link(
                    conn, table_id, game, header, start, link, start=n, prev=last
                )
            elif store.stored_hash(conn, table_id, start - 1) != link:
                raise JournalTampered(f"entry {start}: prev_hash does not match")
            q = store.journal_t.c
            times = [
                int(t or 0)
                for (t,) in conn.execute(
                    sa.select(q.created_at)
                    .where(q.table_id == table_id, q.seq >= start)
                    .order_by(q.seq)
                )
            ]
            return TableRecord(
                table_id,
                game,
                dict(header),
                window,
                times[: window.kept],
                store.table_seeds(conn, table_id),
                _transactions(conn, table_id, start),
                first=start,
                snapshot=store.get_snapshot(conn, table_id, start),
            )
    return None


def _whole_record(
    conn: Connection, table_id: str, game: str, header: dict[str, Any]
) -> TableRecord:
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
    return TableRecord(
        table_id,
        game,
        dict(header),
        journal,
        [int(r[4] or 0) for r in rows],
        store.table_seeds(conn, table_id),
        _transactions(conn, table_id, 0),
    )


def _transactions(conn: Connection, table_id: str, start: int) -> list[Tx]:
    """The table's ledger transactions from entry ``start`` on, with their postings and the
    holds they open and close, in the order of their entries."""
    t, p = store.transactions_t, store.postings_t
    since = [t.c.table_id == table_id]
    if start:
        since.append(t.c.seq >= start)
    txs: dict[str, Tx] = {}
    for tx_id, seq, memo in conn.execute(
        sa.select(t.c.id, t.c.seq, t.c.memo).where(*since).order_by(t.c.seq)
    ):
        txs[str(tx_id)] = Tx(str(tx_id), -1 if seq is None else int(seq), str(memo or ""))
    if txs:
        for tx_id, account, amount in conn.execute(
            sa.select(p.c.tx_id, p.c.account, p.c.amount)
            .select_from(p.join(t, t.c.id == p.c.tx_id))
            .where(*since)
            .order_by(p.c.id)
        ):
            txs[str(tx_id)].postings.append((str(account), int(amount)))
        for table, attr in ((store.holds_opened_t, "opens"), (store.holds_closed_t, "closes")):
            held = [table.c.table_id == table_id]
            if start:
                held.append(table.c.seq >= start)
            for hold, tx_id in conn.execute(sa.select(table.c.hold_id, table.c.tx_id).where(*held)):
                if str(tx_id) in txs:
                    getattr(txs[str(tx_id)], attr).append(str(hold))
    return sorted(txs.values(), key=lambda x: x.seq)


# --- who played which round ------------------------------------------------------------


def _stack_owner(account: str, table_id: str) -> str | None:
    prefix = f"stack:{table_id}:"
    return account[len(prefix) :] if account.startswith(prefix) else None


def player_rounds(record: TableRecord, player: str) -> list[Round]:
    """The rounds ``player`` took part in: his chips moved in the round (a bet, a bank, a
    co-bank, a payment; not a buy-in or a cash-out), or a stake of his was in play during
    it (a Pass Line bet riding several rolls, a Baccarat bet pushed by a tie)."""
    return _rounds_of(record.rounds(), record.txs, record.table_id, player, len(record.journal) - 1)


def player_rounds_in(
    conn: Connection, table_id: str, player: str, index: Sequence[Round]
) -> list[Round]:
    """:func:`player_rounds` from the database, the table's rounds given
    (:func:`round_index`): only the transactions that moved his chips and the closings of
    the holds they opened are read, not the table's whole journal and ledger."""
    end = conn.execute(
        sa.select(sa.func.max(store.journal_t.c.seq)).where(store.journal_t.c.table_id == table_id)
    ).scalar()
    if end is None:
        return []
    return _rounds_of(index, _his_transactions(conn, table_id, player), table_id, player, end)


def _his_transactions(conn: Connection, table_id: str, player: str) -> list[Tx]:
    """The table's transactions that posted to ``player``'s stack (with all their postings
    and the holds they opened), and the closings of those holds."""
    t, p = store.transactions_t, store.postings_t
    opened_t, closed_t = store.holds_opened_t, store.holds_closed_t
    his = sa.select(p.c.tx_id).where(p.c.account == f"stack:{table_id}:{player}")
    txs: dict[str, Tx] = {}
    for tx_id, seq, memo in conn.execute(
        sa.select(t.c.id, t.c.seq, t.c.memo).where(t.c.table_id == table_id, t.c.id.in_(his))
    ):
        txs[str(tx_id)] = Tx(str(tx_id), -1 if seq is None else int(seq), str(memo or ""))
    if not txs:
        return []
    for tx_id, account, amount in conn.execute(
        sa.select(p.c.tx_id, p.c.account, p.c.amount).where(p.c.tx_id.in_(his)).order_by(p.c.id)
    ):
        if str(tx_id) in txs:
            txs[str(tx_id)].postings.append((str(account), int(amount)))
    holds: list[str] = []
    for hold, tx_id in conn.execute(
        sa.select(opened_t.c.hold_id, opened_t.c.tx_id).where(
            opened_t.c.table_id == table_id, opened_t.c.tx_id.in_(his)
        )
    ):
        if str(tx_id) in txs:
            txs[str(tx_id)].opens.append(str(hold))
            holds.append(str(hold))
    for i in range(0, len(holds), 500):  # (SQLite's limit on a statement's parameters)
        for hold, tx_id, seq in conn.execute(
            sa.select(closed_t.c.hold_id, closed_t.c.tx_id, closed_t.c.seq).where(
                closed_t.c.table_id == table_id, closed_t.c.hold_id.in_(holds[i : i + 500])
            )
        ):
            closing = txs.setdefault(str(tx_id), Tx(str(tx_id), int(seq), ""))
            closing.closes.append(str(hold))
    return sorted(txs.values(), key=lambda x: x.seq)


def _rounds_of(
    all_rounds: Sequence[Round], txs: Iterable[Tx], table_id: str, player: str, end: int
) -> list[Round]:
    """:func:`player_rounds`: his rounds among ``all_rounds``, from ``txs`` (the table's, or
    at least those that moved his chips and closed his holds) up to entry ``end``."""
    mine = f"stack:{table_id}:{player}"
    wallet = f"player:{player}"
    spans: list[tuple[int, int]] = []  # seqs: a posting of his (s, s), a hold of his (s, c)
    opened: dict[str, int] = {}
    closed: dict[str, int] = {}
    for tx in txs:
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
    spans += [(s, closed.get(h, end)) for h, s in opened.items()]
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
        # (e.g. another player's buy-in)
        if not events[tx.seq - record.first].audience().admits(viewer):
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

    A record from a snapshot (``record.first``) starts from the table's state stored there
    (``game.restore``), and re-runs the checkpoint at its first entry through the rules:
    a stored state that is not the state the chain committed to is refused there
    (:class:`ReplayMismatch`). The entries before the first chosen round are then applied
    as journalled (:meth:`Replay.skip_to`: the table's state, without re-running the rules
    — the server re-ran them when it loaded the table); the chosen rounds' operations are
    re-run through the rules, step by step. ``rerun_all``: re-run the whole journal (the
    same result, slower: what the tests compare against)."""
    if not chosen:
        return []
    wanted = sorted(chosen, key=lambda r: r.first)
    out: dict[int, dict[str, Any]] = {r.number: _round_head(record, r, viewer) for r in wanted}
    stop = max(r.last for r in wanted)
    if record.first:
        if rerun_all or game.restore is None or wanted[0].first <= record.first:
            raise ValueError(f"a recall from entry {record.first} cannot re-run these rounds")
        journal = record.journal
        empty = Journal.resume(
            record.game, record.header, record.first, journal.entry(record.first).prev_hash
        )
        try:
            engine = game.restore(record.snapshot, empty, record.seeds, journal)
        except MacauTablesError as exc:
            raise ReplayMismatch(
                f"entry {record.first}: the snapshot does not restore: {exc}"
            ) from exc
        run = Replay(journal, None, engine=engine)
        next(run.steps(), None)  # the checkpoint: its digest derived from the state again
    else:
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
                    "at": record.time(step.first),
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
        "started_at": record.time(rnd.first),
        "ended_at": None if rnd.status == "under way" else record.time(rnd.last),
        "steps": [],
        "money": _money(record, rnd, viewer),
    }


def table_recall(
    conn: Connection,
    table_id: str,
    game: GameBinding,
    header: dict[str, Any],
    viewer: Viewer,
    limit: int,
    before: int | None = None,
    checked: Checked = (0, None),
) -> dict[str, Any]:
    """``GET /tables/{id}/recall``: the table's last ``limit`` rounds (numbered below
    ``before``) rebuilt for ``viewer``, from the stored snapshot before them where there is
    one (:func:`rounds_from`)."""
    index = round_index(conn, table_id)
    chosen = last(index, limit, before)
    return {
        "table_id": table_id,
        "game": game.name,
        "rounds_total": len(index),
        "rounds": rounds_from(conn, table_id, game, header, viewer, chosen, checked),
    }


def player_recall(
    conn: Connection,
    player: str,
    tables: Mapping[str, tuple[GameBinding, dict[str, Any], Checked]],
    viewer: Viewer,
    limit: int,
) -> dict[str, Any]:
    """``GET /players/{name}/recall``: ``player``'s last ``limit`` rounds at ``tables`` (each
    table's game, header and the entries whose chain this process checked), oldest first,
    rebuilt for ``viewer``: his rounds found from the transactions that moved his chips
    (:func:`player_rounds_in`), each table's rebuilt from the snapshot before them
    (:func:`rounds_from`)."""
    q = store.journal_t.c
    mine: list[tuple[int, str, int, Round]] = []
    for table_id in sorted(tables):
        # (a table's rounds are in the order of time: only its last ``limit`` can be chosen)
        his = player_rounds_in(conn, table_id, player, round_index(conn, table_id))[-limit:]
        firsts = {r.first for r in his}
        times = {
            int(seq): int(at or 0)
            for seq, at in conn.execute(
                sa.select(q.seq, q.created_at).where(q.table_id == table_id, q.seq.in_(firsts))
            )
        }
        mine += [(times[r.first], table_id, r.number, r) for r in his]
    mine.sort(key=lambda x: x[:3])
    chosen = mine[-limit:] if limit > 0 else []
    out: list[dict[str, Any]] = []
    for table_id in sorted(tables):
        picked = [x[3] for x in chosen if x[1] == table_id]
        if picked:
            game, header, checked = tables[table_id]
            out.extend(rounds_from(conn, table_id, game, header, viewer, picked, checked))
    out.sort(key=lambda r: (r["started_at"], r["table_id"], r["round"]))
    return {"player": player, "rounds": out}


def rounds_from(
    conn: Connection,
    table_id: str,
    game: GameBinding,
    header: dict[str, Any],
    viewer: Viewer,
    chosen: Sequence[Round],
    checked: Checked = (0, None),
) -> list[dict[str, Any]]:
    """``chosen`` rounds of the table rebuilt for ``viewer`` (:func:`recall_rounds`), from the
    latest stored snapshot before them that the table may start from (of the last
    :data:`RECALL_STARTS`: :func:`recall_starts`, :func:`window_record`; ``checked``: as
    there), else from the whole journal. A snapshot that does not restore the state its
    checkpoint committed to is logged and the whole journal re-run instead: the journal,
    not the snapshot, is the record."""
    record = None
    for start in recall_starts(conn, table_id, game, chosen)[:RECALL_STARTS]:
        record = window_record(conn, table_id, game.name, header, start, checked)
        if record is not None:  # (a snapshot inside a round the table is still in is not)
            break
    if record is None:
        record = load_record(conn, table_id, game.name, header)
    try:
        return recall_rounds(record, game, viewer, chosen)
    except ReplayMismatch:
        if not record.first:
            raise
        log.exception("table %s: recall from the snapshot at entry %s", table_id, record.first)
        return recall_rounds(load_record(conn, table_id, game.name, header), game, viewer, chosen)


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
