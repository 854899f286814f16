"""Write docs/benchmarks.md from the benchmarks' results (``benchmarks/results/*.json``).

Every ``bench_*.py`` leaves its figures there (``benchmarks/results.py``), each beside
what it is judged against; ``make bench`` runs them and then this script. The page holds
the latest figures only: a benchmark run again replaces its own section.

    python benchmarks/render.py            # write docs/benchmarks.md
    python benchmarks/render.py --check    # exit 1 if the page is not what the results give
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
PAGE = ROOT / "docs" / "benchmarks.md"

#: The page's order: what a user waits for first, then the engines and the analysis, the
#: simulator, the server and what a floor's operator watches, then the batteries.
ORDER = (
    "bench_cli",
    "bench_startup",
    "bench_engines",
    "bench_par_baccarat",
    "bench_par_craps",
    "bench_par_tiles",
    "bench_sim_baccarat",
    "bench_sim_craps",
    "bench_sim_tiles",
    "bench_sim_scaling",
    "bench_server",
    "bench_server_front",
    "bench_server_pg",
    "bench_floor",
    "bench_journal_memory",
    "bench_snapshots",
    "bench_recall",
    "bench_meters",
    "bench_ledger_check",
    "bench_idempotency_prune",
    "bench_backup",
    "bench_soak",
    "rng_battery",
)

INTRO = """\
# Benchmarks

The current figures, each beside what it is judged against: a **peer** (another program
doing the same work, measured in the same run unless said otherwise), a **baseline** (the
same work done the plain way: the readable engine, a copy of the file), a **limit** (what
the hardware allows: a second core, 8 bits of entropy a byte) or a **target**.

`make bench` runs every benchmark under `benchmarks/` but the half-hour soak (`make soak`)
and the randomness batteries (`make rng-test`), each writing its figures to
`benchmarks/results/<name>.json`, and then `python benchmarks/render.py`, which writes this
page from them. Run one benchmark again (its command is under its heading) and render: its
section is replaced. The figures vary from run to run and with the machine's other load
(the load average before and after each run is given); nothing asserts a speed. This page
is generated: edit `benchmarks/render.py` or the benchmark, not the page.

In each table, *ratio* is how many times better the figure is than what it stands beside
(higher is better for a rate, lower for a time or a size); beside a limit it is the share
of the limit a rate reaches, or how many times the limit a time takes; beside a target,
whether it is met. A section *recorded from the run's printed output* holds the figures
of a run made before the benchmarks wrote their results as JSON: the next run replaces it.
"""


def _num(x: float | int | None) -> str:
    if x is None:
        return "—"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int) or (float(x).is_integer() and abs(x) >= 1):
        return f"{int(x):,}"
    ax = abs(x)
    if ax >= 100:
        return f"{x:,.0f}"
    if ax >= 10:
        return f"{x:.1f}"
    if ax >= 1:
        return f"{x:.2f}"
    return f"{x:.3g}"


def _value(x: float | int | None, unit: str, digits: int | None = None) -> str:
    text = _num(x) if digits is None or x is None else f"{x:,.{digits}f}"
    return f"{text} {unit}".strip() if x is not None else text


def _ratio(r: dict[str, Any]) -> str:
    v, a = r.get("value"), r.get("against_value")
    if v is None or a is None or "against" not in r:
        return ""
    higher = r.get("better", "higher") == "higher"
    kind = r.get("kind", "baseline")
    if kind == "target":
        met = v >= a if higher else v <= a
        return "met" if met else "**not met**"
    if v == 0 or a == 0:
        return ""
    ratio = v / a if higher else a / v
    if kind == "limit":  # a rate: the share of the limit reached; a time: how many times it
        return f"{ratio:.0%} of it" if higher else f"{v / a:.1f}× it"
    if ratio >= 100:
        return f"{ratio:,.0f}×"
    if ratio >= 1:
        return f"{ratio:.2f}×"
    return f"{ratio:.2g}×" if ratio >= 0.1 else f"1/{1 / ratio:,.0f}"


def _machine_key(m: dict[str, Any]) -> tuple[Any, ...]:
    return (m.get("cpu"), m.get("cores"), m.get("memory_gb"), m.get("os"), m.get("python"))


def _load(m: dict[str, Any]) -> str:
    before, after = m.get("load_before") or [], m.get("load_after") or []
    if not before:
        return ""
    text = f"load average {before[0]:.1f}"
    return text + (f" → {after[0]:.1f}" if after else "")


def render(results_dir: Path = RESULTS) -> str:
    docs: dict[str, dict[str, Any]] = {}
    for path in sorted(results_dir.glob("*.json")):
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and isinstance(doc.get("rows"), list):
            docs[doc.get("bench") or path.stem] = doc
    names = [n for n in ORDER if n in docs] + sorted(n for n in docs if n not in ORDER)
    machines: dict[tuple[Any, ...], str] = {}
    for name in names:
        key = _machine_key(docs[name].get("machine") or {})
        machines.setdefault(key, chr(ord("A") + len(machines)))
    out = [INTRO]
    out += [
        "## Machines",
        "",
        "| | CPU | cores | memory | OS | Python |",
        "|---|---|--:|--:|---|---|",
    ]
    for key, label in machines.items():
        cpu, cores, mem, os_, py = key
        mem_text = f"{mem:g} GB" if mem else "—"
        out.append(f"| {label} | {cpu or '—'} | {cores or '—'} | {mem_text} | {os_} | {py} |")
    out.append("")
    for name in names:
        doc = docs[name]
        m = doc.get("machine") or {}
        where = f"machine {machines[_machine_key(m)]}"
        load = _load(m)
        out += [f"## {doc.get('title') or name}", ""]
        out.append(f"`{doc.get('command', 'python benchmarks/' + name + '.py')}` · {where}"
                   + (f", {load}" if load else ""))  # fmt: skip
        if doc.get("recorded"):
            out[-1] += " · *recorded from the run's printed output*"
        out += ["", "| figure | value | beside | ratio |", "|---|--:|---|--:|"]
        for r in doc["rows"]:
            beside = ""
            if "against" in r:
                av = r.get("against_value")
                unit = r.get("against_unit", r.get("unit", ""))
                beside = r["against"] + (f": {_value(av, unit)}" if av is not None else "")
            figure = r["figure"] + (f" ({r['note']})" if r.get("note") else "")
            value = _value(r.get("value"), r.get("unit", ""), r.get("digits"))
            cells = (figure, value, beside, _ratio(r))
            out.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
        out.append("")
    if not names:
        out += ["No results yet: run `make bench`.", ""]
    return "\n".join(out).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the page is out of date")
    ap.add_argument("--results", type=Path, default=RESULTS, help="the results' directory")
    ap.add_argument("--output", type=Path, default=PAGE)
    a = ap.parse_args(argv)
    text = render(a.results)
    if a.check:
        current = a.output.read_text(encoding="utf-8") if a.output.exists() else ""
        if current != text:
            print(f"{a.output} is not what {a.results} gives: run benchmarks/render.py")
            return 1
        return 0
    a.output.write_text(text, encoding="utf-8")
    print(f"{a.output} written from {len(list(a.results.glob('*.json')))} results")
    return 0


if __name__ == "__main__":
    sys.exit(main())
