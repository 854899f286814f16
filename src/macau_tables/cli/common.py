"""Shared CLI plumbing: one-line errors (exit 2), JSON output, Rich console."""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn, ParamSpec, TypeVar

import typer
from rich.console import Console, ConsoleDimensions

from macau_tables.core.errors import MacauTablesError

P = ParamSpec("P")
R = TypeVar("R")

#: the width Rich lays out to when the output is not a terminal (a pipe, a file): wide
#: enough that no table is cut ("1.057…"); lines are as long as their content needs
PIPED_WIDTH = 1000


class _CliConsole(Console):
    """Rich's console, its width decided when it prints (not when the CLI is imported): a
    terminal, or COLUMNS, lays out as Rich does; a pipe or a file gets whole lines, never
    cut to 80 columns."""

    @property
    def size(self) -> ConsoleDimensions:
        self._width = None if self.is_terminal or "COLUMNS" in os.environ else PIPED_WIDTH
        return super().size

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        self._width, self._height = new_size


console = _CliConsole()
err_console = _CliConsole(stderr=True)

EXIT_USAGE = 2


def fail(error: BaseException | str) -> NoReturn:
    """Print one clear line on stderr (no traceback) and exit with status 2."""
    if isinstance(error, MacauTablesError):
        text = f"{type(error).__name__}: {error}"
    else:
        text = f"error: {error}"
    # one line, whatever the input held: control characters and line separators escaped
    text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    err_console.print(text, markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(EXIT_USAGE)


def handle_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Decorate a command so that every MacauTablesError becomes a one-line error, exit 2."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except MacauTablesError as exc:
            fail(exc)
        except (OSError, json.JSONDecodeError) as exc:
            fail(exc)
        except UnicodeDecodeError as exc:  # a file that is not UTF-8 text
            fail(f"not UTF-8 text: {exc}")

    return wrapper


def print_json(obj: Any) -> None:
    """Machine-readable output: one UTF-8 JSON document on stdout, Chinese kept as is.
    A command prints it once; a session that answers as it goes uses :func:`print_json_line`."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


def print_json_line(obj: Any) -> None:
    """JSON Lines (https://jsonlines.org): one compact JSON object a line, flushed, for
    sessions that answer as they go (``play … --json``)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")
    sys.stdout.flush()
