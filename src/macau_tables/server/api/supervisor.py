"""The supervisor's API: void and correct with a second approval, limits from
the next round, disputed rounds frozen with their evidence. See docs/operations.md, "The
supervisor's day".

* ``POST /tables/{id}/requests`` — one supervisor asks to void the table's last round or to
  correct a keyed-in outcome (``of_seq`` + the corrected ``args``). Checked by the rules at
  once (a request the rules would refuse is refused now), recorded with the number of the
  round it applies to (``round``: if the request names one, it must be that one, and a
  void is approved only while that round is still the table's last), audit-logged.
* ``POST /supervisor/requests/{rid}/approve`` · ``reject`` — ANOTHER supervisor decides.
  An approval runs the engine's ``void_round`` / ``correct_round`` and writes the decision,
  the audit record and (if the round was frozen) the dispute's resolution in the SAME
  transaction as the events and the reversing postings. A request is decided once (the
  decision's primary key is the request's id; the decider differs from the requester: a
  CHECK).
* ``POST /tables/{id}/limits`` — new table limits, an event that takes effect at the next
  round boundary (the engine decides where that is).
* ``POST /tables/{id}/freeze`` · ``release`` — a disputed round stops the table (no command,
  no clock) with its note, evidence references and the seqs concerned, until a void or a
  correction is approved, or a supervisor releases it.

Thin (STYLE §9): the rules are the engine's; the money is the engine's events'.
(No ``from __future__ import annotations``: FastAPI reads the endpoints' annotations,
which name local dependencies.)
"""

import json
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal

import sqlalchemy as sa
from fastapi import APIRouter, Depends, Header, Path, Query
from fastapi.responses import JSONResponse
from pydantic import Field
from sqlalchemy.engine import Connection

from macau_tables.core.errors import MacauTablesError
from macau_tables.games.contract import Actor, Round
from macau_tables.server import store
from macau_tables.server.api.deps import Deps
from macau_tables.server.auth import User
from macau_tables.server.controls import check_approver
from macau_tables.server.errors import ApiError, from_domain, not_found
from macau_tables.server.recall import round_index
from macau_tables.server.schemas import MAX_ID, Avos, Control, Strict
from macau_tables.server.tables import Reply, TableActor

#: the request's action → the engine's operations, in order of preference: the contract's
#: ``void_round`` (any round, settled or not), else the engine's own void of a hand being
#: dealt (baccarat ``void_hand``, BA-10 / BA-R3)
OPS = {"void": ("void_round", "void_hand"), "correct": ("correct_round",)}


def engine_op(engine: Any, action: str) -> str | None:
    """The engine's operation for ``action`` (None: this game's engine has none)."""
    return next((op for op in OPS[action] if hasattr(engine, f"verify_{op}")), None)


def engine_args(op: str, row: Any) -> dict[str, Any]:
    """The arguments of the approved request's operation (the round it names is the
    server's check, not an argument of the engine's)."""
    if op == "void_hand":  # the engine's own form: the request is named in its reason
        return {"reason": f"{row.reason} (request {row.id} by {row.requested_by})"}
    args = json.loads(row.args)
    args.pop("round", None)
    return {
        **args,
        "reason": row.reason,
        "request": int(row.id),
        "requested_by": row.requested_by,
    }


class RequestBody(Strict):
    """Void the last round (``{"action": "void", "reason"}``) or correct a keyed-in outcome
    (``{"action": "correct", "of_seq": 41, "args": {"dice": [5, 6]}, "reason"}``)."""

    action: Literal["void", "correct"]
    reason: str = Field(min_length=1, max_length=500)
    of_seq: int | None = Field(default=None, ge=1, le=2**53)
    args: dict[str, Any] | None = None
    round: int | None = Field(
        default=None,
        ge=1,
        le=MAX_ID,
        description="the round number it applies to, as the supervisor saw it: refused "
        "(409 SRV-STALE) if the void or the correction would apply to another round",
    )


