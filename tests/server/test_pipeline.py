"""Pipelined commands on SQLite (server/tables.py) and the batch's writes executed together
(store.WriteBatch). A table's commands join the group
commit's queue without waiting for each other's commit, several in one batch; a unit that
fails after its engine changed is repaired before the next unit runs; a lock holder sees
every command queued before it, committed; watchers get each event once, in order."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.engine import Connection

from macau_tables.core.visibility import Viewer
from macau_tables.server import store
from macau_tables.server.app import create_app
from macau_tables.server.checks import verify_ledger
from macau_tables.server.floor import DEMO_DEPOSIT, Floor
from macau_tables.server.tables import Reply, TableActor
from tests.server.conftest import Srv, make_settings, player_command

TABLE = "hilo-1"


def _call(srv: Srv, fn: Callable[[], Awaitable[Any]]) -> Any:
    return srv.client.portal.call(fn)  # type: ignore[union-attr]


def _together(srv: Srv, calls: list[tuple[str, str, dict[str, Any]]]) -> tuple[list[Reply], int]:
    """Send ``calls`` (player, op, args) to the table at once; their replies and the
    number of group-commit batches they took."""
    actor = srv.floor.tables[TABLE]
    group = srv.floor.db.group
    assert group is not None

    async def go() -> tuple[list[Reply], int]:
        before = group.batches
        replies = await asyncio.gather(*(player_command(actor, w, op, a) for w, op, a in calls))
        return list(replies), group.batches - before

    result: tuple[list[Reply], int] = _call(srv, go)
    return result


def _check_consistent(srv: Srv) -> None:
    """The engine in memory is the engine the database rebuilds, its chain verifies at the
    head the database names, and the ledger balances."""
    actor = srv.floor.tables[TABLE]
    assert actor.engine is not None
    rebuilt = srv.floor.db.read_sync(actor.load)  # verifies the chain against the head
    assert [e.hash for e in rebuilt.journal.entries] == [
        e.hash for e in actor.engine.journal.entries
    ]
    assert srv.floor.db.read_sync(verify_ledger) == []


def _wallet(srv: Srv, who: str) -> int:
    return srv.floor.db.read_sync(lambda c: store.balance(c, f"player:{who}"))


def test_a_tables_commands_share_a_batch(lite: Srv) -> None:
    """Three players join one table at once: one batch (under the lock each command
    waited for the commit of the one before: at least three)."""
    replies, batches = _together(
        lite, [(p, "join", {"amount": 1_000}) for p in ("alice", "bob", "carol")]
    )
    assert [r.status for r in replies] == [200, 200, 200]
    assert batches == 1
    seqs = [r.body["seq"] for r in replies]
    assert seqs == sorted(seqs) and len(set(seqs)) == 3  # in the order they were sent
    for p in ("alice", "bob", "carol"):
        assert _wallet(lite, p) == DEMO_DEPOSIT - 1_000
    _check_consistent(lite)


def test_a_unit_that_fails_after_its_engine_changed_is_repaired_before_the_next(
    lite: Srv,
) -> None:
    """Bob's join needs more than his wallet holds: the engine seats him, then the ledger
    refuses (SRV-FUNDS). Carol's join, next in the same batch, must run on the engine
    without Bob — else her entry would chain onto Bob's, which was never recorded."""
    replies, batches = _together(
        lite,
        [
            ("alice", "join", {"amount": 1_000}),
            ("bob", "join", {"amount": DEMO_DEPOSIT + 1}),
            ("carol", "join", {"amount": 2_000}),
        ],
    )
    # one batch, and one more: Bob's refusal recorded under his key, its own transaction
    # (the failed unit's savepoint took the record with it: TableActor._recorded_refusal)
    assert batches == 2
    assert [r.status for r in replies] == [200, 409, 200]
    assert replies[1].body["rule"] == "SRV-FUNDS"
    assert replies[2].body["events"][0]["seq"] == replies[0].body["seq"] + 1
    assert _wallet(lite, "bob") == DEMO_DEPOSIT
    assert _wallet(lite, "carol") == DEMO_DEPOSIT - 2_000
    _check_consistent(lite)
    # and the table goes on
    again = lite.ok("bob", TABLE, "join", {"amount": 500})
    assert again["events"][0]["seq"] == replies[2].body["seq"] + 1
    _check_consistent(lite)


