"""The package's modules import one another without circles, and the engines' seed vaults
are read only through their public accessor.

The import graph is built with ``ast`` over src/macau_tables: every ``import`` and ``from
… import`` counts — at module level, inside a function (a lazy import) and under
``if TYPE_CHECKING:`` alike, since each is a dependency of the module's design. ``from
pkg import name`` is an edge to ``pkg.name`` when that is a module, else to ``pkg``
(its ``__init__``; the packages a module lies in, which Python runs first, are not counted
as imported by it). A cycle is a circle of such edges.

No module may be on a cycle. The server's modules that need one another's objects take
them through a ``Protocol`` of what they use (``tables.Host``, ``cluster.Host``): the
floor satisfies them, and nothing imports back up.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGE = SRC / "macau_tables"

#: Known circles (every elementary cycle, from its module first in sorted order along the
#: imports): none. No cycle is allowed anywhere.
KNOWN_CYCLES: frozenset[tuple[str, ...]] = frozenset()

#: The parts of the package that must have no cycle at all, known or not.
KERNEL = ("core", "tiles", "games", "analysis")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imported(tree: ast.AST, name: str, is_package: bool, mods: Mapping[str, Path]) -> set[str]:
    """The package's modules ``tree`` imports (module level, functions, TYPE_CHECKING),
    relative imports made absolute."""

    def resolve(dotted: str) -> str | None:
        while dotted and dotted not in mods:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    package = name if is_package else name.rpartition(".")[0]
    out: set[str | None] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(resolve(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            out.update(resolve(f"{base}.{alias.name}") for alias in node.names)
    return {m for m in out if m is not None and m != name}


@cache
def import_graph() -> dict[str, set[str]]:
    """Module → the package's modules it imports (built once: do not change it)."""
    mods = modules()
    return {
        name: imported(
            ast.parse(path.read_text(encoding="utf-8"), filename=str(path)),
            name,
            path.name == "__init__.py",
            mods,
        )
        for name, path in mods.items()
    }


def strongly_connected(graph: Mapping[str, set[str]]) -> list[set[str]]:
    """Tarjan's components with more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp: set[str] = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def cycles(graph: Mapping[str, set[str]], limit: int = 1_000) -> set[tuple[str, ...]]:
    """Every elementary cycle (at most ``limit``), each from its smallest module."""
    found: set[tuple[str, ...]] = set()
    for comp in strongly_connected(graph):
        for start in sorted(comp):
            # depth first through the component's modules after ``start``
            todo: list[tuple[str, ...]] = [(start,)]
            while todo and len(found) < limit:
                path = todo.pop()
                for w in sorted(graph[path[-1]] & comp):
                    if w == start:
                        found.add(path)
                    elif w > start and w not in path:
                        todo.append((*path, w))
    return found


def test_the_import_graph_is_read() -> None:
    graph = import_graph()
    assert "macau_tables.core.ledger" in graph["macau_tables.games.contract"]
    assert "macau_tables.tiles.strategies" in graph["macau_tables.analysis.tiles"]
    # a TYPE_CHECKING import counts (tables.py's import of the settings is one)
    assert "macau_tables.server.settings" in graph["macau_tables.server.tables"]


def test_a_cycle_is_found() -> None:
    """Each elementary cycle once, from its smallest module (the check's own test)."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "b"}, "d": {"a"}}
    assert cycles(graph) == {("a", "b", "c"), ("b", "c")}
    assert cycles({"a": {"b"}, "b": set()}) == set()


def test_no_module_of_the_kernel_is_on_a_cycle() -> None:
    """core, tiles, games and analysis: no circle, lazy imports and TYPE_CHECKING included
    (the journal does not import the ledger; tiles.strategies does not import the
    analysis: the optimal strategy is given its best response)."""

    def in_kernel(module: str) -> bool:
        return any(f"{module}.".startswith(f"macau_tables.{part}.") for part in KERNEL)

    on_cycles = sorted({m for c in cycles(import_graph()) for m in c if in_kernel(m)})
    assert on_cycles == []


#: What each part of the kernel may import besides itself (docs/architecture.md).
LAYERS: Mapping[str, frozenset[str]] = {
    "core": frozenset(),
    "tiles": frozenset({"core"}),
    "games": frozenset({"core", "tiles"}),
    "analysis": frozenset({"core", "tiles", "games", ""}),  # "": the package's __init__
}


def test_the_kernel_parts_build_on_one_another_in_order() -> None:
    def part(module: str) -> str:
        return module.split(".")[1] if "." in module else ""

    wrong = sorted(
        f"{m} -> {t}"
        for m, targets in import_graph().items()
        if part(m) in LAYERS
        for t in targets
        if part(t) != part(m) and part(t) not in LAYERS[part(m)]
    )
    assert wrong == []


def test_no_cycle_but_the_known_server_ones() -> None:
    found = cycles(import_graph())
    assert found - KNOWN_CYCLES == set(), "new import cycles"
    # a known circle that is gone is progress: drop it from KNOWN_CYCLES
    assert KNOWN_CYCLES - found == set(), "known cycles no longer there"


# --- the seed vaults: private to the engines ------------------------------------------------

#: Attributes an engine keeps its server seeds in (read from outside through
#: ``seed_vault()``, :meth:`macau_tables.games.contract.SnapshotOps.seed_vault`).
PRIVATE_VAULTS = ("_keyring", "_vault")
ENGINES = PACKAGE / "games"
#: tests/games/test_snapshots.py keys seeds into a twin table as it is fed events by writing
#: its vault (an engine takes seeds only when it is built: there is no public way to add
#: them); it reads the driven table's vault the same way.
VAULT_WRITERS = frozenset({ROOT / "tests" / "games" / "test_snapshots.py"})


def vault_reads(path: Path) -> list[str]:
    """``line attribute`` for each private vault attribute the file reaches: as an
    attribute (``t._keyring``) or by name (``getattr(t, "_vault")``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out = []
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Attribute):
            name = node.attr
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            name = node.value
        if name is not None and name.startswith(PRIVATE_VAULTS):
            out.append(f"{node.lineno} {name}")
    return out


def test_no_module_outside_the_engines_reads_a_seed_vault() -> None:
    files = [
        p
        for folder in ("src", "tests", "scripts", "benchmarks")
        for p in sorted((ROOT / folder).rglob("*.py"))
        if ENGINES not in p.parents and p not in VAULT_WRITERS and p != Path(__file__).resolve()
    ]
    assert len(files) > 100
    hits = [f"{p.relative_to(ROOT)}:{hit}" for p in files for hit in vault_reads(p)]
    assert hits == []


def test_the_vault_check_sees_both_forms(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text('a = t._keyring\nb = getattr(t, "_vault", {})\nc = t.keyring\n')
    assert vault_reads(probe) == ["1 _keyring", "2 _vault"]
