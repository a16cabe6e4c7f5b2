"""The applicant text arm of a case search on PostgreSQL, through the term tables of migration 0034.

`search_text` LIKE '%needle%' reads every candidate row the trigram index gives (at 1,000,000 cases,
19,000 rows over nearly every block of case_search for a first name and a surname). A case's text is
also kept cut into terms, its words and its pairs of neighbouring words: a needle of one word is in
the text exactly when it is in one of its words, one of two words exactly when it is in one of its
pairs. So the matching distinct terms are looked up first (few rows, the trigram index of
search_term), then the rows of the cases holding them are read from one index, (term, instance_id),
which also carries the columns a list filters on and orders by: no case row is read.
A needle of three or more words takes the cases holding a match of each of its pairs and rechecks
their text; so do the few cases whose text has a word too long to be kept (they hold the empty term).
A needle that matches more than TERMS distinct terms (one or two letters), or that has a lone "|" (the
values' separator, which no term keeps), is left to the trigram arm."""
from __future__ import annotations

from sqlalchemy import Integer, String, and_, any_, column, func, intersect, literal, select, table, union
from sqlalchemy.dialects.postgresql import ARRAY

from engine.persistence.models import CASE_SEARCH
from engine.persistence.types import UTCDateTime

SEARCH_TERM = table("search_term", column("term", String))
CASE_TERM = table("case_search_term", column("term", String), column("instance_id", Integer),
                  column("started_at", UTCDateTime()), column("process_key", String),
                  column("definition_id", Integer), column("office", String), column("started_by", String))
TERMS = 2000  # distinct terms of one needle beyond which its cases are found by the trigram arm
LONG = ""  # the term of a case whose text has a word or pair not kept (0034 TERM_MAX)
SEPARATOR = "|"  # between two values of a text (case_index.project): no term holds it alone (0034)
_TEXTS = ARRAY(String)


class TextArm:
    """The cases whose search_text contains `folded`, found through the terms; `usable` is False when
    a piece of the needle matches more than TERMS distinct terms (then the trigram arm is used)."""

    def __init__(self, session, folded: str):
        self.folded = folded
        self.words = folded.split(" ")
        pieces = list(dict.fromkeys(self.words if len(self.words) == 1 else
                                    (f"{a} {b}" for a, b in zip(self.words, self.words[1:]))))
        self.terms = [] if SEPARATOR in self.words else [
            _terms(session, piece, pair=len(self.words) > 1) for piece in pieces]
        self.usable = bool(self.terms) and all(t is not None for t in self.terms)

    def parts(self, term_conditions, case_conditions) -> list:
        """Disjoint selects of (instance_id, started_at) whose union is the matching cases that meet
        the conditions, given over the term table's columns (`term_conditions`) and over case_search's
        (`case_conditions`): the cases holding a matching term (read from the term index alone), and
        those rechecked against their text."""
        cs, ct = CASE_SEARCH, CASE_TERM
        rechecked = [cs.c.search_text.contains(self.folded, autoescape=True), *case_conditions]
        long_texts = select(ct.c.instance_id).where(ct.c.term == LONG)
        if len(self.words) > 2:
            holding = intersect(*(select(ct.c.instance_id).where(_matches(ct, terms)) for terms in self.terms))
            return [select(cs.c.instance_id, cs.c.started_at).where(_among(union(holding, long_texts)), *rechecked)]
        terms = self.terms[0]
        if not terms:
            return [select(cs.c.instance_id, cs.c.started_at).where(_among(long_texts), *rechecked)]
        held = select(ct.c.instance_id, ct.c.started_at).where(_matches(ct, terms), *term_conditions)
        other = ct.alias("held")
        holds = select(other.c.instance_id).where(_matches(other, terms), other.c.started_at == cs.c.started_at,
                                                  other.c.instance_id == cs.c.instance_id).exists()
        return [held if len(terms) == 1 else held.distinct(),  # a case may hold several of the terms
                select(cs.c.instance_id, cs.c.started_at).where(_among(long_texts), ~holds, *rechecked)]


def _among(candidates):
    """case_search's rows of these ids, looked up by its primary key: as `= ANY(ARRAY(...))` the planner
    cannot turn the recheck's LIKE into a trigram scan of every case matching it (30 ms at 1,000,000
    cases for a three-word needle, against 1 ms for the ~1,000 candidates)."""
    return CASE_SEARCH.c.instance_id == any_(func.array(candidates.scalar_subquery()))


def _matches(ct, terms: list[str]):
    # One term as an equality: its range of the index is read in the list's order (a page stops early).
    return ct.c.term == terms[0] if len(terms) == 1 else ct.c.term == any_(literal(terms, _TEXTS))


def _terms(session, piece: str, *, pair: bool) -> list[str] | None:
    """The distinct words (or, `pair`, word pairs) containing `piece`; None when more than TERMS."""
    has_blank = func.strpos(SEARCH_TERM.c.term, " ") > 0
    rows = session.execute(select(SEARCH_TERM.c.term).where(
        and_(SEARCH_TERM.c.term.contains(piece, autoescape=True), has_blank if pair else ~has_blank))
        .limit(TERMS + 1)).scalars().all()
    return None if len(rows) > TERMS else list(rows)
