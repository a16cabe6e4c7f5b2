"""The distinct values of an indexed expression, read as a recursive loose index scan: one index
descent per value (the smallest value above the last one) instead of a pass over every row. The case
search reads its starters (ix_instance_started_by) and its numbers' heads (ix_case_search_number_head,
engine/queries/number_search.py) this way."""
from __future__ import annotations

from sqlalchemy import func, literal, select


def distinct_values(name: str, value_of, table, limit: int):
    """A recursive CTE `name` of (v, k): the distinct non-null values of `value_of(table)` in order,
    numbered by k, up to limit + 1 of them; a last row with v NULL when there are fewer."""
    following_row = table.alias(f"{name}_following")
    first = select(func.min(value_of(table)).label("v"), literal(1).label("k")).cte(name, recursive=True)
    following = select(func.min(value_of(following_row))).where(value_of(following_row) > first.c.v).scalar_subquery()
    return first.union_all(select(following, first.c.k + 1).where(first.c.v.is_not(None), first.c.k <= limit))
