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
    "bench_bet_cost",
    "bench_par_baccarat",
    "bench_par_craps",
    "bench_par_tiles",
    "bench_sim_baccarat",
    "bench_sim_craps",
    "bench_sim_tiles",
    "bench_sim_scaling",
    "bench_server",
    "bench_server_pg",
    "bench_real_games",
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

The current figures, each beside a **peer** (another program doing the same work), a
**baseline** (the same work done the plain way), a **limit** (what the hardware allows)
or a **target**. *Ratio*: how many times better the figure is (higher is better for a
rate, lower for a time); beside a limit, the share of it a rate reaches or how many times
it a time takes; beside a target, whether it is met.

`make bench` runs every `benchmarks/bench_*.py` but the soak (`make soak`), each writing
`benchmarks/results/<name>.json`, then `benchmarks/render.py` writes this page (generated:
edit the benchmark or the renderer). Figures vary with the machine's load (given before →
after each run); nothing asserts a speed. A section marked *recorded* holds a run printed
before the benchmarks wrote JSON.
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
    for key, label in machines.items():
        cpu, cores, mem, os_, py = key
        mem_text = f", {mem:g} GB" if mem else ""
        name = f"Machine {label}" if len(machines) > 1 else "The machine"
        out.append(f"{name}: {cpu or '?'}, {cores or '?'} cores{mem_text}, {os_}, {py}.")
    out.append("")
    for name in names:
        doc = docs[name]
        m = doc.get("machine") or {}
        where = f"machine {machines[_machine_key(m)]}" if len(machines) > 1 else ""
        load = _load(m)
        out += [f"## {doc.get('title') or name}", ""]
        facts = ", ".join(x for x in (where, load) if x)
        command = doc.get("command", "python benchmarks/" + name + ".py")
        out.append(f"`{command}`" + (f" · {facts}" if facts else ""))
        if doc.get("recorded"):
            out[-1] += " · *recorded*"
        out += ["", "| figure | value | beside | ratio |", "|---|--:|---|--:|"]
        previous = None
        for r in doc["rows"]:
            beside = ""
            if "against" in r:
                av = r.get("against_value")
                unit = r.get("against_unit", r.get("unit", ""))
                beside = r["against"] + (f": {_value(av, unit)}" if av is not None else "")
                if beside == previous:
                    beside = "〃"
                else:
                    previous = beside
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
