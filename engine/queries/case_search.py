"""A case list's text search (`q`) on PostgreSQL: its page and its exact total, arm by arm.

A search matches a case number, a starter (`lower(started_by) LIKE '%q%'`) or the applicant text
(engine/queries/cases.py `_search`). Each arm is found by its own index and the arms are joined as
sets of case ids, so none of them makes the others read every row:
- the case number: ranges of its head index (engine/queries/number_search.py), for a needle of
  digits alone its trigram index (few cases match);
- the starter: starters are few (the staff and the applicants who file), so the matching ones are
  found among the distinct values (a loose scan of ix_instance_started_by, one index descent per
  starter) and their cases read as ranges of ix_case_search_started_by; at 1,000,000 cases a clerk's
  name is in 18,506 cases, which the trigram index answered in 120 ms by intersecting the posting
  lists of trigrams every clerk shares. With more than STARTERS starters, the trigram arm.
- the applicant text: the term tables (engine/queries/search_terms.py, 0034), else its trigram arm.
The arms are made disjoint (the text arm's cases, then the case numbers that are not the text's, then
the starters' that are neither), so the total is a sum of counts with no set of ids made distinct:
the matching starters' cases counted as one range, and each other part without them. The page takes
each part's first cases in the list's order and keeps the first of their union. All of it reads the
narrow search table (case_search, 0033) or the term index, never the wide case rows.
SQLite reads every row with the OR of the three LIKEs (`search_arms`)."""
from __future__ import annotations

from sqlalchemy import String, and_, any_, func, literal, not_, select, true, union
from sqlalchemy.dialects.postgresql import ARRAY

from engine.definitions import case_index
from engine.persistence.models import CASE_SEARCH
from engine.persistence.tables import INSTANCE
from engine.queries import list_totals, loose_scan, number_search, search_terms

STARTERS = 500  # beyond (applicants who file by themselves), the trigram arm: a descent per starter is ~6 µs
_TEXTS = ARRAY(String)


def search_arms(q: str, table=CASE_SEARCH):
    """(case number arm, starter arm, applicant text arm) of a search, as cases.py's `_search` ORs them."""
    needle, folded = q.strip().lower(), case_index.fold(q)
    return (func.lower(table.c.case_number).contains(needle, autoescape=True),
            func.lower(table.c.started_by).contains(needle, autoescape=True),
            table.c.search_text.contains(folded, autoescape=True))


def indexed(session) -> bool:
    """The arms have their indexes and term tables on PostgreSQL only, where the totals are kept too."""
    return list_totals.kept(session)


class Search:
    """One search's arms, looked up once for its page and its total. `where(table)` gives the list's
    other conditions over a table with case_search's filtered columns (case_search, the term table)."""

    def __init__(self, session, q: str):
        needle = q.strip().lower()
        self.number, self.starter_like, self.text_like = search_arms(q)
        # The matching starters and the numbers' heads, each a loose index scan, in one round trip.
        starters = _starters_lookup(needle).subquery()
        number_heads = number_search.heads_lookup(CASE_SEARCH).subquery() if number_search.wanted(needle) else None
        row = session.execute(select(starters) if number_heads is None else
                              select(starters, number_heads).select_from(starters.join(number_heads, true()))).one()
        self.starters = None if row.starters > STARTERS else list(row.matching or [])  # None: more than STARTERS
        heads = None if number_heads is None else number_search.heads_of(row.many, row.found)
        numbers = number_search.NumberArm(needle, heads)
        # Its ranges hold exactly the numbers the LIKE matches, and only an index reads them.
        self.number_rows = numbers.access(CASE_SEARCH) if numbers.usable else self.number
        arm = search_terms.TextArm(session, case_index.fold(q))
        self.text = arm if arm.usable else None

    def _theirs(self, table):
        return table.c.started_by == any_(literal(self.starters, _TEXTS))

    def _parts(self, where, *, apart: bool = False) -> list:
        """Disjoint selects of (instance_id, started_at), their union the matching cases under the
        conditions: the text arm's, then the case number arm's that are not the text's, then the
        starters'. `apart`: the matching starters' cases are left out (counted as a range)."""
        cs, ct = CASE_SEARCH, search_terms.CASE_TERM
        on_cs, on_ct = ([*where(table), *([not_(self._theirs(table))] if self.starters and apart else [])]
                        for table in (cs, ct))

        def rows(*conditions):
            return select(cs.c.instance_id, cs.c.started_at).where(*conditions, *on_cs)
        not_text = not_(func.coalesce(self.text_like, False))  # a case without search text is not the text's
        parts = self.text.parts(on_ct, on_cs) if self.text is not None else [rows(self.text_like)]
        # OFFSET 0 keeps the arm a subquery of its own, read through its trigram index: as part of a page
        # the planner may instead walk ix_case_search_started backwards, filtering, in the hope of 50
        # matches soon, and a case number has a few: every row read (0.7 s at 1,000,000 cases, on some
        # of ANALYZE's samples). Its total reads all its matches anyway.
        parts.append(rows(self.number_rows, not_text).offset(0))
        if self.starters is None:
            parts.append(rows(self.starter_like, not_text, not_(self.number)))
        elif self.starters and not apart:
            parts.append(rows(self._theirs(cs), not_text, not_(self.number)))
        return parts

    def page(self, where, page: int, per_page: int):
        """A select of the page's case ids in the list's order: each part's first page * per_page."""
        first = page * per_page
        heads = []
        for part in self._parts(where):
            rows = part.subquery()
            heads.append(select(rows.c.instance_id, rows.c.started_at)
                         .order_by(rows.c.started_at.desc(), rows.c.instance_id.desc()).limit(first))
        heads = union(*heads).subquery()
        return (select(heads.c.instance_id).order_by(heads.c.started_at.desc(), heads.c.instance_id.desc())
                .limit(per_page).offset(first - per_page))

    def count(self, session, where) -> int:
        """count(*) of the cases matching the search and the conditions: the sum of the disjoint parts'."""
        counts = [select(func.count()).select_from(part.subquery()).scalar_subquery()
                  for part in self._parts(where, apart=True)]
        if self.starters:
            counts.append(select(func.count()).select_from(CASE_SEARCH).where(
                self._theirs(CASE_SEARCH), *where(CASE_SEARCH)).scalar_subquery())
        return session.execute(select(sum(counts[1:], counts[0]))).scalar()


def _starters_lookup(needle: str):
    """A select of one row: (how many distinct starters up to STARTERS + 1, those containing `needle`)."""
    starters = _distinct_starters()
    return select(func.count().label("starters"), func.array_agg(starters.c.v).filter(
        and_(starters.c.v.is_not(None), func.lower(starters.c.v).contains(needle, autoescape=True))
    ).label("matching")).select_from(starters)


def _distinct_starters():
    """The distinct started_by values, up to STARTERS + 1 of them (a loose scan of ix_instance_started_by)."""
    return loose_scan.distinct_values("starters", lambda table: table.c.started_by, INSTANCE, STARTERS)
