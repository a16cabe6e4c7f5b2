"""Case numbers `<PREFIX>-<year>-<6 digits>`, gap-free per prefix and year."""
from __future__ import annotations

from sqlalchemy import Text, bindparam, case, cast, func, insert, literal, select
from sqlalchemy.dialects import postgresql, sqlite

from engine.rules.calendar import local_date
from engine.persistence import compiled
from engine.persistence.models import CaseCounter
from engine.runtime import records

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


def _numbered_insert_pg():
    """PostgreSQL: draw the number and insert the case row in one statement (one round trip
    instead of two); the number is written as `next_case_number` writes it."""
    drawn = _draw(postgresql.insert).cte("drawn")
    last = cast(drawn.c.last, Text)
    number = (bindparam("p_prefix", type_=Text) + literal("-") + cast(bindparam("p_year"), Text) + literal("-")
              + case((drawn.c.last >= 1000000, last), else_=func.lpad(last, 6, "0")))
    names = [name for name in records.STORED if name not in ("id", "case_number")]
    columns = [records.INSTANCE.c[name] for name in names]
    values = [bindparam(f"v_{name}", type_=column.type) for name, column in zip(names, columns)]
    return (insert(records.INSTANCE)
            .from_select(["case_number", *names], select(number, *values).select_from(drawn))
            .returning(records.INSTANCE.c.id, records.INSTANCE.c.case_number))


_NUMBERED_INSERT_PG = _numbered_insert_pg()


def insert_numbered(ctx, record: "records.CaseRecord") -> None:
    """Give a new case its number and insert its row; sets `record.case_number` and `record.id`."""
    if ctx.conn.dialect.name != "postgresql":
        record.case_number = next_case_number(ctx, record.process_key)
        records.insert_record(ctx.conn, record)
        return
    prefix, year = ctx.procedures.prefix_for(record.process_key), local_date(ctx.now).year
    params = {f"v_{name}": getattr(record, name) for name in records.STORED if name not in ("id", "case_number")}
    row = compiled.run(ctx.conn, _NUMBERED_INSERT_PG, {"p_prefix": prefix, "p_year": year, **params}).one()
    record.id, record.case_number = row.id, row.case_number
