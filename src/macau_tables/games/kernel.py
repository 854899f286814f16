"""The table kernel: what every game's table shares, written once (STYLE §8).

OpenSpiel's games share one ``State``; pokerkit declares each operation once. Here
:class:`Table` is the base of ``BaccaratTable``, ``CrapsTable`` and ``TileTable`` (Pai Gow
and Taiwan Pai Kao) and holds the contract's upper half (:mod:`macau_tables.games.contract`):

* **Operations declared once.** A game's method that a participant may call is decorated
  with :func:`operation` — its name, the roles that may act, its rule, its arguments with
  their types (:class:`Arg`, :data:`AMOUNT`, :data:`WHOLE` …). From the declaration come
  :meth:`Table.execute` (the server's and the CLI's one entry point: JSON arguments parsed
  to the declared types, unknown ones refused, the actor's role checked), the ``can_x`` of
  every ``verify_x`` a game writes, the check that :meth:`pending` menus name declared
  operations, and the old names a journal or a client may still send (:class:`Alias`).
* **One return convention**: an operation returns the tuple of the events it journalled.
* **Supervisor void, correction and limits** (``void_round``, ``correct_round``,
  ``change_limits``), **time-outs** (``time_out``: the rules' default as events) and
  **checkpoints** (``checkpoint``, :meth:`compact`, :meth:`from_snapshot`), with the game's
  part in a few hooks. After a void or a correction the state is rebuilt through
  :meth:`apply`: reset to the window's start (the opening or the snapshot), then the
  effective history applied again (``contract.effective_events``).

A game keeps its rules as data, its events, its :meth:`apply`, its round logic and its
views (``docs/architecture.md``, "The table kernel", sketches a fifth game).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Concatenate, ParamSpec, Self, TypeVar

from macau_tables.core import snapshot
from macau_tables.core.errors import (
    InvalidInput,
    JournalError,
    MacauTablesError,
    OutOfOrder,
    ReplayMismatch,
    RuleViolation,
    passes,
)
from macau_tables.core.journal import Event, Journal, JsonValue
from macau_tables.core.ledger import Movement
from macau_tables.core.money import Currency, Money, currency_by_code
from macau_tables.core.rng import Rng
from macau_tables.core.visibility import Audience, Viewer
from macau_tables.games import contract
from macau_tables.games.contract import (
    Actor,
    Checkpoint,
    Command,
    LimitsChanged,
    Pending,
    Role,
    RoundCorrected,
    RoundVoided,
    TableOpened,
    TimedOut,
    check_name,
    json_args,
)

__all__ = [
    "AMOUNT",
    "FLAG",
    "HEX",
    "JSON",
    "OBJECT",
    "TEXT",
    "WHOLE",
    "Alias",
    "Arg",
    "ArgType",
    "ChipsBought",
    "ChipsCashed",
    "NewLimits",
    "Operation",
    "Private",
    "Table",
    "buys_in",
    "can",
    "cashes_out",
    "journal_currency",
    "optional",
    "parsed",
    "parsed_list",
    "staked",
    "supervisor_reason",
]

_F = TypeVar("_F", bound=Callable[..., Any])
_S = TypeVar("_S")
_P = ParamSpec("_P")

# --- argument types -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ArgType:
    """How a JSON argument becomes the value an operation takes: ``parse(value, table)``
    returns it or raises :class:`InvalidInput` naming what was wanted (``what``)."""

    what: str
    parse: Callable[[Any, Table], Any]


def _whole(value: Any, _t: Table) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"a whole number, not {value!r}")
    return value


def _text(value: Any, _t: Table) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"a text, not {value!r}")
    return value


def _flag(value: Any, _t: Table) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(f"true or false, not {value!r}")
    return value


def _amount(value: Any, table: Table) -> Money:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"an amount in minor units (a whole number), not {value!r}")
    return Money(value, table.currency)


def _hex(value: Any, _t: Table) -> bytes:
    if not isinstance(value, str):
        raise InvalidInput(f"hex, not {value!r}")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise InvalidInput(f"hex, not {value!r}") from None


def _object(value: Any, _t: Table) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidInput(f"an object, not {value!r}")
    return value


#: a whole number (an id, a seat, a count)
WHOLE = ArgType("a whole number", _whole)
#: a text
TEXT = ArgType("a text", _text)
#: true or false
FLAG = ArgType("true or false", _flag)
#: an amount of the table's currency, in minor units (avos): a :class:`Money`
AMOUNT = ArgType("an amount in minor units", _amount)
#: bytes, as hex (a server seed)
HEX = ArgType("hex", _hex)
#: a JSON object (a correction's arguments)
OBJECT = ArgType("an object", _object)
#: any JSON value, checked by the operation itself (a round's own structures)
JSON = ArgType("a JSON value", lambda v, _t: v)


def optional(kind: ArgType) -> ArgType:
    """``kind``, or None (JSON ``null``)."""
    return ArgType(f"{kind.what} or null", lambda v, t: None if v is None else kind.parse(v, t))


def parsed(parse: Callable[[str], Any], what: str) -> ArgType:
    """A text read by ``parse`` (``Card.parse``, a bet's name…); its errors are its own."""

    def read(value: Any, _t: Table) -> Any:
        if not isinstance(value, str):
            raise InvalidInput(f"{what}, not {value!r}")
        return parse(value)

    return ArgType(what, read)


def parsed_list(parse: Callable[[Sequence[str]], Any], what: str) -> ArgType:
    """A list of texts read by ``parse`` (cards, tiles)."""

    def read(value: Any, _t: Table) -> Any:
        if not isinstance(value, list | tuple) or not all(isinstance(x, str) for x in value):
            raise InvalidInput(f"{what}, not {value!r}")
        return parse(list(value))

    return ArgType(what, read)


_REQUIRED: Any = object()


@dataclass(frozen=True, slots=True)
class Arg:
    """One argument of an operation: its JSON ``name``, its ``type``, its ``default`` (left
    out: required) and the keyword the method takes it as (``to``; its name if empty)."""

    name: str
    type: ArgType
    default: Any = _REQUIRED
    to: str = ""

    def value(self, args: Mapping[str, Any], table: Table, op: str) -> Any:
        if self.name not in args:
            if self.default is _REQUIRED:
                raise InvalidInput(f"{op}: {self.name} is required ({self.type.what})")
            return self.default
        try:
            return self.type.parse(args[self.name], table)
        except InvalidInput as exc:
            raise InvalidInput(f"{op}: {self.name} is {exc.message}", rule=exc.rule) from None


@dataclass(frozen=True, slots=True)
class Operation:
    """An operation as its game declares it (:func:`operation`)."""

    name: str
    method: str
    actors: frozenset[Role]
    rule: str
    args: tuple[Arg, ...]
    rng: bool
    actor_param: str

    def arg_names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.args)

    def bind(self, args: Mapping[str, Any], table: Table) -> dict[str, Any]:
        """The method's keyword arguments from a command's JSON ``args``."""
        names = self.arg_names()
        json_args(args, names, self.name)
        for a in self.args:
            if a.default is _REQUIRED and a.name not in args:
                raise InvalidInput(
                    f"{self.name}: {a.name} is required ({a.type.what}); it takes {list(names)}"
                )
        return {a.to or a.name: a.value(args, table, self.name) for a in self.args}


