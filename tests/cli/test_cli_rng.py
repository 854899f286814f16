"""`macau-tables rng raw`: the production generator's bytes, exactly as many as asked."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from macau_tables.cli.app import app
from macau_tables.cli.rng import parse_size
from macau_tables.core.rng import Rng, seeded_drbg

runner = CliRunner()
MAIN = "from macau_tables.cli.app import main; main()"


def _raw(*args: str) -> bytes:
    result = runner.invoke(app, ["rng", "raw", *args])
    assert result.exit_code == 0, result.output
    return result.stdout_bytes


@pytest.mark.parametrize(("size", "n"), [("1", 1), ("1000", 1000), ("4K", 4096), ("70001", 70001)])
def test_exactly_the_bytes_asked_for(size: str, n: int) -> None:
    assert len(_raw("--bytes", size, "--seed", "5eed")) == n
    assert len(_raw("--bytes", size)) == n


def test_a_seed_gives_the_same_bytes_every_time_and_they_are_the_drbg_s() -> None:
    out = _raw("--bytes", "70001", "--seed", "5eed")
    assert _raw("--bytes", "70001", "--seed", "5EED") == out
    drbg = seeded_drbg(bytes.fromhex("5eed"))
    expected = drbg.generate(65536) + drbg.generate(70001 - 65536)
    assert out == expected


def test_small_requests_are_the_bytes_a_die_is_drawn_from() -> None:
    """--request 5: each 5 bytes are one ``random_bits(35)`` call's request, as a die draws."""
    out = _raw("--bytes", "50", "--seed", "d1ce", "--request", "5")
    rng = Rng.seeded(bytes.fromhex("d1ce"))
    draws = [rng.source.random_bits(40).to_bytes(5, "big") for _ in range(10)]
    assert out == b"".join(draws)


def test_different_seeds_and_no_seed_give_different_bytes() -> None:
    a = _raw("--bytes", "64", "--seed", "00")
    assert _raw("--bytes", "64", "--seed", "01") != a
    assert _raw("--bytes", "64", "--seed", "0000") != a
    assert _raw("--bytes", "64") != _raw("--bytes", "64")


@pytest.mark.parametrize(
    "args",
    [
        ["--seed", "xyz"],
        ["--seed", ""],
        ["--bytes", "-5"],
        ["--bytes", "lots"],
        ["--request", "0"],
        ["--request", "65537"],
    ],
)
def test_bad_options_are_one_line_errors(args: list[str]) -> None:
    result = runner.invoke(app, ["rng", "raw", "--bytes", "16", *args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


def test_parse_size() -> None:
    assert [parse_size(s) for s in ("0", "7", "64K", "64M", "1G", "2GiB", "3mb")] == [
        0,
        7,
        64 << 10,
        64 << 20,
        1 << 30,
        2 << 30,
        3 << 20,
    ]


@pytest.mark.parametrize("args", [[], ["--seed", "5eed"], ["--bytes", "0"]])
def test_the_endless_stream_stops_quietly_when_the_reader_goes(args: list[str]) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", MAIN, "rng", "raw", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    got = proc.stdout.read(300_000)  # more than one request and more than a pipe's buffer
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 0
    assert len(got) == 300_000
    assert err == b""
    if args[:1] == ["--seed"]:
        drbg = seeded_drbg(bytes.fromhex("5eed"))
        assert got == b"".join(drbg.generate(65536) for _ in range(5))[:300_000]
