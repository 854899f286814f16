"""The one contract of the four live tables (STYLE §8): operations, pending, views, replay.

A table engine (``BaccaratTable``, ``CrapsTable``, ``TileTable`` for Pai Gow and Taiwan Pai
Kao) is pure and deterministic. The server, the CLI and the tests drive all four the same
way:

* **Operations** decide and emit events. Each is three methods, ``verify_x`` (raise a typed
  error naming the rule), ``can_x`` and ``x`` (verify, then :meth:`TableEngine.apply` each
  event it emits, and return them). Every operation names its :class:`Actor`, checked
  against the rules. :meth:`TableEngine.execute` runs any operation from a
  :class:`Command` (an actor, the operation's name, JSON arguments): the server's and the
  CLI's one entry point.
* :meth:`TableEngine.apply` is the only place state changes (typed dispatch, no strings).
* :meth:`TableEngine.pending` says who may act now, with which operations, and what the
  rules do if they don't (:class:`Pending`). ``TableEngine.execute(time_out(p))`` applies
  that default as events citing the rule: the engine decides *what*, the server's clock
  decides *when*.
* :meth:`TableEngine.view` is what one :class:`~macau_tables.core.visibility.Viewer` may
  see now; each event's :meth:`~macau_tables.core.journal.Event.audience` says who may see
  it. Hidden orders (shoe, woodpile) are never in an event: a shuffle publishes a
  commitment to its server seed, and the seed is revealed when the shoe, woodpile or
  shooter ends (:func:`macau_tables.core.rng.commitment`, :meth:`Rng.for_event`).
* Money: engines own no ledger. Events that move money carry a
  :class:`~macau_tables.core.ledger.Movement` (postings and holds) in the account scheme
  below; ``Ledger.project(events)`` is the money of a table.
* **Replay** (:func:`replay`) re-runs the operations: for each journalled event that starts
  an operation, the engine names the :class:`Command` that produced it
  (:meth:`TableEngine.command_of`; chance results are replayed through the operation's
  keyed-in form, e.g. ``throw`` with the recorded dice), executes it, and demands the very
  events the journal holds. A forged journal is refused with the first entry and rule.

Account scheme (one for all games; the table id is in every table account)::

    player:<name>              a player's wallet (the cashier's side, server-managed)
    stack:<table>:<name>       the chips a player has at a table (buy-in / cash-out)
    wagers:<table>             bets in play (holds)
    bank:<table>               a tile table's bank capital in play (banker and co-bankers)
    house:<table>              the house's result at the table (banked games, house co-bank)
    commission:<table>         commission collected at the table
    cage                       where outside money enters and leaves
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Protocol, Self, TypeVar, runtime_checkable

from macau_tables.core import snapshot
from macau_tables.core.errors import (
    InvalidInput,
    MacauTablesError,
    OutOfOrder,
    ReplayMismatch,
    SeedNotRevealed,
    passes,
)
from macau_tables.core.journal import Event, Journal, JsonValue, event_from_json, event_type
from macau_tables.core.ledger import Movement, Posting, Transaction, movement_of, validate_account
from macau_tables.core.money import Currency, Money, currency_by_code
from macau_tables.core.rng import Rng, commitment
from macau_tables.core.visibility import Audience, Viewer

__all__ = [
    "Actor",
    "Audience",
    "Checkpoint",
    "Command",
    "LimitsChanged",
    "Pending",
    "Replay",
    "Role",
    "Round",
    "RoundCorrected",
    "RoundMark",
    "RoundVoided",
    "SeedCommitted",
    "SeedRevealed",
    "SnapshotOps",
    "Snapshots",
    "Snapshotting",
    "Step",
    "TableEngine",
    "TableOpened",
    "TimedOut",
    "Viewer",
    "accounts",
    "effective_events",
    "hold_aliases",
    "mark_rounds",
    "money_delta",
    "movement",
    "replay",
    "replay_from",
    "revealed_seeds",
    "rounds",
    "safe_base",
    "time_out",
    "transfer",
]

_E = TypeVar("_E")
_NAME = re.compile(r"[A-Za-z0-9][\w.\-]{0,63}")


def check_name(name: str, what: str = "name") -> str:
    """A player, staff or table name: letters, digits, ``_ . -``, at most 64 characters."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise InvalidInput(f"bad {what} {name!r}: letters, digits, '_', '.', '-' (max 64)")
    return name


# --- actors --------------------------------------------------------------------------


class Role(StrEnum):
    """Who acts. A seat's player, the banker and a shooter are all ``PLAYER`` (by name):
    the rules of each operation say which player may act."""

    PLAYER = "player"
    DEALER = "dealer"
    SUPERVISOR = "supervisor"
    SYSTEM = "system"  # the table itself: auto-dealing and the rules' defaults on time-out