def test_a_batch_whose_commit_fails_leaves_its_tables_as_committed(lite: Srv) -> None:
    """A batch's commit fails (here: a deferred foreign key another unit of the batch
    broke): nothing of it is recorded, the table's engine is rebuilt from what was
    committed before the next batch runs, and the commands after it are recorded."""
    lite.ok("alice", TABLE, "join", {"amount": 1_000})
    actor = lite.floor.tables[TABLE]
    before = actor.seq

    def breaks_the_commit(conn: Connection) -> None:
        dbapi: Any = conn.connection.dbapi_connection
        dbapi.execute("PRAGMA defer_foreign_keys = ON")
        dbapi.execute(
            "INSERT INTO postings (tx_id, account, amount) VALUES ('no-such-tx', 'player:alice', 1)"
        )

    group = lite.floor.db.group
    assert group is not None

    async def go() -> tuple[list[Any], int]:
        before = group.batches
        bob = asyncio.ensure_future(player_command(actor, "bob", "join", {"amount": 1_000}))
        carol = asyncio.ensure_future(player_command(actor, "carol", "join", {"amount": 1_000}))
        await asyncio.sleep(0)  # (their units go first into the queue, then this one)
        broke = asyncio.ensure_future(lite.floor.db.write(breaks_the_commit))
        done = await asyncio.gather(bob, broke, carol, return_exceptions=True)
        return list(done), group.batches - before

    (bob, broke, carol), batches = _call(lite, go)
    assert batches == 0  # the one batch did not commit
    assert isinstance(broke, Exception) and "FOREIGN KEY" in str(broke)
    assert (bob.status, carol.status) == (503, 503)
    assert actor.seq == before  # the engine is what was committed
    assert _wallet(lite, "bob") == DEMO_DEPOSIT
    _check_consistent(lite)
    replies, _ = _together(lite, [(p, "join", {"amount": 700}) for p in ("bob", "carol")])
    assert [r.status for r in replies] == [200, 200]
    assert replies[0].body["events"][0]["seq"] == before + 1
    _check_consistent(lite)


def test_a_lock_holder_sees_every_command_queued_before_it(lite: Srv) -> None:
    """A snapshot asked for after three commands were sent (and before any was
    committed) waits for them: its state is the state after all three."""
    actor = lite.floor.tables[TABLE]
    start = actor.seq

    async def go() -> tuple[list[Reply], dict[str, Any]]:
        sent = [
            asyncio.ensure_future(player_command(actor, p, "join", {"amount": 1_000}))
            for p in ("alice", "bob", "carol")
        ]
        for _ in range(5):  # until the three are in the group commit's queue
            await asyncio.sleep(0)
        assert actor.lock.inflight == 3
        snap = await actor.snapshot(Viewer.SUPERVISOR)
        return list(await asyncio.gather(*sent)), snap

    replies, snap = _call(lite, go)
    assert [r.status for r in replies] == [200, 200, 200]
    assert snap["seq"] == max(r.body["seq"] for r in replies) > start


def test_watchers_get_each_event_once_in_order_then_the_state(lite: Srv) -> None:
    """Commands answered one after another from one batch: the watcher gets every new
    event once, in seq order, and a state whose seq is the last event's."""
    actor = lite.floor.tables[TABLE]

    async def go() -> tuple[list[Reply], list[dict[str, Any]]]:
        sub = await actor.subscribe(Viewer.SUPERVISOR, None)
        while not sub.queue.empty():  # the snapshot
            sub.queue.get_nowait()
        replies = await asyncio.gather(
            *(
                player_command(actor, p, "join", {"amount": 1_000})
                for p in ("alice", "bob", "carol")
            )
        )
        msgs = []
        while not sub.queue.empty():
            msg = sub.queue.get_nowait()
            assert msg is not None
            msgs.append(msg)
        actor.unsubscribe(sub)
        return list(replies), msgs

    replies, msgs = _call(lite, go)
    assert [r.status for r in replies] == [200, 200, 200]
    events = [m["seq"] for m in msgs if m["type"] == "event"]
    last = max(r.body["seq"] for r in replies)
    assert events == list(range(events[0], last + 1))  # once each, in order
    states = [m for m in msgs if m["type"] != "event"]
    assert states and states[-1]["seq"] == last
    # no state older than an event already sent, no event older than a state sent
    seen, stated = -1, -1
    for m in msgs:
        if m["type"] == "event":
            assert m["seq"] > stated
            seen = m["seq"]
        else:
            assert m["seq"] >= seen
            stated = m["seq"]


