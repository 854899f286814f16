"""Hypothesis state machine over the HTTP API, on SQLite and on PostgreSQL.

Players (alice, bob) join, bet, withdraw, reveal and leave at ``hilo-1``; the clock steps;
the cashier deposits and withdraws with Idempotency-Keys; earlier keys are sent again, with
the same body (the very bytes first answered, no money moved) and with another one (409
``SRV-IDEM``); the supervisor pauses, resumes and tries to close the table (refused with
``SRV-CLOSE`` while a stack or a wager is not zero; once closed, every command is refused).

The machine keeps a model of every account and of the round (phase, seats, bets, cards);
the cards themselves are the server's RNG, read back from the table's events. It predicts
each answer's status and rule, and checks after every step: the ledger audit is ok, the
accounts sum to zero and equal the model, every hold opened is closed at most once and the
open holds are the model's bets, the view's phase, seats and bets are the model's, and a
refused request moved no balance and journaled no event. Never a 5xx; every error body has
a rule. At the end the round is finished, the players leave and the table closes.

The machine found two departures from docs/server.md ("Idempotency": the same key and
body answer the first response, refusals included), fixed since and pinned by the tests at
the end of this file: a closed table answered a replay "table is closed", and a buy-in
refused by the wallet (SRV-FUNDS) was not recorded, so its key ran again.
"""

from __future__ import annotations

import itertools
import shutil
import sys
import tempfile
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    multiple,
    precondition,
    rule,
    run_state_machine_as_test,
)

from macau_tables.server.app import create_app
from macau_tables.server.floor import Floor
from tests.server import pg
from tests.server.conftest import Srv, make_settings

TABLE = "hilo-1"
PLAYERS = ("alice", "bob")
PEOPLE = ("alice", "bob", "carol")  # the demo players (each MOP 10,000.00 at the start)
MIN_BET, MAX_BET, MAX_AMOUNT = 100, 1_000_000, 10**12
PAYS = {"win": 2, "push": 1, "lose": 0}
WAGERS, HOUSE, CAGE = f"wagers:{TABLE}", f"house:{TABLE}", "cage"

_keys = itertools.count()

join_amounts = st.one_of(
    st.integers(1_000, 60_000),
    st.integers(1_000, 60_000),
    st.integers(1_000, 60_000),
    st.sampled_from([0, -1, 2_000_000, MAX_AMOUNT, 10**13, 10.5, "100"]),
)
bet_amounts = st.one_of(
    st.integers(MIN_BET, 20_000),
    st.integers(MIN_BET, 20_000),
    st.integers(MIN_BET, 20_000),
    st.sampled_from([0, -5, 99, MAX_BET + 1, 10**13, 10.5, "100"]),
)
cash_amounts = st.one_of(
    st.integers(1, 300_000),
    st.integers(1, 300_000),
    st.sampled_from([0, -1, 2_000_000, MAX_AMOUNT + 1, 10.5]),
)


def stack(player: str) -> str:
    return f"stack:{TABLE}:{player}"


def wallet(player: str) -> str:
    return f"player:{player}"


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def new_key(prefix: str) -> str:
    return f"{prefix}-{next(_keys)}"


@dataclass(frozen=True)
class Sent:
    """A request whose answer the server recorded under its Idempotency-Key."""

    who: str
    path: str
    body: dict[str, Any]
    key: str
    status: int
    content: bytes

    def __repr__(self) -> str:  # (short, in hypothesis's reproduction of a failure)
        return f"Sent({self.who} {self.path} {self.body} key={self.key} -> {self.status})"


def other_body(sent: Sent) -> tuple[str, dict[str, Any]]:
    """Another request under the same key: another amount, bet, op or endpoint."""
    body = dict(sent.body)
    if sent.path.startswith("/cashier/"):
        if body["amount"] % 2:
            other = "withdraw" if sent.path.endswith("deposit") else "deposit"
            return f"/cashier/{other}", body
        return sent.path, {**body, "amount": body["amount"] + 1}
    args = dict(body["args"])
    if "amount" in args and is_int(args["amount"]):
        args["amount"] += 1
    elif "bet_id" in args:
        args["bet_id"] = args["bet_id"] + "0"
    else:
        return sent.path, {**body, "op": "reveal" if body["op"] == "leave" else "leave"}
    return sent.path, {**body, "args": args}


