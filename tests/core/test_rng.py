"""core.rng: exhaustive uniformity proofs, NIST HMAC_DRBG vectors, golden seeded draws."""

from __future__ import annotations

import hashlib
import hmac
import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

import pytest

from macau_tables.core.errors import InvalidInput
from macau_tables.core.rng import (
    EXTRA_BITS,
    HmacDrbg,
    Rng,
    SystemSource,
    commitment,
    new_server_seed,
    scale_below,
    verify_reveal,
)

# --- scale_below: exhaustive over every k-bit input ----------------------------------

SIZES = (6, 32, 52, 416)  # a die, a power of two, a deck, an 8-deck shoe


def _ks(n: int) -> list[int]:
    """The smallest k with 2**k >= n, plus 12 and 16."""
    return sorted({(n - 1).bit_length(), 12, 16})


def _tally(scaler: Callable[[int], int | None], k: int) -> tuple[Counter[int], int]:
    counts: Counter[int] = Counter()
    rejected = 0
    for x in range(2**k):
        result = scaler(x)
        if result is None:
            rejected += 1
        else:
            counts[result] += 1
    return counts, rejected


@pytest.mark.parametrize(("n", "k"), [(n, k) for n in SIZES for k in _ks(n)])
def test_scale_below_hits_every_outcome_exactly_equally_often(n: int, k: int) -> None:
    counts, rejected = _tally(lambda x: scale_below(x, k, n), k)
    assert set(counts) == set(range(n))
    assert set(counts.values()) == {2**k // n}
    assert rejected == 2**k % n


@pytest.mark.parametrize(("n", "k"), [(n, k) for n in (6, 52, 416) for k in _ks(n)])
def test_plain_modulo_fails_the_same_test(n: int, k: int) -> None:
    """``x % n`` without rejection favours the low outcomes whenever n is not a power of 2."""
    counts, _ = _tally(lambda x: x % n, k)
    assert len(set(counts.values())) == 2  # some outcomes occur once more than others
    assert counts[0] == 2**k // n + 1
    assert counts[n - 1] == 2**k // n


@pytest.mark.parametrize("k", _ks(32))
def test_plain_modulo_is_only_fair_for_a_power_of_two(k: int) -> None:
    """32 divides 2**k, so x % 32 happens to be exact: no rejection is needed there."""
    counts, _ = _tally(lambda x: x % 32, k)
    assert set(counts.values()) == {2**k // 32}


@pytest.mark.parametrize(("x", "k", "n"), [(0, 2, 5), (8, 3, 6), (-1, 3, 6), (0, 3, 0), (0, -1, 1)])
def test_scale_below_refuses_bad_arguments(x: int, k: int, n: int) -> None:
    with pytest.raises(InvalidInput):
        scale_below(x, k, n)


class ScriptedSource:
    """Returns the given values from ``random_bits``, recording the bit counts asked for."""

    def __init__(self, values: Iterable[int]) -> None:
        self.values: Iterator[int] = iter(values)
        self.asked: list[int] = []

    def random_bits(self, k: int) -> int:
        self.asked.append(k)
        return next(self.values)


def test_below_rejects_and_draws_again() -> None:
    k = (6).bit_length() + EXTRA_BITS
    top = 2**k - 1  # in the rejected region, and top % 6 == 3
    source = ScriptedSource([top, 13])
    assert Rng(source).below(6) == 13 % 6
    assert source.asked == [k, k]


def test_below_refuses_an_empty_range() -> None:
    with pytest.raises(InvalidInput):
        Rng.seeded("x").below(0)


# --- Fisher–Yates: every sequence of draws, every permutation exactly once -----------


class TreeRng(Rng):
    """Follows a fixed path of ``below`` results, recording the range of each draw."""

    def __init__(self, path: list[int]) -> None:
        super().__init__(SystemSource())
        self.path = path
        self.ranges: list[int] = []

    def below(self, n: int) -> int:
        i = len(self.ranges)
        self.ranges.append(n)
        if i == len(self.path):
            self.path.append(0)
        return self.path[i]


def every_draw_sequence(run: Callable[[Rng], object]) -> list[object]:
    """``run`` once for every possible sequence of ``below`` results (depth-first)."""
    results: list[object] = []
    path: list[int] = []
    while True:
        rng = TreeRng(path)
        results.append(run(rng))
        del path[len(rng.ranges) :]
        while path and path[-1] + 1 == rng.ranges[len(path) - 1]:
            path.pop()
        if not path:
            return results
        path[-1] += 1


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_fisher_yates_gives_every_permutation_exactly_once(n: int) -> None:
    perms = every_draw_sequence(lambda rng: rng.permutation(n))
    assert Counter(perms) == Counter(itertools.permutations(range(n)))


def test_shuffle_applies_the_permutation() -> None:
    items = ["a", "b", "c", "d", "e"]
    perm = Rng.seeded("s").permutation(5)
    assert Rng.seeded("s").shuffle(items) == [items[p] for p in perm]
    assert items == ["a", "b", "c", "d", "e"]  # the input is not touched


def test_each_die_face_comes_from_exactly_one_draw() -> None:
    assert Counter(every_draw_sequence(lambda rng: rng.die())) == Counter(range(1, 7))


def test_dice_are_one_to_six_and_all_faces_appear() -> None:
    throws = Rng.seeded("dice").dice(600)
    assert len(throws) == 600
    assert set(throws) == {1, 2, 3, 4, 5, 6}


def test_dice_count_must_not_be_negative() -> None:
    with pytest.raises(InvalidInput):
        Rng.seeded("x").dice(-1)


# --- HMAC_DRBG: NIST CAVP vectors (SHA-256, no prediction resistance) -----------------
# From the CAVP HMAC_DRBG.rsp test files (drbgvs, SP 800-90A), [SHA-256], count 0 of each
# section. CAVP procedure: instantiate, (reseed,) generate 1024 bits, generate 1024 bits;
# ReturnedBits is the second output.

NIST_VECTORS = [
    pytest.param(
        "ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488",
        "659ba96c601dc69fc902940805ec0ca8",
        "",
        None,
        "e528e9abf2dece54d47c7e75e5fe302149f817ea9fb4bee6f4199697d04d5b89"
        "d54fbb978a15b5c443c9ec21036d2460b6f73ebad0dc2aba6e624abf07745bc1"
        "07694bb7547bb0995f70de25d6b29e2d3011bb19d27676c07162c8b5ccde0668"
        "961df86803482cb37ed6d5c0bb8d50cf1f50d476aa0458bdaba806f48be9dcb8",
        id="no-reseed-no-personalization",
    ),
    pytest.param(
        "5cacc68165a2e2ee20812f35ec73a79dbf30fd475476ac0c44fc6174cdac2b55",
        "6f885496c1e63af620becd9e71ecb824",
        "e72dd8590d4ed5295515c35ed6199e9d211b8f069b3058caa6670b96ef1208d0",
        None,
        "f1012cf543f94533df27fedfbf58e5b79a3dc517a9c402bdbfc9a0c0f721f9d5"
        "3faf4aafdc4b8f7a1b580fcaa52338d4bd95f58966a243cdcd3f446ed4bc546d"
        "9f607b190dd69954450d16cd0e2d6437067d8b44d19a6af7a7cfa8794e5fbd72"
        "8e8fb2f2e8db5dd4ff1aa275f35886098e80ff844886060da8b1e7137846b23b",
        id="no-reseed-personalization",
    ),
    pytest.param(
        "06032cd5eed33f39265f49ecb142c511da9aff2af71203bffaf34a9ca5bd9c0d",
        "0e66f71edc43e42a45ad3c6fc6cdc4df",
        "",
        "01920a4e669ed3a85ae8a33b35a74ad7fb2a6bb4cf395ce00334a9c9a5a5d552",
        "76fc79fe9b50beccc991a11b5635783a83536add03c157fb30645e611c2898bb"
        "2b1bc215000209208cd506cb28da2a51bdb03826aaf2bd2335d576d519160842"
        "e7158ad0949d1a9ec3e66ea1b1a064b005de914eac2e9d4f2d72a8616a802254"
        "22918250ff66a41bd2f864a6a38cc5b6499dc43f7f2bd09e1e0f8f5885935124",
        id="reseed",
    ),
]


@pytest.mark.parametrize(
    ("entropy", "nonce", "personalization", "reseed", "returned"), NIST_VECTORS
)
def test_hmac_drbg_matches_nist_cavp(
    entropy: str, nonce: str, personalization: str, reseed: str | None, returned: str
) -> None:
    drbg = HmacDrbg(bytes.fromhex(entropy), bytes.fromhex(nonce), bytes.fromhex(personalization))
    if reseed is not None:
        drbg.reseed(bytes.fromhex(reseed))
    drbg.generate(128)
    assert drbg.generate(128).hex() == returned


def _drbg() -> HmacDrbg:
    return HmacDrbg(b"e" * 32, b"n" * 16, b"p")


def test_random_bits_are_the_top_bits_of_generate() -> None:
    assert _drbg().random_bits(12) == int.from_bytes(_drbg().generate(2), "big") >> 4
    assert _drbg().random_bits(0) == 0


def test_additional_input_and_reseed_change_the_stream() -> None:
    plain = _drbg().generate(32)
    assert _drbg().generate(32, additional=b"a") != plain
    reseeded = _drbg()
    reseeded.reseed(b"r" * 32)
    assert reseeded.generate(32) != plain


def _generate_by_the_text(key: bytes, v: bytes, n_bytes: int, additional: bytes) -> bytes:
    """SP 800-90A 10.1.2.5 step by step with hmac.new: (key, V) to the request's bytes."""

    def mac(k: bytes, data: bytes) -> bytes:
        return hmac.new(k, data, hashlib.sha256).digest()

    def update(k: bytes, v: bytes, provided: bytes) -> tuple[bytes, bytes]:
        k = mac(k, v + b"\x00" + provided)
        v = mac(k, v)
        if provided:
            k = mac(k, v + b"\x01" + provided)
            v = mac(k, v)
        return k, v

    if additional:
        key, v = update(key, v, additional)
    out = b""
    while len(out) < n_bytes:
        v = mac(key, v)
        out += v
    return out[:n_bytes]


@pytest.mark.parametrize("n_bytes", [0, 1, 5, 31, 32, 33, 64, 65, 128, 1000, 65536])
@pytest.mark.parametrize("additional", [b"", b"a"])
def test_generate_of_many_blocks_is_hmac_block_after_block(n_bytes: int, additional: bytes) -> None:
    """Requests of more than one block take HMAC from the key's padded SHA-256 states: the
    same bytes as one ``hmac.new`` per block, and the same state after."""
    drbg, twin = _drbg(), _drbg()
    drbg.generate(7)
    twin.generate(7)
    expected = _generate_by_the_text(twin._key, twin._v, n_bytes, additional)
    assert drbg.generate(n_bytes, additional) == expected
    assert drbg.generate(40) == _drbg_after(twin, n_bytes, additional).generate(40)


def _drbg_after(drbg: HmacDrbg, n_bytes: int, additional: bytes) -> HmacDrbg:
    """``drbg`` advanced over a request one block at a time (the state the text leaves)."""
    if additional:
        drbg._update(additional)
    for _ in range(-(-n_bytes // HmacDrbg.OUTLEN)):
        drbg._v = drbg._hmac(drbg._v)
    drbg._update(additional)
    drbg._reseed_counter += 1
    return drbg


def test_hmac_drbg_refuses_oversized_requests() -> None:
    with pytest.raises(InvalidInput):
        _drbg().generate(HmacDrbg.MAX_BYTES_PER_REQUEST + 1)


# --- Seeded generators: golden values ------------------------------------------------
# These pin Rng.seeded (seed hashing, nonce, label), below's bit count and rejection, and
# the Fisher–Yates direction. If one changes, every recorded seeded round changes with it.

GOLDEN_BELOW_52 = [39, 10, 11, 31, 23, 31, 12, 42, 31, 25, 48, 16, 23, 19, 50, 18]
GOLDEN_PERMUTATION_52 = (
    9, 24, 37, 7, 29, 28, 47, 30, 13, 35, 8, 21, 5, 19, 17, 14, 33, 50, 23, 22, 48, 2, 12, 46,
    49, 27, 44, 45, 18, 25, 32, 20, 4, 42, 0, 38, 16, 36, 6, 43, 15, 10, 41, 31, 40, 26, 34,
    51, 1, 3, 11, 39,
)  # fmt: skip
GOLDEN_DICE = (3, 4, 4, 4, 5, 2, 6, 2, 3, 3)


def test_seeded_golden_draws() -> None:
    rng = Rng.seeded("test-seed")
    assert [rng.below(52) for _ in range(16)] == GOLDEN_BELOW_52
    assert Rng.seeded("test-seed").permutation(52) == GOLDEN_PERMUTATION_52
    assert Rng.seeded("test-seed").dice(10) == GOLDEN_DICE


def test_same_seed_same_draws_and_str_seed_is_its_utf8() -> None:
    a, b, c = Rng.seeded("澳門", "x"), Rng.seeded("澳門", "x"), Rng.seeded("澳門".encode(), "x")
    assert a.permutation(52) == b.permutation(52) == c.permutation(52)


def test_a_different_label_or_seed_gives_different_draws() -> None:
    base = Rng.seeded("seed", "a").permutation(52)
    assert Rng.seeded("seed", "b").permutation(52) != base
    assert Rng.seeded("seed2", "a").permutation(52) != base


def test_seed_and_label_do_not_run_together() -> None:
    """("ab", "") and ("a", "b") must differ: the seed is hashed to a fixed length."""
    assert Rng.seeded("ab").permutation(52) != Rng.seeded("a", "b").permutation(52)


def test_system_rng_draws_in_range() -> None:
    rng = Rng.system()
    assert all(0 <= rng.below(52) < 52 for _ in range(200))
    assert sorted(rng.permutation(52)) == list(range(52))
    assert SystemSource().random_bits(0) == 0
    assert all(0 <= SystemSource().random_bits(5) < 32 for _ in range(200))


# --- Commit–reveal -------------------------------------------------------------------


def test_commit_reveal_round_trip() -> None:
    seed = new_server_seed()
    assert len(seed) == 32
    assert new_server_seed() != seed
    published = commitment(seed)
    assert published == hashlib.sha256(seed).hexdigest()
    assert verify_reveal(seed, published)
    assert verify_reveal(seed, published.upper())
    # Anyone re-derives the round from the revealed seed.
    assert Rng.for_round(seed, "r1").dice(20) == Rng.for_round(seed, "r1").dice(20)
    assert Rng.for_round(seed, "r1").permutation(52) != Rng.for_round(seed, "r2").permutation(52)


def test_a_tampered_seed_fails_the_reveal() -> None:
    seed = new_server_seed()
    published = commitment(seed)
    tampered = bytes([seed[0] ^ 1]) + seed[1:]
    assert not verify_reveal(tampered, published)
    assert not verify_reveal(seed, "é" * 64)


def test_for_round_is_seeded_with_the_round_label() -> None:
    seed = bytes(range(32))
    assert Rng.for_round(seed, "r7").permutation(52) == Rng.seeded(seed, "round:r7").permutation(52)


def test_for_round_refuses_a_guessable_seed() -> None:
    with pytest.raises(InvalidInput):
        Rng.for_round(b"short", "r1")
