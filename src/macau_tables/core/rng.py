"""Randomness: the ONLY source of chance in the project.

Every chance result of every game (a shuffle, a throw of the dice) is drawn here, from an
explicit :class:`Rng` passed into the engine, and recorded as an event. Nothing else in
``src/`` may import ``random``, ``secrets`` or ``numpy.random`` (``tests/test_randomness_ban.py``).

Layers
------
- :class:`RandomSource` gives uniform bits. :class:`SystemSource` is the OS CSPRNG
  (``secrets``), for production. :class:`HmacDrbg` is NIST SP 800-90A HMAC_DRBG with
  SHA-256, built on ``hmac``/``hashlib`` only, so a seeded stream is the same on every
  platform and Python version (pinned by NIST CAVP vectors in ``tests/core/test_rng.py``).
- :func:`scale_below` turns a uniform ``k``-bit integer into a uniform integer in
  ``[0, n)`` by rejection, never by a bare ``x % n`` (which favours the low outcomes
  whenever ``n`` is not a power of two).
- :class:`Rng` draws integers, permutations, shuffles and dice from a source.

Commit–reveal (provably fair rounds)
------------------------------------
1. Before the round the table draws ``seed = new_server_seed()`` (32 bytes from the OS
   CSPRNG) and publishes ``commitment(seed)``, the SHA-256 hex digest of the seed.
2. The round is played with ``Rng.for_round(seed, round_id)``; every chance result is
   journalled.
3. After the round the table reveals ``seed``. Anyone checks
   ``verify_reveal(seed, published_commitment)`` and then re-derives every chance result
   with ``Rng.for_round(seed, round_id)``, drawing in the order the journal records.

The table cannot change the seed after committing (SHA-256 is preimage/collision
resistant), and players cannot predict the round from the commitment (the seed has 256
bits of OS entropy, so it cannot be guessed from its hash).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Iterator
from typing import Protocol, TypeVar

from macau_tables.core.errors import InvalidInput, MacauTablesError

__all__ = [
    "EXTRA_BITS",
    "HmacDrbg",
    "RandomSource",
    "Rng",
    "SystemSource",
    "commitment",
    "new_server_seed",
    "random_hex",
    "raw_stream",
    "scale_below",
    "seeded_drbg",
    "verify_reveal",
]

T = TypeVar("T")

#: ``Rng.below(n)`` draws ``n.bit_length() + EXTRA_BITS`` bits per try, so a try is
#: rejected with probability ``(2**k mod n) / 2**k < 2**-EXTRA_BITS``.
EXTRA_BITS = 32

#: Server seeds for commit–reveal must have at least this many bytes (256 bits), or the
#: commitment could be inverted by guessing.
SERVER_SEED_BYTES = 32

#: The nonce of every ``Rng.seeded`` DRBG (16 bytes). Part of the replay contract.
_SEEDED_NONCE = b"macau-tables/v1\x00"

#: HMAC's inner and outer pads (RFC 2104) as byte translations: a 32-byte SHA-256 key
#: ``k`` pads to the 64-byte block as ``k.translate(_IPAD) + b"\x36" * 32``
_IPAD = bytes(b ^ 0x36 for b in range(256))
_OPAD = bytes(b ^ 0x5C for b in range(256))


# --- Sources of uniform bits ---------------------------------------------------------


class RandomSource(Protocol):
    """Anything that gives uniform random bits."""

    def random_bits(self, k: int) -> int:
        """Return an integer uniform in ``[0, 2**k)``."""
        ...


class SystemSource:
    """The operating system's CSPRNG (via :mod:`secrets`). Use in production."""

    def random_bits(self, k: int) -> int:
        if k < 0:
            raise InvalidInput(f"bit count must be >= 0, not {k}")
        return secrets.randbits(k) if k else 0


