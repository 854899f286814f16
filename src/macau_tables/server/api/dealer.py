"""The dealer's endpoints at a live (dealer-operated) table (the dealer's part).

A live table (``POST /tables {"dealer": "live"}``) has no auto-dealer: the dealer runs the
dealer's operations in the order the engine's ``pending()`` gives, through the ordinary
``/commands`` endpoint — asking the server's RNG for an outcome (``shuffle``, a new
shooter's seed) or keying in what the physical table shows (dice, cards, tiles), which the
engine validates by its rules. Two things are the dealer's own here:

* ``GET /tables/{id}/dealer`` — the dealer's console: the table, what the engine waits for
  (the dealer's operations first), which operations key in an outcome, every dealer
  operation's arguments (``args``: its form's fields), and whom the rules wait for with the
  default the dealer may apply (players; the house's tiles by the house way);
* ``POST /tables/{id}/dealer/default {actor, op}`` — the dealer applies a waiting player's
  default by the rules (``contract.time_out``: ``table.timed_out`` naming the rule, then the
  default's events), in the same transaction as an audit entry under the dealer's name. At
  a live table the clock times nobody out unless the table's settings ask for it
  (``player_timeouts``).
"""

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header
from fastapi.responses import JSONResponse

from macau_tables.games.contract import Role
from macau_tables.server import schemas as S
from macau_tables.server import store
from macau_tables.server.api.deps import Deps
from macau_tables.server.auth import User
from macau_tables.server.errors import ApiError

#: what each game's key-in operations take (the engines validate them; docs/operations.md)
KEYIN_FORMS: dict[str, dict[str, list[str]]] = {
    "craps": {"throw_dice": ["dice", "cocked"]},
    "baccarat": {
        "open_shoe": ["new_set"],
        "deal": ["cards"],
        "draw": ["card"],
        "expose_card": ["card"],
        "cut": ["from_end", "first_card"],
        "load_shoe": ["cards", "new_set"],
    },
    "paigow": {"build_woodpile": [], "shake": ["dice", "hands", "cocked"]},
    "taiwan": {"build_woodpile": [], "shake": ["dice", "hands", "cocked"]},
}


def dealer_operations(engine: Any, game: str) -> dict[str, list[str]]:
    """Every operation the dealer may run at this table, with the arguments its game
    declares for it (the table kernel's ``OPERATIONS``: the console builds a form from
    them; the server's seed of a shuffle left out, it is the server's to draw). An engine
    that declares none: its key-in forms."""
    ops = getattr(type(engine), "OPERATIONS", None)
    if not ops:
        return dict(KEYIN_FORMS.get(game, {}))
    return {
        name: [a.name for a in op.args if a.name != "seed"]
        for name, op in ops.items()
        if Role.DEALER in op.actors
    }


def router(d: Deps) -> APIRouter:
    """The dealer's endpoints (an APIRouter, included once by ``create_app``)."""
    r = APIRouter()
    floor, allowed, perm = d.floor, d.allowed, d.perm

    @r.get("/tables/{table_id}/dealer", tags=["dealer"], **perm("dealer.console"))
    async def dealer_console(
        table_id: str, user: Annotated[User, Depends(allowed("dealer.console"))]
    ) -> dict[str, Any]:
        """The dealer's console: the table, the dealer's operations now (``args``), the
        key-in forms and the players the rules wait for (with the default the dealer may
        apply)."""
        actor = floor.table(table_id)
        snap = await actor.snapshot(user.viewer())  # type: ignore[arg-type]
        pending = snap["pending"]
        staff = [p for p in pending if not str(p["actor"]).startswith("player:")]
        # whom the rules wait for, with a default the dealer may apply: players, and the
        # dealer's own defaults that only the rules can fill in (the house way's tiles)
        waiting = [
            p
            for p in pending
            if p["required"]
            and p["default"]
            and (str(p["actor"]).startswith("player:") or p["default"] in actor.game.timeout_ops)
        ]
        return {
            "table": actor.info(),
            "live": not actor.auto_dealer,
            "player_timeouts": actor.player_timeouts,
            "seq": snap["seq"],
            "status": snap["status"],
            "view": snap["view"],
            "dealer": staff,
            "waiting": waiting,
            "keyin": KEYIN_FORMS.get(actor.game.name, {}),
            "args": dealer_operations(actor.engine, actor.game.name),
        }

    @r.post(
        "/tables/{table_id}/dealer/default",
        response_model=S.CommandReply,
        tags=["dealer"],
        **perm("dealer.default"),
    )
    async def dealer_default(
        table_id: str,
        body: S.DealerDefault,
        user: Annotated[User, Depends(allowed("dealer.default"))],
        idempotency_key: Annotated[str | None, Header(alias="Idempotency-Key")] = None,
    ) -> JSONResponse:
        """Apply the rules' default for a pending actor at a live table (e.g. a craps
        shooter who does not throw passes the dice, CR-R7): ``table.timed_out`` naming the
        rule, then the default's events; an audit entry names the dealer."""
        actor = floor.table(table_id)
        if not idempotency_key:
            raise ApiError(
                400,
                "idempotency_key_required",
                "money-moving requests need an Idempotency-Key header",
                "SRV-IDEM",
            )
        if len(idempotency_key) > 200:
            raise ApiError(
                422, "invalid_input", "Idempotency-Key is at most 200 characters", "SRV-IDEM"
            )
        path = f"/tables/{table_id}/dealer/default"
        reply = await actor.apply_default(
            body.actor,
            body.op,
            user=user.name,
            viewer=user.viewer(),  # type: ignore[arg-type]
            key=idempotency_key,
            req_hash=store.request_hash("POST", path, body.model_dump()),
        )
        return JSONResponse(reply.body, status_code=reply.status)

    return r
