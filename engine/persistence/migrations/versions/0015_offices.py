"""offices as a managed list; a password an admin reset must be changed at the next sign-in

Revision ID: 0015
Revises: 0014

An office was free text on each user: "caguas" and "Caguas " were two offices, and the second one's
staff saw none of the first's tasks. The list is seeded with the Regional Offices of
processes/materials_aid/regional_offices.json, then every office already written on a user, an
agency token or a case is moved onto it: spellings that differ only in letter case, accents
or spaces become the one office (the seeded id when there is one, else the first spelling met,
trimmed), so nobody loses sight of a case.
"""
import unicodedata
from datetime import datetime, timezone

import sqlalchemy as sa
from alembic import op
from sqlalchemy import Text
from sqlalchemy.dialects import postgresql

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=Text()), "postgresql")
HOLDERS = ("app_user", "agency_token", "process_instance")


def _key(text) -> str:
    plain = unicodedata.normalize("NFKD", str(text or "")).encode("ascii", "ignore").decode()
    return " ".join(plain.casefold().split())


def _seed_entries() -> list[dict]:
    try:  # the shipped seed; a database migrated without it still gets the users' own offices
        from engine.registries import regional_offices
        return regional_offices.offices()
    except Exception:
        return []


def upgrade() -> None:
    office = op.create_table(
        "office",
        sa.Column("id", sa.String(length=100), nullable=False),
        sa.Column("name_es", sa.String(length=200), nullable=False),
        sa.Column("name_en", sa.String(length=200), nullable=False),
        sa.Column("municipalities", JSON, nullable=False),
        sa.Column("active", sa.Boolean(), server_default=sa.text("true"), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("app_user") as batch:
        batch.add_column(sa.Column("must_change_password", sa.Boolean(), server_default=sa.text("false"),
                                   nullable=False))
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    canonical: dict[str, str] = {}
    rows = []
    for entry in _seed_entries():
        if _key(entry["id"]) in canonical:
            continue
        for spelling in (entry["id"], entry["name"], entry.get("name_en")):
            canonical.setdefault(_key(spelling), entry["id"])
        rows.append({"id": entry["id"], "name_es": entry["name"], "name_en": entry.get("name_en") or entry["name"],
                     "municipalities": list(entry["municipalities"]), "active": True, "created_at": now})
    conn = op.get_bind()
    written = set()
    for table in HOLDERS:
        written |= {r[0] for r in conn.execute(sa.text(f"SELECT DISTINCT office FROM {table} WHERE office IS NOT NULL"))}
    for value in sorted(written):
        k = _key(value)
        if k and k not in canonical:
            canonical[k] = value.strip()
            rows.append({"id": value.strip(), "name_es": value.strip(), "name_en": value.strip(),
                         "municipalities": [], "active": True, "created_at": now})
    if rows:
        op.bulk_insert(office, rows)
    for value in written:
        target = canonical.get(_key(value))  # None for an office that was only spaces
        if target != value:
            for table in HOLDERS:
                conn.execute(sa.text(f"UPDATE {table} SET office = :to WHERE office = :was"),
                             {"to": target, "was": value})


def downgrade() -> None:
    with op.batch_alter_table("app_user") as batch:
        batch.drop_column("must_change_password")
    op.drop_table("office")