class HmacDrbg:
    """NIST SP 800-90A (rev. 1) §10.1.2 HMAC_DRBG with SHA-256, no prediction resistance.

    ``HmacDrbg(entropy, nonce, personalization)`` instantiates; ``generate(n_bytes,
    additional)`` returns bytes; ``reseed(entropy, additional)`` mixes in new entropy.
    ``random_bits(k)`` is the ``k`` most significant bits of ``generate(ceil(k / 8))``.
    """

    OUTLEN = 32  # bytes of SHA-256 output
    MAX_BYTES_PER_REQUEST = 2**19 // 8  # 65,536 bytes (2**19 bits): SP 800-90A Table 2
    RESEED_INTERVAL = 2**48  # SP 800-90A Table 2

    def __init__(self, entropy: bytes, nonce: bytes = b"", personalization: bytes = b"") -> None:
        self._key = b"\x00" * self.OUTLEN
        self._v = b"\x01" * self.OUTLEN
        self._update(entropy + nonce + personalization)
        self._reseed_counter = 1

    def _hmac(self, data: bytes) -> bytes:
        return hmac.new(self._key, data, hashlib.sha256).digest()

    def _update(self, provided: bytes) -> None:
        """HMAC_DRBG_Update (§10.1.2.2)."""
        self._key = self._hmac(self._v + b"\x00" + provided)
        self._v = self._hmac(self._v)
        if provided:
            self._key = self._hmac(self._v + b"\x01" + provided)
            self._v = self._hmac(self._v)

    def reseed(self, entropy: bytes, additional: bytes = b"") -> None:
        """HMAC_DRBG_Reseed (§10.1.2.4)."""
        self._update(entropy + additional)
        self._reseed_counter = 1

    def generate(self, n_bytes: int, additional: bytes = b"") -> bytes:
        """HMAC_DRBG_Generate (§10.1.2.5): ``n_bytes`` pseudo-random bytes."""
        if not 0 <= n_bytes <= self.MAX_BYTES_PER_REQUEST:
            raise InvalidInput(
                f"HMAC_DRBG request of {n_bytes} bytes; "
                f"0 to {self.MAX_BYTES_PER_REQUEST} bytes per request"
            )
        if self._reseed_counter > self.RESEED_INTERVAL:
            raise MacauTablesError("HMAC_DRBG reseed interval reached; reseed before generating")
        if additional:
            self._update(additional)
        out = bytearray()
        if n_bytes <= self.OUTLEN:
            while len(out) < n_bytes:
                self._v = self._hmac(self._v)
                out += self._v
        else:  # many blocks under one key: HMAC from the key's padded states (RFC 2104)
            inner = hashlib.sha256(self._key.translate(_IPAD) + b"\x36" * 32)
            outer = hashlib.sha256(self._key.translate(_OPAD) + b"\x5c" * 32)
            v = self._v
            while len(out) < n_bytes:
                h = inner.copy()
                h.update(v)
                o = outer.copy()
                o.update(h.digest())
                v = o.digest()
                out += v
            self._v = v
        self._update(additional)
        self._reseed_counter += 1
        return bytes(out[:n_bytes])

    def random_bits(self, k: int) -> int:
        if k < 0:
            raise InvalidInput(f"bit count must be >= 0, not {k}")
        n_bytes = (k + 7) // 8
        return int.from_bytes(self.generate(n_bytes), "big") >> (8 * n_bytes - k)


# --- Uniform integers by rejection ---------------------------------------------------


def scale_below(x: int, k: int, n: int) -> int | None:
    """Map a uniform ``k``-bit ``x`` to a uniform value in ``[0, n)``, or ``None`` (reject).

    The ``2**k mod n`` largest values of ``x`` are rejected; the remaining
    ``2**k - 2**k mod n`` values are a whole number of blocks of ``n``, so ``x % n`` over
    them hits every outcome exactly ``2**k // n`` times. Requires ``2**k >= n``.
    """
    if n < 1:
        raise InvalidInput(f"n must be >= 1, not {n}")
    if k < 0 or (1 << k) < n:
        raise InvalidInput(f"{k} bits cannot cover {n} outcomes")
    if not 0 <= x < (1 << k):
        raise InvalidInput(f"x = {x} is not a {k}-bit value")
    limit = (1 << k) - (1 << k) % n
    return x % n if x < limit else None


def seeded_drbg(seed: bytes | str, label: str = "") -> HmacDrbg:
    """The HMAC_DRBG behind :meth:`Rng.seeded`: entropy ``SHA-256("macau-tables/seed\\0" +
    seed)`` (a ``str`` seed UTF-8 encoded), the fixed 16-byte nonce, the label as
    personalization."""
    raw = seed.encode() if isinstance(seed, str) else bytes(seed)
    entropy = hashlib.sha256(b"macau-tables/seed\x00" + raw).digest()
    return HmacDrbg(entropy, _SEEDED_NONCE, label.encode())


def raw_stream(
    seed: bytes | None = None, request: int = HmacDrbg.MAX_BYTES_PER_REQUEST
) -> Iterator[bytes]:
    """The production generator's bytes, an endless run of chunks of ``request`` bytes:
    with a ``seed``, the output of :func:`seeded_drbg` (label ``""``), one
    ``generate(request)`` per chunk — ``Rng.seeded(seed)``'s DRBG; without one, the OS
    CSPRNG that :class:`SystemSource` draws from. For statistical test batteries
    (``macau-tables rng raw``): a chance result of play is never drawn here."""
    if not 1 <= request <= HmacDrbg.MAX_BYTES_PER_REQUEST:
        raise InvalidInput(
            f"a request is 1 to {HmacDrbg.MAX_BYTES_PER_REQUEST} bytes, not {request}"
        )
    if seed is None:
        while True:
            yield secrets.token_bytes(request)
    drbg = seeded_drbg(seed)
    while True:
        yield drbg.generate(request)


