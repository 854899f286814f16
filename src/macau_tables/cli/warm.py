"""`macau-tables warm`: build the lookup tables and compile the kernels once."""

from __future__ import annotations

from typing import Annotated

import typer

from macau_tables.cli.common import handle_errors


def register(app: typer.Typer, play_app: typer.Typer) -> None:
    """Add `warm` to the main app."""
    del play_app

    @app.command(
        "warm",
        epilog="Example: macau-tables warm --clear   (after installing or upgrading)",
    )
    @handle_errors
    def warm_cmd(
        clear: Annotated[
            bool, typer.Option("--clear", help="Delete the stored tables first.")
        ] = False,
    ) -> None:
        """Build every lookup table and compile every numba kernel once.

        It takes a minute or so; later `par`, `hint` and `simulate` then start at once.
        Needs the `fast` extra (numpy, numba)."""
        from macau_tables.analysis.warm import main

        raise typer.Exit(main(["--clear"] if clear else []))