class ApiMachine(RuleBasedStateMachine):
    cash_sent = Bundle("cash_sent")
    commands_sent = Bundle("commands_sent")

    def __init__(self, databases: Databases | None) -> None:
        """On SQLite (``databases`` None) a new file, else a new PostgreSQL database."""
        super().__init__()
        self.databases = databases
        self.dir = Path(tempfile.mkdtemp(prefix="macau-sm-api-"))
        self.url = str(self.dir / "floor.db") if databases is None else databases.new()
        # the start-up's checks at start-up: a new floor has no history to check in the
        # background, and that check's worker process (spawned) would cost each example
        # a second of CPU on this 2-core machine
        self.floor = Floor(make_settings(self.url, chain_check="startup"))
        self.client = TestClient(create_app(floor=self.floor))
        self.client.__enter__()
        self.srv = Srv(self.client, self.floor, dict(self.floor.demo_credentials))
        # the model
        self.acct: Counter[str] = Counter(self.balances())
        assert all(self.acct[wallet(p)] == 1_000_000 for p in PEOPLE), self.acct
        self.players_start = self.players_money(self.known)
        self.deposited = self.withdrawn = 0
        self.status = "open"
        self.phase = "idle"
        self.seated: set[str] = set()
        self.bets: dict[str, tuple[str, int]] = {}  # bet_id -> (player, amount), in play
        self.next_bet = 0
        self.cards: set[str] = set()  # who was dealt a card this round
        self.revealed: dict[str, int] = {}  # player -> his card, once revealed
        self.opened: set[str] = set()  # every hold (bet) ever opened
        self.seq = self.events_after(-1)[-1]["seq"]
        self.steps = 0

    # --- the HTTP calls -------------------------------------------------------------------

    def balances(self) -> dict[str, int]:
        """Every account's balance (the zeros left out); kept as ``self.known``."""
        rows = self.floor.db.read_sync(
            lambda c: c.execute(sa.text("SELECT name, balance FROM accounts")).all()
        )
        self.known = {str(n): int(b) for n, b in rows if b}
        return self.known

    def events_after(self, seq: int) -> list[dict[str, Any]]:
        r = self.client.get(
            f"/tables/{TABLE}/events", params={"after": seq}, headers=self.srv.headers("auditor")
        )
        assert r.status_code == 200, r.text
        return list(r.json())

    def post(
        self, who: str, path: str, body: dict[str, Any], key: str | None = None
    ) -> tuple[Any, list[dict[str, Any]]]:
        """POST as ``who``; the answer and the table's new events. Never a 5xx; an error
        has its JSON body and a rule; a refusal moves no balance (and journals nothing:
        the view's ``seq`` stays the model's, ``the_table_is_the_model``)."""
        before = self.known  # (read after every request and clock step: still current)
        r = self.client.post(path, json=body, headers=self.srv.headers(who, key))
        assert r.status_code < 500, (r.status_code, r.text)
        after = self.balances()
        new: list[dict[str, Any]] = []
        if r.status_code >= 400:
            err = r.json()
            assert set(err) == {"error", "rule", "message"}, err
            assert err["rule"], err
            assert after == before, (path, body, r.text)
        elif path.endswith("/commands") and r.json()["seq"] > self.seq:
            new = self.sync()
        return r, new

    def command(
        self, who: str, op: str, args: dict[str, Any], key: str | None = None
    ) -> tuple[Any, list[dict[str, Any]], Sent]:
        key = key or new_key(f"{who}-{op}")
        body = {"op": op, "args": args}
        path = f"/tables/{TABLE}/commands"
        r, new = self.post(who, path, body, key)
        return r, new, Sent(who, path, body, key, r.status_code, r.content)

    def sync(self) -> list[dict[str, Any]]:
        """The table's new events, money events applied to the model (settlements)."""
        new = self.events_after(self.seq)
        for e in new:
            assert e["seq"] > self.seq
            self.seq = e["seq"]
            if e["kind"] == "hilo.card_revealed":
                self.revealed[e["data"]["player"]] = e["data"]["card"]
            elif e["kind"] == "hilo.round_settled":
                self.settle(e["data"])
        return new

    def settle(self, data: dict[str, Any]) -> None:
        assert self.phase == "reveal"
        rows = data["results"]
        assert {r["bet_id"]: (r["player"], r["amount"]) for r in rows} == self.bets
        assert set(self.revealed) == self.cards
        house = data["house"]
        for r in rows:
            card = self.revealed[r["player"]]
            assert r["result"] == ("win" if card > house else "push" if card == house else "lose")
            back = PAYS[r["result"]] * r["amount"]
            self.acct[WAGERS] -= r["amount"]
            self.acct[stack(r["player"])] += back
            self.acct[HOUSE] += r["amount"] - back
        self.bets.clear()
        self.cards.clear()
        self.revealed.clear()
        self.phase = "idle"

    def expect(self, r: Any, status: int, rule: str | None = None) -> None:
        assert r.status_code == status, (status, rule, r.text)
        if rule is not None:
            assert r.json()["rule"] == rule, (rule, r.text)

    def money_on_table(self) -> bool:
        return bool(self.acct[WAGERS]) or any(self.acct[stack(p)] for p in PEOPLE)

    # --- players --------------------------------------------------------------------------

    def refusal_before_engine(self, op: str, amount: Any = 1) -> tuple[int, str, bool] | None:
        """The server's refusal before the engine: (status, rule, recorded)."""
        if isinstance(amount, float) or (is_int(amount) and abs(amount) > 2**53):
            return 422, "SRV-AMOUNT", False  # (not integer avos: never recorded)
        if self.status == "closed":
            return 409, "SRV-STATUS", False
        if self.status == "paused" and op != "leave":
            return 409, "SRV-STATUS", True
        return None

    def pick(self, data: st.DataObject, likely: list[str]) -> str:
        """A player: mostly one of ``likely`` (those for whom the command would make
        progress), if any, else anyone (the refusals)."""
        if likely and data.draw(st.integers(0, 3), label="likely") > 0:
            return data.draw(st.sampled_from(sorted(likely)), label="who")
        return data.draw(st.sampled_from(PLAYERS), label="who")

    @initialize(alice=st.integers(1_000, 60_000), bob=st.none() | st.integers(1_000, 60_000))
    def a_round_begins(self, alice: int, bob: int | None) -> None:
        """(The play starts seated, betting open: the rules then reach settlements.)"""
        self.do_join("alice", alice)
        if bob is not None:
            self.do_join("bob", bob)
        self.tick()

    @rule(target=commands_sent, data=st.data(), amount=join_amounts)
    def join(self, data: st.DataObject, amount: Any) -> Any:
        return self.do_join(self.pick(data, [p for p in PLAYERS if p not in self.seated]), amount)

    def do_join(self, who: str, amount: Any) -> Any:
        self.steps += 1
        r, _, sent = self.command(who, "join", {"amount": amount})
        if (early := self.refusal_before_engine("join", amount)) is not None:
            self.expect(r, *early[:2])
            return sent if early[2] else multiple()
        if who in self.seated:
            self.expect(r, 409, "HL-0")
        elif not is_int(amount) or not 0 < amount <= MAX_AMOUNT:
            self.expect(r, 422, "HL-1")
        elif amount > self.acct[wallet(who)]:
            self.expect(r, 409, "SRV-FUNDS")  # recorded (test_a_refused_buy_in_…)
            return sent
        else:
            self.expect(r, 200)
            self.seated.add(who)
            self.acct[wallet(who)] -= amount
            self.acct[stack(who)] += amount
        return sent

    @rule(target=commands_sent, data=st.data(), amount=bet_amounts)
    def bet(self, data: st.DataObject, amount: Any) -> Any:
        betting = self.phase == "betting" and self.status == "open"
        return self.do_bet(self.pick(data, sorted(self.seated) if betting else []), amount)

    def do_bet(self, who: str, amount: Any) -> Any:
        self.steps += 1
        r, new, sent = self.command(who, "bet", {"amount": amount})
        if (early := self.refusal_before_engine("bet", amount)) is not None:
            self.expect(r, *early[:2])
            return sent if early[2] else multiple()
        if who not in self.seated:
            self.expect(r, 409, "HL-0")
        elif self.phase != "betting":
            self.expect(r, 409, "HL-1")
        elif not is_int(amount) or not 0 < amount <= MAX_AMOUNT:
            self.expect(r, 422, "HL-1")
        elif not MIN_BET <= amount <= MAX_BET or amount > self.acct[stack(who)]:
            self.expect(r, 409, "HL-1")
        else:
            self.expect(r, 200)
            bet_id = f"b{self.next_bet}"
            [placed] = [e["data"] for e in new if e["kind"] == "hilo.bet_placed"]
            assert placed == {"table_id": TABLE, "bet_id": bet_id, "player": who, "amount": amount}
            self.next_bet += 1
            self.bets[bet_id] = (who, amount)
            self.opened.add(bet_id)
            self.acct[stack(who)] -= amount
            self.acct[WAGERS] += amount
        return sent

    @rule(target=commands_sent, data=st.data())
    def withdraw(self, data: st.DataObject) -> Any:
        who = self.pick(data, sorted({p for p, _ in self.bets.values()}))
        mine = sorted(b for b, (p, _) in self.bets.items() if p == who)
        if mine and data.draw(st.integers(0, 3), label="likely") > 0:
            bet_id = data.draw(st.sampled_from(mine), label="bet_id")
        else:
            bet_id = f"b{data.draw(st.integers(0, 6), label='n')}"
        self.steps += 1
        r, _, sent = self.command(who, "withdraw", {"bet_id": bet_id})
        if (early := self.refusal_before_engine("withdraw")) is not None:
            self.expect(r, *early[:2])
            return sent if early[2] else multiple()
        if self.bets.get(bet_id, ("", 0))[0] != who or self.phase != "betting":
            self.expect(r, 409, "HL-1")
        else:
            self.expect(r, 200)
            _, amount = self.bets.pop(bet_id)
            self.acct[WAGERS] -= amount
            self.acct[stack(who)] += amount
        return sent

    @rule(target=commands_sent, data=st.data())
    def reveal(self, data: st.DataObject) -> Any:
        return self.do_reveal(self.pick(data, sorted(self.cards - set(self.revealed))))

    def do_reveal(self, who: str) -> Any:
        self.steps += 1
        # (predicted before: the last card revealed settles the round, and sync clears it)
        may = self.phase == "reveal" and who in self.cards and who not in self.revealed
        last = may and set(self.revealed) | {who} == self.cards
        r, new, sent = self.command(who, "reveal", {})
        if (early := self.refusal_before_engine("reveal")) is not None:
            self.expect(r, *early[:2])
            return sent if early[2] else multiple()
        if not may:
            self.expect(r, 409, "HL-3")
        else:
            self.expect(r, 200)
            assert [e["kind"] for e in new][:1] == ["hilo.card_revealed"], new
            settled = [e for e in new if e["kind"] == "hilo.round_settled"]
            assert len(settled) == (1 if last else 0), new
        return sent

    @rule(target=commands_sent, who=st.sampled_from(PLAYERS))
    def leave(self, who: str) -> Any:
        return self.do_leave(who)

    def do_leave(self, who: str) -> Any:
        self.steps += 1
        r, _, sent = self.command(who, "leave", {})
        if (early := self.refusal_before_engine("leave")) is not None:
            self.expect(r, *early[:2])
            return sent if early[2] else multiple()
        if who not in self.seated:
            self.expect(r, 409, "HL-0")
        elif any(p == who for p, _ in self.bets.values()):
            self.expect(r, 409, "HL-5")
        else:
            self.expect(r, 200)
            self.seated.discard(who)
            self.acct[wallet(who)] += self.acct[stack(who)]
            self.acct[stack(who)] = 0
        return sent

    # --- the clock ------------------------------------------------------------------------

    @rule(n=st.integers(1, 2))
    def clock(self, n: int) -> None:
        for _ in range(n):
            self.tick()

    def tick(self) -> None:
        """One step of the table's clock (``TableActor.step``), its outcome predicted."""
        self.steps += 1
        before = self.known
        phase = self.phase
        waiting = {f"player:{p}" for p in self.cards - set(self.revealed)}
        if self.status == "closed":
            moves = False
        elif phase == "idle":  # the dealer shuffles (not while paused)
            moves = self.status == "open"
        elif phase == "betting":  # the dealer deals (not while paused), if anyone bet
            moves = self.status == "open" and bool(self.bets)
        else:  # the rules reveal the cards still face down — not while paused: a paused
            # table's clock waits (its round goes on once resumed)
            moves = self.status == "open"
        assert self.srv.step(TABLE) is moves
        new = self.sync() if moves else []
        after = self.balances()
        if not moves:
            assert new == [] and after == before
        elif phase == "idle":
            self.phase = "betting"
            assert [e["kind"] for e in new] == ["table.seed_committed"], new
        elif phase == "betting":
            self.phase = "reveal"
            self.cards = {p for p, _ in self.bets.values()}
            dealt = {e["data"]["player"] for e in new if e["kind"] == "hilo.card_dealt"}
            assert dealt == self.cards
            assert after == before
        else:
            assert self.phase == "idle"  # settled (sync)
            timed = [e["data"]["actor"] for e in new if e["kind"] == "table.timed_out"]
            assert sorted(timed) == sorted(waiting), new  # each card still down, once

    @rule(
        amounts=st.lists(st.integers(MIN_BET, 5_000), min_size=len(PLAYERS), max_size=len(PLAYERS)),
        reveal=st.booleans(),
    )
    def a_whole_round(self, amounts: list[int], reveal: bool) -> None:
        """The steps of a round in a row, each predicted as alone: the shuffle if due,
        each seated player's bet, the deal, the cards revealed (by their players, or by
        the clock at its next step), the settlement."""
        if self.phase == "idle":
            self.tick()
        for who, amount in zip(sorted(self.seated), amounts, strict=False):
            self.do_bet(who, amount)
        self.tick()
        if reveal:
            for who in sorted(self.cards - set(self.revealed)):
                self.do_reveal(who)
        self.tick()

    # --- the cashier ----------------------------------------------------------------------

    @rule(
        target=cash_sent,
        direction=st.sampled_from(["deposit", "withdraw"]),
        player=st.sampled_from([*PLAYERS, *PLAYERS, "carol", "zed", "dealer"]),
        amount=cash_amounts,
    )
    def cashier(self, direction: str, player: str, amount: Any) -> Any:
        self.steps += 1
        key = new_key("cash")
        path = f"/cashier/{direction}"
        body = {"player": player, "amount": amount}
        r, _ = self.post("cashier", path, body, key)
        sent = Sent("cashier", path, body, key, r.status_code, r.content)
        if not is_int(amount) or not 0 < amount <= MAX_AMOUNT:
            self.expect(r, 422, "SRV-INPUT")
            return multiple()
        if player not in PEOPLE:
            self.expect(r, 404, "SRV-PLAYER")
            return multiple()
        if direction == "withdraw" and amount > self.acct[wallet(player)]:
            self.expect(r, 409, "SRV-FUNDS")
            return sent
        sign = 1 if direction == "deposit" else -1
        self.acct[wallet(player)] += sign * amount
        self.acct[CAGE] -= sign * amount
        if sign > 0:
            self.deposited += amount
        else:
            self.withdrawn += amount
        self.expect(r, 200)
        assert r.json() == {"account": wallet(player), "balance": self.acct[wallet(player)]}
        return sent

    # --- the same key again ---------------------------------------------------------------

    @rule(sent=st.one_of(cash_sent, commands_sent), same=st.booleans())
    def replay(self, sent: Sent, same: bool) -> None:
        if same:
            self.replay_same(sent)
        else:
            self.replay_other(sent)

    def replay_same(self, sent: Sent) -> None:
        """The first answer, byte for byte, and nothing runs again."""
        self.steps += 1
        before = self.known
        r, new = self.post(sent.who, sent.path, sent.body, sent.key)
        assert new == [] and self.known == before
        # (a closed table too: test_a_replay_at_a_closed_table_answers_the_first_response)
        assert (r.status_code, r.content) == (sent.status, sent.content), (sent, r.text)

    def replay_other(self, sent: Sent) -> None:
        """Another body under a used key: 409 SRV-IDEM (at a closed table too: the key is
        looked up before the table's status refuses)."""
        self.steps += 1
        path, body = other_body(sent)
        r, _ = self.post(sent.who, path, body, sent.key)
        self.expect(r, 409, "SRV-IDEM")

    # --- the supervisor -------------------------------------------------------------------

    def control(self, verb: str) -> Any:
        r, new = self.post("supervisor", f"/tables/{TABLE}/{verb}", {"reason": f"sm {verb}"})
        assert new == []
        return r

    @rule(verb=st.sampled_from(["pause", "resume"]))
    def pause_or_resume(self, verb: str) -> None:
        self.steps += 1
        before = self.known
        r = self.control(verb)
        if self.status == "closed":
            self.expect(r, 409, "SRV-STATUS")
            return
        self.expect(r, 200)
        self.status = "paused" if verb == "pause" else "open"
        assert r.json()["status"] == self.status
        assert self.known == before

    # an accepted close ends the example's play: tried at an empty table only after a while
    @precondition(lambda self: self.money_on_table() or self.steps >= 12)
    @rule()
    def close(self) -> None:
        self.steps += 1
        before = self.known
        r = self.control("close")
        if self.status == "closed":  # closing a closed table again: it stays closed
            assert r.status_code in (200, 409), r.text
            if r.status_code == 200:
                assert r.json()["status"] == "closed"
        elif self.money_on_table():
            self.expect(r, 409, "SRV-CLOSE")
            message = r.json()["message"]
            for account in (WAGERS, *(stack(p) for p in PEOPLE)):
                assert (account in message) == bool(self.acct[account]), (account, message)
        else:
            self.expect(r, 200)
            assert r.json()["status"] == "closed"
            self.status = "closed"
        assert self.known == before

    # --- invariants -----------------------------------------------------------------------

    @invariant()
    def ledger_is_whole(self) -> None:
        r = self.client.get("/audit/ledger", headers=self.srv.headers("auditor"))
        assert r.status_code == 200 and r.json() == {"ok": True, "problems": []}, r.text
        balances = self.known  # (read after every request and clock step)
        assert sum(balances.values()) == 0  # the cage + every other account
        assert balances == {a: b for a, b in self.acct.items() if b}
        # the players' money moves only by the cashier and the house's result
        players = self.players_money(balances)
        assert players == (
            self.players_start + self.deposited - self.withdrawn - balances.get(HOUSE, 0)
        )
        assert all(b >= 0 for a, b in balances.items() if a.startswith(("player:", "stack:")))

    @staticmethod
    def players_money(balances: dict[str, int]) -> int:
        return sum(b for a, b in balances.items() if a.startswith(("player:", "stack:", "wagers:")))

    @invariant()
    def holds_close_at_most_once(self) -> None:
        def read(c: Any) -> tuple[list[str], list[str]]:
            opened = c.execute(sa.text("SELECT table_id, hold_id FROM holds_opened")).all()
            closed = c.execute(sa.text("SELECT table_id, hold_id FROM holds_closed")).all()
            return [f"{t}/{h}" for t, h in opened], [f"{t}/{h}" for t, h in closed]

        opened, closed = self.floor.db.read_sync(read)
        assert len(set(opened)) == len(opened) and len(set(closed)) == len(closed)
        assert set(closed) <= set(opened)
        assert set(opened) == {f"{TABLE}/{b}" for b in self.opened}
        assert set(opened) - set(closed) == {f"{TABLE}/{b}" for b in self.bets}

    @invariant()
    def the_table_is_the_model(self) -> None:
        r = self.client.get(f"/tables/{TABLE}/view", headers=self.srv.headers("supervisor"))
        assert r.status_code == 200, r.text
        snap = r.json()
        assert snap["seq"] == self.seq  # (no event the model did not read)
        assert snap["status"] == self.status
        view = snap["view"]
        assert view["phase"] == self.phase
        assert view["players"] == sorted(self.seated)
        assert {b["bet_id"]: (b["player"], b["amount"]) for b in view["bets"]} == self.bets

    # --- the end --------------------------------------------------------------------------

    def teardown(self) -> None:
        try:
            if sys.exc_info()[0] is None:  # (after a failure: only the clean-up)
                self.wind_down()
        finally:
            self.client.__exit__(None, None, None)
            shutil.rmtree(self.dir, ignore_errors=True)
            if self.databases is not None:
                self.databases.drop(self.url)

    def wind_down(self) -> None:
        """Every round finishes (each hold closed once), the players leave, the table
        closes — unless it was closed already."""
        if self.status == "closed":
            assert not self.money_on_table()
            return
        if self.status == "paused":
            self.pause_or_resume("resume")
        for _ in range(3):
            if self.bets:
                self.tick()
        assert not self.bets and self.phase != "reveal"
        for who in sorted(self.seated):
            self.do_leave(who)
        self.holds_close_at_most_once()
        self.close()
        assert self.status == "closed"
        self.ledger_is_whole()
        self.the_table_is_the_model()


