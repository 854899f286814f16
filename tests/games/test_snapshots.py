"""Snapshots of the four table engines (``core.snapshot``, ``contract.Checkpoint``): a state
written and read back is the same state; a table restored from a snapshot and the rest of
its journal is the table that ran; a compacted table (its journal a window) decides every
void as the whole one does; a snapshot that is not the state the chain says is refused."""

from __future__ import annotations

import enum
import importlib
import json
import pkgutil
import random
import sys
import types
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from macau_tables.core import snapshot
from macau_tables.core.errors import JournalError, OutOfOrder, ReplayMismatch
from macau_tables.core.journal import FORMAT, FORMAT_VERSION, Entry, Journal
from macau_tables.core.rng import Rng
from macau_tables.games import contract
from macau_tables.games.contract import Actor, Command, TableEngine
from macau_tables.server.games import binding
from tests.server.drive_tables import SEEDS, drive

GAMES = ("baccarat", "craps", "paigow", "taiwan")
SAM, ANN = Actor.supervisor("sam"), "ann"
VOID = Command(SAM, "void_round", {"reason": "test", "request": 1, "requested_by": ANN})


# --- the codec ------------------------------------------------------------------------------


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Point:
    x: int
    y: tuple[int, ...]


@dataclass
class Box:
    items: list[Any]
    label: str = ""


# the test module's classes count as the package's (it is under ``tests``, not a library)
Colour.__module__ = Point.__module__ = Box.__module__ = "macau_tables.tests_snapshot"

scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=5) | st.binary(max_size=4)
values = st.recursive(
    scalars
    | st.fractions()
    | st.sampled_from(Colour)
    | st.builds(Point, st.integers(), st.tuples(st.integers())),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=3) | st.integers(), inner, max_size=3)
        | st.frozensets(st.integers(), max_size=3)
        | st.sets(st.text(max_size=3), max_size=3)
        | st.builds(Box, st.lists(inner, max_size=2))
    ),
    max_leaves=12,
)


def _resolve(name: str) -> type:
    return {"Colour": Colour, "Point": Point, "Box": Box}[name]


@pytest.fixture(autouse=True)
def _test_classes(monkeypatch: pytest.MonkeyPatch) -> None:
    """decode finds the test's classes as it finds the package's (by module and name)."""
    real = snapshot._class

    def find(name: Any) -> type:
        if isinstance(name, str) and name.startswith("macau_tables.tests_snapshot:"):
            return _resolve(name.partition(":")[2])
        return real(name)

    monkeypatch.setattr(snapshot, "_class", find)


@given(values)
def test_a_value_reads_back_equal_and_of_the_same_types(value: Any) -> None:
    encoded = snapshot.encode(value)
    json.loads(snapshot.text(encoded))  # plain JSON
    back = snapshot.decode(encoded)
    assert back == value
    assert snapshot.encode(back) == encoded  # the same types, the same order: same digest
    assert snapshot.digest(snapshot.encode(back)) == snapshot.digest(encoded)


def test_a_dict_keeps_its_order_and_its_key_types() -> None:
    value = {2: "b", "1": "a", (1, 2): None}
    back = snapshot.decode(snapshot.encode(value))
    assert list(back) == [2, "1", (1, 2)]
    proxy = snapshot.decode(snapshot.encode(MappingProxyType({"k": [1]})))
    assert isinstance(proxy, MappingProxyType) and dict(proxy) == {"k": [1]}


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (1.5, "a float"),
        ({"when": __import__("datetime").date(2026, 1, 1)}, "not a class of this package"),
        ([object()], "not a class of this package"),
    ],
)
def test_what_a_snapshot_cannot_hold_is_refused(value: Any, says: str) -> None:
    with pytest.raises(snapshot.SnapshotError, match=says):
        snapshot.encode(value)


def test_a_mutable_part_shared_by_two_places_is_refused() -> None:
    """Two references to one list would come back as two lists: refused, naming both."""
    shared: list[int] = [1]
    with pytest.raises(snapshot.SnapshotError, match=r"state\['b'\].*shared with state\['a'\]"):
        snapshot.encode({"a": shared, "b": shared})
    box = Box([1])
    with pytest.raises(snapshot.SnapshotError, match="shared"):
        snapshot.encode([box, box])
    frozen = Point(1, (2,))
    snapshot.encode([frozen, frozen])  # an immutable value may be shared


