"""The journal: every event of a game, in order, in a SHA-256 hash chain.

An engine appends one :class:`Event` per operation (chance results included), so replaying
the events rebuilds the state without the RNG. The journal is plain JSON::

    {"format": "macau-tables/journal", "version": 1, "game": "craps", "header": {...},
     "entries": [{"seq": 0, "event": {"kind": ..., "version": ..., "data": {...}},
                  "prev_hash": "<hex>", "hash": "<hex>"}, ...]}

Hash chain: ``header_hash = sha256(canonical({"format", "version", "game", "header"}))``;
entry ``i`` has ``prev_hash`` = the hash of entry ``i - 1`` (``header_hash`` for entry 0)
and ``hash = sha256(prev_hash + canonical({"seq": i, "event": event.to_json()}))``, where
``canonical`` is :func:`canonical_json`. Editing, inserting, removing or reordering entries,
or editing the header, breaks the chain at the first affected entry. Removing entries from
the end, or rewriting the whole chain, is only caught against a :attr:`Journal.head` kept
elsewhere: ``verify(expected_head=...)``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import re
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any, ClassVar, TypeAlias, TypeVar, dataclass_transform

from macau_tables.core.errors import InvalidInput, JournalError, JournalTampered
from macau_tables.core.snapshot import snapshot_class
from macau_tables.core.visibility import Audience

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "Entry",
    "Event",
    "Journal",
    "JsonValue",
    "canonical_json",
    "event",
    "event_from_json",
    "event_type",
    "head_prefix",
    "register_replayer",
    "replay",
]

FORMAT = "macau-tables/journal"
FORMAT_VERSION = 1

JsonValue: TypeAlias = (
    "int | str | bool | list[JsonValue] | tuple[JsonValue, ...] | dict[str, JsonValue] | None"
)


def canonical_json(obj: object) -> bytes:
    """The one byte string a JSON value hashes as: sorted keys, no spaces, UTF-8."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _plain(value: object, where: str) -> JsonValue:
    """``value`` as JSON-plain data (tuples become lists); anything else is refused."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, list | tuple):
        return [_plain(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, dict):
        out: dict[str, JsonValue] = {}
        for key, v in value.items():
            if not isinstance(key, str):
                raise JournalError(f"{where}: dict key {key!r} is not a string")
            out[key] = _plain(v, f"{where}.{key}")
        return out
    raise JournalError(f"{where}: {type(value).__name__} is not JSON-plain (int, str, bool, None)")


_SCALARS = frozenset({int, str, bool, type(None)})
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """The dataclass's field names, worked out once per class (``dataclasses.fields``
    filters every attribute of the class on each call: a hot path's cost per event)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _frozen(value: object, where: str) -> Any:
    """Loaded JSON back to event field values: lists become tuples; floats are refused."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, list):
        return tuple(_frozen(v, f"{where}[{i}]") for i, v in enumerate(value))
    if isinstance(value, dict):
        return {str(k): _frozen(v, f"{where}.{k}") for k, v in value.items()}
    raise JournalError(f"{where}: {type(value).__name__} is not allowed in an event")


# --- Events --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every journalled event.

    A subclass is a frozen dataclass that sets ``kind`` (e.g. ``"craps.dice_thrown"``) and
    ``version``, is registered with :func:`event`, and has only JSON-plain fields: int, str,
    bool, None, tuples (declare sequences as tuples: they load back as tuples) and
    str-keyed dicts. Amounts are integer minor units.

    A field added to an event kind later has a default (an *optional* field): it is written
    only when its value differs from the default, and a journal written before it existed
    reads (and hashes) exactly as it did — no new version of the kind is needed.
    """

    kind: ClassVar[str]
    version: ClassVar[int] = 1

    def to_json(self) -> dict[str, JsonValue]:
        """``{"kind", "version", "data": {field: value}}``, JSON-plain (an optional field
        left out when it holds its default)."""
        data: dict[str, JsonValue] = {}
        for name in _field_names(type(self)):
            value = getattr(self, name)
            # (scalars as they are: the common case, without _plain's message built)
            data[name] = value if type(value) in _SCALARS else _plain(value, f"{self.kind}.{name}")
        optional = _OPTIONAL.get(type(self))
        if optional:
            for name, default in optional.items():
                if data[name] == default:
                    del data[name]
        return {"kind": self.kind, "version": self.version, "data": data}

    def audience(self) -> Audience:
        """Who may see this event (the information model, ``core.visibility``).

        Public by default; an event that carries what only some may see (a seat's
        face-down tiles) overrides this. Hidden orders never appear in any event.
        """
        return Audience.PUBLIC

    def movement(self) -> object | None:
        """The money this event moves (a ``core.ledger.Movement``: postings, holds opened
        and closed), or None.

        Engines do not own ledgers: a ledger is a projection of the events that move
        money (``core.ledger.Ledger.project``), the same one the CLI, the tests and the
        server post. The journal does not import the ledger (money is built on events,
        not the other way round), so this hook is typed ``object`` here; an event that
        moves money declares ``-> Movement``, and ``core.ledger.movement_of(event)`` reads
        any event's movement typed.
        """
        return None


