"""The fast path for ``POST /tables/{id}/commands`` answers exactly as FastAPI's own route
(server/fastpath.py): the same status and the same body for the same request, whatever
the request — good, refused, malformed, unauthenticated."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from macau_tables.server.app import create_app
from macau_tables.server.fastpath import CommandFastPath
from macau_tables.server.floor import Floor
from tests.server.conftest import make_settings


class Pair:
    """Two apps on two databases, one with the fast path and one without."""

    def __init__(self, tmp: Path) -> None:
        self.clients: list[TestClient] = []
        self.tokens: list[dict[str, str]] = []
        self.floors: list[Floor] = []
        for fast in (True, False):
            floor = Floor(make_settings(str(tmp / f"fast-{fast}.db")))
            client = TestClient(create_app(floor=floor, fast_path=fast))
            client.__enter__()
            toks = {}
            for who in ("alice", "dealer", "auditor"):
                r = client.post(
                    "/auth/login", json={"name": who, "password": floor.demo_credentials[who]}
                )
                toks[who] = r.json()["token"]
            self.clients.append(client)
            self.tokens.append(toks)
            self.floors.append(floor)

    def both(
        self, path: str, content: bytes, who: str | None, headers: dict[str, str]
    ) -> list[tuple[int, Any]]:
        out = []
        for client, toks in zip(self.clients, self.tokens, strict=True):
            h = dict(headers)
            if who is not None:
                h["Authorization"] = f"Bearer {toks[who]}"
            r = client.post(path, content=content, headers=h)
            out.append((r.status_code, _comparable(r.status_code, r.json())))
        return out

    def close(self) -> None:
        for c in self.clients:
            c.__exit__(None, None, None)


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    p = Pair(tmp_path_factory.mktemp("fastpath"))
    yield p
    p.close()


_keys = iter(range(10**9))


def _comparable(status: int, body: Any) -> Any:
    """A success carries the server's random draws (a seed's commitment, a card): keep
    each event's seq, kind and field names; a refusal is compared whole."""
    if status != 200:
        return body
    events = [(e["seq"], e["kind"], sorted(e["data"])) for e in body["events"]]
    return {**body, "events": events}


CASES: list[tuple[str, Any, str | None, dict[str, str]]] = [
    ("/tables/hilo-1/commands", {"op": "join", "args": {"amount": 5_000}}, "alice", {"k": "1"}),
    ("/tables/hilo-1/commands", {"op": "join", "args": {"amount": 5_000}}, "alice", {"k": "1"}),
    ("/tables/hilo-1/commands", {"op": "join", "args": {"amount": 7_000}}, "alice", {"k": "1"}),
    ("/tables/hilo-1/commands", {"op": "bet", "args": {"amount": 10.5}}, "alice", {}),
    ("/tables/hilo-1/commands", {"op": "bet", "args": {"amount": -1}}, "alice", {}),
    ("/tables/hilo-1/commands", {"op": "Bet!"}, "alice", {}),
    ("/tables/hilo-1/commands", {"op": "bet", "args": [], "x": 1}, "alice", {}),
    ("/tables/hilo-1/commands", {"op": "bet", "expect_seq": "z"}, "alice", {}),
    ("/tables/hilo-1/commands", {"op": "bet", "expect_seq": 0}, "alice", {}),
    ("/tables/hilo-1/commands", {"op": "time_out"}, "alice", {}),
    ("/tables/hilo-1/commands", {"op": "bet"}, None, {}),
    ("/tables/hilo-1/commands", {"op": "bet"}, "auditor", {}),
    ("/tables/hilo-1/commands", {"op": "shuffle"}, "dealer", {}),
    ("/tables/hilo-1/commands", {"op": "bet"}, "alice", {"no-key": ""}),
    ("/tables/hilo-1/commands", {"op": "bet"}, "alice", {"k": "x" * 201}),
    ("/tables/nope/commands", {"op": "bet"}, "alice", {}),
    ("/tables/hilo-1/commands", "not json", "alice", {}),
    ("/tables/hilo-1/commands", [1, 2], "alice", {}),
    ("/tables/hilo-1/commands", None, "alice", {}),
    ("/tables/hilo-1/commands", '"bet"', "alice", {}),
    ("/tables/hilo-1/commands", "5", "alice", {}),
    ("/tables/hilo-1/commands", "true", "alice", {}),
    ("/tables/hilo-1/commands", '{"op": "bet"', "alice", {}),
    ("/tables/hilo-1/commands", '{"op": "bet", "op": 3}', "alice", {}),
    ("/tables/hilo-1/commands", b"\xff\xfe", "alice", {}),
]


