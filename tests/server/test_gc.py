"""The server's use of CPython's cyclic collector (run.tune_gc, run.http_protocol): each
check runs in a child process, since the collector's settings are global."""

from __future__ import annotations

import os
import subprocess
import sys


def _child(code: str, **env: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "MACAU_TABLES_GC": "", **env},
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


FREEZE = """
import gc, os
from macau_tables.server.run import GC_YOUNG, tune_gc
before, threshold = gc.get_freeze_count(), gc.get_threshold()
tune_gc()
if os.environ.get("MACAU_TABLES_GC") == "python":
    assert gc.get_freeze_count() == before, gc.get_freeze_count()
    assert gc.get_threshold() == threshold and not gc.callbacks
    print("left alone")
    raise SystemExit
assert gc.get_threshold()[0] == GC_YOUNG, gc.get_threshold()
loaded = gc.get_freeze_count()
assert loaded > before + 10_000, loaded
kept = [[i] for i in range(5_000)]
class Node:
    pass
a, b = Node(), Node()
a.other, b.other = b, a
del a, b
freed = gc.collect(0)
assert freed >= 2, freed
assert gc.get_freeze_count() >= loaded + 5_000, gc.get_freeze_count()
assert sum(len(gc.get_objects(g)) for g in range(3)) < 100, gc.get_count()
print("ok")
"""


def test_a_serving_process_freezes_what_survives_each_collection() -> None:
    """``serve`` calls ``tune_gc`` once the floor is up (run.py's announce): what exists
    then leaves the cyclic collector's reach, and so does whatever outlives a young
    collection afterwards (a journal's entries), so a collection never walks more than
    what was made since the last one; a cycle dropped before a collection is still freed.
    ``MACAU_TABLES_GC=python`` leaves CPython's collector alone."""
    assert _child(FREEZE) == "ok"
    assert _child(FREEZE, MACAU_TABLES_GC="python") == "left alone"


HANDSHAKES = """
import asyncio, gc, socket, sys
import uvicorn, websockets
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from macau_tables.server.run import http_protocol

async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
    elif scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": "hello"})
        await send({"type": "websocket.close"})

async def cycles(protocol):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, http=protocol, ws="websockets-sansio", log_level="warning")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        await asyncio.sleep(0.01)
    gc.collect()
    gc.disable()
    for _ in range(5):
        async with websockets.connect(f"ws://127.0.0.1:{port}/") as ws:
            assert await ws.recv() == "hello"
    await asyncio.sleep(0.1)
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.collect()
    gc.set_debug(0)
    found = sum(isinstance(o, HttpToolsProtocol) for o in gc.garbage)
    gc.garbage.clear()
    gc.enable()
    server.should_exit = True
    await task
    return found

ours = asyncio.run(cycles(http_protocol()))
theirs = asyncio.run(cycles(HttpToolsProtocol))
print(ours, theirs)
"""


def test_a_websocket_handshake_leaves_no_reference_cycle() -> None:
    """A connection upgraded to a WebSocket lets go of its HTTP parser (run.http_protocol):
    after five handshakes, none of their HTTP protocol objects is cyclic garbage — with
    uvicorn's own protocol each one is, and since the collector freezes what outlives a
    collection, a WebSocket that stayed open a while would never be freed. (If uvicorn's
    own protocol stops leaving the cycle, the override can go.)"""
    ours, theirs = _child(HANDSHAKES).split()
    assert (int(ours), int(theirs)) == (0, 5)
