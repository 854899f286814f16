"""The UI's own endpoints (no browser): a hand's settings, the exact hint, static files, bad
input as a typed 4xx — the numbers come from the library, never recomputed."""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from macau_tables.analysis.tiles import hint
from macau_tables.tiles import FULL_SET, parse_tiles
from macau_tables.tiles.hands import settings as tile_settings
from macau_tables.tiles.strategies import follows_forced_rule, forced_setting
from macau_tables.web.routes import router

app = FastAPI()
app.include_router(router)
client = TestClient(app)


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(32)).map(lambda p: [FULL_SET[i] for i in p[:4]]))
def test_t_4_settings_are_the_librarys_with_names_ranks_and_tw_6b_forced_tw_r1_kept(
    tiles: list,
) -> None:
    text = " ".join(str(t) for t in tiles)
    for game, rules in (("paigow", "pg1985"), ("taiwan", "tw1990")):
        got = client.get("/ui/settings", params={"tiles": text, "game": game}).json()
        want = tile_settings(tiles, rules)
        assert len(got["settings"]) == len(want) == 3
        for g, w in zip(got["settings"], want, strict=True):
            assert g["front"]["tiles"] == [str(t) for t in w.front.tiles]
            assert g["back"]["name"] == w.back.value.name
            assert g["back"]["rank"] == w.back.rank
            assert g["keepable"] == (game == "paigow" or follows_forced_rule(w, tiles, rules))
        forced = [s for s in got["settings"] if s["forced"]]
        if game == "paigow":
            assert forced == []
        else:
            f = forced_setting(tiles, rules)
            assert len(forced) >= 1
            assert {s["back"]["rank"] for s in forced} == {f.back.rank}


def test_hint_fragment_lists_the_exact_evs_best_first() -> None:
    tiles = parse_tiles(["6-6 4-5 1-1 2-3"])
    r = client.get("/ui/hint", params={"tiles": "6-6 4-5 1-1 2-3", "game": "paigow"})
    assert r.status_code == 200
    exact = re.findall(r'title="(-?\d+/\d+)"', r.text)
    assert exact == [f"{h.ev.numerator}/{h.ev.denominator}" for h in hint(tiles)]
    assert r.text.count("<tr") == 4  # header and the three settings
    assert 'class="best"' in r.text


@pytest.mark.parametrize(
    ("url", "status", "rule"),
    [
        ("/ui/settings?tiles=6-6+6-6+6-6+1-1", 422, "T-1"),
        ("/ui/settings?tiles=6-6+4-5+1-1", 422, "T-4"),
        ("/ui/settings?tiles=9-9+1-1+1-2+2-2", 422, None),
        ("/ui/settings?tiles=6-6+4-5+1-1+2-3&game=craps", 422, None),
        ("/ui/hint?tiles=nonsense", 422, None),
        ("/ui/par/roulette", 404, None),
        ("/par?game=roulette", 404, None),
        ("/table/Roulette!/t1", 404, None),
        ("/ui/par/baccarat?decks=x", 422, None),
        ("/ui/par/craps?odds_cap=all", 422, None),
        ("/static/../routes.py", 404, None),
        ("/static/%2e%2e/routes.py", 404, None),
        ("/static/nothing.js", 404, None),
    ],
)
def test_bad_input_is_a_4xx_never_a_traceback(url: str, status: int, rule: str | None) -> None:
    r = client.get(url)
    assert r.status_code == status
    assert "Traceback" not in r.text
    if rule is not None:
        assert r.json()["rule"] == rule


def test_static_modules_are_served_as_javascript_and_nothing_else_is() -> None:
    r = client.get("/static/js/svg.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert client.get("/static/vendor/htmx/htmx.min.js").status_code == 200


def test_every_page_links_no_outside_host() -> None:
    """No CDN: every script, stylesheet and font is served by the app itself."""
    for path in ("/", "/login", "/cashier", "/history", "/auditor", "/par", "/table/baccarat/t",
                 "/table/craps/t", "/table/paigow/t", "/table/taiwan/t"):  # fmt: skip
        html = client.get(path).text
        assert not re.search(r'(src|href)="(https?:)?//', html), path
