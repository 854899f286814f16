"""Kernels compiled ahead of time: numba's own code for a kernel, as a shared library that a
process loads with :mod:`ctypes`, without importing numba.

A numba kernel loaded from numba's cache still costs every process numba's import (about a
quarter of a second) and the set-up of numba's typing and target registries on the first
dispatch (about as much again): half a second of fixed start-up before the first hand of
``simulate baccarat`` is dealt. This module compiles the kernel's entry points once with
numba's ahead-of-time code generator (the same Python functions, the same numba pipeline,
position-independent code for this machine's CPU), links them with the C compiler into a
shared library kept in the table cache (:mod:`~macau_tables.analysis.tablecache`), and
loads that library in later processes in well under a millisecond.

An entry point (:class:`Export`) is a numba function whose arguments are all integers
(addresses of arrays and sizes, see :mod:`~macau_tables.analysis.kernels.baccarat_core`)
and which returns an ``int64``. The library exports it under C's calling convention,
``int64_t symbol(int64_t, …)``; a call releases the GIL (:class:`ctypes.CDLL`), so threads
run it in parallel. An exception inside the kernel (it raises none on checked input)
returns :data:`FAILED`.

**Never stale.** The file name carries a SHA-256 of the kernel's source files (as the
table cache's names do), of the Python, numba and llvmlite versions and of this machine's
CPU (the code is compiled for it): change any of them and the next call builds a new
library. **Fallback.** No C compiler, ``MACAU_TABLES_NATIVE=off``, the table cache off
(``MACAU_TABLES_CACHE=off``) or a failed build (remembered in a ``.failed`` file under the
same name, so that it is not tried again every process): :func:`load` returns None and
the caller runs the same functions through numba's dispatcher. The build itself runs in a
child process with an empty numba cache (numba links the code of a kernel's callees from
their compiled IR, which a kernel loaded from numba's cache no longer has).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from macau_tables.analysis import tablecache

ENV = "MACAU_TABLES_NATIVE"
#: what an entry point returns when the compiled code raised (it never does on checked input)
FAILED = -(2**63)
#: source files of every native library (the builder and the shim it writes)
SOURCES = ("analysis/kernels/native.py",)

NativeFunction = Callable[..., int]


@dataclass(frozen=True)
class Export:
    """An entry point: ``module.function`` (a numba ``njit`` dispatcher) taking ``n_args``
    integers and returning an int64, exported as the C function ``symbol``."""

    symbol: str
    module: str
    function: str
    n_args: int


def enabled() -> bool:
    """Native libraries may be built and loaded (``$MACAU_TABLES_NATIVE`` is not ``off``, the
    table cache is on, and this is not Windows)."""
    if os.environ.get(ENV, "").strip().lower() == "off":
        return False
    return sys.platform != "win32" and tablecache.cache_dir() is not None


def _file_version(package: str) -> str:
    """A digest of ``package/_version.py`` (its version), found without importing it."""
    import importlib.util

    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return "missing"
    path = Path(spec.origin).parent / "_version.py"
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:
        return "unknown"


def _cpu() -> str:
    """This machine's CPU, as far as code generation cares: model and feature flags."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            lines = [ln for ln in f.read(65536).splitlines() if ln.split(":")[0].strip()]
    except OSError:
        lines = []
    wanted = ("model name", "flags", "Features", "CPU part")
    seen = {}
    for ln in lines:
        key = ln.split(":")[0].strip()
        if key in wanted and key not in seen:
            seen[key] = ln.split(":", 1)[1].strip()
    text = json.dumps(seen, sort_keys=True) + os.uname().machine
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _key(name: str, exports: Sequence[Export]) -> dict[str, object]:
    return {
        "name": name,
        "exports": [[e.symbol, e.module, e.function, e.n_args] for e in exports],
        "python": sys.version,
        "numba": _file_version("numba"),
        "llvmlite": _file_version("llvmlite"),
        "cpu": _cpu(),
    }


def library_path(name: str, exports: Sequence[Export], sources: Sequence[str]) -> Path | None:
    """Where the library of these exports lives (None: the table cache is off)."""
    directory = tablecache.cache_dir()
    if directory is None:
        return None
    return directory / tablecache.file_name(name, _key(name, exports), (*sources, *SOURCES), "so")


_LOCK = threading.Lock()
_LOADED: dict[str, dict[str, NativeFunction] | None] = {}


def _open(path: Path, exports: Sequence[Export]) -> dict[str, NativeFunction]:
    import ctypes

    lib = ctypes.CDLL(str(path))
    out: dict[str, NativeFunction] = {}
    for e in exports:
        fn = getattr(lib, e.symbol)
        fn.restype = ctypes.c_int64
        fn.argtypes = [ctypes.c_int64] * e.n_args
        out[e.symbol] = fn
    return out


def load(
    name: str, exports: Sequence[Export], sources: Sequence[str], *, build: bool = True
) -> dict[str, NativeFunction] | None:
    """The exports of library ``name`` as ctypes functions (by symbol), loaded from the
    table cache, or first built (``build``) and stored there; None when native code is off
    or cannot be built here (the caller then runs numba's dispatcher). ``sources``: globs
    of the kernel's source files (relative to the package), part of the file name. Once
    per process (thread-safe); a failed build is remembered on disk."""
    if not enabled():
        return None
    path = library_path(name, exports, sources)
    if path is None:
        return None
    with _LOCK:
        if str(path) in _LOADED:
            return _LOADED[str(path)]
        functions: dict[str, NativeFunction] | None = None
        failed = path.with_suffix(".failed")
        if not path.is_file() and build and not failed.is_file():
            _build(path, exports)
        if path.is_file():
            try:
                functions = _open(path, exports)
            except (OSError, AttributeError) as exc:  # damaged: remember, use numba
                _remember_failure(failed, f"loading {path.name}: {exc}")
        if functions is not None or build:  # without build, a later call may still build
            _LOADED[str(path)] = functions
        return functions


