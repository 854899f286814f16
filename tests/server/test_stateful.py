"""Hypothesis state machine: random commands (refused ones included) and clock steps keep
the ledger at zero, every hold opened once and closed at most once, wallets and stacks
non-negative, and the database equal to the journal's money; at the end every hold is
settled or refunded exactly once."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from macau_tables.games.contract import Actor
from macau_tables.server.checks import table_money_problems, verify_ledger
from macau_tables.server.floor import Floor
from tests.server.conftest import make_settings

PLAYERS = ("alice", "bob", "carol")
amounts = st.one_of(
    st.integers(-5, 5),
    st.integers(90, 2_000),
    st.sampled_from([10**6, 2 * 10**6, 10**13]),
    st.floats(0.5, 10.5),
    st.just("100"),
)


class FloorMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="macau-sm-"))
        self.loop = asyncio.new_event_loop()
        self.floor = Floor(make_settings(str(self.dir / "f.db")))
        self.run(self.floor.start())
        self.table = self.floor.tables["hilo-1"]

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def command(self, who: str, op: str, args: dict[str, Any]) -> int:
        actor = Actor.player(who)
        reply = self.run(
            self.table.command(actor, op, args, user=who, viewer=actor.viewer(), key=None)
        )
        assert reply.status < 500, reply.body
        assert reply.status == 200 or set(reply.body) == {"error", "rule", "message"}
        return reply.status

    @rule(who=st.sampled_from(PLAYERS), amount=amounts)
    def join(self, who: str, amount: Any) -> None:
        self.command(who, "join", {"amount": amount})

    @rule(who=st.sampled_from(PLAYERS), amount=amounts)
    def bet(self, who: str, amount: Any) -> None:
        self.command(who, "bet", {"amount": amount})

    @rule(who=st.sampled_from(PLAYERS), n=st.integers(0, 12))
    def withdraw(self, who: str, n: int) -> None:
        self.command(who, "withdraw", {"bet_id": f"b{n}"})

    @rule(who=st.sampled_from(PLAYERS))
    def reveal(self, who: str) -> None:
        self.command(who, "reveal", {})

    @rule(who=st.sampled_from(PLAYERS))
    def leave(self, who: str) -> None:
        self.command(who, "leave", {})

    @rule()
    def clock(self) -> None:
        self.run(self.table.step())

    @rule(who=st.sampled_from(PLAYERS), op=st.sampled_from(["time_out", "shuffle", "deal"]))
    def not_theirs(self, who: str, op: str) -> None:
        assert self.command(who, op, {}) in (403, 409, 422)

    def read(self, fn: Any) -> Any:
        return self.floor.db.read_sync(fn)

    @invariant()
    def ledger_is_whole(self) -> None:
        assert self.read(verify_ledger) == []
        table = self.table
        assert self.read(lambda c: table_money_problems(c, table.table_id, table.engine)) == []
        negative = self.read(
            lambda c: c.execute(
                sa.text(
                    "SELECT COUNT(*) FROM accounts WHERE balance < 0 "
                    "AND (name LIKE 'player:%' OR name LIKE 'stack:%')"
                )
            ).scalar_one()
        )
        assert negative == 0

    def open_holds(self) -> int:
        return int(
            self.read(
                lambda c: c.execute(
                    sa.text(
                        "SELECT COUNT(*) FROM holds_opened o LEFT JOIN holds_closed c "
                        "ON c.hold_id = o.hold_id AND c.table_id = o.table_id "
                        "WHERE c.hold_id IS NULL"
                    )
                ).scalar_one()
            )
        )

    def teardown(self) -> None:
        try:
            for _ in range(50):  # the clock finishes every round: each hold closes once
                if self.open_holds() == 0:
                    break
                self.run(self.table.step())
            assert self.open_holds() == 0
            self.ledger_is_whole()
        finally:
            self.run(self.floor.stop())
            self.loop.close()
            shutil.rmtree(self.dir, ignore_errors=True)


FloorMachine.TestCase.settings = settings(
    max_examples=12,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestFloorMachine = FloorMachine.TestCase