def round_applied(index: Sequence[Round], of_seq: int | None) -> int | None:
    """The number of the round a void (``of_seq`` None: the table's last round, the only
    one an engine voids) or a correction (of the operation at ``of_seq``) applies to."""
    if of_seq is None:
        return index[-1].number if index else None
    return next((r.number for r in index if r.first <= of_seq <= r.last), None)


def stale_round(named: int, applies: int | None, what: str) -> ApiError:
    now = "no round" if applies is None else f"round {applies}"
    return _refuse(
        409,
        "stale",
        f"{what} names round {named}, but it would apply to {now} of the table now",
        "SRV-STALE",
    )


class DecisionBody(Strict):
    reason: str = Field(min_length=1, max_length=500)


class LimitsBody(Strict):
    """New limits from the next round (integer avos). ``min_bet`` / ``max_bet``: the
    table's main bet (craps a flat bet, baccarat Player and Banker, Pai Gow / Taiwan a
    player's bet on a place); baccarat also takes ``bets`` (``{"tie": [min, max]}``, the
    pairs) and ``differential`` (BA-14). The engine refuses what its game has not."""

    min_bet: Avos
    max_bet: Avos
    reason: str = Field(min_length=1, max_length=500)
    bets: dict[str, tuple[Avos, Avos]] | None = Field(
        default=None, max_length=8, description="baccarat: other bets' [min, max] by name"
    )
    differential: Avos | None = Field(default=None, description="baccarat: the BA-14 limit")

    def limits(self) -> dict[str, Any]:
        """The limits as the engine's ``change_limits`` takes them (no reason)."""
        out: dict[str, Any] = {"min_bet": self.min_bet, "max_bet": self.max_bet}
        if self.bets:
            out["bets"] = {name: list(pair) for name, pair in self.bets.items()}
        if self.differential is not None:
            out["differential"] = self.differential
        return out


class FreezeBody(Strict):
    """A disputed round: what happened (``note``), references to the evidence (a video
    clip id, a photo id…), and the journal seqs concerned."""

    note: str = Field(min_length=1, max_length=500)
    evidence: list[str] = Field(default_factory=list, max_length=20)
    seqs: list[int] = Field(default_factory=list, max_length=50)


def _refuse(status: int, error: str, message: str, rule: str) -> ApiError:
    return ApiError(status, error, message, rule)


def _approver_for(name: str) -> Actor:
    """A stand-in second supervisor, to check a request against the rules before approval."""
    return Actor.supervisor("approver" if name != "approver" else "approver2")


def _request_row(conn: Connection, rid: int) -> Any:
    r, d = store.requests_t, store.decisions_t
    return conn.execute(
        sa.select(
            r,
            d.c.decision,
            d.c.decided_by,
            d.c.reason.label("decision_reason"),
            d.c.decided_at,
            d.c.seq,
        )
        .select_from(r.outerjoin(d, d.c.request_id == r.c.id))
        .where(r.c.id == rid)
    ).first()


def _request_json(row: Any) -> dict[str, Any]:
    args = json.loads(row.args)
    return {
        "id": int(row.id),
        "table_id": row.table_id,
        "action": row.action,
        "round": args.pop("round", None),
        "args": args,
        "reason": row.reason,
        "requested_by": row.requested_by,
        "requested_at": int(row.requested_at),
        "table_seq": int(row.table_seq),
        "state": row.decision or "pending",
        "decided_by": row.decided_by,
        "decision_reason": row.decision_reason,
        "decided_at": row.decided_at,
        "seq": row.seq,
    }


def open_dispute(conn: Connection, table_id: str) -> Any:
    """The table's dispute not yet resolved, if any."""
    d, res = store.disputes_t, store.resolutions_t
    return conn.execute(
        sa.select(d)
        .select_from(d.outerjoin(res, res.c.dispute_id == d.c.id))
        .where(d.c.table_id == table_id, res.c.dispute_id.is_(None))
        .order_by(d.c.id.desc())
    ).first()


def _reopen(conn: Connection, table_id: str) -> None:
    conn.execute(
        store.tables_t.update()
        .where(store.tables_t.c.id == table_id)
        .values(status="open", lock_reason=None)
    )


