"""A tile round's settlement posted at the table: every hold of the round (the bets, the
banker's, the house's and the co-bankers' capital) returned, then the round's result — the
postings of :func:`~macau_tables.games.tiles.settlement.settle` (PG-6, PG-8.3, PG-R4, PG-R5,
TW-6b, TW-6c, TW-8), in the round's accounts — in the table's accounts, as one event
(:class:`~macau_tables.games.tiles.events.RoundSettled`) that closes every hold (PG-4.5).
"""

from __future__ import annotations

from macau_tables.core import snapshot
from macau_tables.core.errors import InvalidInput, RuleViolation
from macau_tables.games.contract import accounts
from macau_tables.games.tiles.events import RoundSettled
from macau_tables.games.tiles.rounds import HOUSE, TileRound
from macau_tables.games.tiles.settlement import Settlement
from macau_tables.games.tiles.state import TileState

#: this module was part of ``macau_tables.games.tiletable``
snapshot.snapshot_home(__name__, "macau_tables.games.tiletable")

__all__ = ["settled_event"]


def settled_event(t: TileState, rnd: TileRound, result: Settlement) -> RoundSettled:
    """The settlement's event: every hold of the round returned, then the round's
    postings (:class:`Settlement`, in the round's accounts) in the table's."""
    tid = t._table_id
    cur = t.rules.currency
    posts: list[tuple[str, int]] = []
    closes: list[str] = []
    # every hold of the round is returned, then the round's result is posted
    for bet_id, player, _seat, amount in t._bets:
        posts += [(accounts.wagers(tid), -amount), (accounts.stack(tid, player), amount)]
        closes.append(bet_id)
    banker_src = accounts.house(tid) if t._banker == HOUSE else accounts.stack(tid, t._banker)
    posts += [(accounts.bank(tid), -rnd.banker_capital), (banker_src, rnd.banker_capital)]
    if rnd.house_capital:
        posts += [
            (accounts.bank(tid), -rnd.house_capital),
            (accounts.house(tid), rnd.house_capital),
        ]
    closes += t._holds
    for hold, player, capital in t._cobank:
        posts += [(accounts.bank(tid), -capital), (accounts.stack(tid, player), capital)]
        closes.append(hold)
    for p in result.postings:
        posts.append((_account(t, p.account), p.amount.minor))
    merged: dict[str, int] = {}
    for acc, amount in posts:
        merged[acc] = merged.get(acc, 0) + amount
    postings = tuple((a, v) for a, v in merged.items() if v)
    held = sum(a for _b, _p, _s, a in t._bets)
    banked = rnd.banker_capital + rnd.house_capital + sum(c for *_, c in t._cobank)
    if merged.get(accounts.wagers(tid), 0) != -held or merged.get(accounts.bank(tid), 0) != -banked:
        raise RuleViolation("a settlement closes every hold of the round", rule=t._r("PG-4.5"))
    # the bets in the order settled, matched to their ids (each seat's in the order placed)
    ids: dict[tuple[str, int], list[str]] = {}
    for bet_id, player, seat, _amount in t._bets:
        ids.setdefault((player, seat), []).append(bet_id)
    results = []
    for r in result.records(rnd.seats_out):
        key = (str(r["person"]), int(r["seat"]))
        results.append(
            {
                "bet_id": ids[key].pop(0),
                "player": key[0],
                "seat": key[1],
                "amount": r["amount"],
                "outcome": str(r["outcome"]),
                "action": r["action"],
                "net": r["net"],
                "commission": r["commission"],
                "seat_result": r["seat_result"],
            }
        )
    resets = []
    for seat in result.resets:
        was, now = rnd.settings[seat], result.settings[seat]
        resets.append(
            {
                "seat": seat,
                "before": [[str(x) for x in was.front.tiles], [str(x) for x in was.back.tiles]],
                "after": [[str(x) for x in now.front.tiles], [str(x) for x in now.back.tiles]],
            }
        )
    return RoundSettled(
        table_id=tid,
        round_no=t._round_no,
        currency=cur,
        hands=tuple((s, tuple(str(x) for x in rnd.hands[s])) for s in sorted(rnd.hands)),
        settings=tuple(
            (s, tuple(str(x) for x in st.front.tiles), tuple(str(x) for x in st.back.tiles))
            for s, st in sorted(result.settings.items())
        ),
        resets=tuple(resets),
        results=tuple(results),
        bank_shares=tuple((p, m.minor) for p, m in result.shares),
        commissions=tuple((p, m.minor) for p, m in result.commissions),
        compensation=tuple(dict(c) for c in result.compensation),
        postings=postings,
        closes=tuple(closes),
    )


def _account(t: TileState, account: str) -> str:
    """The round's accounts (:func:`~macau_tables.games.tiles.rounds.wallet`) in the
    table's scheme."""
    tid = t._table_id
    if account == "house:bank":
        return accounts.house(tid)
    if account == "house:commission":
        return accounts.commission(tid)
    if account.startswith("player:"):
        return accounts.stack(tid, account.removeprefix("player:"))
    if account == "table:pot":
        return accounts.wagers(tid)  # the pot nets to zero within a settlement
    raise InvalidInput(f"unexpected account {account!r} in a tile settlement")
