# Two commands for a fresh machine: `make run` and `make test` (see README).
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# Tests need a key only because settings refuse to start without one when DEBUG is off.
TEST_ENV := SECRET_KEY=$${SECRET_KEY:-tests-only-not-a-secret} STATIC_MANIFEST=0
PYTEST_ARGS ?= --durations=20  # the slowest tests named in every run, CI included
# The suite runs on one process per core (pytest-xdist), each with its own test database; tests that must not
# share the machine with another worker carry an xdist_group mark. PYTEST_WORKERS=0 runs it in one process.
PYTEST_WORKERS ?= auto
XDIST := -n $(PYTEST_WORKERS) --dist loadgroup

.PHONY: install run test test-browser lint bench loadtest loadtest-nodes apifuzz worker beat clean

$(VENV)/.installed: requirements.txt requirements-dev.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -qq --upgrade pip
	$(PY) -m pip install -qq -r requirements-dev.txt
	touch $@

# The compiled move generator (backgammon/compiled_moves.c): without a C compiler the pure Python one serves.
install: $(VENV)/.installed
	DEBUG=1 $(PY) manage.py compile_translations
	$(PY) tools/build_movegen.py

run: install
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py load_demo
	@echo "Serving the demo at http://$(HOST):$(PORT)/"
	DEBUG=1 $(VENV)/bin/uvicorn config.asgi:application --host $(HOST) --port $(PORT) --ws websockets-sansio --ws-max-size 65536 --reload

test: install
	$(TEST_ENV) $(PY) -m pytest $(XDIST) $(PYTEST_ARGS)

test-browser: install
	$(TEST_ENV) $(PY) -m pytest -m browser $(XDIST) $(PYTEST_ARGS)

# lint-imports: the layers of the apps and the purity of the cores ([tool.importlinter] in pyproject.toml).
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

bench: install
	DEBUG=1 $(PY) -m bench

# The production-like stack under load (docs/performance.md): needs PostgreSQL and Redis on 127.0.0.1; starts
# its own server, worker and beat and its own database; LOADTEST_SECONDS per scenario (CI runs 4).
LOADTEST_SECONDS ?= 20
loadtest: install
	LOADTEST_SECONDS=$(LOADTEST_SECONDS) $(PY) -m loadtest

# The site as two nodes (docs/deploy.md): two uvicorn processes on LOADTEST_PORT and the next, one PostgreSQL, one
# Redis; pushes cross nodes, clients alternate nodes, and one node is SIGKILLed mid-run and must lose nothing.
loadtest-nodes: install
	LOADTEST_NODES=2 LOADTEST_SECONDS=$(LOADTEST_SECONDS) $(PY) -m loadtest

# Schemathesis against /api/schema/ as anonymous, player and director, every check on (docs/api.md, "The schema
# fuzzer"): its own throwaway database and server; fails on any failure. APIFUZZ_ARGS="--roles player" etc.
APIFUZZ_ARGS ?=
apifuzz: install
	$(PY) tools/api_fuzz.py $(APIFUZZ_ARGS)

worker: install
	$(PY) -m celery -A config worker --loglevel=info

# Exactly one beat per site: it sends the sweep (lost work again) and the heartbeat that /health/ reads.
beat: install
	$(PY) -m celery -A config beat --loglevel=info --schedule=$${TMPDIR:-/tmp}/bgclub-celerybeat-schedule

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles backgammon/compiled_moves.*.so
