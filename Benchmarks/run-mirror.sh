#!/usr/bin/env bash
# A follower of a session by mirror (the Swift client's SessionMirror: the change log's events,
# and a list's cells on `listChanged`) against one that re-reads the whole state after every
# change (the long poll): requests and answer bytes per change, over a scripted session of 200
# changes on the tabs app (up to 20 screens with a list of 40 cells each, so the session may hold
# 1 MiB), both followers following the same session in the same run.
#
#   Benchmarks/run-mirror.sh            # CHANGES=200; builds the server and the follower (release)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
changes="${CHANGES:-200}"

(cd "$root" && scripts/build.sh >/dev/null)
swift build --package-path "$here" -c release --product mirror-follower 2>&1 | grep -E "error|warning: " | grep -v "unhandled; explicitly declare" || true
follower="$(swift build --package-path "$here" -c release --show-bin-path)/mirror-follower"

log=$(mktemp)
"$root/.build/release/minerva-server" --port 0 --store memory --rate-limit 0 --max-session-bytes 1048576 --max-sessions 1000 --app "$root/tests/live/apps/tabs.json" >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 100); do
  url=$(grep -o 'listening on http://[^ "]*' "$log" | head -1 | cut -d' ' -f3) && [[ -n "$url" ]] && break
  sleep 0.1
done
"$follower" "$url" "$changes"