@dataclass(frozen=True, slots=True)
class Actor:
    """The one who performs an operation: ``Actor.player("alice")``, ``Actor.DEALER``…"""

    role: Role
    name: str = ""

    DEALER: ClassVar[Actor]
    SYSTEM: ClassVar[Actor]

    def __post_init__(self) -> None:
        if self.role in (Role.PLAYER, Role.SUPERVISOR):
            check_name(self.name, f"{self.role} name")
        elif self.name and self.role is Role.SYSTEM:
            raise InvalidInput("the system actor has no name")

    @classmethod
    def player(cls, name: str) -> Actor:
        if cls is Actor and type(name) is str:  # anything else: refused by check_name
            return _player(name)
        return cls(Role.PLAYER, name)

    @classmethod
    def supervisor(cls, name: str) -> Actor:
        return cls(Role.SUPERVISOR, name)

    @classmethod
    def parse(cls, text: str) -> Actor:
        """``"player:alice"``, ``"dealer"``, ``"supervisor:sam"``, ``"system"``."""
        role, _, name = str(text).partition(":")
        try:
            return cls(Role(role), name)
        except ValueError as exc:
            raise InvalidInput(f"bad actor {text!r} (try 'player:alice' or 'dealer')") from exc

    def __str__(self) -> str:
        # (str concatenation: a StrEnum member is a str; an f-string formats it through
        # Enum.__format__, a hot path's cost — names are built per event and posting)
        return self.role + ":" + self.name if self.name else str(self.role)

    def viewer(self) -> Viewer:
        """What this actor may see."""
        if self.role is Role.PLAYER:
            return Viewer.player(self.name)
        if self.role is Role.SUPERVISOR:
            return Viewer.SUPERVISOR
        return Viewer.DEALER


Actor.DEALER = Actor(Role.DEALER)
Actor.SYSTEM = Actor(Role.SYSTEM)


@functools.lru_cache(maxsize=4096)
def _player(name: str) -> Actor:
    """``Actor.player(name)``, validated and built once per name (an actor is frozen: the
    same one serves every call; ``pending()`` asks for every seated player's after every
    event)."""
    return Actor(Role.PLAYER, name)


# --- commands and what is pending ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    """One operation to run: who, which, with what (JSON-plain arguments).

    ``Command(Actor.player("alice"), "place_bet", {"kind": "banker", "amount": 10000})``.
    Amounts are integer minor units; the engine validates every argument and raises a
    typed error naming the rule (``InvalidInput`` for malformed arguments).
    """

    actor: Actor
    op: str
    args: Mapping[str, JsonValue] = field(default_factory=dict)

    def to_json(self) -> dict[str, JsonValue]:
        return {"actor": str(self.actor), "op": self.op, "args": dict(self.args)}


@dataclass(frozen=True, slots=True)
class Pending:
    """Who may act now, with which operations, and what the rules do if they don't.

    ``default`` is the operation the engine applies on a time-out (``None``: nothing is
    owed, e.g. a player who may bet but need not), and ``rule`` the rule ID or Reading
    that makes it the default. ``required`` says whether the game waits for this actor
    (a holder who must set his tiles) or goes on without him (an optional bet).
    """

    actor: Actor
    operations: tuple[str, ...]
    default: str | None = None
    rule: str = ""
    required: bool = True

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "actor": str(self.actor),
            "operations": list(self.operations),
            "default": self.default,
            "rule": self.rule,
            "required": self.required,
        }


def time_out(pending: Pending) -> Command:
    """The command that applies ``pending``'s default: the system acts for the actor.

    Engines implement the operation ``time_out`` with ``{"actor": str, "op": default}``:
    it emits an event naming the actor, the default and its rule, then the default's own
    events. Refuses a pending step with no default.
    """
    if pending.default is None:
        raise InvalidInput(f"{pending.actor} has no default action to time out")
    return Command(Actor.SYSTEM, "time_out", {"actor": str(pending.actor), "op": pending.default})


# --- the events every table shares -----------------------------------------------------


@event_type
class TableOpened(Event):
    """The first event of every table's journal: the game, the table and its rules.

    ``rules`` is the rule set's JSON (each game's ``Rules.to_json``); replay rebuilds the
    rule set from here, never from a journal header.
    """

    kind: ClassVar[str] = "table.opened"
    game: str
    table_id: str
    rules: dict[str, Any]


@event_type
class TimedOut(Event):
    """``actor`` did not act in time; the rules' default ``op`` follows (``rule`` says why)."""

    kind: ClassVar[str] = "table.timed_out"
    actor: str
    op: str
    rule: str


@event_type
class SeedCommitted(Event):
    """A server seed for ``label`` (a shoe, a woodpile, a shooter) is fixed: its SHA-256."""

    kind: ClassVar[str] = "table.seed_committed"
    label: str
    commitment: str


@event_type
class SeedRevealed(Event):
    """The seed committed for ``label``, revealed (hex) once what it hid is over (a shoe
    ended, a woodpile used up, a shooter's dice passed): anyone checks it by its SHA-256."""

    kind: ClassVar[str] = "table.seed_revealed"
    label: str
    seed: str


@event_type
class Checkpoint(Event):
    """The table's state here, by the SHA-256 of its snapshot (``core.snapshot``): the
    state every entry before this one built. A server stores the snapshot beside it and
    later starts the table from there instead of from its first event; replay re-derives
    the digest, so a snapshot that is not the state the chain says is refused. No part of
    a round: voids, corrections and rounds pass over it (:func:`effective_events`)."""

    kind: ClassVar[str] = "table.checkpoint"
    state: str


