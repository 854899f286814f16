"""A recall applies the entries before its rounds as journalled and re-runs only its rounds
(``contract.Replay.skip_to``): the result must be the one a re-run of the whole journal
gives, for every game, every viewer and any choice of rounds."""

from __future__ import annotations

import dataclasses
import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from macau_tables.core.errors import ReplayMismatch
from macau_tables.core.journal import Entry, Event
from macau_tables.core.visibility import Viewer
from macau_tables.games.contract import Replay, SeedCommitted
from macau_tables.server.games import binding
from macau_tables.server.recall import TableRecord, recall_rounds
from tests.server.drive_tables import record

GAMES = ("baccarat", "craps", "paigow", "taiwan")
VIEWERS = (Viewer.SUPERVISOR, Viewer.player("alice"), Viewer.player("bob"), Viewer.PUBLIC)


@functools.cache
def table(game: str) -> TableRecord:
    return record(game, 14)


@pytest.mark.parametrize("game", GAMES)
def test_the_last_ten_rounds_are_those_of_a_full_rerun(game: str) -> None:
    rec = table(game)
    last10 = rec.rounds()[-10:]
    assert last10[0].first > 1  # there is a prefix to skip
    for viewer in VIEWERS:
        fast = recall_rounds(rec, binding(game), viewer, last10)
        full = recall_rounds(rec, binding(game), viewer, last10, rerun_all=True)
        assert fast == full
        assert sum(len(r["steps"]) for r in fast) > 0


@settings(max_examples=25, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    viewer=st.sampled_from(VIEWERS),
    data=st.data(),
)
def test_any_rounds_are_those_of_a_full_rerun(
    game: str, viewer: Viewer, data: st.DataObject
) -> None:
    rec = table(game)
    rounds = rec.rounds()
    chosen = data.draw(st.lists(st.sampled_from(rounds), min_size=1, max_size=4, unique=True))
    fast = recall_rounds(rec, binding(game), viewer, chosen)
    assert fast == recall_rounds(rec, binding(game), viewer, chosen, rerun_all=True)


@pytest.mark.parametrize("game", GAMES)
def test_skipping_ends_in_the_state_a_rerun_reaches(game: str) -> None:
    """The applied prefix leaves the engine where re-running it does: the same view for
    every viewer, the same head, and the rest of the journal re-runs from there."""
    rec = table(game)
    cut = rec.rounds()[-3].first
    skipped = Replay(rec.journal, binding(game).open, rec.seeds)
    skipped.skip_to(cut)
    rerun = Replay(rec.journal, binding(game).open, rec.seeds)
    for _ in rerun.steps():
        if rerun.done >= cut:
            break
    assert rerun.done == cut
    assert skipped.engine.journal.head == rerun.engine.journal.head
    for viewer in VIEWERS:
        assert skipped.engine.view(viewer) == rerun.engine.view(viewer)
    assert len(list(skipped.steps())) > 0
    assert skipped.done == len(rec.journal)


def test_skip_to_refuses_to_go_back() -> None:
    rec = table("craps")
    run = Replay(rec.journal, binding("craps").open, rec.seeds)
    run.skip_to(5)
    with pytest.raises(ValueError, match="skip_to"):
        run.skip_to(3)
    with pytest.raises(ValueError, match="skip_to"):
        run.skip_to(len(rec.journal) + 1)


def test_an_event_the_engine_journals_otherwise_is_refused_when_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The applied entries are taken as journalled only when the engine journals the very
    event recorded: one that journals another (here a seed's label changed on its way
    into the journal) gets another hash, and the replay stops at that entry."""
    rec = table("baccarat")
    run = Replay(rec.journal, binding("baccarat").open, rec.seeds)
    journal = run.engine.journal
    real = journal.append

    def append(ev: Event) -> Entry:
        if len(journal) == 4:
            assert isinstance(ev, SeedCommitted)
            ev = dataclasses.replace(ev, label="shoe:other")
        return real(ev)

    monkeypatch.setattr(journal, "append", append)
    with pytest.raises(ReplayMismatch, match="entry 4"):
        run.skip_to(10)
