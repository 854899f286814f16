"""Recall: the last rounds of a table and of a player, rebuilt step by
step from the journal — settled, voided and under way — the same after a restart, and a
player's recall never shows what his view hides (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from macau_tables.core.journal import event_from_json
from macau_tables.core.visibility import Viewer
from macau_tables.games import contract
from macau_tables.games.baccarat import BetPlaced, HandSettled, HandVoided
from tests.server.conftest import Srv
from tests.server.play import new_table, play
from tests.server.test_recovery import restarted, tamper

GAMES = ("baccarat", "craps", "paigow", "taiwan")


def recall(srv: Srv, who: str, path: str) -> dict[str, Any]:
    r = srv.client.get(path, headers=srv.headers(who))
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def under_way(srv: Srv, table: str, player: str) -> None:
    """Leave a round under way: the next betting window, with ``player``'s bet in it."""
    game = srv.floor.tables[table].game.name
    for _ in range(20):
        snap = srv.client.get(f"/tables/{table}/view", headers=srv.headers(player)).json()
        if any(
            p["actor"] == f"player:{player}" and "place_bet" in p["operations"]
            for p in snap["pending"]
        ):
            break
        srv.step(table)
    if game == "baccarat":
        srv.ok(player, table, "place_bet", {"bet": "player", "amount": 10_000})
    elif game == "craps":
        srv.ok(player, table, "place_bet", {"bet": "field", "amount": 1_000})
    else:
        seat = next(int(s) for s, who in snap["view"]["seats"].items() if who == player)
        srv.ok(player, table, "place_bet", {"seat": seat, "amount": 1_000})


def test_contract_rounds_open_at_play_and_end_at_settle_or_void() -> None:
    """contract.rounds reads the engines' marks: a round opens at its first marked event,
    unmarked events inside it belong to it, and it ends settled or void."""
    opened = contract.TableOpened("baccarat", "t", {})
    bet = BetPlaced("t", "t:1", "alice", "banker", 100, 1, "MOP")
    settled = HandSettled("t", 1, "banker", 0, 9, (), False, "MOP")
    voided = HandVoided("t", 2, "misdeal", (), "dealer", "MOP")
    seed = contract.SeedCommitted("shoe:1", "00")
    events = [opened, seed, bet, seed, settled, seed, bet, voided, bet]
    assert contract.rounds(events) == [
        contract.Round(1, 2, 4, "settled"),
        contract.Round(2, 6, 7, "voided"),
        contract.Round(3, 8, 8, "under way"),
    ]
    assert contract.rounds([opened, seed]) == []


@pytest.mark.parametrize("game", GAMES)
def test_recall_is_the_same_after_a_restart(srv: Srv, game: str) -> None:
    t = new_table(srv, game)
    play(srv, t, ["alice", "bob"], 3)
    under_way(srv, t, "alice")
    paths = [
        ("auditor", f"/tables/{t}/recall"),
        ("dealer", f"/tables/{t}/recall"),
        ("alice", "/players/alice/recall"),
        ("supervisor", "/players/bob/recall?as_player=true"),
    ]
    before = {p: recall(srv, who, p) for who, p in paths}
    rounds = before[f"/tables/{t}/recall"]["rounds"]
    assert [r["status"] for r in rounds] == ["settled"] * 3 + ["under way"]
    assert all(r["steps"] for r in rounds)
    for r in rounds:  # each step's events lie in the round (or the operation that opened it)
        for s in r["steps"]:
            assert s["seq"] <= r["last_seq"] and s["events"][-1]["seq"] >= r["first_seq"]
    mine = before["/players/alice/recall"]["rounds"]
    assert [r["round"] for r in mine] == [1, 2, 3, 4] or game == "craps"
    assert mine[-1]["status"] == "under way"
    with restarted(srv) as again:
        after = {p: recall(again, who, p) for who, p in paths}
    assert after == before


def test_a_players_recall_shows_only_what_his_view_shows(srv: Srv) -> None:
    """At a tile table alice's recall never holds bob's face-down tiles nor his stack; her
    last view is the one the table shows her now; staff see everything."""
    t = new_table(srv, "paigow")
    play(srv, t, ["alice", "bob"], 2)
    under_way(srv, t, "alice")
    mine = recall(srv, "alice", "/players/alice/recall")["rounds"]
    staff = recall(srv, "auditor", f"/tables/{t}/recall")["rounds"]
    alice = Viewer.player("alice")
    hidden = 0
    for r in staff:
        for s in r["steps"]:
            for e in s["events"]:
                if not event_from_json(e).audience().admits(alice):
                    hidden += 1
    assert hidden > 0  # bob's tiles, dealt face down: the auditor sees them
    for r in mine:
        for s in r["steps"]:
            for e in s["events"]:
                assert event_from_json(e).audience().admits(alice), e
        assert not any(a.endswith(":bob") for a in r["money"]["accounts"]), r["money"]
        assert set(r["money"]["players"]) <= {"alice"}
    assert "stack:paigow-r:bob" in json.dumps([r["money"] for r in staff])
    live = srv.client.get(f"/tables/{t}/view", headers=srv.headers("alice")).json()["view"]
    assert mine[-1]["steps"][-1]["view"] == live
    assert staff[-1]["steps"][-1]["view"] != live  # the staff's view is another projection
    # the money of a settled round: what she staked came off her stack
    first = mine[0]["money"]["players"]["alice"]
    assert first["staked"] > 0 and first["net"] == first["returned"] - first["staked"]


