#!/usr/bin/env bash
# Start a local, throwaway PostgreSQL server for the test suite and print the
# SQLAlchemy URL to use as TRAMITE_TEST_DATABASE_URL.
#
#   TRAMITE_TEST_DATABASE_URL=$(bash scripts/postgres-test-server.sh | tail -n1)
#
# Idempotent: it installs Debian's `postgresql` package only when the server
# binaries are missing, creates a cluster only when there is none, starts it only
# when it is down, and creates the `tramite` role and the `tramite_test` database
# only when absent.  A second run against a running server takes about a second.
#
# Works without systemd (containers, CI): clusters are driven with Debian's
# pg_ctlcluster, which only hands over to systemctl when systemd is running.
#
# All progress messages go to stderr; stdout carries only the URL (last line).
# Needs root (apt-get, running commands as the `postgres` user) or sudo.
set -euo pipefail

PG_HOST=127.0.0.1
PG_PORT=5432
PG_ROLE=tramite
PG_PASSWORD=tramite
PG_DB=tramite_test
URL="postgresql+psycopg://${PG_ROLE}:${PG_PASSWORD}@${PG_HOST}:${PG_PORT}/${PG_DB}"
READY_TIMEOUT=60   # seconds to wait for the server to accept connections
CONF_NAME=zz-tramite-test.conf

# A cluster created under LANG=C would default to SQL_ASCII; force UTF-8.
export LANG=C.UTF-8 LC_ALL=C.UTF-8
export DEBIAN_FRONTEND=noninteractive

