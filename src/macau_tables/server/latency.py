"""Command latency as the server sees it: a histogram per operation, for operators and
benchmarks (``GET /server/latency``).

What is timed: ``POST /tables/{id}/commands`` on the hot path (server/fastpath.py), from
the moment its ASGI call starts — uvicorn has read and parsed the request's headers — to
the moment the reply's last bytes are handed to the transport: authentication, the
table's turn, the group commit (its fsync included) and the fan-out. Not timed: the time a
request waited in the socket before the event loop read it, and the network. A client's
latency is this plus those (benchmarks/bench_server.py prints both, side by side).

Buckets grow by 25 % from 0.05 ms to 64 s (64 of them, and one beyond): a percentile is
reported as its bucket's upper bound — "at most" that, and within 25 % of it. Counts are
kept since start; two readings subtracted give the counts of the time between them
(:func:`quantile` works on either). Labels: the operation for a recorded command (its op
is one the game knows: the engine refuses any other), ``refused`` for a 4xx, ``error`` for
a 5xx — a bounded set, whatever clients send.
"""

from __future__ import annotations

import math
import time
from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

#: the buckets' upper bounds, in milliseconds (the last bucket is everything beyond)
BOUNDS_MS: tuple[float, ...] = tuple(round(0.05 * 1.25**i, 4) for i in range(64))
_BOUNDS_S = tuple(b / 1000 for b in BOUNDS_MS)


class Latencies:
    """Counts per label and bucket (see the module docstring)."""

    def __init__(self) -> None:
        self.since = time.time()
        self.counts: dict[str, list[int]] = {}

    def observe(self, label: str, seconds: float) -> None:
        counts = self.counts.get(label)
        if counts is None:
            counts = self.counts[label] = [0] * (len(BOUNDS_MS) + 1)
        counts[bisect_left(_BOUNDS_S, seconds)] += 1

    def report(self) -> dict[str, Any]:
        return {
            "since": round(self.since, 3),
            "measured": "request parsed -> reply handed to the socket, in the server process",
            "bounds_ms": list(BOUNDS_MS),
            "commands": {label: summary(c) for label, c in sorted(self.counts.items())},
        }


def label_for(op: str, status: int) -> str:
    if status >= 500:
        return "error"
    return op if status < 400 else "refused"


def quantile(counts: Sequence[int], q: float) -> float | None:
    """The upper bound (ms) of the bucket holding the ``q`` quantile; None if no counts,
    ``inf`` if it is beyond the last bound."""
    total = sum(counts)
    if total == 0:
        return None
    rank = max(1, math.ceil(q * total))  # the rank-th smallest (1-based)
    seen = 0
    for i, n in enumerate(counts):
        seen += n
        if seen >= rank:
            return BOUNDS_MS[i] if i < len(BOUNDS_MS) else float("inf")
    raise AssertionError("unreachable")


def summary(counts: Sequence[int]) -> dict[str, Any]:
    def q(x: float) -> float | str | None:
        v = quantile(counts, x)
        return f"> {BOUNDS_MS[-1]:.0f}" if v == float("inf") else v

    return {
        "count": sum(counts),
        "p50_ms": q(0.5),
        "p90_ms": q(0.9),
        "p99_ms": q(0.99),
        "max_ms": q(1.0),
        "counts": list(counts),
    }


def difference(after: Sequence[int], before: Sequence[int] | None) -> list[int]:
    """The counts between two readings of one label."""
    if before is None:
        return list(after)
    return [a - b for a, b in zip(after, before, strict=True)]