class Snapshots:
    """An engine's snapshots (``checkpoint``): the state its journal's window starts from
    (``base``, None when the window starts at the table's opening) and the states it
    checkpointed since (``later``: ``(seq of the checkpoint event, encoded state)``).

    :meth:`compact` moves the window to a later checkpoint once no void or correction can
    reach back before it: every engine voids and corrects only its last round (the rounds
    of :func:`rounds`), so a checkpoint with a whole round after it, begun and ended, is
    safe to start from."""

    __slots__ = ("base", "later")

    def __init__(self, base: Any = None) -> None:
        self.base: Any = base
        self.later: list[tuple[int, Any]] = []

    def take(self, engine: TableEngine, encoded: Any) -> None:
        """The engine journalled a checkpoint of ``encoded`` (its last event)."""
        self.later.append((len(engine.journal) - 1, encoded))

    def compact(self, engine: TableEngine) -> int:
        """Let the journal's entries before the latest safe checkpoint go; the seq the
        window starts at now."""
        journal = engine.journal
        if not self.later:
            return journal.first
        events, first = journal.events, journal.first
        safe = [(seq, enc) for seq, enc in self.later if safe_base(events, first, seq)]
        if not safe:
            return journal.first
        seq, enc = safe[-1]
        journal.drop_before(seq)
        self.base = enc
        self.later = [(s, e) for s, e in self.later if s > seq]
        return seq


def encode_state(engine: object, skip: frozenset[str]) -> Any:
    """An engine's attributes but ``skip``, encoded (``core.snapshot.encode``)."""
    return snapshot.encode({k: v for k, v in vars(engine).items() if k not in skip})


def decode_state(cls: type[_E], encoded: Any) -> _E:
    """An engine of ``cls`` with the attributes ``encoded`` holds (not ``__init__``'s: the
    caller sets what the snapshot left out)."""
    state = snapshot.decode(encoded)
    if not isinstance(state, dict) or not all(isinstance(k, str) for k in state):
        raise snapshot.SnapshotError(f"not the state of a {cls.__name__}")
    engine = cls.__new__(cls)
    vars(engine).update(state)
    return engine


def verify_checkpoint(actor: Actor) -> None:
    """Only the table itself (the server, as ``system``) checkpoints a table."""
    if not isinstance(actor, Actor) or actor.role is not Role.SYSTEM:
        raise OutOfOrder(f"only the table's server (system) checkpoints a table, not {actor}")


class SnapshotOps:
    """What the engines' snapshots share (a mixin): the state encoded but ``SNAPSHOT_SKIP``
    (what a replay would not rebuild exactly, or keeps apart: the journal, the seeds,
    caches), the ``checkpoint`` operation's check, and the latest checkpoint taken. Each
    engine writes its own ``checkpoint``, ``compact`` and ``from_snapshot``."""

    SNAPSHOT_SKIP: ClassVar[frozenset[str]] = frozenset()
    _snaps: Snapshots

    def snapshot_state(self) -> Any:
        """The table's state, encoded (``core.snapshot``): what ``from_snapshot`` needs."""
        return encode_state(self, self.SNAPSHOT_SKIP)

    def verify_checkpoint(self, actor: Actor = Actor.SYSTEM) -> None:
        verify_checkpoint(actor)

    def can_checkpoint(self, actor: Actor = Actor.SYSTEM) -> bool:
        return passes(self.verify_checkpoint, actor)

    def latest_snapshot(self) -> tuple[int, Any] | None:
        """The last checkpoint's (seq, encoded state), if any since the window's start."""
        return self._snaps.later[-1] if self._snaps.later else None

    def seed_vault(self) -> Mapping[str, bytes]:
        """The server seeds the table holds, by commitment (``core.rng.commitment``), as a
        read-only view: those it drew or was given. A snapshot leaves them out
        (``SNAPSHOT_SKIP``) and :meth:`from_snapshot` takes them back; a replay of a live
        table (its seeds not yet revealed) needs them, and the server keeps them secret.
        The one way to read them from outside the engine (each engine gives its own)."""
        raise NotImplementedError

    @classmethod
    def from_snapshot(
        cls,
        encoded: Any,
        journal: Journal,
        seeds: Mapping[str, bytes] | None = None,
        window: Journal | None = None,
    ) -> Self:
        """The table in the state ``encoded`` (:meth:`snapshot_state`), its journal the
        window ``journal`` (empty, from the entry after the state: ``Journal.resume``);
        ``window``: the entries it will replay (``replay_from``), if it is to replay them."""
        table = cls._restored(encoded, journal, seeds or {})
        if window is not None:
            table._replaying(window)
        return table

    @classmethod
    def _restored(cls, encoded: Any, journal: Journal, seeds: Mapping[str, bytes]) -> Self:
        """The engine with the attributes ``encoded`` holds and those the snapshot left out
        (each engine's own)."""
        raise NotImplementedError

    def _replaying(self, window: Journal) -> None:
        """Before ``window``'s entries are re-run: what a replay from the table's opening
        would have taken from the whole journal (an engine's own; none by default)."""


