#!/usr/bin/env python3
"""Write the ``play-*.json`` files of tests/games/data/tiles_cli/: the table's journal
(``table.*`` events) as ``play paigow|taiwan --journal`` writes it, from seeded sessions
with scripted input. The files are kept as written (tests/games/test_tile_journal_fixtures.py:
a release must still replay and verify the journals an earlier one wrote).

The ``round-*.json`` files beside them are journals of the round machine (``tiles.*``
events, one round a file) as ``play --journal`` wrote them a round at a time and as
``paigow settle`` computed them, written by that machine's own code — staged rounds reaching
every event and option of its vocabulary (co-bank, several bettors on a seat, a seat the
dealer holds, rearranging by two seats and the banker, a cocked die, tiles exposed, a void
deal, the house banking, a 4-place woodpile's two rounds, the TW-6b re-set, every
settlement and commission option) and seeded random ones. Nothing writes that vocabulary
now (the tile table is the one engine): they are kept as they were, and
``macau_tables.games.tiles.legacy`` reads them.

Run from the project root: ``PYTHONPATH=src:. python scripts/tile_journal_fixtures.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from typer.testing import CliRunner

from macau_tables.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "games" / "data" / "tiles_cli"

PLAYS: dict[str, list[str]] = {
    "play-paigow-seed7": ["play", "paigow", "--seed", "7"],
    "play-taiwan-seed7": ["play", "taiwan", "--seed", "7"],
    "play-paigow-seed3": ["play", "paigow", "--seed", "3"],
    "play-taiwan-places4": ["play", "taiwan", "--seed", "3", "--places", "4"],
}
SCRIPTS = {
    "play-paigow-seed7": "50\n1\n20\nh\nabc\n-5\n0.001\n100\nh\nh\nq\n",
    "play-taiwan-seed7": "50\n1\n20\nh\nabc\n-5\n0.001\n100\nh\nh\nq\n",
    "play-paigow-seed3": "0\n0\n100\nh\n1\n\nq\n",
    "play-taiwan-places4": "40\nh\n30\nh\n20\n1\n25\nh\n0\n\n60\nh\nq\n",
}


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    out.mkdir(parents=True, exist_ok=True)
    runner = CliRunner()
    for name, args in PLAYS.items():
        path = out / f"{name}.json"
        path.unlink(missing_ok=True)
        result = runner.invoke(app, [*args, "--journal", str(path)], input=SCRIPTS[name])
        assert result.exit_code == 0, result.output
        print(f"{name}: written", file=sys.stderr)


if __name__ == "__main__":
    main()