def operation(
    name: str = "",
    *,
    actor: Role | Iterable[Role],
    rule: str = "",
    args: Sequence[Arg] = (),
    rng: bool = False,
    actor_param: str = "actor",
) -> Callable[[_F], _F]:
    """Declare a table's method an operation: ``name`` (the method's by default), the
    ``actor`` roles that may perform it, its ``rule``, its ``args``; ``rng`` if it takes
    the command's randomness (a shuffle, a throw); ``actor_param``: the keyword the method
    takes the actor as."""
    roles = frozenset((actor,) if isinstance(actor, Role) else actor)

    def declare(fn: _F) -> _F:
        fn.__operation__ = Operation(  # type: ignore[attr-defined]
            name or fn.__name__, fn.__name__, roles, rule, tuple(args), rng, actor_param
        )
        return fn

    return declare


@dataclass(frozen=True, slots=True)
class Alias:
    """An operation's older name, still taken (a client or a correction journalled under
    it): ``Alias("join", "sit", {"buy_in": "amount"})`` — the arguments renamed."""

    name: str
    op: str
    rename: Mapping[str, str] = field(default_factory=dict)


def can(verify: Callable[Concatenate[_S, _P], object]) -> Callable[Concatenate[_S, _P], bool]:
    """``can_x = can(verify_x)`` in a table's body: ``verify_x`` as a bool
    (``core.errors.passes``), with its arguments' types; a subclass's ``verify_x`` is the
    one asked."""
    name = verify.__name__

    def check(self: _S, /, *args: _P.args, **kwargs: _P.kwargs) -> bool:
        return passes(getattr(self, name), *args, **kwargs)

    check.__name__ = "can_" + name.removeprefix("verify_")
    check.__doc__ = f"``{name}`` as a bool (``core.errors.passes``)."
    return check


@dataclass(frozen=True, slots=True)
class NewLimits:
    """A supervisor's new limits (``change_limits``): the main bets from ``min_bet`` to
    ``max_bet``, other bets' by name (``bets``: baccarat's, BA-13), the Banker/Player
    difference (``differential``: BA-14); each game's rule set checks them
    (:meth:`Table._check_limits`)."""

    min_bet: Money
    max_bet: Money
    bets: Mapping[str, tuple[Money, Money]] = field(default_factory=dict)
    differential: Money | None = None

    def main_only(self, what: str, rule: str) -> None:
        """A game with one pair of limits refuses ``bets`` and ``differential``."""
        if self.bets or self.differential is not None:
            raise InvalidInput(what, rule=rule)


def supervisor_reason(reason: object) -> str:
    """A supervisor's reason: a text of 1 to 500 characters."""
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 500:
        raise InvalidInput("a supervisor's reason is a text of 1 to 500 characters")
    return reason


_SUPERVISED = (
    Arg("reason", TEXT),
    Arg("request", WHOLE),
    Arg("requested_by", TEXT),
)


# --- a player's money: the events every table journals of it -----------------------------


def journal_currency(code: str) -> Currency:
    """An event's currency, by its code (one this code does not know: :class:`JournalError`)."""
    try:
        return currency_by_code(code)
    except InvalidInput as exc:
        raise JournalError(f"an event's currency: {exc}") from exc


