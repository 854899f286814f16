"""`macau-tables rng raw`: the production generator's bytes on stdout, for test batteries."""

from __future__ import annotations

import os
import re
import sys
from typing import Annotated, BinaryIO

import typer

from macau_tables.cli.common import fail, handle_errors
from macau_tables.core.rng import HmacDrbg, raw_stream

rng_app = typer.Typer(
    help="The production random generator's raw bytes, for statistical test batteries.",
    epilog=(
        "Example: macau-tables rng raw --bytes 64M --seed 5eed  (64 MiB of the seeded DRBG, "
        "for ent or dieharder -g 200; make rng-test runs both)"
    ),
    no_args_is_help=True,
    rich_markup_mode=None,
)

_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_size(text: str) -> int:
    """``4096``, ``64K``, ``64M``, ``1G`` (binary units, an optional trailing ``B``)."""
    match = re.fullmatch(r"\s*(\d+)\s*([KMGT]?)(?:I?B)?\s*", text.upper())
    if match is None:
        raise ValueError(f"{text!r} is not a byte count (4096, 64K, 64M, 1G)")
    return int(match.group(1)) * _UNITS[match.group(2)]


def _quiet_broken_pipe(out: BinaryIO) -> None:
    """The reader has gone (``| head -c``, a battery that has read enough): no traceback,
    and nothing more written at exit (stdout now goes to /dev/null)."""
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def write_stream(out: BinaryIO, total: int, seed: bytes | None, request: int) -> int:
    """Write ``total`` bytes of the generator (``0``: until the reader closes the pipe);
    the bytes written."""
    written = 0
    try:
        for chunk in raw_stream(seed, request):
            if total:
                chunk = chunk[: total - written]
            out.write(chunk)
            written += len(chunk)
            if total and written >= total:
                break
        out.flush()
    except BrokenPipeError:
        _quiet_broken_pipe(out)
    return written


def register(app: typer.Typer, play_app: typer.Typer) -> None:
    """Add `rng` to the main app."""
    del play_app
    app.add_typer(rng_app, name="rng")


@rng_app.command(
    "raw",
    epilog=(
        "Example: macau-tables rng raw --bytes 1M --seed 5eed  (1 MiB of the seeded DRBG, "
        "the same every time)  ·  macau-tables rng raw  (the OS CSPRNG without end: pipe it "
        "into dieharder -a -g 200)"
    ),
)
@handle_errors
def raw_cmd(
    size: Annotated[
        str,
        typer.Option(
            "--bytes",
            metavar="N",
            help="How many bytes (4096, 64K, 64M, 1G); 0 or none: without end, until the "
            "reader closes the pipe.",
        ),
    ] = "0",
    seed: Annotated[
        str | None,
        typer.Option(
            "--seed",
            metavar="HEX",
            help="Seed the HMAC_DRBG as Rng.seeded(bytes.fromhex(HEX)) does; without it, "
            "the OS CSPRNG (production's SystemSource).",
        ),
    ] = None,
    request: Annotated[
        int,
        typer.Option(
            "--request",
            metavar="BYTES",
            help="Bytes per HMAC_DRBG generate call (or per OS read), 1 to "
            f"{HmacDrbg.MAX_BYTES_PER_REQUEST}; a die or a card of the games asks for 5 or 6.",
        ),
    ] = HmacDrbg.MAX_BYTES_PER_REQUEST,
) -> None:
    """Stream the production random generator's bytes to stdout, raw binary.

    With --seed, the seeded HMAC_DRBG (SP 800-90A, SHA-256) that replayable rounds use,
    read in --request-byte generate calls; without, the operating system's CSPRNG that
    live tables draw from. For dieharder (-g 200), ent, PractRand or TestU01."""
    try:
        total = parse_size(size)
    except ValueError as exc:
        fail(exc)
    raw: bytes | None = None
    if seed is not None:
        try:
            raw = bytes.fromhex(seed)
        except ValueError:
            fail(f"--seed {seed!r} is not hex")
        if not raw:
            fail("--seed is at least one byte of hex")
    out = sys.stdout.buffer
    if out.isatty() and not total:
        fail("an endless binary stream to a terminal: pipe it, or give --bytes")
    write_stream(out, total, raw, request)
