#!/usr/bin/env bash
# Issue 5's load run: wrk on loopback for DURATION (default 60 s) at 256 connections across
# SESSIONS (default 10,000) sessions, 80% reads and 20% mutations, against minerva-server with the
# SQLite store and then with the memory store, in the same run. Reports req/s, p50/p99, errors,
# and the server's resident memory after warm-up and at the end (growth would mean a leak).
#   Benchmarks/run-load.sh            # DURATION=60 SESSIONS=10000 CONNECTIONS=256
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-60}
SESSIONS=${SESSIONS:-10000}
CONNECTIONS=${CONNECTIONS:-256}

scripts/setup.sh
command -v wrk >/dev/null || { sudo=""; [[ "$(id -u)" == 0 ]] || sudo=sudo; $sudo apt-get update -qq; $sudo apt-get install -y -qq wrk >/dev/null; }
scripts/build.sh >/dev/null

work=$(mktemp -d)
server_pid=""
cleanup() { [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }

echo "| store | requests | seconds | req/s | p50 ms | p99 ms | non-2xx + socket errors | RSS after warm-up MiB | RSS at end MiB |"
echo "|---|---|---|---|---|---|---|---|---|"
for store in "sqlite:$work/load.sqlite" memory; do
  # wrk's connections all come from 127.0.0.1, as a proxy's would: no per-address limit below the total.
  # Sessions of the old, small limits, and a budget for 200,000 of them at worst (the load builds small ones).
  .build/release/minerva-server --port 0 --threads 2 --store "$store" --log-level notice --app tests/live/apps/tabs.json \
    --max-sessions 200000 --max-session-bytes 16384 --max-list-bytes 12288 --memory-budget 68719476736 --max-connections-per-ip 4096 > "$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do grep -q "listening on" "$work/server.log" 2>/dev/null && break; sleep 0.1; done
  url=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/server.log" | head -1)
  python3 Benchmarks/make-sessions.py "$url" "$SESSIONS" "$work/sessions.txt"
  export SESSIONS_FILE="$work/sessions.txt" WRK_DIR="$PWD/Benchmarks/wrk" WRK_THREADS=2
  wrk -t2 -c"$CONNECTIONS" -d10s -s Benchmarks/wrk/mixed.lua "$url" > /dev/null   # warm-up
  warm=$(rss_kib "$server_pid")
  result=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s Benchmarks/wrk/mixed.lua "$url" | grep WRK_RESULT)
  end=$(rss_kib "$server_pid")
  requests=$(sed -E 's/.*requests=([0-9]+).*/\1/' <<<"$result")
  seconds=$(sed -E 's/.*seconds=([0-9.]+).*/\1/' <<<"$result")
  rps=$(sed -E 's/.*rps=([0-9.]+).*/\1/' <<<"$result")
  p50=$(sed -E 's/.*p50_us=([0-9]+).*/\1/' <<<"$result")
  p99=$(sed -E 's/.*p99_us=([0-9]+).*/\1/' <<<"$result")
  errors=$(awk '{for (i = 1; i <= NF; i++) if ($i ~ /^errors_/) {split($i, a, "="); s += a[2]}} END {print s}' <<<"$result")
  printf "| %s | %s | %s | %.0f | %.2f | %.2f | %s | %.1f | %.1f |\n" "${store%%:*}" "$requests" "$seconds" "$rps" "$(bc -l <<<"$p50/1000")" \
    "$(bc -l <<<"$p99/1000")" "$errors" "$(bc -l <<<"$warm/1024")" "$(bc -l <<<"$end/1024")"
  kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
done
