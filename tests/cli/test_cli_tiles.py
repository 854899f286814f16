"""`macau-tables tiles …` (T-1 … T-4) through the real Typer app."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from macau_tables.cli.app import app

runner = CliRunner()


@pytest.mark.parametrize(("rules", "classes"), [("pg1985", 107), ("tw1990", 118)])
def test_t_2_ranking_json_lists_496_hands_best_first(rules: str, classes: int) -> None:
    result = runner.invoke(app, ["tiles", "ranking", "--rules", rules, "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert len(rows) == 496
    assert rows[0]["tiles"] == ["1-2", "2-4"]
    assert rows[0]["name"] == "至尊"
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    assert max(r["rank"] for r in rows) == classes
    assert {"tiles", "rank", "category", "points", "name"} <= set(rows[0])
    wongs = [r for r in rows if r["category"] == "wong"]
    # TW-7b: 天九王 only (two 9s x two Teens = 4 hands); PG adds 地九王 (4 more)
    assert len(wongs) == (8 if rules == "pg1985" else 4)
    by_tiles = Counter(tuple(r["tiles"]) for r in rows)
    assert by_tiles[("6-6", "6-6")] == 1
    assert by_tiles[("4-5", "6-6")] == 2  # two Teens, one 4-5


def test_t_2_ranking_table_for_humans() -> None:
    result = runner.invoke(app, ["tiles", "ranking"])
    assert result.exit_code == 0
    assert "天九王" in result.stdout
    assert "Pai Gow" in result.stdout


def test_t_2_hand_json() -> None:
    result = runner.invoke(app, ["tiles", "hand", "6-6", "4-5", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["name"] == "天九王"
    assert data["rank"] == 17
    assert data["tiles"] == ["4-5", "6-6"]


def test_tw_9b_hand_under_taiwan_rules() -> None:
    result = runner.invoke(app, ["tiles", "hand", "Teen", "Gee Joon 3", "-r", "tw1990", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["points"] == 5


def test_t_4_settings_json_front_and_back_with_ranks() -> None:
    result = runner.invoke(app, ["tiles", "settings", "6-6", "4-5", "2-4", "1-2", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert len(data) == 3
    assert data[0]["back"]["name"] == "至尊"
    assert data[0]["front"]["name"] == "天九王"
    assert all(s["front"]["rank"] >= s["back"]["rank"] for s in data)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tiles", "hand", "雜九", "6-6"], "AmbiguousName: T-1 '雜九' is ambiguous"),
        (["tiles", "hand", "2-4", "2-4"], "T-1 the set has 1 tile 2-4"),
        (["tiles", "settings", "6-6", "4-5"], "T-4 give four tiles, not 2"),
        (["tiles", "ranking", "--rules", "nope"], "pg1985 or tw1990"),
    ],
)
def test_errors_are_one_line_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["ranking", "hand", "settings"])
def test_every_tiles_command_has_help_with_an_example(command: str) -> None:
    result = runner.invoke(app, ["tiles", command, "--help"])
    assert result.exit_code == 0
    assert f"macau-tables tiles {command}" in result.stdout
    assert "--json" in result.stdout