def safe_base(events: Sequence[Event], first: int, seq: int) -> bool:
    """Whether a table whose journal is ``events`` (from entry ``first``) may start from its
    checkpoint at ``seq``: a whole round begun and ended after it (every engine voids and
    corrects only its last round, so none can reach back before it), and no void or
    correction since that took back a span around it (the history the state follows no
    longer passes through it)."""
    scanned = rounds(events, start=first)
    ended = [r for r in scanned[1:] if r.status != UNDER_WAY]  # the first may be partial
    if not any(r.first >= seq for r in ended):
        return False
    for at, ev in enumerate(events, start=first):
        if isinstance(ev, RoundVoided | RoundCorrected) and at > seq:
            target = ev.from_seq if isinstance(ev, RoundVoided) else ev.of_seq
            if target < seq:
                return False
    return True


def checkpoint_event(encoded: Any) -> Checkpoint:
    """The checkpoint of a state encoded by ``core.snapshot.encode``."""
    return Checkpoint(snapshot.digest(encoded))


def movement(
    currency: Currency,
    postings: Sequence[tuple[str, int]],
    *,
    opens: Sequence[str] = (),
    closes: Sequence[str] = (),
    memo: str = "",
) -> Movement:
    """A money event's :class:`Movement` from its JSON-plain fields.

    Money events carry ``postings`` as ``(account, minor units)`` pairs in the account
    scheme, and the hold ids they open and close; ``Event.movement`` returns this.
    """
    # Transaction.of's merge, on the plain pairs: each posting is built once, merged (a
    # server builds two movements a bet; building every posting twice was half their cost)
    merged: dict[str, int] = {}
    for acc, minor in postings:
        validate_account(acc)  # as Posting would, for an account whose net is zero too
        if type(minor) is not int:
            Money(minor, currency)  # refuses what Money refuses (a bool, a float, …)
        merged[acc] = merged.get(acc, 0) + minor
    tx = Transaction(
        tuple(Posting(acc, Money(minor, currency)) for acc, minor in merged.items() if minor), memo
    )
    return Movement(tx, tuple(opens), tuple(closes))


def transfer(
    currency: Currency | str,
    source: str,
    dest: str,
    amount: int,
    *,
    opens: Sequence[str] = (),
    closes: Sequence[str] = (),
    memo: str = "",
) -> Movement:
    """The :class:`Movement` of ``amount`` minor units from ``source`` to ``dest`` (a buy-in,
    a cash-out, a bet's hold…); ``currency`` as a :class:`Currency` or its code."""
    cur = currency_by_code(currency) if isinstance(currency, str) else currency
    return movement(cur, [(source, -amount), (dest, amount)], opens=opens, closes=closes, memo=memo)


# --- supervisor corrections: void, correct, limits -------------------------------------
#
# The journal is history: a wrong key-in and its settlement stay in it. A supervisor's void
# or correction is a NEW event that carries the reversing money (one transaction: the net
# difference between the round as journalled and the round as it should have been) and
# tells the engine which history its state now follows (:func:`effective_events`):
#
# * ``table.round_voided {from_seq}``: the round from ``from_seq`` to the void did not
#   happen; its bets are refunded (the net reversal of all its money), bets from before
#   it stand as they stood before it.
# * ``table.round_corrected {of_seq, op, args, rerun}``: the operation at ``of_seq`` (a
#   keyed-in outcome, the table's last operation) is re-run by the rules with the
#   corrected arguments; ``rerun`` holds the events the rules give, as they read alone,
#   and the event's money is the net difference (the wrong settlement reversed, the
#   right one posted).
#
# Holds: a hold is opened once and closed once in the database. A hold the wrong history
# closed but the right one leaves open (a bet the reversed roll had decided) is re-issued
# under a new id ``<hold>~<seq of the correction>`` (``aliases``), and the engine names
# that bet by its new hold from then on (:func:`hold_aliases`). Replay re-runs the
# correction like any operation (``command_of`` names it) and demands the same event.


@event_type
class RoundVoided(Event):
    """A supervisor voided the round from ``from_seq`` (a second supervisor approved)."""

    kind: ClassVar[str] = "table.round_voided"
    from_seq: int
    reason: str
    request: int
    requested_by: str
    approved_by: str
    currency: str
    postings: tuple[tuple[str, int], ...]
    opens: tuple[str, ...]
    closes: tuple[str, ...]
    aliases: tuple[tuple[str, str], ...]

    def movement(self) -> Movement | None:
        return _correction_movement(self)


@event_type
class RoundCorrected(Event):
    """A supervisor corrected the keyed-in operation at ``of_seq``: ``op`` re-run with
    ``args``; ``rerun`` is what the rules give (event JSON), the money the net difference."""

    kind: ClassVar[str] = "table.round_corrected"
    of_seq: int
    op: str
    args: dict[str, Any]
    reason: str
    request: int
    requested_by: str
    approved_by: str
    rerun: tuple[dict[str, Any], ...]
    currency: str
    postings: tuple[tuple[str, int], ...]
    opens: tuple[str, ...]
    closes: tuple[str, ...]
    aliases: tuple[tuple[str, str], ...]

    def movement(self) -> Movement | None:
        return _correction_movement(self)


