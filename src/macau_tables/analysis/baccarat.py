"""Exact baccarat PAR sheets: every ordered deal of six cards from any shoe.

:func:`baccarat_par` gives the five bets of BA-13 — Banker, Player, Tie, Banker Pair, Player
Pair — with exact outcome counts, probabilities, house edge and standard deviation, for a
full shoe of 6 to 12 decks (BA-1) or any depleted one (card removal), under the table's
options: commission (BA-18, exact 5% by default), no-commission (BA-R7), continuous shuffler
(BA-2.3, BA-7.2, BA-R4), the Tie and Pair pays of BA-17.

Counting convention (the standard one, used by every published baccarat count): outcomes
are counted out of the ``n (n-1) (n-2) (n-3) (n-4) (n-5)`` ordered deals of six cards from
the ``n`` left in the shoe; a hand that uses only four or five cards counts every ordering
of the cards it leaves unused. Each ordered deal is equally likely, so ``count / total`` is
the exact probability.

Two enumerators give the same :class:`DealCounts`:

* :func:`count_deals` — the compiled kernel
  (:mod:`macau_tables.analysis.kernels.baccarat_exact`), over card values, in well under a
  millisecond for any shoe; needs the ``fast`` extra (numpy, numba), imported on first use.
* :func:`count_deals_readable` — plain Python that deals each hand with the engine's own
  :func:`~macau_tables.games.baccarat.play_out` (BA-7.1, BA-9) and scores it with
  :func:`~macau_tables.games.baccarat.total`, :func:`~macau_tables.games.baccarat.outcome`
  and :func:`~macau_tables.games.baccarat.is_pair`; seconds for a full shoe. The tests hold
  the kernel to it exactly.

:func:`parse_composition` reads a shoe from text for the CLI (pure Python).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from macau_tables.analysis import tablecache
from macau_tables.analysis.par import BetLine, Outcome, ParSheet, decimal, frac_json, percent
from macau_tables.core.errors import InvalidInput
from macau_tables.games.baccarat import (
    MAX_DECKS,
    MIN_DECKS,
    NO_COMMISSION_BANKER_SIX,
    PAYS,
    RANKS,
    BaccaratRules,
    BetKind,
    Card,
    Composition,
    fresh_composition,
    is_pair,
    outcome,
    play_out,
    total,
)

GAME = "baccarat"
CARDS_PER_HAND = 6  # BA-7.1 four cards, BA-9 at most one more each
Method = Literal["fast", "readable"]


# ==========================================================================================
# Compositions: validation (BA-1) and text (for the CLI)
# ==========================================================================================


def check_composition(comp: Sequence[int], decks: int | None = None) -> Composition:
    """A shoe's composition, checked: 13 counts (ace … king), none negative (BA-1), at least
    the six cards a hand can need (BA-7.1, BA-9), and — with ``decks`` — no rank beyond the
    ``4 * decks`` cards that many 52-card decks hold (BA-1). Raises :class:`InvalidInput`."""
    counts = tuple(comp)
    if len(counts) != len(RANKS):
        raise InvalidInput(
            f"a composition has 13 counts, ace to king, not {len(counts)}", rule="BA-1"
        )
    for rank, k in zip(RANKS, counts, strict=True):
        if isinstance(k, bool) or not isinstance(k, int):
            raise InvalidInput(f"rank {rank}: count {k!r} is not a whole number", rule="BA-1")
        if k < 0:
            raise InvalidInput(f"rank {rank}: {k} cards, a count cannot be negative", rule="BA-1")
    if decks is not None:
        if not MIN_DECKS <= decks <= MAX_DECKS:
            raise InvalidInput(f"{decks} decks: 6 to 12", rule="BA-1")
        for rank, k in zip(RANKS, counts, strict=True):
            if k > 4 * decks:
                raise InvalidInput(
                    f"rank {rank}: {k} cards, more than {decks} decks hold ({4 * decks})",
                    rule="BA-1",
                )
    n = sum(counts)
    if n < CARDS_PER_HAND:
        raise InvalidInput(
            f"{n} cards left: a hand can need {CARDS_PER_HAND} (four dealt, BA-7.1, and a "
            "third card each, BA-9)",
            rule="BA-9",
        )
    return counts


def _rank_of(token: str) -> int:
    """``"A"``, ``"t"``, ``"10"``, or a card such as ``"As"`` / ``"10d"`` (suit ignored) →
    rank 1 … 13."""
    t = token.strip().upper()
    if len(t) >= 2 and t[-1] in "CDHS":
        t = t[:-1]
    if t == "10":
        t = "T"
    if len(t) != 1 or t not in RANKS:
        raise InvalidInput(f"not a rank: {token!r} (A 2-9 T J Q K, or a card like 'As')")
    return RANKS.index(t) + 1


_DECKS_RE = re.compile(r"^\s*(\d+)\s*decks?\s*(?:minus\s*(.*))?$", re.IGNORECASE | re.DOTALL)
_MINUS_RE = re.compile(r"^\s*minus\s*(.*)$", re.IGNORECASE | re.DOTALL)


def parse_composition(text: str, decks: int | None = None) -> Composition:
    """A shoe from text, in one of three forms (case and spacing free):

    * ``"8 decks"`` — a full shoe (BA-1: 6 to 12 decks); ``"8 decks minus A,A,K,5"`` — that
      shoe less the cards listed, by rank (``A 2 … 9 T J Q K``, ``10`` for ``T``) or as cards
      (``"As Kd 10h"``; suits are ignored), separated by commas or spaces, repeated as often
      as they were dealt. ``"minus A,A,K,5"`` alone takes the shoe of ``decks`` decks.
    * ``"A=31,2=32,3=32,4=32,5=31,6=32,7=32,8=32,9=32,T=32,J=32,Q=32,K=31"`` — every rank's
      count, each of the 13 ranks exactly once, in any order.
    * ``"31,32,32,32,31,32,32,32,32,32,32,32,31"`` — the 13 counts, ace to king.

    The result is checked (:func:`check_composition`) against ``decks``, or the decks the
    text names. Raises :class:`InvalidInput` on anything else, or when ``decks`` and the
    text disagree.
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidInput("an empty composition (try '8 decks minus A,K' or 'A=32,…,K=32')")
    named = _DECKS_RE.match(text)
    minus = _MINUS_RE.match(text)
    if named or minus:
        if named:
            n_decks = int(named.group(1))
            if decks is not None and decks != n_decks:
                raise InvalidInput(f"the composition says {n_decks} decks, the table {decks}")
            removed_text = named.group(2)
        else:
            assert minus is not None
            if decks is None:
                raise InvalidInput("'minus …' needs the number of decks (e.g. '8 decks minus A')")
            n_decks, removed_text = decks, minus.group(1)
        if not MIN_DECKS <= n_decks <= MAX_DECKS:
            raise InvalidInput(f"{n_decks} decks: 6 to 12", rule="BA-1")
        counts = list(fresh_composition(n_decks))
        tokens = (removed_text or "").replace(",", " ").split()
        if named and named.group(2) is not None and not tokens:
            raise InvalidInput("'minus' lists no cards")
        for token in tokens:
            r = _rank_of(token)
            counts[r - 1] -= 1
            if counts[r - 1] < 0:
                raise InvalidInput(
                    f"more {RANKS[r - 1]}s removed than {n_decks} decks hold ({4 * n_decks})",
                    rule="BA-1",
                )
        return check_composition(counts, n_decks)
    items = [t for t in re.split(r"[,\s]+", text.strip()) if t]
    if all("=" in t for t in items):
        found: dict[int, int] = {}
        for item in items:
            key, _, value = item.partition("=")
            r = _rank_of(key)
            if r in found:
                raise InvalidInput(f"rank {RANKS[r - 1]} given twice")
            found[r] = _count(value)
        missing = [RANKS[r - 1] for r in range(1, 14) if r not in found]
        if missing:
            raise InvalidInput(f"no count for rank(s) {' '.join(missing)}: give all 13")
        return check_composition(tuple(found[r] for r in range(1, 14)), decks)
    if any("=" in t for t in items):
        raise InvalidInput("give every rank as RANK=COUNT, or 13 bare counts — not a mix")
    if len(items) != len(RANKS):
        raise InvalidInput(
            f"{len(items)} counts: give 13, ace to king (or 'RANK=COUNT' pairs, or '8 decks')"
        )
    return check_composition(tuple(_count(t) for t in items), decks)


