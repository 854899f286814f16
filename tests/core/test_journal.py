"""core.journal: events to and from JSON, the hash chain catching every edit, replay."""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from macau_tables.core.errors import JournalError, JournalTampered
from macau_tables.core.journal import (
    CACHED_ENTRIES,
    Entry,
    Event,
    Journal,
    canonical_json,
    event,
    event_from_json,
    register_replayer,
    replay,
)

# --- A tiny test game: a counter that is bumped and reset ----------------------------


@event
@dataclass(frozen=True)
class Bumped(Event):
    kind: ClassVar[str] = "test.bumped"
    version: ClassVar[int] = 1
    by: int
    who: str
    dice: tuple[int, ...] = ()


@event
@dataclass(frozen=True)
class Noted(Event):
    kind: ClassVar[str] = "test.noted"
    version: ClassVar[int] = 2
    text: str | None
    flag: bool
    extra: dict[str, Any]


def replay_counter(journal: Journal) -> int:
    total = int(journal.header["start"])  # type: ignore[arg-type]
    for ev in journal.events:
        if isinstance(ev, Bumped):
            total += ev.by
    return total


register_replayer("test.counter", replay_counter)


def make_journal() -> Journal:
    journal = Journal("test.counter", {"start": 10, "table": "澳門 1", "seats": [1, 2]})
    journal.append(Bumped(by=2, who="alice", dice=(3, 4)))
    journal.append(Noted(text="夜", flag=True, extra={"a": (1, "x"), "b": None}))
    journal.append(Bumped(by=-5, who="bob"))
    journal.append(Bumped(by=7, who="alice", dice=(6,)))
    return journal


# --- Events --------------------------------------------------------------------------


def test_event_json_round_trip_keeps_equality_and_hashability() -> None:
    ev = Bumped(by=3, who="carol", dice=(1, 6))
    obj = json.loads(json.dumps(ev.to_json()))
    assert obj == {"kind": "test.bumped", "version": 1, "data": {"by": 3, "who": "carol",
                                                                "dice": [1, 6]}}  # fmt: skip
    back = event_from_json(obj)
    assert back == ev
    assert hash(back) == hash(ev)


def test_unknown_kind_and_wrong_version_are_refused() -> None:
    good = Noted(text=None, flag=False, extra={}).to_json()
    with pytest.raises(JournalError, match="unknown event kind"):
        event_from_json({**good, "kind": "test.nothing"})
    with pytest.raises(JournalError, match="version"):
        event_from_json({**good, "version": 1})
    with pytest.raises(JournalError, match="fields"):
        event_from_json({**good, "data": {"text": None, "flag": False}})


def test_duplicate_kind_is_refused() -> None:
    with pytest.raises(JournalError, match="already registered"):

        @event
        @dataclass(frozen=True)
        class Again(Event):
            kind: ClassVar[str] = "test.bumped"


def test_non_frozen_or_kindless_events_are_refused() -> None:
    with pytest.raises(JournalError, match="frozen"):

        @event
        class Undecorated(Event):  # inherits Event's dataclass machinery but not its own
            kind: ClassVar[str] = "test.undecorated"

    with pytest.raises(JournalError, match="kind"):

        @event
        @dataclass(frozen=True)
        class Nameless(Event):
            pass


def test_non_plain_values_are_refused() -> None:
    journal = Journal("test.counter", {"start": 0})
    with pytest.raises(JournalError, match="float"):
        journal.append(Bumped(by=1.5, who="x"))  # type: ignore[arg-type]
    with pytest.raises(JournalError, match="key"):
        journal.append(Noted(text=None, flag=False, extra={"ok": {1: "x"}}))
    with pytest.raises(JournalError, match="float"):
        Journal("test.counter", {"rate": 0.04})
    assert len(journal) == 0


def test_unregistered_event_cannot_be_appended() -> None:
    @dataclass(frozen=True)
    class Stray(Event):
        kind: ClassVar[str] = "test.stray"

    with pytest.raises(JournalError, match="not a registered event"):
        Journal("test.counter", {}).append(Stray())


# --- The journal and its chain -------------------------------------------------------