log() { printf '[postgres-test-server] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
    as_postgres() { (cd / && runuser -u postgres -- "$@"); }
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
    as_postgres() { (cd / && sudo -u postgres -- "$@"); }
else
    die "must run as root (or have sudo): it installs packages and manages the cluster"
fi

# Run SQL as the postgres superuser over the local socket; -tA gives bare values.
psql_admin() { as_postgres psql -X -q -v ON_ERROR_STOP=1 -p "$PG_PORT" -d postgres -tA "$@"; }

# --- 1. Install the server if needed -----------------------------------------
server_installed() {
    command -v pg_ctlcluster >/dev/null 2>&1 &&
        command -v pg_lsclusters >/dev/null 2>&1 &&
        compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null
}

if ! server_installed; then
    log "PostgreSQL server not found; installing Debian's postgresql package..."
    start=$SECONDS
    "${SUDO[@]}" apt-get update -q >&2
    "${SUDO[@]}" apt-get install -y -q --no-install-recommends postgresql >&2
    server_installed || die "postgresql package installed but server binaries still missing"
    log "installed in $((SECONDS - start)) s"
fi

# Highest installed major version (e.g. 15 on Debian 12).
PG_VERSION=$(for d in /usr/lib/postgresql/*/bin/postgres; do
    d=${d#/usr/lib/postgresql/}; echo "${d%%/*}"; done | sort -n | tail -n1)

# --- 2. Pick or create a cluster ------------------------------------------------
# pg_lsclusters -h columns: version cluster port status owner datadir logfile
CLUSTER_VER= CLUSTER_NAME=
# Prefer a cluster already configured for our port, else <latest>/main.
read -r CLUSTER_VER CLUSTER_NAME < <(
    pg_lsclusters -h | awk -v port="$PG_PORT" '$3 == port { print $1, $2; exit }') || true
if [ -z "${CLUSTER_VER:-}" ] && pg_lsclusters -h | awk -v v="$PG_VERSION" '$1 == v && $2 == "main" { found = 1 } END { exit !found }'; then
    CLUSTER_VER=$PG_VERSION CLUSTER_NAME=main
fi
if [ -z "${CLUSTER_VER:-}" ]; then
    log "no cluster found; creating ${PG_VERSION}/main on port ${PG_PORT}"
    "${SUDO[@]}" pg_createcluster --locale C.UTF-8 --encoding UTF8 -p "$PG_PORT" \
        "$PG_VERSION" main >&2
    CLUSTER_VER=$PG_VERSION CLUSTER_NAME=main
fi
CLUSTER="${CLUSTER_VER}/${CLUSTER_NAME}"
CONF_DIR="/etc/postgresql/${CLUSTER_VER}/${CLUSTER_NAME}"
[ -d "$CONF_DIR" ] || die "cluster ${CLUSTER} has no configuration directory ${CONF_DIR}"
log "using cluster ${CLUSTER}"

# --- 3. Test-only tuning ----------------------------------------------------------
# This server holds nothing but disposable test data, recreated by every test
# run, so durability is worthless here while its cost (an fsync on every commit,
# full-page images in the WAL after each checkpoint) dominates the run time of a
# suite that creates schemas and commits thousands of tiny transactions.  Turning
# it off makes the suite several times faster.  The price: if the machine
# crashes (not merely the server process) the cluster may be corrupted; then
# drop it (`pg_dropcluster --stop <ver> main`) and run this script again.
# NEVER copy these settings to a server holding data you care about.
# A conf.d file (rather than ALTER SYSTEM) can be written before the first start,
# so a fresh cluster comes up already tuned without an extra restart.
DESIRED_CONF="# Written by scripts/postgres-test-server.sh (Tramite): THROWAWAY TEST SERVER.
# Durability is deliberately disabled for speed; see that script for why.
listen_addresses = '${PG_HOST}'
port = ${PG_PORT}
fsync = off
synchronous_commit = off
full_page_writes = off
"
mkdir_conf_d() { "${SUDO[@]}" install -d -o postgres -g postgres -m 0755 "${CONF_DIR}/conf.d"; }
CONF_CHANGED=0
if ! grep -qE "^[[:space:]]*include_dir[[:space:]]*=[[:space:]]*'conf\.d'" "${CONF_DIR}/postgresql.conf"; then
    log "adding include_dir = 'conf.d' to ${CONF_DIR}/postgresql.conf"
    echo "include_dir = 'conf.d'" | "${SUDO[@]}" tee -a "${CONF_DIR}/postgresql.conf" >/dev/null
    CONF_CHANGED=1
fi
mkdir_conf_d
if [ "$(cat "${CONF_DIR}/conf.d/${CONF_NAME}" 2>/dev/null || true)" != "$(printf '%s' "$DESIRED_CONF")" ]; then
    log "writing ${CONF_DIR}/conf.d/${CONF_NAME}"
    printf '%s' "$DESIRED_CONF" | "${SUDO[@]}" tee "${CONF_DIR}/conf.d/${CONF_NAME}" >/dev/null
    "${SUDO[@]}" chown postgres:postgres "${CONF_DIR}/conf.d/${CONF_NAME}"
    CONF_CHANGED=1
fi

# --- 4. Start (or restart to apply changed settings) ---------------------------------
# The socket directory lives under /run, which may be empty in a fresh container.
"${SUDO[@]}" install -d -o postgres -g postgres -m 2775 /var/run/postgresql

show_log_tail() {
    local f="/var/log/postgresql/postgresql-${CLUSTER_VER}-${CLUSTER_NAME}.log"
    [ -r "$f" ] && { log "last lines of $f:"; tail -n 30 "$f" >&2; }
    return 0
}

if "${SUDO[@]}" pg_ctlcluster "$CLUSTER_VER" "$CLUSTER_NAME" status >/dev/null 2>&1; then
    if [ "$CONF_CHANGED" -eq 1 ]; then
        # listen_addresses/port only take effect on restart.
        log "restarting ${CLUSTER} to apply settings"
        "${SUDO[@]}" pg_ctlcluster "$CLUSTER_VER" "$CLUSTER_NAME" restart >&2 ||
            { show_log_tail; die "could not restart ${CLUSTER}"; }
    else
        log "${CLUSTER} already running"
    fi
else
    log "starting ${CLUSTER}"
    "${SUDO[@]}" pg_ctlcluster "$CLUSTER_VER" "$CLUSTER_NAME" start >&2 ||
        { show_log_tail; die "could not start ${CLUSTER}"; }
fi

# --- 5. Wait until it accepts TCP connections (bounded) ------------------------------
deadline=$((SECONDS + READY_TIMEOUT))
until pg_isready -q -h "$PG_HOST" -p "$PG_PORT" -t 2; do
    if [ "$SECONDS" -ge "$deadline" ]; then
        show_log_tail
        die "server not accepting connections on ${PG_HOST}:${PG_PORT} after ${READY_TIMEOUT} s"
    fi
    sleep 1
done

# --- 6. Role and database -----------------------------------------------------------------
if [ "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = '${PG_ROLE}'")" != 1 ]; then
    log "creating role ${PG_ROLE}"
    psql_admin -c "CREATE ROLE ${PG_ROLE} LOGIN CREATEDB PASSWORD '${PG_PASSWORD}'"
else
    # Re-assert attributes and password in case they were changed by hand.
    psql_admin -c "ALTER ROLE ${PG_ROLE} LOGIN CREATEDB PASSWORD '${PG_PASSWORD}'"
fi
if [ "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '${PG_DB}'")" != 1 ]; then
    log "creating database ${PG_DB}"
    # Explicit UTF-8 from template0, whatever encoding the cluster defaults to.
    psql_admin -c "CREATE DATABASE ${PG_DB} OWNER ${PG_ROLE} ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8' TEMPLATE template0"
else
    psql_admin -c "ALTER DATABASE ${PG_DB} OWNER TO ${PG_ROLE}"
fi

# --- 7. Check that the URL really works (TCP + password auth) -------------------------
PGPASSWORD="$PG_PASSWORD" PGCONNECT_TIMEOUT=5 psql -X -q -v ON_ERROR_STOP=1 \
    -h "$PG_HOST" -p "$PG_PORT" -U "$PG_ROLE" -d "$PG_DB" -tA -c 'SELECT 1' >/dev/null ||
    die "cannot log in as ${PG_ROLE} on ${PG_HOST}:${PG_PORT}/${PG_DB} (check pg_hba.conf in ${CONF_DIR})"

log "ready: ${CLUSTER} on ${PG_HOST}:${PG_PORT}, database ${PG_DB}"
echo "$URL"
