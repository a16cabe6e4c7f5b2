"""holiday calendar: the managed legal holidays, seeded with Puerto Rico's for 2024-2027

Revision ID: 0023
Revises: 0022

The seed is migration data so that every installation, fresh or upgraded, has the calendar the
moment its schema does (`tramite serve`, `deploy` and `seed-demo` all migrate first). It is frozen
here on purpose, not imported from the application: a later change of the code must not change
what this step wrote. An admin edits the calendar afterwards on /admin/holidays.
"""
from datetime import date, datetime, timedelta, timezone

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None

YEARS = range(2024, 2028)
# Ley Núm. 88 de 27 de junio de 1969 is Puerto Rico's holiday law; the fifteen days below are the list
# of Ley 26-2017, art. 2.05 that amended it. The year's official calendar (OATRH) was not checked, so
# the source says so instead of pretending to more.
SOURCE = ("Ley Núm. 88 de 27 de junio de 1969, según enmendada; lista de la Ley 26-2017, art. 2.05 "
          "(fuente por confirmar con el calendario oficial de OATRH del año)")


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """The n-th `weekday` (0 = Monday) of the month; n = -1 is the last one."""
    if n > 0:
        first = date(year, month, 1)
        return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))
    last = date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)
    return last - timedelta(days=(last.weekday() - weekday) % 7)


def _easter(year: int) -> date:
    """Gregorian Easter Sunday (the anonymous Meeus/Jones/Butcher algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    l = (32 + 2 * e + 2 * i - h - k) % 7  # noqa: E741 (the algorithm's own letter)
    m = (a + 11 * h + 22 * l) // 451
    month, day = divmod(h + l - 7 * m + 114, 31)
    return date(year, month, day + 1)


def holidays(year: int) -> list[tuple[date, str, str]]:
    return [
        (date(year, 1, 1), "Día de Año Nuevo", "New Year's Day"),
        (date(year, 1, 6), "Día de Reyes", "Three Kings' Day"),
        (_nth_weekday(year, 1, 0, 3), "Natalicio de Martin Luther King, Jr.", "Martin Luther King Jr. Day"),
        (_nth_weekday(year, 2, 0, 3), "Día de los Presidentes y de los Próceres Puertorriqueños",
         "Presidents' Day and Puerto Rican Patriots' Day"),
        (date(year, 3, 2), "Día de la Ciudadanía Americana", "American Citizenship Day"),
        (date(year, 3, 22), "Día de la Abolición de la Esclavitud", "Emancipation Day"),
        (_easter(year) - timedelta(days=2), "Viernes Santo", "Good Friday"),
        (_nth_weekday(year, 5, 0, -1), "Día de la Recordación", "Memorial Day"),
        (date(year, 7, 4), "Día de la Independencia de los Estados Unidos", "Independence Day"),
        (_nth_weekday(year, 9, 0, 1), "Día del Trabajo", "Labor Day"),
        (_nth_weekday(year, 10, 0, 2), "Día de la Raza", "Columbus Day"),
        (date(year, 11, 11), "Día del Veterano", "Veterans Day"),
        (date(year, 11, 19), "Día del Descubrimiento de Puerto Rico", "Discovery of Puerto Rico Day"),
        (_nth_weekday(year, 11, 3, 4), "Día de Acción de Gracias", "Thanksgiving Day"),
        (date(year, 12, 25), "Día de Navidad", "Christmas Day"),
    ]


def upgrade() -> None:
    table = op.create_table(
        "holiday",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("name_es", sa.String(length=200), nullable=False),
        sa.Column("name_en", sa.String(length=200), nullable=False),
        sa.Column("legal_source", sa.Text(), nullable=False),
        sa.Column("added_by", sa.String(length=100), nullable=False),
        sa.Column("added_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("day"),
    )
    # Naive UTC, as UTCDateTime stores every instant.
    now = datetime.now(timezone.utc).replace(tzinfo=None, microsecond=0)  # a migration has no engine clock
    op.bulk_insert(table, [
        {"day": day, "name_es": es, "name_en": en, "legal_source": SOURCE, "added_by": "system", "added_at": now}
        for year in YEARS for day, es, en in holidays(year)])


def downgrade() -> None:
    op.drop_table("holiday")