@event_type
class LimitsChanged(Event):
    """New table limits (minor units), taking effect at the next round boundary: a round
    under way keeps the limits its bets were placed under (each engine says where its
    rounds end).

    ``min_bet`` / ``max_bet`` are the limits of the table's main bet: craps a flat bet (odds
    have only their cap, CR-2.2); baccarat the Player and Banker bets (BA-13); Pai Gow and
    Taiwan Pai Kao a player's bet on a place (PG-4.6, TW-2g). Two optional fields (written
    only when given: a journal from before them reads and hashes as it did):

    * ``bets``: other bets' own limits by name, ``[min, max]`` — baccarat's ``tie``,
      ``banker_pair``, ``player_pair`` (BA-13); the bets it does not name keep theirs;
    * ``differential``: baccarat's limit on the Banker/Player difference (BA-14); None
      keeps the table's.
    """

    kind: ClassVar[str] = "table.limits_changed"
    min_bet: int
    max_bet: int
    by: str
    reason: str
    bets: dict[str, tuple[int, int]] = field(default_factory=dict)
    differential: int | None = None

    def args(self) -> dict[str, JsonValue]:
        """The arguments of the ``change_limits`` operation that wrote this event (replay:
        ``command_of``); the optional ones only when given."""
        out: dict[str, JsonValue] = {"min_bet": self.min_bet, "max_bet": self.max_bet}
        if self.bets:
            out["bets"] = {name: [low, high] for name, (low, high) in self.bets.items()}
        if self.differential is not None:
            out["differential"] = self.differential
        return {**out, "reason": self.reason}

    def limits_json(self) -> dict[str, JsonValue]:
        """The limits this event sets, for a view (``next_limits``): no reason, no name."""
        out = self.args()
        del out["reason"]
        return out


def _correction_movement(ev: RoundVoided | RoundCorrected) -> Movement | None:
    if not (ev.postings or ev.opens or ev.closes):
        return None
    return movement(
        currency_by_code(ev.currency), ev.postings, opens=ev.opens, closes=ev.closes, memo=ev.kind
    )


def effective_events(events: Sequence[Event], start: int = 0) -> list[tuple[int, Event]]:
    """The history a table's state follows, as ``(seq, event)`` (``events[0]`` is entry
    ``start``): each void drops its round's events; each correction replaces the events
    from ``of_seq`` by its ``rerun`` (tagged with the correction's seq). The voids and
    corrections themselves are left out: their money is the difference between the two
    histories; so are checkpoints (they change nothing)."""
    out: list[tuple[int, Event]] = []
    for seq, ev in enumerate(events, start=start):
        if isinstance(ev, Checkpoint):
            continue
        if isinstance(ev, RoundVoided):
            out = [(s, e) for s, e in out if s < ev.from_seq]
        elif isinstance(ev, RoundCorrected):
            out = [(s, e) for s, e in out if s < ev.of_seq]
            out.extend((seq, _rerun_event(j)) for j in ev.rerun)
        else:
            out.append((seq, ev))
    return out


def _rerun_event(obj: Mapping[str, Any]) -> Event:
    """An event of a correction's ``rerun`` (loaded events hold tuples: back to JSON)."""
    return event_from_json(json.loads(json.dumps(obj)))


def hold_aliases(events: Sequence[Event]) -> dict[str, str]:
    """Hold id as an engine names it → the id it has in the ledger now (re-issued by a
    void or a correction)."""
    out: dict[str, str] = {}
    for ev in events:
        if isinstance(ev, RoundVoided | RoundCorrected):
            out.update(dict(ev.aliases))
    return out


def money_delta(
    wrong: Sequence[Event], right: Sequence[Event], aliases: Mapping[str, str], seq: int
) -> dict[str, Any]:
    """The money fields of a void or correction at ``seq``: what takes the ledger from
    the ``wrong`` history's tail to the ``right`` one's (postings: right minus wrong; holds:
    closed where the right history closes them or drops them, re-issued where it leaves
    open what the wrong one closed). Returns ``{postings, opens, closes, aliases}``."""
    postings: dict[str, int] = {}
    w_open: set[str] = set()
    w_closed: set[str] = set()
    r_open: set[str] = set()
    r_closed: set[str] = set()
    for sign, evs, opened, closed in ((-1, wrong, w_open, w_closed), (1, right, r_open, r_closed)):
        for ev in evs:
            mv = movement_of(ev)
            if mv is None:
                continue
            for p in mv.transaction.postings:
                postings[p.account] = postings.get(p.account, 0) + sign * p.amount.minor
            opened.update(mv.opens)
            closed.update(mv.closes)
    base = {v: k for k, v in aliases.items()}
    opens: list[str] = []
    closes: list[str] = []
    new_aliases: list[tuple[str, str]] = []
    for hold in sorted(w_open | w_closed | r_open | r_closed):
        in_wrong = hold in w_open or hold in w_closed
        wrong_closed, right_closed = hold in w_closed, hold in r_closed
        right_drops = in_wrong and hold in w_open and hold not in r_open
        if hold in r_open and hold not in w_open:
            opens.append(hold)  # placed only in the right history
        if (right_closed or right_drops) and not wrong_closed:
            closes.append(hold)
        elif wrong_closed and not right_closed and not (hold in w_open and hold not in r_open):
            # the wrong history settled it, the right one leaves it open: a new hold id
            new = f"{base.get(hold, hold)}~{seq}"
            opens.append(new)
            new_aliases.append((base.get(hold, hold), new))
    return {
        "postings": tuple((a, m) for a, m in sorted(postings.items()) if m),
        "opens": tuple(opens),
        "closes": tuple(closes),
        "aliases": tuple(new_aliases),
    }