def test_postings_of_the_pipelined_commands_are_in_the_database(lite: Srv) -> None:
    """Each recorded command is one transaction in the ledger, tied to its journal seq."""
    replies, _ = _together(lite, [(p, "join", {"amount": 1_000}) for p in ("alice", "bob")])
    rows = lite.floor.db.read_sync(
        lambda c: c.execute(
            sa.select(store.transactions_t.c.seq).where(store.transactions_t.c.table_id == TABLE)
        ).all()
    )
    joined = {e["seq"] for r in replies for e in r.body["events"] if e["kind"] == "hilo.joined"}
    assert len(joined) == 2 and joined <= {int(r[0]) for r in rows}


# --- the batch's writes, executed together at its end (store.WriteBatch) --------------


def test_a_batchs_writes_are_executed_together(lite: Srv) -> None:
    """Three bets in one batch: each statement once for all (postings, transactions,
    holds, journal, head, balances, idempotency records), not once per command. (The
    first bets create the accounts: a statement of its own, which splits a batch.)"""
    group = lite.floor.db.group
    assert group is not None
    players = ("alice", "bob", "carol")
    _together(lite, [(p, "join", {"amount": 10_000}) for p in players])
    assert lite.step(TABLE)  # the shuffle: betting opens
    _together(lite, [(p, "bet", {"amount": 100}) for p in players])
    before = group.statements
    replies, batches = _together(lite, [(p, "bet", {"amount": 200}) for p in players])
    assert batches == 1 and [r.status for r in replies] == [200, 200, 200]
    assert group.statements - before <= len(store.WriteBatch.ORDER)
    for p in players:
        assert (
            lite.floor.db.read_sync(lambda c, p=p: store.balance(c, f"stack:{TABLE}:{p}"))
            == 10_000 - 300
        )
    _check_consistent(lite)


def test_a_unit_reads_the_balances_the_batch_has_not_written_yet(lite: Srv) -> None:
    """Alice joins two tables in one batch with more than her wallet holds for both: the
    second join counts the first's debit, still waiting in the batch (SRV-FUNDS), and
    the first is recorded."""
    lite.client.portal.call(lite.floor.create_table, "hilo-2", "hilo", {})  # type: ignore[union-attr]
    one, two = lite.floor.tables["hilo-1"], lite.floor.tables["hilo-2"]

    async def go() -> list[Reply]:
        return list(
            await asyncio.gather(
                player_command(one, "alice", "join", {"amount": 600_000}),
                player_command(two, "alice", "join", {"amount": 600_000}),
            )
        )

    first, second = _call(lite, go)
    assert first.status == 200
    assert (second.status, second.body["rule"]) == (409, "SRV-FUNDS")
    assert _wallet(lite, "alice") == DEMO_DEPOSIT - 600_000
    assert lite.floor.db.read_sync(verify_ledger) == []


def test_a_key_sent_twice_in_one_batch_gets_the_first_answer(lite: Srv) -> None:
    """The same Idempotency-Key twice in one batch: the second answer is the first's,
    byte for byte (its record still waits in the batch), and the join is recorded once."""
    actor = lite.floor.tables[TABLE]

    def join() -> Awaitable[Reply]:
        return player_command(actor, "bob", "join", {"amount": 1_000}, key="twice", req_hash="h")

    async def go() -> list[Reply]:
        return list(await asyncio.gather(join(), join()))

    first, second = _call(lite, go)
    assert first.status == 200
    assert second.content() == first.content()
    assert _wallet(lite, "bob") == DEMO_DEPOSIT - 1_000
    _check_consistent(lite)


