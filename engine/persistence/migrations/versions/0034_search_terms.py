"""the applicant text's words and word pairs, each with the cases that hold it (PostgreSQL): a text
search's exact total at 1,000,000 cases without rechecking the matching rows

Revision ID: 0034
Revises: 0033

At 1,000,000 cases "nelida colon" is in 10,064 cases' search_text: the trigram index finds 18,950
candidates spread over nearly every block of case_search, and rechecking them is 50-100 ms of the
list's exact total (bench/RESULTS.md). Here each case's search_text is cut at its blanks into terms:
every word, and every two neighbouring words joined by one blank (but not the " | " between two
values, nor a pair across it). `search_term` holds each distinct
term once (with the trigram index); `case_search_term` says which cases hold it, keyed by (term,
started_at, instance_id) with the columns a list filters on (process, version, office, starter) in its
one index: a search's page is the end of a term's range, its total an index-only count of it.
A needle of one word is inside a case's text exactly when it is inside one of its words, and a
needle of two words exactly when it is inside one of its word pairs (fold() leaves single blanks), so
the matching distinct terms are found among few rows and their cases counted from one index, no case
row read (engine/queries/search_terms.py). Longer needles take the cases holding each of their pairs
and recheck those; a needle with a lone "|" is left to the trigram index.
- A word or pair over TERM_MAX characters (a btree entry has a bound) is not stored; the case then
  holds the empty term, and the search rechecks those few cases' text.
- Triggers on case_search keep both tables: its INSERT (one statement for a bulk load's rows), an
  UPDATE that changes search_text or a copied column (an office move, a version migration), its
  DELETE (the retention purge, through case_search's cascade), its TRUNCATE (which empties both).
  New terms are inserted in order, so two starts adding the same new words wait for each other, not
  deadlock; two transactions that each rename several applicants to words new to the database can
  still meet in opposite orders, and PostgreSQL then breaks one (a 409 to try again, or a timer lot
  fired case by case), as for any two writers of the same rows.
- A term no case holds any more stays in search_term (it matches and counts nothing) until the
  retention job prunes the terms of the cases it removed (engine/persistence/term_prune.py).
SQLite has neither table: its search reads every row, as before.
"""
import sqlalchemy as sa
from alembic import op

revision = "0034"
down_revision = "0033"
branch_labels = None
depends_on = None

