"""analysis.tablecache: tables built once, keyed by the code that makes them, safe to share."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from macau_tables.analysis import tablecache
from macau_tables.analysis import tiles as at
from macau_tables.tiles import PG1985, TW1990
from macau_tables.tiles.strategies import forced_setting, strategy


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    directory = tmp_path / "cache"
    monkeypatch.setenv(tablecache.ENV, str(directory))
    tablecache.forget_memory()
    yield directory
    tablecache.forget_memory()


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in package with one source file, so a test can change the code."""
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "maker.py").write_text("RULE = 1\n")
    monkeypatch.setattr(tablecache, "_PACKAGE", root)
    monkeypatch.setattr(tablecache, "_DIGESTS", {})
    return root


def _build(calls: list[int], value: int = 7) -> dict[str, np.ndarray]:
    calls.append(value)
    return {"t": np.arange(5) * value}


def test_a_table_is_built_once_then_read_from_disk(cache: Path, package: Path) -> None:
    calls: list[int] = []
    first = tablecache.arrays("demo", {"n": 1}, ["maker.py"], lambda: _build(calls))
    tablecache.forget_memory()  # a new process: only the disk remains
    again = tablecache.arrays("demo", {"n": 1}, ["maker.py"], lambda: _build(calls))
    assert calls == [7]
    assert np.array_equal(first["t"], again["t"])
    assert not again["t"].flags.writeable
    assert [p.suffix for p in cache.iterdir()] == [".npz"]


def test_changing_the_code_or_the_key_builds_a_new_table(cache: Path, package: Path) -> None:
    calls: list[int] = []
    tablecache.arrays("demo", {"n": 1}, ["maker.py"], lambda: _build(calls, 1))
    (package / "maker.py").write_text("RULE = 2\n")  # the code that makes the table changed
    tablecache.forget_memory()
    tablecache._DIGESTS.clear()  # a new process hashes the sources again
    new = tablecache.arrays("demo", {"n": 1}, ["maker.py"], lambda: _build(calls, 2))
    other_key = tablecache.arrays("demo", {"n": 2}, ["maker.py"], lambda: _build(calls, 3))
    assert calls == [1, 2, 3]
    assert new["t"].tolist() == [0, 2, 4, 6, 8] and other_key["t"][1] == 3
    assert len(list(cache.iterdir())) == 3  # the stale file is never read again


def test_a_damaged_file_is_rebuilt(cache: Path, package: Path) -> None:
    calls: list[int] = []
    tablecache.arrays("demo", {}, ["maker.py"], lambda: _build(calls))
    (stored,) = cache.iterdir()
    stored.write_bytes(stored.read_bytes()[:40])  # truncated (a full disk, a killed writer)
    tablecache.forget_memory()
    again = tablecache.arrays("demo", {}, ["maker.py"], lambda: _build(calls))
    assert calls == [7, 7] and again["t"][1] == 7
    tablecache.forget_memory()
    tablecache.arrays("demo", {}, ["maker.py"], lambda: _build(calls))
    assert calls == [7, 7]  # the rebuilt file is whole


def test_off_keeps_nothing_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(tablecache.ENV, "off")
    assert tablecache.cache_dir() is None
    tablecache.forget_memory()
    calls: list[int] = []
    tablecache.json_value("demo", {}, ["tiles/*.py"], lambda: calls.append(1) or [1, 2])
    assert tablecache.json_value("demo", {}, ["tiles/*.py"], lambda: [9]) == [1, 2]  # memory
    assert calls == [1]
    tablecache.forget_memory()


def test_the_default_directory_follows_xdg(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(tablecache.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere")
    assert tablecache.cache_dir() == Path("/somewhere/macau-tables")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert tablecache.cache_dir() == Path.home() / ".cache" / "macau-tables"


def _write_in_a_process(directory: str) -> list[int]:
    import os

    os.environ[tablecache.ENV] = directory
    tablecache.forget_memory()
    out = tablecache.arrays("race", {}, ["tiles/*.py"], lambda: {"t": np.arange(100_000)})
    return out["t"][-3:].tolist()


def test_concurrent_writers_leave_one_whole_file(cache: Path) -> None:
    """Eight processes build the same table at once: each writes a temporary file and
    renames it into place; the survivor is whole and no temporary file is left."""
    cache.mkdir()
    with ProcessPoolExecutor(4) as pool:
        results = list(pool.map(_write_in_a_process, [str(cache)] * 8))
    assert results == [[99_997, 99_998, 99_999]] * 8
    (stored,) = cache.iterdir()
    with np.load(stored) as z:
        assert np.array_equal(z["t"], np.arange(100_000))
    assert tablecache.clear() == 1 and not list(cache.iterdir())


@pytest.mark.parametrize(
    ("game", "name"),
    [
        ("paigow", "house-way"),
        ("paigow", "max-back"),
        ("taiwan", "house-way"),
        ("taiwan", "forced"),
    ],
)
def test_cached_strategy_tables_are_the_readable_strategies(
    cache: Path, game: at.Game, name: str
) -> None:
    """Built, stored and read back: every hand class sets as the readable strategy does
    (T-4 settings compared by value: front and back keys, T-2)."""
    at._choices.cache_clear()
    at._universe.cache_clear()
    at._options.cache_clear()
    at._choices(name, game)
    tablecache.forget_memory()
    at._choices.cache_clear()
    from_disk = at._choices(name, game)
    rules = PG1985 if game == "paigow" else TW1990
    choose = forced_setting if name == "forced" else strategy(name).choose
    opts = at._options(game)
    for i, tiles in enumerate(at._universe().tiles):
        s = choose(tiles, rules)
        assert opts.values(i)[from_disk[i]] == (s.front.value.key, s.back.value.key), tiles


def test_warm_builds_every_family_and_clears_on_request(
    cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m macau_tables.analysis.warm [--clear]``: the three families of tables and
    kernels are built, ``--clear`` removes the stored tables first, anything else is a usage
    error (exit 2)."""
    from macau_tables.analysis import warm

    done: list[str] = []
    for family in ("_tiles", "_baccarat", "_craps"):
        monkeypatch.setattr(warm, family, lambda f=family: done.append(f))
    cache.mkdir()
    (cache / "old.npz").write_bytes(b"stale")
    assert warm.main([]) == 0
    assert done == ["_tiles", "_baccarat", "_craps"] and (cache / "old.npz").exists()
    assert warm.main(["--clear"]) == 0
    assert not (cache / "old.npz").exists()
    assert "removed 1 stored tables" in capsys.readouterr().out
    assert warm.main(["--bogus"]) == 2
