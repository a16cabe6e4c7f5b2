"""Case numbers `<PREFIX>-<year>-<6 digits>`, gap-free per prefix and year."""
from __future__ import annotations

from sqlalchemy import bindparam, insert, update

from .calendar import local_date
from .persistence.models import CaseCounter

COUNTER = CaseCounter.__table__
_BUMP = (update(COUNTER).where(COUNTER.c.prefix == bindparam("p_prefix"), COUNTER.c.year == bindparam("p_year"))
         .values(last=COUNTER.c.last + 1).returning(COUNTER.c.last))
_FIRST = insert(COUNTER)

PREFIXES = {
    "farmer_registry_admission": "FAR", "farmer_registry_membership": "FAR",
    "surplus_disposition": "SUR", "materials_aid": "MAT", "bid_adjudication": "BID",
}


def prefix_for(process_key: str) -> str:
    return PREFIXES.get(process_key) or process_key.replace("_", "")[:3].upper()


def next_case_number(ctx, process_key: str) -> str:
    prefix, year = prefix_for(process_key), local_date(ctx.now).year
    # The UPDATE takes the row lock, so two starts in parallel never draw the same number.
    bumped = ctx.conn.execute(_BUMP, {"p_prefix": prefix, "p_year": year}).scalar()
    if bumped is None:
        ctx.conn.execute(_FIRST, {"prefix": prefix, "year": year, "last": 1})
        bumped = 1
    return f"{prefix}-{year}-{bumped:06d}"