def test_chain_links_each_entry_to_the_previous_one() -> None:
    journal = make_journal()
    entries = journal.entries
    assert [e.seq for e in entries] == [0, 1, 2, 3]
    assert entries[0].prev_hash == journal.header_hash()
    assert all(entries[i].prev_hash == entries[i - 1].hash for i in range(1, 4))
    assert journal.head == entries[-1].hash
    assert len({e.hash for e in entries}) == 4
    journal.verify()


def test_entry_hash_is_sha256_of_prev_hash_and_canonical_body() -> None:
    journal = make_journal()
    for entry in journal.entries:
        body = canonical_json({"seq": entry.seq, "event": entry.event.to_json()})
        assert entry.hash == hashlib.sha256(entry.prev_hash.encode() + body).hexdigest()
    start = {"format": "macau-tables/journal", "version": 1, "game": "test.counter"}
    start_body = canonical_json({**start, "header": journal.header})
    assert journal.header_hash() == hashlib.sha256(start_body).hexdigest()


def test_canonical_json_is_sorted_compact_utf8() -> None:
    assert canonical_json({"b": 1, "a": ["澳", None]}) == '{"a":["澳",null],"b":1}'.encode()


def test_json_round_trip(tmp_path: Path) -> None:
    journal = make_journal()
    obj = json.loads(json.dumps(journal.to_json()))
    assert obj["format"] == "macau-tables/journal"
    assert obj["version"] == 1
    back = Journal.from_json(obj)
    assert back.events == journal.events
    assert back.entries == journal.entries
    assert back.header == journal.header
    path = tmp_path / "round.json"
    journal.dump(path)
    loaded = Journal.load(path)
    assert loaded.entries == journal.entries
    assert loaded.head == journal.head
    assert replay(loaded) == 10 + 2 - 5 + 7


def _tampered(mutate: Any) -> dict[str, Any]:
    obj: dict[str, Any] = json.loads(json.dumps(make_journal().to_json()))
    mutate(obj)
    return obj


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def mutate(obj: Any) -> None:
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = value

    return mutate


def _bad_index(obj: dict[str, Any]) -> int:
    with pytest.raises(JournalTampered) as info:
        Journal.from_json(obj)
    message = str(info.value)
    assert message.startswith("entry ")
    return int(message.split()[1].rstrip(":"))


# Every field of every entry; the expected first bad index is the entry itself.
FIELD_EDITS = [
    pytest.param(i, path, value, id=f"entry{i}-{'.'.join(map(str, path))}")
    for i, path, value in [
        (0, ("event", "data", "by"), 3),
        (0, ("event", "data", "who"), "mallory"),
        (0, ("event", "data", "dice"), [3, 5]),
        (0, ("seq",), 1),
        (0, ("prev_hash",), "0" * 64),
        (0, ("hash",), "0" * 64),
        (1, ("event", "data", "flag"), False),
        (1, ("event", "data", "text"), None),
        (1, ("event", "data", "extra", "b"), 0),
        (2, ("event", "data", "by"), -4),
        (3, ("event", "data", "by"), True),  # True == 1 in Python, but not in the hash
        (3, ("hash",), "f" * 64),
    ]
]


@pytest.mark.parametrize(("index", "path", "value"), FIELD_EDITS)
def test_editing_any_field_is_caught_at_that_entry(
    index: int, path: tuple[Any, ...], value: Any
) -> None:
    obj = _tampered(_set(("entries", index, *path), value))
    assert obj != make_journal().to_json()  # the edit really changed something
    assert _bad_index(obj) == index


@pytest.mark.parametrize(("i", "j"), [(0, 1), (1, 2), (2, 3), (0, 3)])
def test_reordering_is_caught_at_the_first_moved_entry(i: int, j: int) -> None:
    def swap(obj: Any) -> None:
        entries = obj["entries"]
        entries[i], entries[j] = entries[j], entries[i]

    assert _bad_index(_tampered(swap)) == i


@pytest.mark.parametrize("i", [0, 1, 2])
def test_deleting_an_entry_is_caught_where_it_was(i: int) -> None:
    assert _bad_index(_tampered(lambda obj: obj["entries"].pop(i))) == i