# --- the engine ----------------------------------------------------------------------


@runtime_checkable
class TableEngine(Protocol):
    """What each of the four table engines provides (see the module docstring)."""

    game: ClassVar[str]

    @property
    def table_id(self) -> str: ...

    @property
    def journal(self) -> Journal: ...

    def pending(self) -> tuple[Pending, ...]: ...

    def view(self, viewer: Viewer) -> dict[str, JsonValue]: ...

    def execute(self, command: Command, rng: Rng | None = None) -> tuple[Event, ...]:
        """Run one operation; ``rng`` for chance operations (shuffle, throw, shake) when
        their outcome is not given in the arguments. Returns the events it appended."""
        ...

    def apply(self, event: Event) -> None: ...

    def record(self, event: Event) -> None:
        """Take one journalled event as its operation did when it emitted it: the state
        changes (``apply``), the event is journalled, and a void or a correction restates
        the table (:meth:`Replay.skip_to`)."""
        ...

    def command_of(self, event: Event) -> Command | None:
        """The command that starts with ``event`` in a journal (for replay), or None if
        ``event`` is derived from an earlier one and cannot start an operation."""
        ...


@runtime_checkable
class Snapshotting(Protocol):
    """An engine with snapshots (the four games): ``checkpoint`` journals its state's digest,
    ``compact`` lets go of the entries before the latest safe checkpoint; ``seed_vault``
    gives the server seeds the snapshot leaves out (:meth:`SnapshotOps.seed_vault`)."""

    def snapshot_state(self) -> Any: ...

    def checkpoint(self, actor: Actor = ...) -> Any: ...

    def compact(self) -> int: ...

    def latest_snapshot(self) -> tuple[int, Any] | None: ...

    def seed_vault(self) -> Mapping[str, bytes]: ...


# --- replay --------------------------------------------------------------------------


def revealed_seeds(events: Sequence[Event]) -> dict[str, bytes]:
    """The seeds revealed in ``events``, by their commitment (``sha256(seed)`` hex)."""
    out: dict[str, bytes] = {}
    every: list[Event] = []
    for ev in events:
        every.append(ev)
        if isinstance(ev, RoundCorrected):  # a corrected round may reveal a seed
            every.extend(_rerun_event(j) for j in ev.rerun)
    for ev in every:
        if isinstance(ev, SeedRevealed):
            try:
                seed = bytes.fromhex(ev.seed)
            except ValueError as exc:
                raise ReplayMismatch(f"{ev.label}: revealed seed is not hex") from exc
            out[commitment(seed)] = seed
    return out


@dataclass(frozen=True, slots=True)
class Step:
    """One operation of a journal, re-run: the command, and the index of its first event
    in the journal and its events (``events[k]`` is entry ``first + k``)."""

    first: int
    command: Command
    events: tuple[Event, ...]

    @property
    def last(self) -> int:
        return self.first + len(self.events) - 1