_EVENT_TYPES: dict[str, type[Event]] = {}
#: an event class's optional fields (those with a default) → the default, JSON-plain
_OPTIONAL: dict[type[Event], dict[str, JsonValue]] = {}

E = TypeVar("E", bound=Event)


def event(cls: type[E]) -> type[E]:
    """Class decorator: register an :class:`Event` subclass under its ``kind``.

    Refuses a class that is not a frozen dataclass, has no ``kind``, or reuses a ``kind``.
    """
    if not (isinstance(cls, type) and issubclass(cls, Event)):
        raise JournalError(f"{cls!r} is not an Event subclass")
    params = cls.__dict__.get("__dataclass_params__")
    if params is None or not params.frozen:
        raise JournalError(f"{cls.__name__} must be a @dataclass(frozen=True)")
    kind = cls.__dict__.get("kind")
    if not isinstance(kind, str) or not kind:
        raise JournalError(f"{cls.__name__} must set kind: ClassVar[str]")
    if not isinstance(cls.version, int) or isinstance(cls.version, bool) or cls.version < 1:
        raise JournalError(f"{cls.__name__}.version must be an int >= 1")
    if kind in _EVENT_TYPES:
        raise JournalError(f"event kind {kind!r} is already registered")
    _EVENT_TYPES[kind] = cls
    optional: dict[str, JsonValue] = {}
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            optional[f.name] = _plain(f.default, f"{kind}.{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            optional[f.name] = _plain(f.default_factory(), f"{kind}.{f.name}")
    if optional:
        _OPTIONAL[cls] = optional
    return cls


@dataclass_transform(frozen_default=True)
def event_type(cls: type[E]) -> type[E]:
    """Class decorator: declare an :class:`Event` subclass — a frozen dataclass with slots —
    and register it under its ``kind`` (:func:`event`)."""
    return event(dataclasses.dataclass(frozen=True, slots=True)(cls))


def money_kinds() -> frozenset[str]:
    """The kinds of the events registered so far whose class can move money (it overrides
    :meth:`Event.movement`): the only ones a reader of a journal's money needs to parse."""
    return frozenset(k for k, c in _EVENT_TYPES.items() if c.movement is not Event.movement)


def event_from_json(obj: Mapping[str, Any]) -> Event:
    """The event that :meth:`Event.to_json` wrote. Unknown kind or version → JournalError."""
    kind, version, data = obj.get("kind"), obj.get("version"), obj.get("data")
    cls = _EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise JournalError(f"unknown event kind {kind!r}")
    if version != cls.version or isinstance(version, bool):
        raise JournalError(f"{kind} version {version!r}; this code reads version {cls.version}")
    if not isinstance(data, dict):
        raise JournalError(f"{kind}: data must be an object")
    names = {f.name for f in dataclasses.fields(cls)}
    optional = _OPTIONAL.get(cls, {})
    if not names - set(optional) <= set(data) <= names:
        raise JournalError(f"{kind}: fields {sorted(data)} do not match {sorted(names)}")
    values = {name: _frozen(value, f"{kind}.{name}") for name, value in data.items()}
    for name, default in optional.items():  # an optional field left out: its default
        if name not in values:
            values[name] = _frozen(default, f"{kind}.{name}")
    _check_fields(cls, values)
    return cls(**values)


_SCHEMAS: dict[str, Any] = {}


def _data_schema(cls: type[Event]) -> Any:
    """A strict pydantic model of ``cls``'s fields, made from its annotations (built once
    per event kind; pydantic is imported only when a journal is read)."""
    if cls.kind not in _SCHEMAS:
        import pydantic

        hints = typing.get_type_hints(cls)
        fields: dict[str, Any] = {f.name: (hints[f.name], ...) for f in dataclasses.fields(cls)}
        config = pydantic.ConfigDict(strict=True, extra="forbid")
        _SCHEMAS[cls.kind] = pydantic.create_model(
            f"{cls.__name__}Data", __config__=config, **fields
        )
    return _SCHEMAS[cls.kind]


def _check_fields(cls: type[Event], values: Mapping[str, Any]) -> None:
    """Every field of a loaded event has its annotated type (``"amount": "abc"`` for an
    ``int`` is refused here, not as a TypeError deep in a replay). This code never writes
    such an event: the journal was altered (:class:`JournalTampered`)."""
    import pydantic

    try:
        _data_schema(cls).model_validate(values)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise JournalTampered(
            f"{cls.kind}.{where}: {first['msg'].lower()}, got {first['input']!r}"
        ) from None


# --- Entries and the journal ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One journalled event with its place in the hash chain."""

    seq: int
    event: Event
    prev_hash: str
    hash: str
    #: ``event.to_json()`` as hashed, kept by :meth:`Journal.append` so that whoever stores
    #: or sends the entry does not work it out again (read it through :meth:`event_json`);
    #: a cache, not part of the entry: the journal lets go of it once the entry is
    #: :data:`CACHED_ENTRIES` behind the head
    cached_json: dict[str, JsonValue] | None = field(default=None, compare=False, repr=False)
    #: ``canonical_json(event_json())``, kept likewise (read it through :meth:`event_text`)
    cached_text: bytes | None = field(default=None, compare=False, repr=False)

    @staticmethod
    def compute_hash(
        seq: int,
        event: Event,
        prev_hash: str,
        event_json: dict[str, JsonValue] | None = None,
        event_text: bytes | None = None,
    ) -> str:
        """``sha256(prev_hash + canonical_json({"seq": seq, "event": event_json}))``; given
        the event's own canonical JSON (``event_text``), the body is put together from it:
        the same bytes, since the keys sort as ``event``, ``seq``."""
        if event_text is None:
            ej = event.to_json() if event_json is None else event_json
            event_text = canonical_json(ej)
        body = b'{"event":' + event_text + b',"seq":' + str(int(seq)).encode() + b"}"
        return _sha256_hex(prev_hash.encode() + body)

    def event_json(self) -> dict[str, JsonValue]:
        """``event.to_json()`` (the one worked out for the hash when there is one). The
        dict is shared: read it, do not change it."""
        return self.cached_json if self.cached_json is not None else self.event.to_json()

    def event_text(self) -> bytes:
        """``canonical_json(event_json())``: the event as stored and hashed."""
        if self.cached_text is not None:
            return self.cached_text
        return canonical_json(self.event_json())

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "seq": self.seq,
            "event": self.event.to_json(),
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


#: how many of a journal's last entries keep their event's JSON and canonical text
#: (:attr:`Entry.cached_json`, :attr:`Entry.cached_text`): what appending an entry worked
#: out for its hash is what storing it, sending it and answering with it need right after.
#: Older entries work theirs out again when asked (a WebSocket resuming far back). A live
#: table keeps its journal in memory for as long as it runs, and the two caches were more
#: than half of an entry's memory (measured: about 1.2 of 2.2 KB).
CACHED_ENTRIES = 64


@snapshot_class
class Journal:
    """The events of one game (``game`` names its replayer), after a JSON ``header``."""

    #: a snapshot (``core.snapshot``) of a state that holds a journal (a tile round's) leaves
    #: out a replay's scaffolding
    SNAPSHOT_SKIP: ClassVar[tuple[str, ...]] = ("_verified",)

    def __init__(self, game: str, header: Mapping[str, Any] | None = None) -> None:
        plain = _plain(dict(header or {}), "header")
        assert isinstance(plain, dict)
        self.game = game
        self.header: dict[str, JsonValue] = plain
        self._entries: list[Entry] = []
        self._verified: dict[int, Entry] | None = None  # (see :meth:`verified`)
        # a window (:meth:`resume`, :meth:`drop_before`): the entries from ``_first`` on are
        # kept, chained to ``_first_prev`` (the hash of the entry before them)
        self._first = 0
        self._first_prev: str | None = None

    @classmethod
    def resume(
        cls, game: str, header: Mapping[str, Any] | None, first: int, prev_hash: str
    ) -> Journal:
        """An empty window of a journal whose entries before ``first`` are kept elsewhere
        (a table restored from a snapshot): its next entry is ``first``, chained to
        ``prev_hash``."""
        journal = cls(game, header)
        if first < 0:
            raise JournalError(f"a journal's window starts at an entry, not {first}")
        if first:
            journal._first, journal._first_prev = first, prev_hash
        return journal

    @classmethod
    def of_entries(
        cls, game: str, header: Mapping[str, Any] | None, entries: Sequence[Entry]
    ) -> Journal:
        """A journal (a window, when the first entry's seq is not 0) of stored ``entries``,
        its chain verified from the first one's ``prev_hash`` (from the header's hash for a
        whole journal)."""
        if not entries:
            raise JournalError("a journal's window needs its entries")
        first = entries[0].seq
        journal = cls.resume(game, header, first, entries[0].prev_hash)
        journal._entries = list(entries)
        journal.verify()
        return journal

    @property
    def first(self) -> int:
        """The seq of the first entry kept (0 unless this is a window of the journal)."""
        return self._first

    @property
    def kept(self) -> int:
        """How many entries this object holds (``len`` counts the whole journal's)."""
        return len(self._entries)

    def drop_before(self, seq: int) -> None:
        """Let the entries before ``seq`` go (kept elsewhere: a database): the journal goes
        on from the same head, and :attr:`first` is ``seq``."""
        if not self._first <= seq <= len(self):
            raise JournalError(f"entry {seq} is not in the journal's window")
        if seq == self._first:
            return
        self._first_prev = self.entry(seq - 1).hash
        del self._entries[: seq - self._first]
        self._first = seq

    def header_hash(self) -> str:
        """The hash that entry 0 chains to: of format, version, game and header."""
        return _sha256_hex(
            canonical_json(
                {
                    "format": FORMAT,
                    "version": FORMAT_VERSION,
                    "game": self.game,
                    "header": self.header,
                }
            )
        )

    @property
    def head(self) -> str:
        """The hash of the last entry (the header's hash when empty): publish it to anchor."""
        if self._entries:
            return self._entries[-1].hash
        return self._first_prev if self._first_prev is not None else self.header_hash()

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(self._entries)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(entry.event for entry in self._entries)

    def entries_since(self, start: int) -> list[Entry]:
        """The entries from seq ``start`` on that this journal holds (``start`` before a
        window's first: from its first), without copying the rest."""
        return self._entries[max(start - self._first, 0) :]

    def __len__(self) -> int:
        """The whole journal's length: the next entry's seq (a window included)."""
        return self._first + len(self._entries)

    def entry(self, seq: int) -> Entry:
        """The entry at ``seq`` (``entries`` copies them all); IndexError outside the
        window."""
        if seq < 0:
            seq += len(self)
        if not self._first <= seq < len(self):
            raise IndexError(f"entry {seq} is not in the journal's window")
        return self._entries[seq - self._first]

    def append(self, ev: Event) -> Entry:
        """Chain ``ev`` after the last entry and return its entry."""
        if _EVENT_TYPES.get(getattr(ev, "kind", "")) is not type(ev):
            raise JournalError(f"{type(ev).__name__} is not a registered event (@event)")
        seq, prev = len(self), self.head
        known = self._verified.get(seq) if self._verified is not None else None
        # the very event object: an equal one may still differ in JSON (``True == 1``)
        if known is not None and known.prev_hash == prev and known.event is ev:
            self._entries.append(known)  # the verified entry, its hash as it was worked out
            self._let_go(seq)
            return known
        ej = ev.to_json()
        text = canonical_json(ej)
        entry = Entry(seq, ev, prev, Entry.compute_hash(seq, ev, prev, ej, text), ej, text)
        self._entries.append(entry)
        self._let_go(seq)
        return entry

    def _let_go(self, seq: int) -> None:
        """An older entry's caches go (worked out again if asked)."""
        if len(self._entries) > CACHED_ENTRIES:
            old = self._entries[-1 - CACHED_ENTRIES]
            object.__setattr__(old, "cached_json", None)
            object.__setattr__(old, "cached_text", None)

    @contextlib.contextmanager
    def verified(self, entries: Iterable[Entry]) -> Iterator[None]:
        """While open, an event appended as the next of ``entries`` — entries of a journal
        already verified: the same seq, chained to this journal's head, the very event
        object — is journalled as that entry, its hash taken rather than worked out again;
        any other event (an equal copy too) is hashed as usual. For a replay that takes a
        verified journal's entries as journalled (``contract.Replay.skip_to``, a recall's
        earlier rounds: re-hashing them was a fifth to a third of the recall's time,
        docs/benchmarks.md)."""
        self._verified = {e.seq: e for e in entries}
        try:
            yield
        finally:
            self._verified = None

    def verify(self, expected_head: str | None = None) -> None:
        """Check the chain; raise :class:`JournalTampered` naming the first bad entry.

        With ``expected_head`` (a :attr:`head` published earlier) also catch entries removed
        from the end and a chain rewritten from scratch. The published head may be given
        whole or as a prefix of at least 8 hex digits (tables print the first 16, as
        ``6647a7f722ba334f…``; a trailing ``…`` is ignored) that no other entry's hash
        shares; anything else is refused as malformed (:class:`InvalidInput`).
        """
        prefix = None if expected_head is None else head_prefix(expected_head)
        if self._first and prefix is not None:
            raise JournalError("a window of a journal is checked from its first entry kept")
        prev = self._first_prev if self._first_prev is not None else self.header_hash()
        for index, entry in enumerate(self._entries, start=self._first):
            if entry.seq != index:
                raise JournalTampered(f"entry {index}: seq is {entry.seq}, expected {index}")
            if entry.prev_hash != prev:
                what = "header was edited" if index == 0 else "previous entry changed or missing"
                raise JournalTampered(f"entry {index}: prev_hash does not match ({what})")
            if entry.hash != Entry.compute_hash(entry.seq, entry.event, entry.prev_hash):
                raise JournalTampered(f"entry {index}: hash does not match its content")
            prev = entry.hash
        if prefix is None:
            return
        hashes = [self.header_hash(), *(entry.hash for entry in self._entries)]
        matches = [i for i, h in enumerate(hashes) if h.startswith(prefix)]
        if len(matches) > 1:
            raise InvalidInput(
                f"head {prefix} is the start of {len(matches)} hashes in this journal; "
                "give more digits"
            )
        if not prev.startswith(prefix):
            if matches:
                whose = "the header's" if matches[0] == 0 else f"entry {matches[0] - 1}'s"
                raise JournalTampered(
                    f"the published head {prefix} is {whose} hash; "
                    f"{len(hashes) - 1 - matches[0]} entries follow it"
                )
            raise JournalTampered(
                f"entry {len(self._entries)}: the chain ends before the expected head "
                "(entries removed from the end, or the chain was rewritten)"
            )

    # --- JSON --------------------------------------------------------------------------

    def to_json(self) -> dict[str, JsonValue]:
        if self._first:
            raise JournalError(f"a window of a journal (from entry {self._first}) is not a journal")
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "game": self.game,
            "header": self.header,
            "entries": [entry.to_json() for entry in self._entries],
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any], *, verify: bool = True) -> Journal:
        """Read what :meth:`to_json` wrote; by default :meth:`verify` the chain too."""
        if obj.get("format") != FORMAT:
            raise JournalError(f"not a journal: format is {obj.get('format')!r}")
        if obj.get("version") != FORMAT_VERSION:
            raise JournalError(f"journal version {obj.get('version')!r} is not supported")
        game, header, entries = obj.get("game"), obj.get("header"), obj.get("entries")
        if not isinstance(game, str) or not isinstance(header, dict):
            raise JournalError("journal needs a string 'game' and an object 'header'")
        if not isinstance(entries, list):
            raise JournalError("journal 'entries' must be a list")
        journal = cls(game, header)
        journal._entries = [_entry_from_json(raw, i) for i, raw in enumerate(entries)]
        if verify:
            journal.verify()
        return journal

    def dump(self, path: str | PathLike[str]) -> None:
        """Write the journal as indented, key-sorted UTF-8 JSON (diff-friendly)."""
        text = json.dumps(self.to_json(), sort_keys=True, indent=2, ensure_ascii=False)
        Path(path).write_text(text + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | PathLike[str], *, verify: bool = True) -> Journal:
        try:
            obj = json.loads(Path(path).read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise JournalError(f"{path}: not JSON ({exc})") from exc
        if not isinstance(obj, dict):
            raise JournalError(f"{path}: not a journal object")
        return cls.from_json(obj, verify=verify)


def head_prefix(text: str) -> str:
    """A published head as typed: 8 to 64 hex digits (any case), a trailing ``…`` or
    ``...`` ignored; lower-cased. Anything else is :class:`InvalidInput`."""
    digits = text.strip().removesuffix("…").removesuffix("...").lower()
    if not re.fullmatch(r"[0-9a-f]{8,64}", digits):
        raise InvalidInput(
            f"malformed head {text!r}: give the SHA-256 head, or its first 8 or more hex digits"
        )
    return digits


def _entry_from_json(raw: object, index: int) -> Entry:
    if not isinstance(raw, dict):
        raise JournalError(f"entry {index}: not an object")
    seq, prev_hash, hash_, ev = (raw.get(k) for k in ("seq", "prev_hash", "hash", "event"))
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise JournalTampered(f"entry {index}: seq is not an integer")
    if not isinstance(prev_hash, str) or not isinstance(hash_, str) or not isinstance(ev, dict):
        raise JournalError(f"entry {index}: needs string prev_hash, hash and an event object")
    try:
        return Entry(seq, event_from_json(ev), prev_hash, hash_)
    except JournalError as exc:
        raise type(exc)(f"entry {index}: {exc}") from exc


# --- Replay --------------------------------------------------------------------------

_REPLAYERS: dict[str, Callable[[Journal], object]] = {}


def register_replayer(game: str, fn: Callable[[Journal], object]) -> None:
    """Register the function that rebuilds ``game``'s state from a journal."""
    if game in _REPLAYERS and _REPLAYERS[game] is not fn:
        raise JournalError(f"a replayer for {game!r} is already registered")
    _REPLAYERS[game] = fn


def replay(journal: Journal) -> object:
    """Verify ``journal`` and rebuild its game state with the registered replayer."""
    fn = _REPLAYERS.get(journal.game)
    if fn is None:
        raise JournalError(f"no replayer registered for game {journal.game!r}")
    journal.verify()
    return fn(journal)
