# Baloot Online: `make run` serves the site, `make test` runs every test,
# `make check` the quick tier.

PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test check soak lint services clean messages

# The virtual environment, and a stamp per requirements file so that a change
# to the pins reinstalls on the next run.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.requirements: requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.requirements-dev: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

# The compiled message catalogs, one .mo beside each .po, rebuilt when the .po
# changes. Babel compiles them (baloot_site/catalogs.py), so no GNU gettext is
# needed; the .mo files are not in git.
CATALOGS := $(wildcard locale/*/LC_MESSAGES/*.po)
COMPILED_CATALOGS := $(CATALOGS:.po=.mo)

%.mo: %.po | $(VENV)/.requirements
	$(BIN)/python -m baloot_site.catalogs compile

# Local use: DEBUG on unless the environment says otherwise, SQLite and the
# in-memory channel layer unless DATABASE_URL / REDIS_URL are set.
run: export DJANGO_DEBUG ?= 1
run: $(VENV)/.requirements $(COMPILED_CATALOGS)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	# daphne and the worker that plays bots and enforces timers, stopped
	# together (scripts/run.sh).
	HOST=$(HOST) PORT=$(PORT) scripts/run.sh

# The whole suite on SQLite, then what can differ by database on PostgreSQL.
test: $(VENV)/.requirements-dev $(COMPILED_CATALOGS)
	scripts/services.sh
	# Debian's Chromium for the browser tests, when missing and installable.
	scripts/chromium.sh
	# Debian's nginx for the proxy test (tests/realworld/test_nginx.py).
	scripts/nginx.sh
	scripts/test.sh

# The quick tier, while editing: no browser, no server processes, no soak runs.
check: $(VENV)/.requirements-dev $(COMPILED_CATALOGS)
	scripts/services.sh
	scripts/test.sh check

# The full-size fuzzes, playouts and searches (marker `soak`).
soak: $(VENV)/.requirements-dev $(COMPILED_CATALOGS)
	scripts/test.sh soak

lint: $(VENV)/.requirements-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	# The Django plugin imports the settings, which need a key.
	DJANGO_SECRET_KEY=lint-only-key $(BIN)/mypy baloot_site accounts games stacks tests

services:
	scripts/services.sh

# After changing the site's wording: refresh locale/*/LC_MESSAGES/django.po from
# the source (needs GNU gettext's xgettext), then translate the new entries.
messages: $(VENV)/.requirements
	DJANGO_SECRET_KEY=messages-only-key $(BIN)/python -m baloot_site.catalogs update

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache $(COMPILED_CATALOGS)
