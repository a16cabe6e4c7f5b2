"""A text search's total (X-Total-Count of `?q=`) on PostgreSQL is counted in two disjoint parts
(engine/queries/case_search.py: the matching starters' cases, then the other arms' cases they did
not start); it equals the count(*) of the search's OR for every needle, caller and filter, and
also when there are more starters than the split reads (it then counts the OR). On SQLite both
sides count the OR."""
from __future__ import annotations

import pytest

from engine.identity.actor import Actor
from engine.queries import case_search, cases, list_totals

ACTORS = [Actor("boss", frozenset({"supervisor"})), Actor("caguas_clerk", frozenset({"test_clerk"}), "Caguas"),
          Actor("clerk_50%_done", frozenset({"registry_clerk"})), Actor("nobody", frozenset({"registry_clerk"}))]
NEEDLES = ["caguas_clerk", "clerk", "CLERK_50%", "_", "%", "e", "núñez 01", "nunez", "Cidra", "zzz", " humacao "]
FILTERS = [{}, {"status": "active"}, {"office": "Caguas"}, {"process": "other"}]


def search_totals(engine, monkeypatch, needles, *, counted: bool) -> dict:
    with monkeypatch.context() as m:
        if counted:
            m.setattr(list_totals, "kept", lambda session: False)
        # page 2 of one row: never the "first page not full" shortcut
        return {(a.username, q, str(f)): engine.read(cases.list_instances, a, engine.now, page=2, per_page=1,
                                                     q=q, **f)[1]
                for a in ACTORS for q in needles for f in FILTERS}


def test_search_totals_equal_the_count_of_the_search(engine, searched, monkeypatch):
    needles = [*NEEDLES, searched[5], searched[5][-3:]]
    split, counted = (search_totals(engine, monkeypatch, needles, counted=c) for c in (False, True))
    assert {k: (v, counted[k]) for k, v in split.items() if v != counted[k]} == {}
    assert counted[("boss", "clerk", "{}")] == 24 and counted[("boss", "caguas_clerk", "{}")] >= 8
    assert len(set(counted.values())) > 5  # the comparisons compare something
    monkeypatch.setattr(case_search, "STARTERS", 1)  # more starters than the split reads: the OR counted
    assert search_totals(engine, monkeypatch, needles, counted=False) == counted


def test_the_case_number_arm_of_a_page_is_not_a_backward_walk_of_the_list_order(engine, searched):
    """The page's case-number arm is planned apart (OFFSET 0), so it is read through its own index
    (the heads', 0037; the trigram index's before) and then sorted. Joined with the page's ORDER BY ... LIMIT, the planner could choose to walk
    ix_case_search_started backwards and filter, hoping for a page of matches soon: a case number has
    a few, so at 1,000,000 cases it read every row (0.7 s; bench/RESULTS.md). Sorts are priced out
    here so that the walk is the plan whenever the query lets the planner choose it (it does, for the
    arm as it was)."""
    if engine.db.is_sqlite:
        pytest.skip("the search's arms and their indexes are PostgreSQL's (engine/queries/case_search.py)")
    from sqlalchemy import text
    from sqlalchemy.dialects import postgresql

    def plan(session):
        session.execute(text("SET enable_sort = off; SET enable_incremental_sort = off"))
        try:
            search = case_search.Search(session, searched[5])
            sql = search.page(lambda table: [], 1, 50).compile(dialect=postgresql.dialect(paramstyle="named"),
                                                               compile_kwargs={"literal_binds": True})
            return "\n".join(session.execute(text(f"EXPLAIN {sql}")).scalars())
        finally:
            session.execute(text("RESET enable_sort; RESET enable_incremental_sort"))
    lines = engine.read(plan).splitlines()
    walks = [lines[i + 1] for i, line in enumerate(lines) if "Index Scan Backward using ix_case_search_started" in line]
    number_arm = [line for line in lines if "regexp_replace(lower((case_number)::text)" in line]  # its head (0037)
    assert number_arm, lines  # the plan holds the arm
    assert not [filtered for filtered in walks if "case_number" in filtered], lines
