"""The auditor's meters: per table and per gaming day, drop, win, hold, commission, handle,
the theoretical win beside the actual, reconciled between the journal and the ledger.

Definitions (docs/operations.md, "The auditor's day"): every figure is read off money
movements in the table's account scheme (``games.contract.accounts``):

* **drop** — money from players' wallets (``player:*``) to the table: the chips bought there
  (buy-ins). The industry's drop is the cash and markers in the table's drop box; here chips
  are bought only from the wallet, so the drop is exactly the buy-ins.
* **cash-out** — money back from the table to the wallets (chips cashed when leaving).
* **win** — the net flow into the house's accounts of the table (``house:<t>`` and
  ``commission:<t>``, the reconciled ``house_net``): what the players lost to the house,
  commission included — plus the change of the house's own capital in a tile bank over the
  day (``analysis.theoretical.house_float``: a round the house banks across the boundary
  moves its capital to the table on one day and back on the next; it is still the house's).
* **commission** — the net flow into ``commission:<t>`` (part of the win).
* **wagered** — money put into play (``wagers:<t>`` in-flows, a bet withdrawn before the
  deal included): the ledger's own measure of action.
* **handle** — the stakes of the bets *decided* (``analysis.theoretical.decided_bets``):
  what the theoretical win is computed on.
* **hold** — win ÷ drop; the **theoretical hold** — theoretical win ÷ drop.

Each figure is computed twice, independently: from the journal entries of the day (each
event's ``movement()``, the engines' own money) and from the database's postings (joined to
the journal entry each transaction belongs to, for its time). Both per account (money in,
money out) and per figure, they must agree; a difference is reported with the account, and
a day that does not reconcile cannot be closed.

A gaming day ``D`` runs from ``D`` at the boundary (default 06:00) local time (Macau,
UTC+8, no daylight saving) to the same time on ``D + 1``; an entry belongs to the day of
its journal entry's ``created_at``.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, timezone
from fractions import Fraction
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from macau_tables.analysis import theoretical as th
from macau_tables.core.journal import Event, event_from_json, money_kinds
from macau_tables.core.ledger import movement_of
from macau_tables.games.contract import TableOpened
from macau_tables.server import store
from macau_tables.server.errors import ApiError

#: the figures reconciled between the journal and the ledger
FIGURES = ("drop", "cash_out", "house_net", "commission", "wagered")


#: how far a transaction's own time may be from its journal entry's (the same command)
MARGIN_MS = 3_600_000


def now_ms() -> int:
    """The clock that says whether a day is over (tests move it)."""
    return store.now_ms()


# --- the gaming day ------------------------------------------------------------------------


@dataclass(frozen=True)
class GamingDay:
    """Where gaming days begin: ``start`` local time at ``utc_offset_minutes`` (Macau: +480)."""

    start: time = time(6, 0)
    utc_offset_minutes: int = 480

    @classmethod
    def parse(cls, start: str, utc_offset_minutes: int = 480) -> GamingDay:
        try:
            hh, mm = start.split(":")
            at = time(int(hh), int(mm))
        except ValueError as exc:
            raise ApiError(
                422, "invalid_input", f"gaming day start {start!r}: HH:MM", "SRV-DAY"
            ) from exc
        if not -14 * 60 <= utc_offset_minutes <= 14 * 60:
            raise ApiError(422, "invalid_input", "UTC offset beyond ±14 h", "SRV-DAY")
        return cls(at, utc_offset_minutes)

    @property
    def tz(self) -> timezone:
        return timezone(timedelta(minutes=self.utc_offset_minutes))

    def window(self, day: date) -> tuple[int, int]:
        """``[start, end)`` of gaming day ``day`` in epoch milliseconds."""
        begin = datetime.combine(day, self.start, tzinfo=self.tz)
        start = int(begin.timestamp() * 1000)
        return start, start + 86_400_000

    def day_of(self, ms: int) -> date:
        """The gaming day an instant belongs to."""
        local = datetime.fromtimestamp(ms / 1000, tz=self.tz)
        day = local.date()
        return day - timedelta(days=1) if local.time() < self.start else day

    def iso(self, ms: int) -> str:
        return datetime.fromtimestamp(ms / 1000, tz=self.tz).isoformat(timespec="seconds")


def parse_day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError as exc:
        raise ApiError(422, "invalid_input", f"day {text!r}: a date YYYY-MM-DD", "SRV-DAY") from exc


# --- money in and out, per account ---------------------------------------------------------

Flows = dict[str, tuple[int, int]]  # account → (money in, money out), both >= 0


def flows_of(postings: Iterable[tuple[str, int]]) -> Flows:
    acc: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for account, amount in postings:
        if amount > 0:
            acc[account][0] += amount
        elif amount < 0:
            acc[account][1] -= amount
    return {a: (i, o) for a, (i, o) in sorted(acc.items())}


def figures(table_id: str, flows: Mapping[str, tuple[int, int]]) -> dict[str, int]:
    """The reconciled figures (:data:`FIGURES`) of a table from its accounts' flows."""
    out = dict.fromkeys(FIGURES, 0)
    for account, (money_in, money_out) in flows.items():
        kind = account.partition(":")[0]
        if kind == "player":
            out["drop"] += money_out
            out["cash_out"] += money_in
        elif account in (f"house:{table_id}", f"commission:{table_id}"):
            out["house_net"] += money_in - money_out
            if kind == "commission":
                out["commission"] += money_in - money_out
        elif account == f"wagers:{table_id}":
            out["wagered"] += money_in
    return out


