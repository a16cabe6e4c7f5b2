"""The seeded starting state every test begins from, restored instead of rebuilt.

Wiping every table and seeding the catalogues and test accounts through the commands cost 0.13 s
per test on SQLite and 0.3 s on PostgreSQL (a TRUNCATE of every table renews every file): minutes
of the suite. The seed is built once per worker through the real commands; each test then gets the
same rows back: the tables emptied, the seeded rows put back as they were and, on PostgreSQL, the
sequences set where the seed left them (the ids TRUNCATE … RESTART IDENTITY plus the seed gave).
`check` proves after the first restore that the rows are the seed's, row for row."""
from __future__ import annotations

from sqlalchemy import select, text

from engine.persistence.models import Base

# A table with this many rows or more is truncated rather than deleted from (DELETE costs per row).
_MANY = 500


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _contents(session, tables) -> dict[str, list[dict]]:
    return {t.name: [dict(r) for r in session.execute(select(t).order_by(*t.primary_key.columns)).mappings()]
            for t in tables}


class Baseline:
    """The rows of every table as they are once the seed has run, and how to get them back."""

    def __init__(self, engine) -> None:
        self.tables = list(Base.metadata.sorted_tables)
        with engine.db.transaction() as session:
            self.rows = {name: rows for name, rows in _contents(session, self.tables).items() if rows}
            self._var: dict[str, str] = {}
            self._connection = None
            self._setvals = None
            self._script = None if engine.db.is_sqlite else self._pg_script(session)

    def _pg_script(self, session) -> str:
        """The whole restore as one round trip (one statement a table cost 0.1 s a test): a DO block
        empties what a test wrote to and puts the seeded rows back where they changed (a seeded
        table whose rows hash as the seed's is left alone, unless a table it points at is reloaded),
        and the sequences are set."""
        # Row triggers (audit append-only, documents only voided) refuse DELETE: those tables are
        # truncated, which fires no row trigger.
        triggered = set(session.execute(text(
            "SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE NOT t.tgisinternal")).scalars())
        parents = {t.name: {fk.column.table.name for fk in t.foreign_keys} - {t.name} for t in self.tables}
        dependents = {t.name: set() for t in self.tables}  # who points at a table, however indirectly
        for table in reversed(self.tables):
            for parent in parents[table.name]:
                dependents[parent] |= {table.name} | dependents[table.name]
        declare, check, clear, load = [], [], [], []
        for table in self.tables:  # parents first: a reloaded parent reloads the seeded rows pointing at it
            name, var = _quoted(table.name), f"reload_{len(declare)}"
            if table.name not in self.rows:
                continue
            declare.append(f"{var} boolean;")
            digest = session.execute(text(self._digest(table))).scalar_one()
            reloads = " OR ".join(f"{self._var[p]}" for p in sorted(parents[table.name]) if p in self.rows)
            check.append(f"{var} := ({self._digest(table)}) IS DISTINCT FROM '{digest}'"
                         + (f" OR {reloads};" if reloads else ";"))
            self._var[table.name] = var
            rows = session.execute(text(f"SELECT json_agg(t)::text FROM {name} AS t")).scalar_one()
            assert "$rows$" not in rows
            load.append(f"IF {var} THEN INSERT INTO {name} SELECT * FROM "
                        f"json_populate_recordset(NULL::{name}, $rows${rows}$rows$); END IF;")
        for table in reversed(self.tables):  # rows that point at others go first
            name = _quoted(table.name)
            seeded_below = dependents[table.name] & set(self.rows)
            empty = (f"TRUNCATE {name} CASCADE" if table.name in triggered else f"DELETE FROM {name}")
            if table.name in self.rows:
                clear.append(f"IF {self._var[table.name]} THEN {empty}; END IF;")
            elif table.name in triggered:
                assert not seeded_below, f"TRUNCATE {table.name} CASCADE would empty seeded {seeded_below}"
                clear.append(f"IF EXISTS (SELECT 1 FROM {name}) THEN {empty}; END IF;")
            elif seeded_below:
                clear.append(f"DELETE FROM {name};")
            else:  # DELETE costs per row: many rows are truncated
                clear.append(f"IF (SELECT count(*) FROM (SELECT 1 FROM {name} LIMIT {_MANY}) AS x) >= {_MANY} "
                             f"THEN TRUNCATE {name} CASCADE; ELSE DELETE FROM {name}; END IF;")
        # The case numbers' sequences a test's starts made and the holes its worker kept (0035): a test
        # draws from a fresh counter, as on a fresh database.
        clear.append("FOR seq IN SELECT c.oid::regclass FROM pg_class c WHERE c.relkind = 'S' "
                     "AND c.relnamespace = current_schema()::regnamespace AND c.relname LIKE 'case\\_number\\_%' "
                     "LOOP EXECUTE 'DROP SEQUENCE ' || seq; END LOOP;")
        if session.execute(text("SELECT to_regclass('case_number_hole')")).scalar() is not None:
            clear.append("DELETE FROM case_number_hole;")
        declare.append("seq regclass;")
        body = "\n".join(["DECLARE " + " ".join(declare) + " BEGIN", *check, *clear, *load, "END"])
        # A function of this connection's own (pg_temp): its plans are made once, not per test.
        script = [f"CREATE FUNCTION pg_temp.tramite_restore() RETURNS void LANGUAGE plpgsql AS $restore${body}$restore$;"]
        sequences = session.execute(text(
            "SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename), last_value "
            "FROM pg_sequences WHERE schemaname = current_schema()")).all()
        if sequences:
            self._setvals = "SELECT " + ", ".join(
                f"setval('{name}', {value}, true)" if value is not None else f"setval('{name}', 1, false)"
                for name, value in sequences)
        return "\n".join(script)

    @staticmethod
    def _digest(table) -> str:
        order = ", ".join(f"t.{_quoted(c.name)}" for c in table.primary_key.columns)
        return f"SELECT md5(coalesce(json_agg(t ORDER BY {order})::text, '')) FROM {_quoted(table.name)} AS t"

    def _restorer(self, url):
        """The one connection per worker that restores (kept open: a fresh server process per
        test spent more reading 43 tables' catalogue entries than the restore itself)."""
        if self._connection is None or self._connection.closed:
            import psycopg
            self._connection = psycopg.connect(url.set(drivername="postgresql").render_as_string(hide_password=False))
            self._connection.execute(self._script)
            self._connection.commit()
        return self._connection

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()

    def restore(self, engine) -> None:
        if self._script is not None:
            import psycopg
            for attempt in (1, 2):  # a test may have ended this connection's server process
                try:
                    conn = self._restorer(engine.db.write_engine.url)
                    conn.execute("SELECT pg_temp.tramite_restore()" + (f"; {self._setvals}" if self._setvals else ""))
                    conn.commit()
                    return
                except psycopg.OperationalError:
                    self._connection = None
                    if attempt == 2:
                        raise
        with engine.db.transaction() as session:
            # SQLite: a local file, one statement costs little; DELETE as the wipe always did
            # (AUTOINCREMENT counters kept, as before).
            for table in reversed(self.tables):
                session.execute(text(f"DELETE FROM {_quoted(table.name)}"))
            for table in self.tables:
                if table.name in self.rows:
                    session.execute(table.insert(), self.rows[table.name])

    def check(self, engine) -> None:
        """The restored rows are the seed's, every table (a trigger or a new table that broke the
        restore fails here, once, instead of in some test far away)."""
        with engine.db.transaction() as session:
            restored = {name: rows for name, rows in _contents(session, self.tables).items() if rows}
        assert restored == self.rows, "the restored baseline differs from the seed"
