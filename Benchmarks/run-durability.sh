#!/usr/bin/env bash
# What durability costs: push/pop req/s of minerva-server with the SQLite store and with a
# PostgreSQL store (one instance, a private cluster started here) against the memory store, all of
# this build, and 395c355's memory store beside them (the release before analytics and the change
# log); with the bytes the SQLite server writes to disk per mutation (/proc/PID/io: the WAL and its
# checkpoints into the database), the WAL PostgreSQL writes per mutation, and the CPU each
# mutation costs the server and, with PostgreSQL, the database's processes.
#
#   Benchmarks/run-durability.sh        # 3 alternating rounds of 10 s: about 6 minutes after the builds
#   ROUNDS=1 DURATION=3s STORES="memory sqlite" Benchmarks/run-durability.sh
#
# Each run: a fresh server (2 threads, --rate-limit 0, the tabs app the benchmarks use), SESSIONS
# sessions (512) made by make-sessions.py, a warm-up, then wrk -t2 -c64 push_pop.lua for DURATION,
# which sends every session its share of the requests in turn (printed per run: each within 10% of
# the mean, else the run fails).
# Settings: ROUNDS (3), DURATION (10s), WARMUP (3s), SESSIONS (512), CONNECTIONS (64), REF (395c355),
# STORES ("memory sqlite postgres ref-memory"; ref-sqlite adds 395c355 on SQLite),
# MINERVA_BIN (default: this working tree's release build, made by scripts/build.sh).
# The ref is built once in Benchmarks/.build/ref-REF (a worktree beside it, removed after the build).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
rounds="${ROUNDS:-3}"
duration="${DURATION:-10s}"
warmup="${WARMUP:-3s}"
sessions="${SESSIONS:-512}"
connections="${CONNECTIONS:-64}"
ref="${REF:-395c355}"
stores="${STORES:-memory sqlite postgres ref-memory}"
ticks=$(getconf CLK_TCK)
app="$root/tests/live/apps/tabs.json"
results="$here/.build/durability-results/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$results"
log() { printf 'run-durability: %s\n' "$*" >&2; }

command -v wrk >/dev/null 2>&1 || { sudo=""; [[ "$(id -u)" == 0 ]] || sudo=sudo; $sudo apt-get install -y -qq wrk >/dev/null; }

head_bin="${MINERVA_BIN:-$root/.build/release/minerva-server}"
if [[ -z "${MINERVA_BIN:-}" ]]; then
  log "building this working tree (scripts/build.sh)"
  "$root/scripts/build.sh" >/dev/null
fi
ref_bin="$here/.build/ref-$ref/release/minerva-server"
if [[ ! -x "$ref_bin" ]]; then
  log "building $ref (once)"
  worktree="$here/.build/ref-$ref-src"
  git -C "$root" worktree add --detach "$worktree" "$ref" >/dev/null 2>&1 || true
  swift build -c release --package-path "$worktree" --scratch-path "$here/.build/ref-$ref" --product minerva-server >"$results/ref-build.log" 2>&1 \
    || { tail -20 "$results/ref-build.log" >&2; exit 1; }
  git -C "$root" worktree remove --force "$worktree" >/dev/null 2>&1 || true
fi

pid=""
cluster=""
cleanup() {
  [[ -z "$pid" ]] || kill "$pid" 2>/dev/null || true
  [[ -z "$cluster" ]] || python3 "$root/tests/live/postgres.py" stop "${cluster%% *}" >/dev/null
}
trap cleanup EXIT
if [[ " $stores " == *" postgres "* ]]; then
  cluster=$(python3 "$root/tests/live/postgres.py" start)
fi

# cpu PID…: user and system clock ticks of these processes.
cpu() {
  local total=0 process
  for process in "$@"; do
    [[ -r "/proc/$process/stat" ]] && total=$(( total + $(awk '{print $14 + $15}' "/proc/$process/stat") ))
  done
  echo "$total"
}

# database_processes: the PostgreSQL cluster's postmaster and its children (the backends serving
# the server's connections, the WAL writer, the checkpointer, …).
database_processes() {
  [[ -n "$cluster" ]] || return 0
  local postmaster
  postmaster=$(head -n 1 "${cluster%% *}/data/postmaster.pid")
  echo "$postmaster" $(pgrep -P "$postmaster")
}

# wal_bytes: PostgreSQL's WAL position, in bytes.
wal_bytes() {
  psql -qAt "${cluster#* }" -c "SELECT pg_current_wal_lsn() - '0/0'::pg_lsn"
}

