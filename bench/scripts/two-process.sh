#!/usr/bin/env bash
# Runs one perf test as two processes on 127.0.0.1, as a user would: a server, then a client,
# both with the same options. Prints the client's output.
#   bench/scripts/two-process.sh write-lat -s 8 -n 20000 --transport sockets-busypoll
# SERVER_CPUS / CLIENT_CPUS (taskset lists, e.g. 1 and 0) put each process on CPUs of its own.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
port=${PORT:-$((20000 + RANDOM % 20000))}
${SERVER_CPUS:+taskset -c "$SERVER_CPUS"} "$root/jwarp" "$@" -p "$port" >/tmp/two-process-server.$$ 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f /tmp/two-process-server.$$' EXIT
for _ in $(seq 100); do
  ss -ltn "sport = :$port" | grep -q LISTEN && break
  sleep 0.1
done
${CLIENT_CPUS:+taskset -c "$CLIENT_CPUS"} "$root/jwarp" "$@" -p "$port" 127.0.0.1
wait $server || { echo "server failed:"; cat /tmp/two-process-server.$$; exit 1; }
