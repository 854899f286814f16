"""Settle files and journals, as users and editors get them wrong.

A settle file states every fact the settlement uses; an unknown key is an error naming it;
any bad file, settle or journal, is one line on stderr and exit 2, never a traceback.
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from macau_tables.cli.app import app
from tests.cli.test_cli_verify import rechain

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
GOLDEN = ROOT / "tests" / "games" / "data" / "craps_golden.json"


def _facts(game: str = "paigow") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{game}-round.json").read_text())
    return data


def _settle(tmp_path: Path, facts: object, game: str = "paigow", raw: str | None = None) -> Result:
    path = tmp_path / "round.json"
    path.write_text(json.dumps(facts) if raw is None else raw, encoding="utf-8")
    return runner.invoke(app, [game, "settle", str(path), "--json"])


def _one_line_error(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


# --- settle: the cases users get wrong ---------------------------------------------------


def _with(**changes: Any) -> dict[str, Any]:
    facts = _facts()
    facts.update(changes)
    return facts


def _with_tiles(seat: str, tiles: list[str]) -> dict[str, Any]:
    facts = _facts()
    facts["tiles"][seat] = tiles
    return facts


def _bets_with_two_fields() -> dict[str, Any]:
    return _with(bets=[["s1", 2]])


def _without(key: str) -> dict[str, Any]:
    facts = _facts()
    del facts[key]
    return facts


@pytest.mark.parametrize(
    ("facts", "says"),
    [
        (None, "a round's facts are a JSON object"),
        ([], "a round's facts are a JSON object"),
        (_with(bets="x"), "bets: "),
        (_bets_with_two_fields(), "bets[0][2]"),
        (_with(dice=["1", "2", "3", "4"]), "dice[0]: input should be a valid integer"),
        (_with(dice=[1, 2, 3]), "dice"),
        (_with(dice=[1, 2, 3, 7]), "dice[3]: input should be less than or equal to 6"),
        (
            _with(tiles={"1": [1, 2, 3, 4]}),
            'tiles.1: a list of 4 tiles written as text, e.g. "6-6"',
        ),
        (_with(tiles=[]), "tiles: "),
        (_with_tiles("1", ["6-6", "6-6", "6-6", "1-1"]), "T-1"),
        (_with(settings="x"), "settings: "),
        (_with(settings={"1": ["1-5"]}), "settings.1: 2 tiles, not 1"),
        (_with(options={"setlement": "cover"}), "unknown key 'options.setlement'"),
        (_with(options={"settlement": "both"}), "options.settlement"),
        (_with(setings={}), "unknown key 'setings'"),
        (_with(banker_capital=True), "banker_capital: an amount is a whole number"),
        (_with(banker_capital="abc"), "banker_capital: "),
        (_with(bets=[["s1", 9, "100"]]), "bets[0][1]: input should be less than or equal to 8"),
        (_without("settings"), "missing 'settings'"),
        (_without("dice"), "missing 'dice'"),
        (_without("banker_seat"), "missing 'banker_seat'"),
        (_without("tiles"), 'give the tiles: either "tiles" (seat: four tiles) or "woodpile"'),
        (_with(woodpile=["6-6"] * 32), 'either "tiles" (seat: four tiles) or "woodpile"'),
        (_with(game="craps"), "game: "),
    ],
)
def test_a_bad_settle_file_is_one_line_naming_the_key(
    tmp_path: Path, facts: object, says: str
) -> None:
    line = _one_line_error(_settle(tmp_path, facts))
    assert line.startswith("InvalidInput: "), line
    assert says in line, line


def test_a_settle_file_that_is_not_json_is_one_line(tmp_path: Path) -> None:
    line = _one_line_error(_settle(tmp_path, None, raw='{"bets": ['))
    assert "invalid JSON" in line or "EOF" in line, line


def test_a_bet_on_a_seat_without_tiles_is_refused_not_invented(tmp_path: Path) -> None:
    """Seat 4 was given made-up tiles and paid."""
    facts = _facts()
    facts["bets"].append(["s4", 4, "100"])
    facts["settings"]["4"] = "house-way"
    line = _one_line_error(_settle(tmp_path, facts))
    assert "tiles: seat 4 is in play but its four tiles are not stated" in line


def test_a_seat_in_play_without_its_setting_is_refused(tmp_path: Path) -> None:
    facts = _facts()
    del facts["settings"]["3"]
    assert "settings: seat 3 is in play" in _one_line_error(_settle(tmp_path, facts))


def test_a_setting_for_a_seat_not_in_play_is_refused(tmp_path: Path) -> None:
    facts = _facts()
    facts["tiles"]["5"] = ["2-2", "2-2", "4-4", "4-4"]
    facts["settings"]["5"] = ["2-2", "4-4"]
    assert "settings: seat 5 is not in play" in _one_line_error(_settle(tmp_path, facts))


def test_house_way_is_a_stated_fact_and_gives_the_house_way_s_setting(tmp_path: Path) -> None:
    """A seat the dealer set by the house way says so; the result is the house way's front."""
    from macau_tables.games.tiles.paigow import PAIGOW
    from macau_tables.tiles import parse_tiles
    from macau_tables.tiles.strategies import strategy

    facts = _facts()
    facts["settings"]["2"] = "house-way"
    result = _settle(tmp_path, facts)
    assert result.exit_code == 0, result.output
    seat = json.loads(result.stdout)["seats"]["2"]
    way = strategy("house-way").choose(parse_tiles(facts["tiles"]["2"]), PAIGOW.tiles)
    assert seat["front"] == [str(t) for t in way.front.tiles]


