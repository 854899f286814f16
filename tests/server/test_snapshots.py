"""Snapshots at the server (docs/server.md, "Snapshots"): every ``checkpoint_every`` entries
a table journals its state's digest and stores the state; its engine keeps only the
entries since an earlier checkpoint; a restart starts it from the latest safe snapshot —
the same table, every event still served from the database, a snapshot or an old entry
edited behind the server's back locks the table (SQLite and PostgreSQL)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from macau_tables.core import snapshot
from macau_tables.core.rng import Rng
from macau_tables.core.visibility import Viewer
from macau_tables.games.contract import _ROUND_MARKS, RoundMark, Snapshotting
from macau_tables.server.app import create_app
from macau_tables.server.bots import _STRATEGIES
from macau_tables.server.floor import Floor
from tests.server.conftest import Srv, make_settings, wait_checked
from tests.server.play import new_table
from tests.server.test_recovery import tamper

EVERY = 10


def play(srv: Srv, table: str, players: list[str], rounds: int, max_steps: int = 2000) -> None:
    """``tests.server.play.play``, the rounds counted from the table's new entries as they
    come (not by a recall per step, which re-runs the journal: quadratic)."""
    actor = srv.floor.tables[table]
    strategy = _STRATEGIES[actor.game.name]
    rng = Rng.seeded(b"snapshot-tests")
    ended, seen = 0, len(actor.engine.journal) if actor.engine is not None else 0
    for _ in range(max_steps):
        engine = srv.floor.tables[table].engine
        assert engine is not None
        for e in engine.journal.entries[max(seen - engine.journal.first, 0) :]:
            ended += _ROUND_MARKS.get(e.event.kind) in (RoundMark.SETTLE, RoundMark.VOID)
        seen = len(engine.journal)
        if ended >= rounds:
            return
        for p in players:
            snap = srv.client.get(f"/tables/{table}/view", headers=srv.headers(p)).json()
            move = strategy(snap["view"], snap["pending"], p, rng)
            if move is not None:
                srv.cmd(p, table, move.op, move.args)
        srv.step(table)
    raise AssertionError(f"{table}: {rounds} rounds not played in {max_steps} steps")


@contextmanager
def floor_at(url: str, creds: dict[str, str] | None = None, **settings: Any) -> Iterator[Srv]:
    floor = Floor(make_settings(url, checkpoint_every=EVERY, **settings))
    with TestClient(create_app(floor=floor)) as client:
        yield Srv(client, floor, creds or dict(floor.demo_credentials))


@contextmanager
def restart(srv: Srv, **settings: Any) -> Iterator[Srv]:
    """Stop ``srv``'s app and start a new floor on its database (:func:`floor_at`)."""
    url = srv.floor.settings.database_url
    assert url is not None
    srv.client.__exit__(None, None, None)
    with floor_at(url, srv.creds, **settings) as again:
        yield again


@pytest.fixture
def snap_srv(database_url: str) -> Iterator[Srv]:
    with floor_at(database_url) as s:
        yield s


def stored(srv: Srv, table: str) -> list[int]:
    rows = srv.floor.db.read_sync(
        lambda c: c.execute(
            sa.text("SELECT seq FROM snapshots WHERE table_id = :t ORDER BY seq"), {"t": table}
        ).all()
    )
    return [int(r[0]) for r in rows]


def forge(srv: Srv, table: str, seqs: list[int]) -> None:
    """Edit the baccarat snapshots stored at ``seqs`` behind the server's back: a player's
    chips raised by 100."""

    def edit(c: sa.Connection) -> None:
        for seq in seqs:
            text = c.execute(
                sa.text("SELECT state FROM snapshots WHERE table_id = :t AND seq = :s"),
                {"t": table, "s": seq},
            ).scalar_one()
            state = snapshot.decode(__import__("json").loads(text))
            stacks = state["stacks"]
            stacks[next(iter(stacks))] += 100
            c.execute(
                sa.text("UPDATE snapshots SET state = :x WHERE table_id = :t AND seq = :s"),
                {"x": snapshot.text(snapshot.encode(state)), "t": table, "s": seq},
            )

    srv.floor.db.write_sync(edit)


