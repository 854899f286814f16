"""The baccarat kernel built ahead of time (:mod:`macau_tables.analysis.kernels.native`).

``simulate baccarat`` runs the kernel's entry points from a shared library that numba's
ahead-of-time code generator made from the same functions, without importing numba. These
tests demand that the library and numba's dispatcher give the same hands, series and counts
under every rule set (the dispatcher is the code the engine comparison in
``test_baccarat_sim.py`` checks card for card), that a process using the library never
imports numba, and that without a C compiler the dispatcher takes over.
"""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from macau_tables.analysis.kernels import baccarat_sim as sim
from macau_tables.analysis.kernels import native


def needs_cc(fn: Any) -> Any:
    """A test of the built library: it fails, not skips, without a C compiler (``make test``
    installs Debian's gcc when there is none)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if native.compiler() is None:
            pytest.fail("no C compiler (cc or $CC): `make test` installs Debian's gcc")
        if not native.enabled():
            pytest.fail(f"native kernels are off ({native.ENV} or MACAU_TABLES_CACHE=off)")
        return fn(*args, **kwargs)

    return wrapper


RULE_SETS = [
    pytest.param({}, id="8-decks"),
    pytest.param({"no_commission": True}, id="no-commission"),
    pytest.param({"decks": 6, "burn": "first_card", "last_hand": "last"}, id="6-first-card"),
    pytest.param({"decks": 12, "cut_from_end": 12, "demonstration_hands": 3}, id="12-demos"),
    pytest.param({"continuous_shuffler": True}, id="machine"),
    pytest.param({"continuous_shuffler": True, "decks": 6}, id="machine-6"),
]


def _library() -> dict[str, native.NativeFunction]:
    lib = native.load("baccarat-sim", sim.EXPORTS, sim.NATIVE_SOURCES)
    assert lib is not None, "the native library did not build: see the .failed file"
    return lib


@needs_cc
@pytest.mark.parametrize("options", RULE_SETS)
def test_native_library_and_numba_dispatcher_deal_the_same_hands(
    options: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same seed and chunk: the same outcome, six, pairs and shoe of every hand (BA-3.1
    shoe boundaries included), from the library and from numba's dispatcher."""
    _library()
    opts = options | {"series": True}
    got = sim.simulate_chunk(5, 2, 30_000, opts)
    monkeypatch.setenv(native.ENV, "off")
    assert sim._entries()[0] is sim._core().shoes_entry  # now the dispatcher
    want = sim.simulate_chunk(5, 2, 30_000, opts)
    assert got.counts == want.counts
    assert got.series.keys() == want.series.keys()
    for key in want.series:
        assert np.array_equal(got.series[key], want.series[key]), key


@needs_cc
def test_a_process_with_the_library_never_imports_numba() -> None:
    """The point of the library: ``simulate_chunk`` (and ``prepare``) without numba."""
    _library()
    code = (
        "import sys\n"
        "from macau_tables.analysis.kernels import baccarat_sim as sim\n"
        "sim.prepare({})\n"
        "r = sim.simulate_chunk(1, 0, 5000, {})\n"
        "assert r.rounds == 5000\n"
        "assert 'numba' not in sys.modules, 'numba was imported'\n"
        "assert 'llvmlite' not in sys.modules, 'llvmlite was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_without_a_compiler_the_dispatcher_runs_and_the_failure_is_remembered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No C compiler: no library, a ``.failed`` note beside where it would be, and the same
    figures from numba's dispatcher."""
    monkeypatch.setenv("MACAU_TABLES_CACHE", str(tmp_path))
    monkeypatch.setenv("CC", str(tmp_path / "no-such-compiler"))
    assert native.load("baccarat-sim", sim.EXPORTS, sim.NATIVE_SOURCES) is None
    path = native.library_path("baccarat-sim", sim.EXPORTS, sim.NATIVE_SOURCES)
    assert path is not None and not path.exists()
    assert "no C compiler" in path.with_suffix(".failed").read_text(encoding="utf-8")
    result = sim.simulate_chunk(5, 0, 2_000, {})
    assert result.rounds == 2_000


def test_native_off_and_cache_off_load_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(native.ENV, "off")
    assert native.load("baccarat-sim", sim.EXPORTS, sim.NATIVE_SOURCES) is None
    monkeypatch.delenv(native.ENV)
    monkeypatch.setenv("MACAU_TABLES_CACHE", "off")
    assert native.load("baccarat-sim", sim.EXPORTS, sim.NATIVE_SOURCES) is None
    assert native.library_path("baccarat-sim", sim.EXPORTS, sim.NATIVE_SOURCES) is None


def test_the_library_name_changes_with_the_kernel_source(monkeypatch: pytest.MonkeyPatch) -> None:
    """Never stale: the file name carries the kernel's source digest (as the table cache's)."""
    a = native.library_path("baccarat-sim", sim.EXPORTS, sim.NATIVE_SOURCES)
    b = native.library_path("baccarat-sim", sim.EXPORTS, ("analysis/kernels/baccarat_sim.py",))
    c = native.library_path("baccarat-sim", sim.EXPORTS[:1], sim.NATIVE_SOURCES)
    assert a is not None and b is not None and c is not None
    assert len({a.name, b.name, c.name}) == 3
    assert a.suffix == ".so" and a.name.startswith("baccarat-sim-")


def test_shim_calls_numbas_convention_and_returns_failed_on_an_exception() -> None:
    """The C wrapper: status = f(&result, &exception, args…); non-zero status → FAILED."""
    text = native._shim([native.Export("f", "m", "g", 2)])
    assert "int64_t f(int64_t a0, int64_t a1)" in text
    assert "f_numba(&result, &exc, a0, a1) != 0) return INT64_MIN;" in text
    assert native.FAILED == -(2**63)
    with pytest.raises(ValueError, match="kernel failed"):
        sim._checked(native.FAILED)
