# Two commands for a fresh machine: `make run` and `make test` (see README).
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
# Tests need a key only because settings refuse to start without one when DEBUG is off.
TEST_ENV := SECRET_KEY=$${SECRET_KEY:-tests-only-not-a-secret} STATIC_MANIFEST=0
PYTEST_ARGS ?=

.PHONY: install run test test-browser lint bench worker beat clean

$(VENV)/.installed: requirements.txt requirements-dev.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -qq --upgrade pip
	$(PY) -m pip install -qq -r requirements-dev.txt
	touch $@

install: $(VENV)/.installed
	DEBUG=1 $(PY) manage.py compile_translations

run: install
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py load_demo
	@echo "Serving the demo at http://$(HOST):$(PORT)/"
	DEBUG=1 $(VENV)/bin/uvicorn config.asgi:application --host $(HOST) --port $(PORT) --ws websockets-sansio --reload

test: install
	$(TEST_ENV) $(PY) -m pytest $(PYTEST_ARGS)

test-browser: install
	$(TEST_ENV) $(PY) -m pytest -m browser $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

bench: install
	DEBUG=1 $(PY) -m bench

worker: install
	$(PY) -m celery -A config worker --loglevel=info

# Exactly one beat per site: it sends the sweep (lost work again) and the heartbeat that /health/ reads.
beat: install
	$(PY) -m celery -A config beat --loglevel=info --schedule=$${TMPDIR:-/tmp}/bgclub-celerybeat-schedule

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
