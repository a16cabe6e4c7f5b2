# Tramite developer tasks.  Recipes are indented with TABs.
#
#   make venv      create .venv (if missing) and install the project + dev extras
#   make test      run the test suite (SQLite unless TRAMITE_TEST_DATABASE_URL is set)
#   make test-pg   run the test suite against PostgreSQL; requires TRAMITE_TEST_DATABASE_URL,
#                  e.g. TRAMITE_TEST_DATABASE_URL=$(bash scripts/postgres-test-server.sh | tail -n1) make test-pg
#   make node_modules  install the web UI's npm packages (npm ci) when missing or package-lock.json changed
#   make run       seed the demo (prints the demo users) and serve http://127.0.0.1:8000 on a manual clock;
#                  PORT=8100 make run (or make run PORT=8100) and HOST=0.0.0.0 choose where it listens
#   make system-packages  install the Debian packages the app and the tests need (as root; see
#                  scripts/system-packages.sh --dry-run for what is missing)
#   make screenshots  regenerate the README's screenshots of the web application (docs/screenshots/)

# Prefer an explicit 3.11 interpreter (pyproject requires >=3.11,<3.12).
PYTHON ?= $(shell command -v python3.11 2>/dev/null || echo python3)
VENV   := .venv
STAMP  := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
WEB_BUNDLE := node_modules/.tramite-web/modeler.js
WEB_SOURCES := $(wildcard api/web/static/src/*.js)
PYTEST := $(VENV)/bin/pytest -n 2 -p no:cacheprovider
# Where `make run` listens: from the environment or the command line (PORT=8100 make run).
HOST ?= 127.0.0.1
PORT ?= 8000

export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: venv node_modules test test-pg require-db-url run screenshots system-packages

venv: $(STAMP)

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when pyproject.toml changes (or the venv is recreated).
$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[dev]'
	touch $@

# Reinstall only when package-lock.json changes (or node_modules is removed).
node_modules: $(NODE_STAMP) $(WEB_BUNDLE)

$(NODE_STAMP): package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# The web UI's own bundles (bpmn-js modeler + properties panel, auto-layout), built with esbuild
# from npm into node_modules/.tramite-web: never committed, rebuilt when their sources change.
$(WEB_BUNDLE): $(NODE_STAMP) $(WEB_SOURCES)
	npm run --silent build:web

# Browser tests need the npm packages too. The import contracts (pyproject.toml) are checked first:
# a layer broken is a failed build, like a failed test.
test: system-packages venv node_modules
	$(VENV)/bin/lint-imports --no-cache
	$(PYTEST) tests

# Same suite as `test` for now; suites that only need to run once (e.g. browser
# tests) may be skipped here later.
test-pg: require-db-url venv node_modules
	$(PYTEST) tests

require-db-url:
	@if [ -z "$$TRAMITE_TEST_DATABASE_URL" ]; then \
		echo "test-pg: TRAMITE_TEST_DATABASE_URL is not set." >&2; \
		echo "  e.g. TRAMITE_TEST_DATABASE_URL=\$$(bash scripts/postgres-test-server.sh | tail -n1) make test-pg" >&2; \
		exit 1; \
	fi

# A manual clock by default so the demo can move time forward; TRAMITE_CLOCK=system overrides it.
# The seed runs on the same clock as the server, so demo cases and deadlines share one timeline.
run: system-packages venv node_modules
	export TRAMITE_CLOCK=$${TRAMITE_CLOCK:-manual}; \
	$(VENV)/bin/tramite seed-demo && $(VENV)/bin/tramite serve --host '$(HOST)' --port '$(PORT)'

# The Debian packages first (python3-venv, Node.js, chromium, fonts, Pango…): only the missing ones
# are installed, and without root nothing is and the script says what to install (README).
system-packages:
	bash scripts/system-packages.sh

screenshots: venv node_modules
	$(VENV)/bin/python -m tests.web.screenshots
