"""a case search finds a case number through a btree of its head and its lowered text (PostgreSQL)

Revision ID: 0037
Revises: 0036

A number is `<PREFIX>-<year>-` and digits; its head, the number without its trailing digits, is one of
few (a prefix and a year each). A needle with anything but digits in it is in a number's head or is an
end of the head followed by digits, so the case-number arm reads the whole head or one range of it
from this index instead of intersecting, in the trigram index, the posting lists of trigrams every
number shares (engine/queries/number_search.py). The second column is in byte order ("C"), where a
head's numbers starting with given digits are one range. The index holds the same expressions the
query writes (number_search.head_of, ordered).
"""
from alembic import op

revision = "0037"
down_revision = "0036"
branch_labels = None
depends_on = None

HEAD = "regexp_replace(lower(case_number), '[0-9]+$', '')"


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return  # SQLite reads every row with the OR of the three LIKEs (case_search.search_arms)
    op.execute(f'CREATE INDEX ix_case_search_number_head ON case_search ({HEAD}, (lower(case_number) COLLATE "C"))')
    op.execute("ANALYZE case_search")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP INDEX ix_case_search_number_head")