def buys_in(currency: str, table_id: str, player: str, amount: int, memo: str) -> Movement:
    """``amount`` minor units from ``player``'s wallet to his stack at the table."""
    return contract.transfer(
        journal_currency(currency),
        contract.accounts.wallet(player),
        contract.accounts.stack(table_id, player),
        amount,
        memo=f"{player} {memo}",
    )


def cashes_out(currency: str, table_id: str, player: str, amount: int, memo: str) -> Movement:
    """``amount`` minor units from ``player``'s stack at the table back to his wallet."""
    return contract.transfer(
        journal_currency(currency),
        contract.accounts.stack(table_id, player),
        contract.accounts.wallet(player),
        amount,
        memo=f"{player} {memo}",
    )


def staked(
    currency: str, table_id: str, player: str, to: str, amount: int, hold: str, memo: str
) -> Movement:
    """``amount`` minor units from ``player``'s stack to ``to`` (the table's wagers, its bank),
    opening the hold ``hold`` (a bet, a co-bank's capital)."""
    stack = contract.accounts.stack(table_id, player)
    cur = journal_currency(currency)
    return contract.transfer(cur, stack, to, amount, opens=(hold,), memo=memo)


class Private:
    """An event of a player's money (a mixin): private to its ``player`` and the staff."""

    __slots__ = ()
    player: str

    def audience(self) -> Audience:
        return Audience.private(self.player)


@dataclass(frozen=True, slots=True)
class ChipsBought(Private, Event):
    """Chips from the player's wallet to his stack at the table (private: his money). A
    game's event of this shape names its ``kind`` (and its ledger ``MEMO``)."""

    MEMO: ClassVar[str] = "buys chips"
    table_id: str
    player: str
    amount: int
    currency: str

    def movement(self) -> Movement | None:
        return buys_in(self.currency, self.table_id, self.player, self.amount, self.MEMO)


@dataclass(frozen=True, slots=True)
class ChipsCashed(Private, Event):
    """Chips from the player's stack back to his wallet (private: his money); a game's
    event of this shape names its ``kind`` (and its ledger ``MEMO``)."""

    MEMO: ClassVar[str] = "cashes out"
    table_id: str
    player: str
    amount: int
    currency: str

    def movement(self) -> Movement | None:
        return cashes_out(self.currency, self.table_id, self.player, self.amount, self.MEMO)


# --- the kernel ---------------------------------------------------------------------------


