#!/usr/bin/env bash
# Starts the local PostgreSQL and Redis that the tests use, when they are
# installed but not running. Prints what it did; never fails the build by
# itself (scripts/test.sh decides what a missing service means).
set -u

port_open() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

wait_for_port() {
    for _ in $(seq 1 30); do
        port_open "$1" && return 0
        sleep 0.5
    done
    return 1
}

if port_open 5432; then
    echo "PostgreSQL: running on 127.0.0.1:5432."
elif command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    version=$(ls /etc/postgresql | sort -V | tail -n 1)
    echo "PostgreSQL: starting cluster $version/main..."
    pg_ctlcluster --skip-systemctl-redirect "$version" main start \
        || echo "PostgreSQL: could not start cluster $version/main." >&2
    wait_for_port 5432 && echo "PostgreSQL: running." || echo "PostgreSQL: still not reachable." >&2
else
    echo "PostgreSQL: not installed here; the PostgreSQL tests need it."
fi

if port_open 6379; then
    echo "Redis: running on 127.0.0.1:6379."
elif command -v redis-server >/dev/null 2>&1; then
    echo "Redis: starting..."
    mkdir -p /var/lib/redis /var/log/redis
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
        --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log \
        || echo "Redis: could not start." >&2
    wait_for_port 6379 && echo "Redis: running." || echo "Redis: still not reachable." >&2
else
    echo "Redis: not installed here; the Redis tests need it."
fi
exit 0
