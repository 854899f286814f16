#!/usr/bin/env python3
"""Fill the generated parts of docs/reference/api.md from the server itself: every HTTP
endpoint of the OpenAPI document the server builds (``GET /openapi.json``), the bodies
they take and answer, and the WebSocket's messages (``GET /schemas``). Run from the
project root: ``make docs-reference`` (``--check``: exit 1 if the page is out of date).

The page's own text stays as written; only what lies between
``<!-- generated: NAME -->`` and ``<!-- end: NAME -->`` is replaced.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "reference" / "api.md"

#: The order of the endpoint groups (the OpenAPI tags) on the page.
TAGS = ("auth", "floor", "tables", "dealer", "money", "people", "supervisor", "recall",
        "meters", "audit")  # fmt: skip


#: What an endpoint does, for those whose handler has no docstring (the OpenAPI document
#: then has only a summary made from the function's name). A docstring, once written,
#: takes precedence.
FALLBACK = {
    "POST /auth/logout": "Ends the token (and clears the browser's cookies).",
    "GET /me": "`{name, role}` of the caller.",
    "GET /health": "No login. `{ok, tables, locked: {table: reason}, chains_pending, "
    "ledger_pending}`: the tables, those locked (the reason as anyone may read it; staff "
    "read the full one in `GET /tables`), and the background checks not done yet. On "
    "PostgreSQL also `process`, `owned` and `leases` (each table's owner).",
    "GET /games": "The games this server runs.",
    "GET /tables": "Every table: its game, status (and lock reason for staff), options, "
    "settings, last `seq` and chain `head`, players and countdown.",
    "GET /tables/{table_id}": "One table, as in `GET /tables`.",
    "GET /accounts/{account}": "`{account, balance}` of any ledger account.",
    "GET /users": "Every account: name, role, active, who created and who approved it.",
    "GET /audit/log": "Who paused, locked, created, approved what, and why: `{at, user, "
    "action, target, reason, data}`, newest first.",
}


#: The replies described field by field (the others are named only: `GET /schemas` and the
#: OpenAPI document have them all).
REPLIES = {"CommandReply", "TableInfo"}


def openapi() -> tuple[dict[str, Any], dict[str, Any]]:
    """The server's OpenAPI document and its ``/schemas`` (the floor is not started)."""
    from macau_tables.server import schemas
    from macau_tables.server.app import create_app
    from macau_tables.server.settings import Settings

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Settings(database_url=str(Path(tmp) / "unused.db")))
        doc = app.openapi()
    ws = {m.__name__: m.model_json_schema() for m in schemas.WS_MESSAGES}
    return doc, ws


def _type(s: dict[str, Any]) -> str:
    if "$ref" in s:
        return s["$ref"].rsplit("/", 1)[-1]
    if "const" in s:
        return f'"{s["const"]}"'
    if "enum" in s:
        return " \\| ".join(f'"{v}"' for v in s["enum"])
    if "anyOf" in s:
        parts = [_type(x) for x in s["anyOf"]]
        return " \\| ".join(dict.fromkeys(parts))
    t = s.get("type")
    if t == "array":
        inner = _type(s.get("items", {}))
        if "prefixItems" in s:
            inner = ", ".join(_type(x) for x in s["prefixItems"])
            return f"[{inner}]"
        return f"[{inner}]"
    if t == "object":
        extra = s.get("additionalProperties")
        return f"{{str: {_type(extra)}}}" if isinstance(extra, dict) and extra else "object"
    if t == "integer":
        bounds = []
        if s.get("exclusiveMinimum") is not None:
            bounds.append(f"> {s['exclusiveMinimum']:g}")
        if s.get("minimum") is not None:
            bounds.append(f"≥ {s['minimum']:g}")
        if s.get("maximum") is not None:
            bounds.append(f"≤ {int(s['maximum']):,}")
        return f"integer ({', '.join(bounds)})" if bounds else "integer"
    return str(t or "any")


def _schema_fields(schema: dict[str, Any]) -> list[str]:
    required = set(schema.get("required", ()))
    out = []
    for name, prop in schema.get("properties", {}).items():
        text = f"`{name}`" + ("" if name in required else "?") + f": {_type(prop)}"
        if "default" in prop and prop["default"] not in (None, "", [], {}):
            text += f" = `{prop['default']}`"
        out.append(text)
    return out


def _json(schema: dict[str, Any]) -> str:
    import json

    return json.dumps(schema)


def _first_paragraph(text: str) -> str:
    para = text.strip().split("\n\n")[0]
    return " ".join(para.replace("``", "`").split())


