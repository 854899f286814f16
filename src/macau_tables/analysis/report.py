"""PAR sheets rendered for people: a self-contained HTML report and a Markdown table.

The HTML report needs nothing beside itself: styles are inline and each bet's outcome
distribution is a matplotlib bar chart embedded as a base64 PNG (the ``report`` extra).
"""

from __future__ import annotations

import base64
import html
import io
from fractions import Fraction

from macau_tables.analysis.par import BetLine, ParSheet, decimal, frac_json, percent
from macau_tables.core.errors import InvalidInput
from macau_tables.core.money import Money, currency_by_code


def outcome_summary(line: BetLine, places: int = 4) -> str:
    """``win 45.8597% · lose 44.6247% · push 9.5156%`` (labels merged, in first-seen order)."""
    labels: list[str] = []
    for o in line.outcomes:
        if o.label not in labels:
            labels.append(o.label)
    return " · ".join(f"{lab} {percent(line.probability(lab), places)}" for lab in labels)


def win_lose_push(line: BetLine) -> tuple[Fraction, Fraction, Fraction]:
    """P(the bet wins something), P(it loses), P(it pushes): outcomes grouped by net's sign."""
    win = sum((o.probability for o in line.outcomes if o.net > 0), Fraction(0))
    lose = sum((o.probability for o in line.outcomes if o.net < 0), Fraction(0))
    return win, lose, 1 - win - lose


def extras_text(line: BetLine) -> str:
    """The line's extra figures as one short text (edges and probabilities as percents)."""
    return ", ".join(f"{k} {_extra_value(k, v)}" for k, v in line.extras.items())


def _extra_value(key: str, value: Fraction) -> str:
    if "edge" in key or key.startswith("p_"):
        return percent(value, 4)
    return decimal(value, 4)


def markdown_table(sheet: ParSheet) -> str:
    """The sheet as a Markdown table (used for docs/analysis.md)."""
    rows = [
        "| bet | rule | pays | P(win) | P(lose) | P(push) | house edge | std dev | more |",
        "|---|---|---|--:|--:|--:|--:|--:|---|",
    ]
    for b in sheet.lines:
        w, lo, pu = win_lose_push(b)
        rows.append(
            f"| {b.name} | {b.rule or ''} | {b.pays or ''} | {percent(w, 4)} | "
            f"{percent(lo, 4)} | {percent(pu, 4)} | "
            f"{percent(b.house_edge, 4)} | {b.std_dev:.4f} | {extras_text(b)} |"
        )
    return "\n".join(rows)


def _plot_png(line: BetLine) -> str:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - the report extra is part of dev
        raise InvalidInput("--html needs matplotlib: pip install 'macau-tables[report]'") from exc
    nets = sorted({o.net for o in line.outcomes})
    probs = [float(sum(o.probability for o in line.outcomes if o.net == n)) for n in nets]
    labels = []
    for n in nets:
        names = sorted({o.label for o in line.outcomes if o.net == n})
        labels.append(f"{'/'.join(names)}\n{_net_text(n)}")
    fig, ax = plt.subplots(figsize=(max(3.2, 1.1 * len(nets) + 1.5), 2.4), dpi=100)
    colors = ["#b03a2e" if n < 0 else "#7f8c8d" if n == 0 else "#1e8449" for n in nets]
    ax.bar(range(len(nets)), probs, color=colors)
    ax.set_xticks(range(len(nets)), labels, fontsize=8)
    ax.set_ylabel("probability", fontsize=8)
    ax.set_title(line.name, fontsize=9)
    ax.tick_params(axis="y", labelsize=8)
    for i, p in enumerate(probs):
        ax.annotate(f"{p:.2%}", (i, p), ha="center", va="bottom", fontsize=7)
    ax.set_ylim(0, max(probs) * 1.18)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _net_text(net: Fraction) -> str:
    if net.denominator == 1:
        return f"{int(net):+d}"
    return f"{'+' if net > 0 else '-'}{abs(net.numerator)}/{net.denominator}"


