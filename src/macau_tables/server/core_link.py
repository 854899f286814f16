"""The core process's side of the front process (server/front.py): starting it, its
socket pair, and the answers to the commands and views it hands over.

:class:`FrontProcess` starts ``python -m macau_tables.server.front`` with the public
socket (bound by the core, so that a port in use is the core's error, before the floor
loads) and its end of a socket pair, and tells it to listen once the floor is up. If the
front dies, another is started on the same socket; when the core stops, it closes the
pair first (the front stops accepting and exits), lets the commands already handed over
finish, then the floor stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from typing import Any, cast

from macau_tables.server.fastpath import CommandFastPath
from macau_tables.server.front import Batcher, FrameReader
from macau_tables.server.latency import label_for
from macau_tables.server.wire import Prepared

log = logging.getLogger("macau_tables.front")

_INTERNAL_ERROR = b'{"error":"internal","rule":"SRV-INTERNAL","message":"internal server error"}'


class FrontChannel(asyncio.Protocol):
    """The core's end of the socket pair: each frame answered by the fast path's steps."""

    def __init__(self, fast: CommandFastPath, link: FrontProcess) -> None:
        self.fast = fast
        self.link = link
        self.loop = asyncio.get_running_loop()
        self.reader = FrameReader()
        self.out = Batcher(self.loop)
        self.tasks: set[asyncio.Task[None]] = set()
        self.closed = asyncio.Event()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.out.transport = cast(asyncio.Transport, transport)
        self.out.send((0, "ready", ""))

    def data_received(self, data: bytes) -> None:
        for frame in self.reader.feed(data):
            task = self.loop.create_task(self._answer(*frame))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _answer(
        self,
        rid: int,
        kind: str,
        table: str,
        authorization: str | None,
        key: str | None,
        body: bytes | None,
        path: str,
        prepared: Prepared | None = None,
    ) -> None:
        started = time.perf_counter()
        op = ""
        try:
            if kind == "c":
                status, content, op = await self.fast.answer_command(
                    table, body, authorization, key, path, prepared
                )
            else:
                status, content = await self.fast.answer_view(table, authorization)
        except Exception:  # a bug: logged, answered 500 as the HTTP server would
            log.exception("the front's request %s %s failed", kind, path)
            status, content = 500, _INTERNAL_ERROR
        self.out.send((rid, status, content))
        if kind == "c" and self.fast.latencies is not None:
            self.fast.latencies.observe(label_for(op, status), time.perf_counter() - started)

    def connection_lost(self, exc: Exception | None) -> None:
        self.link.lost(self)


async def _no_app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover
    raise RuntimeError("the front's channel answers only commands and views")


class FrontProcess:
    """The front process of this core: started once the floor is up, started again if it
    dies, stopped before the floor stops."""

    def __init__(
        self, public: socket.socket, internal: tuple[str, int], access_log: bool = False
    ) -> None:
        self.public = public
        self.internal = internal
        self.access_log = access_log
        self.fast: CommandFastPath | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self.channel: FrontChannel | None = None
        self.connecting: asyncio.Task[Any] | None = None
        self.stopping = False
        self.restarts: list[float] = []  # (recent ones: a sixth within 10 s stops the server)
        self.replaced = 0

    def start(self, fast_path: dict[str, Any]) -> None:
        """In the event loop, once the floor is up (the app's ``on_start``)."""
        self.fast = CommandFastPath(_no_app, **fast_path)
        self._spawn()

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid

    def _spawn(self) -> None:
        assert self.fast is not None
        mine, theirs = socket.socketpair()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "macau_tables.server.front",
                str(self.public.fileno()),
                str(theirs.fileno()),
                *map(str, self.internal),
                *(["--access-log"] if self.access_log else []),
            ],
            pass_fds=(self.public.fileno(), theirs.fileno()),
        )
        theirs.close()
        self.channel = FrontChannel(self.fast, self)
        loop = asyncio.get_running_loop()
        channel = self.channel
        self.connecting = loop.create_task(loop.create_unix_connection(lambda: channel, sock=mine))

    def lost(self, channel: FrontChannel) -> None:
        """The front's end closed: we asked it to stop, or it died (start another)."""
        if channel is not self.channel:
            return
        channel.closed.set()
        if self.stopping:
            return
        code = _reap(self.proc) if self.proc is not None else None
        now = time.monotonic()
        self.restarts = [t for t in self.restarts if now - t < 10] + [now]
        if len(self.restarts) > 5:  # unreachable without it: the whole server stops
            sys.stderr.write(
                f"macau-tables: the front process keeps exiting (last code {code}); stopping\n"
            )
            os.kill(os.getpid(), signal.SIGTERM)
            return
        sys.stderr.write(f"macau-tables: the front process exited ({code}); starting another\n")
        self.replaced += 1
        self._spawn()

    def stats(self) -> dict[str, Any]:
        alive = self.proc is not None and self.proc.poll() is None
        return {"pid": self.pid if alive else None, "replaced": self.replaced}

    async def stop(self, grace: float = 10.0) -> None:
        """Before the floor stops: the front stops accepting, answers what it handed over
        (the core finishes those commands) and exits."""
        self.stopping = True
        channel = self.channel
        if channel is not None and channel.out.transport is not None:
            channel.out.send((0, "stop", ""))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(channel.closed.wait(), grace)
            if channel.tasks:
                await asyncio.wait(set(channel.tasks), timeout=grace)
            channel.out.transport.close()
        if self.proc is not None:
            proc = self.proc
            try:
                await asyncio.get_running_loop().run_in_executor(None, proc.wait, grace)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _reap(proc: subprocess.Popen[bytes]) -> int:
    """The front's exit code (it closed its end of the pair: it is gone, or going)."""
    try:
        return proc.wait(timeout=2)
    except subprocess.TimeoutExpired:  # alive without its end of the pair: not a front
        proc.kill()
        return proc.wait()
