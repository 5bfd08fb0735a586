#!/usr/bin/env bash
# Instant taps: tap to observed state with prediction (the Swift client's PredictingSession)
# against without (MinervaSession), through a proxy that adds 0, 50, 100 and 300 ms of round trip,
# on the three test apps (tabs, a three-column split with sheets, flows with a guard). Each line:
# the predicted state's p50/p99 from the tap, how many taps showed it while the proxy still held
# their request, the confirmation's p50, requests and answer bytes per tap, how many changes
# waited for the server (0 on the server's model version); then the same taps without prediction.
#
#   Benchmarks/run-prediction.sh          # TAPS=100 per run; DELAYS="0 50 100 300"; builds release
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
taps="${TAPS:-100}"
delays="${DELAYS:-0 50 100 300}"

(cd "$root" && scripts/build.sh >/dev/null)
swift build --package-path "$here" -c release --product prediction-latency 2>&1 | grep -E "error|warning: " | grep -v "unhandled; explicitly declare" || true
driver="$(swift build --package-path "$here" -c release --show-bin-path)/prediction-latency"

pids=()
logs=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -f "${logs[@]}"' EXIT
# Starts a command in the background and sets `port` to the port it says it listens on.
listening() {
  local log
  log=$(mktemp)
  logs+=("$log")
  "$@" >"$log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do
    port=$(grep -o 'listening on [^ "]*' "$log" | head -1 | grep -o '[0-9]*$') && [[ -n "$port" ]] && return
    sleep 0.1
  done
  echo "did not start: $*" >&2
  cat "$log" >&2
  exit 1
}

for app in tabs mail bank; do
  listening "$root/.build/release/minerva-server" --port 0 --store memory --rate-limit 0 --app "$root/tests/live/apps/$app.json"
  server=$port
  for delay in $delays; do
    listening python3 "$here/delay-proxy.py" 0 127.0.0.1 "$server" "$delay"
    "$driver" "http://127.0.0.1:$port" "$(printf '%-5s %3s ms' "$app" "$delay")" "$taps"
    kill "${pids[-1]}"
  done
  kill "${pids[0]}"
  pids=()
done
