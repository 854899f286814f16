"""`macau-tables verify`: the hash chain is checked and the events replayed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from typer.testing import CliRunner

from macau_tables.cli.app import app
from macau_tables.core.journal import Event, Journal, event, register_replayer

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