class Replay:
    """A journal re-run operation by operation (:func:`replay` runs it to the end).

    ``Replay(journal, open_engine, seeds)`` verifies the chain and opens the engine from
    the journal's opening event; :meth:`steps` then yields each operation as it is re-run
    (``self.engine`` is the table just after it, ``self.done`` the entries replayed so
    far). With ``partial=True`` the steps stop, instead of failing, at the first operation
    that needs a server seed committed but not revealed (a shoe, woodpile or shooter still
    in play): ``self.waiting`` then says which; the entries from ``self.done`` on follow
    from that seed and are replayed once it is revealed.
    """

    def __init__(
        self,
        journal: Journal,
        open_engine: Callable[[Journal, Mapping[str, bytes]], TableEngine] | None,
        seeds: Mapping[str, bytes] | None = None,
        *,
        engine: TableEngine | None = None,
    ) -> None:
        journal.verify()
        self._verified = journal.entries  # what the chain's check saw (:meth:`skip_to`)
        self.journal = journal
        if engine is not None:
            # a window of the journal (from entry ``journal.first``) on an engine restored
            # from the snapshot of the state before it (its journal a window from there)
            if len(engine.journal) != journal.first or engine.journal.head != (
                journal.entry(journal.first).prev_hash if journal.kept else journal.head
            ):
                raise ReplayMismatch(
                    f"entry {journal.first}: the snapshot is not of the state before it"
                )
            self.engine = engine
        else:
            if open_engine is None:
                raise ValueError("Replay needs open_engine or engine")
            known = revealed_seeds(journal.events)
            known.update(seeds or {})
            self.engine = open_engine(journal, known)
        self.done = len(self.engine.journal)
        self.waiting: str | None = None

    def skip_to(self, index: int) -> None:
        """Take the journal's entries before ``index`` as they are journalled (the engine's
        ``record``: its ``apply``, the only place its state changes, and its journal),
        without re-running their operations; :meth:`steps` then re-runs from ``index`` on.

        For a reader who needs the table's state at a point of a journal already verified
        by a full replay (a recall of the last rounds: the server replays every table's
        journal when it loads it), not for a verification. The entries are those whose
        chain was checked when the replay began; the engine's journal takes each as it is
        (its hash not worked out again: ``Journal.verified``) when the engine journals the
        very event recorded, chained to the same head — any other event it journals is
        hashed, and a head that differs from the entry's raises :class:`ReplayMismatch`.
        ``index`` must start an operation (a round's first entry does)."""
        entries, base = self._verified, self.journal.first
        if not self.done <= index <= base + len(entries):
            raise ValueError(f"skip_to({index}): the replay is at entry {self.done}")
        journal = self.engine.journal
        with journal.verified(entries[self.done - base : index - base]):
            for i in range(self.done, index):
                self.engine.record(entries[i - base].event)
                if journal.head != entries[i - base].hash:
                    raise ReplayMismatch(f"entry {i}: applied, it does not chain as journalled")
        self.done = index

    def steps(self, *, partial: bool = False) -> Iterator[Step]:
        engine, recorded, base = self.engine, self._verified, self.journal.first
        expected = _Offset(self.journal.events, base)
        i = self.done
        while i < len(expected):
            ev = expected[i]
            try:
                cmd = engine.command_of(ev)
            except SeedNotRevealed as exc:
                if not partial:
                    stop = SeedNotRevealed(f"entry {i}: {exc}", rule=exc.rule)
                    stop.entry = i
                    raise stop from exc
                self.waiting = f"entry {i}: {exc}"
                return
            except MacauTablesError as exc:
                raise ReplayMismatch(f"entry {i}: {exc}", rule=exc.rule) from exc
            if cmd is None:
                raise ReplayMismatch(f"entry {i}: {ev.kind} does not follow from the rules here")
            try:
                got = engine.execute(cmd)
            except MacauTablesError as exc:
                raise ReplayMismatch(
                    f"entry {i}: {ev.kind} refused by the rules: {exc}", rule=exc.rule
                ) from exc
            journal = engine.journal
            for k, derived in enumerate(got):
                j = i + k
                # compared by hash: the entry the engine journalled (its canonical JSON —
                # a list and a tuple of the same items are the same event — chained to the
                # same head) against the verified one; the JSON only to say what differs
                if j >= len(expected) or journal.entry(j).hash != recorded[j - base].hash:
                    have = expected[j].kind if j < len(expected) else "nothing"
                    raise ReplayMismatch(
                        f"entry {j}: the journal has {have}, the rules give {derived.kind} "
                        f"{_diff(expected[j] if j < len(expected) else None, derived)}"
                    )
            if not got:
                raise ReplayMismatch(f"entry {i}: {ev.kind} produced no event on replay")
            self.done = i = i + len(got)
            yield Step(i - len(got), cmd, tuple(got))


class _Offset:
    """A window's events indexed by seq (``events[0]`` is entry ``base``)."""

    __slots__ = ("base", "events")

    def __init__(self, events: Sequence[Event], base: int) -> None:
        self.events, self.base = events, base

    def __len__(self) -> int:
        return self.base + len(self.events)

    def __getitem__(self, seq: int) -> Event:
        return self.events[seq - self.base]


def replay_from(engine: TableEngine, journal: Journal) -> TableEngine:
    """Re-run a window of a journal (its entries from ``journal.first``) on ``engine``,
    restored from the snapshot of the state before that entry, and demand the very events
    the window holds — as :func:`replay` does from the table's opening. A window that
    starts at a :class:`Checkpoint` (a server's does) first re-derives the snapshot's
    digest: a snapshot that is not the state the chain committed to is refused there."""
    run = Replay(journal, None, engine=engine)
    for _ in run.steps():
        pass
    return run.engine


def replay(
    journal: Journal,
    open_engine: Callable[[Journal, Mapping[str, bytes]], TableEngine],
    seeds: Mapping[str, bytes] | None = None,
) -> TableEngine:
    """Re-run a journal's operations and demand the very events it holds.

    ``open_engine(journal, seeds)`` builds the engine from the journal's opening event
    (``TableOpened``, consumed: the engine's own journal then holds it) and the server seeds
    it may need, keyed by their commitment: those revealed anywhere in the journal
    (:func:`revealed_seeds`) and those given (a live table's seeds not yet revealed, which
    the server keeps secret). ``command_of(SeedCommitted(...))`` turns a commitment back into
    the shuffle command that takes its seed; a commitment with no known seed cannot be
    replayed. Then, repeatedly, the next journalled event names its command,
    the engine executes it, and the events it emits must equal the journal's next events.
    Any difference, or a command the rules refuse, raises :class:`ReplayMismatch` naming
    the first entry and the rule. The chain itself is verified first.
    """
    run = Replay(journal, open_engine, seeds)
    for _ in run.steps():
        pass
    return run.engine


# --- rounds (recall) ------------------------------------------------------------------


class RoundMark(StrEnum):
    """What an event does to a round (each engine marks its kinds, :func:`mark_rounds`)."""

    PLAY = "play"  # part of a round: the first one after a round ended opens the next
    SETTLE = "settle"  # the round is decided and settled: it ends
    VOID = "void"  # the round is void (every stake returned): it ends


_ROUND_MARKS: dict[str, RoundMark] = {}


