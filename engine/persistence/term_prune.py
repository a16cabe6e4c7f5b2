"""Pruning the search's distinct terms (PostgreSQL, migration 0034) after the retention job removes cases.

A term stays in `search_term` when the last case holding it goes (the trigger cannot drop it: a start
running at the same moment may have found the term there, not inserted it, and be about to commit its
own row for it; dropped, that case would be lost to searches). The retention job, after a batch is
removed and committed, drops the batch's terms no case holds any more, under a table lock that waits
for every transaction that has inserted into search_term (they hold ROW EXCLUSIVE to their end) and
holds off new ones for the few milliseconds of the delete: so no start is half-way past the term.
Most of a purged case's own terms are unique (its id, its number), so without this the table would
keep about two rows per case ever started."""
from __future__ import annotations

from sqlalchemy import text

_HELD_BY = text("SELECT DISTINCT t FROM case_search, unnest(tramite_search_terms(search_text)) t "
                "WHERE instance_id = ANY(CAST(:ids AS bigint[])) AND t <> ''")
_PRUNE = text("DELETE FROM search_term s WHERE s.term = ANY(CAST(:terms AS text[])) "
              "AND NOT EXISTS (SELECT 1 FROM case_search_term c WHERE c.term = s.term)")


def held_by(conn, ids: list[int]) -> list[str]:
    """The distinct terms of these cases' search text (read before they are removed)."""
    return list(conn.execute(_HELD_BY, {"ids": ids}).scalars()) if conn.dialect.name == "postgresql" else []


def prune(ctx, terms: list[str]) -> int:
    """Drop those of `terms` no case holds any more; the number dropped."""
    conn = ctx.conn
    # SHARE ROW EXCLUSIVE conflicts with the ROW EXCLUSIVE every inserter holds until it commits.
    conn.execute(text("LOCK TABLE search_term IN SHARE ROW EXCLUSIVE MODE"))
    return conn.execute(_PRUNE, {"terms": terms}).rowcount
