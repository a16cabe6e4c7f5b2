"""The case numbers a start drew and never used, found and handed to the next start (PostgreSQL).

A start draws its number from a sequence (migration 0035) and holds no lock for the rest of its
transaction; a sequence does not take back a number whose start rolled back (a failure after the
draw, a lost connection, a server crash: its numbers cached in the WAL are skipped). The timer worker
calls `HoleFinder.round` each round: for each prefix and year it looks at the numbers drawn since
`case_counter.last` (through which every number is accounted for) and moves `last` up to the first
one no case holds. A number no case holds may still belong to a start in progress, so it is called a
hole only when it was drawn before this finder's previous round and, under a SHARE lock on
case_number_hole, still has no case: every start holds ROW EXCLUSIVE on that table from before its
draw to its end (its draw's DELETE), so the lock waits for the starts in progress and, once held,
none is. A hole goes into case_number_hole, where the next start of that prefix and year takes the
lowest (`tramite_draw_case_number`): so the numbers stay gap-free, and such a case's number is lower
than those of the starts made meanwhile.
"""
from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from engine.identity.actor import SYSTEM

# How long a round waits for the starts in progress before leaving the holes to the next round; new
# starts of any procedure wait behind the lock request meanwhile, so it is short.
LOCK_WAIT = "200ms"
LOCK_NOT_AVAILABLE = "55P03"

# The counters with numbers drawn past `last`, read without a lock (an idle round writes nothing);
# each is then locked (SKIP LOCKED: two finders never work on one at once) and its `last` read again.
# The last number drawn of a prefix and year (0 before the first, or without a sequence yet).
_LAST_DRAWN = "coalesce(pg_sequence_last_value(to_regclass(tramite_case_number_sequence({p}, {y}))), 0)"
_COUNTERS = text(
    f"SELECT prefix, year, drawn FROM (SELECT prefix, year, last, {_LAST_DRAWN.format(p='prefix', y='year')} "
    "AS drawn FROM case_counter) AS c WHERE drawn > last ORDER BY prefix, year")
_LOCKED = text("SELECT last FROM case_counter WHERE prefix = :p AND year = :y FOR UPDATE SKIP LOCKED")
# The numbers after `last` through `drawn` that neither a case nor case_number_hole holds.
_UNHELD = text(
    "SELECT n FROM generate_series(CAST(:last AS bigint) + 1, CAST(:drawn AS bigint)) AS n "
    "WHERE NOT EXISTS (SELECT 1 FROM process_instance i "
    "                  WHERE i.case_number = tramite_case_number_text(:p, :y, n)) "
    "AND NOT EXISTS (SELECT 1 FROM case_number_hole h WHERE h.prefix = :p AND h.year = :y AND h.n = n) "
    "ORDER BY n")
_DRAWN = text("SELECT " + _LAST_DRAWN.format(p=":p", y=":y"))
_KEEP = text("INSERT INTO case_number_hole (prefix, year, n) "
             "SELECT :p, :y, unnest(CAST(:holes AS bigint[])) ON CONFLICT DO NOTHING")
_MOVE = text("UPDATE case_counter SET last = :last WHERE prefix = :p AND year = :y")


class HoleFinder:
    """One per worker: it remembers, per prefix and year, the last number drawn at its previous round."""

    def __init__(self):
        self.seen: dict[tuple[str, int], int] = {}

    def round(self, engine) -> dict:
        """The worker's call; SQLite draws under the counter's lock and leaves no holes."""
        if engine.db.is_sqlite:
            return {}
        return engine.execute(self.account, SYSTEM)

    def account(self, ctx) -> dict:
        """Move each counter's `last` and keep the holes found; {"prefix-year": holes kept}."""
        conn, kept = ctx.conn, {}
        for prefix, year, drawn in conn.execute(_COUNTERS).all():
            key, previous = (prefix, year), self.seen.get((prefix, year), 0)
            self.seen[key] = drawn
            params = {"p": prefix, "y": year}
            last = conn.execute(_LOCKED, params).scalar()
            if last is None or drawn <= last:  # another finder holds it, or has just moved it
                continue
            unheld = list(conn.execute(_UNHELD, {**params, "last": last, "drawn": drawn}).scalars())
            if not unheld or unheld[0] > previous:  # all held, or the first unheld one is recent
                conn.execute(_MOVE, {**params, "last": unheld[0] - 1 if unheld else drawn})
                continue
            holes = self._holes(conn, params, last)
            if holes is None:  # a start in progress held on: the next round looks again
                conn.execute(_MOVE, {**params, "last": unheld[0] - 1})
                continue
            kept[f"{prefix}-{year}"] = len(holes)
        return kept

    @staticmethod
    def _holes(conn, params: dict, last: int) -> list[int] | None:
        """Under the lock, every number drawn and held by no case is a hole: kept, and `last` moved
        past them. None when the starts in progress did not end within LOCK_WAIT."""
        savepoint = conn.begin_nested()
        try:
            conn.execute(text(f"SET LOCAL lock_timeout = '{LOCK_WAIT}'"))
            conn.execute(text("LOCK TABLE case_number_hole IN SHARE MODE"))
        except OperationalError as exc:
            savepoint.rollback()
            if getattr(exc.orig, "sqlstate", None) != LOCK_NOT_AVAILABLE:
                raise
            return None
        drawn = conn.execute(_DRAWN, params).scalar()
        holes = list(conn.execute(_UNHELD, {**params, "last": last, "drawn": drawn}).scalars())
        if holes:
            conn.execute(_KEEP, {**params, "holes": "{" + ",".join(map(str, holes)) + "}"})
        conn.execute(_MOVE, {**params, "last": drawn})
        savepoint.commit()
        return holes
