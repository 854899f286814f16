"""Recall cost: a table's last 10 rounds rebuilt from a long journal.

A recall takes the caller's view after each step of the rounds it returns. This drives a
table of each game through ROUNDS rounds in memory (two players betting the minimum, the
dealer's steps and the rules' defaults as the server's clock runs them), checkpointed
every ``--every`` entries as the server does (``bench_snapshots.drive_checkpointed``), then
times ``server.recall.recall_rounds`` for the last 10 rounds, as the auditor and as a
player, three ways on the same journal, in the same process (no database: the journal is
the engine's own, its events already parsed — a server's recall of the whole journal
also reads and parses every row, which this leaves out):

* **snapshot** — what ``GET /tables/{id}/recall`` does now: the rounds numbered from the
  entries' kinds alone (``recall.round_index``), the chain before the latest stored
  snapshot before those rounds checked from its text (``store.verify_chain_to``'s loop),
  the table restored from that snapshot, its checkpoint re-run, the entries up to the
  rounds applied as journalled and the rounds re-run;
* **whole** — what it did before: the whole journal, the entries before the rounds
  applied as journalled (``Replay.skip_to``), the rounds re-run;
* **re-run** — every operation of the journal re-run through the rules (``rerun_all``).

    python benchmarks/bench_recall.py                   # 1,000 rounds of each game
    python benchmarks/bench_recall.py --rounds 200 --games baccarat
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from benchmarks.bench_snapshots import drive_checkpointed  # noqa: E402
from tests.server.drive_tables import SEEDS  # noqa: E402

from macau_tables.core.journal import Entry, Journal  # noqa: E402
from macau_tables.core.visibility import Viewer  # noqa: E402
from macau_tables.games.contract import (  # noqa: E402
    Kind,
    RoundCorrected,
    RoundVoided,
    rounds,
    safe_base,
)
from macau_tables.server.games import binding  # noqa: E402
from macau_tables.server.recall import TableRecord, recall_rounds  # noqa: E402


def _chain(game: str, header: dict[str, Any], texts: list[tuple[int, bytes, str, str]]) -> None:
    """``store.verify_chain_to``'s check of entries from their stored text (no event parsed)."""
    prev = Journal(game, header).header_hash()
    for seq, text, prev_hash, hash_ in texts:
        if prev_hash != prev or Entry.compute_hash(seq, None, prev, event_text=text) != hash_:  # type: ignore[arg-type]
            raise SystemExit(f"{game}: entry {seq} does not chain")
        prev = hash_


#: each recall timed, for the results file: game, viewer, rounds, events, ms by way
FIGURES: list[dict[str, Any]] = []


def run(game: str, n_rounds: int, every: int) -> list[str]:
    engine, rows, snaps, _, _ = drive_checkpointed(game, n_rounds, every)
    header = dict(engine.journal.header)
    seeds = {**SEEDS, **engine.seed_vault()}
    g = binding(game)
    whole = Journal.of_entries(game, header, rows)
    events = whole.events
    everything = rounds(events)
    last10 = everything[-10:]
    start = max(
        (s for s in snaps if s < last10[0].first and safe_base(events[s:], s, s)), default=0
    )
    kinds = [e.event.kind for e in rows]  # (the journal's kind column)
    texts = [(e.seq, e.event_text(), e.prev_hash, e.hash) for e in rows[:start]]  # (as stored)
    taken_back = {
        i: e.event for i, e in enumerate(rows) if isinstance(e.event, RoundVoided | RoundCorrected)
    }
    out = []
    for viewer in (Viewer.SUPERVISOR, Viewer.player("alice")):
        times: dict[str, float] = {}
        results: dict[str, Any] = {}
        for way in ("snapshot", "whole", "re-run"):
            t0 = time.perf_counter()
            if way == "snapshot":
                index = rounds([taken_back.get(i) or Kind(k) for i, k in enumerate(kinds)])
                chosen = index[-10:]
                _chain(game, header, texts)
                window = Journal.of_entries(game, header, rows[start:])
                rec = TableRecord(
                    f"{game}-b", game, header, window, [0] * window.kept, seeds, [],
                    first=start, snapshot=json.loads(snaps[start]) if start else None,
                )  # fmt: skip
                if not start:
                    rec = TableRecord(f"{game}-b", game, header, whole, [0] * len(rows), seeds, [])
                results[way] = recall_rounds(rec, g, viewer, chosen)
            else:
                rec = TableRecord(f"{game}-b", game, header, whole, [0] * len(rows), seeds, [])
                results[way] = recall_rounds(rec, g, viewer, last10, rerun_all=way == "re-run")
            times[way] = time.perf_counter() - t0
        assert results["snapshot"] == results["whole"] == results["re-run"]
        steps = sum(len(r["steps"]) for r in results["snapshot"])
        FIGURES.append(
            {"game": game, "viewer": str(viewer), "rounds": len(everything), "events": len(rows)}
            | {f"{way}_ms": t * 1000 for way, t in times.items()}
        )
        out.append(
            f"{game:9} {len(everything):5} rounds, {len(rows):6} events: last 10 as "
            f"{viewer!s:12} from the snapshot at entry {start}: "
            f"{times['snapshot'] * 1000:6.0f} ms; the whole journal "
            f"{times['whole'] * 1000:7.0f} ms ({times['whole'] / times['snapshot']:5.1f}x); "
            f"re-running it {times['re-run'] * 1000:7.0f} ms; {steps} steps"
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="example: python benchmarks/bench_recall.py --rounds 200 --games baccarat",
    )
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--every", type=int, default=1000, help="entries between checkpoints")
    ap.add_argument("--games", nargs="*", default=["baccarat", "craps", "paigow", "taiwan"])
    a = ap.parse_args()
    for game in a.games:
        for line in run(game, a.rounds, a.every):
            print(line, flush=True)

    import results  # benchmarks/results.py: the figures for docs/benchmarks.md

    page = [
        results.row(
            f"{f['game']}: the last 10 rounds after {f['rounds']:,} rounds, as {f['viewer']}",
            f["snapshot_ms"],
            "ms",
            against="the same recall from the table's first entry",
            against_value=f["whole_ms"],
            better="lower",
        )
        for f in FIGURES
    ]
    results.save("bench_recall", "Recall", page, report={"recalls": FIGURES})


if __name__ == "__main__":
    main()