def ledger_flows(conn: Connection, table_id: str, start: int, end: int) -> Flows:
    """The table's postings whose transaction's journal entry (or, for a transaction that
    names no entry, the transaction itself) is in ``[start, end)``."""
    p, t, j = store.postings_t, store.transactions_t, store.journal_t
    at = sa.func.coalesce(j.c.created_at, t.c.created_at)
    rows = conn.execute(
        sa.select(
            p.c.account,
            sa.func.sum(sa.case((p.c.amount > 0, p.c.amount), else_=0)),
            sa.func.sum(sa.case((p.c.amount < 0, -p.c.amount), else_=0)),
        )
        .select_from(
            p.join(t, t.c.id == p.c.tx_id).outerjoin(
                j, sa.and_(j.c.table_id == t.c.table_id, j.c.seq == t.c.seq)
            )
        )
        .where(
            t.c.table_id == table_id,
            # the index (transactions_table_time) narrows to the day and a margin: a
            # transaction and its journal entry are written by the same command, ms apart
            t.c.created_at >= start - MARGIN_MS,
            t.c.created_at < end + MARGIN_MS,
            at >= start,
            at < end,
        )
        .group_by(p.c.account)
    )
    return {str(a): (int(i), int(o)) for a, i, o in sorted(rows, key=lambda r: str(r[0])) if i or o}


def _events(conn: Connection, table_id: str, where: Any) -> list[Event]:
    """The table's journal entries that ``where`` selects and that can move money or
    decide a bet (the others — cards, tiles, dice, seeds — are not parsed)."""
    j = store.journal_t
    kinds = sorted(money_kinds() | th.KINDS)
    rows = conn.execute(
        sa.select(j.c.event)
        .where(j.c.table_id == table_id, j.c.kind.in_(kinds), where)
        .order_by(j.c.seq)
    )
    return [event_from_json(json.loads(ev)) for (ev,) in rows]


@dataclass
class DayData:
    """What one table's meters are computed from, read in one transaction."""

    table_id: str
    game: str
    rules: dict[str, Any] | None
    events: list[Event]
    context: list[Event]
    ledger: Flows


def read_day(conn: Connection, table_id: str, game: str, start: int, end: int) -> DayData:
    j = store.journal_t
    events = _events(conn, table_id, sa.and_(j.c.created_at >= start, j.c.created_at < end))
    first = conn.execute(
        sa.select(j.c.event).where(j.c.table_id == table_id, j.c.seq == 0)
    ).scalar()
    opened = event_from_json(json.loads(first)) if first is not None else None
    rules = dict(opened.rules) if isinstance(opened, TableOpened) else None
    last = conn.execute(
        sa.select(sa.func.max(j.c.seq)).where(
            j.c.table_id == table_id, j.c.kind == th.CONTEXT_START, j.c.created_at < start
        )
    ).scalar()
    context: list[Event] = []
    if last is not None:
        context = _events(conn, table_id, sa.and_(j.c.seq >= last, j.c.created_at < start))
    return DayData(table_id, game, rules, events, context, ledger_flows(conn, table_id, start, end))


def journal_flows(events: Sequence[Event]) -> Flows:
    postings: list[tuple[str, int]] = []
    for ev in events:
        mv = movement_of(ev)
        if mv is not None:
            postings += [(p.account, p.amount.minor) for p in mv.transaction.postings]
    return flows_of(postings)


# --- the meters of a table -----------------------------------------------------------------


def percent(num: Fraction | int, den: int) -> str | None:
    """``num / den`` as a percentage with four decimals (None when ``den`` is zero)."""
    if not den:
        return None
    scaled = round(Fraction(num) * 100 * 10_000 / den)
    sign = "-" if scaled < 0 else ""
    whole, frac = divmod(abs(scaled), 10_000)
    return f"{sign}{whole}.{frac:04d}%"