class Databases:
    """Fresh PostgreSQL databases for the examples, on the session's throwaway cluster
    (tests/server/pg.py): each a copy of the session's migrated database, the next one made
    in a thread while an example runs (a CREATE DATABASE takes ~0.1–0.4 s here), and each
    dropped there after its example."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="sm-api-pg")
        self.next: Future[str] | None = None
        self.drops: list[Future[None]] = []

    def new(self) -> str:
        made = self.next or self.pool.submit(pg.new_database, True)
        self.next = self.pool.submit(pg.new_database, True)
        return made.result()

    def drop(self, url: str) -> None:
        self.drops.append(self.pool.submit(drop_database, url))

    def close(self) -> None:
        if self.next is not None:
            self.drop(self.next.result())
        self.pool.shutdown(wait=True)
        for f in self.drops:
            f.result()


def drop_database(url: str) -> None:
    with pg.admin() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')


SETTINGS = settings(
    max_examples=15,
    stateful_step_count=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_api_as_a_state_machine(kind: str) -> None:
    """A new floor per example: a new SQLite file, or a new PostgreSQL database (on the
    session's throwaway cluster, tests/server/pg.py)."""
    if kind == "sqlite":
        run_state_machine_as_test(lambda: ApiMachine(None), settings=SETTINGS)
        return
    databases = Databases()
    try:
        run_state_machine_as_test(lambda: ApiMachine(databases), settings=SETTINGS)
    finally:
        databases.close()


# --- what the machine found: the same key and body must answer the first response --------
# (docs/server.md, "Idempotency": "the same key with the same body returns the first response
# (status and body, refusals included) without running anything again — byte for byte")


def test_a_replay_at_a_closed_table_answers_the_first_response(srv: Srv) -> None:
    """A player's cash-out whose answer was lost, sent again once the table closed: the
    recorded 200, not "table is closed" — which tells him his leave did not run (his chips
    are in his wallet). ``TableActor._run`` refused a closed table before its unit looked
    the key up (a paused table answered from the record)."""
    srv.ok("alice", TABLE, "join", {"amount": 500})
    first = srv.cmd("alice", TABLE, "leave", key="leave-1")
    assert first.status_code == 200, first.text
    h = srv.headers("supervisor")
    r = srv.client.post(f"/tables/{TABLE}/close", json={"reason": "end of shift"}, headers=h)
    assert r.status_code == 200, r.text
    again = srv.cmd("alice", TABLE, "leave", key="leave-1")
    assert (again.status_code, again.content) == (first.status_code, first.content), again.text


def test_a_refused_buy_in_is_answered_again_not_run_again(srv: Srv) -> None:
    """A buy-in refused for want of funds (409 SRV-FUNDS), sent again with its key after a
    deposit: the recorded refusal, and no money moves — as the cashier's own SRV-FUNDS is
    answered again. The refusal is raised by the posting inside the unit, which rolled
    its record back: the same key and body ran as a new command (MOP 15,000.00 moved to
    the table by a "replay"); ``TableActor._recorded_refusal`` records it now."""
    first = srv.cmd("alice", TABLE, "join", {"amount": 1_500_000}, key="join-1")
    assert (first.status_code, first.json()["rule"]) == (409, "SRV-FUNDS")
    srv.deposit("alice", 1_000_000)
    again = srv.cmd("alice", TABLE, "join", {"amount": 1_500_000}, key="join-1")
    assert (again.status_code, again.content) == (first.status_code, first.content), again.text
    r = srv.client.get("/wallet", headers=srv.headers("alice"))
    assert r.json() == {"wallet": 2_000_000, "stacks": {}}


# --- what the machine found: a paused table's clock waits, the cards face down included ----


def test_a_paused_tables_clock_waits_even_for_the_cards_face_down(srv: Srv) -> None:
    """A hand dealt, then the table paused: the clock reveals nothing (no money moves at a
    paused table, docs/operations.md); once resumed its next step does. (The machine's model
    had the clock reveal while paused; the server never did.)"""
    srv.ok("alice", TABLE, "join", {"amount": 500})
    assert srv.step(TABLE)  # the dealer shuffles
    srv.ok("alice", TABLE, "bet", {"amount": 100})
    assert srv.step(TABLE)  # the deal: alice's card face down
    control = "/tables/{}/{}"
    for verb, moves in (("pause", False), ("resume", True)):
        r = srv.client.post(
            control.format(TABLE, verb),
            json={"reason": verb},
            headers=srv.headers("supervisor", new_key(verb)),
        )
        assert r.status_code == 200, r.text
        seq = srv.floor.tables[TABLE].seq
        assert srv.step(TABLE) is moves
        assert (srv.floor.tables[TABLE].seq > seq) is moves
