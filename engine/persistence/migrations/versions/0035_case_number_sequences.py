"""case numbers drawn from a sequence per prefix and year (PostgreSQL): a start no longer holds the
counter's row lock until it commits; a number a start drew and never used is given to a later start

Revision ID: 0035
Revises: 0034

Until now a start drew its number with an upsert of its `case_counter` row and held that row's lock
until it committed, so that a start that rolled back gave its number back: every start of a
procedure waited for the one before it to run its first steps, save and commit. Under 8 clients
the lock was held ~10 ms per start (mostly waiting for the interpreter's turn, 2.7 ms of it CPU) and
starts queued on it: the server's throughput stopped at one start per hold, whatever the cores.

Here a number is `nextval` of the sequence `case_number_<prefix>_<year>` (made by the first start
of a year): no lock is held past the call. A sequence does not give back what a rolled-back
transaction drew, so the numbers stay gap-free another way (engine/runtime/number_holes.py): the
timer worker finds the numbers drawn and never used (a start that failed, a connection lost, a
server crash) and keeps them in `case_number_hole`; the next start of that prefix and year takes the
lowest of them before drawing a new one. `case_counter.last` is now the number through which every
number is accounted for (a case holds it, or it waits in case_number_hole); the worker moves it.
SQLite keeps the counter's upsert (its writers are serialized anyway).

`tramite_draw_case_number(prefix, year)` first deletes the lowest free hole it can lock (SKIP LOCKED:
two starts never take one, and a start that rolls back leaves it there). That DELETE also takes
ROW EXCLUSIVE on case_number_hole until the start's transaction ends, whether or not it found a
row: the worker's SHARE lock waits for it, so when the worker holds that lock no start is between
its draw and its end, and a drawn number with no case is a hole for sure.
"""
import sqlalchemy as sa
from alembic import op

revision = "0035"
down_revision = "0034"
branch_labels = None
depends_on = None

FUNCTIONS = """
-- Both are inlined where they are called (the casts keep the bodies immutable: `text || integer`
-- is only stable, and a function not inlined cost ~60 µs a call).
CREATE FUNCTION tramite_case_number_sequence(p varchar, y integer) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT quote_ident('case_number_' || p || '_' || y::text) $$;

CREATE FUNCTION tramite_case_number_text(p varchar, y integer, n bigint) RETURNS varchar
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT p || '-' || y::text || '-' || CASE WHEN n >= 1000000 THEN n::text ELSE lpad(n::text, 6, '0') END $$;

CREATE FUNCTION tramite_draw_case_number(p varchar, y integer) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    seq text := tramite_case_number_sequence(p, y);
    drawn bigint;
BEGIN
    DELETE FROM case_number_hole h
    WHERE (h.prefix, h.year, h.n) = (SELECT f.prefix, f.year, f.n FROM case_number_hole f
                                     WHERE f.prefix = p AND f.year = y ORDER BY f.n LIMIT 1
                                     FOR UPDATE SKIP LOCKED)
    RETURNING h.n INTO drawn;
    IF drawn IS NOT NULL THEN
        RETURN drawn;
    END IF;
    IF to_regclass(seq) IS NULL THEN  -- the first start of this prefix and year
        BEGIN
            EXECUTE 'CREATE SEQUENCE ' || seq;
        EXCEPTION WHEN duplicate_table OR unique_violation THEN
            NULL;  -- another start made it meanwhile (and committed: this one waited for it)
        END;
        INSERT INTO case_counter (prefix, year, last) VALUES (p, y, 0) ON CONFLICT DO NOTHING;
    END IF;
    RETURN nextval(seq::regclass);
END $$;
"""


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    op.create_table("case_number_hole",
                    sa.Column("prefix", sa.String(length=10), primary_key=True),
                    sa.Column("year", sa.Integer(), primary_key=True),
                    sa.Column("n", sa.BigInteger(), primary_key=True))
    op.execute(FUNCTIONS)
    # Each counter goes on from where it is; its numbers so far are all held by cases (the upsert gave
    # none away), so `last` already means "accounted for through here".
    for prefix, year, last in bind.execute(sa.text("SELECT prefix, year, last FROM case_counter")).all():
        sequence = bind.execute(sa.text("SELECT tramite_case_number_sequence(:p, :y)"),
                                {"p": prefix, "y": year}).scalar()
        op.execute(f"CREATE SEQUENCE {sequence}")
        if last:
            bind.execute(sa.text("SELECT setval(CAST(:s AS regclass), :n)"), {"s": sequence, "n": last})


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    # Back to the upsert: each counter at the highest number drawn (a hole stays one).
    bind.execute(sa.text(
        "UPDATE case_counter SET last = greatest(last, coalesce(pg_sequence_last_value("
        "to_regclass(tramite_case_number_sequence(prefix, year))), 0))"))
    for (sequence,) in bind.execute(sa.text(
            "SELECT tramite_case_number_sequence(prefix, year) FROM case_counter "
            "WHERE to_regclass(tramite_case_number_sequence(prefix, year)) IS NOT NULL")).all():
        op.execute(f"DROP SEQUENCE {sequence}")
    op.execute("DROP FUNCTION tramite_draw_case_number(varchar, integer)")
    op.execute("DROP FUNCTION tramite_case_number_text(varchar, integer, bigint)")
    op.execute("DROP FUNCTION tramite_case_number_sequence(varchar, integer)")
    op.drop_table("case_number_hole")