def theoretical(data: DayData, wagers: Sequence[th.Wager]) -> dict[str, Any]:
    """The theoretical part of a table's meters (prices from the PAR, cached per rule set)."""
    if data.rules is None:
        return {"available": False, "reason": "the table's journal has no rule set"}
    try:
        prices = th.edges(data.game, data.rules)
    except th.Unavailable as exc:
        return {"available": False, "reason": exc.message}
    by_bet = []
    total = Fraction(0)
    unpriced = 0
    lines: dict[tuple[str, Fraction], int] = defaultdict(int)
    for wager in wagers:
        lines[(wager.line, wager.house_share)] += wager.stake
    per_line: dict[str, tuple[int, Fraction]] = {}
    for (line, share), stake in lines.items():
        edge = prices.edge(th.Wager(line, stake, share))
        if edge is None:
            unpriced += stake
            continue
        h, w = per_line.get(line, (0, Fraction(0)))
        per_line[line] = (h + stake, w + stake * edge)
        total += stake * edge
    for line, (h, w) in sorted(per_line.items()):
        by_bet.append(
            {
                "bet": line,
                "handle": h,
                "edge": percent(w, h),
                "theoretical_win": round(w),
            }
        )
    return {
        "available": True,
        "source": prices.source,
        "theoretical_win": round(total),
        "theoretical_win_exact": f"{total.numerator}/{total.denominator}",
        "by_bet": by_bet,
        "unpriced_handle": unpriced,
    }


def table_meters(data: DayData, *, with_theoretical: bool = True) -> dict[str, Any]:
    """One table's meters for one window: figures, reconciliation, theoretical."""
    jflows = journal_flows(data.events)
    by_journal = figures(data.table_id, jflows)
    by_ledger = figures(data.table_id, data.ledger)
    mismatches = [
        f"{account}: in/out {data.ledger.get(account, (0, 0))} in the ledger but "
        f"{jflows.get(account, (0, 0))} by the journal"
        for account in sorted(set(jflows) | set(data.ledger))
        if jflows.get(account, (0, 0)) != data.ledger.get(account, (0, 0))
    ]
    mismatches += [
        f"{name}: {by_ledger[name]} by the ledger but {by_journal[name]} by the journal"
        for name in FIGURES
        if by_ledger[name] != by_journal[name]
    ]
    wagers = th.decided_bets(data.events, data.context)
    total_handle = sum(w.stake for w in wagers)
    float_start = th.house_float(data.context)
    float_end = th.house_float([*data.context, *data.events])
    win = by_journal["house_net"] + float_end - float_start
    out: dict[str, Any] = {
        "table_id": data.table_id,
        "game": data.game,
        **by_journal,
        "win": win,
        "house_float": {"start": float_start, "end": float_end},
        "handle": total_handle,
        "decisions": len(wagers),
        "hold": percent(win, by_journal["drop"]),
        "win_per_handle": percent(win, total_handle),
        "reconciliation": {
            "ok": not mismatches,
            "journal": by_journal,
            "ledger": by_ledger,
            "mismatches": mismatches,
        },
    }
    if with_theoretical:
        theo = theoretical(data, wagers)
        if theo["available"]:
            exact = Fraction(theo["theoretical_win_exact"])
            theo["hold"] = percent(exact, by_journal["drop"])
            theo["edge"] = percent(exact, total_handle)
        out["theoretical"] = theo
    return out


def totals(tables: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The floor's totals of a day (theoretical over the tables that have one)."""
    out: dict[str, Any] = {
        name: sum(int(t[name]) for t in tables) for name in (*FIGURES, "win", "handle")
    }
    out["hold"] = percent(out["win"], out["drop"])
    priced = [t for t in tables if t.get("theoretical", {}).get("available")]
    theo = sum((Fraction(t["theoretical"]["theoretical_win_exact"]) for t in priced), Fraction(0))
    out["theoretical_win"] = round(theo)
    out["theoretical_hold"] = percent(theo, out["drop"]) if len(priced) == len(tables) else None
    out["tables_without_theoretical"] = [t["table_id"] for t in tables if t not in priced]
    return out


# --- closed days ---------------------------------------------------------------------------


def closed_report(conn: Connection, day: date) -> dict[str, Any] | None:
    row = conn.execute(
        sa.select(store.meter_days_t.c.report).where(store.meter_days_t.c.day == day.isoformat())
    ).first()
    return None if row is None else dict(json.loads(row[0]))


def store_close(conn: Connection, day: date, user: str, report: Mapping[str, Any]) -> None:
    conn.execute(
        store.meter_days_t.insert().values(
            day=day.isoformat(),
            closed_at=report["closed"]["at"],
            closed_by=user,
            report=store.dumps(dict(report)),
        )
    )
    store.audit(
        conn,
        user,
        "meters_close",
        day.isoformat(),
        "gaming day close",
        {"totals": report["totals"]},
    )


def utc_iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat(timespec="seconds")
