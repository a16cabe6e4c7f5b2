"""Median and p90 per group, computed by the database: PostgreSQL's percentile_cont, and on SQLite
(no percentile aggregate) the two ranks each side of each quantile picked by window functions, so
only four rows per group leave the database instead of every duration."""
from __future__ import annotations

from sqlalchemy import Float, Integer, cast, func, or_, select

QUANTILES = (0.5, 0.9)


def quantiles(conn, groups: list, seconds, from_clause, conditions: list) -> dict[tuple, tuple[float, float]]:
    """{group values: (median seconds, p90 seconds)} over the rows of `from_clause` that match."""
    if conn.dialect.name == "postgresql":
        statement = select(*groups, *(func.percentile_cont(q).within_group(cast(seconds, Float)) for q in QUANTILES))
        if from_clause is not None:
            statement = statement.select_from(from_clause)
        statement = statement.where(*conditions).group_by(*groups)
        return {tuple(row[:len(groups)]): (float(row[-2]), float(row[-1])) for row in conn.execute(statement)}
    ranked = (select(*(g.label(f"g{i}") for i, g in enumerate(groups)), seconds.label("s"),
                     func.row_number().over(partition_by=groups, order_by=seconds).label("rn"),
                     func.count().over(partition_by=groups).label("n"))
              .select_from(from_clause).where(*conditions).subquery())
    wanted = []
    for q in QUANTILES:
        low = cast((ranked.c.n - 1) * q, Integer) + 1
        wanted += [ranked.c.rn == low, ranked.c.rn == low + 1]
    picked: dict[tuple, dict] = {}
    sizes: dict[tuple, int] = {}
    keys = [ranked.c[f"g{i}"] for i in range(len(groups))]
    for row in conn.execute(select(*keys, ranked.c.s, ranked.c.rn, ranked.c.n).where(or_(*wanted))):
        key = tuple(row[:len(groups)])
        picked.setdefault(key, {})[row.rn] = float(row.s)
        sizes[key] = row.n
    return {key: tuple(_interpolated(ranks, sizes[key], q) for q in QUANTILES) for key, ranks in picked.items()}


def ranked_quantiles(conn, groups: list, seconds, conditions: list, sizes: dict[tuple, int]) -> dict:
    """The same figures when an index holds the rows in (group…, seconds) order: on SQLite each
    quantile is two rows at a known rank (LIMIT 2 OFFSET k), found by stepping through the index
    with no sort; `sizes` (group values → matching rows) comes from the report's own GROUP BY."""
    if conn.dialect.name == "postgresql":
        return quantiles(conn, groups, seconds, None, conditions)
    out = {}
    for key, n in sizes.items():
        found = []
        for q in QUANTILES:
            low = int((n - 1) * q)
            pair = conn.execute(select(seconds).where(*conditions, *(g == v for g, v in zip(groups, key)))
                                .order_by(*groups, seconds).limit(2).offset(low)).scalars().all()
            found.append(_interpolated({low + 1 + i: float(v) for i, v in enumerate(pair)}, n, q))
        out[key] = tuple(found)
    return out


def _interpolated(ranks: dict[int, float], n: int, fraction: float) -> float:
    """Linear interpolation between closest ranks, as percentile_cont (ranks are 1-based)."""
    position = (n - 1) * fraction
    low = int(position)
    below = ranks[low + 1]
    above = ranks.get(low + 2, below)
    return below + (above - below) * (position - low)


def hours(seconds: float) -> float:
    return round(float(seconds) / 3600, 2)


def share(part, whole) -> float | None:
    return round(100.0 * int(part or 0) / whole, 1) if whole else None


def window(column, since, until) -> list:
    """`since <= column < until`, each bound only when given."""
    return [c for c in ((column >= since) if since else None, (column < until) if until else None) if c is not None]
