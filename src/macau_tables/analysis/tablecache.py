"""Lookup tables built once and kept on disk, keyed by a hash of the code that makes them.

Several analysis tables take a second or more to build from the readable rules (the Pai
Gow house way asked once per four-tile hand class, the exact counts of every setting
against a strategy over every deal, a full shoe's baccarat deal counts) and are the same
in every process. They are built once and stored in a per-user cache directory:

* ``$MACAU_TABLES_CACHE`` if set (``off`` turns the disk cache off: every process builds
  its own tables, in memory);
* otherwise ``$XDG_CACHE_HOME/macau-tables``, or ``~/.cache/macau-tables``.

**Never stale.** A table's file name carries a SHA-256 of the source files of the modules
that make it (:func:`source_digest`), of the table's own key (strategy, game, …) and of
:data:`FORMAT`. Change a rule, a strategy or a kernel, and the next call builds a new table
under a new name; old files are never read again (``macau-tables warm --clear`` removes
them). Nothing is trusted that the current code would not make.

**Concurrent writers.** A table is written to a temporary file in the same directory and
renamed into place (``os.replace``, atomic on POSIX and Windows): two processes building
the same table at once both write complete files, the last rename wins, and a reader sees
either no file or a whole one. A file that fails to load (truncated by a full disk, say) is
rebuilt. An unwritable directory only costs the rebuild: the table is still returned.

Within a process each table is also kept in memory, so a worker forked after the parent
built it (``analysis.simulation``) never reads the disk at all.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import macau_tables

#: bump when the layout of the stored files changes
FORMAT = 1
ENV = "MACAU_TABLES_CACHE"
OFF = "off"

_PACKAGE = Path(macau_tables.__file__).resolve().parent
_MEMORY: dict[str, Any] = {}
_DIGESTS: dict[tuple[str, ...], str] = {}


def cache_dir() -> Path | None:
    """Where tables are stored, or None when ``$MACAU_TABLES_CACHE`` is ``off``."""
    env = os.environ.get(ENV, "").strip()
    if env.lower() == OFF:
        return None
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "macau-tables"


def source_digest(patterns: Iterable[str]) -> str:
    """SHA-256 of the package's source files matching ``patterns`` (globs relative to the
    package, e.g. ``"tiles/*.py"``), names and contents, in sorted order."""
    key = tuple(sorted(patterns))
    if key not in _DIGESTS:
        h = hashlib.sha256()
        files = sorted({p for pattern in key for p in _PACKAGE.glob(pattern) if p.is_file()})
        if not files:
            raise FileNotFoundError(f"no source files match {key}")
        for path in files:
            h.update(path.relative_to(_PACKAGE).as_posix().encode())
            h.update(b"\0")
            h.update(path.read_bytes())
            h.update(b"\0")
        _DIGESTS[key] = h.hexdigest()
    return _DIGESTS[key]


def file_name(kind: str, key: Mapping[str, object], sources: Iterable[str], ext: str) -> str:
    """The stored file's name: ``kind``, then a digest of ``key``, of the ``sources``' code
    and of :data:`FORMAT`; ``ext`` its extension."""
    h = hashlib.sha256()
    h.update(f"{FORMAT}\0{kind}\0".encode())
    h.update(json.dumps(dict(key), sort_keys=True, default=str).encode())
    h.update(source_digest(sources).encode())
    return f"{kind}-{h.hexdigest()[:24]}.{ext}"


def _write_atomic(directory: Path, name: str, write: Callable[[Any], None]) -> None:
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
    except OSError:
        return  # no cache here: the table was built and is returned anyway
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.chmod(tmp, 0o644)  # mkstemp makes it private; a table is no secret
        os.replace(tmp, directory / name)
    except OSError:
        Path(tmp).unlink(missing_ok=True)


def arrays(
    kind: str,
    key: Mapping[str, object],
    sources: Iterable[str],
    build: Callable[[], Mapping[str, Any]],
) -> dict[str, Any]:
    """The numpy arrays ``build()`` returns, from memory, from disk, or built (and then
    stored). ``kind`` names the table, ``key`` its parameters, ``sources`` the globs of the
    code that makes it. The arrays returned are read-only."""
    import numpy as np

    sources = tuple(sources)
    name = file_name(kind, key, sources, "npz")
    if name in _MEMORY:
        return dict(_MEMORY[name])
    directory = cache_dir()
    out: dict[str, Any] | None = None
    if directory is not None and (directory / name).is_file():
        try:
            with np.load(directory / name, allow_pickle=False) as z:
                out = {k: z[k] for k in z.files}
        except (OSError, ValueError, KeyError, zipfile.BadZipFile):
            out = None  # damaged: build it again
    if out is None:
        out = {k: np.ascontiguousarray(v) for k, v in build().items()}
        if directory is not None:
            _write_atomic(directory, name, lambda f: np.savez(f, **out))
    for v in out.values():
        v.setflags(write=False)
    _MEMORY[name] = out
    return dict(out)


def json_value(
    kind: str, key: Mapping[str, object], sources: Iterable[str], build: Callable[[], Any]
) -> Any:
    """As :func:`arrays`, for a small JSON value (no numpy needed to read it back)."""
    sources = tuple(sources)
    name = file_name(kind, key, sources, "json")
    if name in _MEMORY:
        return _MEMORY[name]
    directory = cache_dir()
    value: Any = None
    found = False
    if directory is not None and (directory / name).is_file():
        try:
            value = json.loads((directory / name).read_text(encoding="utf-8"))
            found = True
        except (OSError, ValueError):
            found = False
    if not found:
        value = build()
        text = json.dumps(value).encode("utf-8")
        if directory is not None:
            _write_atomic(directory, name, lambda f: f.write(text))
    _MEMORY[name] = value
    return value


def forget_memory() -> None:
    """Drop the in-memory copies (the next call reads the disk, or builds)."""
    _MEMORY.clear()


def clear() -> int:
    """Delete every stored table, native kernel library (:mod:`.kernels.native`) and
    stray temporary file; returns how many files."""
    directory = cache_dir()
    forget_memory()
    if directory is None or not directory.is_dir():
        return 0
    n = 0
    for path in directory.iterdir():
        if path.is_file() and (path.suffix in (".npz", ".json", ".tmp", ".so", ".failed")):
            path.unlink(missing_ok=True)
            n += 1
    return n
