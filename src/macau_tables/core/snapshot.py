"""An engine's state as JSON, and back: the snapshots that bound a live table's memory and
start-up (docs/server.md, "Snapshots").

A table engine is plain Python objects — ints and strings, lists, dicts, tuples, sets, enums,
dataclasses, :class:`fractions.Fraction`, bytes — built by applying events. :func:`encode`
writes such a value as JSON that says what each part was (a tuple stays a tuple, a dict
keeps its order and its key types, a dataclass its class), and :func:`decode` rebuilds an
equal value. What it will rebuild is closed: classes of this package only (dataclasses,
enums and the few plain classes that opt in with :func:`snapshot_class`), never arbitrary
code, so a snapshot read from a database is data, not a program.

A mutable part shared by two places would come back as two copies, which could then
differ: :func:`encode` refuses it (:class:`SnapshotError`) rather than write a snapshot
that restores to another state. Floats are refused too (money is integer minor units).

Each value is a JSON scalar (``None``, a bool, an int, a string) or a one-key object:

=========  ==============================================================
``l``      a list: ``[items]``
``t``      a tuple: ``[items]``
``d``      a dict: ``[[key, value], ...]`` in its order (keys encoded too)
``s``      a set / ``fs`` a frozenset: ``[items]``, sorted by their JSON
``b``      bytes: hex
``q``      a Fraction: ``[numerator, denominator]``
``p``      a ``MappingProxyType``: the dict it shows
``c``      a constant (:func:`snapshot_constant`): its name
``lx`` ``tx``  a list / tuple of such objects, all of one class: ``["module:Class", [texts]]``
``x``      an object written as its text (:func:`snapshot_text_class`):
           ``["module:Class", text]``
``e``      an enum member: ``["module:Class", value]``
``o``      an object: ``["module:Class", {field: value}]``
=========  ==============================================================

A class's name, ``"module:Class"``, is part of the snapshot and so of a checkpoint's digest:
a module that becomes a package of smaller modules names its classes as it did before
(:func:`snapshot_home`), and the journals and snapshots written before read back alike.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import importlib
import json
import sys
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any, TypeVar

from macau_tables.core.errors import MacauTablesError

__all__ = [
    "SnapshotError",
    "class_name",
    "decode",
    "digest",
    "encode",
    "snapshot_class",
    "snapshot_constant",
    "snapshot_home",
    "snapshot_text_class",
    "text",
]

_T = TypeVar("_T", bound=type)
_O = TypeVar("_O")
_PACKAGE = "macau_tables."
_PLAIN: set[type] = set()  # plain (non-dataclass) classes allowed: snapshot_class
_CONSTANTS: dict[str, object] = {}  # snapshot_constant: name -> the object
_TEXT: dict[type, Any] = {}  # snapshot_text_class: class -> its parse
_CONSTANT_NAMES: dict[int, str] = {}  # id -> name
_HOMES: dict[str, str] = {}  # snapshot_home: a module -> the module its classes are named as
_HOUSED: dict[str, list[str]] = {}  # a home -> the modules whose classes it names


class SnapshotError(MacauTablesError):
    """A state that cannot be written as a snapshot, or a snapshot that cannot be read."""


def snapshot_class(cls: _T) -> _T:
    """Let a plain class of this package (not a dataclass) be written and read by its
    ``__dict__`` / ``__slots__`` (a class decorator)."""
    _PLAIN.add(cls)
    return cls


def snapshot_text_class(cls: _T) -> _T:
    """Write instances of a small immutable class of this package (a card, a tile) as
    their text, ``str(x)``, and read them back with ``cls.parse`` (a class decorator):
    a shoe of 416 cards is 416 short strings."""
    _TEXT[cls] = cls.parse  # type: ignore[attr-defined]
    return cls


def snapshot_constant(name: str, obj: _O) -> _O:
    """Write ``obj`` (a module's constant: a regulation, with its functions) by ``name``
    and read it back as the very object."""
    _CONSTANTS[name] = obj
    _CONSTANT_NAMES[id(obj)] = name
    return obj


def snapshot_home(module: str, home: str) -> None:
    """Name the classes of ``module`` in snapshots as ``home``'s (``"home:Class"``): the
    module they were written from before it became a package of smaller modules, so that
    snapshots, and the checkpoint digests of the journals written before, stay as they were.
    Reading ``"home:Class"`` looks for the class in ``home`` and in every module it houses
    (a name two of them define is refused as ambiguous); a home that is no module any more
    (gone into a package) is read once its package is imported."""
    if not module.startswith(_PACKAGE) or not home.startswith(_PACKAGE):
        raise SnapshotError(f"{module} → {home}: modules of this package only")
    if _HOMES.get(module, home) != home:
        raise SnapshotError(f"{module} is housed in {_HOMES[module]} already, not {home}")
    _HOMES[module] = home
    housed = _HOUSED.setdefault(home, [])
    if module not in housed:
        housed.append(module)


def _name(cls: type) -> str:
    return f"{_HOMES.get(cls.__module__, cls.__module__)}:{cls.__qualname__}"


def class_name(cls: type) -> str:
    """The name snapshots give ``cls``: ``"module:Class"``, the module its home
    (:func:`snapshot_home`)."""
    return _name(cls)


#: a dataclass field's metadata: the field is written only when it is not its default, and
#: read back as its default when a snapshot does not hold it — an option added to a value
#: that snapshots hold leaves the snapshots (and the checkpoint digests of the journals)
#: written before it as they were (``field(default=..., metadata=OMIT_DEFAULT)``)
OMIT_DEFAULT: Mapping[str, Any] = MappingProxyType({"snapshot": "omit_default"})


def _omitted(f: dataclasses.Field[Any], value: Any) -> bool:
    return f.metadata.get("snapshot") == "omit_default" and value == _default(f)


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    raise SnapshotError(f"{f.name}: OMIT_DEFAULT needs a default")


def _fields(obj: object) -> dict[str, Any]:
    """What a snapshot writes of an object: a dataclass's fields but its caches (fields
    with ``compare=False``, restored as their default) and its :data:`OMIT_DEFAULT` fields
    at their default, or a plain class's attributes but those it names in
    ``SNAPSHOT_SKIP`` (restored as None)."""
    if dataclasses.is_dataclass(obj):
        return {
            f.name: v
            for f in dataclasses.fields(obj)
            if f.compare and not _omitted(f, v := getattr(obj, f.name))
        }
    out: dict[str, Any] = dict(getattr(obj, "__dict__", {}))
    for klass in type(obj).__mro__:
        for slot in getattr(klass, "__slots__", ()):
            if slot not in ("__dict__", "__weakref__") and hasattr(obj, slot):
                out[slot] = getattr(obj, slot)
    skip = getattr(type(obj), "SNAPSHOT_SKIP", ())
    return {k: v for k, v in out.items() if k not in skip}


def _frozen(obj: object) -> bool:
    params = getattr(type(obj), "__dataclass_params__", None)
    return bool(params is not None and params.frozen)


def encode(value: Any) -> Any:
    """``value`` as JSON-plain data (see the module's table); :class:`SnapshotError` for a
    float, a foreign class, or a mutable part reached twice (naming where)."""
    seen: dict[int, str] = {}

    def once(obj: object, at: str, inside_frozen: bool) -> None:
        if inside_frozen:  # part of an immutable value (an event's dict): not mutated
            return
        if id(obj) in seen:
            raise SnapshotError(
                f"{at}: a {type(obj).__name__} shared with {seen[id(obj)]}: a snapshot would "
                "restore two copies"
            )
        seen[id(obj)] = at

    def enc(v: Any, at: str, inside_frozen: bool = False) -> Any:
        if v is None or type(v) in (bool, str):
            return v
        if isinstance(v, enum.Enum):  # before str and int: a StrEnum is a str
            cls = type(v)
            if not cls.__module__.startswith(_PACKAGE):
                raise SnapshotError(f"{at}: enum {_name(cls)} is not this package's")
            return {"e": [_name(cls), enc(v.value, at, True)]}
        if type(v) is int:
            return v
        if id(v) in _CONSTANT_NAMES:
            return {"c": _CONSTANT_NAMES[id(v)]}
        if isinstance(v, float):
            raise SnapshotError(f"{at}: a float ({v!r}): money and counts are integers")
        if isinstance(v, list | tuple) and type(v) in (list, tuple) and len(v) > 1:
            cls0 = type(v[0])
            if cls0 in _TEXT and all(type(x) is cls0 for x in v):  # a shoe: one name
                if type(v) is list:
                    once(v, at, inside_frozen)
                return {"lx" if type(v) is list else "tx": [_name(cls0), [str(x) for x in v]]}
        if isinstance(v, list):
            once(v, at, inside_frozen)
            return {"l": [enc(x, f"{at}[{i}]", inside_frozen) for i, x in enumerate(v)]}
        if isinstance(v, tuple) and type(v) is tuple:
            return {"t": [enc(x, f"{at}[{i}]", inside_frozen) for i, x in enumerate(v)]}
        if isinstance(v, dict) and type(v) is dict:
            once(v, at, inside_frozen)
            pairs = [
                [enc(k, at, inside_frozen), enc(x, f"{at}[{k!r}]", inside_frozen)]
                for k, x in v.items()
            ]
            if inside_frozen:
                # part of a value (a rule set's limits): its order is not state — a rule set
                # read back from a journal has its keys sorted, the one it was made from not
                pairs.sort(key=lambda kv: _canonical(kv[0]))
            return {"d": pairs}
        if isinstance(v, MappingProxyType):
            return {"p": enc(dict(v), at, True)}
        if isinstance(v, set | frozenset) and type(v) in (set, frozenset):
            if isinstance(v, set):
                once(v, at, inside_frozen)
            items = sorted((enc(x, at, inside_frozen) for x in v), key=_canonical)
            return {"s" if isinstance(v, set) else "fs": items}
        if isinstance(v, bytes):
            return {"b": v.hex()}
        if isinstance(v, Fraction):
            return {"q": [v.numerator, v.denominator]}
        cls = type(v)
        if cls in _TEXT:
            return {"x": [_name(cls), str(v)]}
        if not cls.__module__.startswith(_PACKAGE):
            raise SnapshotError(f"{at}: {_name(cls)} is not a class of this package")
        if not (dataclasses.is_dataclass(v) or cls in _PLAIN):
            raise SnapshotError(f"{at}: {_name(cls)} is neither a dataclass nor a snapshot_class")
        frozen = inside_frozen or _frozen(v)
        if not frozen:
            once(v, at, inside_frozen)
        fields = {k: enc(x, f"{at}.{k}", frozen) for k, x in _fields(v).items()}
        return {"o": [_name(cls), fields]}

    return enc(value, "state")


def _class(name: Any) -> type:
    if not isinstance(name, str) or ":" not in name:
        raise SnapshotError(f"not a class name: {name!r}")
    module, _, qual = name.partition(":")
    if not module.startswith(_PACKAGE):
        raise SnapshotError(f"{name}: not a class of this package")
    try:
        places: list[Any] = [importlib.import_module(module)]
    except ImportError as exc:
        if module not in _HOUSED:  # a module gone into a package: its modules name it
            raise SnapshotError(f"{name}: no such class") from exc
        places = []
    places += [sys.modules[m] for m in _HOUSED.get(module, ()) if m in sys.modules]
    found: list[type] = []
    for obj in places:
        for part in qual.split("."):
            obj = getattr(obj, part, None)
        if obj is not None and _named(obj, module, qual) and obj not in found:
            found.append(obj)
    if len(found) > 1:
        raise SnapshotError(f"{name}: ambiguous ({', '.join(c.__module__ for c in found)})")
    if not found:
        raise SnapshotError(f"{name}: no such class")
    return found[0]


def _named(obj: Any, module: str, qual: str) -> bool:
    """Whether ``obj`` is a class a snapshot names ``module:qual`` (not a function, nor a
    class another module defines and this one imports)."""
    if not isinstance(obj, type):
        raise SnapshotError(f"{module}:{qual}: not a class")
    return _name(obj) == f"{module}:{qual}"


def decode(data: Any) -> Any:
    """The value :func:`encode` wrote (:class:`SnapshotError` if ``data`` is not one)."""
    if data is None or (isinstance(data, bool | str | int) and not isinstance(data, float)):
        return data
    if not isinstance(data, dict) or len(data) != 1:
        raise SnapshotError(f"not a snapshot value: {str(data)[:80]}")
    ((tag, body),) = data.items()
    match tag:
        case "l":
            return [decode(x) for x in _list(body)]
        case "t":
            return tuple(decode(x) for x in _list(body))
        case "d":
            return {decode(k): decode(x) for k, x in (_pair(p) for p in _list(body))}
        case "s":
            return {decode(x) for x in _list(body)}
        case "fs":
            return frozenset(decode(x) for x in _list(body))
        case "c" if isinstance(body, str) and body in _CONSTANTS:
            return _CONSTANTS[body]
        case "b" if isinstance(body, str):
            return bytes.fromhex(body)
        case "q":
            num, den = _pair(body)
            return Fraction(num, den)
        case "p":
            inner = decode(body)
            if not isinstance(inner, dict):
                raise SnapshotError("a mapping proxy shows a dict")
            return MappingProxyType(inner)
        case "lx" | "tx":
            name, texts = _pair(body)
            cls = _class(name)
            if cls not in _TEXT or not isinstance(texts, list):
                raise SnapshotError(f"{name}: not a class written as text")
            items = [_TEXT[cls](_str(t)) for t in texts]
            return items if tag == "lx" else tuple(items)
        case "x":
            name, value = _pair(body)
            cls = _class(name)
            if cls not in _TEXT or not isinstance(value, str):
                raise SnapshotError(f"{name}: not a class written as text")
            return _TEXT[cls](value)
        case "e":
            name, value = _pair(body)
            cls = _class(name)
            if not issubclass(cls, enum.Enum):
                raise SnapshotError(f"{name}: not an enum")
            return cls(decode(value))
        case "o":
            name, fields = _pair(body)
            cls = _class(name)
            if not (dataclasses.is_dataclass(cls) or cls in _PLAIN):
                raise SnapshotError(f"{name}: neither a dataclass nor a snapshot_class")
            if not isinstance(fields, dict):
                raise SnapshotError(f"{name}: its fields are an object")
            obj: Any = object.__new__(cls)
            for key, value in fields.items():
                object.__setattr__(obj, key, decode(value))
            if dataclasses.is_dataclass(cls):
                for f in dataclasses.fields(cls):
                    if not f.compare and f.default is not dataclasses.MISSING:
                        object.__setattr__(obj, f.name, f.default)
                    elif f.name not in fields and f.metadata.get("snapshot") == "omit_default":
                        object.__setattr__(obj, f.name, _default(f))
            else:
                for name in getattr(cls, "SNAPSHOT_SKIP", ()):
                    object.__setattr__(obj, name, None)
            return obj
    raise SnapshotError(f"unknown snapshot tag {tag!r}")


def _str(body: Any) -> str:
    if not isinstance(body, str):
        raise SnapshotError("a snapshot text is a JSON string")
    return body


def _list(body: Any) -> list[Any]:
    if not isinstance(body, list):
        raise SnapshotError("a snapshot list is a JSON array")
    return body


def _pair(body: Any) -> tuple[Any, Any]:
    if not isinstance(body, list) or len(body) != 2:
        raise SnapshotError("a snapshot pair is a JSON array of two")
    return body[0], body[1]


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def text(data: Any) -> str:
    """Encoded state as the one canonical JSON text (stored, and hashed by :func:`digest`)."""
    return _canonical(data)


def digest(data: Any) -> str:
    """The SHA-256 (hex) of an encoded state's canonical text."""
    return hashlib.sha256(text(data).encode("utf-8")).hexdigest()
