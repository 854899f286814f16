"""``--journal`` of the terminal games: one rule for all four, and a file written as it grows."""

from __future__ import annotations

import json
from pathlib import Path

from macau_tables.core.errors import InvalidInput
from macau_tables.core.journal import FORMAT, FORMAT_VERSION, Journal

__all__ = ["JournalFile", "journal_target"]

_TAIL = "\n]}\n"


def journal_target(path: Path | None, game: str) -> Path | None:
    """``--journal``, one rule for all games, checked before play starts: an existing
    folder gets a new file inside it (``<game>-0001.json``, the first free number);
    anything else is a new file whose folder must exist. Only that file is ever created."""
    if path is None:
        return None
    if path.is_dir():
        n = 1
        while (path / f"{game}-{n:04d}.json").exists():
            n += 1
        return path / f"{game}-{n:04d}.json"
    if not path.parent.is_dir():
        raise InvalidInput(f"--journal {path}: the folder {path.parent} does not exist")
    if path.exists():
        raise InvalidInput(f"--journal {path}: the file exists (give a new name or a folder)")
    return path


class JournalFile:
    """A journal written as it grows: each new entry appended and flushed, so the file is
    a valid journal (``macau-tables verify``) up to the last event even if the session is
    killed (Ctrl-C)."""

    def __init__(self, path: Path, journal: Journal) -> None:
        self.path = path
        self.written = 0
        head = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "game": journal.game,
            "header": journal.header,
        }
        text = json.dumps(head, ensure_ascii=False, sort_keys=True)
        self._fh = path.open("w+", encoding="utf-8")
        self._fh.write(text[:-1] + ', "entries": [' + _TAIL)
        self._fh.flush()
        self.sync(journal)

    def sync(self, journal: Journal) -> None:
        """Append the entries not yet written, then flush."""
        for entry in journal.entries[self.written :]:
            self._fh.seek(self._fh.tell() - len(_TAIL))
            sep = ",\n" if self.written else "\n"
            body = json.dumps(entry.to_json(), ensure_ascii=False, sort_keys=True)
            self._fh.write(sep + body + _TAIL)
            self.written += 1
        self._fh.flush()

    def close(self) -> None:
        self._fh.close()
