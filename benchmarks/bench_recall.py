"""Recall cost: a table's last 10 rounds rebuilt from a long journal.

A recall re-runs the table's journal from its opening (``contract.Replay``) and takes the
caller's view after each step of the rounds it returns, so its cost grows with the
journal's length. This drives a table of each game through ROUNDS rounds in memory (two
players betting the minimum, the dealer's steps and the rules' defaults as the server's
clock runs them), then times ``server.recall.recall_rounds`` for the last 10 rounds, as
the auditor and as a player (no database: the journal is the engine's own).

    python benchmarks/bench_recall.py                   # 1,000 rounds of each game
    python benchmarks/bench_recall.py --rounds 200 --games baccarat
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from tests.server.drive_tables import record  # noqa: E402

from macau_tables.core.visibility import Viewer  # noqa: E402
from macau_tables.server.games import binding  # noqa: E402
from macau_tables.server.recall import recall_rounds  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1000)
    ap.add_argument("--games", nargs="*", default=["baccarat", "craps", "paigow", "taiwan"])
    a = ap.parse_args()
    for game in a.games:
        rec = record(game, a.rounds)
        last10 = rec.rounds()[-10:]
        for viewer in (Viewer.SUPERVISOR, Viewer.player("alice")):
            times = {}
            for rerun_all in (False, True):
                t0 = time.perf_counter()
                out = recall_rounds(rec, binding(game), viewer, last10, rerun_all=rerun_all)
                times[rerun_all] = time.perf_counter() - t0
            steps = sum(len(r["steps"]) for r in out)
            print(
                f"{game:9} {len(rec.rounds()):5} rounds, {len(rec.journal):6} events: "
                f"last 10 as {viewer!s:12} {times[False] * 1000:7.0f} ms "
                f"(re-running the whole journal: {times[True] * 1000:7.0f} ms, "
                f"{times[True] / times[False]:5.1f}x; {steps} steps)"
            )


if __name__ == "__main__":
    main()
