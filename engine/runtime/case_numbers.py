"""Case numbers `<PREFIX>-<year>-<6 digits>`, gap-free per prefix and year."""
from __future__ import annotations

from sqlalchemy import bindparam
from sqlalchemy.dialects import postgresql, sqlite

from engine.rules.calendar import local_date
from engine.persistence.models import CaseCounter

COUNTER = CaseCounter.__table__


def _draw(dialect_insert):
    # One statement that creates the year's row or bumps it: two first starts of a year in parallel
    # both get a number (a separate INSERT would make one of them fail on the primary key).
    statement = dialect_insert(COUNTER).values(prefix=bindparam("p_prefix"), year=bindparam("p_year"), last=1)
    return statement.on_conflict_do_update(index_elements=[COUNTER.c.prefix, COUNTER.c.year],
                                           set_={"last": COUNTER.c.last + 1}).returning(COUNTER.c.last)


_DRAW = {"postgresql": _draw(postgresql.insert), "sqlite": _draw(sqlite.insert)}

def next_case_number(ctx, process_key: str) -> str:
    prefix, year = ctx.procedures.prefix_for(process_key), local_date(ctx.now).year
    # The upsert takes the row lock, so two starts in parallel never draw the same number.
    drawn = ctx.conn.execute(_DRAW[ctx.conn.dialect.name], {"p_prefix": prefix, "p_year": year}).scalar_one()
    return f"{prefix}-{year}-{drawn:06d}"
