"""reports: the report's projection (report_day, rolled up by the worker) and its state, the
day-by-day indexes it is rolled up through, and its backfill for the cases already there

The backfill rolls up every day before today (the engine clock's, when one is set) with the same
code the worker runs each round (engine/reporting/rollup.py), so both agree; a database
without cases is left unrolled, and the report reads its raw rows until the worker's first round.

Revision ID: 0028
Revises: 0027
"""
from datetime import datetime, timezone

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
JSON = sa.JSON().with_variant(sa.dialects.postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "report_day",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("grain", sa.String(length=5), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("process_key", sa.String(length=100), nullable=False),
        sa.Column("item", sa.String(length=200), nullable=False),
        sa.Column("office", sa.String(length=100), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=True),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("with_due", sa.Integer(), nullable=False),
        sa.Column("on_time", sa.Integer(), nullable=False),
        sa.Column("buckets", JSON, nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ux_report_day", "report_day", ["grain", "day", "kind", "process_key", "item", "office"],
                    unique=True)
    op.create_table(
        "report_rollup",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("through", sa.Date(), nullable=True),
        sa.Column("audit_id", BIG_ID, nullable=False),
        sa.Column("rolled_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_stage_period_left", "case_stage_period", ["left_at"])
    op.create_index("ix_timer_due_at", "timer", ["due_at"])
    op.execute("INSERT INTO report_rollup (id, audit_id) VALUES (1, 0)")
    _backfill(op.get_bind())


def _backfill(conn) -> None:
    from engine.reporting import facts as report_facts, rollup as report_rollup
    clock = conn.execute(sa.select(sa.column("now", sa.DateTime())).select_from(sa.table("engine_clock"))
                         .limit(1)).scalar()
    now = clock.replace(tzinfo=timezone.utc) if clock is not None else datetime.now(timezone.utc)
    report_rollup.refresh(conn, report_facts.local_day(now))


def downgrade() -> None:
    op.drop_index("ix_timer_due_at", table_name="timer")
    op.drop_index("ix_stage_period_left", table_name="case_stage_period")
    op.drop_table("report_rollup")
    op.drop_index("ux_report_day", table_name="report_day")
    op.drop_table("report_day")