def test_a_unit_with_a_statement_of_its_own_fails_alone(tmp_path: Path) -> None:
    """A unit that runs a statement at once (through SQLAlchemy) and then fails: the
    writes the units before it left waiting are executed before its savepoint and kept;
    its own statement is rolled back; the unit after it is kept."""
    from macau_tables.server.db import Database

    db = Database(str(tmp_path / "w.db"))
    try:
        db.write_sync(lambda c: c.execute(sa.text("CREATE TABLE t (v INTEGER)")))
        from macau_tables.server.db import upgrade

        upgrade(db)
        db.write_sync(
            lambda c: c.execute(
                sa.text(
                    "INSERT INTO users (name, role, password_hash, active, created_at) "
                    "VALUES ('u', 'player', 'x', 1, 0)"
                )
            )
        )

        def waits(key: str) -> Callable[[Connection], str]:
            def unit(c: Connection) -> str:
                store.put_idempotent(c, "u", key, "h", 200, {"k": key})
                return key

            return unit

        def direct_then_fails(c: Connection) -> None:
            store.put_idempotent(c, "u", "mine", "h", 200, {})
            c.execute(sa.text("INSERT INTO t VALUES (1)"))
            raise ValueError("refused after writing")

        async def go() -> list[object]:
            return list(
                await asyncio.gather(
                    db.write(waits("a")),
                    db.write(direct_then_fails),
                    db.write(waits("b")),
                    return_exceptions=True,
                )
            )

        a, failed, b = asyncio.run(go())
        assert (a, b) == ("a", "b") and isinstance(failed, ValueError)
        assert db.group is not None and db.group.batches == 1
        keys = db.read_sync(
            lambda c: sorted(r[0] for r in c.execute(sa.text("SELECT key FROM idempotency")))
        )
        assert keys == ["a", "b"]
        assert db.read_sync(lambda c: c.execute(sa.text("SELECT COUNT(*) FROM t")).scalar()) == 0
    finally:
        db.close()


# --- a batch of concurrent commands is the same commands one after another ------------

_PLAYERS = ("alice", "bob", "carol")
_OPS = st.one_of(
    st.tuples(
        st.sampled_from(_PLAYERS),
        st.just("join"),
        st.fixed_dictionaries(
            {"amount": st.sampled_from([1_000, 400_000, 700_000, DEMO_DEPOSIT + 1])}
        ),
    ),
    st.tuples(
        st.sampled_from(_PLAYERS),
        st.just("bet"),
        st.fixed_dictionaries({"amount": st.sampled_from([100, 5_000, 2_000_000])}),
    ),
    st.tuples(
        st.sampled_from(_PLAYERS),
        st.just("withdraw"),
        st.fixed_dictionaries({"bet_id": st.sampled_from(["b0", "b1", "b2"])}),
    ),
    st.tuples(st.sampled_from(_PLAYERS), st.just("leave"), st.just({})),
)


def _tables(floor: Floor) -> list[TableActor]:
    return [floor.tables["hilo-1"], floor.tables["hilo-2"]]