# run NAME BINARY STORE: one measured run; prints "req/s bytes-written-per-request cpu-µs-per-request",
# the bytes PostgreSQL's WAL for a PostgreSQL store, the CPU the server's and the database's.
run() {
  local name="$1" binary="$2" store="$3" port="" started
  rm -f "$results/$name.sqlite"*
  "$binary" --host 127.0.0.1 --port 0 --threads 2 --rate-limit 0 --app "$app" --store "$store" >"$results/$name.log" 2>&1 &
  pid=$!
  started=$(date +%s)
  until [[ -n "$port" ]]; do
    port="$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9][0-9]*\).*|\1|p' "$results/$name.log" | head -n 1)"
    (( $(date +%s) - started < 30 )) || { log "$name did not start"; cat "$results/$name.log" >&2; exit 1; }
    sleep 0.1
  done
  python3 "$here/make-sessions.py" "http://127.0.0.1:$port" "$sessions" "$results/$name.sessions"
  SESSIONS_FILE="$results/$name.sessions" WRK_THREADS=2 wrk -t2 -c"$connections" -d"$warmup" -s "$here/wrk/push_pop.lua" "http://127.0.0.1:$port" >/dev/null
  local before after cpu_before cpu_after database=""
  [[ "$store" == postgres* ]] && database=$(database_processes)
  if [[ "$store" == postgres* ]]; then before=$(wal_bytes); else before=$(awk '/^write_bytes/ {print $2}' "/proc/$pid/io"); fi
  # shellcheck disable=SC2086
  cpu_before=$(cpu "$pid" $database)
  SESSIONS_FILE="$results/$name.sessions" WRK_THREADS=2 wrk -t2 -c"$connections" -d"$duration" -s "$here/wrk/push_pop.lua" \
    "http://127.0.0.1:$port" >"$results/$name.wrk"
  # shellcheck disable=SC2086
  cpu_after=$(cpu "$pid" $database)
  if [[ "$store" == postgres* ]]; then after=$(wal_bytes); else after=$(awk '/^write_bytes/ {print $2}' "/proc/$pid/io"); fi
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
  rm -f "$results/$name.sqlite"*
  local rate requests
  rate=$(awk '/^Requests\/sec/ {print $2}' "$results/$name.wrk")
  requests=$(awk '/requests in/ {print $1}' "$results/$name.wrk")
  grep -q "starved=0 unmatched=0" "$results/$name.wrk" || { log "$name: wrk's sessions went wrong"; cat "$results/$name.wrk" >&2; exit 1; }
  grep -q "Non-2xx" "$results/$name.wrk" && { log "$name: answers other than 2xx"; cat "$results/$name.wrk" >&2; exit 1; }
  # Every session in play: each one's share of the requests within 10% of the mean.
  local spread
  spread=$(grep '^WRK_SPREAD ' "$results/$name.wrk")
  log "$name: ${spread#WRK_SPREAD }"
  awk -v sessions="$sessions" '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
    END { exit !(v["sessions"] == sessions && v["min"] >= 0.9 * v["mean"] && v["max"] <= 1.1 * v["mean"]) }' <<<"$spread" \
    || { log "$name: the requests did not spread over every session within 10% of the mean"; exit 1; }
  echo "$rate $(( (after - before) / requests )) $(( (cpu_after - cpu_before) * 1000000 / ticks / requests ))"
}

for round in $(seq 1 "$rounds"); do
  for server in $stores; do
    case "$server" in
      memory) line=$(run "memory-$round" "$head_bin" memory) ;;
      sqlite) line=$(run "sqlite-$round" "$head_bin" "sqlite:$results/sqlite-$round.sqlite") ;;
      postgres) line=$(run "postgres-$round" "$head_bin" "${cluster#* }") ;;
      ref-memory) line=$(run "ref-memory-$round" "$ref_bin" memory) ;;
      ref-sqlite) line=$(run "ref-sqlite-$round" "$ref_bin" "sqlite:$results/ref-sqlite-$round.sqlite") ;;
    esac
    log "round $round $server: $line"
    echo "$server $line" >>"$results/table"
  done
done

python3 - "$results/table" "$ref" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
ref = sys.argv[2]
names = {"memory": "memory", "sqlite": "SQLite", "postgres": "PostgreSQL", "ref-memory": f"{ref} memory", "ref-sqlite": f"{ref} SQLite"}
median = lambda server, column: statistics.median(float(row[column]) for row in rows if row[0] == server)
servers = [server for server in names if any(row[0] == server for row in rows)]
print(f"push/pop, wrk -t2 -c64 over the sessions, medians of {max(sum(1 for row in rows if row[0] == s) for s in servers)} rounds:")
for server in servers:
    extra = {"sqlite": f", {median(server, 2):.0f} bytes written to disk per mutation",
             "ref-sqlite": f", {median(server, 2):.0f} bytes written to disk per mutation",
             "postgres": f", {median(server, 2):.0f} bytes of WAL per mutation, CPU of the instance and the database"}.get(server, "")
    print(f"  {names[server]}: {median(server, 1):.0f} req/s, {median(server, 3):.0f} µs CPU per mutation{extra}")
rate = {server: median(server, 1) for server in servers}
for a, b in [("sqlite", "memory"), ("sqlite", "ref-memory"), ("postgres", "sqlite"), ("memory", "ref-memory")]:
    if a in rate and b in rate:
        print(f"  {names[a]}/{names[b]}: {rate[a] / rate[b]:.2f}x")
EOF
log "raw output in $results"
