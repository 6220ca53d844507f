#!/usr/bin/env bash
# Runs one tier of the test suite, in parallel over the machine's cores
# (pytest-xdist: each test process has its own test database, SQLite or
# PostgreSQL, and its own Redis index):
#
#   scripts/test.sh          every test on SQLite, then the tests whose
#                            behaviour can differ by database (markers
#                            `vendor` and `postgres`) again on PostgreSQL:
#                            `make test`, what CI runs.
#   scripts/test.sh check    the quick tier: no browser, no real server
#                            processes, no soak runs, SQLite only: `make check`.
#   scripts/test.sh soak     the full-size fuzzes, playouts and searches: `make soak`.
#
# With CI=true a missing PostgreSQL is a failure; elsewhere that pass is
# skipped with a note. Extra arguments go to every pytest run, after the
# tier's own (so `-n 0` runs in one process, `-p no:randomly` in file order).
set -euo pipefail
cd "$(dirname "$0")/.."

python=.venv/bin/python
tier=all
case "${1:-}" in
    check | soak)
        tier=$1
        shift
        ;;
esac
# pytest creates "test_" + this database's name (and "_gw0", "_gw1", ... per
# test process) and drops it at the end; the process number keeps two runs on
# one server (two checkouts, say) apart.
postgres_url=${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/baloot_$$}
ci=${CI:-}
# One test process per core; a module's tests stay in one process, so a
# module's servers and data are made once.
parallel=(-n "${TEST_PROCESSES:-auto}" --dist loadscope)

sqlite() {
    env -u DATABASE_URL "$python" -m pytest "${parallel[@]}" "$@"
}

case "$tier" in
    check)
        echo "== The quick tier on SQLite (no browser, no server processes, no soak)"
        sqlite -m "not browser and not realworld and not soak and not postgres" "$@"
        exit
        ;;
    soak)
        echo "== The soak runs on SQLite"
        sqlite -m soak "$@"
        exit
        ;;
esac

echo "== Pass 1 of 2: the whole suite on SQLite (-m \"not postgres and not soak\")"
sqlite -m "not postgres and not soak" "$@"

postgres_markers="(vendor or postgres) and not soak"
echo "== Pass 2 of 2: what can differ by database, on PostgreSQL (-m \"$postgres_markers\")"
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
    DATABASE_URL=$postgres_url "$python" -m pytest "${parallel[@]}" -m "$postgres_markers" "$@"
elif [ "$ci" = true ]; then
    echo "FAILED: CI=true needs PostgreSQL at $postgres_url for the second pass." >&2
    exit 1
else
    echo "SKIPPED the PostgreSQL pass: nothing answers at $postgres_url."
    echo "Start it with scripts/services.sh, or set TEST_POSTGRES_URL."
fi
