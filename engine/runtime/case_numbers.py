"""Case numbers `<PREFIX>-<year>-<6 digits>`, gap-free per prefix and year.

SQLite draws from the `case_counter` row (its writers are serialized anyway). PostgreSQL draws from
a sequence per prefix and year (migration 0035): a start holds no lock for the rest of its
transaction, and a number a start drew and never used waits in `case_number_hole` for the next
start (engine/runtime/number_holes.py finds them)."""
from __future__ import annotations

from sqlalchemy import Text, bindparam, func, insert, select, text
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


_DRAW_SQLITE = _draw(sqlite.insert)


def next_case_number(ctx, process_key: str) -> str:
    """SQLite: the upsert takes the row lock, so two starts never draw the same number, and a start
    that rolls back gives its number back."""
    prefix, year = ctx.procedures.prefix_for(process_key), local_date(ctx.now).year
    drawn = ctx.conn.execute(_DRAW_SQLITE, {"p_prefix": prefix, "p_year": year}).scalar_one()
    return f"{prefix}-{year}-{drawn:06d}"


def continue_after(conn, prefix: str, year: int, last: int) -> None:
    """The next number of `prefix` and `year` drawn is `last` + 1 (numbers carried over from an
    earlier system; tests). Every number through `last` counts as accounted for."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    if dialect is postgresql:
        sequence = conn.execute(text("SELECT tramite_case_number_sequence(:p, :y)"), {"p": prefix, "y": year}).scalar()
        conn.execute(text(f"CREATE SEQUENCE IF NOT EXISTS {sequence}"))
        conn.execute(text("SELECT setval(CAST(:s AS regclass), :n)"), {"s": sequence, "n": last})
        conn.execute(text("DELETE FROM case_number_hole WHERE prefix = :p AND year = :y AND n <= :n"),
                     {"p": prefix, "y": year, "n": last})
    conn.execute(dialect.insert(COUNTER).values(prefix=prefix, year=year, last=last)
                 .on_conflict_do_update(index_elements=[COUNTER.c.prefix, COUNTER.c.year], set_={"last": last}))


def _numbered_insert_pg():
    """PostgreSQL: draw the number and insert the case row in one statement (one round trip
    instead of two); the number is written as `next_case_number` writes it."""
    drawn = select(func.tramite_draw_case_number(bindparam("p_prefix", type_=Text), bindparam("p_year"))
                   .label("last")).cte("drawn")
    number = func.tramite_case_number_text(bindparam("p_prefix", type_=Text), bindparam("p_year"), drawn.c.last)
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