class Rng:
    """Draws chance results from a :class:`RandomSource`."""

    def __init__(self, source: RandomSource) -> None:
        self.source = source

    @classmethod
    def system(cls) -> Rng:
        """An unpredictable generator on the OS CSPRNG (production)."""
        return cls(SystemSource())

    @classmethod
    def seeded(cls, seed: bytes | str, label: str = "") -> Rng:
        """A replayable generator: the same ``(seed, label)`` gives the same draws everywhere.

        HMAC_DRBG is instantiated with entropy ``SHA-256("macau-tables/seed\\0" + seed)``
        (a ``str`` seed is UTF-8 encoded), a fixed 16-byte nonce and the UTF-8 label as
        personalization. Hashing the seed gives it a fixed length, so no two different
        ``(seed, label)`` pairs feed the DRBG the same input.
        """
        return cls(seeded_drbg(seed, label))

    @classmethod
    def for_round(cls, server_seed: bytes, round_id: str) -> Rng:
        """The generator of one round under commit–reveal (see the module docstring).

        Equal to ``Rng.seeded(server_seed, "round:" + round_id)``.
        """
        if len(server_seed) < SERVER_SEED_BYTES:
            raise InvalidInput(
                f"server seed has {len(server_seed)} bytes; at least {SERVER_SEED_BYTES} needed"
            )
        return cls.seeded(server_seed, "round:" + round_id)

    @classmethod
    def for_event(cls, server_seed: bytes, table: str, label: str) -> Rng:
        """The generator of one chance event of a table under commit–reveal.

        ``label`` names the event within the seed's scope (``"shoe"``, ``"woodpile"``,
        ``"throw:17"``…), so a chance result is re-derived after a crash from the seed, the
        table and the label alone, without replaying earlier draws. Equal to
        ``Rng.seeded(server_seed, "event:" + table + "\\0" + label)``.
        """
        if len(server_seed) < SERVER_SEED_BYTES:
            raise InvalidInput(
                f"server seed has {len(server_seed)} bytes; at least {SERVER_SEED_BYTES} needed"
            )
        if "\0" in table:
            raise InvalidInput("a table id may not contain NUL")
        return cls.seeded(server_seed, "event:" + table + "\0" + label)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``.

        Draws ``k = n.bit_length() + EXTRA_BITS`` bits and retries while
        :func:`scale_below` rejects (probability below ``2**-32`` per try).
        """
        if n < 1:
            raise InvalidInput(f"n must be >= 1, not {n}")
        k = n.bit_length() + EXTRA_BITS
        while True:
            result = scale_below(self.source.random_bits(k), k, n)
            if result is not None:
                return result

    def permutation(self, n: int) -> tuple[int, ...]:
        """A uniform permutation of ``range(n)`` (Fisher–Yates, Durstenfeld's form).

        Starting from ``[0, 1, …, n-1]``, for ``i`` from ``n-1`` down to ``1``: draw
        ``j = below(i + 1)`` and swap positions ``i`` and ``j``. Position ``p`` of the
        result holds the original index that ends up there.
        """
        if n < 0:
            raise InvalidInput(f"n must be >= 0, not {n}")
        order = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            order[i], order[j] = order[j], order[i]
        return tuple(order)

    def shuffle(self, items: Iterable[T]) -> list[T]:
        """A new list of ``items`` in uniform random order: ``[items[p] for p in permutation]``."""
        pool = list(items)
        return [pool[p] for p in self.permutation(len(pool))]

    def die(self) -> int:
        """One fair six-sided die, 1 to 6."""
        return self.below(6) + 1

    def dice(self, count: int) -> tuple[int, ...]:
        """``count`` fair dice, in the order thrown."""
        if count < 0:
            raise InvalidInput(f"dice count must be >= 0, not {count}")
        return tuple(self.die() for _ in range(count))


# --- Commit–reveal -------------------------------------------------------------------


def random_hex(nbytes: int) -> str:
    """``nbytes`` random bytes as hex, from the operating system's CSPRNG: for identifiers
    (a ledger transaction's id), never for an outcome of play."""
    return secrets.token_hex(nbytes)


def new_server_seed() -> bytes:
    """A fresh 32-byte server seed from the OS CSPRNG."""
    return secrets.token_bytes(SERVER_SEED_BYTES)


def commitment(seed: bytes) -> str:
    """The public commitment to ``seed``: its SHA-256 digest, lowercase hex."""
    return hashlib.sha256(seed).hexdigest()


def verify_reveal(seed: bytes, commitment: str) -> bool:
    """Whether a revealed ``seed`` matches the commitment published before the round."""
    if not commitment.isascii():
        return False
    expected = hashlib.sha256(seed).hexdigest()
    return hmac.compare_digest(expected, commitment.strip().lower())