def test_the_examples_settle(tmp_path: Path) -> None:
    for game in ("paigow", "taiwan"):
        result = _settle(tmp_path, _facts(game), game)
        assert result.exit_code == 0, result.output


# --- mutated files: exit 0 with a report, or exit 2 with one line ---------------------------

JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.sampled_from([0, 1, 2, 4, 6, 8, 9, -1, 100, 2**63])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "x", "6-6", "1-1", "house-way", "100", "-5", "MOP 1.005", "至尊"])
    | st.text(max_size=6)
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(node: Any, here: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield here
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*here, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*here, i))


@st.composite
def mutations(draw: st.DrawFn, original: Any) -> Any:
    """``original`` with one to three edits: a value replaced, an entry removed or added."""
    doc = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(_paths(doc))))
        if not path:
            doc = draw(JSON_VALUES)
            continue
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        op = draw(st.sampled_from(["replace", "delete", "add"]))
        if op == "replace":
            parent[path[-1]] = draw(JSON_VALUES)
        elif op == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=6))] = draw(JSON_VALUES)
        else:
            parent.insert(path[-1], draw(JSON_VALUES))
    return doc


def _exit_0_with_json_or_one_line(result: Result) -> None:
    assert "Traceback" not in result.output
    if result.exit_code == 0:
        json.loads(result.stdout)
    else:
        _one_line_error(result)


FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.slow
@FUZZ
@given(facts=mutations(_facts()))
@example(facts=None)
@example(facts=_with(exposed=[[3, 99]]))
@example(facts=_with(places=4))
@example(facts=_with(options={"min_bet": -5}))
def test_a_mutated_paigow_settle_file_never_shows_a_traceback(tmp_path: Path, facts: Any) -> None:
    _exit_0_with_json_or_one_line(_settle(tmp_path, facts))


def _taiwan_with_tiles(key: str) -> dict[str, Any]:
    facts = _facts("taiwan")
    facts["tiles"][key] = None
    return facts


@pytest.mark.slow
@FUZZ
@given(facts=mutations(_facts("taiwan")))
@example(facts=_taiwan_with_tiles("\n"))  # a key that would have printed two lines
@example(facts=_taiwan_with_tiles("\u2028"))
def test_a_mutated_taiwan_settle_file_never_shows_a_traceback(tmp_path: Path, facts: Any) -> None:
    _exit_0_with_json_or_one_line(_settle(tmp_path, facts, "taiwan"))


