"""The case-number arm of a case search on PostgreSQL, as ranges of one btree (migration 0037).

`lower(case_number) LIKE '%needle%'` through the trigram index intersects the posting lists of
trigrams every number shares (`mat`, `202`, `000`): ~27 ms at 1,000,000 cases for a needle that
matches a few. But a number is a head and a run of digits, `MAT-2023-` and `000012`
(engine/runtime/case_numbers.py), and its heads are few (a prefix and a year each). Taken as
`head(number)` = the number without its trailing digits, a needle that holds anything but a digit
cannot lie in the digits alone, so it is in a number exactly when
- it lies in the number's head, or
- it is an end of the head followed by digits `r`: the number starts with `head || r`.
With the distinct heads (a loose scan of ix_case_search_number_head, one descent each), each head
gives nothing, the whole head, or a range of that head's numbers in byte order: every match is in
one of them, and nothing else is, whatever the numbers look like (a prefix with a dash or a digit in
it, a number carried over from another system). So the ranges replace the LIKE: a filter evaluated
on each row read cost more than the reading (a broad needle, `mat-2023`, reads 114,544 rows).
A needle of digits alone may lie in a number's digits, which no range holds: it keeps the trigram
arm, as do more than HEADS heads."""
from __future__ import annotations

from sqlalchemy import String, and_, any_, false, func, literal, literal_column, or_, select
from sqlalchemy.dialects.postgresql import ARRAY

from engine.queries import loose_scan

HEADS = 1000  # distinct heads beyond which a number needle is found by the trigram arm
_DIGITS = frozenset("0123456789")
_AFTER_DIGITS = ":"  # the character after '9' in byte order: `head || r || ':'` ends the range
_TEXTS = ARRAY(String)


def head_of(table):
    """The number without its trailing digits, as ix_case_search_number_head holds it (0037): the
    constants are written out, not bound, so the planner sees the index's very expression."""
    return func.regexp_replace(func.lower(table.c.case_number), literal_column("'[0-9]+$'"), literal_column("''"))


def ordered(table):
    """The lowered number in byte order, the index's second column (0037)."""
    return func.lower(table.c.case_number).collate("C")


def split(needle: str, heads: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """(the heads holding `needle`, [(head, start) …]: the head's numbers starting with `start` hold it).
    `needle` holds a character other than a digit; both are lowered as the LIKE lowers them."""
    whole, ranges = [], []
    for head in heads:
        if needle in head:
            whole.append(head)
            continue
        for at in range(len(head)):
            tail = head[at:]
            rest = needle[len(tail):]
            if needle.startswith(tail) and rest and _DIGITS.issuperset(rest):
                ranges.append((head, head + rest))
    return whole, ranges


def wanted(needle: str) -> bool:
    """Whether the arm can find `needle`'s numbers: one with anything but digits in it."""
    return bool(needle) and not _DIGITS.issuperset(needle)


class NumberArm:
    """Where a search's case-number matches are read from, given the distinct heads (`heads_lookup`'s,
    None past HEADS); `usable` is False for a needle not `wanted` and past HEADS (the trigram arm then)."""

    def __init__(self, needle: str, heads: list[str] | None):
        self.usable = wanted(needle) and heads is not None
        if self.usable:
            self.whole, self.ranges = split(needle, heads)

    def access(self, table):
        """The condition the LIKE's matches meet and no other row does, in terms the index answers:
        OR of head = h and of a head's range."""
        head, number = head_of(table), ordered(table)
        arms = [head == any_(literal(self.whole, _TEXTS))] if self.whole else []
        arms += [and_(head == h, number >= start, number < start + _AFTER_DIGITS) for h, start in self.ranges]
        return or_(*arms) if arms else false()


def heads_lookup(table):
    """A select of one row, (how many distinct heads up to HEADS + 1, their array): a recursive loose
    index scan. The case search runs it in one statement with its starters' (case_search.py)."""
    heads = loose_scan.distinct_values("heads", head_of, table, HEADS)
    return select(func.count(heads.c.v).label("many"),
                  func.array_agg(heads.c.v).filter(heads.c.v.is_not(None)).label("found")).select_from(heads)


def heads_of(many: int, found: list[str] | None) -> list[str] | None:
    """`heads_lookup`'s row as the distinct heads, or None when there are more than HEADS."""
    return None if many > HEADS else list(found or [])