TERM_MAX = 200
# case_search's columns a staff member's list filters on and orders by, copied into each term row:
# the page and the total of a search then read one index, never a case row.
COPIED = ("started_at", "process_key", "definition_id", "office", "started_by")
COLUMNS = ", ".join(COPIED)
SEPARATOR = "|"  # between a case's values in search_text (case_index.project): not a term, nor in a pair
FUNCTIONS = f"""
CREATE FUNCTION tramite_search_terms(t text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    -- plpgsql, not sql: its query's plan is kept for the session, not made again at every statement.
    RETURN (SELECT coalesce(array_agg(DISTINCT CASE WHEN length(w) > {TERM_MAX} THEN '' ELSE w END), '{{}}')
            FROM (SELECT string_to_array(t, ' ') AS a) s, generate_subscripts(a, 1) i,
                 LATERAL (VALUES (a[i]),
                                 (CASE WHEN a[i + 1] NOT IN ('{SEPARATOR}', '') THEN a[i] || ' ' || a[i + 1] END)) v(w)
            WHERE a[i] <> '{SEPARATOR}' AND a[i] <> '' AND w IS NOT NULL);
END $$;
CREATE FUNCTION tramite_case_terms_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    WITH terms AS MATERIALIZED (
        SELECT t, instance_id, {COLUMNS} FROM new_rows, unnest(tramite_search_terms(new_rows.search_text)) t),
    fresh AS (INSERT INTO search_term (term) SELECT DISTINCT t FROM terms WHERE t <> '' ORDER BY t
              ON CONFLICT DO NOTHING)
    INSERT INTO case_search_term (term, instance_id, {COLUMNS}) SELECT t, instance_id, {COLUMNS} FROM terms;
    RETURN NULL;
END $$;
CREATE FUNCTION tramite_case_terms_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM case_search_term
        WHERE term = ANY(tramite_search_terms(OLD.search_text)) AND started_at = OLD.started_at
          AND instance_id = OLD.instance_id;
    WITH terms AS MATERIALIZED (SELECT unnest(tramite_search_terms(NEW.search_text)) AS t),
    fresh AS (INSERT INTO search_term (term) SELECT t FROM terms WHERE t <> '' ORDER BY t ON CONFLICT DO NOTHING)
    INSERT INTO case_search_term (term, instance_id, {COLUMNS})
        SELECT t, NEW.instance_id, {", ".join(f"NEW.{c}" for c in COPIED)} FROM terms;
    RETURN NULL;
END $$;
CREATE FUNCTION tramite_case_terms_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE case_search_term, search_term;
    RETURN NULL;
END $$;
CREATE FUNCTION tramite_case_terms_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM case_search_term m USING old_rows, unnest(tramite_search_terms(old_rows.search_text)) t
        WHERE m.term = t AND m.started_at = old_rows.started_at AND m.instance_id = old_rows.instance_id;
    RETURN NULL;
END $$;
"""
TRIGGERS = f"""
CREATE TRIGGER case_terms_insert AFTER INSERT ON case_search REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tramite_case_terms_insert();
CREATE TRIGGER case_terms_update AFTER UPDATE ON case_search FOR EACH ROW
    WHEN ({" OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in ("instance_id", "search_text", *COPIED))})
    EXECUTE FUNCTION tramite_case_terms_update();
CREATE TRIGGER case_terms_delete AFTER DELETE ON case_search REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tramite_case_terms_delete();
CREATE TRIGGER case_terms_truncate AFTER TRUNCATE ON case_search
    FOR EACH STATEMENT EXECUTE FUNCTION tramite_case_terms_truncate();
"""


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    op.create_table("search_term", sa.Column("term", sa.Text(), primary_key=True))
    op.create_table("case_search_term", sa.Column("term", sa.Text(), nullable=False),
                    sa.Column("instance_id", sa.BigInteger(), nullable=False),
                    sa.Column("started_at", sa.DateTime(), nullable=False),
                    sa.Column("process_key", sa.String(length=100), nullable=False),
                    sa.Column("definition_id", sa.Integer(), nullable=False),
                    sa.Column("office", sa.String(length=100), nullable=True),
                    sa.Column("started_by", sa.String(length=100), nullable=False))
    # One index, its key the term and the list's order (a term's newest cases are its last entries),
    # carrying what a list filters on: a search's page and total are index-only scans.
    op.execute(f"ALTER TABLE case_search_term ADD CONSTRAINT case_search_term_pkey "
               f"PRIMARY KEY (term, started_at, instance_id) INCLUDE ({', '.join(COPIED[1:])})")
    op.execute(FUNCTIONS)
    op.execute(TRIGGERS)
    # After the triggers (CREATE TRIGGER holds off writers of case_search until this commits).
    op.execute("INSERT INTO search_term (term) SELECT DISTINCT t FROM case_search, "
               "unnest(tramite_search_terms(search_text)) t WHERE t <> '' ORDER BY t")
    op.execute(f"INSERT INTO case_search_term (term, instance_id, {COLUMNS}) SELECT t, instance_id, {COLUMNS} "
               f"FROM case_search, unnest(tramite_search_terms(search_text)) t ORDER BY t, started_at, instance_id")
    if bind.execute(sa.text("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'")).scalar():
        op.execute("CREATE INDEX ix_search_term_trgm ON search_term USING gin (term gin_trgm_ops)")
    op.execute("ANALYZE search_term")
    op.execute("ANALYZE case_search_term")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for trigger in ("case_terms_truncate", "case_terms_delete", "case_terms_update", "case_terms_insert"):
        op.execute(f"DROP TRIGGER {trigger} ON case_search")
    for function in ("tramite_case_terms_truncate", "tramite_case_terms_delete", "tramite_case_terms_update",
                     "tramite_case_terms_insert"):
        op.execute(f"DROP FUNCTION {function}()")
    op.execute("DROP FUNCTION tramite_search_terms(text)")
    op.drop_table("case_search_term")
    op.drop_table("search_term")
