"""`make rng-test`: the production generator's raw bytes through dieharder and ent.

``macau-tables rng raw`` is piped into ``dieharder <args> -g 200`` (stdin, raw 32-bit
words), counting the bytes handed over; a sample of the same stream goes to ``ent``. The
summary — every dieharder result with the bytes read when it was printed, the counts of
PASSED / WEAK / FAILED, ent's figures, the generator's throughput — is printed and written
to ``benchmarks/results/rng.json``.

Run with ``.venv/bin/python benchmarks/rng_battery.py [--bytes 0] [--seed HEX | --os]
[--dieharder=-a] [--ent-bytes 64M]``. ``--bytes 0`` (the default) streams as much as
the battery reads; a bound ends the stream, and dieharder stops at the end of its input
(``stdin_input_raw(): Error: EOF``) without reporting the test it was in: the summary then
says so (``ended_early``). Without ``--seed`` or ``--os`` the seeded HMAC_DRBG — the
generator every shuffle and throw of the games is drawn from — runs on a fresh seed from the
OS, recorded in the summary so the run can be repeated; ``--os`` tests the OS CSPRNG that
draws the tables' server seeds. Exit status: 1 if a result FAILED, 2 if a stream ended
before its battery, else 0.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from macau_tables.cli.rng import parse_size  # noqa: E402

MAIN = "from macau_tables.cli.app import main; main()"
RESULT = re.compile(
    r"^\s*(?P<test>[\w-]+)\|\s*(?P<ntup>\d+)\|\s*(?P<tsamples>\d+)\|\s*(?P<psamples>\d+)\|"
    r"\s*(?P<p>[0-9.eE+-]+)\|\s*(?P<assessment>PASSED|WEAK|FAILED)\s*$"
)
ENT_FIGURES = {
    "entropy_bits_per_byte": r"Entropy = ([0-9.]+) bits per byte",
    "chi_square": r"Chi square distribution for \d+ samples is ([0-9.]+)",
    "chi_square_exceeded_percent": r"would exceed this value ([<>0-9.]+) percent",
    "mean": r"Arithmetic mean value of data bytes is ([0-9.]+)",
    "monte_carlo_pi": r"Monte Carlo value for Pi is ([0-9.]+)",
    "monte_carlo_pi_error_percent": r"\(error ([0-9.]+) percent\)",
    "serial_correlation": r"Serial correlation coefficient is (-?[0-9.]+)",
}


def _generator(total: int, seed: str | None) -> list[str]:
    cmd = [sys.executable, "-c", MAIN, "rng", "raw", "--bytes", str(total)]
    return [*cmd, "--seed", seed] if seed else cmd


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "src"), env.get("PYTHONPATH")]))
    return env


def run_dieharder(total: int, seed: str | None, args: list[str]) -> dict[str, Any]:
    """Pipe the generator into dieharder; each result stamped with the bytes read so far."""
    gen = subprocess.Popen(_generator(total, seed), stdout=subprocess.PIPE, env=_env())
    dh = subprocess.Popen(
        ["dieharder", *args, "-g", "200"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=False,
    )
    assert gen.stdout is not None
    assert dh.stdin is not None
    assert dh.stdout is not None
    copied = 0
    start = time.perf_counter()
    results: list[dict[str, Any]] = []

    def read_results() -> None:
        assert dh.stdout is not None
        for raw in dh.stdout:
            line = raw.decode(errors="replace").rstrip("\n")
            match = RESULT.match(line)
            if match:
                row: dict[str, Any] = match.groupdict()
                row["p"] = float(row["p"])
                for key in ("ntup", "tsamples", "psamples"):
                    row[key] = int(row[key])
                row["bytes_read_by_then"] = copied
                row["seconds"] = round(time.perf_counter() - start, 1)
                results.append(row)
                print(f"  {line.strip()}   [{copied / 2**20:,.0f} MiB, {row['seconds']} s]")
                sys.stdout.flush()

    reader = threading.Thread(target=read_results, daemon=True)
    reader.start()
    try:
        while chunk := gen.stdout.read1(1 << 16):
            dh.stdin.write(chunk)
            copied += len(chunk)
        dh.stdin.close()
    except BrokenPipeError:
        pass  # the battery has finished and read no more
    finally:
        gen.stdout.close()
        gen.wait()
    dh.wait()
    reader.join()
    stderr = dh.stderr.read().decode(errors="replace") if dh.stderr else ""
    seconds = time.perf_counter() - start
    counts = {a: sum(r["assessment"] == a for r in results) for a in ("PASSED", "WEAK", "FAILED")}
    return {
        "command": f"macau-tables rng raw ... | dieharder {shlex.join(args)} -g 200",
        "bytes_piped": copied,
        "seconds": round(seconds, 1),
        "mib_per_second": round(copied / 2**20 / seconds, 2) if seconds else None,
        "ended_early": "EOF" in stderr,
        "tests_reported": len(results),
        "counts": counts,
        "results": results,
        "exit_status": dh.returncode,
    }


def run_ent(total: int, seed: str | None) -> dict[str, Any]:
    gen = subprocess.Popen(_generator(total, seed), stdout=subprocess.PIPE, env=_env())
    done = subprocess.run(["ent"], stdin=gen.stdout, capture_output=True, text=True, check=True)
    gen.wait()
    figures: dict[str, Any] = {"bytes": total, "command": "macau-tables rng raw ... | ent"}
    for key, pattern in ENT_FIGURES.items():
        match = re.search(pattern, done.stdout)
        figures[key] = match.group(1) if match else None
    figures["report"] = done.stdout.strip().splitlines()
    return figures


def _save(summary: dict[str, Any]) -> None:
    """The page's rows (benchmarks/results.py): dieharder's verdicts, and ent's entropy
    beside the physical limit, 8 bits a byte."""
    import results  # benchmarks/results.py: the figures for docs/benchmarks.md

    c = summary["counts"]
    rows = [
        results.row(
            f"dieharder on {summary['generator'].split(',')[0]}: results FAILED",
            c["FAILED"],
            "",
            against="allowed",
            against_value=0,
            kind="target",
            better="lower",
            note=f"{c['PASSED']} PASSED, {c['WEAK']} WEAK; "
            f"{summary['bytes_piped'] / 2**20:,.0f} MiB read"
            + ("; the stream ended before the battery did" if summary["ended_early"] else ""),
        )
    ]
    if "ent" in summary:
        e = summary["ent"]
        rows.append(
            results.row(
                "ent: entropy",
                e["entropy_bits_per_byte"],
                "bits/byte",
                against="the limit",
                against_value=8.0,
                kind="limit",
                digits=6,
                note=f"chi-square exceeded {e['chi_square_exceeded_percent']}% of the time; "
                f"serial correlation {e['serial_correlation']}",
            )
        )
    results.save("rng_battery", "Randomness batteries", rows, report=summary)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bytes", default="0", help="bytes piped into dieharder; 0: as it reads")
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--seed", help="the HMAC_DRBG's seed, hex (default: a fresh one)")
    src.add_argument("--os", action="store_true", help="the OS CSPRNG instead of the DRBG")
    ap.add_argument("--dieharder", default="-a", help='dieharder\'s tests ("-a", "-d 0 -d 1")')
    ap.add_argument("--ent-bytes", default="64M", help="the sample ent reads (0: no ent)")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "rng.json")
    a = ap.parse_args(argv)
    total, ent_total = parse_size(a.bytes), parse_size(a.ent_bytes)
    seed = None if a.os else (a.seed or os.urandom(32).hex())
    source = "OS CSPRNG" if a.os else f"HMAC_DRBG, Rng.seeded(bytes.fromhex({seed!r}))"
    print(f"generator: {source}")
    # dieharder's -d takes one test: "-d 0 -d 1" runs the battery once per -d
    runs = [["-d", d] for d in re.findall(r"-d\s*(\S+)", a.dieharder)] or [shlex.split(a.dieharder)]
    summary: dict[str, Any] = {"generator": source, "seed": seed, "dieharder": []}
    for args in runs:
        print(f"dieharder {shlex.join(args)} -g 200, {a.bytes} bytes (0: as it reads)")
        summary["dieharder"].append(run_dieharder(total, seed, args))
    counts = {
        k: sum(r["counts"][k] for r in summary["dieharder"]) for k in ("PASSED", "WEAK", "FAILED")
    }
    summary["counts"] = counts
    summary["bytes_piped"] = sum(r["bytes_piped"] for r in summary["dieharder"])
    summary["ended_early"] = any(r["ended_early"] for r in summary["dieharder"])
    if ent_total:
        summary["ent"] = run_ent(ent_total, seed)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    early = " (a stream ended before its test: raise --bytes)" if summary["ended_early"] else ""
    print(
        f"dieharder: {counts['PASSED']} PASSED, {counts['WEAK']} WEAK, {counts['FAILED']} FAILED"
        f" in {sum(r['tests_reported'] for r in summary['dieharder'])} results, "
        f"{summary['bytes_piped'] / 2**20:,.0f} MiB piped{early}"
    )
    for r in summary["dieharder"]:
        print(f"  {r['command']}: {r['seconds']} s, {r['mib_per_second']} MiB/s")
    if "ent" in summary:
        e = summary["ent"]
        print(
            f"ent on {ent_total / 2**20:,.0f} MiB: entropy {e['entropy_bits_per_byte']} bits/byte, "
            f"chi-square {e['chi_square']} (exceeded {e['chi_square_exceeded_percent']}% "
            f"of the time), mean {e['mean']}, pi {e['monte_carlo_pi']}, "
            f"serial correlation {e['serial_correlation']}"
        )
    print(f"summary: {a.out}")
    _save(summary)
    # a FAILED result fails the run; so does a battery cut short, which tested less than asked
    return 1 if counts["FAILED"] else 2 if summary["ended_early"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