def all_events(srv: Srv, table: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    after = -1
    while True:
        r = srv.client.get(
            f"/tables/{table}/events?after={after}&limit=37", headers=srv.headers("auditor")
        )
        assert r.status_code == 200, r.text
        page = r.json()
        if not page:
            return out
        out += page
        after = page[-1]["seq"]


@pytest.mark.parametrize("game", ["baccarat", "craps", "paigow", "taiwan"])
def test_a_table_starts_again_from_its_snapshot_as_it_was(snap_srv: Srv, game: str) -> None:
    """A table played past several checkpoints keeps only its window; the database serves
    every entry; its recalls from a snapshot are those of the whole journal
    (:func:`check_table_recalls`, :func:`check_player_recalls`); restarted, it starts from a
    stored snapshot, the same table, and plays on."""
    srv = snap_srv
    t = new_table(srv, game)
    play(srv, t, ["alice", "bob"], rounds=12)
    actor = srv.floor.tables[t]
    engine = actor.engine
    assert isinstance(engine, Snapshotting)
    journal = engine.journal  # type: ignore[attr-defined]
    seqs = stored(srv, t)
    assert journal.first > 0 and journal.kept < len(journal)  # the engine let go of the rest
    # the last three are kept, and the one the engine's window starts from (its base)
    assert len(seqs) >= 2 and journal.first in seqs
    state, head, length = engine.snapshot_state(), journal.head, len(journal)
    events = all_events(srv, t)
    assert [e["seq"] for e in events] == list(range(length))  # the database serves them all
    assert sum(e["kind"] == "table.checkpoint" for e in events) > len(seqs)  # older let go
    views = {
        p: srv.client.get(f"/tables/{t}/view", headers=srv.headers(p)).json()
        for p in ("alice", "bob")
    }
    check_table_recalls(srv, t)
    check_player_recalls(srv, t)
    with restart(srv) as again:
        assert again.floor.recovery.locked == {}
        restarted = again.floor.tables[t].engine
        assert isinstance(restarted, Snapshotting)
        assert restarted.journal.first in seqs  # type: ignore[attr-defined]
        if restarted.journal.head == head:  # nothing driven at start-up
            assert restarted.snapshot_state() == state
            for p, view in views.items():
                got = again.client.get(f"/tables/{t}/view", headers=again.headers(p)).json()
                assert got["view"] == view["view"]
        assert all_events(again, t)[:length] == events
        led = again.client.get("/audit/ledger", headers=again.headers("auditor")).json()
        assert led["ok"], led
        play(again, t, ["alice", "bob"], rounds=2)  # and it plays on


def test_a_forged_snapshot_locks_the_table(snap_srv: Srv) -> None:
    """A stored snapshot edited (a player's chips raised): the restart re-derives the
    checkpoint's digest from it, finds another, and locks the table naming the entry."""
    srv = snap_srv
    t = new_table(srv, "baccarat")
    play(srv, t, ["alice", "bob"], rounds=12)
    forge(srv, t, stored(srv, t))
    with restart(srv) as again:
        reason = again.floor.recovery.locked.get(t, "")
        assert "entry" in reason and ("checkpoint" in reason or "digest" in reason), reason
        assert again.floor.tables[t].status == "locked"


@pytest.mark.parametrize("check", ["startup", "background"])
def test_an_entry_edited_before_the_snapshot_locks_the_table(snap_srv: Srv, check: str) -> None:
    """The entries before the snapshot are not re-run, but their chain is checked: before
    the table opens (``chain_check="startup"``), or by the floor's background check, in a
    worker process, once the tables are open (the default): the table is then locked, with
    the reason, and the other tables play on."""
    srv = snap_srv
    t = new_table(srv, "craps")
    other = new_table(srv, "baccarat")
    play(srv, t, ["alice", "bob"], rounds=12)
    play(srv, other, ["alice", "bob"], rounds=4)
    assert min(stored(srv, t)) > 3 and min(stored(srv, other)) > 0
    tamper(
        srv,
        "journal",
        f"UPDATE journal SET event = REPLACE(event, 'alice', 'carol') "
        f"WHERE table_id = '{t}' AND seq = 2",
    )
    with restart(srv, chain_check=check) as again:
        if check == "background":
            assert again.floor.tables[t].status == "open"  # (it opened at once)
            health = again.client.get("/health").json()
            assert health["chains_pending"] == sorted([t, other]) or again.floor.chains_checked
            deadline = time.monotonic() + 60
            while again.floor.chains_pending() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert again.client.get("/health").json()["chains_pending"] == []
            assert again.floor.chains_checked == 1  # the baccarat table's verified
        reason = again.floor.recovery.locked.get(t, "")
        assert "entry 2" in reason, reason
        assert again.floor.tables[t].status == "locked"
        health = again.client.get("/health").json()  # (the reason is for staff)
        assert health["locked"][t] == again.floor.tables[t].public_reason() != reason
        assert other not in again.floor.recovery.locked
        assert again.floor.tables[other].status == "open"
        # the verified chain is not checked again: a rebuild checks only what is new
        actor = again.floor.tables[other]
        assert actor.chain_checked > 0 and actor.chain_job is None


@pytest.mark.parametrize("check", ["startup", "background"])
def test_a_posting_edited_before_the_snapshot_locks_the_table(snap_srv: Srv, check: str) -> None:
    """The ledger's rows of the entries before the snapshot are compared with what those
    entries moved. A transaction's two postings each moved by 100 and the cached balances
    moved to match: the ledger's own checks pass — only the journal tells. The table is
    locked, before it opens or by the background check, and a supervisor's unlock is
    refused while it does not verify; the other table plays on."""
    srv = snap_srv
    t = new_table(srv, "craps")
    other = new_table(srv, "baccarat")
    play(srv, t, ["alice", "bob"], rounds=12)
    play(srv, other, ["alice", "bob"], rounds=2)
    first = min(stored(srv, t))
    legs = srv.floor.db.read_sync(
        lambda c: c.execute(
            sa.text(
                "SELECT p.id, p.account, p.amount FROM postings p "
                "JOIN transactions x ON x.id = p.tx_id "
                "WHERE x.table_id = :t AND x.seq < :first AND x.n_postings = 2 "
                "AND p.tx_id = (SELECT y.id FROM transactions y WHERE y.table_id = :t "
                "AND y.seq < :first AND y.n_postings = 2 ORDER BY y.seq LIMIT 1)"
            ),
            {"t": t, "first": first},
        ).all()
    )
    assert len(legs) == 2 and legs[0].amount == -legs[1].amount != 0
    for leg in legs:
        step = 100 if leg.amount > 0 else -100
        tamper(srv, "postings", f"UPDATE postings SET amount = amount + {step} WHERE id = {leg.id}")
        srv.floor.db.write_sync(
            lambda c, leg=leg, step=step: c.execute(
                sa.text("UPDATE accounts SET balance = balance + :d WHERE name = :n"),
                {"d": step, "n": leg.account},
            )
        )
    with restart(srv, chain_check=check) as again:
        if check == "background":
            assert again.floor.tables[t].status == "open"  # (it opened at once)
            wait_checked(again)
        reason = again.floor.recovery.locked.get(t, "")
        assert reason.startswith("LedgerMismatch: money: "), reason
        assert "by the journal (entries before" in reason, reason
        assert again.floor.tables[t].status == "locked"
        assert other not in again.floor.recovery.locked
        led = again.client.get("/audit/ledger", headers=again.headers("auditor")).json()
        assert led["ok"], led  # the ledger alone is consistent
        r = again.client.post(
            f"/tables/{t}/unlock", json={"reason": "looked"}, headers=again.headers("supervisor")
        )
        assert (r.status_code, r.json()["error"]) == (409, "ledger_mismatch"), r.text
        assert again.floor.tables[t].status == "locked"
        play(again, other, ["alice", "bob"], rounds=1)


@pytest.mark.parametrize("every", [0, EVERY])
def test_a_craps_table_plays_on_with_a_new_shooter_after_a_restart(
    tmp_path: Any, every: int
) -> None:
    """A table replayed at start-up goes on live: the next shooter's seed is drawn and he
    throws (a replayed craps table that gave a new shooter no seed would pass the dice
    round and round without a throw). With and without snapshots."""
    url = str(tmp_path / "floor.db")
    floor = Floor(make_settings(url, checkpoint_every=every))
    with TestClient(create_app(floor=floor)) as client:
        srv = Srv(client, floor, dict(floor.demo_credentials))
        t = new_table(srv, "craps")
        play(srv, t, ["alice", "bob"], rounds=3)
        creds = srv.creds
    floor = Floor(make_settings(url, checkpoint_every=every))
    with TestClient(create_app(floor=floor)) as client:
        again = Srv(client, floor, creds)
        before = again.floor.tables[t].engine
        assert before is not None
        shooter = before.shooter  # type: ignore[attr-defined]
        again.ok(shooter, t, "pass_dice")
        engine = again.floor.tables[t].engine
        new = engine.shooter  # type: ignore[union-attr]
        assert new != shooter
        r = again.cmd(new, t, "throw", {})
        assert r.status_code == 200, r.text
        assert any(e["kind"] == "craps.dice_thrown" for e in r.json()["events"]), r.json()


def test_a_snapshot_that_is_not_json_locks_the_table_and_the_server_starts(
    snap_srv: Srv,
) -> None:
    srv = snap_srv
    t = new_table(srv, "craps")
    play(srv, t, ["alice", "bob"], rounds=8)
    assert stored(srv, t)
    srv.floor.db.write_sync(
        lambda c: c.execute(
            sa.text("UPDATE snapshots SET state = '{not json' WHERE table_id = :t"), {"t": t}
        )
    )
    with restart(srv) as again:
        reason = again.floor.recovery.locked.get(t, "")
        assert "not JSON" in reason, reason
        assert again.client.get("/health").status_code == 200


def test_a_state_that_cannot_be_snapshot_does_not_stop_the_table(
    lite: Srv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkpoint that fails to encode the state is logged and skipped: the command that
    crossed the mark is answered and recorded, and the table plays on."""
    lite.floor.settings.checkpoint_every = 5
    t = new_table(lite, "craps")

    def broken(self: Any) -> Any:
        raise snapshot.SnapshotError("state: a float (0.5): money and counts are integers")

    from macau_tables.games.craps import CrapsTable

    monkeypatch.setattr(CrapsTable, "snapshot_state", broken)
    play(lite, t, ["alice", "bob"], rounds=3)
    engine = lite.floor.tables[t].engine
    assert engine is not None and len(engine.journal) > 5
    assert stored(lite, t) == []
    assert not any(e["kind"] == "table.checkpoint" for e in all_events(lite, t))


# --- recall from a snapshot (docs/operations.md, "Recall") -------------------------------


def whole_recall(srv: Srv, table: str, who: str, limit: int, before: int | None = None) -> Any:
    """The recall as it was before snapshots: the whole journal read, its rounds numbered
    from its events, every operation re-run through the rules (``rerun_all``)."""
    from macau_tables.server import recall as R

    actor = srv.floor.tables[table]
    viewer = Viewer.DEALER if who == "dealer" else Viewer.SUPERVISOR

    def read(c: sa.Connection) -> Any:
        rec = R.load_record(c, table, actor.game.name, actor.header)
        everything = rec.rounds()
        assert R.round_index(c, table) == everything  # numbered alike from the kinds alone
        chosen = R.last(everything, limit, before)
        start = R.recall_start(c, table, actor.game, chosen)
        return start, {
            "table_id": table,
            "game": actor.game.name,
            "rounds_total": len(everything),
            "rounds": R.recall_rounds(rec, actor.game, viewer, chosen, rerun_all=True),
        }

    return srv.floor.db.read_sync(read)


def table_recall(srv: Srv, table: str, who: str, query: str) -> Any:
    r = srv.client.get(f"/tables/{table}/recall?{query}", headers=srv.headers(who))
    assert r.status_code == 200, r.text
    return r.json()


def check_table_recalls(srv: Srv, t: str) -> None:
    """The last rounds recalled from the stored snapshot before them — the state restored,
    its checkpoint re-derived, only the entries after it read — are the rounds the whole
    journal gives, numbered from the table's opening, step by step and view by view (the
    supervisor's, and the dealer's, which hides what is face down); rounds older than
    every snapshot still come from the whole journal."""
    for who, limit in (("supervisor", 1), ("dealer", 1), ("supervisor", 3)):
        start, expected = whole_recall(srv, t, who, limit)
        # (a snapshot before the last round: the new path; a Pai Gow round is ~30 entries,
        # more than the three last snapshots 10 entries apart cover)
        assert start > 0 or limit > 1
        assert table_recall(srv, t, who, f"limit={limit}") == expected
    first = min(stored(srv, t))
    oldest = next(
        r.number for r in srv.floor.db.read_sync(lambda c: _index(c, t)) if r.first > first
    )
    start, expected = whole_recall(srv, t, "auditor", 2, before=oldest)
    assert start == 0 and expected["rounds"]
    assert table_recall(srv, t, "auditor", f"limit=2&before={oldest}") == expected


def _index(c: sa.Connection, table: str) -> Any:
    from macau_tables.server.recall import round_index

    return round_index(c, table)


def test_a_recall_past_a_forged_snapshot_re_runs_the_whole_journal(
    snap_srv: Srv, caplog: pytest.LogCaptureFixture
) -> None:
    """A stored snapshot edited behind the server's back: the recall's replay re-derives the
    checkpoint's digest from it, finds another, logs it and recalls from the whole journal
    (the journal, not the snapshot, is the record): the same rounds as before the edit."""
    srv = snap_srv
    t = new_table(srv, "baccarat")
    play(srv, t, ["alice", "bob"], rounds=12)
    before = table_recall(srv, t, "supervisor", "limit=3")
    start, _ = whole_recall(srv, t, "supervisor", 3)
    assert start > 0
    forge(srv, t, [start])
    with caplog.at_level("ERROR", logger="macau_tables.server"):
        assert table_recall(srv, t, "supervisor", "limit=3") == before
    assert f"recall from the snapshot at entry {start}" in caplog.text


def check_player_recalls(srv: Srv, t: str) -> None:
    """A player's rounds found from the transactions that moved his chips (not the table's
    whole ledger), rebuilt from the snapshot before them, are his rounds of the whole
    journal and ledger, as he saw them."""
    from macau_tables.server import recall as R

    actor = srv.floor.tables[t]
    starts = []
    for who, limit in (("alice", 1), ("bob", 1), ("alice", 3), ("bob", 3)):

        def expected(c: sa.Connection, who: str = who, limit: int = limit) -> Any:
            rec = R.load_record(c, t, actor.game.name, actor.header)
            his = R.player_rounds(rec, who)
            assert R.player_rounds_in(c, t, who, R.round_index(c, t)) == his
            chosen = his[-limit:]
            viewer = Viewer.player(who)
            rebuilt = R.recall_rounds(rec, actor.game, viewer, chosen, rerun_all=True)
            return R.recall_start(c, t, actor.game, chosen), {"player": who, "rounds": rebuilt}

        start, want = srv.floor.db.read_sync(expected)
        starts.append(start)
        r = srv.client.get(f"/players/{who}/recall?limit={limit}", headers=srv.headers(who))
        assert r.status_code == 200, r.text
        assert r.json() == want
    # (a recall from a snapshot: the new path — at craps only a shooter's line bets ride,
    # and a player's last rounds may all be older than the snapshots kept)
    assert max(starts) > 0 or actor.game.name == "craps"


def test_a_rebuild_checks_the_chain_only_from_where_it_was_checked(snap_srv: Srv) -> None:
    """Once a table's chain before its window is checked, a rebuild (after a failed write)
    or a recall checks only the entries since — and a rebuild finds one edited there."""
    from macau_tables.server import recall as R
    from macau_tables.server import store

    srv = snap_srv
    t = new_table(srv, "baccarat")
    play(srv, t, ["alice", "bob"], rounds=8)
    with restart(srv, chain_check="startup") as again:
        actor = again.floor.tables[t]
        checked = actor.chain_checked
        assert checked > 0 and actor.chain_job is None
        play(again, t, ["alice", "bob"], rounds=8)
        assert actor.engine is not None and actor.engine.journal.first > checked
        starts: list[int] = []
        real = store.verify_chain_to

        def spy(*a: Any, **kw: Any) -> str:
            starts.append(kw.get("start", 0))
            return real(*a, **kw)

        store.verify_chain_to = spy  # type: ignore[assignment]
        try:
            again.client.portal.call(actor._rebuild_committed)  # type: ignore[union-attr]
            # (up to the stored snapshot the rebuild started from)
            assert starts == [checked] and actor.chain_checked > checked
            # a recall from a stored snapshot checks only what this process has not: none
            # of the chain for a snapshot within it, the rest from there for a later one
            n, _ = actor.checked()
            seen = set()
            for seq in stored(again, t):
                starts.clear()
                rec = again.floor.db.read_sync(
                    lambda c, seq=seq: R.load_record(
                        c, t, actor.game.name, actor.header, seq, actor.checked()
                    )
                )
                if rec.first:  # (a snapshot the table may start from)
                    assert starts == ([] if seq <= n else [n])
                    seen.add(seq <= n)
            assert seen == {True, False}
            edited = actor.chain_checked  # (not checked from the database yet)
            tamper(
                again,
                "journal",
                # (a space added: the same event, another text — not what was hashed)
                f"UPDATE journal SET event = event || ' ' "
                f"WHERE table_id = '{t}' AND seq = {edited}",
            )
            play(again, t, ["alice", "bob"], rounds=8)  # (the window moves on past it)
            again.client.portal.call(actor._rebuild_committed)  # type: ignore[union-attr]
        finally:
            store.verify_chain_to = real  # type: ignore[assignment]
        deadline = time.monotonic() + 10
        while actor.status != "locked" and time.monotonic() < deadline:
            time.sleep(0.02)
        assert actor.status == "locked" and f"entry {edited}" in (actor.lock_reason or "")


def test_a_recall_tries_the_snapshot_before_when_it_may_not_start_from_the_latest(
    snap_srv: Srv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The latest snapshot before the recalled rounds may not be a starting point (one
    taken inside a round the table has not finished: ``contract.safe_base``): the recall
    tries the one before it, not the whole journal, and gives the same rounds."""
    from macau_tables.server import recall as R

    srv = snap_srv
    t = new_table(srv, "baccarat")
    play(srv, t, ["alice", "bob"], rounds=12)
    actor = srv.floor.tables[t]
    chosen = srv.floor.db.read_sync(lambda c: R.last(R.round_index(c, t), 1))
    starts = srv.floor.db.read_sync(lambda c: R.recall_starts(c, t, actor.game, chosen))
    assert len(starts) >= 2
    real, tried, whole = R.window_record, [], []

    def refuse_the_latest(
        c: Any, table_id: str, game: str, header: Any, start: int, checked: Any
    ) -> Any:
        tried.append(start)
        return None if start == starts[0] else real(c, table_id, game, header, start, checked)

    monkeypatch.setattr(R, "window_record", refuse_the_latest)
    monkeypatch.setattr(R, "_whole_record", lambda *a: whole.append(a) or None)
    viewer = Viewer.SUPERVISOR
    got = srv.floor.db.read_sync(
        lambda c: R.rounds_from(c, t, actor.game, actor.header, viewer, chosen)
    )
    assert tried == starts[:2] and whole == []
    monkeypatch.undo()
    _, expected = whole_recall(srv, t, "supervisor", 1)
    assert got == expected["rounds"]