def test_a_voided_hand_is_recalled_as_voided(srv: Srv) -> None:
    r = srv.client.post(
        "/tables",
        json={"id": "bac-sq", "game": "baccarat", "options": {"squeeze": True}},
        headers=srv.headers("supervisor"),
    )
    assert r.status_code == 200, r.text
    t = "bac-sq"
    srv.ok("alice", t, "join", {"buy_in": 100_000, "seat": 1})
    under_way(srv, t, "alice")
    srv.step(t)  # the deal: alice squeezes, nothing settled yet
    srv.ok("dealer", t, "void_hand", {"reason": "a card fell off the table"})
    rounds = recall(srv, "auditor", f"/tables/{t}/recall")["rounds"]
    assert rounds[-1]["status"] == "voided"
    assert rounds[-1]["steps"][-1]["actor"] == "dealer"
    assert rounds[-1]["money"]["players"]["alice"]["net"] == 0  # her stake came back
    assert recall(srv, "alice", "/players/alice/recall")["rounds"][-1]["status"] == "voided"


def test_recall_limits_and_pages_back(srv: Srv) -> None:
    t = new_table(srv, "craps")
    play(srv, t, ["alice"], 12)
    body = recall(srv, "supervisor", f"/tables/{t}/recall")
    assert len(body["rounds"]) == 10 and body["rounds_total"] >= 12
    assert [r["round"] for r in body["rounds"]] == list(
        range(body["rounds_total"] - 9, body["rounds_total"] + 1)
    )
    older = recall(srv, "auditor", f"/tables/{t}/recall?limit=2&before=3")["rounds"]
    assert [r["round"] for r in older] == [1, 2]
    r = srv.client.get(f"/tables/{t}/recall?limit=11", headers=srv.headers("auditor"))
    assert (r.status_code, r.json()["rule"]) == (422, "SRV-INPUT")


def test_a_player_recalls_his_own_rounds_only(srv: Srv) -> None:
    r = srv.client.get("/players/alice/recall", headers=srv.headers("bob"))
    assert (r.status_code, r.json()["rule"]) == (403, "SRV-ROLE")
    r = srv.client.get("/players/nobody/recall", headers=srv.headers("auditor"))
    assert (r.status_code, r.json()["rule"]) == (404, "SRV-PLAYER")
    r = srv.client.get("/players/dealer/recall", headers=srv.headers("auditor"))
    assert (r.status_code, r.json()["rule"]) == (404, "SRV-PLAYER")
    r = srv.client.get("/tables/nope/recall", headers=srv.headers("auditor"))
    assert (r.status_code, r.json()["rule"]) == (404, "SRV-TABLE")


def test_an_edited_journal_is_a_typed_refusal_and_its_export_still_shows_it(srv: Srv) -> None:
    """Recall replays the journal: an entry edited behind the server's back is refused
    with the error (never a 500); the auditor's export still hands over the journal as
    stored, for the offline check to name the entry."""
    t = new_table(srv, "craps")
    play(srv, t, ["alice"], 2)
    srv.ok("alice", t, "place_bet", {"bet": "field", "amount": 1_000})  # her round
    tamper(
        srv,
        "journal",
        "UPDATE journal SET event = REPLACE(event, '100000', '100001') "
        f"WHERE table_id = '{t}' AND kind = 'craps.player_joined'",
    )
    for who, path in (("auditor", f"/tables/{t}/recall"), ("alice", "/players/alice/recall")):
        r = srv.client.get(path, headers=srv.headers(who))
        assert r.status_code == 409, r.text[:300]
        assert r.json()["error"] == "journal_tampered"
        assert "hash does not match" in r.json()["message"]
    doc = srv.client.get(f"/tables/{t}/export", headers=srv.headers("auditor")).json()
    joined = [e["event"]["data"] for e in doc["entries"] if e["event"]["kind"].endswith("joined")]
    assert joined[0]["amount"] == 100_001


def test_a_players_rounds_are_those_his_chips_were_at_stake_in() -> None:
    """A stake held over several rounds puts him in each; a buy-in does not; another
    player's bet does not."""
    from macau_tables.core.journal import Journal
    from macau_tables.server.recall import TableRecord, Tx, player_rounds

    j = Journal("baccarat")
    bet = BetPlaced("t", "t:1", "alice", "banker", 100, 1, "MOP")
    settle = HandSettled("t", 1, "banker", 0, 9, (), False, "MOP")
    for ev in [contract.TableOpened("baccarat", "t", {}), bet, settle, bet, settle, bet, settle]:
        j.append(ev)
    # rounds: 1 = [1, 2], 2 = [3, 4], 3 = [5, 6]
    txs = [
        Tx("a", 1, "", [("stack:t:alice", -100), ("wagers:t", 100)], opens=["h1"]),
        Tx("b", 3, "", [("stack:t:bob", -100), ("wagers:t", 100)], opens=["h2"]),
        Tx("c", 4, "", [("wagers:t", -100), ("stack:t:bob", 100)], closes=["h2"]),
        Tx("d", 5, "", [("player:alice", -500), ("stack:t:alice", 500)]),  # a buy-in
        Tx("e", 6, "", [("wagers:t", -100), ("stack:t:alice", 195)], closes=["h1"]),
    ]
    rec = TableRecord("t", "baccarat", {}, j, [0] * len(j), {}, txs)
    assert [r.number for r in player_rounds(rec, "alice")] == [1, 2, 3]  # h1 rode 1 → 3
    assert [r.number for r in player_rounds(rec, "bob")] == [2]
    txs[4] = Tx("e", 2, "", [("wagers:t", -100), ("stack:t:alice", 195)], closes=["h1"])
    rec = TableRecord("t", "baccarat", {}, j, [0] * len(j), {}, sorted(txs, key=lambda t: t.seq))
    assert [r.number for r in player_rounds(rec, "alice")] == [1]  # the buy-in is not play