def _verify(tmp_path: Path, journal: Any) -> Result:
    path = tmp_path / "journal.json"
    path.write_text(json.dumps(journal), encoding="utf-8")
    return runner.invoke(app, ["verify", str(path), "--json"])


GOLDEN_JOURNAL = json.loads(GOLDEN.read_text())


def _golden_with(path: tuple[Any, ...], value: Any) -> Any:
    journal = copy.deepcopy(GOLDEN_JOURNAL)
    node = journal
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return journal


@pytest.mark.slow
@FUZZ
@given(journal=mutations(GOLDEN_JOURNAL), rehash=st.booleans())
@example(journal=_golden_with(("entries", 1, "event", "data", "amount"), "abc"), rehash=True)
@example(journal=_golden_with(("entries", 0, "event", "data", "rules"), "x"), rehash=True)
@example(journal=_golden_with(("entries", 1, "event", "data", "\x85"), 1.5), rehash=True)
def test_a_mutated_journal_never_shows_a_traceback(
    tmp_path: Path, journal: Any, rehash: bool
) -> None:
    """Edited journals, with the chain recomputed too (an editor who knows the format), so
    that the edit reaches the field checks and the replay."""
    if rehash:
        # when not enough of a journal is left to recompute, verify it as it is
        with contextlib.suppress(KeyError, TypeError, AttributeError, IndexError, ValueError):
            journal = rechain(copy.deepcopy(journal))
    _exit_0_with_json_or_one_line(_verify(tmp_path, journal))


@pytest.mark.parametrize("command", [["paigow", "settle"], ["verify"]])
def test_a_file_that_is_not_text_is_one_line(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00\x81")
    line = _one_line_error(runner.invoke(app, [*command, str(path)]))
    assert line.startswith("error: not UTF-8 text"), line


@pytest.mark.parametrize("command", [["paigow", "settle"], ["verify"]])
def test_a_folder_or_a_missing_file_is_one_line(tmp_path: Path, command: list[str]) -> None:
    _one_line_error(runner.invoke(app, [*command, str(tmp_path)]))
    _one_line_error(runner.invoke(app, [*command, str(tmp_path / "missing.json")]))


#: The documented example round's journal (10 entries), as `play paigow` wrote one a round
#: (the round machine's ``tiles.*`` events), kept as written: tests/games/data/tiles_cli/.
PAIGOW_JOURNAL = json.loads(
    (ROOT / "tests" / "games" / "data" / "tiles_cli" / "round-paigow-example.json").read_text()
)


def _paigow_journal_with_option(key: str, value: Any) -> Any:
    journal = copy.deepcopy(PAIGOW_JOURNAL)
    journal["entries"][0]["event"]["data"]["options"][key] = value
    return rechain(journal)


def test_the_paigow_journal_verifies_and_a_loosely_typed_edit_is_one_line(
    tmp_path: Path,
) -> None:
    """The fuzz test's starting point is a valid journal; `options` is a dict[str, Any]
    field, so a bad value there passes the load-time check; the round options refuse it
    when the replay builds them (the table limits are whole minor units), in one line."""
    result = _verify(tmp_path, PAIGOW_JOURNAL)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["reproduced"] is True
    line = _one_line_error(_verify(tmp_path, _paigow_journal_with_option("max_bet", "x")))
    assert "InvalidInput: max_bet is a whole number of minor units" in line


@FUZZ
@given(journal=mutations(PAIGOW_JOURNAL), rehash=st.booleans())
@example(journal=_paigow_journal_with_option("max_bet", "x"), rehash=False)  # loosely typed
@example(journal=_paigow_journal_with_option("settlement", 7), rehash=False)
def test_a_mutated_paigow_journal_never_shows_a_traceback(
    tmp_path: Path, journal: Any, rehash: bool
) -> None:
    if rehash:
        with contextlib.suppress(KeyError, TypeError, AttributeError, IndexError, ValueError):
            journal = rechain(copy.deepcopy(journal))
    _exit_0_with_json_or_one_line(_verify(tmp_path, journal))
