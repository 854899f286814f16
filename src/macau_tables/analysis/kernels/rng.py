"""The one place simulation randomness comes from (numpy's PCG64, seeded).

The engines draw from :mod:`macau_tables.core.rng` (an auditable DRBG). Simulations need
billions of draws, so the kernels draw from numpy Generators made here, and nowhere else
(``tests/test_randomness_ban.py`` enforces it). A job's seed is split into independent
per-chunk streams with :class:`numpy.random.SeedSequence`, so a result depends only on the
seed and the chunking, never on how many workers ran the chunks.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np

#: the type of the Generators made here (for the kernels' signatures)
Generator: TypeAlias = np.random.Generator


def generator(seed: int | np.random.SeedSequence) -> np.random.Generator:
    """A PCG64 Generator for ``seed`` (an int, or one stream from :func:`chunk_seeds`)."""
    return np.random.Generator(np.random.PCG64(seed))


def chunk_seeds(seed: int, chunks: int) -> list[np.random.SeedSequence]:
    """``chunks`` independent streams derived from one job seed (chunk i always gets the same
    stream, whatever worker runs it)."""
    return np.random.SeedSequence(seed).spawn(chunks)


def chunk_generator(seed: int, chunk: int) -> np.random.Generator:
    """The Generator of chunk number ``chunk`` of the job seeded with ``seed``."""
    return generator(np.random.SeedSequence(seed, spawn_key=(chunk,)))


def bitgen_address(gen: np.random.Generator) -> int:
    """The address of ``gen``'s ``bitgen_t`` (numpy's C struct: the state, then its
    ``next_uint64``), for a compiled kernel to draw the generator's raw words itself
    (:func:`macau_tables.analysis.kernels.baccarat_core.next_raw`: the same words as
    ``gen.bit_generator.random_raw()``). Valid while ``gen`` lives; a kernel that draws
    from it must be its only user meanwhile (the generator's lock is not taken)."""
    return int(gen.bit_generator.ctypes.bit_generator.value)
