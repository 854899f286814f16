"""Where a benchmark leaves its figures: ``benchmarks/results/<name>.json``.

Each ``bench_*.py`` ends with :func:`save`: the figures it measured, each beside what it
is judged against — a peer measured in the same run, a baseline (the plain path, the
same work done the simple way), a physical limit (what the disk or the hardware allows)
or a target — with the command that made them and the machine. ``benchmarks/render.py``
writes ``docs/benchmarks.md`` from these files; ``make bench`` runs it at its end.

``MACAU_BENCH_RESULTS=DIR`` writes elsewhere (a short check that should not replace the
recorded figures).
"""

from __future__ import annotations

import json
import os
import platform
import shlex
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = Path(os.environ.get("MACAU_BENCH_RESULTS") or ROOT / "benchmarks" / "results")

#: What a figure is compared with.
KINDS = ("peer", "baseline", "limit", "target")


def _load() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:  # pragma: no cover - platforms without a load average
        return []


_LOAD_AT_START = _load()


def machine() -> dict[str, Any]:
    """The machine a run measured: CPU model and count, memory, OS, Python, load."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory_gb = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory_gb = round(int(line.split()[1]) / 1024**2, 1)
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_gb": memory_gb,
        "os": f"{platform.system()} {platform.release()}",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "load_before": _LOAD_AT_START,
        "load_after": _load(),
    }


def row(
    figure: str,
    value: float,
    unit: str,
    *,
    against: str | None = None,
    against_value: float | None = None,
    kind: str = "baseline",
    better: str = "higher",
    note: str = "",
    digits: int | None = None,
) -> dict[str, Any]:
    """One figure of the page: ``value`` (in ``unit``) beside ``against_value``, which is
    ``against`` (a peer, a baseline, a physical limit or a target: ``kind``); ``better``
    says which way is better (``higher`` or ``lower``), so that the ratio reads right."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    if better not in ("higher", "lower"):
        raise ValueError(f"better must be 'higher' or 'lower', not {better!r}")
    out: dict[str, Any] = {"figure": figure, "value": value, "unit": unit, "better": better}
    if against is not None:
        out |= {"against": against, "against_value": against_value, "kind": kind}
    if note:
        out["note"] = note
    if digits is not None:
        out["digits"] = digits
    return out


def save(
    bench: str,
    title: str,
    rows: list[dict[str, Any]],
    *,
    report: dict[str, Any] | None = None,
    command: str | None = None,
) -> Path:
    """Write ``results/<bench>.json``: the rows the page shows, the full ``report`` the
    script printed (for whoever wants every figure), the command line and the machine."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    argv = [Path(sys.argv[0]).as_posix().split("/benchmarks/")[-1], *sys.argv[1:]]
    if not argv[0].startswith("benchmarks/") and argv[0].endswith(".py"):
        argv[0] = "benchmarks/" + Path(argv[0]).name
    doc = {
        "bench": bench,
        "title": title,
        "command": command or "python " + shlex.join(argv),
        "machine": machine(),
        "rows": rows,
        "report": report or {},
    }
    path = RESULTS / f"{bench}.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(path)
    print(f"(figures written to {path})", file=sys.stderr)
    return path
