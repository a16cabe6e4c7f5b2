"""The exact total of a case list's text search (`q`) on PostgreSQL, without the starter's trigrams.

A search matches a case number, a starter (`lower(started_by) LIKE '%q%'`) or the applicant text
(engine/queries/cases.py `_search`). At 1,000,000 cases a staff member's name ("registry_clerk_03")
is in 18,506 cases, and the trigram index on started_by answers it by intersecting the posting
lists of trigrams every clerk shares (most of the count's 120 ms). Starters are few (the staff and
the applicants who file), so the search finds the matching starters among the distinct values
(a loose scan of ix_instance_started_by, one index descent per starter) and counts their cases as
one range of that index; the cases the other two arms find and those starters did not start are
counted through the trigram indexes of those arms. The two counts are disjoint and their sum is
the OR's count. One statement, one snapshot; with more than STARTERS distinct starters it counts
the OR itself, as before.

All of it reads the narrow search table (case_search, 0033), which holds the trigram indexes and
the columns a staff member's visibility filters on: the matching rows are rechecked there, not in
the wide case rows."""
from __future__ import annotations

from sqlalchemy import String, any_, case, func, literal, literal_column, not_, or_, select
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import aliased

from engine.definitions import case_index
from engine.persistence.models import CASE_SEARCH
from engine.persistence.tables import INSTANCE

STARTERS = 500  # beyond (applicants who file by themselves), the OR is counted: a descent per starter is ~6 µs
NO_STARTERS = literal_column("CAST('{}' AS varchar[])", ARRAY(String))


def search_arms(q: str, table=CASE_SEARCH):
    """(case number arm, starter arm, applicant text arm) of a search, as cases.py's `_search` ORs them."""
    needle, folded = q.strip().lower(), case_index.fold(q)
    return (func.lower(table.c.case_number).contains(needle, autoescape=True),
            func.lower(table.c.started_by).contains(needle, autoescape=True),
            table.c.search_text.contains(folded, autoescape=True))


def count(session, q: str, conditions: list) -> int:
    """count(*) of the cases matching `q` and `conditions` (the list's other WHERE terms, over
    case_search's columns)."""
    number, starter, text = search_arms(q)
    table = CASE_SEARCH
    starters = _distinct_starters()
    matching = select(func.array_agg(starters.c.v)).where(
        starters.c.v.is_not(None), func.lower(starters.c.v).contains(q.strip().lower(), autoescape=True))
    # No starter matches: an empty array, not NULL (NOT (x = ANY(NULL)) would drop every case).
    theirs = table.c.started_by == any_(func.coalesce(matching.scalar_subquery(), NO_STARTERS))
    by_starter = select(func.count()).select_from(table).where(theirs, *conditions).scalar_subquery()
    by_the_rest = select(func.count()).select_from(table).where(
        or_(number, text), not_(theirs), *conditions).scalar_subquery()
    as_before = select(func.count()).select_from(table).where(or_(number, starter, text), *conditions)
    too_many = select(func.count()).select_from(starters).scalar_subquery() > STARTERS
    # No starter matches (an applicant's name): their count is 0 without a scan; the planner cannot
    # know the array is empty and would read a whole index for `= ANY(...)`.
    none_theirs = matching.scalar_subquery().is_(None)
    return session.execute(select(case((too_many, as_before.scalar_subquery()),
                                       else_=case((none_theirs, 0), else_=by_starter) + by_the_rest))).scalar()


def _distinct_starters():
    """The distinct started_by values, up to STARTERS + 1 of them (a recursive loose index scan)."""
    inner = aliased(INSTANCE)
    first = select(func.min(INSTANCE.c.started_by).label("v"), literal(1).label("k")).cte("starters", recursive=True)
    following = select(func.min(inner.c.started_by)).where(inner.c.started_by > first.c.v).scalar_subquery()
    return first.union_all(select(following, first.c.k + 1).where(first.c.v.is_not(None), first.c.k <= STARTERS))