def mark_rounds(
    *,
    play: Iterable[type[Event]] = (),
    settle: Iterable[type[Event]] = (),
    void: Iterable[type[Event]] = (),
) -> None:
    """An engine names the event kinds that make up its rounds (one call per engine
    module): a baccarat hand, a craps roll, a tile table's round. Unmarked events (joining,
    buying chips, a shuffle, a seed's commitment) belong to the round under way, if any."""
    for mark, kinds in ((RoundMark.PLAY, play), (RoundMark.SETTLE, settle), (RoundMark.VOID, void)):
        for cls in kinds:
            _ROUND_MARKS[cls.kind] = mark


@dataclass(frozen=True, slots=True)
class Round:
    """One round of a table's journal: ``number`` counts from 1 at the table's opening;
    ``first`` and ``last`` are the indexes of its first and last events (the journal's last
    event while it is under way); ``status`` is ``settled``, ``voided`` or ``under way``."""

    number: int
    first: int
    last: int
    status: str


UNDER_WAY = "under way"


@dataclass(frozen=True, slots=True)
class Kind:
    """An entry known by its event's kind alone: all :func:`rounds` needs of an event that
    is not a void or a correction (server/recall.py reads the kinds, not the events)."""

    kind: str


def rounds(events: Sequence[Event | Kind], start: int = 0) -> list[Round]:
    """The rounds of a table's journal, from its events alone (recall); each may be a
    :class:`Kind` instead, except a void's or a correction's.

    A round opens at the first event an engine marks :attr:`RoundMark.PLAY` (a bet, a deal,
    a throw, a bank opened) after the previous round ended, and ends at the event marked
    :attr:`RoundMark.SETTLE` or :attr:`RoundMark.VOID`; the last round may be under way.
    A supervisor's void or correction (:class:`RoundVoided`, :class:`RoundCorrected`)
    belongs to the round it names, which then ends with it, ``voided`` or ``corrected``.
    """
    return marked_rounds(enumerate(events, start=start), start + len(events))


def round_kinds() -> frozenset[str]:
    """The event kinds :func:`marked_rounds` needs: those the engines mark, and the
    supervisors' voids and corrections."""
    return frozenset(_ROUND_MARKS) | {RoundVoided.kind, RoundCorrected.kind}


def marked_rounds(entries: Iterable[tuple[int, Event | Kind]], length: int) -> list[Round]:
    """:func:`rounds` from a journal's entries as ``(seq, event)``, in order, of which those
    whose kind is not in :func:`round_kinds` may be left out (a database selects the rest by
    kind: server/recall.py); ``length``: the journal's."""
    out: list[Round] = []
    first: int | None = None
    corrected = False  # the round under way was corrected (a keyed-in step re-run)
    for i, ev in entries:
        if isinstance(ev, RoundVoided | RoundCorrected):
            target = ev.from_seq if isinstance(ev, RoundVoided) else ev.of_seq
            status = "voided" if isinstance(ev, RoundVoided) else "corrected"
            if first is not None and target >= first:  # the round under way
                if status == "voided":
                    out.append(Round(len(out) + 1, first, i, status))
                    first, corrected = None, False
                else:
                    corrected = True
                continue
            for k in range(len(out) - 1, -1, -1):  # a round that ended
                r = out[k]
                if r.first <= target <= r.last:
                    # it ends with the void or correction, unless another round began since
                    last = i if first is None and k == len(out) - 1 else r.last
                    out[k] = Round(r.number, r.first, last, status)
                    break
            continue
        mark = _ROUND_MARKS.get(ev.kind)
        if mark is None:
            continue
        if first is None:
            first = i
        if mark is not RoundMark.PLAY:
            status = "settled" if mark is RoundMark.SETTLE else "voided"
            if status == "settled" and corrected:
                status = "corrected"
            out.append(Round(len(out) + 1, first, i, status))
            first, corrected = None, False
    if first is not None:
        out.append(Round(len(out) + 1, first, length - 1, UNDER_WAY))
    return out


def _diff(have: Event | None, want: Event) -> str:
    if have is None or type(have) is not type(want):
        return ""
    a, b = have.to_json()["data"], want.to_json()["data"]
    assert isinstance(a, dict)
    assert isinstance(b, dict)
    fields = [k for k in b if a.get(k) != b.get(k)]
    return f"(differs in {', '.join(fields)})" if fields else ""


# --- accounts ------------------------------------------------------------------------


class _Accounts:
    """The one account scheme (see the module docstring)."""

    def wallet(self, player: str) -> str:
        return f"player:{check_name(player, 'player name')}"

    def stack(self, table: str, player: str) -> str:
        return f"stack:{check_name(table, 'table id')}:{check_name(player, 'player name')}"

    def wagers(self, table: str) -> str:
        return f"wagers:{check_name(table, 'table id')}"

    def bank(self, table: str) -> str:
        return f"bank:{check_name(table, 'table id')}"

    def house(self, table: str) -> str:
        return f"house:{check_name(table, 'table id')}"

    def commission(self, table: str) -> str:
        return f"commission:{check_name(table, 'table id')}"


accounts = _Accounts()


def json_args(args: Mapping[str, Any], allowed: Sequence[str], op: str) -> Mapping[str, Any]:
    """Refuse arguments an operation does not take (a typo must not be ignored)."""
    extra = sorted(set(args) - set(allowed))
    if extra:
        raise InvalidInput(f"{op}: unknown argument(s) {', '.join(extra)}; it takes {allowed}")
    return args
