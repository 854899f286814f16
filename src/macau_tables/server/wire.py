"""What a request's body becomes before any table sees it, and JSON as the server writes
it: pure functions of the fast path (server/fastpath.py) and the store. Importing this
module imports pydantic and the schemas, not the database."""

from __future__ import annotations

import hashlib
import itertools
import json
import operator
import re
from typing import Any

from pydantic import ValidationError

from macau_tables.server import schemas as S
from macau_tables.server.errors import ApiError


def dumps(obj: Any) -> str:
    """Canonical JSON (sorted keys, no spaces): what the database keeps and hashes."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def render(obj: Any) -> bytes:
    """JSON as Starlette's ``JSONResponse`` renders it: the bytes a client receives."""
    return json.dumps(
        obj, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
    ).encode("utf-8")


def request_hash(method: str, path: str, body: Any) -> str:
    """What an idempotency record compares: the method, the path and the body."""
    return hashlib.sha256(dumps([method, path, body]).encode()).hexdigest()


def _invalid(message: str) -> ApiError:
    return ApiError(422, "invalid_input", message, "SRV-INPUT")


#: a JSON body nests its arrays and objects at most this deep (422 ``SRV-INPUT`` beyond):
#: Python's decoder recurses once a level, and ~1000 levels raised ``RecursionError``
MAX_DEPTH = 32
#: any request's body is at most this many bytes (413 ``SRV-INPUT`` beyond); a command's is
#: at most ``fastpath.MAX_BODY``
MAX_REQUEST_BODY = 1024 * 1024
#: a table's WebSocket reads nothing its client sends; a message over this many bytes
#: closes it (1009)
MAX_WS_MESSAGE = 64 * 1024

_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")


def deeper_than(raw: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether ``raw``'s arrays and objects nest deeper than ``limit`` (brackets inside
    strings not counted; malformed JSON may count deeper than it is), at C speed: no Python
    loop over the bytes."""
    if raw.count(b"[") + raw.count(b"{") <= limit:  # (every command's body)
        return False
    if b'"' in raw:
        raw = _STRING.sub(b"", raw)
    steps = raw.translate(None, _NOT_BRACKET).translate(_STEP)  # an open 2, a close 0
    # after the i-th bracket: opens - closes = (sum of the steps) - i
    depth = max(map(operator.sub, itertools.accumulate(steps), itertools.count(1)), default=0)
    return depth > limit


def too_deep(raw: bytes) -> ApiError | None:
    """The refusal of a body nested deeper than :data:`MAX_DEPTH` (``None``: it is not)."""
    if not deeper_than(raw):
        return None
    return _invalid(f"body: JSON nested deeper than {MAX_DEPTH} levels")


def too_large(limit: int) -> ApiError:
    return ApiError(413, "too_large", f"the body is at most {limit} bytes", "SRV-INPUT")


def parse_body(raw: bytes) -> S.CommandBody:
    """A command's body as FastAPI reads it: JSON first (its decode error names the
    position), then the model in Python mode; the first error worded as the app's 422
    handler does."""
    if not raw:
        raise _invalid("body: Field required")
    if (deep := too_deep(raw)) is not None:
        raise deep
    try:
        obj = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise _invalid(f"body.{getattr(exc, 'pos', 0)}: JSON decode error") from exc
    try:
        return S.CommandBody.model_validate(obj, from_attributes=True)
    except ValidationError as exc:
        first: Any = exc.errors()[0]
        where = ".".join(str(p) for p in ("body", *first.get("loc", ())))
        raise _invalid(f"{where}: {first.get('msg', 'invalid')}") from exc
