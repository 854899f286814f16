"""`macau-tables verify`: the hash chain is checked and the events replayed."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from macau_tables.cli.app import app
from macau_tables.core.journal import Event, Journal, canonical_json, event, register_replayer

DATA = Path(__file__).parents[1] / "games" / "data"

runner = CliRunner()


@event
@dataclass(frozen=True)
class Counted(Event):
    kind: ClassVar[str] = "test_verify.counted"
    n: int


class Counter:
    """A tiny game: its state is the running sum; it re-appends every event it applies."""

    def __init__(self) -> None:
        self.journal = Journal("test_verify")
        self.total = 0

    def count(self, n: int) -> None:
        self.total += n
        self.journal.append(Counted(n))


def _replay(journal: Journal) -> Counter:
    state = Counter()
    for ev in journal.events:
        assert isinstance(ev, Counted)
        state.count(ev.n)
    return state


register_replayer("test_verify", _replay)


def _write(tmp_path: Path) -> Path:
    game = Counter()
    for n in (3, 4, 5):
        game.count(n)
    path = tmp_path / "journal.json"
    game.journal.dump(path)
    return path


def test_verify_accepts_an_intact_journal_and_replays_it(tmp_path: Path) -> None:
    path = _write(tmp_path)
    result = runner.invoke(app, ["verify", str(path), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["entries"] == 3
    assert report["reproduced"] is True
    assert report["head"] == Journal.load(path).head


def test_verify_detects_an_edited_entry_exit_2(tmp_path: Path) -> None:
    path = _write(tmp_path)
    data = json.loads(path.read_text())
    data["entries"][1]["event"]["data"]["n"] = 40
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    assert "JournalTampered" in result.stderr
    assert "entry 1" in result.stderr


def test_verify_detects_a_cut_tail_against_the_published_head(tmp_path: Path) -> None:
    path = _write(tmp_path)
    head = Journal.load(path).head
    data = json.loads(path.read_text())
    data["entries"].pop()
    path.write_text(json.dumps(data))
    assert runner.invoke(app, ["verify", str(path)]).exit_code == 0
    result = runner.invoke(app, ["verify", str(path), "--head", head])
    assert result.exit_code == 2
    assert "expected head" in result.stderr


def test_verify_missing_file_is_one_line(tmp_path: Path) -> None:
    result = runner.invoke(app, ["verify", str(tmp_path / "none.json")])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def rechain(obj: dict[str, Any]) -> dict[str, Any]:
    """Recompute every hash of a journal object (an editor who knows the format)."""
    prev = hashlib.sha256(
        canonical_json({k: obj[k] for k in ("format", "version", "game", "header")})
    ).hexdigest()
    for seq, entry in enumerate(obj["entries"]):
        body = canonical_json({"seq": seq, "event": entry["event"]})
        entry["prev_hash"] = prev
        entry["hash"] = prev = hashlib.sha256(prev.encode() + body).hexdigest()
    return obj


def test_verify_head_accepts_the_printed_prefix(tmp_path: Path) -> None:
    """The tables print the first 16 hex digits and an ellipsis."""
    path = _write(tmp_path)
    head = Journal.load(path).head
    for given in (head[:8], head[:16], head[:16] + "…", head.upper(), head):
        result = runner.invoke(app, ["verify", str(path), "--head", given])
        assert result.exit_code == 0, (given, result.output)


def test_verify_head_prefix_of_an_earlier_entry_says_which(tmp_path: Path) -> None:
    path = _write(tmp_path)
    journal = Journal.load(path)
    result = runner.invoke(app, ["verify", str(path), "--head", journal.entries[1].hash[:12]])
    assert result.exit_code == 2
    assert "is entry 1's hash; 1 entries follow it" in result.stderr


@pytest.mark.parametrize(
    "given", ["zzz", "6647a7f", "6647a7f722ba334fg", "", "0x6647a7f722", "a" * 65]
)
def test_verify_refuses_a_malformed_head_as_malformed(tmp_path: Path, given: str) -> None:
    result = runner.invoke(app, ["verify", str(_write(tmp_path)), "--head", given])
    assert result.exit_code == 2
    assert result.stderr.startswith("InvalidInput: malformed head"), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_verify_a_field_of_the_wrong_type_is_one_line(tmp_path: Path) -> None:
    """`"amount": "abc"` (with the chain recomputed) is caught where it is."""
    path = tmp_path / "craps.json"
    obj = json.loads((DATA / "craps_golden.json").read_text())
    entry = next(e for e in obj["entries"] if "amount" in e["event"]["data"])
    entry["event"]["data"]["amount"] = "abc"
    path.write_text(json.dumps(rechain(obj)))
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert f"entry {entry['seq']}: {entry['event']['kind']}.amount" in lines[0]
    assert "'abc'" in lines[0]


def test_rechain_reproduces_an_untouched_journal() -> None:
    obj = json.loads((DATA / "craps_golden.json").read_text())
    assert rechain(json.loads(json.dumps(obj))) == obj
