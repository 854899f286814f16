"""Every game bound to the server, played for real: ``macau-tables serve`` as a process on
a loopback port, bots at each demo table with their game's strategy, then the ledger and
each table's chain checked."""

from __future__ import annotations

import asyncio
import re
from datetime import date, timedelta
from pathlib import Path

import httpx

from macau_tables.server.bots import play_bots
from macau_tables.server.games import games
from tests.server.serve_proc import Serve


def test_bots_play_every_bound_game_and_the_ledger_stays_whole(tmp_path: Path) -> None:
    real = sorted(set(games()) - {"hilo"})
    assert {"baccarat", "paigow", "taiwan"} <= set(real)
    server = Serve(tmp_path, "--betting-seconds", "0.5", "--action-seconds", "0.5")
    log, port, url = server.log, server.port, server.url
    try:
        server.start()
        text = log.read_text()
        assert f"serving on http://127.0.0.1:{port}/" in text
        assert re.search(r"0 table\(s\) verified in \d+\.\d s", text), text
        made = re.search(r"a new floor: demo tables (.*)", text)
        assert made is not None and set(made.group(1).split(", ")) == {f"{g}-1" for g in real}
        creds = server.creds()
        report = asyncio.run(
            play_bots(
                url,
                2 * len(real),
                10.0,
                ("supervisor", creds["supervisor"]),
                ("cashier", creds["cashier"]),
                grace=12.0,
            )
        )
        assert not [s for s in report.statuses if s >= 500], report.summary()
        # the tile bots bet once a round, never from the banker's seat (co-banking)
        assert not [r for r in report.rules if r.startswith(("PG-3.2", "TW-5e"))], report.rules
        tok = httpx.post(
            url + "/auth/login", json={"name": "auditor", "password": creds["auditor"]}
        ).json()["token"]
        h = {"Authorization": f"Bearer {tok}"}
        assert httpx.get(url + "/audit/ledger", headers=h).json() == {"ok": True, "problems": []}
        tables = httpx.get(url + "/tables", headers=h).json()
        assert sorted(t["game"] for t in tables) == real
        from macau_tables.core.journal import Journal

        for t in tables:
            assert t["status"] == "open", t
            assert t["seq"] > 5, t  # the bots and the clock played
            journal = Journal.from_json(
                httpx.get(url + f"/audit/tables/{t['id']}/journal", headers=h).json()
            )
            # the clock may have moved on since the listing: the listed head is in the chain
            assert journal.entries[t["seq"]].hash == t["head"]
            kinds = {e.kind for e in journal.events}
            assert any("bet" in k for k in kinds), (t["id"], sorted(kinds))
        # meters: the bots' gaming day (and the one before: they may have played
        # across 06:00) reconciles at every table, journal = ledger
        today = httpx.get(url + "/meters", headers=h, timeout=120).json()
        before = date.fromisoformat(today["day"]) - timedelta(days=1)
        days = [today, httpx.get(url + f"/meters?day={before}", headers=h, timeout=120).json()]
        for m in days:
            assert m["reconciled"], [x["reconciliation"] for x in m["tables"]]
        assert sum(m["totals"]["drop"] for m in days) > 0
        assert sum(m["totals"]["handle"] for m in days) > 0
        # a restart rebuilds each table by replaying its journal through the rules
        server.stop()
        server.start()
        health = server.checked()
        assert health == {
            "ok": True,
            "tables": len(real),
            "locked": {},
            "chains_pending": [],
            "ledger_pending": False,
        }
        again = log.read_text()
        assert f"{len(real)} table(s) verified in" in again and again.count("a new floor") == 1
    finally:
        server.stop()