def _run_floor(
    tmp: Path, rounds: list[list[tuple[int, str, str, dict[str, Any]]]], *, together: bool
) -> tuple[list[list[int]], list[list[Any]], dict[str, int]]:
    """``rounds`` of (table, player, op, args) on a new floor with two tables, betting
    open at both: each round sent at once (``together``) or one command after another.
    The statuses, each table's events after the shuffle, and every account's balance."""
    floor = Floor(make_settings(str(tmp / "f.db")))
    with TestClient(create_app(floor=floor)) as client:
        srv = Srv(client, floor, dict(floor.demo_credentials))
        srv.client.portal.call(floor.create_table, "hilo-2", "hilo", {})  # type: ignore[union-attr]
        statuses: list[list[int]] = []
        for t in ("hilo-1", "hilo-2"):
            srv.ok("alice", t, "join", {"amount": 10_000})
            assert srv.step(t)  # the shuffle: betting opens
        start = [a.seq for a in _tables(floor)]

        async def send(batch: list[tuple[int, str, str, dict[str, Any]]]) -> list[int]:
            actors = _tables(floor)
            calls = [player_command(actors[t], who, op, args) for t, who, op, args in batch]
            if together:
                replies = list(await asyncio.gather(*calls))
            else:
                replies = []
                for (t, *_), c in zip(batch, calls, strict=True):
                    replies.append(r := await c)
                    engine = actors[t].engine
                    if r.status == 200 and engine is not None:  # its pending: the engine's now
                        assert r.body["pending"] == [p.to_json() for p in engine.pending()]
            for r in replies:  # the bytes sent are the body rendered (its pending spliced in)
                assert r.content() == store.render(r.body)
            return [r.status for r in replies]

        for batch in rounds:
            statuses.append(srv.client.portal.call(send, batch))  # type: ignore[union-attr]
        for actor in _tables(floor):
            rebuilt = floor.db.read_sync(actor.load)
            assert actor.engine is not None
            assert rebuilt.journal.head == actor.engine.journal.head
        assert floor.db.read_sync(verify_ledger) == []
        events = [
            [e.event.to_json() for e in a.engine.journal.entries[s + 1 :]]  # type: ignore[union-attr]
            for a, s in zip(_tables(floor), start, strict=True)
        ]
        balances = floor.db.read_sync(lambda c: store.balances_like(c, ""))
    return statuses, events, balances


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    rounds=st.lists(
        st.lists(st.tuples(st.integers(0, 1), _OPS), min_size=1, max_size=8),
        min_size=1,
        max_size=3,
    )
)
def test_commands_sent_together_end_as_sent_one_by_one(
    tmp_path_factory: pytest.TempPathFactory,
    rounds: list[list[tuple[int, tuple[str, str, dict[str, Any]]]]],
) -> None:
    """Whatever mix of joins, bets, withdrawals and leaves at two tables — some refused by
    the rules, some by the ledger after the engine changed (a join or a bet the wallet or
    the stack cannot pay) — sending each round's commands at once (pipelined, in one
    batch) ends exactly as sending them one after another: the same answers, the same
    events, the same balances; the ledger verifies and each engine is its journal."""
    plain = [[(t, *op) for t, op in batch] for batch in rounds]
    together = _run_floor(tmp_path_factory.mktemp("together"), plain, together=True)
    one_by_one = _run_floor(tmp_path_factory.mktemp("one"), plain, together=False)
    assert together == one_by_one


@pytest.mark.parametrize("loop_kind", ["asyncio", "uvloop"])
def test_a_batchs_replies_go_out_before_the_next_batchs_units_run(
    tmp_path: Path, loop_kind: str
) -> None:
    """A command's reply is three callbacks from its result (the actor's task, the shield
    around it, the request's task): they all run before the group commit runs the next
    batch's units — with one yield, every reply of a batch waited behind the next batch."""
    import uvloop

    from macau_tables.server.db import Database

    db = Database(str(tmp_path / "r.db"))
    order: list[str] = []

    async def go() -> None:
        loop = asyncio.get_running_loop()
        later: list[asyncio.Task[str]] = []

        def second(_: Connection) -> str:
            order.append("the next batch's unit runs")
            return "second"

        def first(_: Connection) -> str:
            # sent while this batch commits: it is the next batch
            later.append(loop.create_task(db.write(second)))
            return "first"

        async def actor() -> str:  # as TableActor.command: a task, shielded
            return await db.write(first)

        async def request() -> None:  # the request's task: it writes the HTTP answer
            await asyncio.shield(actor())
            order.append("the reply goes out")

        await loop.create_task(request())
        assert await later[0] == "second"

    try:
        (uvloop.run if loop_kind == "uvloop" else asyncio.run)(go())
    finally:
        db.close()
    assert order == ["the reply goes out", "the next batch's unit runs"]
