"""A player's history for the browser: every round he played, newest first, a page at a time,
each summed up from the server's recall of it (server/recall.py) — his stake on each spot,
its result and what it paid, the time, the round's cards, dice or tiles — and the session's
win or loss.

Nothing here decides a rule: the rounds are the engines' own marks (``contract.rounds``),
found and rebuilt as the player saw them by the recall (``recall.player_rounds_in``,
``recall.rounds_from``); a bet's result and payment are the settlement event's, the
round's money the ledger's. This module only picks them out of the events for the page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from macau_tables.core.visibility import Viewer
from macau_tables.games.contract import Round
from macau_tables.server import store
from macau_tables.server.recall import player_rounds_in, round_index, rounds_from

#: rounds on one page of the history (the recall's own limit: server/recall.py)
PAGE = 10

#: a round's place in the history, oldest first: (its start in epoch ms, table, number)
Cursor = tuple[int, str, int]


def parse_cursor(text: str | None) -> Cursor | None:
    """``"1796161060635:baccarat-1:3"`` → ``(1796161060635, "baccarat-1", 3)``; None for
    none. A malformed cursor raises ``ValueError``."""
    if not text:
        return None
    at, table, number = text.split(":")
    if not table:
        raise ValueError("a cursor names a table")
    return int(at), table, int(number)


def cursor_text(c: Cursor) -> str:
    return f"{c[0]}:{c[1]}:{c[2]}"


@dataclass(frozen=True)
class Played:
    """The tables a player has had chips at: for each, what the recall needs (its game's
    binding, its journal's header, how far this process checked its chain)."""

    tables: Mapping[str, tuple[Any, dict[str, Any], Any]]


def played_tables(conn: Connection, floor: Any, player: str) -> Played:
    """Every table on the floor where ``player`` has (or had) a stack: the recall's own
    choice (``GET /players/{name}/recall``)."""
    stacks = store.balances_like(conn, "stack:")
    names = {acc.split(":")[1] for acc in stacks if acc.endswith(":" + player)}
    return Played(
        {
            t: (floor.table(t).game, floor.table(t).header, floor.table(t).checked())
            for t in sorted(names & set(floor.tables))
        }
    )


def _start_times(conn: Connection, table_id: str, seqs: Sequence[int]) -> dict[int, int]:
    q = store.journal_t.c
    out: dict[int, int] = {}
    for i in range(0, len(seqs), 500):  # (SQLite's limit on a statement's parameters)
        chunk = list(seqs[i : i + 500])
        for seq, at in conn.execute(
            sa.select(q.seq, q.created_at).where(q.table_id == table_id, q.seq.in_(chunk))
        ):
            out[int(seq)] = int(at or 0)
    return out


def history_page(
    conn: Connection,
    played: Played,
    player: str,
    viewer: Viewer,
    before: Cursor | None = None,
    limit: int = PAGE,
) -> dict[str, Any]:
    """The ``limit`` rounds of ``player`` before ``before`` (all of his, oldest first by
    their start, table and number; None: the latest), rebuilt for ``viewer`` and summed
    up, newest first; ``older``: the cursor of the page before, None if there is none."""
    mine: list[tuple[int, str, int, Round]] = []
    for table_id in played.tables:
        his = player_rounds_in(conn, table_id, player, round_index(conn, table_id))
        times = _start_times(conn, table_id, [r.first for r in his])
        mine += [(times.get(r.first, 0), table_id, r.number, r) for r in his]
    mine.sort(key=lambda x: x[:3])
    total = len(mine)
    if before is not None:
        mine = [x for x in mine if x[:3] < before]
    chosen = mine[-limit:] if limit > 0 else []
    rounds: list[dict[str, Any]] = []
    for table_id, (game, header, checked) in played.tables.items():
        picked = [x[3] for x in chosen if x[1] == table_id]
        if picked:
            rounds += rounds_from(conn, table_id, game, header, viewer, picked, checked)
    rounds.sort(key=lambda r: (r["started_at"], r["table_id"], r["round"]), reverse=True)
    older = cursor_text(chosen[0][:3]) if len(mine) > len(chosen) else None
    return {
        "player": player,
        "rounds": [summarize(r, player) for r in rounds],
        "older": older,
        "total": total,
    }


def session_net(conn: Connection, player: str, since: int) -> int:
    """What ``player`` won (positive) or lost at the tables since ``since`` (epoch ms): the
    sum of his stacks' postings in the transactions since then that are not a buy-in or a
    cash-out (those move his own money between his wallet and his chips)."""
    t, p = store.transactions_t, store.postings_t
    wallet = p.alias("wallet")
    cash = (
        sa.select(wallet.c.tx_id)
        .where(wallet.c.account == f"player:{player}", wallet.c.tx_id == t.c.id)
        .exists()
    )
    total = conn.execute(
        sa.select(sa.func.coalesce(sa.func.sum(p.c.amount), 0))
        .select_from(p.join(t, t.c.id == p.c.tx_id))
        .where(
            p.c.account.startswith("stack:", autoescape=True),
            p.c.account.endswith(f":{player}", autoescape=True),
            t.c.created_at >= since,
            ~cash,
        )
    ).scalar_one()
    return int(total)


def balances(conn: Connection, player: str) -> dict[str, Any]:
    """His wallet and his chips at each table (the ledger's balances)."""
    stacks = {
        acc.split(":")[1]: int(v)
        for acc, v in store.balances_like(conn, "stack:").items()
        if acc.endswith(":" + player)
    }
    return {"wallet": int(store.balance(conn, f"player:{player}")), "stacks": stacks}


# --- one round, summed up -------------------------------------------------------------------


def _events(rnd: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [e for step in rnd["steps"] for e in step["events"]]


def _tail(kind: str) -> str:
    return kind.rsplit(".", 1)[-1]


def summarize(rnd: Mapping[str, Any], player: str) -> dict[str, Any]:
    """A recalled round (``recall.recall_rounds``) as the history shows it: the round's
    head, ``bets`` — each of his stakes with its spot, result and what it paid back to
    his chips (``returned``: stake and win, commission taken off) —, ``outcome`` (the
    cards, dice or tiles) and his money in it from the ledger (``staked``, ``returned``,
    ``net``)."""
    events = _events(rnd)
    game = str(rnd["game"])
    if game == "baccarat":
        bets, outcome = _baccarat(rnd, events, player)
    elif game == "craps":
        bets, outcome = _craps(rnd, events, player)
    elif game in ("paigow", "taiwan"):
        bets, outcome = _tiles(events, player)
    else:
        bets, outcome = _placed(events, player, "bet"), {"kind": "none"}
    if rnd["status"] != "settled":  # voided (refunded) or under way
        state = "voided" if rnd["status"] == "voided" else "in_play"
        bets = [{**b, "result": state} for b in _placed(events, player, "bet")] or bets
    money = rnd["money"]["players"].get(player, {"staked": 0, "returned": 0, "net": 0})
    last = rnd["steps"][-1]["at"] if rnd["steps"] else rnd["started_at"]
    return {
        "table_id": rnd["table_id"],
        "game": game,
        "round": rnd["round"],
        "status": rnd["status"],
        "first_seq": rnd["first_seq"],
        "last_seq": rnd["last_seq"],
        "started_at": rnd["started_at"],
        "ended_at": rnd["ended_at"] if rnd["ended_at"] is not None else last,
        "bets": bets,
        "outcome": outcome,
        "staked": int(money["staked"]),
        "returned": int(money["returned"]),
        "net": int(money["net"]),
    }


def _placed(events: Sequence[Mapping[str, Any]], player: str, key: str) -> list[dict[str, Any]]:
    """His stakes as placed in the round (a round not settled: voided or under way)."""
    out = []
    for e in events:
        d = e["data"]
        if _tail(e["kind"]) == "bet_placed" and d.get("player") == player:
            spot = d.get("spot", d.get("seat", d.get("on")))
            out.append(
                {
                    "bet": str(d.get(key) or d.get("bet") or "bet"),
                    "spot": spot,
                    "stake": int(d.get("amount", 0)),
                    "result": "in_play",
                    "returned": 0,
                }
            )
    return out


def _baccarat(
    rnd: Mapping[str, Any], events: Sequence[Mapping[str, Any]], player: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """BA-11 / BA-17: the hand's result per bet (``won``: the win, ``commission``: taken
    from a Banker win), the cards as the hand ended (the view's ``last_hand``)."""
    settled = next((e["data"] for e in events if _tail(e["kind"]) == "hand_settled"), None)
    bets = []
    for r in settled["results"] if settled else ():
        if r.get("player") != player:
            continue
        stake, won, fee = int(r["stake"]), int(r.get("won", 0)), int(r.get("commission", 0))
        back = {"win": stake + won - fee, "push": stake}.get(str(r["result"]), 0)
        bets.append(
            {
                "bet": r["bet"],
                "spot": r.get("spot"),
                "stake": stake,
                "result": r["result"],
                "returned": back,
                "commission": fee,
            }
        )
    outcome: dict[str, Any] = {"kind": "cards"}
    if settled is not None:
        hand = next(
            (
                s["view"]["last_hand"]
                for s in reversed(rnd["steps"])
                if (s["view"].get("last_hand") or {}).get("hand") == settled["hand"]
            ),
            None,
        )
        outcome |= {
            "hand": settled["hand"],
            "winner": settled["outcome"],
            "player_total": settled["player_total"],
            "banker_total": settled["banker_total"],
            "player": list(hand["player"]) if hand else [],
            "banker": list(hand["banker"]) if hand else [],
        }
    return bets, outcome


def _craps(
    rnd: Mapping[str, Any], events: Sequence[Mapping[str, Any]], player: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """CR-1 / CR-2: the roll's dice, the point before and after it, and each of his bets
    the roll decided (``won``: the win beside the stake returned) or left standing."""
    kinds: dict[int, str] = {}
    for s in rnd["steps"]:
        for b in s["view"].get("bets") or ():
            kinds.setdefault(int(b["id"]), str(b["bet"]))
    for e in events:
        if _tail(e["kind"]) == "bet_placed" and "bet_id" in e["data"]:
            kinds[int(e["data"]["bet_id"])] = str(e["data"]["bet"])
    settled = next((e["data"] for e in events if _tail(e["kind"]) == "roll_settled"), None)
    bets = []
    for r in settled["results"] if settled else ():
        if r.get("player") != player:
            continue
        stake, won = int(r["stake"]), int(r.get("won", 0))
        back = {"win": stake + won, "push": stake}.get(str(r["result"]), 0)
        bets.append(
            {
                "bet": kinds.get(int(r["bet"]), str(r["name"])),
                "label": r["name"],
                "spot": None,
                "stake": stake,
                "result": r["result"],
                "returned": back,
            }
        )
    decided = {int(r["bet"]) for r in settled["results"]} if settled else set()
    last_view = rnd["steps"][-1]["view"] if rnd["steps"] else {}
    for b in last_view.get("bets") or ():  # his bets still on the layout after the roll
        if b.get("player") == player and int(b["id"]) not in decided:
            bets.append(
                {
                    "bet": b["bet"],
                    "label": b.get("label"),
                    "spot": b.get("point"),
                    "stake": int(b["amount"]),
                    "result": "stands",
                    "returned": 0,
                }
            )
    throws = [
        {"dice": list(e["data"]["dice"]), "total": sum(e["data"]["dice"])}
        for e in events
        if _tail(e["kind"]) == "dice_thrown"
    ]
    outcome = {
        "kind": "dice",
        "throws": throws,
        "point_before": settled["point_before"] if settled else None,
        "point_after": settled["point_after"] if settled else None,
    }
    return bets, outcome


def _tiles(
    events: Sequence[Mapping[str, Any]], player: str
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """PG-6 / TW-6b: each of his bets on a place against the bank (``net``: after the
    commission), his bank's share if he banked, the banker's dice and the hands as set."""
    settled = next((e["data"] for e in events if _tail(e["kind"]) == "round_settled"), None)
    opened = next((e["data"] for e in events if _tail(e["kind"]) == "bank_opened"), None)
    bets = []
    for r in settled["results"] if settled else ():
        if r.get("player") != player:
            continue
        stake = int(r["amount"])
        bets.append(
            {
                "bet": "place",
                "spot": r.get("seat"),
                "stake": stake,
                "result": r["outcome"],
                "returned": max(0, stake + int(r["net"])),
                "commission": int(r.get("commission", 0)),
            }
        )
    for name, share in settled["bank_shares"] if settled else ():
        if name == player:
            bets.append(
                {
                    "bet": "bank",
                    "spot": opened.get("seat") if opened else None,
                    "stake": None,
                    "result": "bank",
                    "returned": None,
                    "net": int(share),
                }
            )
    dice = next((list(e["data"]["dice"]) for e in events if _tail(e["kind"]) == "dice_shaken"), [])
    banker_seat = opened.get("seat") if opened else None
    my_seats = {b["spot"] for b in bets}
    hands = []
    for seat, front, back in settled.get("settings", ()) if settled else ():
        hands.append(
            {
                "seat": seat,
                "front": list(front),
                "back": list(back),
                "banker": seat == banker_seat,
                "mine": seat in my_seats,
            }
        )
    return bets, {"kind": "tiles", "dice": dice, "hands": hands, "banker_seat": banker_seat}