def test_deleting_the_last_entry_is_caught_against_a_published_head() -> None:
    journal = make_journal()
    head = journal.head
    obj = _tampered(lambda obj: obj["entries"].pop())
    truncated = Journal.from_json(obj)  # a chain's tail can be cut without a trace ...
    with pytest.raises(JournalTampered, match="entry 3"):
        truncated.verify(expected_head=head)  # ... unless its head was published


def test_inserting_a_copied_entry_is_caught() -> None:
    assert _bad_index(_tampered(lambda obj: obj["entries"].insert(2, obj["entries"][1]))) == 2


@pytest.mark.parametrize(
    "mutate",
    [
        _set(("header", "start"), 11),
        _set(("header", "table"), "澳門 2"),
        _set(("header", "new"), 1),
        _set(("game",), "test.other"),
    ],
)
def test_editing_the_header_or_game_is_caught_at_entry_0(mutate: Any) -> None:
    assert _bad_index(_tampered(mutate)) == 0


def test_relinking_entry_0_to_an_edited_header_is_caught() -> None:
    """The attacker edits the header and points entry 0 at its new hash: entry 0's own hash,
    which covers its prev_hash, no longer matches."""

    def relink(obj: Any) -> None:
        obj["header"]["start"] = 99
        edited = Journal(obj["game"], obj["header"])
        obj["entries"][0]["prev_hash"] = edited.header_hash()

    assert _bad_index(_tampered(relink)) == 0


def test_rewriting_one_entry_with_a_fresh_hash_is_caught_at_the_next() -> None:
    def rewrite(obj: Any) -> None:
        entry = obj["entries"][1]
        entry["event"]["data"]["flag"] = False
        ev = event_from_json(entry["event"])
        entry["hash"] = Entry.compute_hash(1, ev, entry["prev_hash"])

    assert _bad_index(_tampered(rewrite)) == 2


def test_editing_the_header_in_memory_is_caught() -> None:
    journal = make_journal()
    journal.header["start"] = 1000
    with pytest.raises(JournalTampered, match=r"entry 0: .*header"):
        journal.verify()
    with pytest.raises(JournalTampered):
        replay(journal)


def test_a_faithful_copy_verifies() -> None:
    obj = copy.deepcopy(make_journal().to_json())
    Journal.from_json(obj).verify()


def test_bad_format_or_version_is_refused() -> None:
    with pytest.raises(JournalError, match="format"):
        Journal.from_json(_tampered(_set(("format",), "something/else")))
    with pytest.raises(JournalError, match="version"):
        Journal.from_json(_tampered(_set(("version",), 2)))
    with pytest.raises(JournalError, match="entry 1"):
        Journal.from_json(_tampered(_set(("entries", 1, "event", "data", "flag"), 0.5)))


def test_load_refuses_non_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(JournalError, match="not JSON"):
        Journal.load(path)


# --- Replay registry -----------------------------------------------------------------


def test_replay_uses_the_registered_replayer() -> None:
    assert replay(make_journal()) == 14
    assert replay(Journal("test.counter", {"start": 5})) == 5


def test_replay_of_an_unknown_game_is_refused() -> None:
    with pytest.raises(JournalError, match="no replayer"):
        replay(Journal("test.unknown", {}))


def test_a_second_replayer_for_a_game_is_refused() -> None:
    register_replayer("test.counter", replay_counter)  # the same one again is harmless
    with pytest.raises(JournalError, match="already registered"):
        register_replayer("test.counter", lambda journal: None)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(
    seq=st.integers(min_value=0, max_value=10**12),
    event=st.dictionaries(st.text(max_size=6), _JSON, max_size=5),
    prev=st.text(alphabet="0123456789abcdef", min_size=64, max_size=64),
)
def test_the_hash_put_together_from_the_events_text_is_the_canonical_one(
    seq: int, event: dict[str, Any], prev: str
) -> None:
    """``Entry.compute_hash`` builds the hashed body from the event's canonical JSON; the
    bytes must be those of ``canonical_json({"seq": seq, "event": event})``."""
    want = hashlib.sha256(prev.encode() + canonical_json({"seq": seq, "event": event}))
    dummy: Any = None
    assert Entry.compute_hash(seq, dummy, prev, event) == want.hexdigest()
    assert Entry.compute_hash(seq, dummy, prev, None, canonical_json(event)) == want.hexdigest()


