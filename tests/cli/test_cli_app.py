"""The `macau-tables` command itself: lazy start-up, help pages, --version."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import macau_tables
from macau_tables.cli.app import PLAY_COMMANDS, TOP_COMMANDS, app

runner = CliRunner()

ENGINES = ("tiles.paigow", "tiles.taiwan", "tiles", "craps", "baccarat")
MAIN = "from macau_tables.cli.app import main; main()"


def _modules_after(code: str) -> set[str]:
    """The heavy packages imported by a fresh interpreter that runs ``code``."""
    script = textwrap.dedent(code) + textwrap.dedent(
        """
        import sys
        print(" ".join(m for m in ("numpy", "numba", "matplotlib", "pydantic", "rich")
                       if m in sys.modules))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout
    return set(out.split())


def test_the_app_and_the_four_engines_import_without_numpy_or_numba() -> None:
    imports = "\n".join(f"import macau_tables.games.{game}" for game in ENGINES)
    loaded = _modules_after(f"import macau_tables.cli.app\n{imports}\n")
    assert not loaded & {"numpy", "numba", "matplotlib"}, loaded


def test_top_level_help_imports_no_command_module() -> None:
    loaded = _modules_after(
        """
        import contextlib, io, sys
        from macau_tables.cli.app import app
        with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
            app(["--help"])
        assert not [m for m in sys.modules if m.startswith("macau_tables.cli.")
                    and m != "macau_tables.cli.app"], sorted(sys.modules)
        """
    )
    assert not loaded & {"numpy", "numba", "rich"}, loaded


def _real(group: str | None, name: str) -> Any:
    """The command itself (importing its module), through the app's groups."""
    top = app_command()
    ctx = top.make_context("macau-tables", ["--help"], resilient_parsing=True)
    parent = top if group is None else top.get_command(ctx, group)
    return parent.get_command(ctx, name)


def app_command() -> Any:
    import typer.main

    return typer.main.get_command(app)


@pytest.mark.parametrize(
    ("group", "name"),
    [(None, name) for name in TOP_COMMANDS] + [("play", name) for name in PLAY_COMMANDS],
)
def test_the_listed_one_line_help_is_the_command_s_own(group: str | None, name: str) -> None:
    listed = (TOP_COMMANDS if group is None else PLAY_COMMANDS)[name][1]
    command = _real(group, name)
    own = command.help.split("\n\n")[0]
    assert " ".join(own.split()) == listed


def test_every_command_has_help_with_an_example_and_no_bool_column() -> None:
    top = app_command()
    ctx = top.make_context("macau-tables", ["--help"], resilient_parsing=True)
    paths: list[list[str]] = [[]]
    for name in top.list_commands(ctx):
        command = top.get_command(ctx, name)
        paths.append([name])
        if hasattr(command, "list_commands"):
            paths.extend([name, sub] for sub in command.list_commands(ctx))
    assert ["play", "craps"] in paths
    assert len(paths) > 25
    for path in paths:
        result = runner.invoke(app, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        assert "<bool>" not in result.output, path
        assert "Example" in result.output, path


def test_every_example_parses_as_its_command_takes_it() -> None:
    """Each help's example, taken from the epilog and parsed by its command: a flag that
    does not exist, a value of the wrong type or a missing argument fails here."""
    top = app_command()
    ctx = top.make_context("macau-tables", ["--help"], resilient_parsing=True)
    checked = 0
    for name in top.list_commands(ctx):
        group = top.get_command(ctx, name)
        subs = group.list_commands(ctx) if hasattr(group, "list_commands") else [None]
        for sub in subs:
            command = group if sub is None else group.get_command(ctx, sub)
            path = [name] if sub is None else [name, sub]
            for example in re.findall(
                r"macau-tables .+?(?=\s{2}|·|\(|,? then|$)", command.epilog or ""
            ):
                words = shlex.split(example)[1:]
                assert words[: len(path)] == path, (path, example)
                with command.make_context(" ".join(path), words[len(path) :]):
                    checked += 1  # parsed: every option known, every value of its type
    assert checked > 25


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"macau-tables {macau_tables.__version__}"


def test_piped_help_is_never_cut() -> None:
    """Plain help: every line of the examples is whole (nothing re-wrapped or cut)."""
    result = runner.invoke(app, ["simulate", "craps", "--help"])
    assert (
        "Example: macau-tables simulate craps --bet 12 --odds max --big 6,8 --sessions 2000 "
        "--session-rounds 50 --bankroll 1000 --seed 1" in result.stdout
    )


EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


@pytest.mark.parametrize(
    "args",
    [
        ["tiles", "hand", "6-6", "4-5", "--json"],
        ["tiles", "settings", "6-6", "4-5", "2-4", "1-2", "--json"],
        ["baccarat", "roads", "BBPPTBn", "--json"],
        ["par", "craps", "--json"],
        ["paigow", "settle", str(EXAMPLES / "paigow-round.json"), "--json"],
        ["taiwan", "settle", str(EXAMPLES / "taiwan-round.json"), "--json"],
    ],
)
def test_json_is_one_document(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    json.loads(result.stdout)  # one document: a second one would be "extra data"


def test_play_json_is_json_lines() -> None:
    result = runner.invoke(
        app, ["play", "craps", "--seed", "1", "--json"], input="bet pass 10\nroll\nbets\nquit\n"
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) >= 4
    assert all(isinstance(json.loads(line), dict) for line in lines)


def test_every_command_module_is_listed() -> None:
    """A module under cli/ with ``register(app, play_app)`` is reached only through the
    lists in cli/app.py: one that is not listed would be silently missing."""
    import ast

    import macau_tables.cli

    folder = Path(macau_tables.cli.__file__).parent
    listed = {module for module, _ in (*TOP_COMMANDS.values(), *PLAY_COMMANDS.values())}
    registering = {
        path.stem
        for path in folder.glob("*.py")
        if any(
            isinstance(node, ast.FunctionDef) and node.name == "register"
            for node in ast.parse(path.read_text(encoding="utf-8")).body
        )
    }
    assert registering, "no command module found"
    assert registering <= listed, registering - listed


def test_verify_in_a_fresh_process_knows_every_event_kind() -> None:
    """With the command modules imported lazily, verify registers the games' events itself."""
    journal = Path(__file__).resolve().parents[1] / "games" / "data" / "craps_golden.json"
    done = subprocess.run(
        [sys.executable, "-c", MAIN, "verify", str(journal), "--json"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["replay"] == "ok"
