"""The API's message shapes (pydantic): request bodies, replies and WebSocket messages.

``GET /schemas`` publishes the JSON Schema of every model here; docs/server.md shows them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

MAX_AMOUNT = 10**12  # avos: MOP 10,000,000,000.00
#: every amount of money a request's body names (the cashier's, a table's limits): a JSON
#: integer of avos, above 0 and at most MAX_AMOUNT — not ``100.0``, ``"100"`` nor ``true``
#: (422 ``SRV-INPUT``). A command's amounts are the engines' to check, as strictly
#: (server/tables.py ``check_args``, then each engine's own: integers only)
Avos = Annotated[StrictInt, Field(gt=0, le=MAX_AMOUNT, description="integer avos")]
#: the largest id or number a path or query may name: the databases' 64-bit integers
MAX_ID = 2**63 - 1


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorBody(BaseModel):
    """Every refusal (4xx): a snake_case error, the rule ID where there is one, a message."""

    error: str
    rule: str | None
    message: str


class Login(Strict):
    name: str = Field(max_length=64)
    password: str = Field(max_length=256)


class TokenReply(BaseModel):
    token: str
    name: str
    role: str
    expires_at: int = Field(description="epoch milliseconds")


class CommandBody(Strict):
    """One operation of the table engine: ``{"op": "bet", "args": {"amount": 1000}}``.

    Amounts are integer avos. ``expect_seq`` (optional) refuses the command as stale (409
    ``SRV-STALE``) unless the table's last event is still ``expect_seq``.
    """

    op: str = Field(min_length=1, max_length=64, pattern=r"^[a-z_]+$")
    args: dict[str, Any] = Field(default_factory=dict)
    expect_seq: int | None = None


class EventOut(BaseModel):
    seq: int
    kind: str
    version: int
    data: dict[str, Any]


class PendingOut(BaseModel):
    actor: str
    operations: list[str]
    default: str | None
    rule: str
    required: bool


class Countdown(BaseModel):
    """The auto-dealer's clock: what happens at ``deadline`` (epoch ms) if nobody acts."""

    kind: Literal["betting", "action", "dealer"]
    deadline: int
    actors: list[str]
    op: str


class CommandReply(BaseModel):
    table_id: str
    seq: int = Field(description="the table's last event after the command")
    events: list[EventOut] = Field(description="the command's events the caller may see")
    pending: list[PendingOut]


class TableInfo(BaseModel):
    id: str
    game: str
    status: Literal["open", "paused", "closed", "locked", "frozen"]
    lock_reason: str | None
    options: dict[str, Any]
    settings: dict[str, Any]
    seq: int
    head: str
    players: int
    countdown: Countdown | None


class TableCreate(Strict):
    id: str = Field(max_length=64, pattern=r"^[A-Za-z0-9][\w.\-]{0,63}$")
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    betting_seconds: float = Field(default=15.0, gt=0, le=3600)
    action_seconds: float = Field(default=20.0, gt=0, le=3600)
    dealer: Literal["auto", "live"] = Field(
        default="auto",
        description="auto: the server deals from its RNG on a clock; live: a dealer account "
        "runs the dealer's operations and keys in the outcomes of the physical table",
    )
    player_timeouts: bool = Field(
        default=False,
        description="live tables: the clock also times out a player the rules wait for "
        "after action_seconds (auto-dealt tables always do); otherwise the dealer applies "
        "the player's default (POST /tables/{id}/dealer/default)",
    )


class DealerDefault(Strict):
    """The dealer applies the rules' default for a pending actor (a live table)."""

    actor: str = Field(max_length=80, description="as in pending, e.g. 'player:alice'")
    op: str = Field(
        max_length=64, pattern=r"^[a-z_]+$", description="the pending's default, e.g. pass_dice"
    )


class Control(Strict):
    reason: str = Field(min_length=1, max_length=500)


class CashierBody(Strict):
    player: str = Field(max_length=64)
    amount: Avos
    memo: str = Field(default="", max_length=200)


class BalanceReply(BaseModel):
    account: str
    balance: int


class UserCreate(Strict):
    name: str = Field(max_length=64)
    role: Literal["player", "dealer", "cashier", "supervisor", "auditor", "administrator"]
    password: str = Field(min_length=8, max_length=256)


class ViewReply(BaseModel):
    table_id: str
    seq: int
    status: str
    view: dict[str, Any]
    pending: list[PendingOut]
    countdown: Countdown | None


# --- WebSocket (server → client) ------------------------------------------------------


class WsSnapshot(BaseModel):
    """Sent on connect (after the missed events when ``last_seq`` was given)."""

    type: Literal["snapshot"] = "snapshot"
    table_id: str
    seq: int
    status: str
    view: dict[str, Any]
    pending: list[PendingOut]
    countdown: Countdown | None


class WsEvent(BaseModel):
    """One journalled event this viewer may see (``seq`` may skip events he may not)."""

    type: Literal["event"] = "event"
    seq: int
    event: dict[str, Any] = Field(description='{"kind", "version", "data"}')


class WsState(BaseModel):
    """After each committed command: the viewer's view, what is pending, the clock."""

    type: Literal["state"] = "state"
    table_id: str
    seq: int
    status: str
    view: dict[str, Any]
    pending: list[PendingOut]
    countdown: Countdown | None


class WsError(BaseModel):
    """Sent before the server closes a socket (bad token, unknown table, too slow)."""

    type: Literal["error"] = "error"
    error: str
    rule: str | None
    message: str


WS_MESSAGES: tuple[type[BaseModel], ...] = (WsSnapshot, WsEvent, WsState, WsError)
