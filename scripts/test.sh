#!/usr/bin/env bash
# Runs the test suite twice: everything on SQLite, then every test that uses
# the database again on PostgreSQL. With CI=true the slow tests run too and a
# missing PostgreSQL is a failure; elsewhere that pass is skipped with a note.
# Extra arguments go to both pytest runs.
set -euo pipefail
cd "$(dirname "$0")/.."

python=.venv/bin/python
# pytest creates "test_" + this database's name and drops it at the end; the
# process number keeps two runs on one server (two checkouts, say) apart.
postgres_url=${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/baloot_$$}
ci=${CI:-}

if [ "$ci" = true ]; then
    sqlite_markers="not postgres"
    postgres_markers="database or postgres"
else
    sqlite_markers="not postgres and not slow"
    postgres_markers="(database or postgres) and not slow"
fi

echo "== Pass 1 of 2: the whole suite on SQLite (-m \"$sqlite_markers\")"
env -u DATABASE_URL "$python" -m pytest -m "$sqlite_markers" "$@"

echo "== Pass 2 of 2: the database tests on PostgreSQL (-m \"$postgres_markers\")"
if "$python" - "$postgres_url" <<'PY'
import sys

import psycopg

try:
    # The server's maintenance database: the test database is pytest's to create.
    psycopg.connect(sys.argv[1], dbname="postgres", connect_timeout=5).close()
except psycopg.Error as error:
    print(f"PostgreSQL is unreachable at {sys.argv[1]}: {error}".strip(), file=sys.stderr)
    sys.exit(1)
PY
then
    DATABASE_URL=$postgres_url "$python" -m pytest -m "$postgres_markers" "$@"
elif [ "$ci" = true ]; then
    echo "FAILED: CI=true needs PostgreSQL at $postgres_url for the second pass." >&2
    exit 1
else
    echo "SKIPPED the PostgreSQL pass: nothing answers at $postgres_url."
    echo "Start it with scripts/services.sh, or set TEST_POSTGRES_URL."
fi