def _headers(spec: dict[str, str]) -> dict[str, str]:
    h = {"Content-Type": "application/json"}
    if "no-key" in spec:
        return h
    h["Idempotency-Key"] = spec.get("k") or f"fp-{next(_keys)}"
    return h


def _content(body: Any) -> bytes:
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode()
    return b"" if body is None else json.dumps(body).encode()


@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_fast_path_answers_as_fastapis_route(pair: Pair, case: int) -> None:
    path, body, who, spec = CASES[case]
    fast, reference = pair.both(path, _content(body), who, _headers(spec))
    assert fast == reference
    if who is None:
        assert fast[0] == 401
    if path == "/tables/nope/commands":
        assert fast[0] == 404


def test_bad_credentials_are_refused_alike(pair: Pair) -> None:
    for auth in ("Bearer nope", "Basic abc", "Bearer", ""):
        out = pair.both(
            "/tables/hilo-1/commands",
            b'{"op": "bet"}',
            None,
            {**_headers({}), "Authorization": auth},
        )
        assert out[0] == out[1]
        assert out[0][0] == 401


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    op=st.one_of(st.sampled_from(["bet", "reveal", "leave", "join", "shuffle"]), json_values),
    args=json_values,
    extra=st.dictionaries(st.sampled_from(["expect_seq", "x", "args"]), json_values, max_size=2),
)
@example(op="bet", args={"amount": 2**70}, extra={})
@example(op="join", args={"amount": 1}, extra={"expect_seq": 10**30})
def test_any_body_gets_the_same_answer(pair: Pair, op: Any, args: Any, extra: Any) -> None:
    body = {"op": op, "args": args, **extra}
    fast, reference = pair.both("/tables/hilo-1/commands", _content(body), "alice", _headers({}))
    assert fast == reference
    assert 400 <= fast[0] < 500 or fast[0] == 200


def _fast_path_of(app: Any) -> CommandFastPath:
    node = app.middleware_stack
    while not isinstance(node, CommandFastPath):
        node = node.app
    return node


@pytest.mark.parametrize("who", ["alice", "dealer", "auditor", None])
def test_the_views_fast_path_answers_as_fastapis_route(pair: Pair, who: str | None) -> None:
    """``GET /tables/{id}/view`` (what a client polls) has its fast path too. The same
    app, the same state, asked twice — by its fast path, then with the fast path's view
    switched off so that FastAPI's route answers: the same status and the same JSON, for
    each role, an unknown table and bad credentials."""
    client = pair.clients[0]
    fast = _fast_path_of(client.app)
    auths = [f"Bearer {pair.tokens[0][who]}"] if who else ["Bearer nope", "Basic a", "Bearer", ""]
    for path in ("/tables/hilo-1/view", "/tables/nope/view"):
        for auth in auths:
            h = {"Authorization": auth} if auth else {}
            first = client.get(path, headers=h)
            view, fast.view = fast.view, None
            try:
                second = client.get(path, headers=h)
            finally:
                fast.view = view
            assert (first.status_code, first.json()) == (second.status_code, second.json())
            assert first.status_code == (401 if who is None else 200 if "hilo" in path else 404)


def test_the_fast_app_answers_a_view_on_its_fast_path(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(So that the comparison above compares two paths, not one route twice.)"""
    served: list[str] = []
    original = CommandFastPath._view

    async def counting(self: CommandFastPath, table_id: str, scope: Any) -> tuple[int, bytes]:
        served.append(table_id)
        return await original(self, table_id, scope)

    monkeypatch.setattr(CommandFastPath, "_view", counting)
    for i, toks in enumerate(pair.tokens):
        h = {"Authorization": f"Bearer {toks['alice']}"}
        assert pair.clients[i].get("/tables/hilo-1/view", headers=h).status_code == 200
    assert served == ["hilo-1"]  # the fast app's; the reference app has no fast path
