#!/usr/bin/env bash
# Serves the site (`make run`): daphne, with the worker that plays bots'
# turns and enforces timers inside it, or beside it (`manage.py run_worker`)
# when REDIS_URL is set. Ctrl-C, SIGTERM, or either process stopping stops
# both, so no worker outlives the site.
# HOST and PORT choose daphne's address; with REDIS_URL, WORKERS=N starts N
# workers that share the matches out (run_worker --shard K --shards N).
set -uo pipefail
cd "$(dirname "$0")/.."

bin=.venv/bin
worker=""
server=""

stop_both() {
    trap - EXIT INT TERM
    for pid in $server $worker; do
        kill -TERM "$pid" 2>/dev/null
    done
    wait
}
trap stop_both EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Without Redis the channel layer lives inside daphne, so the worker runs
# inside daphne too (games/worker/in_server.py): its moves reach the clients
# at once. With Redis it is a process of its own, woken through Redis.
if [ -z "${REDIS_URL:-}" ]; then
    export WORKER_IN_SERVER=1
else
    workers=${WORKERS:-1}
    for ((shard = 0; shard < workers; shard++)); do
        "$bin/python" manage.py run_worker --shard "$shard" --shards "$workers" &
        worker="$worker $!"
    done
fi
"$bin/python" -m baloot_site.serve --bind "${HOST:-127.0.0.1}" --port "${PORT:-8000}" baloot_site.asgi:application &
server=$!

# Whichever ends first ends the run; its status is the script's.
wait -n
exit $?
