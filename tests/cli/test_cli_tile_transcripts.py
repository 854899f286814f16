"""What the Pai Gow / Taiwan terminal commands print, checked in as text: the examples
settled (human and ``--json``), a co-bank, a seat out and a void deal from their facts, and
seeded ``play`` sessions with scripted input. Any change a user would see shows up as a
diff of ``data/tile_transcripts/``. Regenerate deliberately with
``TILE_TRANSCRIPTS=write pytest tests/cli/test_cli_tile_transcripts.py``."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from macau_tables.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
DATA = Path(__file__).parent / "data" / "tile_transcripts"

runner = CliRunner(env={"COLUMNS": "132"})  # the transcripts were printed 132 wide


def _facts(game: str, **changes: Any) -> dict[str, Any]:
    facts: dict[str, Any] = json.loads((EXAMPLES / f"{game}-round.json").read_text())
    facts.update(changes)
    return facts


def _cobank() -> dict[str, Any]:
    tiles = _facts("taiwan")["tiles"]
    return _facts(
        "taiwan",
        banker_capital="100",
        cobankers=[["cob", "100"]],
        bets=[["a", 2, "150"]],
        tiles={k: v for k, v in tiles.items() if k in ("1", "2")},
        settings={"1": ["4-4", "5-6"], "2": ["1-3", "4-6"]},
    )


FACTS: dict[str, tuple[str, dict[str, Any]]] = {
    "settle-paigow-example": ("paigow", _facts("paigow")),
    "settle-taiwan-example": ("taiwan", _facts("taiwan")),
    "settle-taiwan-cobank": ("taiwan", _cobank()),
    "settle-paigow-seat-out": (
        "paigow",
        _facts(
            "paigow",
            exposed=[[2, 2]],
            house_capital="300",
            settings={"1": "house-way", "3": "house-way"},
        ),
    ),
    "settle-paigow-void-deal": ("paigow", _facts("paigow", exposed=[[1, 2]])),
    "settle-taiwan-options": (
        "taiwan",
        _facts(
            "taiwan",
            options={"settlement": "cover", "bank_commission": "net"},
            banker_capital="150",
            bets=[["a", 2, "100"], ["b", 3, "100"], ["c", 3, "80"]],
        ),
    ),
}

PLAYS: dict[str, tuple[list[str], str]] = {
    "play-paigow-seed7": (["play", "paigow", "--seed", "7"], "50\n1\n20\nh\n100\nh\nh\nq\n"),
    "play-taiwan-seed7": (["play", "taiwan", "--seed", "7"], "50\n1\n20\n?\nh\n100\nh\nh\nq\n"),
    "play-paigow-keep": (["play", "paigow", "--seed", "3"], "0\n0\n100\nh\n1\n\nq\n"),
    "play-taiwan-places4": (
        ["play", "taiwan", "--seed", "3", "--places", "4"],
        "40\nh\n30\nh\n20\n1\n25\nh\n0\n\n60\nh\nq\n",
    ),
    "play-paigow-json": (["play", "paigow", "--seed", "x", "--json"], "30\n2\n40\nh\nq\n"),
}


def _check(name: str, text: str) -> None:
    path = DATA / f"{name}.txt"
    if os.environ.get("TILE_TRANSCRIPTS") == "write":
        DATA.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(FACTS))
def test_settle_prints_what_it_printed(name: str, tmp_path: Path) -> None:
    game, facts = FACTS[name]
    path = tmp_path / "round.json"
    path.write_text(json.dumps(facts), encoding="utf-8")
    human = runner.invoke(app, [game, "settle", str(path)])
    assert human.exit_code == 0, human.output
    as_json = runner.invoke(app, [game, "settle", str(path), "--json"])
    assert as_json.exit_code == 0, as_json.output
    _check(name, human.stdout + "\n--- json ---\n" + as_json.stdout)


@pytest.mark.parametrize("name", sorted(PLAYS))
def test_play_prints_what_it_printed(name: str) -> None:
    args, script = PLAYS[name]
    result = runner.invoke(app, args, input=script)
    assert result.exit_code == 0, result.output
    _check(name, result.stdout)
