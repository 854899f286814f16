"""The pages that need no table server, in Chromium: PAR viewer, log-in form, language switch,
keyboard, the SVG road maps drawn from Python's cells, and axe on each at two widths."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from macau_tables.analysis.baccarat import baccarat_par
from macau_tables.analysis.craps import craps_par
from macau_tables.analysis.par import percent
from macau_tables.games.baccarat.roads import parse_shoe, roads
from tests.web.harness import DESKTOP, PHONE, Watched, axe_violations

Open = Callable[..., Watched]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
@pytest.mark.parametrize(
    "path",
    ["/login", "/par?game=craps", "/par?game=baccarat&lang=zh", "/par?game=craps&lang=pt"],
)
def test_page_has_no_serious_accessibility_violation(
    standalone: str, watched: Open, path: str, viewport: dict[str, int]
) -> None:
    w = watched(viewport)
    w.page.goto(standalone + path)
    if path.startswith("/par"):
        w.page.wait_for_selector("#sheet table")
    assert axe_violations(w.page) == []
    # readable at phone width: nothing wider than the screen but the scrolling tables
    width = w.page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]


def test_par_viewer_shows_the_exact_sheet_of_the_chosen_rules(
    standalone: str, watched: Open
) -> None:
    w = watched()
    w.page.goto(standalone + "/par?game=craps")
    w.page.wait_for_selector("#sheet table")
    sheet = craps_par()
    rows = w.page.locator("#sheet tbody tr:not(.plot)")
    assert rows.count() == len(sheet.lines)
    first = sheet.lines[0]
    cells = rows.nth(0).locator("td")
    assert rows.nth(0).locator("th").inner_text() == first.name
    assert cells.nth(5).inner_text() == percent(first.house_edge, 4)
    # the odds cap changes the sheet (htmx re-fetches the fragment on change)
    w.page.select_option("#odds_cap", "stake")
    w.page.wait_for_selector("#sheet :text('odds_cap stake')")


def test_par_baccarat_banker_edge_by_decks(standalone: str, watched: Open) -> None:
    from macau_tables.games.baccarat import BaccaratRules

    w = watched()
    w.page.goto(standalone + "/par?game=baccarat")
    w.page.wait_for_selector("#sheet table")
    w.page.select_option("#decks", "6")
    w.page.wait_for_selector("#sheet :text('decks 6')")
    sheet = baccarat_par(BaccaratRules(decks=6))
    rows = w.page.locator("#sheet tbody tr:not(.plot)")
    for i, line in enumerate(sheet.lines):
        assert rows.nth(i).locator("th").inner_text() == line.name
        assert rows.nth(i).locator("td").nth(5).inner_text() == percent(line.house_edge, 4)
    assert sheet.line("banker").house_edge != baccarat_par().line("banker").house_edge
    w.page.click("header .lang")  # the regulation's names in Chinese
    w.page.wait_for_selector("#sheet table")
    assert w.page.locator("#sheet tbody th").first.inner_text() == "莊"


def test_language_switch_on_every_page_keeps_the_choice(standalone: str, watched: Open) -> None:
    w = watched()
    w.page.goto(standalone + "/login")
    assert w.page.locator("html").get_attribute("lang") == "en"
    w.page.click("header .lang")
    assert w.page.locator("html").get_attribute("lang") == "zh-Hant"
    assert w.page.locator("h1").inner_text() == "登入"
    w.page.goto(standalone + "/par?game=craps")  # the cookie keeps Chinese
    w.page.wait_for_selector("#sheet table")
    assert w.page.locator("nav.tabs").inner_text().split() == [
        "百家樂",
        "花旗骰",
        "牌九",
        "台灣牌九",
    ]
    assert w.page.locator(".top .lang").all_inner_texts() == ["English", "Português"]
    assert w.page.locator(".top .lang-current").inner_text() == "繁體中文"
    w.page.click(".top .lang:text('Português')")  # and Portuguese, kept as well
    assert w.page.locator("html").get_attribute("lang") == "pt-PT"
    assert w.page.locator(".top .lang").all_inner_texts() == ["English", "繁體中文"]
    w.page.wait_for_selector("#sheet table")
    assert w.page.locator("nav.tabs").inner_text().split("\n")[:2] == ["Bacará", "Dados"]
    w.page.goto(standalone + "/login")
    assert w.page.locator("h1").inner_text() == "Iniciar sessão"


def test_keyboard_skip_link_then_navigation(standalone: str, watched: Open) -> None:
    w = watched()
    w.page.goto(standalone + "/login")
    w.page.keyboard.press("Tab")
    assert w.page.evaluate("document.activeElement.className") == "skip"
    w.page.keyboard.press("Enter")
    assert w.page.evaluate("document.activeElement.id") == "main"
    w.page.keyboard.press("Tab")
    assert w.page.evaluate("document.activeElement.id") == "username"


@pytest.mark.parametrize("shoe", ["BPbPTBnBpbBBBBBBBPPTTPBPBPBBP", "TTBPPPPPPPPBTBBb", ""])
def test_roads_are_drawn_cell_for_cell_from_python(
    standalone: str, watched: Open, shoe: str
) -> None:
    """The JavaScript draws the cells games/baccarat/roads.py computed, nothing else."""
    r = roads(parse_shoe(shoe)).to_json()
    w = watched()
    w.page.goto(standalone + "/login")
    drawn = w.page.evaluate(
        """async (r) => {
            const m = await import('/static/js/svg.js');
            const big = m.bigRoad(r.big_road, 'big road');
            const bead = m.beadPlate(r.bead_plate, 'bead plate');
            const eye = m.derivedRoad(r.big_eye_boy, 'ring', 'big eye boy');
            const small = m.derivedRoad(r.small_road, 'dot', 'small road');
            const pig = m.derivedRoad(r.cockroach_pig, 'slash', 'cockroach pig');
            const pos = (nodes) => [...nodes].map(
                n => [+n.getAttribute('cx'), +n.getAttribute('cy')]);
            return {
                big: pos(big.querySelectorAll('circle.ring')),
                bead: big && bead.querySelectorAll('circle.bead').length,
                eye: [...eye.querySelectorAll('circle')].map(n => n.getAttribute('class')),
                small: small.querySelectorAll('circle').length,
                pig: pig.querySelectorAll('line').length,
                ties: big.querySelectorAll('line.tie-slash').length,
            };
        }""",
        r,
    )
    cell = 18
    assert drawn["big"] == [
        [c["col"] * cell + 9, c["row"] * cell + 9] for c in r["big_road"]["cells"]
    ]
    assert drawn["bead"] == len(r["bead_plate"])
    assert drawn["eye"] == [
        "ring-d " + ("red" if c["mark"] == "R" else "blue") for c in r["big_eye_boy"]
    ]
    assert drawn["small"] == len(r["small_road"])
    assert drawn["pig"] == len(r["cockroach_pig"])
    assert drawn["ties"] == sum(1 for c in r["big_road"]["cells"] if c["ties"])
