"""A case-number search on PostgreSQL reads ranges of ix_case_search_number_head (migration 0037,
engine/queries/number_search.py) in place of `lower(case_number) LIKE '%q%'`: it must find exactly the
cases the LIKE finds, also for numbers that are not `PPP-YYYY-NNNNNN` (a prefix with a dash or a
digit, no trailing digits, digits alone, letters beyond ASCII), and its ranges must be ones the
index answers."""
from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.dialects import postgresql

from engine.identity.actor import SYSTEM, Actor
from engine.queries import case_search, cases, list_totals, number_search

# Numbers written over some of the fixture's cases: a number's shape is the prefix's and the year's.
ODD = {0: "A-1-2026-000007", 1: "X-2026-12Z", 2: "2026", 3: "Ñ-2026-000001", 4: "TES-2026-1234567",
       5: "b-2-C-99", 6: "tes-2026-"}
NEEDLES = ["1-2026-0", "a-1-", "A-1-2026-000007", "-12z", "12z", "2026", "ñ-2026-00000", "Ñ-2026", "tes-2026-00000",
           "S-2026-0000", "-2026-", "26-0", "000", "%", "_", "-", "tes", "es-2026-12345678", "-c-9", "2-c-99",
           "c-99", "e", " TES-2026-000010 ", "tes-2026-", "z", "b-2-c-999"]
ACTORS = [Actor("boss", frozenset({"supervisor"})), Actor("caguas_clerk", frozenset({"test_clerk"}), "Caguas")]


def test_split_gives_the_whole_heads_and_the_ranges_the_needle_is_in():
    heads = ["mat-2023-", "mat-2024-", "a-1-2026-", "x-2026-12z", ""]
    assert number_search.split("mat-2023-00012", heads) == ([], [("mat-2023-", "mat-2023-00012")])
    assert number_search.split("at-20", heads) == (["mat-2023-", "mat-2024-"], [])
    # The needle's digits may follow any end of a head ("-" of two heads here).
    assert number_search.split("-0001", heads) == ([], [("mat-2023-", "mat-2023-0001"), ("mat-2024-", "mat-2024-0001"),
                                                        ("a-1-2026-", "a-1-2026-0001")])
    assert number_search.split("1-2026-5", heads) == ([], [("a-1-2026-", "a-1-2026-5")])
    assert number_search.split("12z", heads) == (["x-2026-12z"], [])
    assert number_search.split("mat-2023-0001x", heads) == ([], [])  # digits then a letter: in no number
    assert number_search.split("q", heads) == ([], [])


def _oddly_numbered(engine, searched):
    def renumber(ctx):
        for i, number in ODD.items():
            ctx.conn.execute(text("UPDATE process_instance SET case_number = :n WHERE case_number = :old"),
                             {"n": number, "old": searched[i]})
    engine.execute(renumber, SYSTEM)


def _listings(engine, monkeypatch, needles, *, like: bool) -> dict:
    with monkeypatch.context() as m:
        if like:  # the search's plain OR of LIKEs, as SQLite runs it
            m.setattr(list_totals, "kept", lambda session: False)
        out = {}
        for actor in ACTORS:
            for q in needles:
                rows, total = engine.read(cases.list_instances, actor, engine.now, page=1, per_page=100, q=q)
                out[(actor.username, q)] = (total, [r["case_number"] for r in rows])
        return out


@pytest.fixture
def postgres_only(engine):
    if engine.db.is_sqlite:
        pytest.skip("the number arm's index is PostgreSQL's (engine/queries/number_search.py)")


def test_the_ranges_find_exactly_what_the_like_finds(engine, searched, monkeypatch, postgres_only):
    _oddly_numbered(engine, searched)
    year = searched[10].split("-")[1]  # the fixture's cases' (its clock's), beside ODD's 2026
    needles = [*NEEDLES, searched[10], searched[10][2:11], f"-{year}-00001", f"{year}-", f"tes-{year}"]
    ranged, liked = (_listings(engine, monkeypatch, needles, like=like) for like in (False, True))
    assert {k: (v, liked[k]) for k, v in ranged.items() if v != liked[k]} == {}
    found = {q: v for (who, q), v in liked.items() if who == "boss"}
    assert found["1-2026-0"][1] == ["A-1-2026-000007"] and found["12z"][1] == ["X-2026-12Z"]
    assert found["ñ-2026-00000"][1] == ["Ñ-2026-000001"] and found["es-2026-12345678"][0] == 0
    assert set(found["tes-2026-"][1]) == {"tes-2026-", "TES-2026-1234567"} and found["2-c-99"][1] == ["b-2-C-99"]
    assert found[f"tes-{year}"][0] == 17 and found[f"-{year}-00001"][0] == 10 and found[searched[10]][0] == 1
    assert len({v[0] for v in found.values()}) > 5  # the comparisons compare something


def test_a_number_needle_is_read_through_the_head_index_and_not_filtered_row_by_row(engine, searched, postgres_only):
    """The query writes the index's very expressions (constants not bound), so the planner can use
    it; with sequential scans priced out, it does. No trigram scan, no LIKE on case_number."""
    def plan(session):
        session.execute(text("SET enable_seqscan = off"))
        try:
            page = case_search.Search(session, searched[5]).page(lambda table: [], 1, 50)
            # As sent: the index's constants written out, never bound (a generic plan would not match them).
            assert "regexp_replace(lower(case_search.case_number), '[0-9]+$', '')" in str(
                page.compile(dialect=postgresql.dialect()))
            sql = page.compile(dialect=postgresql.dialect(paramstyle="named"), compile_kwargs={"literal_binds": True})
            return "\n".join(session.execute(text(f"EXPLAIN {sql}")).scalars())
        finally:
            session.execute(text("RESET enable_seqscan"))
    lines = engine.read(plan)
    assert "ix_case_search_number_head" in lines, lines
    assert "ix_case_search_number_trgm" not in lines and "lower((case_number)::text) ~~" not in lines, lines


def test_a_needle_of_digits_alone_keeps_the_like(engine, searched, postgres_only):
    assert number_search.wanted(searched[5][-3:]) is False and number_search.wanted(searched[5][-7:]) is True
    assert number_search.NumberArm("000", ["tes-2024-"]).usable is False
    assert number_search.NumberArm("-000", None).usable is False  # past HEADS heads

    def plan(session):
        page = case_search.Search(session, searched[5][-3:]).page(lambda table: [], 1, 50)
        return str(page.compile(dialect=postgresql.dialect()))
    assert "regexp_replace" not in engine.read(plan)
