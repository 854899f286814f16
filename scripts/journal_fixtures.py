#!/usr/bin/env python3
"""Write tests/games/data/checkpointed/GAME.json: a table of each game driven through 12
rounds (tests/server/drive_tables.py), checkpointed and voided along the way, its whole
journal and the seeds that replay it. The files are kept as they were written: a release's
engines must still replay and verify the journals an earlier release wrote
(tests/games/test_journal_fixtures.py). Run from the project root:
``PYTHONPATH=src:. python scripts/journal_fixtures.py``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.server.drive_tables import SEEDS, drive

from macau_tables.games.contract import Actor, Command, TableEngine

GAMES = ("baccarat", "craps", "paigow", "taiwan")
VOID = Command(
    Actor.supervisor("sam"), "void_round", {"reason": "test", "request": 1, "requested_by": "ann"}
)


def write(game: str, out: Path) -> None:
    steps = 0
    voided = False

    def each(engine: TableEngine) -> None:
        nonlocal steps, voided
        steps += 1
        if steps % 7 == 0:
            engine.execute(Command(Actor.SYSTEM, "checkpoint"))
        if not voided and steps > 20 and engine.can_void_round(Actor.supervisor("sam"), "ann"):  # type: ignore[attr-defined]
            engine.execute(VOID)
            voided = True

    engine = drive(game, 12, each)
    seeds = {**SEEDS, **engine.seed_vault()}
    data = {
        "game": game,
        "journal": engine.journal.to_json(),
        "seeds": {label: bytes(v).hex() for label, v in sorted(seeds.items())},
    }
    out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{out}: {len(engine.journal)} entries", file=sys.stderr)


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/games/data/checkpointed")
    root.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        write(game, root / f"{game}.json")


if __name__ == "__main__":
    main()