_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem;color:#222;
max-width:72rem}
h1{font-size:1.4rem;margin-bottom:.2rem} .sub{color:#555;margin-top:0}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}
th,td{border:1px solid #ccc;padding:.3rem .6rem;text-align:left;vertical-align:top}
th{background:#f3f3f3} td.num{text-align:right;font-variant-numeric:tabular-nums}
.bets{display:flex;flex-wrap:wrap;gap:1rem}
.bet{border:1px solid #ddd;padding:.5rem;border-radius:6px}
.bet img{display:block} code{font-size:.85rem} .exact{color:#555;font-size:.8rem}
"""


def html_report(sheet: ParSheet, *, command: str | None = None) -> str:
    """A self-contained HTML PAR report: options, the sheet, exact fractions, one plot per bet."""
    e = html.escape
    code = sheet.options.get("currency", "MOP")
    opts = "".join(
        f"<tr><th>{e(_option_name(k))}</th><td>{e(_option_value(k, v, code))}</td></tr>"
        for k, v in sheet.options.items()
    )
    title = sheet.title if "PAR sheet" in sheet.title else f"{sheet.title} — PAR sheet"
    rows = []
    for b in sheet.lines:
        rows.append(
            "<tr>"
            f"<td>{e(b.name)}</td><td>{e(b.rule or '')}</td><td>{e(b.pays or '')}</td>"
            f"<td>{e(outcome_summary(b))}</td>"
            f"<td class=num>{e(percent(b.house_edge, 4))}"
            f"<div class=exact>{e(frac_json(b.house_edge))}</div></td>"
            f"<td class=num>{b.std_dev:.4f}</td><td>{e(extras_text(b))}</td>"
            "</tr>"
        )
    exact_rows = []
    for b in sheet.lines:
        for o in b.outcomes:
            count = "" if o.count is None else f"{o.count:,}"
            exact_rows.append(
                f"<tr><td>{e(b.name)}</td><td>{e(o.label)}</td><td class=num>{e(_net_text(o.net))}"
                f"</td><td class=num>{e(frac_json(o.probability))}</td>"
                f"<td class=num>{e(decimal(o.probability, 10))}</td><td class=num>{count}</td></tr>"
            )
    plots = "".join(
        f'<div class=bet><img alt="{e(b.name)} outcome distribution" '
        f'src="data:image/png;base64,{_plot_png(b)}"></div>'
        for b in sheet.lines
    )
    notes = "".join(f"<li>{e(n)}</li>" for n in sheet.notes)
    total = f"<p>Counted over {sheet.total:,} equally likely deals.</p>" if sheet.total else ""
    cmd = f"<p class=sub>Generated by <code>{e(command)}</code></p>" if command else ""
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>
<style>{_CSS}</style></head><body>
<h1>{e(title)}</h1>{cmd}
<p class=sub>macau-tables exact analysis: every figure is enumerated, not sampled.
Edges are per unit staked; a negative house edge favours the bettor.</p>
<h2>Rule set</h2><table>{opts}</table>{total}
<h2>Bets</h2>
<table><tr><th>bet</th><th>rule</th><th>pays</th><th>outcomes</th><th>house edge</th>
<th>std dev</th><th>more</th></tr>{"".join(rows)}</table>
<h2>Outcome distributions</h2><div class=bets>{plots}</div>
<h2>Exact figures</h2>
<table><tr><th>bet</th><th>outcome</th><th>net per unit</th><th>probability (exact)</th>
<th>decimal</th><th>count</th></tr>{"".join(exact_rows)}</table>
<h2>Notes</h2><ul>{notes}</ul>
</body></html>
"""


#: options that are amounts, held in minor units (avos): shown as money
MONEY_OPTIONS = frozenset({"min_bet", "max_bet", "big_unit", "differential_limit"})


def _option_name(key: object) -> str:
    """``min_bet`` as ``min bet``."""
    return str(key).replace("_", " ")


def _option_value(key: object, value: object, currency_code: object) -> str:
    """An amount in minor units as money (``min_bet 100`` → ``MOP$1.00``), else as written."""
    if key in MONEY_OPTIONS and isinstance(value, int) and not isinstance(value, bool):
        try:
            currency = currency_by_code(str(currency_code))
        except InvalidInput:
            return _option_text(value)
        if key in ("min_bet", "max_bet") and value == 0:
            return "none"
        return Money(value, currency).format()
    return _option_text(value)


def _option_text(value: object) -> str:
    """An option as people write it: ``player 1:1, tie 8:1`` for a mapping, 1/20 as is."""
    if isinstance(value, dict) and not value:
        return "the regulation's"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_option_text(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_option_text(v) for v in value)
    return str(value)
