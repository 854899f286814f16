"""Who may see what: viewers and the audience of each event (the information model).

Every journalled event has an :class:`Audience`. A table's hidden information (the order of
a shoe or a woodpile, a seat's face-down tiles) never appears in a public event: a shuffle
publishes a commitment, a card or tile becomes public when the rules turn it face up, and
what only one person may see (his own face-down tiles) is private to him.

* ``Audience.PUBLIC`` — everyone, the public included.
* ``Audience.private("alice", "bob")`` — those players, and the staff (dealer, supervisor)
  when ``staff=True`` (the default: the dealer handles the tiles and cards).
* ``Audience.STAFF`` — the dealer and supervisors only (e.g. a key-in of a physical shoe).

A :class:`Viewer` is whoever looks: the public, a named player, the dealer or a supervisor.
A supervisor sees every event (surveillance); nobody sees what is in no event.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from macau_tables.core.errors import InvalidInput

__all__ = ["Audience", "Viewer", "ViewerRole"]


class ViewerRole(StrEnum):
    PUBLIC = "public"
    PLAYER = "player"
    DEALER = "dealer"
    SUPERVISOR = "supervisor"


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks at a table: ``Viewer.player("alice")``, ``Viewer.PUBLIC``, …"""

    role: ViewerRole
    name: str = ""

    PUBLIC: ClassVar[Viewer]
    DEALER: ClassVar[Viewer]
    SUPERVISOR: ClassVar[Viewer]

    def __post_init__(self) -> None:
        if (self.role is ViewerRole.PLAYER) != bool(self.name):
            raise InvalidInput("a player viewer has a name; other viewers have none")

    @classmethod
    def player(cls, name: str) -> Viewer:
        return cls(ViewerRole.PLAYER, name)

    def __str__(self) -> str:
        return f"player:{self.name}" if self.name else self.role.value


Viewer.PUBLIC = Viewer(ViewerRole.PUBLIC)
Viewer.DEALER = Viewer(ViewerRole.DEALER)
Viewer.SUPERVISOR = Viewer(ViewerRole.SUPERVISOR)


@dataclass(frozen=True, slots=True)
class Audience:
    """Who may see one event."""

    public: bool
    players: frozenset[str] = field(default_factory=frozenset)
    staff: bool = True

    PUBLIC: ClassVar[Audience]
    STAFF: ClassVar[Audience]

    @classmethod
    def private(cls, *players: str, staff: bool = True) -> Audience:
        return cls(False, frozenset(players), staff)

    def admits(self, viewer: Viewer) -> bool:
        """Whether ``viewer`` may see an event with this audience."""
        if self.public or viewer.role is ViewerRole.SUPERVISOR:
            return True
        if viewer.role is ViewerRole.DEALER:
            return self.staff
        return viewer.role is ViewerRole.PLAYER and viewer.name in self.players

    def to_json(self) -> dict[str, object]:
        return {"public": self.public, "players": sorted(self.players), "staff": self.staff}


Audience.PUBLIC = Audience(True)
Audience.STAFF = Audience(False, frozenset(), True)