@pytest.mark.parametrize(
    "data",
    [
        {"o": ["os:system", {}]},  # nothing outside the package is built
        {"o": ["builtins:dict", {}]},
        {"e": ["macau_tables.core.money:Rounding", "sideways"]},
        {"o": ["macau_tables.core.money:Nope", {}]},
        {"x": []},
        {"l": "abc"},
        [1, 2],
        1.5,
        {"o": ["macau_tables.core.journal:head_prefix", {}]},  # a function, not a class
    ],
)
def test_a_snapshot_that_is_not_one_is_refused(data: Any) -> None:
    with pytest.raises((snapshot.SnapshotError, ValueError)):
        snapshot.decode(data)


def _module(monkeypatch: pytest.MonkeyPatch, name: str, **classes: type) -> None:
    mod = types.ModuleType(name)
    for qual, cls in classes.items():
        cls.__module__, cls.__qualname__ = name, qual
        setattr(mod, qual, cls)
    monkeypatch.setitem(sys.modules, name, mod)


def test_a_class_moved_into_a_package_keeps_the_name_its_snapshots_have(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A module split into a package names its classes as before (``snapshot_home``): the
    snapshot, and so a checkpoint's digest, is the one the module wrote; it reads back from
    the module the class now lives in."""
    home, part = "macau_tables.tests_home", "macau_tables.tests_home.part"
    monkeypatch.setattr(snapshot, "_HOMES", dict(snapshot._HOMES))
    monkeypatch.setattr(snapshot, "_HOUSED", dict(snapshot._HOUSED))

    @dataclass(frozen=True)
    class Moved:
        x: int

    _module(monkeypatch, home)
    _module(monkeypatch, part, Moved=Moved)
    before = snapshot.encode(Moved(1))
    assert before == {"o": [f"{part}:Moved", {"x": 1}]}
    snapshot.snapshot_home(part, home)
    encoded = snapshot.encode(Moved(1))
    assert encoded == {"o": [f"{home}:Moved", {"x": 1}]}
    assert snapshot.decode(encoded) == Moved(1)
    with pytest.raises(snapshot.SnapshotError, match="housed in"):
        snapshot.snapshot_home(part, "macau_tables.elsewhere")

    @dataclass(frozen=True)
    class Twin:
        x: int

    _module(monkeypatch, f"{home}.other", Moved=Twin)  # another class of the same name
    snapshot.snapshot_home(f"{home}.other", home)
    with pytest.raises(snapshot.SnapshotError, match="ambiguous"):
        snapshot.decode(encoded)


#: the module each module of a game's package was: the package (baccarat, craps: one module
#: each before), or the tile engine's seven modules
WAS: dict[str, dict[str, str]] = {
    "baccarat": {},
    "craps": {},
    "tiles": {
        "rounds": "tileround",
        "settlement": "tilesettle",
        "facts": "tilefacts",
        "legacy": "tilegame",
        "paigow": "paigow",
        "taiwan": "taiwan",
        "table": "tiletable",
        "events": "tiletable",
        "rules": "tiletable",
        "views": "tiletable",
        "history": "tiletable",
        "state": "tiletable",
        "replays": "tiletable",
        "checkpoints": "tiletable",
        "posting": "tiletable",
        "seats": "tiletable",
        "bank": "tiletable",
    },
}


@pytest.mark.parametrize("package", sorted(WAS))
def test_every_module_of_a_games_package_writes_the_names_of_the_module_it_was(
    package: str,
) -> None:
    """Each module of ``games/<game>/`` is housed in the module it was part of (the one
    module baccarat and craps were; the tile engine's seven): a class moved keeps its
    snapshot name, and no two modules of one home define a class of one name."""
    pkg = importlib.import_module(f"macau_tables.games.{package}")
    modules = [f"{pkg.__name__}.{m.name}" for m in pkgutil.iter_modules(pkg.__path__)]
    assert modules
    homes: dict[str, set[type]] = {}
    for name in modules:
        was = WAS[package].get(name.rpartition(".")[2], package)
        assert snapshot._HOMES.get(name) == f"macau_tables.games.{was}", name
        homes.setdefault(was, set()).update(
            cls
            for cls in vars(sys.modules[name]).values()
            if isinstance(cls, type) and cls.__module__ == name
        )
    for classes in homes.values():
        names = [cls.__qualname__ for cls in classes]
        assert len(set(names)) == len(names), "two modules define a class of one name"


def test_the_snapshot_names_of_the_game_classes_are_those_of_their_journals() -> None:
    """The names checkpoints hashed before the games became packages."""
    from macau_tables.games.baccarat import BaccaratPhase, Card
    from macau_tables.games.craps import CrapsRules
    from macau_tables.games.tiles import TileRound, TileTableRules

    assert snapshot.encode(Card.parse("Td")) == {"x": ["macau_tables.games.baccarat:Card", "Td"]}
    assert snapshot.encode(BaccaratPhase.CUT)["e"][0] == "macau_tables.games.baccarat:BaccaratPhase"
    assert snapshot.encode(CrapsRules())["o"][0] == "macau_tables.games.craps:CrapsRules"
    assert snapshot.class_name(TileTableRules) == "macau_tables.games.tiletable:TileTableRules"
    assert snapshot.class_name(TileRound) == "macau_tables.games.tileround:TileRound"


# --- the engines ----------------------------------------------------------------------------


class Run:
    """A table of ``game`` driven through rounds (``drive_tables.drive``), checkpointed and
    compacted at random steps, voided at random ends of rounds; beside it a twin that keeps
    the whole journal (fed every event: ``record``) and every entry seen."""

    def __init__(self, game: str, seed: str, *, void: bool) -> None:
        self.game, self.rng, self.void = game, Rng.seeded(f"snapshots:{game}:{seed}"), void
        self.entries: dict[int, Entry] = {}
        self.snapshots: dict[int, Any] = {}
        self.twin: TableEngine | None = None
        self.voids = 0
        self.steps = 0

    def sync(self, engine: TableEngine) -> None:
        if self.twin is None:
            self.twin = binding(self.game).create(engine.table_id, {})
            assert len(self.twin.journal) == 1  # its opening, the same as the table's
        for e in engine.journal.entries:
            self.entries.setdefault(e.seq, e)
        keys = getattr(self.twin, "_keyring", None)
        (keys if keys is not None else self.twin._vault).update(  # type: ignore[attr-defined]
            {**SEEDS, **getattr(engine, "_keyring", {})}
        )
        for seq in range(len(self.twin.journal), len(engine.journal)):
            self.twin.record(self.entries[seq].event)
        assert self.twin.journal.head == engine.journal.head

    def each(self, engine: TableEngine) -> None:
        self.sync(engine)
        assert self.twin is not None
        if self.void:
            can = engine.can_void_round(SAM, ANN)  # type: ignore[attr-defined]
            assert can == self.twin.can_void_round(SAM, ANN)  # type: ignore[attr-defined]
            if can and self.rng.below(4) == 0:
                engine.execute(VOID)
                self.voids += 1
                self.sync(engine)
        self.steps += 1
        # at random, and at least every 8th step (a run must checkpoint: seed "*" at craps
        # did not once in 12 rounds)
        if self.rng.below(4) == 0 or self.steps % 8 == 0:
            engine.execute(Command(Actor.SYSTEM, "checkpoint"))
            seq, encoded = engine.latest_snapshot()  # type: ignore[attr-defined]
            assert seq == len(engine.journal) - 1
            self.snapshots[seq] = encoded
            self.sync(engine)
        if self.rng.below(3) == 0:
            engine.compact()  # type: ignore[attr-defined]

    def journal(self, engine: TableEngine) -> Journal:
        entries = [self.entries[i].to_json() for i in range(len(engine.journal))]
        j = engine.journal
        return Journal.from_json(
            {"format": FORMAT, "version": FORMAT_VERSION, "game": j.game, "header": j.header,
             "entries": entries}
        )  # fmt: skip

    def seeds(self, engine: TableEngine) -> dict[str, bytes]:
        return {**SEEDS, **getattr(engine, "_keyring", {}), **getattr(engine, "_vault", {})}


def window(full: Journal, start: int) -> Journal:
    """The entries of ``full`` from ``start`` on, as a server reads them from its database."""
    out = Journal.resume(full.game, full.header, start, full.entry(start).prev_hash)
    out._entries = list(full.entries[start:])
    return out


def restore(engine: TableEngine, full: Journal, seq: int, encoded: Any, seeds: Any) -> Any:
    rest = window(full, seq)
    empty = Journal.resume(full.game, full.header, seq, full.entry(seq).prev_hash)
    table = type(engine).from_snapshot(encoded, empty, seeds, window=rest)  # type: ignore[attr-defined]
    return contract.replay_from(table, rest)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=3, deadline=None)
@given(seed=st.text(max_size=4))
@example(seed="*")  # craps: no checkpoint at random in 12 rounds (now one every 8th step)
def test_a_table_restored_from_any_snapshot_is_the_table_that_ran(game: str, seed: str) -> None:
    """Checkpoints and compactions at random steps through 12 rounds: the table's window
    keeps fewer entries than its journal; replayed whole (which re-derives every checkpoint's
    digest), and restored from a snapshot with the rest of the journal — the first, the
    last and three others drawn from the seed (each restore re-runs the rest: a tile table's
    dozens of snapshots took 25 s) — the table is in the very state of the one that ran
    (its snapshot, its head, its views)."""
    run = Run(game, seed, void=False)
    engine = drive(game, 12, run.each)
    run.sync(engine)
    assert run.snapshots, "no checkpoint taken"
    full = run.journal(engine)
    state, seeds = engine.snapshot_state(), run.seeds(engine)  # type: ignore[attr-defined]
    whole = contract.replay(full, binding(game).open, seeds)
    assert whole.snapshot_state() == state  # type: ignore[attr-defined]
    seqs = sorted(run.snapshots)
    chosen = {seqs[0], seqs[-1], *random.Random(seed).sample(seqs, min(3, len(seqs)))}
    for seq in sorted(chosen):
        table = restore(engine, full, seq, run.snapshots[seq], seeds)
        assert table.snapshot_state() == state
        assert table.journal.head == engine.journal.head and table.journal.first == seq
        for viewer in (contract.Viewer.PUBLIC, contract.Viewer.player("alice")):
            assert table.view(viewer) == engine.view(viewer)
        assert [p.to_json() for p in table.pending()] == [p.to_json() for p in engine.pending()]
    assert run.twin is not None and run.twin.snapshot_state() == state  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=4, deadline=None)
@given(seed=st.text(max_size=4))
def test_a_compacted_table_voids_as_the_whole_journal_does(game: str, seed: str) -> None:
    """A supervisor's void at random ends of rounds, at a table whose journal is compacted
    at random: whether a void is allowed is the same as at its twin that keeps the whole
    journal, and the void it journals (its round, its money, re-issued holds) is the one
    the whole journal's rules give (the full replay re-runs every void and demands it)."""
    run = Run(game, seed, void=True)
    engine = drive(game, 10, run.each)
    run.sync(engine)
    full = run.journal(engine)
    whole = contract.replay(full, binding(game).open, run.seeds(engine))
    assert whole.snapshot_state() == engine.snapshot_state()  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", GAMES)
def test_voids_happen_in_the_void_runs(game: str) -> None:
    """The runs above do void (else the comparison would be idle)."""
    run = Run(game, "v", void=True)
    engine = drive(game, 10, run.each)
    assert run.voids > 0 and engine.journal.first > 0


@pytest.mark.parametrize("game", GAMES)
def test_a_snapshot_that_is_not_the_state_the_chain_says_is_refused(game: str) -> None:
    """Change one thing in a stored snapshot (a player's chips): restored, the table's
    first replayed entry, the checkpoint, re-derives another digest — refused there."""
    run, steps = Run(game, "tamper", void=False), [0]

    def each(engine: TableEngine) -> None:
        run.sync(engine)
        steps[0] += 1
        if steps[0] % 5 == 0:
            engine.execute(Command(Actor.SYSTEM, "checkpoint"))
            seq, run.snapshots[seq] = engine.latest_snapshot()  # type: ignore[attr-defined]

    engine = drive(game, 4, each)
    run.sync(engine)
    full = run.journal(engine)
    seq, encoded = max(run.snapshots.items())
    state = snapshot.decode(encoded)
    stacks = state["_stacks"] if "_stacks" in state else state["stacks"]
    player = next(iter(stacks))
    stacks[player] += 100
    forged = snapshot.encode(state)
    with pytest.raises(ReplayMismatch, match=f"entry {seq}"):
        restore(engine, full, seq, forged, run.seeds(engine))
    restore(engine, full, seq, encoded, run.seeds(engine))  # the true one restores


def test_only_the_tables_server_checkpoints() -> None:
    engine = binding("baccarat").create("b", {})
    for actor in (Actor.DEALER, SAM, Actor.player("alice")):
        with pytest.raises(OutOfOrder, match="system"):
            engine.execute(Command(actor, "checkpoint"))
    assert len(engine.journal) == 1


def test_a_window_of_a_journal_is_not_written_as_a_journal() -> None:
    run = Run("craps", "w", void=False)
    engine = drive("craps", 6, run.each)
    assert engine.journal.first > 0
    with pytest.raises(JournalError, match="window"):
        engine.journal.to_json()
    with pytest.raises(IndexError):
        engine.journal.entry(engine.journal.first - 1)
    engine.journal.verify()  # the window's chain, from the entry before it