# --- memory: a live table keeps its journal for as long as it runs ---------------------


def test_only_the_last_entries_keep_their_json_and_text_cached() -> None:
    """Appending works out an event's JSON and canonical text for its hash; the last
    ``CACHED_ENTRIES`` keep them (they are stored, sent and answered with right after), an
    older one lets go of them and works them out again, the same, when asked."""
    journal = Journal("test.counter", {"start": 0})
    for i in range(CACHED_ENTRIES + 5):
        journal.append(Bumped(by=i, who=f"p{i}", dice=(i % 6 + 1,)))
    entries = journal.entries
    assert [e.seq for e in entries if e.cached_json is None] == list(range(5))
    assert all(e.cached_json is not None and e.cached_text is not None for e in entries[5:])
    for e in entries:
        assert e.event_json() == e.event.to_json()
        assert e.event_text() == canonical_json(e.event.to_json())
        assert e.hash == Entry.compute_hash(e.seq, e.event, e.prev_hash, event_text=e.event_text())
    journal.verify()
    assert Journal.from_json(json.loads(json.dumps(journal.to_json()))).head == journal.head


def test_entries_and_the_games_events_keep_no_instance_dict() -> None:
    """Slots, not a ``__dict__`` each: an entry and its event were ~950 bytes, ~300 with
    slots and the caches gone (benchmarks/bench_journal_memory.py). A new event class of a game
    declared without ``slots=True`` fails here."""
    import macau_tables.games.baccarat
    import macau_tables.games.craps
    import macau_tables.games.tiles  # noqa: F401  (their events register on import)

    def subclasses(cls: type) -> list[type]:
        return [c for s in cls.__subclasses__() for c in (s, *subclasses(s))]

    games = [
        c
        for c in subclasses(Event)
        if c.__module__.startswith("macau_tables.")
        and getattr(sys.modules[c.__module__], c.__name__, None) is c  # (not the class
        # that ``dataclass(slots=True)`` made its slotted copy from)
    ]
    assert len(games) > 50
    assert [c.__name__ for c in games if c.__dictoffset__] == []  # instances without a dict
    journal = Journal("test.counter", {"start": 0})
    entry = journal.append(Bumped(by=1, who="a"))
    assert not hasattr(entry, "__dict__")


def test_verified_entries_are_journalled_as_they_are_without_hashing_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``Journal.verified``: the next event, the very one of the verified entry, is
    journalled as that entry (no hash worked out); another event — an equal copy too,
    whose JSON could differ (``True == 1``) — is hashed as usual, so it cannot take a
    verified entry's hash."""
    source = Journal("test.counter", {"start": 0})
    for i in range(10):
        source.append(Bumped(by=i, who=f"p{i}"))
    source.verify()
    copy_of = Journal("test.counter", {"start": 0})
    hashed: list[int] = []
    real = Entry.compute_hash

    def counting(seq: int, *args: Any, **kw: Any) -> str:
        hashed.append(seq)
        return real(seq, *args, **kw)

    monkeypatch.setattr(Entry, "compute_hash", staticmethod(counting))
    with copy_of.verified(source.entries[:8]):
        for e in source.entries[:7]:
            copy_of.append(e.event)  # the same objects
        assert hashed == []
        copy_of.append(Bumped(by=7, who="p7"))  # equal to entry 7's, not the same: hashed
        copy_of.append(Bumped(by=99, who="x"))  # seq 8: not among them
        assert hashed == [7, 8]
    assert [e.hash for e in copy_of.entries[:8]] == [e.hash for e in source.entries[:8]]
    # a different event at a verified seq is hashed, and so does not chain as the source
    other = Journal("test.counter", {"start": 0})
    with other.verified(source.entries):
        other.append(Bumped(by=5, who="p0"))
        other.append(source.entries[1].event)  # the same event, chained elsewhere: hashed
    assert hashed == [7, 8, 0, 1] and other.head != source.entries[1].hash
    copy_of.verify()  # (the chain, checked from scratch)