def _first_sentence(text: str, width: int = 200) -> str:
    """Up to the first full stop followed by a capital (or the end); a longer sentence is
    cut at a clause before ``width`` characters (the OpenAPI document has all of it)."""
    para = _first_paragraph(text)
    m = re.search(r"(?<=\.)\s+(?=[A-Z])", para)
    sentence = para[: m.start()] if m else para
    if len(sentence) <= width:
        return sentence
    cut = max(sentence.rfind(sep, 0, width) for sep in (", ", "; ", " — ", ": "))
    return sentence[:cut].rstrip(" ,;:—") + " …" if cut > 0 else sentence


def endpoints(doc: dict[str, Any]) -> str:
    rows: dict[str, list[str]] = {}
    bodies: set[str] = set()
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            tag = (op.get("tags") or ["other"])[0]
            params = op.get("parameters", [])
            query = [p["name"] for p in params if p["in"] == "query"]
            header = [p["name"] for p in params if p["in"] == "header"]
            where = f"`{method.upper()} {path}" + (f"?{'&'.join(query)}" if query else "") + "`"
            body = ""
            ref = (
                op.get("requestBody", {})
                .get("content", {})
                .get("application/json", {})
                .get("schema", {})
                .get("$ref")
            )
            if ref:
                body = ref.rsplit("/", 1)[-1]
                bodies.add(body)
                body = f"[{body}](#{body.lower()})"
            if header:
                body = (body + " + " if body else "") + ", ".join(f"`{h}`" for h in header)
            answer = op.get("responses", {}).get("200", {}).get("content", {})
            schema = answer.get("application/json", {}).get("schema", {})
            reply = schema.get("$ref") or schema.get("items", {}).get("$ref")
            key = f"{method.upper()} {path}"
            what = _first_sentence(op.get("description") or FALLBACK.get(key, op["summary"]))
            if reply:
                name = reply.rsplit("/", 1)[-1]
                if name in REPLIES:
                    bodies.add(name)
                many = "items" in schema
                link = f"[{name}](#{name.lower()})" if name in REPLIES else f"`{name}`"
                what += f" Answers {'a list of ' if many else ''}{link}."
            perm = op.get("x-permission")
            perm_text = f"`{perm}`" if perm else "—"
            rows.setdefault(tag, []).append(f"| {where} | {perm_text} | {body or '—'} | {what} |")
    out = []
    for tag in [t for t in TAGS if t in rows] + sorted(t for t in rows if t not in TAGS):
        out += [f"### {tag}", "", "| endpoint | permission | body | what |", "|---|---|---|---|"]
        out += rows[tag]
        out.append("")
    schemas = doc.get("components", {}).get("schemas", {})
    todo = list(bodies)
    while todo:  # and the bodies they name (a reply's pending operations, its countdown)
        for ref in re.findall(r'"\$ref": "#/components/schemas/(\w+)"', _json(schemas[todo.pop()])):
            if ref not in bodies:
                bodies.add(ref)
                todo.append(ref)
    out += ["### Bodies", ""]
    out.append("A `?` marks a field that may be left out; `= x` its default.")
    out.append("")
    for name in sorted(bodies):
        schema = schemas.get(name, {})
        out.append(f"#### {name}")
        out.append("")
        if schema.get("description"):
            out += [_first_paragraph(schema["description"]), ""]
        fields = _schema_fields(schema)
        out += [("; ".join(fields) + ".") if fields else "(no fields)", ""]
    return "\n".join(out).rstrip() + "\n"


def messages(ws: dict[str, Any]) -> str:
    out = ["| `type` | fields | when |", "|---|---|---|"]
    for schema in ws.values():
        props = dict(schema.get("properties", {}))
        kind = props.pop("type", {}).get("const") or props.get("type", {}).get("default")
        if kind is None:
            kind = schema.get("properties", {}).get("type", {}).get("default", "?")
        fields = "; ".join(
            _schema_fields({"properties": props, "required": schema.get("required", [])})
        )
        out.append(f"| `{kind}` | {fields} | {_first_paragraph(schema.get('description', ''))} |")
    return "\n".join(out) + "\n"


def fill(page: str, name: str, body: str) -> str:
    pattern = re.compile(rf"(<!-- generated: {name} -->\n).*?(<!-- end: {name} -->)", re.S)
    if not pattern.search(page):
        raise SystemExit(f"{PAGE}: no <!-- generated: {name} --> … <!-- end: {name} --> block")
    return pattern.sub(lambda m: m.group(1) + "\n" + body + "\n" + m.group(2), page)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    doc, ws = openapi()
    current = PAGE.read_text(encoding="utf-8")
    text = fill(fill(current, "endpoints", endpoints(doc)), "messages", messages(ws))
    if "--check" in argv:
        if text != current:
            print(f"{PAGE.relative_to(ROOT)} is out of date: run make docs-reference")
            return 1
        return 0
    PAGE.write_text(text, encoding="utf-8")
    print(f"{PAGE.relative_to(ROOT)} written ({len(text.encode()):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