def _count(text: str) -> int:
    t = text.strip()
    if not (t.isascii() and t.isdigit()):
        raise InvalidInput(f"not a card count: {text!r}", rule="BA-1")
    return int(t)


def format_composition(comp: Composition) -> str:
    """``"A=32,2=32,…,K=31"``: the form :func:`parse_composition` reads back."""
    return ",".join(f"{r}={k}" for r, k in zip(RANKS, comp, strict=True))


# ==========================================================================================
# Counting deals
# ==========================================================================================


def ordered_deals(n: int, k: int = CARDS_PER_HAND) -> int:
    """``n (n-1) … (n-k+1)``: the ordered ways to deal ``k`` of ``n`` cards."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


@dataclass(frozen=True)
class DealCounts:
    """Exact counts of the ordered six-card deals from ``composition`` (see the module's
    convention). ``totals[pt][bt]``: deals whose hand ends with Player on ``pt`` and Banker
    on ``bt`` (BA-5 totals, after BA-9's third cards); ``player_pair`` / ``banker_pair``:
    deals whose side's first two cards are of one rank (BA-13)."""

    composition: Composition
    total: int
    totals: tuple[tuple[int, ...], ...]
    player_pair: int
    banker_pair: int

    @property
    def cards(self) -> int:
        return sum(self.composition)

    def result(self, result: str, banker_total: int | None = None) -> int:
        """Deals that end in ``result`` — ``"B"``, ``"P"`` or ``"T"`` as the engine's
        :func:`~macau_tables.games.baccarat.outcome` decides it (BA-11, BA-12) — optionally
        with Banker on ``banker_total``."""
        return sum(
            self.totals[p][b]
            for p in range(10)
            for b in range(10)
            if outcome(p, b) == result and banker_total in (None, b)
        )

    @property
    def banker(self) -> int:
        """BA-11: Banker's total is higher."""
        return self.result("B")

    @property
    def player(self) -> int:
        """BA-11: Player's total is higher."""
        return self.result("P")

    @property
    def tie(self) -> int:
        """BA-12: equal totals."""
        return self.result("T")

    @property
    def banker_six(self) -> int:
        """Banker wins with a total of 6 (the BA-R7 half-paid win)."""
        return self.result("B", 6)

    def tie_on(self, t: int) -> int:
        """Ties on the total ``t``."""
        return self.totals[t][t]


def _value_counts(comp: Composition) -> list[int]:
    """By BA-5 value: index 0 holds tens and faces, 1 … 9 ace … nine."""
    out = [0] * 10
    for rank, k in zip(range(1, 14), comp, strict=True):
        out[rank if rank < 10 else 0] += k
    return out


def _pair_count(comp: Composition) -> int:
    """BA-13: ordered six-card deals whose first two cards of one side share a rank —
    ``sum_r c_r (c_r - 1)`` ordered pairs of one rank, times ``(n-2) … (n-5)`` for the other
    four cards. The same for Player (cards 1, 3) and Banker (cards 2, 4): every position of
    an ordered deal is alike."""
    n = sum(comp)
    return sum(k * (k - 1) for k in comp) * ordered_deals(n - 2, CARDS_PER_HAND - 2)


#: the code the full-shoe counts are made from (:mod:`macau_tables.analysis.tablecache`)
TABLE_SOURCES = (
    "games/baccarat.py",
    "analysis/baccarat.py",
    "analysis/tablecache.py",
    "analysis/kernels/baccarat_exact.py",
)


def _kernel_totals(comp: Composition) -> tuple[tuple[int, ...], ...]:
    from macau_tables.analysis.kernels.baccarat_exact import MAX_CARDS, totals_matrix

    n = sum(comp)
    if n > MAX_CARDS:
        raise InvalidInput(f"{n} cards: more than {MAX_DECKS} decks hold", rule="BA-1")
    return totals_matrix(_value_counts(comp))


def count_deals(comp: Composition) -> DealCounts:
    """Exact counts by the compiled kernel (numba; the first call in a fresh cache compiles
    it, about a second). ``comp`` must pass :func:`check_composition` with at most 12 decks'
    cards (the kernel's int64 bound).

    A full shoe of 6 to 12 decks is counted once and then read from the table cache
    (:mod:`macau_tables.analysis.tablecache`, keyed by a hash of this code and the engine's):
    the PAR sheet every table starts from needs neither numpy nor numba after that."""
    comp = check_composition(comp)
    n = sum(comp)
    decks, rest = divmod(n, 52)
    if not rest and MIN_DECKS <= decks <= MAX_DECKS and comp == fresh_composition(decks):
        rows = tablecache.json_value(
            "baccarat-full-shoe",
            {"decks": decks},
            TABLE_SOURCES,
            lambda: [list(row) for row in _kernel_totals(comp)],
        )
        totals = tuple(tuple(int(x) for x in row) for row in rows)
    else:
        totals = _kernel_totals(comp)
    pairs = _pair_count(comp)
    return DealCounts(comp, ordered_deals(n), totals, pairs, pairs)


_CARD_OF_RANK = tuple(Card(rank, "s") for rank in range(1, 14))


class _NeedCard(Exception):
    """The hand asked for a card beyond the prefix being played."""


def count_deals_readable(comp: Composition) -> DealCounts:
    """Exact counts in plain Python, by the engine's own rules: the hand is dealt by
    :func:`~macau_tables.games.baccarat.play_out` (BA-7.1, BA-9) from every sequence of
    ranks it can ask for, each weighted by its ordered ways from the shoe and by the
    orderings of the cards it leaves unused (the module's convention)."""
    comp = check_composition(comp)
    n = sum(comp)
    left = list(comp)
    totals = [[0] * 10 for _ in range(10)]
    pairs = {"player": 0, "banker": 0}

    def deal(prefix: tuple[Card, ...], ways: int) -> None:
        cards = iter(prefix)

        def draw() -> Card:
            card = next(cards, None)
            if card is None:
                raise _NeedCard
            return card

        try:
            player, banker = play_out(draw)
        except _NeedCard:  # the hand needs one more card: try each rank still in the shoe
            for rank, k in enumerate(left):
                if k:
                    left[rank] -= 1
                    deal((*prefix, _CARD_OF_RANK[rank]), ways * k)
                    left[rank] += 1
            return
        weight = ways * ordered_deals(n - len(prefix), CARDS_PER_HAND - len(prefix))
        totals[total(player)][total(banker)] += weight
        pairs["player"] += weight if is_pair(player) else 0
        pairs["banker"] += weight if is_pair(banker) else 0

    deal((), 1)
    return DealCounts(
        comp,
        ordered_deals(n),
        tuple(tuple(row) for row in totals),
        pairs["player"],
        pairs["banker"],
    )


# ==========================================================================================
# The PAR sheet
# ==========================================================================================


def _outcomes(items: Iterable[tuple[str, Fraction, int]], n: int) -> tuple[Outcome, ...]:
    return tuple(Outcome(label, net, Fraction(k, n), k) for label, net, k in items if k)


def _ratio(x: Fraction) -> str:
    """A pay as ``"a:b"`` (``8:1``, ``1:2``, ``19:20``)."""
    return f"{x.numerator}:{x.denominator}"


def par_lines(counts: DealCounts, rules: BaccaratRules) -> tuple[BetLine, ...]:
    """The five bets of BA-13 from exact counts, under the table's pays (BA-17), commission
    (BA-18, BA-R5) or no-commission (BA-R7)."""
    n = counts.total
    b, p, t = counts.banker, counts.player, counts.tie
    resolved = Fraction(n - t, n)  # hands that settle Player/Banker bets (BA-12: ties push)

    pays_main = Fraction(PAYS[BetKind.BANKER])
    if rules.no_commission:  # BA-R7: 1:1, but a Banker win on 6 pays 1:2
        six = counts.banker_six
        banker_wins: list[tuple[str, Fraction, int]] = [
            ("win", pays_main, b - six),
            ("win on 6", NO_COMMISSION_BANKER_SIX, six),
        ]
        banker_pays = f"{_ratio(pays_main)}, {_ratio(NO_COMMISSION_BANKER_SIX)} on a Banker 6"
        banker_rule = "BA-11, BA-12, BA-17, BA-R7"
    else:  # BA-18: the house keeps the commission of the win
        net = pays_main * (1 - rules.commission)
        banker_wins = [("win", net, b)]
        banker_pays = f"{_ratio(pays_main)} less {percent(rules.commission, 2)} commission"
        banker_rule = "BA-11, BA-12, BA-17, BA-18"
    banker = BetLine(
        "banker",
        _outcomes([*banker_wins, ("push", Fraction(0), t), ("lose", Fraction(-1), p)], n),
        rule=banker_rule,
        pays=banker_pays,
    )
    player = BetLine(
        "player",
        _outcomes(
            [
                ("win", Fraction(PAYS[BetKind.PLAYER]), p),
                ("push", Fraction(0), t),
                ("lose", Fraction(-1), b),
            ],
            n,
        ),
        rule="BA-11, BA-12, BA-17",
        pays=_ratio(Fraction(PAYS[BetKind.PLAYER])),
    )
    banker, player = (
        replace(line, extras={"edge_excluding_ties": line.house_edge / resolved})
        for line in (banker, player)
    )
    tie_pays = Fraction(PAYS[BetKind.TIE])
    tie = BetLine(
        "tie",
        _outcomes([("win", tie_pays, t), ("lose", Fraction(-1), b + p)], n),
        rule="BA-12, BA-17",
        pays=_ratio(tie_pays),
    )
    pair_lines = []
    for kind, k in (
        (BetKind.BANKER_PAIR, counts.banker_pair),
        (BetKind.PLAYER_PAIR, counts.player_pair),
    ):
        pays = Fraction(PAYS[kind])
        pair_lines.append(
            BetLine(
                str(kind),
                _outcomes([("win", pays, k), ("lose", Fraction(-1), n - k)], n),
                rule="BA-13, BA-17",
                pays=_ratio(pays),
            )
        )
    return (banker, player, tie, *pair_lines)


def baccarat_par(
    rules: BaccaratRules | None = None,
    composition: Sequence[int] | None = None,
    *,
    decks: int | None = None,
    method: Method = "fast",
) -> ParSheet:
    """The exact PAR sheet of the five bets of BA-13 for one hand dealt from a shoe.

    ``rules``: the table (default :class:`BaccaratRules`: 8 decks, 5% commission); ``decks``
    overrides ``rules.decks``. ``composition``: the 13 rank counts (ace … king) of the cards
    left in the shoe (default: the full ``decks``), checked against the decks (BA-1, BA-9;
    see :func:`check_composition`). ``method``: ``"fast"`` (the compiled kernel) or
    ``"readable"`` (the engine's own dealing, seconds per full shoe) — same figures.

    Continuous shuffler (``rules.continuous_shuffler``; BA-2.3, BA-7.2, BA-R4): every hand
    is dealt from the full set of decks, freshly shuffled, so there is no card removal and
    every hand's PAR is the full-composition figure. A depleted ``composition`` contradicts
    it and raises :class:`InvalidInput` (BA-R4).

    A hand dealt deep into a shoe (BA-2.1 … BA-3.1, BA-8: cut card, burns, earlier hands)
    has the PAR of what is left: pass that composition.
    """
    rules = rules or BaccaratRules()
    if decks is not None and decks != rules.decks:
        rules = replace(rules, decks=decks)  # BaccaratRules checks 6–12 (BA-1)
    full = fresh_composition(rules.decks)
    if composition is None:
        comp = full
    else:
        comp = check_composition(composition, rules.decks)
        if rules.continuous_shuffler and comp != full:
            raise InvalidInput(
                "a continuous shuffler deals every hand from the full set of decks: "
                "no depleted composition",
                rule="BA-R4",
            )
    if method not in ("fast", "readable"):
        raise InvalidInput(f"method {method!r}: 'fast' or 'readable'")
    counting: Callable[[Composition], DealCounts] = (
        count_deals if method == "fast" else count_deals_readable
    )
    counts = counting(comp)
    return _sheet(counts, rules, comp == full)


def _sheet(counts: DealCounts, rules: BaccaratRules, full: bool) -> ParSheet:
    n = counts.total
    lines = par_lines(counts, rules)
    b, p, t = (Fraction(k, n) for k in (counts.banker, counts.player, counts.tie))
    shoe = f"{rules.decks} decks" if full else f"{counts.cards} cards left of {rules.decks} decks"
    if rules.continuous_shuffler:
        shoe += ", continuous shuffler"
    terms = (
        "no commission, Banker 6 pays 1:2"
        if rules.no_commission
        else f"{percent(rules.commission, 2)} commission"
    )
    rounded = "1:2 pay on a Banker 6 (BA-R7)" if rules.no_commission else "commission (BA-18)"
    options = {
        "decks": rules.decks,
        "cards": counts.cards,
        "composition": format_composition(counts.composition),
        "full_shoe": full,
        "continuous_shuffler": rules.continuous_shuffler,
        "commission": frac_json(rules.commission),
        "no_commission": rules.no_commission,
        "pays": {str(k): _ratio(Fraction(v)) for k, v in PAYS.items()},
    }
    notes = [
        f"{n:,} ordered deals of six cards from {counts.cards} cards; a hand of four or five "
        "cards counts every ordering of the unused ones",
        f"P(Banker wins) = {counts.banker:,}/{n:,} = {decimal(b, 10)}",
        f"P(Player wins) = {counts.player:,}/{n:,} = {decimal(p, 10)}",
        f"P(Tie) = {counts.tie:,}/{n:,} = {decimal(t, 10)}",
        f"P(Banker wins with 6) = {counts.banker_six:,}/{n:,} = "
        f"{decimal(Fraction(counts.banker_six, n), 10)}",
        "P(Tie) by total: "
        + ", ".join(f"{k}: {decimal(Fraction(counts.tie_on(k), n), 6)}" for k in range(10)),
        "Banker and Player bets push on a tie (BA-12); edge_excluding_ties is the house edge "
        "per hand that settles them",
        f"exact per unit staked; on real stakes the {rounded} is rounded to the minor unit "
        f"({rules.commission_rounding.value}, BA-R5): less than one minor unit a winning bet",
    ]
    if rules.continuous_shuffler:
        notes.append(
            "continuous shuffler (BA-2.3, BA-7.2, BA-R4): each hand is dealt from the full, "
            "freshly shuffled set of decks — no card removal, so every hand has this "
            "full-shoe PAR"
        )
    elif full:
        notes.append(
            "the first hand of a shoe; later hands have the PAR of the cards left "
            "(pass the composition)"
        )
    return ParSheet(
        game=GAME,
        title=f"Baccarat, {shoe}, {terms}",
        options=options,
        lines=lines,
        total=n,
        notes=tuple(notes),
    )
