"""Saved filters as the engine keeps them: per person, validated, paging left out, bounded."""
from __future__ import annotations

import pytest

from engine.commands import saved_filters as commands
from engine.errors import NotFound, ValidationFailed
from engine.identity.actor import Actor
from engine.queries.saved_filters import saved_filters

BOSS = Actor("boss", frozenset({"supervisor"}))
CLERK = Actor("clerk", frozenset({"test_clerk"}))


def test_a_filter_is_saved_without_its_page_listed_by_name_and_only_for_its_owner(engine):
    engine.execute(commands.save_filter, BOSS, "cases", "Vencidos", "overdue=1&page=4&per_page=10&format=csv")
    engine.execute(commands.save_filter, BOSS, "cases", "Activos", "status=active")
    assert [(f["name"], f["query"]) for f in engine.read(saved_filters, BOSS, "cases")] == [
        ("Activos", "status=active"), ("Vencidos", "overdue=1")]
    assert engine.read(saved_filters, BOSS, "tasks") == [] and engine.read(saved_filters, CLERK, "cases") == []
    theirs = engine.read(saved_filters, BOSS, "cases")[0]["id"]
    with pytest.raises(NotFound):
        engine.execute(commands.delete_filter, CLERK, theirs)
    engine.execute(commands.delete_filter, BOSS, theirs)
    assert [f["name"] for f in engine.read(saved_filters, BOSS, "cases")] == ["Vencidos"]


@pytest.mark.parametrize("list_name, name, query, field", [
    ("reports", "x", "", "list"), ("cases", "", "", "name"), ("cases", "n" * 101, "", "name"),
    ("cases", "largo", "q=" + "x" * 2100, "query")])
def test_a_bad_filter_is_refused_per_field_and_nothing_saved(engine, list_name, name, query, field):
    with pytest.raises(ValidationFailed) as refused:
        engine.execute(commands.save_filter, BOSS, list_name, name, query)
    assert field in refused.value.errors
    assert engine.read(saved_filters, BOSS, "cases") == []


def test_a_person_keeps_a_bounded_number_of_filters(engine, monkeypatch):
    monkeypatch.setattr(commands, "MAX_PER_USER", 3)
    for i in range(3):
        engine.execute(commands.save_filter, BOSS, "tasks", f"f{i}", f"process=p{i}")
    with pytest.raises(ValidationFailed):
        engine.execute(commands.save_filter, BOSS, "tasks", "f3", "")
    engine.execute(commands.save_filter, BOSS, "tasks", "f0", "overdue=1")  # replacing one is no new one
    assert len(engine.read(saved_filters, BOSS, "tasks")) == 3