def _thawed(actor: TableActor) -> None:
    actor.status, actor.lock_reason = "open", None
    actor._plan_countdown()
    actor.broadcast_state()
    actor._wake.set()


def router(d: Deps) -> APIRouter:
    """The supervisor's endpoints (an APIRouter, included once by ``create_app``)."""
    r = APIRouter()
    floor, allowed, perm = d.floor, d.allowed, d.perm

    def check_game(actor: TableActor, what: str) -> Any:
        engine = actor.engine
        if engine is None:
            raise _refuse(409, "table_locked", "the table has no engine", "SRV-STATUS")
        if not hasattr(engine, f"verify_{what}"):
            raise _refuse(
                409,
                "unsupported",
                f"{actor.game.name}: this game's engine does not {what.replace('_', ' ')} yet",
                "SRV-UNSUPPORTED",
            )
        return engine

    # --- requests and decisions ----------------------------------------------------------

    @r.post("/tables/{table_id}/requests", tags=["supervisor"], **perm("supervisor.request"))
    async def request(
        table_id: str,
        body: RequestBody,
        user: Annotated[User, Depends(allowed("supervisor.request"))],
    ) -> dict[str, Any]:
        """Ask for a void or a correction; a second supervisor approves or rejects it."""
        actor = floor.table(table_id)
        if body.action == "correct" and (body.of_seq is None or not body.args):
            raise _refuse(
                422, "invalid_input", "a correction names of_seq and the args", "SRV-INPUT"
            )
        if body.action == "void" and (body.of_seq is not None or body.args):
            raise _refuse(422, "invalid_input", "a void takes only a reason", "SRV-INPUT")
        args: dict[str, Any] = (
            {"of_seq": body.of_seq, "args": body.args} if body.action == "correct" else {}
        )
        async with actor.lock:
            if actor.status in ("locked", "closed"):
                raise _refuse(
                    409, "table_" + actor.status, f"table is {actor.status}", "SRV-STATUS"
                )
            engine = check_game(actor, engine_op(actor.engine, body.action) or OPS[body.action][0])
            op = engine_op(engine, body.action)
            try:  # the rules check it now, against a stand-in approver
                if op == "void_hand":
                    engine.verify_void_hand(body.reason, _approver_for(user.name))
                elif op == "void_round":
                    engine.verify_void_round(_approver_for(user.name), user.name)
                else:
                    engine.verify_correct_round(
                        _approver_for(user.name), body.of_seq, body.args, user.name
                    )
            except MacauTablesError as exc:
                raise from_domain(exc) from exc
            seq = actor.seq
            index = await floor.db.read(lambda c: round_index(c, table_id))
            applies = round_applied(index, body.of_seq)
            if body.round is not None and body.round != applies:
                raise stale_round(body.round, applies, f"this {body.action}")
            args["round"] = applies

            def unit(conn: Connection) -> int:
                rid = conn.execute(
                    store.requests_t.insert().values(
                        table_id=table_id,
                        action=body.action,
                        args=store.dumps(args),
                        reason=body.reason,
                        requested_by=user.name,
                        requested_at=store.now_ms(),
                        table_seq=seq,
                    )
                ).inserted_primary_key
                assert rid is not None
                store.audit(
                    conn,
                    user.name,
                    f"request:{body.action}",
                    table_id,
                    body.reason,
                    {"request": int(rid[0]), **args},
                )
                return int(rid[0])

            rid = await floor.db.write(unit)
        row = await floor.db.read(lambda c: _request_row(c, rid))
        return _request_json(row)

    @r.get("/supervisor/requests", tags=["supervisor"], **perm("supervisor.read"))
    async def requests(
        user: Annotated[User, Depends(allowed("supervisor.read"))],
        state: Annotated[Literal["pending", "approved", "rejected"] | None, Query()] = None,
        table: Annotated[str | None, Query(max_length=64)] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    ) -> list[dict[str, Any]]:
        """Requests, newest first, each with its state (pending, approved, rejected)."""

        def read(conn: Connection) -> list[Any]:
            r, d = store.requests_t, store.decisions_t
            q = (
                sa.select(r.c.id)
                .select_from(r.outerjoin(d, d.c.request_id == r.c.id))
                .order_by(r.c.id.desc())
                .limit(limit)
            )
            if table is not None:
                q = q.where(r.c.table_id == table)
            if state == "pending":
                q = q.where(d.c.request_id.is_(None))
            elif state is not None:
                q = q.where(d.c.decision == state)
            return [_request_row(conn, int(i)) for (i,) in conn.execute(q)]

        return [_request_json(row) for row in await floor.db.read(read)]

    async def decided_or_refuse(rid: int, user: User) -> Any:
        row = await floor.db.read(lambda c: _request_row(c, rid))
        if row is None:
            raise not_found(f"no request {rid}", "SRV-REQUEST")
        if row.decision is not None:
            raise _refuse(
                409, "decided", f"request {rid} was {row.decision} already", "SRV-DECIDED"
            )
        if row.requested_by == user.name:
            raise _refuse(
                403,
                "forbidden",
                "a second supervisor decides a request, not the one who made it",
                "SRV-APPROVAL",
            )
        # and one whose account was approved before the request was made (SRV-DUTY)
        await floor.db.read(
            lambda c: check_approver(
                c, user.name, row.requested_by, int(row.requested_at), f"request {rid}"
            )
        )
        return row

    def decision_writer(
        row: Any, user: User, decision: str, reason: str, resolves: bool
    ) -> Callable[[Connection, Reply | None], bool]:
        """The decision, its audit record and the dispute's resolution, in the caller's
        transaction; returns whether a frozen table opens again."""

        def write(conn: Connection, reply: Reply | None) -> bool:
            # the request's row locked (PostgreSQL): deciders in other server processes
            # wait here, then find the decision (SQLite has one writer anyway)
            conn.execute(
                sa.select(store.requests_t.c.id)
                .where(store.requests_t.c.id == row.id)
                .with_for_update()
            )
            again = conn.execute(
                sa.select(store.decisions_t.c.request_id).where(
                    store.decisions_t.c.request_id == row.id
                )
            ).first()
            if again is not None:  # decided meanwhile (the table's lock orders them)
                raise _refuse(409, "decided", f"request {row.id} was decided", "SRV-DECIDED")
            seq = reply.body["seq"] if reply is not None else None
            conn.execute(
                store.decisions_t.insert().values(
                    request_id=row.id,
                    decision=decision,
                    decided_by=user.name,
                    requested_by=row.requested_by,
                    reason=reason,
                    decided_at=store.now_ms(),
                    seq=seq,
                )
            )
            store.audit(
                conn,
                user.name,
                f"{'approve' if decision == 'approved' else 'reject'}:{row.action}",
                row.table_id,
                reason,
                {"request": int(row.id), "requested_by": row.requested_by, "seq": seq},
            )
            dispute = open_dispute(conn, row.table_id) if resolves else None
            if dispute is None:
                return False
            conn.execute(
                store.resolutions_t.insert().values(
                    dispute_id=dispute.id,
                    how=row.action,
                    resolved_by=user.name,
                    reason=reason,
                    request_id=row.id,
                    resolved_at=store.now_ms(),
                )
            )
            store.audit(
                conn,
                user.name,
                f"resolve:{row.action}",
                row.table_id,
                reason,
                {"dispute": int(dispute.id), "request": int(row.id)},
            )
            _reopen(conn, row.table_id)
            return True

        return write

    @r.post("/supervisor/requests/{rid}/approve", tags=["supervisor"], **perm("supervisor.decide"))
    async def approve(
        rid: Annotated[int, Path(ge=1, le=MAX_ID)],
        body: DecisionBody,
        user: Annotated[User, Depends(allowed("supervisor.decide"))],
        idempotency_key: Annotated[str | None, Header(alias="Idempotency-Key")] = None,
    ) -> JSONResponse:
        """Approve another supervisor's request: the void or correction runs now, with the
        decision and the audit record in the same transaction."""
        if not idempotency_key or len(idempotency_key) > 200:
            raise _refuse(
                400,
                "idempotency_key_required",
                "an approval moves money: it needs an Idempotency-Key header (≤ 200)",
                "SRV-IDEM",
            )
        req_hash = store.request_hash("POST", f"/supervisor/requests/{rid}/approve", body.reason)
        stored = await floor.db.read(lambda c: store.get_idempotent(c, user.name, idempotency_key))
        if stored is not None and stored.request_hash == req_hash:  # a retry: the first answer
            return JSONResponse(stored.body, status_code=stored.status)
        row = await decided_or_refuse(rid, user)
        actor = floor.table(row.table_id)
        named = json.loads(row.args).get("round")
        if named is not None and row.action == "void":  # the table may have moved on
            index = await floor.db.read(lambda c: round_index(c, row.table_id))
            if round_applied(index, None) != named:
                raise stale_round(named, round_applied(index, None), f"request {rid}")
        op = engine_op(actor.engine, row.action) or OPS[row.action][0]
        write = decision_writer(row, user, "approved", body.reason, True)
        thawed: list[bool] = []

        def extra(conn: Connection, reply: Reply) -> None:
            thawed.append(write(conn, reply))

        reply = await actor.supervise(
            Actor.supervisor(user.name),
            op,
            engine_args(op, row),
            user=user.name,
            extra=extra,
            key=idempotency_key,
            req_hash=req_hash,
        )
        if reply.status == 200 and any(thawed):
            async with actor.lock:
                _thawed(actor)
        return JSONResponse(reply.body, status_code=reply.status)

    @r.post("/supervisor/requests/{rid}/reject", tags=["supervisor"], **perm("supervisor.decide"))
    async def reject(
        rid: Annotated[int, Path(ge=1, le=MAX_ID)],
        body: DecisionBody,
        user: Annotated[User, Depends(allowed("supervisor.decide"))],
    ) -> dict[str, Any]:
        """Reject another supervisor's request (nothing changes at the table)."""
        row = await decided_or_refuse(rid, user)
        actor = floor.table(row.table_id)
        write = decision_writer(row, user, "rejected", body.reason, False)
        async with actor.lock:
            await floor.db.write(lambda c: write(c, None))
        return _request_json(await floor.db.read(lambda c: _request_row(c, rid)))

    # --- limits ---------------------------------------------------------------------------

    @r.post("/tables/{table_id}/limits", tags=["supervisor"], **perm("supervisor.limits"))
    async def limits(
        table_id: str,
        body: LimitsBody,
        user: Annotated[User, Depends(allowed("supervisor.limits"))],
    ) -> JSONResponse:
        """New table limits (min / max of a bet; at baccarat the other bets' and the
        differential too), from the next round."""
        actor = floor.table(table_id)
        check_game(actor, "change_limits")
        args = {**body.limits(), "reason": body.reason}

        def extra(conn: Connection, reply: Reply) -> None:
            store.audit(
                conn, user.name, "limits", table_id, body.reason,
                {**body.limits(), "seq": reply.body["seq"]},
            )  # fmt: skip

        reply = await actor.supervise(
            Actor.supervisor(user.name), "change_limits", args, user=user.name, extra=extra
        )
        return JSONResponse(reply.body, status_code=reply.status)

    # --- disputes -------------------------------------------------------------------------

    @r.post("/tables/{table_id}/freeze", tags=["supervisor"], **perm("supervisor.freeze"))
    async def freeze(
        table_id: str,
        body: FreezeBody,
        user: Annotated[User, Depends(allowed("supervisor.freeze"))],
    ) -> dict[str, Any]:
        """Freeze a disputed round with its evidence: no command, no clock, until a void or
        a correction is approved or the table is released."""
        actor = floor.table(table_id)
        for ref in body.evidence:
            if not ref or len(ref) > 200:
                raise _refuse(
                    422, "invalid_input", "evidence references are 1-200 characters", "SRV-INPUT"
                )
        async with actor.lock:
            if actor.status not in ("open", "paused"):
                raise _refuse(
                    409, "table_" + actor.status, f"table is {actor.status}", "SRV-STATUS"
                )
            bad = [s for s in body.seqs if not 0 <= s <= actor.seq]
            if bad:
                raise _refuse(422, "invalid_input", f"no event {bad[0]} at this table", "SRV-INPUT")

            def unit(conn: Connection) -> int:
                did = conn.execute(
                    store.disputes_t.insert().values(
                        table_id=table_id,
                        note=body.note,
                        evidence=store.dumps(body.evidence),
                        seqs=store.dumps(body.seqs),
                        opened_by=user.name,
                        opened_at=store.now_ms(),
                    )
                ).inserted_primary_key
                assert did is not None
                conn.execute(
                    store.tables_t.update()
                    .where(store.tables_t.c.id == table_id)
                    # in the row a frozen table is paused with its open dispute
                    # (store.frozen_tables): the server reads it back as frozen
                    .values(status="paused", lock_reason=f"dispute {did[0]}: {body.note}")
                )
                store.audit(
                    conn,
                    user.name,
                    "freeze",
                    table_id,
                    body.note,
                    {"dispute": int(did[0]), "evidence": body.evidence, "seqs": body.seqs},
                )
                return int(did[0])

            did = await floor.db.write(unit)
            actor.status, actor.lock_reason = "frozen", f"dispute {did}: {body.note}"
            actor._plan_countdown()
            actor.broadcast_state()
        return {"dispute": did, **actor.info()}

    @r.post("/tables/{table_id}/release", tags=["supervisor"], **perm("supervisor.freeze"))
    async def release(
        table_id: str,
        body: Control,
        user: Annotated[User, Depends(allowed("supervisor.freeze"))],
    ) -> dict[str, Any]:
        """Resolve the table's dispute without a void or a correction: the table goes on."""
        actor = floor.table(table_id)
        async with actor.lock:
            if actor.status != "frozen":
                raise _refuse(409, "not_frozen", "the table is not frozen", "SRV-FROZEN")

            def unit(conn: Connection) -> None:
                dispute = open_dispute(conn, table_id)
                if dispute is None:
                    raise _refuse(409, "not_frozen", "no open dispute", "SRV-FROZEN")
                conn.execute(
                    store.resolutions_t.insert().values(
                        dispute_id=dispute.id,
                        how="release",
                        resolved_by=user.name,
                        reason=body.reason,
                        request_id=None,
                        resolved_at=store.now_ms(),
                    )
                )
                store.audit(
                    conn, user.name, "release", table_id, body.reason, {"dispute": int(dispute.id)}
                )
                _reopen(conn, table_id)

            await floor.db.write(unit)
            _thawed(actor)
        return actor.info()

    @r.get("/supervisor/disputes", tags=["supervisor"], **perm("supervisor.read"))
    async def disputes(
        user: Annotated[User, Depends(allowed("supervisor.read"))],
        table: Annotated[str | None, Query(max_length=64)] = None,
    ) -> list[dict[str, Any]]:
        """Disputes, newest first: the note, evidence, seqs, and how each was resolved."""

        def read(conn: Connection) -> list[dict[str, Any]]:
            d, res = store.disputes_t, store.resolutions_t
            q = (
                sa.select(d, res.c.how, res.c.resolved_by, res.c.request_id, res.c.resolved_at)
                .select_from(d.outerjoin(res, res.c.dispute_id == d.c.id))
                .order_by(d.c.id.desc())
                .limit(200)
            )
            if table is not None:
                q = q.where(d.c.table_id == table)
            return [
                {
                    "id": int(r.id),
                    "table_id": r.table_id,
                    "note": r.note,
                    "evidence": json.loads(r.evidence),
                    "seqs": json.loads(r.seqs),
                    "opened_by": r.opened_by,
                    "opened_at": int(r.opened_at),
                    "resolved": r.how,
                    "resolved_by": r.resolved_by,
                    "request": r.request_id,
                }
                for r in conn.execute(q)
            ]

        return await floor.db.read(read)

    return r
