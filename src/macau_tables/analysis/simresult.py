"""The result of simulating one chunk of a job, shared by every game kernel.

A :class:`ChunkResult` counts, for each bet line, how many decisions ended with each outcome
label; bet names, labels and nets are the exact PAR sheet's
(:class:`macau_tables.analysis.par.ParSheet`: ``BetLine.name``, ``Outcome.label``/``net``), so
one generic check compares any simulation with its exact figures. ``series`` optionally holds
per-round outcome codes (numpy arrays) that :mod:`macau_tables.analysis.sessions` replays bets
on. Counts are Python ints and nets exact Fractions: merging never rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from macau_tables.core.errors import InvalidInput


@dataclass
class ChunkResult:
    """Counts of decisions per bet line and outcome label, over ``rounds`` rounds."""

    game: str
    rounds: int  # rounds played (hands, rolls, tile rounds)
    counts: dict[str, dict[str, int]]  # bet name -> outcome label -> count of decisions
    nets: dict[str, dict[str, Fraction]]  # bet name -> outcome label -> net per unit
    series: dict[str, np.ndarray] = field(default_factory=dict)
    # For a line with several decisions per round (the seats of a tile round share the
    # banker's hand, so they are correlated): bet -> "a*b" -> Σ over rounds of
    # count_a · count_b, the exact second moments of the per-round label counts, from which
    # the standard error of the mean is computed per round (a cluster), not per decision.
    # Lines with at most one decision per round leave it out.
    cross: dict[str, dict[str, int]] = field(default_factory=dict)

    def merge(self, other: ChunkResult) -> ChunkResult:
        """A new result: rounds and counts summed, series concatenated (self's rounds first).

        Raises :class:`InvalidInput` if the games differ or a label's net disagrees.
        """
        return merge_all([self, other])

    def decisions(self, bet: str) -> int:
        """How many decisions the bet line had (the sum of its outcome counts)."""
        return sum(self.counts.get(bet, {}).values())

    def mean(self, bet: str) -> Fraction:
        """The exact mean net per unit over the bet's decisions (Σ count·net / Σ count)."""
        n = self.decisions(bet)
        if n == 0:
            raise InvalidInput(f"no decisions for {bet!r}")
        counts = self.counts[bet]
        return sum((self.nets[bet][lab] * c for lab, c in counts.items()), Fraction(0)) / n


def merge_all(results: Sequence[ChunkResult]) -> ChunkResult:
    """Merge results in the order given (series concatenated once, not pairwise)."""
    if not results:
        raise InvalidInput("nothing to merge")
    first = results[0]
    rounds = 0
    counts: dict[str, dict[str, int]] = {}
    nets: dict[str, dict[str, Fraction]] = {}
    parts: dict[str, list[np.ndarray]] = {}
    cross: dict[str, dict[str, int]] = {}
    for r in results:
        if r.game != first.game:
            raise InvalidInput(f"cannot merge a {r.game} result into a {first.game} result")
        rounds += r.rounds
        for bet, labels in r.counts.items():
            into = counts.setdefault(bet, {})
            for label, n in labels.items():
                into[label] = into.get(label, 0) + int(n)
        for bet, label_nets in r.nets.items():
            into_nets = nets.setdefault(bet, {})
            for label, net in label_nets.items():
                known = into_nets.setdefault(label, net)
                if known != net:
                    raise InvalidInput(f"{bet} {label}: net {net} differs from {known}")
        for key, arr in r.series.items():
            parts.setdefault(key, []).append(arr)
        for bet, moments in r.cross.items():
            into_cross = cross.setdefault(bet, {})
            for pair, n in moments.items():
                into_cross[pair] = into_cross.get(pair, 0) + int(n)
    series = {k: v[0] if len(v) == 1 else np.concatenate(v) for k, v in parts.items()}
    return ChunkResult(first.game, rounds, counts, nets, series, cross)


def cross_key(a: str, b: str) -> str:
    """The key of the second moment Σ count_a · count_b in :attr:`ChunkResult.cross`."""
    return "*".join(sorted((a, b)))
