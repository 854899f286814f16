"""Every operation the engines accept has a name in each language (the action bar, the
countdown and the log say them; a raw ``pass_dice`` or ``house_banks`` is a defect)."""

from __future__ import annotations

import re
from pathlib import Path

from macau_tables.games.baccarat import BaccaratTable
from macau_tables.games.craps import CrapsTable
from macau_tables.games.tiles import TileTable
from macau_tables.web import i18n

ROOT = Path(__file__).resolve().parents[2]
# the Hi-Lo stand-in of the server tests dispatches by hand: its operations as it writes them
DISPATCH = re.compile(r'\bop (?:==|in) (\([^)]*\)|"[a-z_]+")|Pending\(([^)]*)\)')
NAME = re.compile(r'"([a-z_]+)"')
ENGINES = (BaccaratTable, CrapsTable, TileTable)


def engine_ops() -> set[str]:
    """Every operation the four games declare (games/kernel.py), their old names that the
    tables still accept, and the Hi-Lo stand-in's."""
    found: set[str] = set()
    for engine in ENGINES:
        found |= set(engine.OPERATIONS)
        found |= {alias.name for alias in engine.ALIASES}
    for m in DISPATCH.finditer((ROOT / "tests" / "server" / "hilo.py").read_text()):
        found |= set(NAME.findall(m.group(0)))
    return found


def test_the_engines_operations_are_found() -> None:
    ops = engine_ops()
    assert {"cut", "pass_dice", "house_banks", "place_bet", "set_tiles", "throw"} <= ops


def test_every_operation_has_a_name_in_each_language() -> None:
    missing = sorted(engine_ops() - set(i18n.OPS))
    assert missing == []
    strings = {lang: i18n.strings(lang) for lang in i18n.LANGS}
    for op in engine_ops():
        en, zh = strings["en"][f"op.{op}"], strings["zh"][f"op.{op}"]
        assert en != op and "_" not in en, op
        assert zh != en and not re.search("[a-z]", zh), op
        pt = strings["pt"][f"op.{op}"]
        assert pt != en and "_" not in pt, op
