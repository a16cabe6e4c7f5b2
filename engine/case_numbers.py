"""Case numbers `<PREFIX>-<year>-<6 digits>`, gap-free per prefix and year."""
from __future__ import annotations

from sqlalchemy import select, update

from .calendar import local_date
from .persistence.models import CaseCounter

PREFIXES = {
    "farmer_registry_admission": "FAR", "farmer_registry_membership": "FAR",
    "surplus_disposition": "SUR", "materials_aid": "MAT", "bid_adjudication": "BID",
}


def prefix_for(process_key: str) -> str:
    return PREFIXES.get(process_key) or process_key.replace("_", "")[:3].upper()


def next_case_number(ctx, process_key: str) -> str:
    prefix, year = prefix_for(process_key), local_date(ctx.now).year
    session = ctx.session
    # The UPDATE takes the row lock, so two starts in parallel never draw the same number.
    bumped = session.execute(update(CaseCounter).where(CaseCounter.prefix == prefix, CaseCounter.year == year)
                             .values(last=CaseCounter.last + 1).returning(CaseCounter.last)).scalar()
    if bumped is None:
        session.add(CaseCounter(prefix=prefix, year=year, last=1))
        session.flush()
        bumped = 1
    return f"{prefix}-{year}-{bumped:06d}"
