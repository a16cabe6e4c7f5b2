#!/usr/bin/env bash
# The Debian packages Tramite and its tests need, in one list: the README's set-up command and
# .ci/run both install from here, so a fresh machine's `make run` / `make test` pass.
#
#   sudo bash scripts/system-packages.sh          install what is missing (as root)
#   bash scripts/system-packages.sh --dry-run     say what is missing and the command that would run
#   bash scripts/system-packages.sh --list        print the packages, one a line
#   ... --ci                                      also what CI's PostgreSQL phase needs
#
# Only missing packages are installed (one `apt-get update` first, and only then). Nothing is
# installed without root, nor on a machine without apt-get: the script prints what to install
# and exits 0, so `make` and the README's command never fail on a machine set up by hand.
set -euo pipefail

# package [command that stands in for it]: Node.js from another source (nodesource, nvm) has no
# Debian package but its `node`/`npm` do the job.
PACKAGES=(
    "make"
    "python3-venv"                # make venv
    "nodejs node"                 # the web UI's packages (npm ci) and the esbuild bundle
    "npm npm"
    "chromium"                    # the browser tests drive Debian's chromium with Playwright
    "fonts-dejavu-core"           # pages, screenshots and letters render with real fonts
    "fonts-liberation"
    "libpango-1.0-0"              # WeasyPrint (letters as PDF): Pango, its FreeType part, HarfBuzz
    "libpangoft2-1.0-0"
    "libharfbuzz0b"
    "libharfbuzz-subset0"
    "shared-mime-info"
    "poppler-utils"               # pdftotext: the tests read the letters' text
)
CI_PACKAGES=(
    "postgresql"                  # .ci/run's second phase (scripts/postgres-test-server.sh)
    "pgbouncer"                   # the test that the app works behind PgBouncer in transaction mode
)

mode=install
with_ci=0
for arg in "$@"; do
    case "$arg" in
        --dry-run) mode=dry-run ;;
        --list) mode=list ;;
        --ci) with_ci=1 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "system-packages: unknown option $arg (use --dry-run, --list, --ci)" >&2; exit 2 ;;
    esac
done

wanted=("${PACKAGES[@]}")
if [ "$with_ci" -eq 1 ]; then
    wanted+=("${CI_PACKAGES[@]}")
fi

if [ "$mode" = list ]; then
    for entry in "${wanted[@]}"; do
        echo "${entry%% *}"
    done
    exit 0
fi

installed() {  # package [command]
    local status
    status=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] && return 0
    [ -n "${2:-}" ] && command -v "$2" >/dev/null 2>&1
}

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
    for entry in "${wanted[@]}"; do
        read -r package command <<<"$entry"
        installed "$package" "${command:-}" || missing+=("$package")
    done
else
    for entry in "${wanted[@]}"; do
        missing+=("${entry%% *}")
    done
fi

if [ "${#missing[@]}" -eq 0 ]; then
    echo "system-packages: every Debian package is installed"
    exit 0
fi

command_line="apt-get install -y -q --no-install-recommends ${missing[*]}"
echo "system-packages: missing: ${missing[*]}"
if [ "$mode" = dry-run ]; then
    echo "system-packages: would run: apt-get update -q && ${command_line}"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "system-packages: no apt-get here; install the equivalents of: ${missing[*]}" >&2
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "system-packages: not root, nothing installed; run: sudo bash scripts/system-packages.sh" >&2
    echo "  (or: sudo apt-get update && sudo ${command_line})" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
