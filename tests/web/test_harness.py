"""The harness itself: Debian's Chromium starts, axe-core finds what it must."""

from __future__ import annotations

from playwright.sync_api import Browser

from tests.web.harness import axe_violations, watch


def test_axe_reports_a_serious_violation_and_passes_a_clean_page(browser: Browser) -> None:
    page = browser.new_page()
    w = watch(page)
    page.set_content('<html lang="en"><title>t</title><main><img src="data:,"></main></html>')
    assert [v["id"] for v in axe_violations(page)] == ["image-alt"]
    page.set_content('<html lang="en"><title>t</title><main><h1>ok</h1></main></html>')
    assert axe_violations(page) == []
    page.evaluate("console.error('boom')")
    assert any("boom" in e for e in w.errors)
    page.close()