class Table(contract.SnapshotOps):
    """What every table shares (see the module docstring). A game sets ``game``, writes
    its state's :meth:`_init_state`, its :meth:`apply`, its operations (declared with
    :func:`operation`), :meth:`pending`, :meth:`view`, :meth:`_command_of` and the hooks
    of the supervisor's operations and the time-outs."""

    game: ClassVar[str]
    #: every operation of the table, by name (built from the declarations)
    OPERATIONS: ClassVar[Mapping[str, Operation]] = MappingProxyType({})
    #: older names of operations, still taken
    ALIASES: ClassVar[Sequence[Alias]] = ()
    #: what the game calls a round (a baccarat hand), for messages
    ROUND: ClassVar[str] = "round"
    #: keyed-in operations a supervisor may correct, and the arguments he may change
    CORRECTABLE: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType({})
    #: the operations of a round that follow a keyed-in one (a correction re-runs them)
    FOLLOWING_OPS: ClassVar[frozenset[str]] = frozenset()
    #: a time-out's rule → the citations a journal written before gave it instead
    SUPERSEDED_CITATIONS: ClassVar[Mapping[str, frozenset[str]]] = MappingProxyType({})
    #: the names a snapshot writes the kernel's attributes under (a game's older names:
    #: the checkpoints' digests of journals written before stay as they were)
    SNAPSHOT_NAMES: ClassVar[Mapping[str, str]] = MappingProxyType({})
    #: what a snapshot leaves out: the journal and its events, the seeds (the server keeps
    #: them apart), the snapshots themselves, and a game's caches (added by the game)
    SNAPSHOT_SKIP: ClassVar[frozenset[str]] = frozenset(
        {"_journal", "_events", "_keyring", "_snaps"}
    )

    #: the game's rule set (its ``from_json`` reads what a table's opening wrote)
    RULES: ClassVar[Any]

    rules: Any
    _hold_aliases: dict[str, str]
    #: a supervisor's new limits, waiting for the round under way to end
    _next_limits: LimitsChanged | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        ops: dict[str, Operation] = dict(cls.OPERATIONS)
        for klass in reversed(cls.__mro__):
            for value in vars(klass).values():
                declared = getattr(value, "__operation__", None)
                if isinstance(declared, Operation):
                    ops[declared.name] = declared
        cls.OPERATIONS = MappingProxyType(ops)
        for op in ops.values():  # can_x from verify_x, where the game writes none
            verify, can = f"verify_{op.method}", f"can_{op.method}"
            if hasattr(cls, verify) and not hasattr(cls, can):
                setattr(cls, can, _can_from(verify))

    def __init__(
        self,
        rules: Any,
        table_id: str,
        *,
        journal_game: str,
        header: Mapping[str, Any] | None = None,
        seeds: Mapping[str, bytes] | None = None,
    ) -> None:
        """The kernel's part of a new table (a game's ``__init__`` then sets its state and
        opens the table with :meth:`_open`)."""
        self.rules = rules
        self._table_id = check_name(table_id, "table id")
        self._journal = Journal(journal_game, header or {})
        self._events: list[Event] = []  # the journal's window's events, for slicing
        self._keyring: dict[str, bytes] = dict(seeds or {})  # commitment → server seed
        self._snaps = contract.Snapshots()  # the journal's window and its checkpoints

    def _open(self) -> None:
        """Journal the table's opening (``table.opened`` with the rules)."""
        self._emit(TableOpened(self.game_name(), self._table_id, self.rules.to_json()))

    def game_name(self) -> str:
        """The game a journal names (a tile table's rule set says which)."""
        return self.game

    # --- what a game writes ---------------------------------------------------------------

    def _init_state(self) -> None:
        """Set the game's state to a new table's (a game's ``__init__`` and a void's reset
        call it; the rules are already set)."""
        raise NotImplementedError

    def apply(self, event: Event) -> None:
        """The only place the table's state changes (the game's)."""
        raise NotImplementedError

    def pending(self) -> tuple[Pending, ...]:
        raise NotImplementedError

    def view(self, viewer: Viewer) -> dict[str, JsonValue]:
        raise NotImplementedError

    def _command_of(self, event: Event) -> Command | None:
        """The game's commands that start with an event (replay)."""
        raise NotImplementedError

    def _rules_of(self, opened: TableOpened) -> Any:
        """The rule set a table's opening wrote."""
        return self.RULES.from_json(opened.rules)

    # --- the contract's plumbing ----------------------------------------------------------

    @property
    def table_id(self) -> str:
        return self._table_id

    @property
    def journal(self) -> Journal:
        return self._journal

    @property
    def currency(self) -> Currency:
        """The table's currency (amounts of :data:`AMOUNT` are in it)."""
        cur = self.rules.currency
        return currency_by_code(cur) if isinstance(cur, str) else cur

    @property
    def next_limits(self) -> LimitsChanged | None:
        """Limits changed for the next round, waiting for this one to end (or None)."""
        return self._next_limits

    def seed_vault(self) -> Mapping[str, bytes]:
        """The server seeds this table holds, by commitment (read-only; see
        :meth:`contract.SnapshotOps.seed_vault`)."""
        return MappingProxyType(self._keyring)

    def _emit(self, *events: Event) -> tuple[Event, ...]:
        """Apply each event, journal it; after a void or a correction the state follows
        the effective history (:meth:`_restate`)."""
        for ev in events:
            self.apply(ev)
            self._journal.append(ev)
            self._events.append(ev)
            if isinstance(ev, RoundVoided | RoundCorrected):
                self._hold_aliases.update(ev.aliases)
                self._restate()
        return events

    def record(self, event: Event) -> None:
        """A journalled event taken as its operation took it (contract ``record``)."""
        self._emit(event)

    def _since(self, start: int) -> tuple[Event, ...]:
        """The events journalled from entry ``start`` on."""
        return tuple(self._events[start - self._journal.first :])

    # --- operations: dispatch -------------------------------------------------------------

    @classmethod
    def operation_of(cls, name: str) -> tuple[Operation, Mapping[str, str]]:
        """The operation a command names (an alias resolved), and its arguments' renames."""
        op = cls.OPERATIONS.get(name)
        if op is not None:
            return op, {}
        for alias in cls.ALIASES:
            if alias.name == name:
                return cls.OPERATIONS[alias.op], alias.rename
        known = ", ".join(sorted(cls.OPERATIONS))
        raise InvalidInput(f"{cls.game} has no operation {name!r}; it has {known}")

    def execute(self, command: Command, rng: Rng | None = None) -> tuple[Event, ...]:
        """Run one operation from a :class:`Command` (JSON arguments, amounts in minor
        units, parsed to the declared types; unknown arguments refused); ``rng`` for an
        operation of chance. Returns the events appended."""
        if not isinstance(command, Command) or not isinstance(command.actor, Actor):
            raise InvalidInput("execute takes a Command with an Actor")
        op, rename = self.operation_of(command.op)
        args: Mapping[str, Any] = command.args
        if not isinstance(args, Mapping):
            raise InvalidInput(f"{op.name}: the arguments are an object")
        if rename:
            args = {rename.get(k, k): v for k, v in args.items()}
        if command.actor.role not in op.actors:
            who = " or ".join(f"a {role}" for role in sorted(op.actors))
            raise OutOfOrder(
                f"{op.name}: {who} performs it, not {command.actor}", rule=self._cite(op.rule)
            )
        kwargs = op.bind(args, self)
        kwargs[op.actor_param] = command.actor
        if op.rng:
            kwargs["rng"] = rng
        start = len(self._journal)
        getattr(self, op.method)(**kwargs)
        return self._since(start)

    def _cite(self, rule: str) -> str:
        """The rule ID an operation's declaration cites, as this table's regulation numbers
        it (a tile table's Taiwan rule set cites the Taiwan text)."""
        return rule

    def _menu(
        self,
        actor: Actor,
        operations: Sequence[str],
        default: str | None = None,
        rule: str = "",
        required: bool = True,
    ) -> Pending:
        """A :class:`Pending` of declared operations (an undeclared name is a bug)."""
        ops = tuple(operations)
        for name in (*ops, *(() if default is None else (default,))):
            if name not in self.OPERATIONS:
                raise AssertionError(f"{self.game}: {name!r} is not a declared operation")
        return Pending(actor, ops, default, rule, required)

    def command_of(self, ev: Event) -> Command | None:
        """The command that starts with ``ev`` in a journal (replay), None for an event an
        operation derives; the kernel's events here, the game's in :meth:`_command_of`."""
        match ev:
            case Checkpoint(state=digest):
                return Command(Actor.SYSTEM, "checkpoint", {"cited": digest})
            case TimedOut():
                args: dict[str, JsonValue] = {"actor": ev.actor, "op": ev.op, "cited": ev.rule}
                return Command(Actor.SYSTEM, "time_out", args)
            case LimitsChanged():
                return Command(Actor.parse(ev.by), "change_limits", ev.args())
            case RoundVoided():
                return Command(
                    Actor.supervisor(ev.approved_by),
                    "void_round",
                    {"reason": ev.reason, "request": ev.request, "requested_by": ev.requested_by},
                )
            case RoundCorrected():
                return Command(
                    Actor.supervisor(ev.approved_by),
                    "correct_round",
                    {
                        "of_seq": ev.of_seq,
                        "args": snapshot_plain(ev.args),
                        "reason": ev.reason,
                        "request": ev.request,
                        "requested_by": ev.requested_by,
                    },
                )
        return self._command_of(ev)

    # --- time-outs: the rules' defaults ---------------------------------------------------

    def verify_time_out(self, actor: Actor, target: str, op: str) -> Pending:
        """Only the table's clock (system) times an actor out, and only for a pending step
        whose default is ``op``."""
        if not isinstance(actor, Actor) or actor.role is not Role.SYSTEM:
            raise OutOfOrder(f"only the table's clock (system) times an actor out, not {actor}")
        for p in self.pending():
            if str(p.actor) == str(target) and p.default == op:
                return p
        raise OutOfOrder(f"{target} has no pending {op!r} with a default now")

    def can_time_out(self, actor: Actor, target: str, op: str) -> bool:
        try:
            self.verify_time_out(actor, target, op)
        except (RuleViolation, InvalidInput):
            return False
        return True

    @operation(
        actor=Role.SYSTEM,
        args=(Arg("actor", TEXT, to="target"), Arg("op", TEXT), Arg("cited", optional(TEXT), None)),
        rng=True,
    )
    def time_out(
        self,
        actor: Actor,
        target: str,
        op: str,
        cited: str | None = None,
        rng: Rng | None = None,
    ) -> tuple[Event, ...]:
        """The rules' default for ``target``, who did not act in time: ``TimedOut(actor,
        op, rule)``, then the default's own events (:meth:`_time_out`). ``cited`` (replay:
        the journalled event's rule) must be the rule the pending step names, or one that
        :attr:`SUPERSEDED_CITATIONS` says a journal written before cited for it."""
        p = self.verify_time_out(actor, target, op)
        rule = p.rule
        if cited is not None and cited != rule:
            if cited not in self.SUPERSEDED_CITATIONS.get(rule, frozenset()):
                raise RuleViolation(f"the time-out of {target} cites {cited}; the rules, {rule}")
            rule = cited
        start = len(self._journal)
        self._emit(TimedOut(str(p.actor), op, rule))
        self._time_out(p, rng)
        return self._since(start)

    def _time_out(self, pending: Pending, rng: Rng | None) -> None:
        """The default's own events, after the ``TimedOut`` (the game's)."""
        raise NotImplementedError

    # --- snapshots ------------------------------------------------------------------------

    def snapshot_state(self) -> Any:
        """The table's state, encoded (``core.snapshot``), its attributes under the names
        its snapshots have (``SNAPSHOT_NAMES``)."""
        names = self.SNAPSHOT_NAMES
        skip = self._snapshot_skip()
        return snapshot.encode({names.get(k, k): v for k, v in vars(self).items() if k not in skip})

    def _snapshot_skip(self) -> frozenset[str]:
        return self.SNAPSHOT_SKIP

    def _load(self, encoded: Any) -> None:
        """Take the state a snapshot holds (:meth:`snapshot_state`)."""
        state = snapshot.decode(encoded)
        if not isinstance(state, dict) or not all(isinstance(k, str) for k in state):
            raise snapshot.SnapshotError(f"not the state of a {type(self).__name__}")
        back = {v: k for k, v in self.SNAPSHOT_NAMES.items()}
        for name, value in state.items():
            setattr(self, str(back.get(name, name)), value)

    @classmethod
    def _restored(cls, encoded: Any, journal: Journal, seeds: Mapping[str, bytes]) -> Self:
        table = cls.__new__(cls)
        table._load(encoded)
        table._journal, table._events, table._keyring = journal, [], dict(seeds)
        table._snaps = contract.Snapshots(encoded)
        table._reset_caches()
        return table

    def _reset_caches(self) -> None:
        """A game's caches and replay aids, as a table restored from a snapshot has them."""

    @operation(actor=Role.SYSTEM, args=(Arg("cited", optional(TEXT), None),))
    def checkpoint(
        self, actor: Actor = Actor.SYSTEM, cited: str | None = None
    ) -> tuple[Event, ...]:
        """Journal the digest of the table's state (``table.checkpoint``); the state is kept
        as a snapshot the journal's window may later start from (:meth:`compact`).
        ``cited`` (replay: the journalled event's digest) is taken when it is the digest the
        same state had in the layout of a journal written before (:meth:`_legacy_digest`)."""
        self.verify_checkpoint(actor)
        encoded = self.snapshot_state()
        ev = contract.checkpoint_event(encoded)
        if cited is not None and cited != ev.state and cited == self._legacy_digest():
            ev = Checkpoint(cited)
        out = self._emit(ev)
        self._snaps.take(self, encoded)
        return out

    def _legacy_digest(self) -> str | None:
        """The digest the table's state had in an older snapshot layout, for a game whose
        layout changed (None: it never did)."""
        return None

    def compact(self) -> int:
        """Let the journal's entries before the latest checkpoint no void or correction can
        reach go (contract ``Snapshots.compact``); the seq the window starts at."""
        before = self._journal.first
        start = self._snaps.compact(self)
        del self._events[: start - before]
        return start

    # --- the effective history: folds and the state after a void or a correction --------

    def _effective(self) -> list[tuple[int, Event]]:
        """The history the state follows (``contract.effective_events``), from the
        journal's window on."""
        return contract.effective_events(self._events, self._journal.first)

    def _opening(self) -> Self:
        """A new table as the journal's opening made it."""
        opened = self._events[0]
        assert isinstance(opened, TableOpened)
        return self._create(
            self._rules_of(opened), self._table_id, self._journal.header, self._keyring
        )

    @classmethod
    def _create(
        cls, rules: Any, table_id: str, header: Mapping[str, Any], seeds: Mapping[str, bytes]
    ) -> Self:
        """A new table of this game: ``rules``, id, journal header and the server seeds it
        holds (the game's constructor)."""
        raise NotImplementedError

    @classmethod
    def open_journal(cls, journal: Journal, seeds: Mapping[str, bytes] | None = None) -> Self:
        """The table a journal opens (its ``table.opened``: game, table id, rules), holding
        ``seeds`` (by commitment), ready to replay the journal (``contract.replay``). An
        opening that is not this game's, or whose rules do not read back as written:
        :class:`ReplayMismatch` naming entry 0."""
        events = journal.events
        first = events[0] if events else None
        if not isinstance(first, TableOpened) or first.game != cls.game:
            raise ReplayMismatch(
                f"entry 0: a {cls.game} journal opens with table.opened for {cls.game}"
            )
        try:
            table = cls._create(
                cls.RULES.from_json(first.rules), first.table_id, journal.header, seeds or {}
            )
        except MacauTablesError as exc:
            raise ReplayMismatch(f"entry 0: {exc.message}", rule=exc.rule) from exc
        if table._events[0].to_json() != first.to_json():
            raise ReplayMismatch(f"entry 0: the rules are not written as {cls.game} writes them")
        table._replaying(journal)
        return table

    def _blank(self) -> Self:
        """A new table in the state of the journal's window's start."""
        if self._snaps.base is None:
            return self._opening()
        fresh = type(self)._restored(self._snaps.base, Journal(self._journal.game), self._keyring)
        return fresh

    def _folding(self, fresh: Self) -> None:
        """What a fold takes from this table besides the history (the game's replay aids)."""

    def _rename_holds(self, new: Mapping[str, str]) -> None:
        """Name the bets whose holds a void or correction re-issued by their new ids
        (``new``: base id → new id; the game's)."""

    def _count_mark(self) -> Any:
        """Before a fold applies the history: what :meth:`_counted` needs of the state at
        the window's start (the game's)."""
        return None

    def _counted(self, real: Sequence[Event], mark: Any = None) -> None:
        """After a fold: counters that never go back below the journal's (``real``: its
        events, voided ones included; ``mark``: :meth:`_count_mark` before), so an id or
        label is never used twice."""

    def _replay_history(self, target: Table, end: int) -> None:
        """Apply the effective history before ``end`` to ``target``; a hold re-issued by a
        void or a correction named by its new id from it on."""
        first = self._journal.first
        renames = [
            (s, dict(ev.aliases))
            for s, ev in enumerate(self._events, start=first)
            if isinstance(ev, RoundVoided | RoundCorrected) and ev.aliases
        ]

        def rename(before: int) -> None:
            while renames and renames[0][0] < before:
                target._rename_holds(renames.pop(0)[1])

        mark = target._count_mark()

        for seq, ev in self._effective():
            if seq >= end:
                break
            if isinstance(ev, TableOpened):
                continue
            rename(seq)
            target.apply(ev)
        rename(end)
        target._counted(self._events[: end - first], mark)

    def _fold(self, upto: int | None = None) -> Self:
        """A new table in the state of the effective history before ``upto`` (all of it if
        None): every event applied, nothing re-decided."""
        fresh = self._blank()
        fresh._hold_aliases = dict(self._hold_aliases)
        self._folding(fresh)
        self._replay_history(fresh, len(self._journal) if upto is None else upto)
        return fresh

    def _restate(self) -> None:
        """After a void or a correction: this table's state reset to its window's start and
        the effective history applied to it again (through :meth:`apply`)."""
        aliases = self._hold_aliases
        if self._snaps.base is None:
            opened = self._events[0] if self._journal.first == 0 else None
            assert isinstance(opened, TableOpened)
            self.rules = self._rules_of(opened)
            self._init_state()
        else:
            self._load(self._snaps.base)
        self._reset_caches()
        self._hold_aliases = aliases
        self._replay_history(self, len(self._journal))
        self._restated()

    def _restated(self) -> None:
        """After :meth:`_restate` (a game's own tidying)."""

    # --- the supervisor's void of the last round --------------------------------------------

    def _supervisor(self, actor: Actor, requested_by: str) -> None:
        """A supervisor approves what another requested (two supervisors: one asks, the
        other approves)."""
        if not isinstance(actor, Actor) or actor.role is not Role.SUPERVISOR:
            raise OutOfOrder(f"a supervisor voids and corrects rounds, not {actor}")
        check_name(requested_by, "requesting supervisor")
        if requested_by == actor.name:
            raise OutOfOrder(f"{actor.name} requested this: another supervisor approves it")

    def _void_span(self) -> tuple[int, list[Event]]:
        """The last round to void: where it starts and its events as the history has them
        (the game's; OutOfOrder if there is none)."""
        raise NotImplementedError

    def _void_leaves(self, wrong: list[Event], approver: str, reason: str) -> list[Event]:
        """What a void leaves of the round's events ``wrong`` (none by default: a round
        voided did not happen)."""
        return []

    def verify_void_round(self, actor: Actor, requested_by: str) -> None:
        """A second supervisor voids the last round (there must be one)."""
        self._supervisor(actor, requested_by)
        self._void_span()

    @operation(actor=Role.SUPERVISOR, args=_SUPERVISED)
    def void_round(
        self, actor: Actor, reason: str, *, request: int, requested_by: str
    ) -> tuple[Event, ...]:
        """Void the last round: its bets refunded, its settlement reversed (the money the
        difference, ``contract.money_delta``)."""
        self.verify_void_round(actor, requested_by)
        reason = supervisor_reason(reason)
        start, wrong = self._void_span()
        right = self._void_leaves(wrong, actor.name, reason)
        delta = contract.money_delta(wrong, right, self._hold_aliases, len(self._journal))
        followers = self._void_followers()  # decided on the state the void finds
        first = len(self._journal)
        self._emit(
            RoundVoided(
                from_seq=start,
                reason=reason,
                request=request,
                requested_by=requested_by,
                approved_by=actor.name,
                currency=self.currency.code,
                **delta,
            )
        )
        self._emit(*followers)
        return self._since(first)

    def _void_followers(self) -> list[Event]:
        """The events that follow a void's (the game's: a tile table's woodpile ends)."""
        return []

    # --- the supervisor's correction of a keyed-in outcome --------------------------------

    def _keyed_at(self, of_seq: int, event: Event) -> bool:
        """Whether ``event`` (at ``of_seq`` of the effective history) starts a keyed-in
        operation a supervisor may correct."""
        cmd = self.command_of(event)
        return cmd is not None and cmd.op in self.CORRECTABLE

    def _corrected(
        self, actor: Actor, of_seq: int, args: Mapping[str, Any], requested_by: str
    ) -> tuple[Command, list[Event], list[Event]]:
        """The keyed-in command at ``of_seq`` with ``args``, the wrong tail, the right one:
        the command and the round's later operations (:attr:`FOLLOWING_OPS`) re-run from the
        state before it, as far as the rules still take them."""
        self._supervisor(actor, requested_by)
        if isinstance(of_seq, bool) or not isinstance(of_seq, int):
            raise InvalidInput(f"of_seq is an event number, not {of_seq!r}")
        tail = [(s, e) for s, e in self._effective() if s >= of_seq]
        if not tail or tail[0][0] != of_seq or not self._keyed_at(of_seq, tail[0][1]):
            raise OutOfOrder(
                f"event {of_seq} is not a keyed-in outcome ({', '.join(self.CORRECTABLE)}) of "
                "the table's history as it stands"
            )
        if not isinstance(args, Mapping) or not args:
            raise InvalidInput(f"give the corrected arguments ({self._correction_hint()})")
        keyed = self.command_of(tail[0][1])
        assert keyed is not None
        json_args(args, self.CORRECTABLE[keyed.op], f"correcting {keyed.op}")
        wrong = [e for _, e in tail]
        not_last = OutOfOrder(
            f"event {of_seq} is not in the table's last {self.ROUND}: only the last "
            f"{self.ROUND} is corrected (before the next bet, deal or bank)"
        )
        table, i = self._fold(of_seq), 0
        cmds: list[Command] = []
        while i < len(wrong):
            cmd = table.command_of(wrong[i])
            if cmd is None or (cmds and cmd.op not in self.FOLLOWING_OPS):
                raise not_last
            try:
                got = table.execute(cmd)
            except MacauTablesError:
                raise not_last from None
            if [e.to_json() for e in got] != [e.to_json() for e in wrong[i : i + len(got)]]:
                raise not_last
            cmds.append(cmd)
            i += len(got)
        first = cmds[0]
        fixed = Command(first.actor, first.op, {**first.args, **args})
        table = self._fold(of_seq)
        right = list(table.execute(fixed))
        for cmd in cmds[1:]:  # the round's later operations, as far as the rules take them
            try:
                right.extend(table.execute(cmd))
            except MacauTablesError:
                continue  # no longer due or valid: done again by whoever acts next
        return fixed, wrong, right

    def _correction_hint(self) -> str:
        return ", ".join(f"{op}: {', '.join(a)}" for op, a in self.CORRECTABLE.items())

    def verify_correct_round(
        self, actor: Actor, of_seq: int, args: Mapping[str, Any], requested_by: str
    ) -> None:
        """A keyed-in outcome of the last round corrected to what the rules take."""
        self._corrected(actor, of_seq, args, requested_by)

    @operation(
        actor=Role.SUPERVISOR, args=(Arg("of_seq", WHOLE), Arg("args", OBJECT), *_SUPERVISED)
    )
    def correct_round(
        self,
        actor: Actor,
        of_seq: int,
        args: Mapping[str, Any],
        reason: str,
        *,
        request: int,
        requested_by: str,
    ) -> tuple[Event, ...]:
        """Re-run the keyed-in operation at ``of_seq`` with the corrected ``args``: the rules
        re-decide the round; the event posts the difference."""
        reason = supervisor_reason(reason)
        fixed, wrong, right = self._corrected(actor, of_seq, args, requested_by)
        delta = contract.money_delta(wrong, right, self._hold_aliases, len(self._journal))
        return self._emit(
            RoundCorrected(
                of_seq=of_seq,
                op=fixed.op,
                args=dict(fixed.args),
                reason=reason,
                request=request,
                requested_by=requested_by,
                approved_by=actor.name,
                rerun=tuple(e.to_json() for e in right),
                currency=self.currency.code,
                **delta,
            )
        )

    # --- a supervisor's new limits, from the next round -----------------------------------

    def verify_change_limits(
        self,
        actor: Actor,
        min_bet: Money,
        max_bet: Money,
        *,
        bets: Mapping[str, tuple[Money, Money]] | None = None,
        differential: Money | None = None,
    ) -> None:
        """A supervisor sets new table limits; the game's rule set validates them."""
        if not isinstance(actor, Actor) or actor.role is not Role.SUPERVISOR:
            raise OutOfOrder(f"a supervisor changes the limits, not {actor}")
        self._check_limits(NewLimits(min_bet, max_bet, bets or {}, differential))

    def _check_limits(self, new: NewLimits) -> None:
        """The game's checks of new limits (its rule set's)."""
        raise NotImplementedError

    def can_change_limits(
        self,
        actor: Actor,
        min_bet: Money,
        max_bet: Money,
        *,
        bets: Mapping[str, tuple[Money, Money]] | None = None,
        differential: Money | None = None,
    ) -> bool:
        return passes(
            self.verify_change_limits, actor, min_bet, max_bet, bets=bets, differential=differential
        )

    @operation(
        actor=Role.SUPERVISOR,
        args=(
            Arg("min_bet", AMOUNT),
            Arg("max_bet", AMOUNT),
            Arg("bets", optional(ArgType("an object", lambda v, t: _bet_limits(v, t))), None),
            Arg("differential", optional(AMOUNT), None),
            Arg("reason", TEXT),
        ),
    )
    def change_limits(
        self,
        actor: Actor,
        min_bet: Money,
        max_bet: Money,
        reason: str,
        *,
        bets: Mapping[str, tuple[Money, Money]] | None = None,
        differential: Money | None = None,
    ) -> tuple[Event, ...]:
        """New limits from the next round: at once between rounds, else when the round
        under way ends (each game's :meth:`apply` says where its rounds end). Its bets keep
        the limits they were placed under."""
        self.verify_change_limits(actor, min_bet, max_bet, bets=bets, differential=differential)
        return self._emit(
            LimitsChanged(
                min_bet.minor,
                max_bet.minor,
                str(actor),
                supervisor_reason(reason),
                {k: (a.minor, b.minor) for k, (a, b) in sorted((bets or {}).items())},
                None if differential is None else differential.minor,
            )
        )


def _bet_limits(value: Any, table: Table) -> dict[str, tuple[Money, Money]]:
    """``bets`` of ``change_limits``: a bet's name → ``[min, max]`` in minor units."""
    if not isinstance(value, Mapping):
        raise InvalidInput("bets maps a bet's name to [min, max], e.g. {'tie': [100, 5000]}")
    out: dict[str, tuple[Money, Money]] = {}
    for name, pair in value.items():
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise InvalidInput(f"bets.{name} is [min, max], not {pair!r}")
        out[str(name)] = (_amount(pair[0], table), _amount(pair[1], table))
    return out


def snapshot_plain(obj: Mapping[str, Any]) -> dict[str, JsonValue]:
    """An event's loaded JSON object (tuples where lists were) as plain JSON again."""
    import json

    return dict(json.loads(json.dumps(obj)))


def _can_from(verify: str) -> Callable[..., bool]:
    def can(self: Table, *args: Any, **kwargs: Any) -> bool:
        return passes(getattr(self, verify), *args, **kwargs)

    can.__name__ = "can_" + verify.removeprefix("verify_")
    can.__doc__ = f"``{verify}`` as a bool (``core.errors.passes``)."
    return functools.update_wrapper(can, can, updated=())