def _remember_failure(failed: Path, why: str) -> None:
    with contextlib.suppress(OSError):
        failed.write_text(why + "\n", encoding="utf-8")


def compiler() -> str | None:
    """The C compiler that links the libraries (``$CC``, else ``cc``), if there is one."""
    return shutil.which(os.environ.get("CC", "").strip() or "cc")


def _build(path: Path, exports: Sequence[Export]) -> None:
    """Compile and link the library in a child process (see the module docstring); on
    failure leave a ``.failed`` file with the reason."""
    failed = path.with_suffix(".failed")
    cc = compiler()
    if cc is None:
        _remember_failure(failed, "no C compiler (cc or $CC) to link the native kernel")
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return
    spec = json.dumps(
        {"out": str(path), "cc": cc, "exports": [e.__dict__ for e in exports]}, sort_keys=True
    )
    with tempfile.TemporaryDirectory(prefix="macau-native-") as numba_cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=numba_cache)
        done = subprocess.run(
            [sys.executable, "-m", "macau_tables.analysis.kernels.native", spec],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    if done.returncode != 0 or not path.is_file():
        _remember_failure(failed, f"building {path.name}:\n{done.stdout}{done.stderr}"[-4000:])


# --- the build (in the child process) -------------------------------------------------------

_SHIM_HEAD = """\
/* generated by macau_tables.analysis.kernels.native: C entry points around numba's code */
#include <stdint.h>
/* numba's reference counting, linked in, calls this when a count reaches zero; the
   kernels allocate nothing (their arrays are views of the caller's memory) */
void NRT_MemInfo_call_dtor(void *mi) { (void)mi; }
"""


def _shim(exports: Sequence[Export]) -> str:
    """C wrappers: ``int64_t symbol(int64_t …)`` calling numba's calling convention
    (status = f(&result, &exception, args…))."""
    parts = [_SHIM_HEAD]
    for e in exports:
        params = ", ".join(f"int64_t a{i}" for i in range(e.n_args)) or "void"
        args = "".join(f", a{i}" for i in range(e.n_args))
        parts.append(
            f"extern int32_t {e.symbol}_numba(int64_t *result, void **exc"
            + "".join(", int64_t" for _ in range(e.n_args))
            + ");\n"
            f"int64_t {e.symbol}({params}) {{\n"
            f"    int64_t result = 0;\n    void *exc = 0;\n"
            f"    if ({e.symbol}_numba(&result, &exc{args}) != 0) return INT64_MIN;\n"
            f"    return result;\n}}\n"
        )
    return "\n".join(parts)


def _compile(spec: dict[str, Any]) -> None:  # pragma: no cover - runs in the child process
    from numba import types
    from numba.core.compiler import Flags, compile_extra
    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.registry import cpu_target
    from numba.core.runtime import nrtdynmod

    out = Path(spec["out"])
    exports = [Export(**e) for e in spec["exports"]]
    context = cpu_target.target_context.with_aot_codegen(out.stem, cpu_name="host")
    library = context.codegen().create_library(out.stem)
    library.add_ir_module(nrtdynmod.create_nrt_module(context)[0])  # type: ignore[no-untyped-call]
    flags: Any = Flags()  # type: ignore[no-untyped-call]
    flags.no_compile = True
    flags.no_cpython_wrapper = True
    flags.no_cfunc_wrapper = True
    flags.nrt = True
    with global_compiler_lock:
        for e in exports:
            dispatcher = getattr(importlib.import_module(e.module), e.function)
            args = (types.int64,) * e.n_args
            cres = compile_extra(  # type: ignore[no-untyped-call]
                cpu_target.typing_context,
                context,
                dispatcher.py_func,
                args,
                types.int64,
                flags,
                locals={},
                library=library,
            )
            library.get_function(cres.fndesc.llvm_func_name).name = f"{e.symbol}_numba"
        library.finalize()
        obj = library.emit_native_object()
    with tempfile.TemporaryDirectory(prefix="macau-native-") as tmp:
        shim, kernel = Path(tmp) / "shim.c", Path(tmp) / "kernel.o"
        shim.write_text(_shim(exports), encoding="utf-8")
        kernel.write_bytes(obj)
        built = out.parent / f".{out.name}.{os.getpid()}.tmp"  # renamed into place: atomic
        link = [spec["cc"], "-shared", "-fPIC", "-O2", "-o", str(built), str(shim), str(kernel)]
        if sys.platform.startswith("linux"):
            link.insert(2, "-Wl,-Bsymbolic")  # its own NRT functions, not another library's
        try:
            subprocess.run(link, check=True)
            os.chmod(built, 0o755)
            os.replace(built, out)
        finally:
            built.unlink(missing_ok=True)


if __name__ == "__main__":  # pragma: no cover - the child process of _build
    _compile(json.loads(sys.argv[1]))
